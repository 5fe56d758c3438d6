/**
 * n8n workflow JSON, built in one place: the package's names, the nodes the scripts' workflows are
 * made of (a Manual Trigger, a Loan CRM node, a Webhook, the HTTP Request that reports items to a
 * sink here), connections and the workflow file `n8n import:workflow` reads; then the workflows the
 * e2e run imports. The e2e, the demo, `npm run dev`'s examples and the screenshots build with these.
 */
import type { IConnections, INode, INodeParameters } from 'n8n-workflow';

import type { OperationCase } from './cases';

export const PACKAGE = 'n8n-nodes-loan-crm';
export const CREDENTIAL_TYPE = 'loanCrmOAuth2Api';

export interface CredentialRef {
	id: string;
	name: string;
}

export interface WorkflowFile {
	id: string;
	name: string;
	nodes: INode[];
	connections: IConnections;
	active: boolean;
	settings: Record<string, unknown>;
	pinData?: Record<string, unknown>;
}

/** A workflow as n8n imports it: not active, execution order v1, `settings` added. */
export function workflowFile(id: string, name: string, nodes: INode[], connections: IConnections, settings: Record<string, unknown> = {}): WorkflowFile {
	return { id, name, nodes, connections, active: false, settings: { executionOrder: 'v1', ...settings } };
}

/** Adds `from` → `to` (a main connection, or an AI tool's) to `connections`; returns them. */
export function connect(connections: IConnections, from: string, to: string, type: 'main' | 'ai_tool' = 'main'): IConnections {
	connections[from] ??= { [type]: [[]] };
	connections[from][type][0]?.push({ node: to, type, index: 0 });
	return connections;
}

/** Connections running the nodes `names` one after the other. */
export function chain(...names: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i < names.length - 1; i++) connect(connections, names[i], names[i + 1]);
	return connections;
}

export const MANUAL = 'Run (manual trigger)';

export function manualTrigger(name: string = MANUAL, id = 'manual-trigger', position: [number, number] = [0, 0]): INode {
	return { id, name, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position, parameters: {} };
}

/** A node of the package (`node`: its type name, e.g. loanCrmDeals), with the credential when given. */
export function loanCrmNode(
	name: string,
	node: string,
	parameters: INodeParameters,
	options: { position?: [number, number]; credential?: CredentialRef; typeVersion?: number; id?: string } = {},
): INode {
	return {
		id: options.id ?? `node-${name.replace(/[^a-zA-Z0-9]+/g, '-').toLowerCase()}`,
		name,
		type: `${PACKAGE}.${node}`,
		typeVersion: options.typeVersion ?? 1,
		position: options.position ?? [0, 0],
		parameters,
		...(options.credential ? { credentials: { [CREDENTIAL_TYPE]: options.credential } } : {}),
	};
}

/**
 * The report node: an HTTP Request posting each item (or what `jsonBody` makes of it) as JSON to
 * `url`, a sink here (`startSink` in n8n.ts) that the checks read.
 */
export function reportNode(url: string, options: { name?: string; id?: string; position?: [number, number]; jsonBody?: string } = {}): INode {
	return {
		id: options.id ?? 'node-sink',
		name: options.name ?? 'Post to sink',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: options.position ?? [350, 0],
		parameters: { method: 'POST', url, sendBody: true, specifyBody: 'json', jsonBody: options.jsonBody ?? '={{ JSON.stringify($json) }}', options: {} },
	};
}

/** A Webhook trigger at POST /webhook/<path>. */
export function webhookNode(path: string, webhookId: string, options: { id?: string; position?: [number, number]; parameters?: INodeParameters } = {}): INode {
	return {
		id: options.id ?? 'node-webhook',
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: options.position ?? [0, 0],
		webhookId,
		parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', ...options.parameters, options: {} },
	};
}

/** n8n workflow ids are at most 21 characters; these are 16, like n8n's own. */
export const WORKFLOW_IDS = {
	operations: 'lcE2eOperations1',
	errors: 'lcE2eErrorCases1',
	token: 'lcE2eTokenReuse1',
	failure: 'lcE2eFailure0001',
	trigger: 'lcE2eTriggerPoll',
	transition: 'lcE2eTriggerMove',
	contacts: 'lcE2eContactPoll',
	restart: 'lcE2eRestartPoll',
	dialog: 'lcE2eCredDialog1',
	paced: 'lcE2ePacedBulk01',
} as const;

export const CREDENTIAL_ID = 'lcE2eSandboxCred';

/** The sandbox credential the e2e's workflows use. */
export const E2E_CREDENTIAL: CredentialRef = { id: CREDENTIAL_ID, name: 'Loan CRM sandbox' };

/**
 * The credential the credential-dialog check edits (same sandbox values): its own, so the poll
 * triggers, which run every 5 seconds on CREDENTIAL_ID, neither see its wrong secret nor add token
 * requests to what that check counts.
 */
export const DIALOG_CREDENTIAL_ID = 'lcE2eDialogCred1';

/**
 * Every operation as its own branch of one Manual Trigger (execution order v1 runs the branches
 * top to bottom, each to its end). Every node continues on fail, so one broken operation shows up
 * as an `{ error }` item and does not hide the others.
 */
export function operationsWorkflow(
	cases: OperationCase[],
	credential: CredentialRef,
	id: string = WORKFLOW_IDS.operations,
	name = 'E2E: every Loan CRM operation',
): WorkflowFile {
	const nodes: INode[] = [manualTrigger()];
	const connections: IConnections = {};
	cases.forEach((item, index) => {
		nodes.push({ ...loanCrmNode(item.name, item.node, item.parameters, { position: [item.after ? 700 : 350, index * 120], credential }), onError: 'continueRegularOutput' });
		connect(connections, item.after ?? MANUAL, item.name);
	});
	return workflowFile(id, name, nodes, connections);
}

/** The Manual Trigger, then `nodes` one after the other (at x = 350, 700, …). */
function manualChain(id: string, name: string, nodes: INode[]): WorkflowFile {
	const placed = nodes.map((node, index): INode => ({ ...node, position: [350 * (index + 1), 0] }));
	return workflowFile(id, name, [manualTrigger(), ...placed], chain(MANUAL, ...placed.map((node) => node.name)));
}

/** One request with the stored credential: token reuse across executions and renewal after a 401. */
export function tokenWorkflow(leadId: string, credential: CredentialRef, id: string = WORKFLOW_IDS.token, name = 'E2E: stored token'): WorkflowFile {
	return manualChain(id, name, [loanCrmNode('Get lead', 'loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId }, { credential })]);
}

/** Items a paced bulk execution creates (the sandbox's first deals, one contact each). */
export const PACED_BULK_ITEMS = 250;

/**
 * A bulk job: Get Many of PACED_BULK_ITEMS deals, then one Contact → Create per deal, named after the
 * deal and the execution (`E2E paced <deal id>`, last name the execution's id), so the runner can
 * count what each execution created.
 */
export function pacedBulkWorkflow(credential: CredentialRef): WorkflowFile {
	return manualChain(WORKFLOW_IDS.paced, 'E2E: paced bulk creates', [
		loanCrmNode('Get deals', 'loanCrmDeals', { resource: 'deal', operation: 'getMany', limit: PACED_BULK_ITEMS }, { credential }),
		loanCrmNode(
			'Create contacts',
			'loanCrmContacts',
			{
				resource: 'contact',
				operation: 'create',
				additionalFields: { firstName: '=E2E paced {{ $json.id }}', lastName: '={{ $execution.id }}', email: '=paced{{ $json.id }}-{{ $execution.id }}@example.com' },
			},
			{ credential },
		),
	]);
}

/** A failing request without Continue On Fail: n8n must fail the execution with the node's message. */
export function failureWorkflow(credential: CredentialRef): WorkflowFile {
	return manualChain(WORKFLOW_IDS.failure, 'E2E: failing request', [
		loanCrmNode('Get missing lead', 'loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: '999999' }, { credential }),
	]);
}

export const TRIGGER_FILTER = "equals(dealStatus,'Settled')";

/**
 * Loan CRM Trigger (dealUpdated, Settled only) → HTTP Request that posts each item to the runner's
 * sink. n8n refuses poll times under a minute, so the trigger gets twelve once-a-minute poll times
 * at seconds 0, 5, … 55: each a valid minute-granular cron, together a poll every 5 seconds.
 */
const EVERY_FIVE_SECONDS = { item: Array.from({ length: 12 }, (_, i) => ({ mode: 'custom', cronExpression: `${i * 5} * * * * *` })) };

/** A trigger of the package, polling every 5 seconds, → the report node posting each item to `sinkUrl`. */
function triggerToSink(id: string, name: string, sinkUrl: string, credential: CredentialRef, trigger: { name: string; node: string; parameters: INodeParameters }): WorkflowFile {
	const node = loanCrmNode(trigger.name, trigger.node, { pollTimes: EVERY_FIVE_SECONDS, ...trigger.parameters }, { credential });
	const sink = reportNode(sinkUrl);
	return workflowFile(id, name, [node, sink], chain(node.name, sink.name));
}

export function triggerWorkflow(sinkUrl: string, credential: CredentialRef): WorkflowFile {
	return triggerToSink(WORKFLOW_IDS.trigger, 'E2E: Loan CRM Trigger → sink', sinkUrl, credential, {
		name: 'Loan CRM Trigger',
		node: 'loanCrmTrigger',
		parameters: { event: 'dealUpdated', filter: TRIGGER_FILTER, options: { safetyWindow: 30 } },
	});
}

/** The filter of the transition trigger: it narrows what is emitted, never what is followed. */
export const TRANSITION_FILTER = "not(equals(lenderName,'E2E excluded lender'))";

/** Loan CRM Deals Trigger (Deal Status Changed → Settled) → the same kind of sink, every 5 seconds. */
export function transitionWorkflow(sinkUrl: string, credential: CredentialRef): WorkflowFile {
	return triggerToSink(WORKFLOW_IDS.transition, 'E2E: Deal Status Changed → sink', sinkUrl, credential, {
		name: 'Deal settles',
		node: 'loanCrmDealsTrigger',
		parameters: { event: 'dealStatusChanged', toStatuses: ['Settled'], filter: TRANSITION_FILTER, options: { safetyWindow: 30 } },
	});
}

/** Loan CRM Contacts Trigger with nothing but its poll times (so its default event, Contact Created) → a sink. */
export function contactsTriggerWorkflow(sinkUrl: string, credential: CredentialRef): WorkflowFile {
	return triggerToSink(WORKFLOW_IDS.contacts, 'E2E: Loan CRM Contacts Trigger → sink', sinkUrl, credential, { name: 'New contact', node: 'loanCrmContactsTrigger', parameters: {} });
}

/** The deals the restart checks change: their names start with this, and only they pass the Filter. */
export const RESTART_MARK = 'E2E restart';

/**
 * Loan CRM Deals Trigger (Deal Updated, only deals named `RESTART_MARK…`, at most 25 records a poll,
 * so a backlog of a few hundred drains over several polls) → a sink, every 5 seconds.
 */
export function restartWorkflow(sinkUrl: string, credential: CredentialRef): WorkflowFile {
	return triggerToSink(WORKFLOW_IDS.restart, 'E2E: restarts and a killed poll', sinkUrl, credential, {
		name: 'Deal changed',
		node: 'loanCrmDealsTrigger',
		parameters: { event: 'dealUpdated', filter: `startsWith(name,'${RESTART_MARK}')`, options: { maxRecordsPerPoll: 25, safetyWindow: 30 } },
	});
}
