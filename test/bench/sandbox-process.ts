/**
 * The sandbox service in a process of its own, so its CPU time and memory stay out of the figures
 * of the process that runs n8n's engine (or the floor loop). Started by bench.ts with `fork`.
 *
 *   sandbox-process.ts --deals N [--latency MS --jitter MS] [--deal-layout LAYOUT]
 *
 * With --deal-layout the N deals have the ids of that layout (sandbox/layouts.ts).
 *
 * Besides the sandbox it listens on a second loopback port for the bench's control calls, which
 * the sandbox neither logs nor charges:
 *   POST /reset        clear the request log and the rate-limit tally, start a CPU-time window
 *   GET  /stats        requests, token requests, rate-limit tokens spent, statuses, CPU ms since /reset
 *   GET  /ids?type=T&n=N   the first N ids of a resource type
 *   POST /data-reset   undo every change made through the API
 *   POST /touch?n=N[&dealStatus=S]   change N deals in a scrambled order, 1 ms apart on the
 *                      sandbox's clock (a bulk import); answers their ids in change order
 *   POST /clock?offsetMs=N   the sandbox's clock runs N ms ahead of the machine's from now on (0: back)
 * It sends `{ ready, sandbox, controlUrl }` to its parent once listening, and stops on 'stop' or
 * when its parent goes away.
 */
import http from 'http';
import type { AddressInfo } from 'net';

import { idLayout, startSandbox } from '../../sandbox';
import type { IdLayout, LoggedRequest, Sandbox } from '../../sandbox';

export interface SandboxInfo {
	baseUrl: string;
	tokenUrl: string;
	clientId: string;
	clientSecret: string;
	userId: string;
	deals: number;
	controlUrl: string;
}

export interface SandboxStats {
	api: number;
	token: number;
	spent: number;
	/** Count of API answers per status, e.g. { '200': 101 }. */
	statuses: Record<string, number>;
	/** API requests per method and path pattern, e.g. { 'GET /jsonapi/deals': 101 }. */
	routes: Record<string, number>;
	/** Requests that carried `page[number]` > 1. */
	pageNumberRequests: number;
	/** CPU time (user + system) the sandbox process used since the last /reset. */
	cpuMs: number;
	/** Round trips since the last /reset, from the request log (`roundTrips`). */
	rounds: number;
}

/**
 * How many round trips one after the other the logged requests took: a request is one round after
 * the latest round of the requests that had been answered when it arrived (the sandbox's own count
 * of what was in flight, `inFlightAtArrival`, not timings), so a read that keeps P requests in
 * flight over N pages shows ⌈N ÷ P⌉. It is the number of latency steps the read waited for; the
 * client's CPU time between answers adds to it only where it holds a request back for longer than
 * a round trip (on a busy machine: 166 for 50,000 deals at 4 where the planner needs 127).
 */
export function roundTrips(requests: readonly LoggedRequest[]): number {
	const ordered = [...requests].sort((a, b) => a.seq - b.seq);
	const roundOf: number[] = [];
	let rounds = 0;
	ordered.forEach((request, index) => {
		const inFlight = new Set(request.inFlightAtArrival);
		let before = 0;
		for (let earlier = 0; earlier < index; earlier++) if (!inFlight.has(ordered[earlier].seq)) before = Math.max(before, roundOf[earlier]);
		roundOf.push(before + 1);
		rounds = Math.max(rounds, before + 1);
	});
	return rounds;
}

function arg(name: string): string | undefined {
	const index = process.argv.indexOf(name);
	return index >= 0 ? process.argv[index + 1] : undefined;
}

function stats(sandbox: Sandbox, cpuStart: NodeJS.CpuUsage): SandboxStats {
	const api = sandbox.apiRequests();
	const statuses: Record<string, number> = {};
	const routes: Record<string, number> = {};
	let pageNumberRequests = 0;
	for (const request of api) {
		statuses[String(request.status)] = (statuses[String(request.status)] ?? 0) + 1;
		const route = `${request.method} ${request.path.replace(/\/\d+(?=\/|$)/g, '/{id}')}`;
		routes[route] = (routes[route] ?? 0) + 1;
		if (Number(request.query['page[number]'] ?? '1') > 1) pageNumberRequests++;
	}
	const cpu = process.cpuUsage(cpuStart);
	return {
		api: api.length,
		token: sandbox.tokenRequests().length,
		spent: sandbox.rateLimitSpent(),
		statuses,
		routes,
		pageNumberRequests,
		cpuMs: (cpu.user + cpu.system) / 1000,
		rounds: roundTrips([...api, ...sandbox.tokenRequests()]),
	};
}

async function main(): Promise<void> {
	const deals = Number(arg('--deals') ?? '1000');
	const latency = Number(arg('--latency') ?? '0');
	const layout = arg('--deal-layout') as IdLayout | undefined;
	/** The sandbox's one clock: the machine's, `offsetMs` ahead (POST /clock); its latency plays on real time. */
	let offsetMs = 0;
	const sandbox = await startSandbox({
		clock: { now: () => Date.now() + offsetMs },
		sizes: { deals },
		dealIds: layout === undefined ? undefined : idLayout(layout, deals),
		latency: latency > 0 ? { ms: latency, jitterMs: Number(arg('--jitter') ?? '0') } : false,
	});
	let cpuStart = process.cpuUsage();

	const control = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://control');
		const reply = (status: number, body: unknown) => {
			const text = JSON.stringify(body);
			res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
			res.end(text);
		};
		req.resume();
		req.on('end', () => {
			try {
				if (req.method === 'POST' && url.pathname === '/reset') {
					sandbox.clearLog();
					sandbox.clearFaults();
					sandbox.resetRateLimitSpent();
					cpuStart = process.cpuUsage();
					return reply(200, {});
				}
				if (req.method === 'GET' && url.pathname === '/stats') return reply(200, stats(sandbox, cpuStart));
				if (req.method === 'GET' && url.pathname === '/ids') {
					const type = url.searchParams.get('type') ?? 'deals';
					const n = Number(url.searchParams.get('n') ?? '100');
					return reply(200, sandbox.data.idsOf(type).slice(0, n));
				}
				if (req.method === 'POST' && url.pathname === '/touch') {
					const ids = sandbox.data.idsOf('deals');
					const n = Math.min(Number(url.searchParams.get('n') ?? '0'), ids.length);
					const dealStatus = url.searchParams.get('dealStatus') ?? undefined;
					// A stride coprime with n visits every one of the first n deals once, not in id order.
					const stride = [7919, 7907, 7901].find((candidate) => n % candidate !== 0) ?? 1;
					const start = sandbox.data.now().getTime();
					const order = Array.from({ length: n }, (_, index) => ids[(index * stride) % n]);
					order.forEach((id, index) => {
						const stamp = new Date(start + index).toISOString();
						sandbox.data.updateDeal(id, { name: `Imported ${index}`, updated: stamp, ...(dealStatus ? { dealStatus } : {}) });
					});
					return reply(200, order);
				}
				if (req.method === 'POST' && url.pathname === '/clock') {
					offsetMs = Number(url.searchParams.get('offsetMs') ?? '0');
					return reply(200, {});
				}
				if (req.method === 'POST' && url.pathname === '/data-reset') {
					sandbox.data.reset();
					return reply(200, {});
				}
				return reply(404, { error: `no control route ${req.method} ${url.pathname}` });
			} catch (error) {
				return reply(500, { error: String(error) });
			}
		});
	});
	// The workers' fetch keeps its connection to this port between calls that can be a measured run
	// apart: a server closing it after Node's default 5 s idle races their next call on a busy machine.
	control.keepAliveTimeout = 10 * 60_000;
	await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
	const controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;

	const stop = () => {
		control.close();
		sandbox.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('message', (message) => {
		if (message === 'stop') stop();
	});
	process.on('disconnect', stop);
	process.on('SIGTERM', stop);

	const info: SandboxInfo = {
		baseUrl: sandbox.baseUrl,
		tokenUrl: sandbox.tokenUrl,
		clientId: sandbox.clientId,
		clientSecret: sandbox.clientSecret,
		userId: sandbox.userId,
		deals: sandbox.data.count('deals'),
		controlUrl,
	};
	process.send?.({ ready: true, sandbox: info });
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
