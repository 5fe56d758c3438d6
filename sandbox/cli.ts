/**
 * Runs the sandbox service until Ctrl-C.
 *
 *   npx ts-node --transpile-only sandbox/cli.ts [--port 8080] [--deals 5000] [--rate-limit]
 *     [--contacts N] [--count-totals] [--token-lifetime SECONDS] [--clock-offset SECONDS] [--latency MS] [--jitter MS]
 *     [--deal-layout dense|oneLongGap|twoIslands|uniformlySparse|clusteredSparse|skewedTop] [--lively [--lively-every SECONDS]]
 *     [--webhook URL [--webhook-types deals,contacts,advisers,organisations] [--webhook-name NAME]]
 *
 * --deal-layout gives the --deals deals ids of that layout (layouts.ts: gaps as a multi-tenant service shows them).
 * --lively changes the data by itself, one change every 10 s (lively.ts): deals settle, contacts are
 * created, deals are edited; each change is printed.
 * --latency plays a network round trip of MS (± --jitter MS, default a fifth of it) on every request.
 * --rate-limit enables a bucket of 600 tokens refilled at 2 per second (about 600 per 5 minutes).
 * --clock-offset runs the service's clock ahead (positive) or behind (negative, e.g. --clock-offset=-300).
 * --webhook sets up a webhook as the service's team would (webhooks.ts): every create and update of
 * the record types (default all four) is POSTed to URL under the name given, retried on a non-2xx
 * answer; each delivery is printed. More with POST /sandbox/webhooks.
 */
import { DEFAULT_LIVELY_SECONDS, ID_LAYOUTS, WEBHOOK_ADMIN_PATH, WEBHOOK_TYPES, idLayout, offsetClock, startLively, startSandbox } from './index';
import type { IdLayout } from './index';

function arg(name: string): string | undefined {
	const index = process.argv.indexOf(name);
	if (index >= 0) return process.argv[index + 1];
	const prefixed = process.argv.find((a) => a.startsWith(`${name}=`));
	return prefixed?.slice(name.length + 1);
}

function flag(name: string): boolean {
	return process.argv.includes(name);
}

function int(name: string): number | undefined {
	const value = arg(name);
	if (value === undefined) return undefined;
	const n = Number(value);
	if (!Number.isInteger(n) || n < 0) {
		console.error(`${name} needs a whole number, got '${value}'`);
		process.exit(2);
	}
	return n;
}

async function main(): Promise<void> {
	if (flag('--help') || flag('-h')) {
		console.log(
			`Usage: cli.ts [--port N] [--deals N] [--contacts N] [--rate-limit] [--count-totals] [--token-lifetime S] [--clock-offset S] [--latency MS] [--jitter MS] [--deal-layout ${ID_LAYOUTS.join('|')}] [--lively [--lively-every S]] [--webhook URL [--webhook-types ${WEBHOOK_TYPES.join(',')}] [--webhook-name NAME]]`,
		);
		return;
	}
	const layout = arg('--deal-layout');
	if (layout !== undefined && !(ID_LAYOUTS as readonly string[]).includes(layout)) {
		console.error(`--deal-layout needs one of ${ID_LAYOUTS.join(', ')}, got '${layout}'`);
		process.exit(2);
	}
	const offset = arg('--clock-offset');
	if (offset !== undefined && !/^-?\d+$/.test(offset)) {
		console.error(`--clock-offset needs a whole number of seconds, got '${offset}'`);
		process.exit(2);
	}
	const deals = int('--deals');
	const contacts = int('--contacts');
	const latency = int('--latency');
	const started = Date.now();
	const sandbox = await startSandbox({
		port: int('--port') ?? 0,
		sizes: { ...(deals !== undefined ? { deals } : {}), ...(contacts !== undefined ? { contacts } : {}) },
		dealIds: layout === undefined ? undefined : idLayout(layout as IdLayout, deals ?? 5050),
		rateLimit: flag('--rate-limit') ? { capacity: 600, refillPerSecond: 2 } : false,
		countTotals: flag('--count-totals'),
		tokenLifetimeSeconds: int('--token-lifetime'),
		clock: offsetClock(offset === undefined ? 0 : Number(offset)),
		latency: latency ? { ms: latency, jitterMs: int('--jitter') ?? Math.round(latency / 5) } : false,
	});
	console.log(`Loan CRM sandbox is up (${Date.now() - started} ms, ${sandbox.data.count('deals')} deals)`);
	console.log(`  Base URL:      ${sandbox.baseUrl}`);
	console.log(`  Token URL:     ${sandbox.tokenUrl}`);
	console.log(`  Client ID:     ${sandbox.clientId}`);
	console.log(`  Client secret: ${sandbox.clientSecret}`);
	console.log('  Scope:         api');
	console.log(`  UserId:        ${sandbox.userId}`);
	const livelySeconds = flag('--lively') ? (int('--lively-every') ?? DEFAULT_LIVELY_SECONDS) : undefined;
	if (livelySeconds !== undefined) {
		if (livelySeconds < 1) {
			console.error('--lively-every needs at least 1 second');
			process.exit(2);
		}
		console.log(`  Lively:        one change every ${livelySeconds} s (a deal settles or enters Pending Settlement, a contact is created, a deal's lender changes)`);
		startLively(sandbox.data, livelySeconds, (line) => console.log(`${new Date().toISOString().slice(11, 19)} lively: ${line}`));
	}
	const webhookUrl = arg('--webhook');
	if (webhookUrl !== undefined) {
		try {
			const types = arg('--webhook-types')?.split(',').map((type) => type.trim()).filter((type) => type !== '');
			const subscription = sandbox.webhooks.subscribe({ url: webhookUrl, types, name: arg('--webhook-name') ?? 'Sandbox webhook' });
			console.log(`  Webhook:       ${subscription.types.join(', ')} → ${subscription.url} ("${subscription.name}"); more at ${sandbox.baseUrl}${WEBHOOK_ADMIN_PATH}`);
		} catch (error) {
			console.error(`--webhook: ${error instanceof Error ? error.message : String(error)}`);
			process.exit(2);
		}
		let reported = 0;
		setInterval(() => {
			// In order: each once it is delivered or given up.
			for (let delivery = sandbox.webhooks.deliveries[reported]; delivery?.done === true; delivery = sandbox.webhooks.deliveries[reported]) {
				reported += 1;
				const statuses = delivery.attempts.map((attempt) => attempt.status || 'no connection').join(', ');
				console.log(`${new Date().toISOString().slice(11, 19)} webhook: ${delivery.type} ${delivery.id} → ${statuses}${delivery.delivered ? '' : ' (given up)'}`);
			}
		}, 1000).unref();
	}
	console.log('Press Ctrl-C to stop.');
	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		const api = sandbox.apiRequests().length;
		sandbox.close().then(
			() => {
				console.log(`\nStopped after ${api} API requests.`);
				process.exit(0);
			},
			() => process.exit(1),
		);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
