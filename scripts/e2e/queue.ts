/**
 * The queue-mode leg of the e2e (`npm run test:e2e -- --mode queue`): the package in n8n as larger
 * self-hosters run it, one main (`n8n start`, EXECUTIONS_MODE=queue) and two `n8n worker`
 * processes on Postgres and Redis, each process with its own user folder and the package installed
 * into it, sharing one encryption key. It proves:
 *
 *   - every operation runs on a worker (webhook-started, so the execution goes through the queue)
 *     and gives the same items as in a single process (the same checks as the single leg);
 *   - 50 executions started at once, right after the stored token expired, all succeed; the token
 *     requests are counted and printed (goal: at most one per worker);
 *   - the polling trigger polls from the main only and emits each change once;
 *   - two bulk executions on one credential, one on each worker, over a rate limit they exceed
 *     while the main's trigger keeps polling (three processes, each pacing with its own budget,
 *     nothing shared but the service's answers): both succeed, every item is created once, and each
 *     worker meets at most ⌈its duration ÷ the refill period⌉ + 1 429s, counted in the sandbox's log;
 *   - the README's queue-mode instructions are the settings this leg used.
 */
import { randomBytes, randomUUID } from 'crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { createServer } from 'http';
import type { Server } from 'http';
import { tmpdir } from 'os';
import { join } from 'path';

import type { IConnections, IDataObject, IRunExecutionData } from 'n8n-workflow';

import type { LoggedRequest, Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { sandboxCredential } from '../../harness/sandbox-credential';
import { contractCases } from './cases';
import type { N8nVersion } from './install';
import { ensureN8n } from './install';
import { N8nInstance, N8nRest, REPO_ROOT, buildAndPack, executionsOf, freePort, installPackage, legTarball, startSink } from './n8n';
import type { Services } from './services';
import { DEBIAN_PACKAGES, ensureServicePackages, startServices } from './services';
import { Timings, installInterruptHandler, log, onInterrupt, tail, waitFor } from './util';
import type { CredentialRef, WorkflowFile } from './workflows';
import { CREDENTIAL_ID, PACED_BULK_ITEMS, TRIGGER_FILTER, operationsWorkflow, pacedBulkWorkflow, tokenWorkflow, triggerWorkflow, webhookNode } from './workflows';
import { CheckLog } from './check-helpers';
import { WEBHOOK_TRIGGER_WORKFLOW_ID, checkWebhookTriggerQueue, webhookTriggerScenario } from './webhook-trigger';

export const WORKER_COUNT = 2;
export const CONCURRENT_EXECUTIONS = 50;
/** Jobs one worker runs at once (n8n's default is 10); 25 lets two workers take all 50 at once. */
export const WORKER_CONCURRENCY = 25;

const WEBHOOK_PATHS = { operations: 'loan-crm-e2e-operations', token: 'loan-crm-e2e-token', paced: 'loan-crm-e2e-paced' } as const;

/**
 * The rate limit of the paced bulk check: tokens per 5 minutes (refilled at 6.7 a second; the refill
 * period is 5 minutes). The trigger on the main spends about 2 a second (a search every 5 s) and the
 * two bulk executions need about 2,560 tokens: 560 more than the bucket holds, so the three processes
 * share the refill for about two minutes, within one refill period (at most 2 429s per worker).
 */
const PACED_CAPACITY = 2000;
const PACED_REFILL_PER_SECOND = PACED_CAPACITY / 300;

/** A mark no deal's name has, with the execution's id: the paced job's search carries it, so the sandbox's log tells which execution (and worker) sent it. */
const pacedMark = (executionId: string) => `E2E paced search ${executionId}`;

/**
 * The paced bulk workflow with its deal search carrying the execution's id (a filter that excludes
 * no deal): every request of the job then names its execution (its creates do by the contact's last
 * name), and through the worker logs, its worker.
 */
function attributable(workflow: WorkflowFile): WorkflowFile {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.name === 'Get deals' ? { ...node, parameters: { ...node.parameters, options: { filter: `=not(equals(name,'${pacedMark('{{ $execution.id }}')}'))` } } } : node,
		),
	};
}

/** The paced execution a request belongs to: a create names it (last name), the search carries its mark. */
function pacedExecutionOf(request: LoggedRequest): string | undefined {
	if (request.method === 'POST' && request.path === '/jsonapi/contacts') {
		const lastName = (request.json as { data?: { attributes?: { lastName?: unknown } } } | undefined)?.data?.attributes?.lastName;
		return typeof lastName === 'string' ? lastName : undefined;
	}
	const marked = new RegExp(`${pacedMark("([^']+)")}`).exec(request.query.filter ?? '');
	return marked?.[1];
}

/**
 * What queue mode adds to a single-process n8n's environment, on the main and on every worker.
 * The README's "Queue mode" section lists exactly these names (checked by this leg).
 */
export function queueEnvironment(services: Services, encryptionKey: string): Record<string, string> {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: services.redis.host,
		QUEUE_BULL_REDIS_PORT: String(services.redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: services.postgres.host,
		DB_POSTGRESDB_PORT: String(services.postgres.port),
		DB_POSTGRESDB_DATABASE: services.postgres.database,
		DB_POSTGRESDB_USER: services.postgres.user,
		DB_POSTGRESDB_PASSWORD: services.postgres.password,
		N8N_ENCRYPTION_KEY: encryptionKey,
	};
}

const checks = new CheckLog();
const { record } = checks;
const timings = new Timings();

/** The workflow with its Manual Trigger replaced by a production webhook (POST /webhook/<path>). */
function viaWebhook(workflow: WorkflowFile, path: string, respond: 'onReceived' | 'lastNode'): WorkflowFile {
	const manual = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	if (!manual) throw new Error(`workflow ${workflow.id} has no Manual Trigger`);
	const webhook = webhookNode(path, randomUUID(), {
		id: `webhook-${path}`,
		position: manual.position,
		parameters: { responseMode: respond, ...(respond === 'lastNode' ? { responseData: 'firstEntryJson' } : {}) },
	});
	const connections: IConnections = { ...workflow.connections, Webhook: workflow.connections[manual.name] };
	delete connections[manual.name];
	return { ...workflow, id: `${workflow.id.slice(0, 13)}Que`, name: `${workflow.name} (webhook, queue mode)`, nodes: workflow.nodes.map((node) => (node === manual ? webhook : node)), connections };
}


function isTriggerPoll(request: LoggedRequest): boolean {
	return request.method === 'GET' && request.path === '/jsonapi/deals' && /greaterOrEqual\(updated,/.test(request.query.filter ?? '');
}

/** Which process ran an execution: the worker whose log says "Worker started execution <id>". */
function executedBy(workers: N8nInstance[], executionId: string): number[] {
	const pattern = new RegExp(`Worker started execution ${executionId}\\b`);
	return workers.flatMap((worker, index) => (pattern.test(worker.serverOutput) ? [index + 1] : []));
}

interface StoredExecution {
	id: string;
	status?: string;
	finished?: boolean;
	/** The execution's data (`runData` per node), as stored. */
	data?: IRunExecutionData;
}


/** The newest finished execution of a workflow, read back through the main's REST API. */
async function finishedExecution(rest: N8nRest, flatted: { parse: (text: string) => unknown }, workflowId: string, timeoutMs: number): Promise<StoredExecution | undefined> {
	let found: StoredExecution | undefined;
	await waitFor(async () => {
		const list = await rest.request('GET', `/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`);
		const results = (list.json as { data?: { results?: Array<{ id: string; status?: string; finished?: boolean }> } } | undefined)?.data?.results ?? [];
		const done = results.find((execution) => execution.status === 'success' || execution.status === 'error' || execution.status === 'crashed');
		if (!done) return false;
		const single = await rest.request('GET', `/executions/${done.id}`);
		const data = (single.json as { data?: { data?: string } } | undefined)?.data?.data;
		found = { ...done, data: typeof data === 'string' ? (flatted.parse(data) as IRunExecutionData) : undefined };
		return true;
	}, timeoutMs, 500);
	return found;
}

export async function runQueueLeg(version: N8nVersion): Promise<number> {
	installInterruptHandler();
	console.log(`n8n-nodes-loan-crm end-to-end test in the real n8n ${version}, queue mode (1 main, ${WORKER_COUNT} workers, Postgres, Redis)\n`);
	const install = await timings.step(`n8n ${version} + Node 24 (cache)`, () => ensureN8n(version));
	const workDir = mkdtempSync(join(tmpdir(), 'loan-crm-e2e-queue-'));
	const pack = legTarball() ?? (await timings.step('npm run build + npm pack', () => buildAndPack(workDir, { skipBuild: Boolean(process.env.LOAN_CRM_E2E_SKIP_BUILD) })));
	const packages = await timings.step(`${DEBIAN_PACKAGES.join(' + ')} (apt-get when missing)`, ensureServicePackages);
	if (packages.installed.length > 0) log(`installed ${packages.installed.join(', ')} with apt-get`);
	const services = await timings.step('Postgres + Redis on free local ports', () => startServices(packages.pgBin));
	const sandbox = await timings.step('sandbox', () => startSandbox({}));
	const sink = await startSink();
	const port = await freePort();
	const encryptionKey = randomBytes(24).toString('hex');
	const main = new N8nInstance(install);
	const workers = Array.from({ length: WORKER_COUNT }, () => new N8nInstance(install));
	const processes = [main, ...workers];
	const stopAll = async () => {
		await Promise.all(processes.map(async (instance) => await instance.stop().catch(() => undefined)));
	};
	onInterrupt(() => {
		for (const instance of processes) instance.remove();
		rmSync(workDir, { recursive: true, force: true });
	});
	let keep = Boolean(process.env.LOAN_CRM_E2E_KEEP);
	try {
		for (const [index, instance] of processes.entries()) {
			await instance.init(index === 0 ? { port } : {});
			Object.assign(instance.env, queueEnvironment(services, encryptionKey));
			delete instance.env.DB_SQLITE_POOL_SIZE;
		}
		await timings.step(`install the package into the main's and ${WORKER_COUNT} workers' user folders`, async () => {
			for (const instance of processes) await installPackage(instance.userFolder, pack);
		});

		const credential: CredentialRef = { id: CREDENTIAL_ID, name: 'Loan CRM sandbox' };
		const ids = sandbox.data.ids;
		const cases = contractCases(sandbox);
		const operations = viaWebhook(operationsWorkflow(cases, credential), WEBHOOK_PATHS.operations, 'onReceived');
		// Answered on receipt: n8n 1.x's main sometimes never answers a "last node" webhook in queue mode
		// when many finish at once (the worker finished it; the main missed the job's completion), so
		// the outcome is read from the stored executions instead.
		const token = viaWebhook(tokenWorkflow(ids.lead, credential), WEBHOOK_PATHS.token, 'onReceived');
		const trigger = triggerWorkflow(sink.url, credential);
		const paced = viaWebhook(attributable(pacedBulkWorkflow(credential)), WEBHOOK_PATHS.paced, 'onReceived');
		// examples/deal-settled-instant.json on the sandbox's webhooks (webhook-trigger.ts).
		const instant = await webhookTriggerScenario(credential);

		console.log('\nSet-up (main CLI against Postgres)');
		await timings.step('n8n import:credentials', () =>
			main.importCredentials([{ id: CREDENTIAL_ID, name: credential.name, type: 'loanCrmOAuth2Api', data: sandboxCredential(sandbox) }]),
		);
		await timings.step('n8n import:workflow', () => main.importWorkflows([operations, token, trigger, paced, instant.workflow]));
		for (const workflow of [operations, token, trigger, paced, instant.workflow]) await timings.step(`activate ${workflow.id}`, () => main.publish(workflow.id));
		sandbox.clearLog();
		await timings.step('n8n start (main, queue mode)', () => main.start(port));
		await timings.step(`${WORKER_COUNT} × n8n worker`, async () => await Promise.all(workers.map(async (worker) => await worker.startWorker(WORKER_CONCURRENCY))));
		const rest = new N8nRest(`http://127.0.0.1:${port}`);
		await rest.ownerSession();
		const flatted = require(join(install.n8nDir, 'node_modules', 'flatted')) as { parse: (text: string) => unknown };
		const webhook = async (path: string) =>
			await fetch(`http://127.0.0.1:${port}/webhook/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', signal: AbortSignal.timeout(120_000) });

		// --- every operation, through the queue ---------------------------------------------------
		console.log('\nEvery operation (webhook → queue → worker)');
		sandbox.clearLog();
		const started = await webhook(WEBHOOK_PATHS.operations);
		const execution = await timings.step('operations workflow on a worker', () => finishedExecution(rest, flatted, operations.id, 120_000));
		record('the operations webhook is accepted', started.status === 200 ? [] : [`POST /webhook/${WEBHOOK_PATHS.operations} answered ${started.status}`]);
		const ranOn = execution ? executedBy(workers, execution.id) : [];
		record(
			'the operations execution ran on a worker (through the queue)',
			[
				...(execution ? [] : ['no finished execution within 120 s']),
				...(execution && ranOn.length !== 1 ? [`"Worker started execution ${execution.id}" in ${ranOn.length} worker log(s), expected 1`] : []),
				...(/started execution/i.test(main.serverOutput) && execution && new RegExp(`Worker started execution ${execution.id}\\b`).test(main.serverOutput) ? ['the main ran it'] : []),
			],
			tail(main.serverOutput, 20),
		);
		for (const item of cases) {
			const tasks = execution?.data?.resultData.runData[item.name];
			const items = tasks?.[tasks.length - 1]?.data?.main?.[0]?.map((entry) => entry.json);
			const problems: string[] = [];
			if (!items) problems.push(`node "${item.name}" did not run`);
			else {
				const errors = item.expectsError ? [] : items.filter((entry) => entry.error !== undefined);
				for (const entry of errors) problems.push(`node output is an error: ${JSON.stringify(entry.error).slice(0, 400)}`);
				if (errors.length === 0) problems.push(...item.check(items));
			}
			record(`queue: ${item.key}`, problems);
		}
		const unanswered = sandbox.apiRequests().filter((request) => request.status >= 400);
		record('queue: every API request answered 2xx', unanswered.map((request) => `${request.method} ${request.path} → ${request.status}`));

		// --- 50 executions right after the token expired -----------------------------------------
		console.log(`\n${CONCURRENT_EXECUTIONS} executions at once after the stored token expired`);
		const warm = await webhook(WEBHOOK_PATHS.token);
		const warmed = await waitFor(async () => (await executionsOf(rest, token.id)).filter((execution) => execution.status === 'success').length === 1, 60_000, 500);
		record('a webhook execution stores a token', warm.status === 200 && warmed ? [] : [`warm-up answered ${warm.status}; ${warmed ? '' : 'no successful execution within 60 s'}`]);
		sandbox.expireAllTokens();
		sandbox.clearLog();
		const workerLogBefore = workers.map((worker) => worker.serverOutput.length);
		const answers = await timings.step(`${CONCURRENT_EXECUTIONS} concurrent webhook executions`, async () => {
			const accepted = await Promise.all(
				Array.from({ length: CONCURRENT_EXECUTIONS }, async () => {
					try {
						return (await webhook(WEBHOOK_PATHS.token)).status;
					} catch {
						return 0;
					}
				}),
			);
			await waitFor(async () => (await executionsOf(rest, token.id)).filter((execution) => execution.status !== 'new' && execution.status !== 'running').length >= CONCURRENT_EXECUTIONS + 1, 180_000, 1000);
			return accepted;
		});
		const stored = (await executionsOf(rest, token.id)).slice(0, CONCURRENT_EXECUTIONS);
		const leadReads = sandbox.apiRequests().filter((request) => request.method === 'GET' && request.path === `/jsonapi/leads/${ids.lead}` && request.status === 200).length;
		const failed = [
			...(answers.every((status) => status === 200) ? [] : [`webhook answers ${JSON.stringify(answers.filter((status) => status !== 200))}, expected 200`]),
			...(stored.length === CONCURRENT_EXECUTIONS && stored.every((execution) => execution.status === 'success')
				? []
				: [`stored executions: ${JSON.stringify(stored.reduce<Record<string, number>>((counts, execution) => ({ ...counts, [execution.status ?? '?']: (counts[execution.status ?? '?'] ?? 0) + 1 }), {}))}, expected ${CONCURRENT_EXECUTIONS} success`]),
			...(leadReads === CONCURRENT_EXECUTIONS ? [] : [`${leadReads} GET /jsonapi/leads/${ids.lead} answered 200, expected ${CONCURRENT_EXECUTIONS}`]),
		];
		const tokenRequests = sandbox.tokenRequests().length;
		const perWorker = workers.map((worker, index) => (worker.serverOutput.slice(workerLogBefore[index]).match(/Worker started execution/g) ?? []).length);
		const rejected = sandbox.apiRequests().filter((request) => request.status === 401).length;
		// The trigger is active on the main and keeps polling meanwhile: a poll that met the expired
		// token made the main renew it too (one token request that is not the executions').
		const mainRenewals = sandbox.apiRequests().some((request) => isTriggerPoll(request) && request.status === 401) ? 1 : 0;
		const forExecutions = tokenRequests - mainRenewals;
		console.log(
			`SUMMARY: queue mode, ${CONCURRENT_EXECUTIONS} executions after the token expired: ${forExecutions} token request(s) for the executions on ${WORKER_COUNT} workers` +
				`${mainRenewals ? ` (+1 by the main's trigger poll)` : ''}; executions per worker ${perWorker.join(' + ')}; ${rejected} API 401(s)`,
		);
		record(`all ${CONCURRENT_EXECUTIONS} executions succeed`, failed);
		record(`the executions ran on the workers (${perWorker.join(' + ')})`, perWorker.reduce((a, b) => a + b, 0) === CONCURRENT_EXECUTIONS ? [] : [`${perWorker.reduce((a, b) => a + b, 0)} "Worker started execution" lines, expected ${CONCURRENT_EXECUTIONS}`]);
		record(
			`token requests of the ${CONCURRENT_EXECUTIONS} executions after the expiry: ${forExecutions} (at most one per worker, ${WORKER_COUNT})`,
			forExecutions >= 1 && forExecutions <= WORKER_COUNT ? [] : [`${tokenRequests} token requests (${mainRenewals} by the main's trigger poll) for ${CONCURRENT_EXECUTIONS} executions on ${WORKER_COUNT} workers`],
		);

		// --- the polling trigger ------------------------------------------------------------------
		console.log('\nTrigger (published on the main, executions on the workers)');
		await timings.step('trigger: polls once per poll time, each change emitted once', () => checkTrigger(sandbox, sink.received));
		console.log(`\nWebhook Trigger (${WEBHOOK_TRIGGER_WORKFLOW_ID}: notifications on the main, executions on the workers)`);
		await timings.step('webhook trigger: a settlement notified, run on a worker', () => checkWebhookTriggerQueue(port, sandbox, rest, workers, instant, record));

		// --- two bulk jobs, one credential, on the workers, inside a rate limit they exceed --------
		console.log('\nTwo bulk executions at once on one credential, paced to a rate limit they exceed');
		sandbox.setRateLimit({ capacity: PACED_CAPACITY, refillPerSecond: PACED_REFILL_PER_SECOND });
		sandbox.resetRateLimitSpent();
		sandbox.clearLog();
		const pacedLogBefore = workers.map((worker) => worker.serverOutput.length);
		const pacedAnswers = await Promise.all([webhook(WEBHOOK_PATHS.paced), webhook(WEBHOOK_PATHS.paced)]);
		const pacedFinished = await timings.step('2 paced bulk executions', () =>
			waitFor(async () => (await executionsOf(rest, paced.id)).filter((execution) => execution.status !== 'new' && execution.status !== 'running').length >= 2, 600_000, 1000),
		);
		const pacedExecutions = (await executionsOf(rest, paced.id)).slice(0, 2);
		const created = new Map<string, string[]>();
		for (const contact of sandbox.data.list('contacts')) {
			const firstName = String(contact.attributes.firstName ?? '');
			if (!firstName.startsWith('E2E paced ')) continue;
			const executionId = String(contact.attributes.lastName ?? '');
			created.set(executionId, [...(created.get(executionId) ?? []), firstName]);
		}
		const pacedLog = sandbox.apiRequests();
		const spent = sandbox.rateLimitSpent();
		sandbox.setRateLimit(false);
		const pacedPerWorker = workers.map((worker, index) => (worker.serverOutput.slice(pacedLogBefore[index]).match(/Worker started execution/g) ?? []).length);
		// Each execution's worker, and each worker's requests, 429s and duration, from the sandbox's log.
		const workerOf = new Map(pacedExecutions.map((execution) => [execution.id, executedBy(workers, execution.id)]));
		const sharing = workers.map((worker, index) => {
			const executionIds = pacedExecutions.filter((execution) => workerOf.get(execution.id)?.includes(index + 1)).map((execution) => execution.id);
			const requests = pacedLog.filter((request) => executionIds.includes(pacedExecutionOf(request) ?? ''));
			const seconds = requests.length === 0 ? 0 : (Math.max(...requests.map((request) => request.receivedAt)) - Math.min(...requests.map((request) => request.receivedAt))) / 1000;
			return { worker: index + 1, executionIds, requests: requests.length, tooManyRequests: requests.filter((request) => request.status === 429).length, seconds, bound: Math.ceil(seconds / 300) + 1 };
		});
		const mainPolls = pacedLog.filter(isTriggerPoll);
		const unattributed = pacedLog.filter((request) => pacedExecutionOf(request) === undefined && !isTriggerPoll(request));
		const pacedRequests = pacedLog.filter((request) => pacedExecutionOf(request) !== undefined);
		const pacedSeconds = pacedRequests.length === 0 ? 0 : (Math.max(...pacedRequests.map((request) => request.receivedAt)) - Math.min(...pacedRequests.map((request) => request.receivedAt))) / 1000;
		const floorSeconds = spent / PACED_REFILL_PER_SECOND;
		console.log(
			`SUMMARY: queue mode, 2 bulk executions of ${PACED_BULK_ITEMS} creates at once, bucket of ${PACED_CAPACITY} tokens per 5 minutes, the main polling every 5 s: ` +
				`${spent} tokens spent in ${pacedSeconds.toFixed(0)} s (${(pacedSeconds / floorSeconds).toFixed(2)}× the floor of ${floorSeconds.toFixed(0)} s); ` +
				sharing.map((entry) => `worker ${entry.worker}: ${entry.requests} requests, ${entry.tooManyRequests} × 429 in ${entry.seconds.toFixed(0)} s (bound ${entry.bound})`).join('; ') +
				`; main: ${mainPolls.length} polls, ${mainPolls.filter((request) => request.status === 429).length} × 429; executions per worker ${pacedPerWorker.join(' + ')}`,
		);
		record('two bulk executions over the rate limit both succeed, every item created once', [
			...(pacedAnswers.every((answer) => answer.status === 200) ? [] : [`webhook answers ${pacedAnswers.map((answer) => answer.status).join(', ')}, expected 200`]),
			...(pacedFinished ? [] : ['the executions did not finish within 600 s']),
			...(pacedExecutions.length === 2 && pacedExecutions.every((execution) => execution.status === 'success') ? [] : [`executions: ${JSON.stringify(pacedExecutions.map((execution) => execution.status))}, expected 2 × success`]),
			...(created.size === 2 ? [] : [`contacts of ${created.size} execution(s), expected 2`]),
			...[...created].flatMap(([executionId, names]) =>
				names.length === PACED_BULK_ITEMS && new Set(names).size === PACED_BULK_ITEMS ? [] : [`execution ${executionId}: ${names.length} contacts (${new Set(names).size} distinct), expected ${PACED_BULK_ITEMS} once each`],
			),
			...(spent > PACED_CAPACITY ? [] : [`${spent} tokens spent: the jobs did not exceed the bucket of ${PACED_CAPACITY}`]),
		]);
		record(`the two bulk executions ran one on each worker (${pacedPerWorker.join(' + ')})`, [
			...(sharing.every((entry) => entry.executionIds.length === 1) ? [] : [`executions by worker: ${JSON.stringify(sharing.map((entry) => entry.executionIds))}, expected one each`]),
		]);
		record(`each worker met at most ⌈its duration ÷ the refill period⌉ + 1 429s (${sharing.map((entry) => `${entry.tooManyRequests}/${entry.bound}`).join(', ')})`, [
			...sharing.filter((entry) => entry.tooManyRequests > entry.bound).map((entry) => `worker ${entry.worker}: ${entry.tooManyRequests} × 429 in ${entry.seconds.toFixed(0)} s, bound ${entry.bound}`),
			...unattributed.map((request) => `a request of neither execution nor the trigger: ${request.method} ${request.path} → ${request.status}`),
		]);

		// --- README ---------------------------------------------------------------------------------
		record('README queue-mode instructions are the settings this run used', readmeProblems(queueEnvironment(services, encryptionKey)));
	} catch (error) {
		keep = true;
		throw error;
	} finally {
		await stopAll();
		await services.stop();
		await sandbox.close();
		sink.server.close();
		if (checks.failures > 0) keep = true;
		if (keep) {
			for (const [index, instance] of processes.entries()) writeFileSync(join(instance.userFolder, index === 0 ? 'n8n-main.log' : `n8n-worker-${index}.log`), instance.serverOutput);
			log(`kept ${processes.map((instance) => instance.userFolder).join(', ')} (with the process logs) for inspection`);
		}
		else for (const instance of processes) instance.remove();
		rmSync(workDir, { recursive: true, force: true });
		timings.print('Timings');
	}
	return checks.summary(`the real n8n ${version}, queue mode`);
}

/**
 * The trigger workflow is active on the main: only the main polls (once per poll time, not once
 * per process), and each Settled change reaches the sink once although workers run the executions.
 */
async function checkTrigger(sandbox: Sandbox, received: IDataObject[]): Promise<void> {
	const problems: string[] = [];
	const polls = () => sandbox.apiRequests().filter(isTriggerPoll);
	if (!(await waitFor(() => polls().length >= 1, 30_000))) {
		record('queue trigger: activated and polled', ['the trigger never polled the sandbox']);
		return;
	}
	await new Promise((resolve) => setTimeout(resolve, 1000));
	if (received.length !== 0) problems.push(`the activation poll emitted ${received.length} item(s); expected none`);
	const candidates = sandbox.data.list('deals').filter((deal) => deal.attributes.dealStatus !== 'Settled');
	const settling = sandbox.data.updateDeal(candidates[0].id, { dealStatus: 'Settled' });
	sandbox.data.updateDeal(candidates[1].id, { dealStatus: 'Lodged', name: 'E2E queue lodged, must not trigger' });
	const created = sandbox.data.createDeal({ dealStatus: 'Settled', name: 'E2E queue new settled deal' });
	await waitFor(() => received.length >= 2, 30_000);
	// Watch 20 s of polls: one poller at a poll time every 5 s makes 4 or 5, three pollers 12 or more.
	const windowStart = polls().length;
	const t0 = Date.now();
	await new Promise((resolve) => setTimeout(resolve, 20_000));
	const windowPolls = polls().length - windowStart;
	const expectedMax = Math.floor((Date.now() - t0) / 5000) + 1;
	if (windowPolls < 2 || windowPolls > expectedMax) problems.push(`${windowPolls} polls in ${((Date.now() - t0) / 1000).toFixed(0)} s; one poller at poll times 5 s apart makes at most ${expectedMax}`);
	const emitted = received.map((item) => [item.id, item.dealStatus]);
	const expected = [[settling.id, 'Settled'], [created.id, 'Settled']];
	if (JSON.stringify(emitted) !== JSON.stringify(expected)) problems.push(`the sink received ${JSON.stringify(emitted)}, expected ${JSON.stringify(expected)} (each once)`);
	console.log(`SUMMARY: queue mode trigger: ${windowPolls} polls in 20 s (poll times every 5 s), sink received ${received.length} item(s) for 2 changes`);
	record(`queue trigger: ${TRIGGER_FILTER} changes emitted once each; polled by the main only`, problems);
}

/** The README's queue-mode block must set exactly the variables this leg set, and start workers the same way. */
function readmeProblems(environment: Record<string, string>): string[] {
	const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
	const start = readme.indexOf('### Queue mode');
	if (start < 0) return ['README.md has no "### Queue mode" section'];
	const section = readme.slice(start, readme.indexOf('\n## ', start) < 0 ? undefined : readme.indexOf('\n## ', start));
	const problems: string[] = [];
	const documented = new Set([...section.matchAll(/^\s*(?:export\s+)?([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]));
	for (const name of Object.keys(environment)) if (!documented.has(name)) problems.push(`README queue mode does not set ${name}`);
	for (const name of documented) if (!(name in environment)) problems.push(`README queue mode sets ${name}, which the test does not`);
	if (!section.includes(`apt-get install -y ${DEBIAN_PACKAGES.join(' ')}`)) problems.push(`README queue mode does not say apt-get install -y ${DEBIAN_PACKAGES.join(' ')}`);
	if (!/n8n worker\b/.test(section)) problems.push('README queue mode does not start `n8n worker`');
	if (!/every (worker|process)|main and (on )?every worker|on all/i.test(section)) problems.push('README queue mode does not say to install the package on the main and every worker');
	return problems;
}
