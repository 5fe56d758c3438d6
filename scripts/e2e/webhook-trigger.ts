/**
 * The Loan CRM Webhook Trigger in the real n8n, examples/deal-settled-instant.json as a user
 * imports it (its Slack node replaced by the report node posting to a sink here), published before
 * `n8n start`, the sandbox's webhooks (sandbox/webhooks.ts) sending the service's notifications to
 * its Production URL:
 *
 *   - single process (run.ts, one version: WEBHOOK_TRIGGER_N8N_VERSION): a deal settled in the
 *     sandbox reaches the workflow within seconds (the time printed); the service retrying that
 *     notification gives no second execution; a forged notification whose `url` names a foreign
 *     host makes the node read the deal from the sandbox and nothing from that host; an unknown
 *     record type is refused 400 without an execution; n8n's log names the URL and records to ask
 *     the service's team for.
 *   - queue mode (queue.ts): a settlement's notification reaches the main and the execution runs on
 *     a worker.
 */
import { randomUUID } from 'crypto';
import { createServer } from 'http';
import type { Server } from 'http';
import type { AddressInfo } from 'net';

import type { IDataObject } from 'n8n-workflow';

import type { Sandbox, WebhookSubscription } from '../../sandbox';
import { adaptExample, LOAN_CRM_WEBHOOK_TRIGGER_TYPE } from './examples';
import { N8N_VERSION } from './install';
import type { N8nInstance, N8nRest } from './n8n';
import { executionsOf, startSink } from './n8n';
import { log, sleep, waitFor } from './util';
import type { CredentialRef, WorkflowFile } from './workflows';
import { connect, reportNode, workflowFile } from './workflows';

/** The version whose single-process leg runs the scenario (what it proves is the package's). */
export const WEBHOOK_TRIGGER_N8N_VERSION = N8N_VERSION;

export const WEBHOOK_TRIGGER_WORKFLOW_ID = 'lcE2eWebhookTrig';

/** How soon a settlement must reach the workflow ("within seconds"). */
const WITHIN_MS = 10_000;

export type RecordCheck = (name: string, problems: string[], context?: string) => void;

export interface WebhookTriggerScenario {
	/** Imported with the leg's other workflows, published before `n8n start`. */
	workflow: WorkflowFile;
	webhookId: string;
	sink: Server;
	received: IDataObject[];
	/** The trigger's node name in the workflow. */
	trigger: string;
}

/** examples/deal-settled-instant.json ready to run here: the credential, a webhook id of this run, the report node instead of Slack. */
export async function webhookTriggerScenario(credential: CredentialRef): Promise<WebhookTriggerScenario> {
	const { server: sink, url, received } = await startSink('/loan-crm-instant');
	// A leg that fails before its check closes the sink must still end.
	sink.unref();
	const webhookId = randomUUID();
	const example = adaptExample('deal-settled-instant.json', { keep: (node) => node.type === LOAN_CRM_WEBHOOK_TRIGGER_TYPE, credential, webhookId });
	const trigger = example.nodes[0].name;
	const report = reportNode(url, { name: 'Report to the e2e', id: 'node-instant-report', position: [300, 0] });
	const workflow = workflowFile(WEBHOOK_TRIGGER_WORKFLOW_ID, `E2E: ${example.name}`, [...example.nodes, report], connect({}, trigger, report.name));
	return { workflow, webhookId, sink, received, trigger };
}

/** The trigger's Production URL on the n8n at `port`. */
function productionUrl(port: number, scenario: WebhookTriggerScenario): string {
	return `http://127.0.0.1:${port}/webhook/${scenario.webhookId}/notify`;
}


/**
 * A deal the sandbox moves to PendingSettlement (notified: the trigger then knows it), ready to
 * settle: from the end of the book, none the other checks name (the fixtures, the deals they change).
 */
async function pendingDeal(sandbox: Sandbox, subscription: WebhookSubscription): Promise<string> {
	const fixtures = new Set<string>(Object.values(sandbox.data.ids).flat().map(String));
	const deal = sandbox.data
		.list('deals')
		.reverse()
		.find((candidate) => !fixtures.has(candidate.id) && !['Settled', 'Varied', 'PendingSettlement'].includes(String(candidate.attributes.dealStatus)) && !String(candidate.attributes.name).startsWith('E2E'));
	if (deal === undefined) throw new Error('no deal to settle');
	sandbox.data.updateDeal(deal.id, { dealStatus: 'PendingSettlement' });
	await waitFor(() => sandbox.webhooks.deliveries.filter((delivery) => delivery.subscription === subscription.id && delivery.id === Number(deal.id)).every((delivery) => delivery.done), 30_000, 100);
	// The service stamps whole seconds: the settlement comes a second later.
	await sleep(1100);
	return deal.id;
}

/** Under `n8n start` (single process): see the file header. */
export async function checkWebhookTrigger(port: number, sandbox: Sandbox, rest: N8nRest, n8n: N8nInstance, scenario: WebhookTriggerScenario, record: RecordCheck): Promise<void> {
	const url = productionUrl(port, scenario);
	const subscription = sandbox.webhooks.subscribe({ url, types: ['deals'], name: 'E2E deals to n8n' });
	try {
		// n8n's log at publishing: the URL and the records to ask the service's team for.
		const setupLine = n8n.serverOutput.split('\n').find((line) => line.includes(`Loan CRM Webhook Trigger "${scenario.trigger}"`) && line.includes('Ask Loan CRM'));
		record('webhook trigger: publishing registers nothing and logs the Production URL and the records to ask for', [
			...(setupLine === undefined ? ['no "Ask Loan CRM\'s team …" line in n8n\'s log'] : []),
			...(setupLine !== undefined && !setupLine.includes(`/webhook/${scenario.webhookId}/notify`) ? [`the line names no Production URL: ${setupLine}`] : []),
			...(setupLine !== undefined && !/webhooks for deals to/.test(setupLine) ? [`the line names no records: ${setupLine}`] : []),
		]);

		// --- a settlement, within seconds; its retried notification -------------------------------
		const problems: string[] = [];
		const deal = await pendingDeal(sandbox, subscription);
		const start = scenario.received.length;
		const executionsBefore = (await executionsOf(rest, WEBHOOK_TRIGGER_WORKFLOW_ID)).length;
		const settledAt = Date.now();
		sandbox.data.updateDeal(deal, { dealStatus: 'Settled' });
		const arrived = await waitFor(() => scenario.received.length > start, 30_000, 50);
		const latencyMs = Date.now() - settledAt;
		console.log(`SUMMARY: webhook trigger: a deal settled in the sandbox reached the workflow ${arrived ? `${latencyMs} ms later` : 'not within 30 s'} (n8n ${N8N_VERSION})`);
		if (!arrived) problems.push('the settlement never reached the sink (30 s)');
		else if (latencyMs > WITHIN_MS) problems.push(`the settlement took ${latencyMs} ms, more than ${WITHIN_MS}`);
		const items = scenario.received.slice(start);
		if (items.length !== 1 || items[0].id !== deal || items[0].previousStatus !== 'PendingSettlement' || items[0].dealStatus !== 'Settled' || items[0].webhookName !== 'E2E deals to n8n') {
			problems.push(`the sink received ${JSON.stringify(items).slice(0, 500)}, expected deal ${deal} once (PendingSettlement → Settled, webhookName "E2E deals to n8n")`);
		}
		record(`webhook trigger: a deal settled in the sandbox reaches the workflow within ${WITHIN_MS / 1000} s, once`, problems, `n8n start output (tail):\n${n8n.serverOutput.split('\n').slice(-30).join('\n')}`);

		const retried = sandbox.webhooks.notify(subscription, 'deals', Number(deal));
		await waitFor(() => retried.done, 30_000, 100);
		// Give a second execution, if one were started, the time the first one took.
		await sleep(Math.max(3000, 2 * latencyMs));
		const executions = (await executionsOf(rest, WEBHOOK_TRIGGER_WORKFLOW_ID)).length - executionsBefore;
		const reads = sandbox.apiRequests().filter((request) => request.method === 'GET' && request.path === `/jsonapi/deals/${deal}`);
		record('webhook trigger: the service retrying the notification gives no second execution', [
			...(retried.attempts.map((attempt) => attempt.status).join() === '200' ? [] : [`the retried notification was answered ${JSON.stringify(retried.attempts.map((attempt) => attempt.status))}, expected [200]`]),
			...(executions === 1 ? [] : [`${executions} executions of the workflow, expected 1`]),
			...(scenario.received.length - start === 1 ? [] : [`the sink received ${scenario.received.length - start} items, expected 1`]),
			...(reads.length === 3 && reads.every((request) => request.status === 200) ? [] : [`GET /jsonapi/deals/${deal}: ${reads.map((request) => request.status).join(', ')}, expected three reads (pending, settled, retried) answered 200`]),
		]);

		// --- forged notifications ------------------------------------------------------------------
		const foreign: string[] = [];
		const host = createServer((request, response) => {
			foreign.push(`${request.method} ${request.url} ${request.headers.authorization === undefined ? '' : '(with a token)'}`);
			response.writeHead(200, { 'content-type': 'application/vnd.api+json' }).end('{"data":{"type":"deals","id":"1","attributes":{"name":"forged"}}}');
		});
		await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', () => resolve()));
		try {
			const foreignUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/jsonapi/deals/${deal}`;
			const readsBefore = sandbox.apiRequests().length;
			const post = async (body: unknown) => await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
			const forged = await post({ action: 'updated', resource: { type: 'deals', id: Number(deal), url: foreignUrl }, webhook: { name: 'forged' } });
			const unknownType = await post({ action: 'updated', resource: { type: 'tasks', id: 9500001, url: foreignUrl }, webhook: { name: 'forged' } });
			await sleep(3000);
			// The published polling triggers keep polling meanwhile (every 5 s: collection reads such as GET
			// /jsonapi/deals); only reads of one record can be this notification's, so only those count.
			const sandboxReads = sandbox
				.apiRequests()
				.slice(readsBefore)
				.filter((request) => /^\/jsonapi\/[a-z-]+\/[^/]+$/.test(request.path))
				.map((request) => `${request.method} ${request.path} → ${request.status}`);
			const executionsAfter = (await executionsOf(rest, WEBHOOK_TRIGGER_WORKFLOW_ID)).length - executionsBefore;
			record('webhook trigger: a forged notification naming a foreign host reads nothing there (the deal is read from the credential\'s Base URL); an unknown type is refused 400', [
				...(forged.status === 200 ? [] : [`the forged notification was answered ${forged.status}, expected 200 (it names a real deal)`]),
				...(unknownType.status === 400 ? [] : [`the unknown type was answered ${unknownType.status}, expected 400`]),
				...(foreign.length === 0 ? [] : [`the foreign host received ${JSON.stringify(foreign)}`]),
				...(JSON.stringify(sandboxReads) === JSON.stringify([`GET /jsonapi/deals/${deal} → 200`]) ? [] : [`the sandbox saw ${JSON.stringify(sandboxReads)}, expected one read of deal ${deal}`]),
				// The deal had not changed: the forged notification starts nothing either.
				...(executionsAfter === 1 && scenario.received.length - start === 1 ? [] : [`${executionsAfter} executions, ${scenario.received.length - start} items: expected the one settlement`]),
			]);
		} finally {
			host.close();
		}
	} finally {
		sandbox.webhooks.unsubscribe(subscription.id);
		scenario.sink.close();
	}
}

/** Queue mode: a settlement's notification reaches the main, the execution runs on a worker. */
export async function checkWebhookTriggerQueue(port: number, sandbox: Sandbox, rest: N8nRest, workers: N8nInstance[], scenario: WebhookTriggerScenario, record: RecordCheck): Promise<void> {
	const subscription = sandbox.webhooks.subscribe({ url: productionUrl(port, scenario), types: ['deals'], name: 'E2E deals to n8n (queue)' });
	try {
		const deal = await pendingDeal(sandbox, subscription);
		const start = scenario.received.length;
		const settledAt = Date.now();
		sandbox.data.updateDeal(deal, { dealStatus: 'Settled' });
		const arrived = await waitFor(() => scenario.received.length > start, 60_000, 100);
		const latencyMs = Date.now() - settledAt;
		let execution: { id: string; status?: string } | undefined;
		await waitFor(async () => {
			execution = (await executionsOf(rest, WEBHOOK_TRIGGER_WORKFLOW_ID)).find((candidate) => candidate.status === 'success');
			return execution !== undefined;
		}, 30_000, 500);
		const ranOn = execution === undefined ? [] : workers.flatMap((worker, index) => (new RegExp(`Worker started execution ${execution?.id}\\b`).test(worker.serverOutput) ? [index + 1] : []));
		log(`webhook trigger (queue): the settlement reached the sink ${latencyMs} ms later; execution ${execution?.id ?? '-'} ran on worker ${ranOn.join(', ') || '-'}`);
		console.log(`SUMMARY: queue mode webhook trigger: a deal settled in the sandbox reached the workflow ${arrived ? `${latencyMs} ms later` : 'not within 60 s'}, its execution on worker ${ranOn.join(', ') || '-'}`);
		const items = scenario.received.slice(start);
		record('queue: the Webhook Trigger\'s notification reaches the main and its execution runs on a worker', [
			...(arrived ? [] : ['the settlement never reached the sink (60 s)']),
			...(items.length === 1 && items[0].id === deal && items[0].previousStatus === 'PendingSettlement' ? [] : [`the sink received ${JSON.stringify(items).slice(0, 400)}, expected deal ${deal} once`]),
			...(execution === undefined ? ['no successful execution of the workflow'] : []),
			...(execution !== undefined && ranOn.length !== 1 ? [`"Worker started execution ${execution.id}" in ${ranOn.length} worker log(s), expected 1`] : []),
		]);
	} finally {
		sandbox.webhooks.unsubscribe(subscription.id);
		scenario.sink.close();
	}
}
