/** The workflows the e2e run imports into the real n8n. */
import type { IConnections, INode, INodeParameters } from 'n8n-workflow';

import type { OperationCase } from './cases';
import { PACKAGE } from './cases';

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

/**
 * The credential the credential-dialog check edits (same sandbox values): its own, so the poll
 * triggers, which run every 5 seconds on CREDENTIAL_ID, neither see its wrong secret nor add token
 * requests to what that check counts.
 */
export const DIALOG_CREDENTIAL_ID = 'lcE2eDialogCred1';

export const MANUAL = 'Run (manual trigger)';

function manualTrigger(): INode {
	return { id: 'manual-trigger', name: MANUAL, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
}

function crmNode(name: string, nodeName: string, parameters: INodeParameters, position: [number, number], credential: CredentialRef): INode {
	return {
		id: `node-${name.replace(/[^a-zA-Z0-9]+/g, '-').toLowerCase()}`,
		name,
		type: `${PACKAGE}.${nodeName}`,
		typeVersion: 1,
		position,
		parameters,
		credentials: { loanCrmOAuth2Api: credential },
	};
}

function workflow(id: string, name: string, nodes: INode[], connections: IConnections): WorkflowFile {
	return { id, name, nodes, connections, active: false, settings: { executionOrder: 'v1' } };
}

function connect(connections: IConnections, from: string, to: string): void {
	connections[from] ??= { main: [[]] };
	connections[from].main[0]?.push({ node: to, type: 'main', index: 0 });
}

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
		const node = crmNode(item.name, item.node, item.parameters, [item.after ? 700 : 350, index * 120], credential);
		node.onError = 'continueRegularOutput';
		nodes.push(node);
		connect(connections, item.after ?? MANUAL, item.name);
	});
	return workflow(id, name, nodes, connections);
}

/** One request with the stored credential: token reuse across executions and renewal after a 401. */
export function tokenWorkflow(leadId: string, credential: CredentialRef, id: string = WORKFLOW_IDS.token, name = 'E2E: stored token'): WorkflowFile {
	const connections: IConnections = {};
	connect(connections, MANUAL, 'Get lead');
	return workflow(
		id,
		name,
		[manualTrigger(), crmNode('Get lead', 'loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId }, [350, 0], credential)],
		connections,
	);
}

/** Items a paced bulk execution creates (the sandbox's first deals, one contact each). */
export const PACED_BULK_ITEMS = 250;

/**
 * A bulk job: Get Many of PACED_BULK_ITEMS deals, then one Contact → Create per deal, named after the
 * deal and the execution (`E2E paced <deal id>`, last name the execution's id), so the runner can
 * count what each execution created.
 */
export function pacedBulkWorkflow(credential: CredentialRef): WorkflowFile {
	const connections: IConnections = {};
	connect(connections, MANUAL, 'Get deals');
	connect(connections, 'Get deals', 'Create contacts');
	return workflow(
		WORKFLOW_IDS.paced,
		'E2E: paced bulk creates',
		[
			manualTrigger(),
			crmNode('Get deals', 'loanCrmDeals', { resource: 'deal', operation: 'getMany', limit: PACED_BULK_ITEMS }, [350, 0], credential),
			crmNode(
				'Create contacts',
				'loanCrmContacts',
				{
					resource: 'contact',
					operation: 'create',
					additionalFields: { firstName: '=E2E paced {{ $json.id }}', lastName: '={{ $execution.id }}', email: '=paced{{ $json.id }}-{{ $execution.id }}@example.com' },
				},
				[700, 0],
				credential,
			),
		],
		connections,
	);
}

/** A failing request without Continue On Fail: n8n must fail the execution with the node's message. */
export function failureWorkflow(credential: CredentialRef): WorkflowFile {
	const connections: IConnections = {};
	connect(connections, MANUAL, 'Get missing lead');
	return workflow(
		WORKFLOW_IDS.failure,
		'E2E: failing request',
		[manualTrigger(), crmNode('Get missing lead', 'loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: '999999' }, [350, 0], credential)],
		connections,
	);
}

export const TRIGGER_FILTER = "equals(dealStatus,'Settled')";

/**
 * Loan CRM Trigger (dealUpdated, Settled only) → HTTP Request that posts each item to the runner's
 * sink. n8n refuses poll times under a minute, so the trigger gets twelve once-a-minute poll times
 * at seconds 0, 5, … 55: each a valid minute-granular cron, together a poll every 5 seconds.
 */
const EVERY_FIVE_SECONDS = { item: Array.from({ length: 12 }, (_, i) => ({ mode: 'custom', cronExpression: `${i * 5} * * * * *` })) };

export function triggerWorkflow(sinkUrl: string, credential: CredentialRef): WorkflowFile {
	const trigger = crmNode(
		'Loan CRM Trigger',
		'loanCrmTrigger',
		{ pollTimes: EVERY_FIVE_SECONDS, event: 'dealUpdated', filter: TRIGGER_FILTER, options: { safetyWindow: 30 } },
		[0, 0],
		credential,
	);
	return postToSink(WORKFLOW_IDS.trigger, 'E2E: Loan CRM Trigger → sink', trigger, sinkUrl);
}

/** The filter of the transition trigger: it narrows what is emitted, never what is followed. */
export const TRANSITION_FILTER = "not(equals(lenderName,'E2E excluded lender'))";

/** Loan CRM Deals Trigger (Deal Status Changed → Settled) → the same kind of sink, every 5 seconds. */
export function transitionWorkflow(sinkUrl: string, credential: CredentialRef): WorkflowFile {
	const trigger = crmNode(
		'Deal settles',
		'loanCrmDealsTrigger',
		{ pollTimes: EVERY_FIVE_SECONDS, event: 'dealStatusChanged', toStatuses: ['Settled'], filter: TRANSITION_FILTER, options: { safetyWindow: 30 } },
		[0, 0],
		credential,
	);
	return postToSink(WORKFLOW_IDS.transition, 'E2E: Deal Status Changed → sink', trigger, sinkUrl);
}

/** Loan CRM Contacts Trigger with nothing but its poll times (so its default event, Contact Created) → a sink. */
export function contactsTriggerWorkflow(sinkUrl: string, credential: CredentialRef): WorkflowFile {
	const trigger = crmNode('New contact', 'loanCrmContactsTrigger', { pollTimes: EVERY_FIVE_SECONDS }, [0, 0], credential);
	return postToSink(WORKFLOW_IDS.contacts, 'E2E: Loan CRM Contacts Trigger → sink', trigger, sinkUrl);
}

/** The deals the restart checks change: their names start with this, and only they pass the Filter. */
export const RESTART_MARK = 'E2E restart';

/**
 * Loan CRM Deals Trigger (Deal Updated, only deals named `RESTART_MARK…`, at most 25 records a poll,
 * so a backlog of a few hundred drains over several polls) → a sink, every 5 seconds.
 */
export function restartWorkflow(sinkUrl: string, credential: CredentialRef): WorkflowFile {
	const trigger = crmNode(
		'Deal changed',
		'loanCrmDealsTrigger',
		{ pollTimes: EVERY_FIVE_SECONDS, event: 'dealUpdated', filter: `startsWith(name,'${RESTART_MARK}')`, options: { maxRecordsPerPoll: 25, safetyWindow: 30 } },
		[0, 0],
		credential,
	);
	return postToSink(WORKFLOW_IDS.restart, 'E2E: restarts and a killed poll', trigger, sinkUrl);
}

function postToSink(id: string, name: string, trigger: INode, sinkUrl: string): WorkflowFile {
	const sink: INode = {
		id: 'node-sink',
		name: 'Post to sink',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [350, 0],
		parameters: {
			method: 'POST',
			url: sinkUrl,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '={{ JSON.stringify($json) }}',
			options: {},
		},
	};
	const connections: IConnections = {};
	connect(connections, trigger.name, sink.name);
	return workflow(id, name, [trigger, sink], connections);
}
