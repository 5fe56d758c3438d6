/**
 * `npm run test:e2e`: the package in the real n8n CLI, against the embedded sandbox, on every n8n
 * version of install.ts's N8N_VERSIONS, single-process and in queue mode (matrix.ts runs the legs
 * and prints the summary; `--n8n <version>` and `--mode single|queue` pick legs). One leg, single
 * process:
 *
 *   1. Node 24 + n8n <version> from the cache (installed on first use; see install.ts)
 *   2. npm run build, npm pack, install the tarball into a fresh user folder as n8n's
 *      community-package installer does
 *   3. the sandbox, in this process (its request log is read directly)
 *   4. n8n import:credentials, import:workflow (our workflows and examples/*.json), export:workflow
 *   5. n8n execute --id … --rawOutput: every operation of the four action nodes; token reuse and
 *      renewal after a 401 across executions; a failing request without Continue On Fail
 *   6. n8n start with the trigger workflows published: polls, emits each change once; Deal Status
 *      Changed emits each move into Settled once and no edit; the Contacts Trigger emits a new contact;
 *      on one version, the web-form example's form sent twice (web-form.ts), the web-form-to-lead
 *      example's (web-form-lead.ts), and the lead-routing example's from three areas (lead-routing.ts);
 *      the Webhook Trigger example on the sandbox's webhooks (webhook-trigger.ts)
 *   7. on the newest n8n only (they do not depend on the version), twice — with and without durable
 *      poll cursors, each in its own user folder: n8n stopped while deals change, then started
 *      again; n8n killed during a long poll (restarts.ts)
 *
 * Options (environment): LOAN_CRM_E2E_CACHE (install cache), LOAN_CRM_E2E_KEEP=1 (keep the user
 * folder for inspection), LOAN_CRM_E2E_SKIP_BUILD=1 (use the current dist/), LOAN_CRM_E2E_SKIP_TRIGGER=1,
 * LOAN_CRM_E2E_DURABLE_CURSORS=0 (on n8n ≥ 2.36 the legs run poll triggers on n8n's durable
 * scheduler, their static data committed with each execution — N8N_POLLER_DURABLE_CURSORS_ENABLED
 * and the flags it depends on; 0 turns that off; older n8n has no such flags).
 * Exit code 0 when every check passed, 1 when one failed, 2 when the run could not be set up.
 */
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import type { ICredentialDataDecryptedObject, IDataObject, IRun } from 'n8n-workflow';

import type { LoggedRequest, Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import type { ExpectedRequest, OperationCase } from './cases';
import { contractCases, errorCases } from './cases';
import { CheckLog, isPollRead, nodeItems, same } from './check-helpers';
import { EXAMPLES_DIR, exampleFiles, validateExamples } from './examples';
import type { N8nVersion } from './install';
import { N8N_VERSIONS, ensureN8n } from './install';
import { runE2e } from './matrix';
import { knownIssue } from './known-issues';
import { MCP_WORKFLOW_ID, checkMcp, editorToolNodes, mcpWorkflow } from './mcp';
import { checkOfflineInstall } from './offline-install';
import { checkErrorWorkflow, prepareErrorWorkflows } from './error-workflow';
import { checkRestarts } from './restarts';
import { DURABLE_CURSOR_ENV, N8nInstance, N8nRest, buildAndPack, freePort, installPackage, legTarball, startSink } from './n8n';
import { Timings, installInterruptHandler, log, onInterrupt, sleep, tail, waitFor } from './util';
import type { CredentialRef } from './workflows';
import {
	DIALOG_CREDENTIAL_ID, E2E_CREDENTIAL, MANUAL, PACKAGE, TRANSITION_FILTER, TRIGGER_FILTER, WORKFLOW_IDS,
	contactsTriggerWorkflow, failureWorkflow, operationsWorkflow, tokenWorkflow, transitionWorkflow, triggerWorkflow,
} from './workflows';
import { checkCredentialEdit } from './credential-edit';
import type { WebFormScenario } from './web-form';
import { WEB_FORM_N8N_VERSION, WEB_FORM_WORKFLOW_ID, checkWebFormTwice, webFormScenario } from './web-form';
import type { WebFormLeadScenario } from './web-form-lead';
import { WEB_FORM_LEAD_WORKFLOW_ID, checkWebFormLeadTwice, webFormLeadScenario } from './web-form-lead';
import type { LeadRoutingScenario } from './lead-routing';
import { LEAD_ROUTING_WORKFLOW_ID, checkLeadRouting, leadRoutingScenario } from './lead-routing';
import type { FactFindScenario } from './fact-find';
import { FACT_FIND_WORKFLOW_ID, checkFactFindForm, factFindScenario } from './fact-find';
import { checkCustomApiCall, checkCustomApiCallEditor, customApiCallWorkflow, httpRequestNodeVersion } from './custom-api-call';
import type { WebhookTriggerScenario } from './webhook-trigger';
import { WEBHOOK_TRIGGER_N8N_VERSION, WEBHOOK_TRIGGER_WORKFLOW_ID, checkWebhookTrigger, webhookTriggerScenario } from './webhook-trigger';
import { sandboxCredential } from '../../harness/sandbox-credential';
import { loadPackageSource } from '../../harness/package-source';

const timings = new Timings();

const checks = new CheckLog(knownIssue, Boolean(process.env.LOAN_CRM_E2E_STRICT));
const { record } = checks;

function pathMatches(expected: string | RegExp, actual: string): boolean {
	return typeof expected === 'string' ? expected === actual : expected.test(actual);
}

function describeRequest(request: LoggedRequest): string {
	return `${request.method} ${request.path}${request.rawQuery ? `?${decodeURIComponent(request.rawQuery)}` : ''} → ${request.status}`;
}

/** Header checks every API request must pass. */
/** The headers every request carries: the UserId (the credential's, or the one the case expects), a token, the media type. */
function headerProblems(sandbox: Sandbox, request: LoggedRequest, userId = sandbox.userId): string[] {
	const problems: string[] = [];
	if (request.headers.userid !== userId) problems.push(`${request.method} ${request.path}: UserId header ${JSON.stringify(request.headers.userid)}, expected ${userId}`);
	if (!/^Bearer \S+/.test(request.headers.authorization ?? '')) problems.push(`${request.method} ${request.path}: no Bearer token (Authorization ${JSON.stringify(request.headers.authorization)})`);
	if (request.headers.accept !== 'application/vnd.api+json') problems.push(`${request.method} ${request.path}: Accept ${JSON.stringify(request.headers.accept)}`);
	return problems;
}

function excerpt(value: unknown, max = 1500): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value, null, 1);
	return text.length > max ? `${text.slice(0, max)} …` : text;
}

/** Checks one execution of a cases workflow: each node's items and the requests it caused. */
function checkOperations(
	sandbox: Sandbox,
	cases: OperationCase[],
	run: IRun | undefined,
	output: string,
	label: string,
	expectedTokenRequests: number,
): void {
	const failuresBefore = checks.failures;
	const log = sandbox.apiRequests();
	const claimed = new Set<number>();
	const positions: Array<{ key: string; index: number }> = [];
	for (const item of cases) {
		const problems: string[] = [];
		const items = nodeItems(run, item.name);
		if (items === undefined) {
			problems.push(`node "${item.name}" did not run`);
		} else {
			const errors = item.expectsError ? [] : items.filter((entry) => entry.json.error !== undefined);
			for (const entry of errors) problems.push(`node output is an error: ${excerpt(entry.json.error, 600)}`);
			if (errors.length === 0) problems.push(...item.check(items.map((entry) => entry.json)));
			const unpaired = items.filter((entry) => entry.pairedItem === undefined);
			if (unpaired.length > 0) problems.push(`${unpaired.length} output item(s) without pairedItem`);
		}
		for (const expected of item.requests) {
			const index = log.findIndex((request, i) => !claimed.has(i) && request.method === expected.method && pathMatches(expected.path, request.path));
			if (index < 0) {
				const seen = log.filter((request) => request.method === expected.method && pathMatches(expected.path, request.path)).length;
				problems.push(
					seen === 0
						? `no ${expected.method} ${String(expected.path)} request reached the sandbox`
						: `no further ${expected.method} ${String(expected.path)} request (expected one answered ${expected.status ?? 200}) reached the sandbox`,
				);
				continue;
			}
			claimed.add(index);
			positions.push({ key: item.key, index });
			problems.push(...requestProblems(sandbox, expected, log[index]));
		}
		const items0 = items?.map((entry) => entry.json);
		record(item.key, problems, `node "${item.name}" output: ${excerpt(items0 ?? '(did not run)')}`);
	}
	const unexpected = log.filter((_, i) => !claimed.has(i));
	record(
		`${label}: no other API requests`,
		unexpected.map((request) => `unexpected request ${describeRequest(request)}`),
	);
	const outOfOrder = positions.filter((position, i) => i > 0 && position.index < positions[i - 1].index);
	record(
		`${label}: requests in workflow order`,
		outOfOrder.map((position) => `${position.key} ran earlier than the node before it`),
	);
	const tokenRequests = sandbox.tokenRequests();
	record(
		`${label}: ${expectedTokenRequests === 1 ? 'one token for the whole execution' : 'the stored token is used'}`,
		tokenRequests.length === expectedTokenRequests ? [] : [`${tokenRequests.length} token requests, expected ${expectedTokenRequests}`],
	);
	if (checks.failures > failuresBefore) {
		console.log(`\n  n8n execute output (excerpt):\n${tail(output, 40).replace(/^/gm, '    ')}`);
	}
}

function requestProblems(sandbox: Sandbox, expected: ExpectedRequest, request: LoggedRequest): string[] {
	const problems = headerProblems(sandbox, request, expected.userId);
	const expectedStatus = expected.status ?? 200;
	if (request.status !== expectedStatus) problems.push(`${describeRequest(request)}: status ${request.status}, expected ${expectedStatus}; body ${excerpt(request.body, 300)}`);
	if (expected.check) problems.push(...expected.check(request).map((problem) => `${request.method} ${request.path}: ${problem}`));
	return problems;
}

/** `waitFor`, saying in the log what it gave up on. */
async function waitForLogged(what: string, predicate: () => boolean, timeoutMs: number, intervalMs = 200): Promise<boolean> {
	if (await waitFor(predicate, timeoutMs, intervalMs)) return true;
	log(`gave up waiting for ${what} after ${timeoutMs / 1000}s`);
	return false;
}

/** A poll of the Deal Updated trigger: its activation request (the newest stamp) or a read of changes. */
function isTriggerPoll(request: LoggedRequest): boolean {
	if (request.method !== 'GET' || request.path !== '/jsonapi/deals') return false;
	const filter = request.query.filter ?? '';
	const activation = filter === TRIGGER_FILTER && request.query.sort === '-updated' && request.query['fields[deals]'] === 'updated';
	return activation || (/greaterOrEqual\(updated,/.test(filter) && filter.includes(TRIGGER_FILTER));
}

/** A poll of the Deal Status Changed trigger: its baseline (Settled deals, sparse) or a read of every changed deal. */
function isTransitionPoll(request: LoggedRequest): boolean {
	if (request.method !== 'GET' || request.path !== '/jsonapi/deals') return false;
	const filter = request.query.filter ?? '';
	if (request.query['fields[deals]'] === 'dealStatus,updated') return true;
	return /^(and\()?greaterOrEqual\(updated,/.test(filter) && !filter.includes(TRIGGER_FILTER);
}

/** n8n ≥ 2.36 (where N8N_POLLER_DURABLE_CURSORS_ENABLED exists), unless LOAN_CRM_E2E_DURABLE_CURSORS=0. */
function hasDurableCursors(version: string): boolean {
	if (process.env.LOAN_CRM_E2E_DURABLE_CURSORS === '0') return false;
	const [major, minor] = version.split('.').map(Number);
	return major > 2 || (major === 2 && minor >= 36);
}

async function main(N8N_VERSION: N8nVersion): Promise<number> {
	installInterruptHandler();
	console.log(`n8n-nodes-loan-crm end-to-end test in the real n8n ${N8N_VERSION}\n`);
	const install = await timings.step(`n8n ${N8N_VERSION} + Node 24 (cache)`, () => ensureN8n(N8N_VERSION));
	log(`${install.installed ? 'installed into' : 'reusing'} ${install.cacheDir}`);
	const workDir = mkdtempSync(join(tmpdir(), 'loan-crm-e2e-'));
	const pack =
		legTarball() ??
		(await timings.step(process.env.LOAN_CRM_E2E_SKIP_BUILD ? 'npm pack' : 'npm run build + npm pack', () =>
			buildAndPack(workDir, { skipBuild: Boolean(process.env.LOAN_CRM_E2E_SKIP_BUILD) }),
		));
	const sandbox = await timings.step('sandbox', () => startSandbox({}));
	const sink = await startSink();
	const transitionSink = await startSink();
	// examples/web-form-to-contact.json sent twice, on one version only (web-form.ts).
	let webForm: WebFormScenario | undefined;
	// examples/web-form-to-lead.json sent twice, on the same version (web-form-lead.ts).
	let webFormLead: WebFormLeadScenario | undefined;
	// examples/lead-routing.json, its form sent from three areas, on the same version (lead-routing.ts).
	let leadRouting: LeadRoutingScenario | undefined;
	// examples/deal-settled-instant.json on the sandbox's webhooks, on one version (webhook-trigger.ts).
	let instant: WebhookTriggerScenario | undefined;
	// examples/fact-find-to-crm.json, its form for two applicants sent twice, on the same version (fact-find.ts).
	let factFind: FactFindScenario | undefined;
	const contactSink = await startSink('/loan-crm-contacts');
	const port = await freePort();
	const n8n = await new N8nInstance(install).init({ port });
	// Durable poll cursors exist from n8n 2.36 on: the matrix runs the newest 2.x with them and 2.30
	// (and 1.x) without, so the trigger is proven both ways.
	const durableCursors = hasDurableCursors(N8N_VERSION);
	if (durableCursors) Object.assign(n8n.env, DURABLE_CURSOR_ENV);
	log(`user folder ${n8n.userFolder}, sandbox ${sandbox.baseUrl}`);
	onInterrupt(() => {
		n8n.remove();
		rmSync(workDir, { recursive: true, force: true });
	});
	let keep = Boolean(process.env.LOAN_CRM_E2E_KEEP);
	try {
		await timings.step('install the package into the user folder', () => installPackage(n8n.userFolder, pack));
		const credential = E2E_CREDENTIAL;
		if (N8N_VERSION === WEB_FORM_N8N_VERSION) webForm = await webFormScenario(sandbox, credential);
		if (N8N_VERSION === WEB_FORM_N8N_VERSION) webFormLead = await webFormLeadScenario(credential);
		if (N8N_VERSION === WEB_FORM_N8N_VERSION) leadRouting = await leadRoutingScenario(credential);
		if (N8N_VERSION === WEBHOOK_TRIGGER_N8N_VERSION) instant = await webhookTriggerScenario(credential);
		if (N8N_VERSION === WEB_FORM_N8N_VERSION) factFind = await factFindScenario(credential);
		const dialogCredential: CredentialRef = { id: DIALOG_CREDENTIAL_ID, name: 'Loan CRM sandbox (dialog check)' };
		const ids = sandbox.data.ids;
		const cases = contractCases(sandbox);

		// --- import ---------------------------------------------------------------------------
		console.log('\nImport');
		await timings.step('n8n import:credentials', () => n8n.importSandboxCredentials(sandbox, credential, dialogCredential));
		const failures = errorCases(ids);
		const addedTools = await timings.step('n8n export:nodes: tool nodes as the editor adds them (the newest version)', () => editorToolNodes(install, n8n));
		const ours = [
			operationsWorkflow(cases, credential),
			operationsWorkflow(failures.cases, credential, WORKFLOW_IDS.errors, 'E2E: errors and retries'),
			tokenWorkflow(ids.lead, credential),
			tokenWorkflow(ids.lead, dialogCredential, WORKFLOW_IDS.dialog, 'E2E: credential dialog'),
			failureWorkflow(credential),
			triggerWorkflow(sink.url, credential),
			mcpWorkflow(credential, addedTools),
			transitionWorkflow(transitionSink.url, credential),
			...(webForm ? [webForm.workflow] : []),
			...(webFormLead ? [webFormLead.workflow] : []),
			...(leadRouting ? [leadRouting.workflow] : []),
			...(instant ? [instant.workflow] : []),
			...(factFind ? [factFind.workflow] : []),
			contactsTriggerWorkflow(contactSink.url, credential),
			customApiCallWorkflow(sandbox, credential, httpRequestNodeVersion(install.n8nDir)),
		];
		// The examples as their files are, as a user imports them.
		const examples = exampleFiles();
		const files: Array<[string, unknown]> = [...ours.map((wf): [string, unknown] => [`${wf.id}.json`, wf]), ...examples.map((file): [string, unknown] => [`example-${file}`, readFileSync(join(EXAMPLES_DIR, file), 'utf8')])];
		const imported = await timings.step(`n8n import:workflow --separate (${ours.length} + ${examples.length} examples)`, () => n8n.importSeparately(files));
		const exported = await timings.step('n8n export:workflow --all', () => n8n.exportWorkflows());
		record(
			`examples/*.json import into n8n ${N8N_VERSION} (${examples.join(', ')})`,
			validateExamples(install, examples, exported, pack),
			`import output: ${tail(imported.stdout + imported.stderr, 20)}`,
		);
		record(
			'our workflows imported',
			ours.filter((wf) => !exported.some((e) => e.id === wf.id)).map((wf) => `workflow ${wf.id} missing after import`),
		);

		// --- every operation -----------------------------------------------------------------
		console.log('\nEvery operation (n8n execute)');
		sandbox.clearLog();
		const operations = await timings.step('n8n execute: every operation', () => n8n.execute(WORKFLOW_IDS.operations));
		if (!operations.ok || !operations.run) {
			record('operations workflow executed', [`n8n execute exited ${operations.code}${operations.run ? '' : ' without printing a run'}`], tail(operations.stdout + operations.stderr, 60));
		}
		checkOperations(sandbox, cases, operations.run, operations.stdout + operations.stderr, 'operations', 1);

		// --- the stored token -------------------------------------------------------------------
		console.log('\nCredential across executions');
		sandbox.clearLog();
		const reuse = await timings.step('n8n execute: stored token reused', () => n8n.execute(WORKFLOW_IDS.token));
		record(
			'a new execution reuses the stored token (no token request)',
			[
				...(reuse.ok ? [] : [`n8n execute exited ${reuse.code}: ${tail(reuse.stdout + reuse.stderr, 15)}`]),
				...(sandbox.tokenRequests().length === 0 ? [] : [`${sandbox.tokenRequests().length} token request(s)`]),
				...sandbox.apiRequests().flatMap((request) => (request.status === 200 ? [] : [`${describeRequest(request)}`])),
				...(nodeItems(reuse.run, 'Get lead')?.[0]?.json.id === ids.lead ? [] : ['no lead item']),
			],
		);
		sandbox.clearLog();
		sandbox.expireAllTokens();
		const renew = await timings.step('n8n execute: token renewed after 401', () => n8n.execute(WORKFLOW_IDS.token));
		const renewSequence = sandbox.requests.map((request) => `${request.kind === 'token' ? 'token' : request.method} ${request.status}`);
		console.log(`SUMMARY: token expiry cost ${renewSequence.join(', ')} (expected GET 401, token 200, GET 200)`);
		record(
			'an expired token: 401, one new token, the request repeated once',
			[
				...(renew.ok ? [] : [`n8n execute exited ${renew.code}: ${tail(renew.stdout + renew.stderr, 15)}`]),
				...same('requests', renewSequence, ['GET 401', 'token 200', 'GET 200']),
				...(nodeItems(renew.run, 'Get lead')?.[0]?.json.id === ids.lead ? [] : ['no lead item']),
			],
		);
		sandbox.clearLog();
		const again = await timings.step('n8n execute: renewed token stored', () => n8n.execute(WORKFLOW_IDS.token));
		record('the renewed token is stored for the next execution', [
			...(again.ok ? [] : [`n8n execute exited ${again.code}`]),
			...(sandbox.tokenRequests().length === 0 ? [] : [`${sandbox.tokenRequests().length} token request(s)`]),
		]);
		// The credential-dialog check (under n8n start) begins with a token stored on its credential.
		const dialogFirstRun = await timings.step('n8n execute: a token stored for the credential-dialog check', () => n8n.execute(WORKFLOW_IDS.dialog));
		if (!dialogFirstRun.ok) record('the credential-dialog workflow ran once before the check', [`n8n execute exited ${dialogFirstRun.code}`], tail(dialogFirstRun.stdout + dialogFirstRun.stderr, 40));

		// --- errors and retries -----------------------------------------------------------------
		console.log('\nErrors and retries (Continue On Fail)');
		sandbox.clearLog();
		for (const { path, fault } of failures.faults) sandbox.injectFault({ path, kind: 'api' }, fault, 1);
		const errorsRun = await timings.step('n8n execute: errors and retries', () => n8n.execute(WORKFLOW_IDS.errors));
		sandbox.clearFaults();
		if (!errorsRun.ok || !errorsRun.run) {
			record('errors workflow executed', [`n8n execute exited ${errorsRun.code}${errorsRun.run ? '' : ' without printing a run'}`], tail(errorsRun.stdout + errorsRun.stderr, 60));
		}
		checkOperations(sandbox, failures.cases, errorsRun.run, errorsRun.stdout + errorsRun.stderr, 'errors', 0);

		// --- Custom API Call (scripts/e2e/custom-api-call.ts) ------------------------------------
		console.log('\nCustom API Call (the HTTP Request node with the credential) and Custom Request');
		await timings.step('n8n execute: Custom API Call and Custom Request', () => checkCustomApiCall(n8n, sandbox, record));

		// --- a failure ------------------------------------------------------------------------
		console.log('\nA failing request without Continue On Fail');
		sandbox.clearLog();
		const failure = await timings.step('n8n execute: failing request', () => n8n.execute(WORKFLOW_IDS.failure));
		const failureOutput = failure.stdout + failure.stderr;
		record(
			"a 404 without Continue On Fail fails the execution with the node's message",
			[
				...(failure.ok ? ['n8n execute exited 0'] : []),
				...(/Loan CRM has no lead with ID 999999/.test(failureOutput) ? [] : ['the message "Loan CRM has no lead with ID 999999" is not in n8n\'s output']),
				...(failureOutput.includes(sandbox.clientSecret) ? ['the client secret appears in the output'] : []),
				...(sandbox.apiRequests().length === 1 ? [] : [`${sandbox.apiRequests().length} API requests, expected 1 (no retry of a 404)`]),
			],
			tail(failureOutput, 30),
		);

		// --- installing without the registry (scripts/e2e/offline-install.ts) ------------------
		console.log('\nOffline install from the packed tarball');
		const offline = await timings.step('README offline install into a fresh ~/.n8n/nodes, n8n execute', () => checkOfflineInstall(install, pack.tarball, sandbox));
		record("the README's offline install (npm pack, then npm install <tarball> in ~/.n8n/nodes) gives working nodes", offline.problems, offline.context);

		// --- the trigger ----------------------------------------------------------------------
		if (!process.env.LOAN_CRM_E2E_SKIP_TRIGGER) {
			console.log('\nTrigger (n8n start, published workflow)');
			console.log(`  durable poll cursors: ${durableCursors ? 'on (N8N_POLLER_DURABLE_CURSORS_ENABLED)' : 'off (n8n default)'}`);
			await timings.step('n8n publish:workflow', () => n8n.publish(WORKFLOW_IDS.trigger));
			await timings.step('n8n publish:workflow (MCP Server Trigger)', () => n8n.publish(MCP_WORKFLOW_ID));
			const errorScenario = await timings.step('error workflow: import, publish its failing webhook workflow', () => prepareErrorWorkflows(n8n, credential));
			await timings.step('n8n publish:workflow (Deal Status Changed)', () => n8n.publish(WORKFLOW_IDS.transition));
			if (webForm) await timings.step('n8n publish:workflow (web form example)', () => n8n.publish(WEB_FORM_WORKFLOW_ID));
			if (webFormLead) await timings.step('n8n publish:workflow (web form → lead example)', () => n8n.publish(WEB_FORM_LEAD_WORKFLOW_ID));
			if (leadRouting) await timings.step('n8n publish:workflow (lead routing example)', () => n8n.publish(LEAD_ROUTING_WORKFLOW_ID));
			if (factFind) await timings.step('n8n publish:workflow (fact find example)', () => n8n.publish(FACT_FIND_WORKFLOW_ID));
			await timings.step('n8n publish:workflow (Contacts Trigger)', () => n8n.publish(WORKFLOW_IDS.contacts));
			if (instant) await timings.step('n8n publish:workflow (Webhook Trigger example)', () => n8n.publish(WEBHOOK_TRIGGER_WORKFLOW_ID));
			sandbox.clearLog();
			await timings.step('n8n start (until ready)', () => n8n.start());
			await timings.step('trigger: activation poll, a change, the next poll', () => checkTrigger(n8n, sandbox, sink.received));
			// The Deal Status Changed baseline, before the Fetch Test Event check clears the log.
			const transitionBaseline = sandbox.apiRequests().find((request) => isTransitionPoll(request) && request.query['fields[deals]'] === 'dealStatus,updated');
			const contactsActivation = sandbox.apiRequests().find((request) => request.method === 'GET' && request.path === '/jsonapi/contacts' && request.query.sort === '-created');
			await timings.step('trigger: Fetch Test Event (manual run over REST)', () => checkManualFetch(port, sandbox, sink.received));
			await timings.step('trigger: Deal Status Changed over several polls', () => checkTransitions(n8n, sandbox, transitionSink.received, transitionBaseline));
			await timings.step('trigger: Contacts Trigger, a new contact', () => checkContactsTrigger(n8n, sandbox, contactSink.received, contactsActivation));
			const webFormRun = webForm;
			if (webFormRun) {
				const webFormProblems = await timings.step('web form example: the form sent twice', () => checkWebFormTwice(port, sandbox, webFormRun));
				record('examples/web-form-to-contact.json, its form sent twice: one contact and one reference (the second run finds both)', webFormProblems, `n8n start output (tail):\n${tail(n8n.serverOutput, 30)}`);
			} else {
				console.log(`  SKIP    examples/web-form-to-contact.json sent twice: runs on n8n ${WEB_FORM_N8N_VERSION} only`);
			}
			const webFormLeadRun = webFormLead;
			if (webFormLeadRun) {
				const leadProblems = await timings.step('web form → lead example: the form sent twice', () => checkWebFormLeadTwice(port, sandbox, webFormLeadRun));
				record('examples/web-form-to-lead.json, its form sent twice: one lead, one note per submission (the second run finds the deal)', leadProblems, `n8n start output (tail):\n${tail(n8n.serverOutput, 30)}`);
			} else {
				console.log(`  SKIP    examples/web-form-to-lead.json sent twice: runs on n8n ${WEB_FORM_N8N_VERSION} only`);
			}
			const leadRoutingRun = leadRouting;
			if (leadRoutingRun) {
				const routingProblems = await timings.step('lead routing example: three areas', () => checkLeadRouting(port, sandbox, leadRoutingRun));
				record('examples/lead-routing.json, its form sent from three areas: three leads, each allocated to its area\'s adviser (UserId), each with its enquiry source', routingProblems, `n8n start output (tail):\n${tail(n8n.serverOutput, 30)}`);
			} else {
				console.log(`  SKIP    examples/lead-routing.json from three areas: runs on n8n ${WEB_FORM_N8N_VERSION} only`);
			}
			const instantRun = instant;
			if (instantRun) {
				await timings.step('webhook trigger: a settlement, its retried notification, forged notifications', async () => await checkWebhookTrigger(port, sandbox, await N8nRest.signedIn(port), n8n, instantRun, record));
			} else {
				console.log(`  SKIP    examples/deal-settled-instant.json on the sandbox's webhooks: runs on n8n ${WEBHOOK_TRIGGER_N8N_VERSION} only`);
			}
			const factFindRun = factFind;
			if (factFindRun) {
				const factFindProblems = await timings.step('fact find example: the form for two applicants sent twice', () => checkFactFindForm(port, sandbox, factFindRun));
				record(
					'examples/fact-find-to-crm.json, its form for two applicants sent twice: one deal, both contacts in one client, the incomes, home, loan, card and expenses read back with their owners (the second run finds the deal)',
					factFindProblems,
					`n8n start output (tail):\n${tail(n8n.serverOutput, 30)}`,
				);
			} else {
				console.log(`  SKIP    examples/fact-find-to-crm.json sent twice: runs on n8n ${WEB_FORM_N8N_VERSION} only`);
			}
			await timings.step('editor: credential Test button, node icons', () => checkEditor(port, sandbox, sandboxCredential(sandbox), credential));
			await timings.step('editor: Custom API Call types, the credential list', () => checkCustomApiCallEditor(port, credential, record));
			console.log('\nAI agents (MCP Server Trigger, MCP client)');
			await timings.step('mcp: tools/list and tools/call', () => checkMcp(port, sandbox, record, addedTools));
			const errorProblems = await timings.step('Error Trigger: a 404, a 403 and a bad parameter', () => checkErrorWorkflow(port, sandbox, errorScenario));
			errorScenario.sink.close();
			record("an Error Workflow receives the node's message unchanged and context.itemIndex (404, 403, bad parameter)", errorProblems);
			// Last: it edits and saves the shared credential. It drives the 2.x editor's REST calls; n8n
			// 1.x answers GET /rest/credentials/:id?includeData=true with 500 and its manual-run
			// endpoint takes another body, so there the Test button is proven by checkEditor alone.
			if (N8N_VERSION.startsWith('1.')) {
				console.log('  SKIP    credential dialog (edit, Test, run): scripted for the n8n 2.x editor API');
			} else {
				await timings.step('credential dialog: Test, run, wrong secret, Test, run', () => checkCredentialEdit(port, sandbox, dialogCredential, { id: WORKFLOW_IDS.dialog, trigger: MANUAL }, record));
			}
			await timings.step('n8n stop', () => n8n.stop());
		}
		// Restarts and a killed poll do not depend on the n8n version: the newest only, with and
		// without durable poll cursors (2.36+), each in its own user folder.
		if (!process.env.LOAN_CRM_E2E_SKIP_RESTARTS && N8N_VERSION === N8N_VERSIONS[N8N_VERSIONS.length - 1]) {
			console.log('\nTrigger across restarts (n8n stopped, n8n killed during a poll)');
			for (const durable of [true, false]) {
				await timings.step(`restarts, durable poll cursors ${durable ? 'on' : 'off'}`, () => checkRestarts(install, pack, durable, record));
			}
		}
	} catch (error) {
		keep = true;
		// What n8n said last, and whether it was still running: a REST call that failed is most
		// often n8n gone (a crash is named by its signal).
		const server = n8n.serverProcess;
		if (server !== undefined) console.error(`\nn8n start: ${server.exitCode === null && server.signalCode === null ? 'still running' : `exited (${server.signalCode ?? server.exitCode})`}; its last output:\n${tail(n8n.serverOutput, 40)}`);
		await n8n.stop().catch(() => undefined);
		throw error;
	} finally {
		await n8n.stop().catch(() => undefined);
		await sandbox.close();
		sink.server.close();
		transitionSink.server.close();
		webForm?.sink.close();
		webFormLead?.sink.close();
		leadRouting?.sink.close();
		instant?.sink.close();
		factFind?.sink.close();
		contactSink.server.close();
		if (checks.failures > 0) keep = true;
		if (keep) log(`kept ${n8n.userFolder} and ${workDir} for inspection`);
		else {
			n8n.remove();
			rmSync(workDir, { recursive: true, force: true });
		}
		console.log('\nn8n CLI calls');
		for (const call of n8n.calls) console.log(`  ${(call.ms / 1000).toFixed(1).padStart(6)}s  ${call.command.replace(/--input=\S+/, '--input=…').replace(/--output=\S+/, '--output=…')}`);
		timings.print('Timings');
	}

	return checks.summary(`the real n8n ${N8N_VERSION}`);
}

/**
 * The published trigger workflow under `n8n start`: the activation poll baselines (emits nothing),
 * then a deal that settles and a new settled deal are emitted once each, a deal that moves to
 * another status is not, and later polls emit nothing again.
 */
async function checkTrigger(n8n: N8nInstance, sandbox: Sandbox, received: IDataObject[]): Promise<void> {
	const problems: string[] = [];
	const polls = () => sandbox.apiRequests().filter(isTriggerPoll);
	if (!(await waitForLogged('the activation poll', () => polls().length >= 1, 30_000))) {
		record('trigger: activated and polled', ['the trigger never polled the sandbox'], tail(n8n.serverOutput, 40));
		return;
	}
	const activation = polls()[0];
	problems.push(...headerProblems(sandbox, activation));
	// Activation: one cheap request whose Date header anchors the trigger to the service's clock.
	const activationQuery = { filter: TRIGGER_FILTER, sort: '-updated', 'fields[deals]': 'updated', 'page[size]': '1' };
	problems.push(...same('activation request', activation.query, activationQuery));
	// With durable poll cursors n8n discards what the activation poll stored (it runs as a test),
	// so the first scheduled poll takes the baseline: change nothing before it.
	await waitForLogged('the first scheduled poll', () => polls().length >= 2, 30_000);
	const firstRead = polls()[1];
	const filter = firstRead?.query.filter ?? '';
	if (!filter.endsWith(`,${TRIGGER_FILTER})`) && filter !== TRIGGER_FILTER) problems.push(`poll filter ${JSON.stringify(filter)} does not combine the user's filter ${TRIGGER_FILTER}`);
	await sleep(1000);
	const baseline = received.length;
	if (baseline !== 0) problems.push(`the activation poll emitted ${baseline} item(s); expected none`);

	const candidates = sandbox.data.list('deals').filter((deal) => deal.attributes.dealStatus !== 'Settled');
	const settling = sandbox.data.updateDeal(candidates[0].id, { dealStatus: 'Settled' });
	sandbox.data.updateDeal(candidates[1].id, { dealStatus: 'Lodged', name: 'E2E lodged, must not trigger' });
	const created = sandbox.data.createDeal({ dealStatus: 'Settled', name: 'E2E new settled deal' });
	const pollsBefore = polls().length;
	log(`changed deals ${settling.id} (→ Settled), ${candidates[1].id} (→ Lodged), created ${created.id} (Settled); waiting for the next poll`);
	await waitForLogged('two trigger items at the sink', () => received.length >= 2, 30_000);
	const emitted = received.map((item) => [item.id, item.dealStatus]);
	problems.push(...same('the sink received', emitted, [[settling.id, 'Settled'], [created.id, 'Settled']]));
	const sample = received.find((item) => item.id === created.id);
	if (sample && (sample.type !== 'deals' || sample.name !== 'E2E new settled deal')) problems.push(`item is not the simplified deal: ${excerpt(sample, 400)}`);
	// Two more polls must not repeat anything.
	const afterEmit = polls().length;
	await waitForLogged('two more polls', () => polls().length >= afterEmit + 2, 20_000);
	if (polls().length < afterEmit + 2) problems.push(`only ${polls().length - afterEmit} poll(s) after the emission within 20 s (poll times every 5 s)`);
	if (received.length !== 2) problems.push(`after ${polls().length - afterEmit} more poll(s) the sink holds ${received.length} items (repeats?)`);
	for (const request of polls().slice(pollsBefore)) problems.push(...headerProblems(sandbox, request));
	// Evidence of durable poll cursors: n8n then discards the activation poll's state, so the first
	// scheduled poll takes the baseline again (two activation requests instead of one).
	const activations = polls().filter((request) => request.query.sort === '-updated').length;
	log(`Deal Updated trigger: ${activations} baseline request(s) (1 = state kept from the activation poll, 2 = durable poll cursors re-baselined at the first scheduled poll)`);
	const errorLines = n8n.serverOutput.split('\n').filter((line) => /error/i.test(line) && /loan|crm|trigger|poll/i.test(line));
	record('trigger: activation poll emits nothing; each Settled change once; others never', problems, `n8n start output (tail):\n${tail(n8n.serverOutput, 30)}${errorLines.length ? `\nerror lines:\n${errorLines.join('\n')}` : ''}`);
}

/**
 * The published Deal Status Changed → Settled workflow under `n8n start`, one step per poll: an edit
 * of a deal (nothing), its move into Settled (once, with the status it left), edits of it while
 * settled (nothing), a move out (nothing) and back (once again); a deal settling with a lender the
 * Filter excludes and an edit of a deal settled since activation fire nothing.
 */
async function checkTransitions(n8n: N8nInstance, sandbox: Sandbox, received: IDataObject[], baseline: LoggedRequest | undefined): Promise<void> {
	const problems: string[] = [];
	const polls = () => sandbox.apiRequests().filter(isTransitionPoll);
	if (!baseline) problems.push('no baseline request (Settled deals with fields[deals]=dealStatus,updated) was seen');
	else if (baseline.query.filter !== "equals(dealStatus,'Settled')") problems.push(`baseline filter ${JSON.stringify(baseline.query.filter)}`);
	// Each step waits for two polls to begin after the change: the first may have been under way.
	const nextPolls = async (what: string) => {
		const before = polls().length;
		if (!(await waitForLogged(`two polls after: ${what}`, () => polls().length >= before + 2, 30_000))) problems.push(`fewer than two polls within 30 s after: ${what}`);
		await sleep(1500);
	};
	await nextPolls('activation');
	const start = received.length;
	const deals = sandbox.data.list('deals');
	const candidates = deals.filter((deal) => !['Settled', 'Varied'].includes(deal.attributes.dealStatus) && deal.attributes.lenderName !== 'E2E excluded lender');
	const [deal, excluded] = candidates.slice(-2);
	const alreadySettled = deals.filter((item) => item.attributes.dealStatus === 'Settled').at(-1);
	const original = deal.attributes.dealStatus;
	const steps: Array<[string, () => void]> = [
		[`edit deal ${deal.id} (stays ${original})`, () => sandbox.data.updateDeal(deal.id, { lenderName: 'E2E First Bank' })],
		[`deal ${deal.id} → Settled`, () => sandbox.data.updateDeal(deal.id, { dealStatus: 'Settled' })],
		[`edit deal ${deal.id} while settled, and a deal settled before activation`, () => {
			sandbox.data.updateDeal(deal.id, { name: 'E2E renamed while settled' });
			if (alreadySettled) sandbox.data.updateDeal(alreadySettled.id, { name: 'E2E edit of a settled deal' });
		}],
		[`deal ${deal.id} → Varied; deal ${excluded.id} (excluded lender) → Settled`, () => {
			sandbox.data.updateDeal(deal.id, { dealStatus: 'Varied' });
			sandbox.data.updateDeal(excluded.id, { dealStatus: 'Settled', lenderName: 'E2E excluded lender' });
		}],
		[`deal ${deal.id} → Settled again`, () => sandbox.data.updateDeal(deal.id, { dealStatus: 'Settled' })],
	];
	const pollsBefore = polls().length;
	for (const [what, change] of steps) {
		change();
		log(`transition step: ${what}`);
		await nextPolls(what);
	}
	const emitted = received.slice(start).map((item) => [item.id, item.previousStatus, item.dealStatus]);
	const expected = [
		[deal.id, original, 'Settled'],
		[deal.id, 'Varied', 'Settled'],
	];
	problems.push(...same('the sink received', emitted, expected));
	for (const item of received.slice(start)) {
		if (typeof item.statusChangedAt !== 'string' || item.statusChangedAt !== item.updated) problems.push(`statusChangedAt ${JSON.stringify(item.statusChangedAt)} is not the deal's updated stamp ${JSON.stringify(item.updated)}`);
	}
	const filterChecks = polls().filter((request) => (request.query.filter ?? '').startsWith('and(any(id,'));
	if (!filterChecks.every((request) => request.query.filter?.endsWith(`,${TRANSITION_FILTER})`))) problems.push('a filter check did not carry the user\'s filter');
	for (const request of polls().slice(pollsBefore)) problems.push(...headerProblems(sandbox, request));
	record(
		`trigger: Deal Status Changed fires once per move into Settled, never for edits (${polls().length - pollsBefore} polls)`,
		problems,
		`n8n start output (tail):\n${tail(n8n.serverOutput, 30)}`,
	);
}

/**
 * The Loan CRM Contacts Trigger, published with nothing but its poll times (so its default event,
 * Contact Created): its activation poll asks for the newest contact's stamp, then a new contact is
 * emitted once and an edit of an existing one never.
 */
async function checkContactsTrigger(n8n: N8nInstance, sandbox: Sandbox, received: IDataObject[], activation: LoggedRequest | undefined): Promise<void> {
	const problems: string[] = [];
	const polls = () => sandbox.apiRequests().filter((request) => request.method === 'GET' && request.path === '/jsonapi/contacts' && (request.query.sort === '-created' || /greaterOrEqual\(created,/.test(request.query.filter ?? '')));
	if (!activation) problems.push('no activation request (GET /jsonapi/contacts?sort=-created) was seen');
	else if (activation.query['fields[contacts]'] !== 'created' || activation.query['page[size]'] !== '1') problems.push(`activation request ${JSON.stringify(activation.query)}, expected one record's created stamp`);
	const before = polls().length;
	await waitForLogged('two contact polls', () => polls().length >= before + 2, 30_000);
	const start = received.length;
	const [existing] = sandbox.data.list('contacts');
	sandbox.data.updateContact(existing.id, { firstName: 'E2E edited, must not trigger' });
	const created = sandbox.data.createContact({ firstName: 'E2E', lastName: 'New Contact' });
	await waitForLogged('the new contact at the sink', () => received.length > start, 30_000);
	const afterEmit = polls().length;
	await waitForLogged('two more contact polls', () => polls().length >= afterEmit + 2, 20_000);
	await sleep(1000);
	const emitted = received.slice(start).map((item) => [item.id, item.firstName]);
	problems.push(...same('the sink received', emitted, [[created.id, 'E2E']]));
	for (const request of polls()) problems.push(...headerProblems(sandbox, request));
	record('trigger: Loan CRM Contacts Trigger (default event Contact Created) emits a new contact once, an edit never', problems, `n8n start output (tail):\n${tail(n8n.serverOutput, 30)}`);
}

/**
 * "Fetch Test Event": the editor's manual run from the trigger (POST /rest/workflows/:id/run with
 * triggerToStartFrom), which `n8n execute` cannot do for a polling trigger. The poll runs in
 * manual mode and must return the newest matching record, which the workflow posts to the sink.
 */
async function checkManualFetch(port: number, sandbox: Sandbox, received: IDataObject[]): Promise<void> {
	const problems: string[] = [];
	const rest = await N8nRest.signedIn(port);
	const before = received.length;
	sandbox.clearLog();
	const response = await rest.runFromTrigger(WORKFLOW_IDS.trigger, 'Loan CRM Trigger');
	if (response.status !== 200) problems.push(`POST /rest/workflows/${WORKFLOW_IDS.trigger}/run answered ${response.status}: ${response.text.slice(0, 300)}`);
	await waitForLogged('the test event at the sink', () => received.length > before, 15_000);
	const sampleRequests = sandbox.apiRequests().filter((request) => request.method === 'GET' && request.path === '/jsonapi/deals' && request.query.sort === '-updated');
	if (sampleRequests.length !== 1) problems.push(`expected one GET /jsonapi/deals?sort=-updated (the sample query), saw ${sampleRequests.length}`);
	for (const request of sampleRequests) {
		problems.push(...headerProblems(sandbox, request));
		if (request.query.filter !== TRIGGER_FILTER) problems.push(`sample query filter ${JSON.stringify(request.query.filter)}, expected ${TRIGGER_FILTER}`);
		if (request.query['page[size]'] !== '1') problems.push(`sample query page[size] ${JSON.stringify(request.query['page[size]'])}, expected 1`);
	}
	const samples = received.slice(before);
	const newestSettled = sandbox.data
		.list('deals')
		.filter((deal) => deal.attributes.dealStatus === 'Settled')
		.sort((a, b) => b.attributes.updated.localeCompare(a.attributes.updated))[0];
	if (samples.length !== 1) problems.push(`the sink received ${samples.length} test event item(s), expected 1`);
	else if (samples[0].sample !== true) problems.push(`test event ${excerpt(samples[0], 300)} is not marked sample: true`);
	else if (samples[0].dealStatus !== 'Settled' || samples[0].updated !== newestSettled?.attributes.updated) {
		problems.push(`test event ${excerpt(samples[0], 300)} is not the most recently updated Settled deal (${newestSettled?.id})`);
	}
	record('trigger: Fetch Test Event returns the newest matching deal, marked sample: true', problems);
}

/**
 * What the editor does with the package: the credential's Test button (right and wrong secret),
 * the node descriptions it loads, and the node icons it fetches.
 */
async function checkEditor(port: number, sandbox: Sandbox, data: ICredentialDataDecryptedObject, credential: CredentialRef): Promise<void> {
	const rest = await N8nRest.signedIn(port);
	const test = async (overrides: Record<string, string>) =>
		await rest.request('POST', '/credentials/test', { credentials: { id: credential.id, name: credential.name, type: 'loanCrmOAuth2Api', data: { ...data, ...overrides } } });
	const ok = await test({});
	const okResult = (ok.json as { data?: { status?: string; message?: string } } | undefined)?.data;
	record('editor: credential Test button passes with the sandbox values', okResult?.status === 'OK' ? [] : [`POST /rest/credentials/test answered ${ok.status}: ${ok.text.slice(0, 300)}`]);
	const wrongSecret = 'definitely-not-the-secret-4711';
	const bad = await test({ clientSecret: wrongSecret });
	const badResult = (bad.json as { data?: { status?: string; message?: string } } | undefined)?.data;
	record('editor: credential Test button explains a wrong client secret', [
		...(badResult?.status === 'Error' ? [] : [`expected status Error, got ${bad.status} ${bad.text.slice(0, 200)}`]),
		...(/rejected the client \(401/.test(badResult?.message ?? '') ? [] : [`message ${JSON.stringify(badResult?.message)} does not say the client was rejected (401)`]),
		...((badResult?.message ?? '').includes(wrongSecret) ? ['the message contains the secret'] : []),
	]);
	const types = ['loanCrmDeals', 'loanCrmContacts', 'loanCrmLeadsAndTasks', 'loanCrmOrganisationsAndAssets', 'loanCrmTrigger', 'loanCrmDealsTrigger', 'loanCrmContactsTrigger', 'loanCrmWebhookTrigger'];
	const described = await rest.request('POST', '/node-types', { nodeInfos: types.map((name) => ({ name: `${PACKAGE}.${name}`, version: 1 })) });
	const descriptions = ((described.json as { data?: Array<{ name: string; iconUrl?: string | { light: string; dark: string } }> } | undefined)?.data ?? []);
	const problems: string[] = [];
	for (const name of types) if (!descriptions.some((d) => d.name === name)) problems.push(`the editor gets no description for ${PACKAGE}.${name}`);
	const icons = new Set(descriptions.flatMap((d) => (typeof d.iconUrl === 'string' ? [d.iconUrl] : d.iconUrl ? [d.iconUrl.light, d.iconUrl.dark] : [])));
	if (icons.size === 0) problems.push('no icon URLs in the node descriptions');
	for (const icon of icons) {
		const response = await fetch(`http://127.0.0.1:${port}/${icon}`);
		if (response.status !== 200) problems.push(`icon ${icon} answered ${response.status}`);
	}
	record(`editor: node descriptions for ${types.length} nodes and their icons (${icons.size}) load`, problems);
	await checkNodesPanelData(rest);
	await checkListSearch(rest, sandbox, credential);
	await checkFactFindNames(rest, credential);
}

/**
 * Fact Find → Create's links as the editor loads them: n8n passes the parameters being edited to the
 * node's load-options method (`currentNodeParameters`), which lists the names given under People;
 * no request reaches the service.
 */
async function checkFactFindNames(rest: N8nRest, credential: CredentialRef): Promise<void> {
	const response = await rest.request('POST', '/dynamic-node-parameters/options', {
		path: 'parameters.incomes.income[0].ownership',
		nodeTypeAndVersion: { name: `${PACKAGE}.loanCrmLeadsAndTasks`, version: 1.1 },
		currentNodeParameters: {
			resource: 'structuredLead',
			operation: 'create',
			people: { person: [{ entryName: 'Applicant 1', firstName: 'Mele', lastName: 'Tupou' }, { entryName: 'Applicant 2' }] },
			incomes: { income: [{ entryName: 'Salary 1', ownership: [] }] },
		},
		methodName: 'factFindPeople',
		credentials: { loanCrmOAuth2Api: { id: credential.id, name: credential.name } },
	});
	const options = (response.json as { data?: Array<{ name: string; value: string }> } | undefined)?.data;
	record('editor: a fact find\'s link lists the names given in the same node (load options on the current parameters)', [
		...(response.status === 200 ? [] : [`POST /rest/dynamic-node-parameters/options answered ${response.status}: ${response.text.slice(0, 300)}`]),
		...same('options', options, [
			{ name: 'Applicant 1 — Mele Tupou', value: 'Applicant 1' },
			{ name: 'Applicant 2', value: 'Applicant 2' },
		]),
	]);
}

/**
 * What the nodes panel and the Docs link read: /types/nodes.json, the node types the editor loads.
 * Each node keeps its own documentationUrl (opened as it is, so the README anchor survives) and its
 * codex with every alias (the panel's search) and an anchor-free primaryDocumentation (n8n appends
 * its tracking parameters to that one).
 */
async function checkNodesPanelData(rest: N8nRest): Promise<void> {
	const response = await rest.getWithSession('/types/nodes.json');
	const served = response.status === 200 ? ((response.json ?? []) as Array<{ name: string; documentationUrl?: string; codex?: { alias?: string[]; resources?: { primaryDocumentation?: Array<{ url: string }> } } }>) : [];
	const problems: string[] = response.status === 200 ? [] : [`GET /types/nodes.json answered ${response.status}`];
	const source = loadPackageSource();
	for (const node of source.nodes) {
		const type = served.find((entry) => entry.name === `${PACKAGE}.${node.name}`);
		if (type === undefined) {
			problems.push(`${node.name} is not in /types/nodes.json`);
			continue;
		}
		const codex = JSON.parse(readFileSync(node.sourcePath.replace(/\.ts$/, '.json'), 'utf8')) as { alias: string[] };
		if (type.documentationUrl !== node.type.description.documentationUrl || !/#[a-z-]+$/.test(type.documentationUrl ?? '')) problems.push(`${node.name}: documentationUrl ${JSON.stringify(type.documentationUrl)}`);
		if (JSON.stringify(type.codex?.alias) !== JSON.stringify(codex.alias)) problems.push(`${node.name}: codex alias ${JSON.stringify(type.codex?.alias).slice(0, 200)}`);
		const fallback = type.codex?.resources?.primaryDocumentation?.[0]?.url;
		if (fallback === undefined || fallback.includes('#')) problems.push(`${node.name}: codex primaryDocumentation ${JSON.stringify(fallback)}`);
	}
	record(`editor: /types/nodes.json carries each node's Docs link (README anchor) and nodes-panel aliases (${source.nodes.length} nodes)`, problems);
}

/** A resource locator's From List search as the editor asks for it, a name typed without its apostrophe. */
async function checkListSearch(rest: N8nRest, sandbox: Sandbox, credential: CredentialRef): Promise<void> {
	const ids = sandbox.data.ids;
	sandbox.clearLog();
	const response = await rest.request('POST', '/dynamic-node-parameters/resource-locator-results', {
		path: 'parameters.dealId',
		nodeTypeAndVersion: { name: `${PACKAGE}.loanCrmDeals`, version: 1 },
		currentNodeParameters: { resource: 'dealNote', operation: 'getMany', dealId: { __rl: true, mode: 'list', value: '' } },
		methodName: 'searchDeals',
		filter: 'liam oconnor',
		credentials: { loanCrmOAuth2Api: { id: credential.id, name: credential.name } },
	});
	const results = (response.json as { data?: { results?: Array<{ name: string; value: string }> } } | undefined)?.data?.results ?? [];
	// The published triggers keep polling meanwhile (every 5 s).
	const requests = sandbox.apiRequests().filter((request) => !isPollRead(request));
	record('editor: a deal locator searches as the user types, apostrophe optional ("liam oconnor" finds O\'Connor, Liam)', [
		...(response.status === 200 ? [] : [`POST /rest/dynamic-node-parameters/resource-locator-results answered ${response.status}: ${response.text.slice(0, 300)}`]),
		...(results.some((result) => result.value === ids.dealWithApostrophe && /^O'Connor, Liam — .+ — #\d+$/.test(result.name))
			? []
			: [`deal ${ids.dealWithApostrophe} ("O'Connor, Liam — <status> — #id") is not among ${JSON.stringify(results).slice(0, 300)}`]),
		...(requests.length === 1 ? [] : [`${requests.length} API requests, expected 1`]),
		...requests.flatMap((request) => [
			...headerProblems(sandbox, request),
			...(request.query.filter === "and(or(contains(name,'liam'),contains(name,'l''iam')),or(contains(name,'oconnor'),contains(name,'o''connor')))" ? [] : [`filter ${JSON.stringify(request.query.filter)}`]),
		]),
	]);
}

runE2e({ single: main }).then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		console.error(`\nE2E RUN FAILED TO SET UP: ${error instanceof Error ? error.message : String(error)}`);
		if (error instanceof Error && error.stack && !error.message.includes('--- stdout')) console.error(error.stack);
		// Exit now: a leg that failed half-way can leave a sink or socket open, and waiting for them
		// kept the process alive for an hour here, where CI would run into its time limit.
		process.exit(2);
	},
);
