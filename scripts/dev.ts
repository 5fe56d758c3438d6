/**
 * `npm run dev`: the real n8n (2.30.0, from the e2e cache; installed on first use) with the freshly
 * built package loaded, the embedded sandbox running with a few thousand deals, and a Loan CRM
 * credential for it already imported. Prints the editor URL, the login and the sandbox's credential
 * values, then stays up until Ctrl-C.
 *
 *   npm run dev -- [--port 5678] [--sandbox-port 8099] [--deals 3000] [--lively [--lively-every 10]] [--fresh] [--check]
 *
 * --lively   the sandbox's data changes by itself, one change every 10 seconds (--lively-every S):
 *            deals settle, contacts are created, deals are edited (sandbox/lively.ts); each change
 *            is printed. For watching a published trigger fire.
 *
 * The sandbox sends its webhooks (sandbox/webhooks.ts) for every change to the Production URL of the
 * examples' Loan CRM Webhook Triggers (examples/deal-settled-instant.json), as the service's team
 * would once asked: publish that example and each settlement runs it within seconds.
 * --fresh    use a throw-away n8n user folder instead of <cache>/dev-user-folder
 * --check    start, check that the editor answers HTTP 200, stop (exit 0 / 1)
 *
 * The user folder persists between runs (workflows you build stay); the sandbox credential is
 * re-imported on every start because the sandbox's client secret is new each time. The examples
 * in examples/ are imported on the first start of a folder, ready to publish: their Loan CRM nodes
 * use the sandbox credential, and nodes needing a credential dev cannot have (Slack) are disabled
 * (scripts/dev-examples.ts).
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'fs';
import { join } from 'path';

import { sandboxCredential } from '../harness/sandbox-credential';
import { DEFAULT_LIVELY_SECONDS, startLively, startSandbox } from '../sandbox';
import { DEV_CREDENTIAL, exampleWebhooks, prepareExamples } from './dev-examples';
import { EXAMPLES_DIR } from './e2e/examples';
import { cacheDir, ensureN8n, N8N_VERSION } from './e2e/install';
import { DEV_OWNER, N8nInstance, N8nRest, buildAndPack, installPackage, portOrFree } from './e2e/n8n';
import { installInterruptHandler, interruptRequested, intOption, log, onInterrupt, tail } from './e2e/util';

async function main(): Promise<number> {
	installInterruptHandler();
	const check = process.argv.includes('--check');
	const fresh = process.argv.includes('--fresh') || check;
	const started = Date.now();

	const install = await ensureN8n();
	const userFolder = fresh ? undefined : join(cacheDir(), 'dev-user-folder');
	if (userFolder) mkdirSync(userFolder, { recursive: true });
	const firstStart = !userFolder || !existsSync(join(userFolder, '.n8n', 'database.sqlite'));
	const port = await portOrFree(intOption('--port', 5678));
	const n8n = await new N8nInstance(install, userFolder).init({ port, logLevel: 'info' });

	log('building the package (npm run build + npm pack)');
	const workDir = join(n8n.userFolder, 'pack-tmp');
	rmSync(workDir, { recursive: true, force: true });
	const pack = await buildAndPack(workDir);
	await installPackage(n8n.userFolder, pack);
	rmSync(workDir, { recursive: true, force: true });

	const deals = intOption('--deals', 3000);
	const sandbox = await startSandbox({ sizes: { deals, contacts: Math.max(120, Math.round(deals / 4)) }, port: await portOrFree(intOption('--sandbox-port', 8099)) });
	const credentialData = sandboxCredential(sandbox);
	log(`sandbox up at ${sandbox.baseUrl} (${sandbox.data.count('deals')} deals); importing the credential`);
	await n8n.importSandboxCredentials(sandbox, DEV_CREDENTIAL);
	let disabledInExamples: string[] = [];
	if (firstStart) {
		const examples = prepareExamples(EXAMPLES_DIR, install.n8nDir, DEV_CREDENTIAL);
		if (examples.workflows.length > 0) {
			log(`importing ${examples.workflows.length} example workflow(s) from examples/, with the sandbox credential`);
			// One file each: n8n gives each its id, as for a user's import.
			await n8n.importSeparately(examples.workflows.map((workflow, index) => [`${index}.json`, workflow]));
			disabledInExamples = examples.disabled;
		}
	}
	// The service's team, as it were: the sandbox sends its webhooks to the examples' Webhook Triggers
	// (answered 404 by n8n, and given up after a few retries, until the example is published).
	const webhooks = exampleWebhooks(EXAMPLES_DIR).map((example) => ({
		...example,
		subscription: sandbox.webhooks.subscribe({ url: `http://127.0.0.1:${port}/webhook/${example.path}`, types: example.resources, name: `${example.workflow} (npm run dev)` }),
	}));
	const livelySeconds = process.argv.includes('--lively') ? intOption('--lively-every', DEFAULT_LIVELY_SECONDS) : undefined;
	if (livelySeconds === 0) throw new Error('--lively-every needs at least 1 second');

	let stopping = false;
	const shutdown = async (code: number) => {
		if (stopping) return;
		stopping = true;
		console.log('\nStopping n8n and the sandbox …');
		await n8n.stop();
		await sandbox.close();
		if (fresh) n8n.remove();
		process.exit(code);
	};
	// Ctrl-C: the interrupt handler stops n8n (its own process group), then this runs.
	onInterrupt(() => {
		stopping = true;
		if (fresh) n8n.remove();
		else writeFileSync(join(n8n.userFolder, 'n8n.log'), n8n.serverOutput);
		console.log(`Stopped. ${sandbox.apiRequests().length} sandbox API requests this session.`);
	});

	log(`starting n8n ${N8N_VERSION} (log: ${join(n8n.userFolder, 'n8n.log')})`);
	try {
		await n8n.start(port, 180_000);
	} catch (error) {
		console.error(error instanceof Error ? error.message : error);
		await shutdown(1);
		return 1;
	}
	const logFile = join(n8n.userFolder, 'n8n.log');
	const flushLog = () => writeFileSync(logFile, n8n.serverOutput);
	const logTimer = setInterval(flushLog, 2000);
	logTimer.unref();

	const rest = new N8nRest(`http://127.0.0.1:${port}`);
	const session = await rest.ownerSession().catch((error: unknown) => `not set up (${error instanceof Error ? error.message : String(error)})`);
	const editorUrl = `http://localhost:${port}/`;
	const editor = await fetch(editorUrl).catch(() => undefined);

	console.log(`
n8n ${N8N_VERSION} with ${pack.name}@${pack.version} is up (${((Date.now() - started) / 1000).toFixed(0)} s)

  Editor:        ${editorUrl}   (HTTP ${editor?.status ?? 'no answer'})
  Log in:        ${DEV_OWNER.email} / ${DEV_OWNER.password}   (owner ${session})
  User folder:   ${n8n.userFolder}${fresh ? ' (removed on exit)' : ''}

Loan CRM sandbox (credential "${DEV_CREDENTIAL.name}" is already imported)
  Base URL:      ${credentialData.baseUrl}
  Token URL:     ${credentialData.accessTokenUrl}
  Client ID:     ${credentialData.clientId}
  Client secret: ${credentialData.clientSecret}
  Scope:         api
  Client auth:   Send as Basic Auth Header (header)
  User ID:       ${credentialData.userId}
  Data:          ${sandbox.data.count('deals')} deals, ${sandbox.data.count('contacts')} contacts
  Lively:        ${livelySeconds === undefined ? 'off (add --lively: deals settle, contacts appear, deals change by themselves)' : `one change every ${livelySeconds} s: a deal settles or enters Pending Settlement, a contact is created, a deal's lender changes`}
${webhooks.map((webhook) => `  Webhook:       ${webhook.resources.join(', ')} → http://localhost:${port}/webhook/${webhook.path} ("${webhook.workflow}": publish it to receive them)`).join('\n')}
${disabledInExamples.length > 0 ? `\nImported disabled (no credential for them here): ${disabledInExamples.join('; ')}\n` : ''}${check ? '' : '\nPress Ctrl-C to stop.'}`);

	if (livelySeconds !== undefined && !check) {
		startLively(sandbox.data, livelySeconds, (line) => console.log(`${new Date().toISOString().slice(11, 19)} lively: ${line}`));
	}

	if (!check) {
		n8n.serverProcess?.once('exit', (code) => {
			if (stopping || interruptRequested()) return;
			flushLog();
			console.error(`n8n exited (${code}); last output:\n${tail(n8n.serverOutput, 30)}`);
			void shutdown(1);
		});
		return await new Promise<number>(() => undefined);
	}
	const ok = editor?.status === 200 && (await editor.text()).includes('<html');
	console.log(ok ? 'check: the editor answered HTTP 200 with the app page' : `check FAILED: the editor answered ${editor?.status ?? 'nothing'}`);
	await shutdown(ok ? 0 : 1);
	return ok ? 0 : 1;
}

main().catch((error: unknown) => {
	console.error(`npm run dev failed: ${error instanceof Error ? error.message : String(error)}`);
	process.exit(2);
});
