/**
 * What an Error Workflow receives in the real n8n (`n8n start`): a published workflow
 * Webhook → Loan CRM Leads & Tasks (lead.get, id from the request body) names an error workflow in
 * its settings; that one is Error Trigger → HTTP Request posting `execution.error` to a sink here.
 * Three calls of the webhook make the node fail with a 404, a 403 and a bad parameter; for each, the
 * error must arrive with the node's message unchanged (no "[item N]") and `context.itemIndex`.
 */
import { randomUUID } from 'crypto';
import type { Server } from 'http';

import type { IDataObject, INode } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import type { N8nInstance } from './n8n';
import { startSink } from './n8n';
import { waitFor } from './util';
import type { CredentialRef, WorkflowFile } from './workflows';
import { chain, loanCrmNode, reportNode, webhookNode, workflowFile } from './workflows';

const FAILING_ID = 'lcE2eErrorSource';
const ERROR_WORKFLOW_ID = 'lcE2eErrorTrigger';
const WEBHOOK_PATH = 'loan-crm-e2e-error-source';

export interface ErrorWorkflowScenario {
	sink: Server;
	received: IDataObject[];
}

function workflows(sinkUrl: string, credential: CredentialRef): WorkflowFile[] {
	const webhook = webhookNode(WEBHOOK_PATH, randomUUID());
	const lead = loanCrmNode('Get lead', 'loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: '={{ $json.body.leadId }}' }, { position: [300, 0], credential });
	const errorTrigger: INode = { id: 'node-error-trigger', name: 'Error Trigger', type: 'n8n-nodes-base.errorTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
	const post = reportNode(sinkUrl, { name: 'Post error to sink', id: 'node-post-error', position: [300, 0] });
	return [
		workflowFile(ERROR_WORKFLOW_ID, 'E2E: Error Trigger → sink', [errorTrigger, post], chain(errorTrigger.name, post.name)),
		workflowFile(FAILING_ID, 'E2E: webhook → failing Loan CRM node', [webhook, lead], chain(webhook.name, lead.name), { errorWorkflow: ERROR_WORKFLOW_ID }),
	];
}

/** Before `n8n start`: the sink, both workflows imported and published. */
export async function prepareErrorWorkflows(n8n: N8nInstance, credential: CredentialRef): Promise<ErrorWorkflowScenario> {
	const { server: sink, url, received } = await startSink('/loan-crm-error-workflow');
	await n8n.importWorkflows(workflows(url, credential), 'error-workflows.json');
	await n8n.publish(FAILING_ID);
	// n8n 2 runs only a published error workflow ("… is not active and cannot be executed").
	await n8n.publish(ERROR_WORKFLOW_ID);
	return { sink, received };
}

/** Under `n8n start`: the three failures and what the error workflow received; returns problems. */
export async function checkErrorWorkflow(port: number, sandbox: Sandbox, scenario: ErrorWorkflowScenario): Promise<string[]> {
	const lead = sandbox.data.ids.lead;
	const cases: Array<{ label: string; leadId: string; fault?: boolean; name: string; message: RegExp }> = [
		{ label: '404', leadId: '999999', name: 'NodeApiError', message: /^Loan CRM has no lead with ID 999999$/ },
		{ label: '403', leadId: lead, fault: true, name: 'NodeApiError', message: /^Loan CRM refused access \(403\)/ },
		{ label: 'bad parameter', leadId: 'abc', name: 'NodeOperationError', message: /^Parameter "Lead" must be a whole number from 1 to 2147483647; got "abc"$/ },
	];
	const problems: string[] = [];
	try {
		for (const item of cases) {
			const before = scenario.received.length;
			if (item.fault) {
				sandbox.injectFault({ path: new RegExp(`^/jsonapi/leads/${lead}$`), kind: 'api' }, { status: 403, body: { errors: [{ status: '403', title: 'Forbidden', detail: 'Scope api.leads.read is required.' }] } }, 1);
			}
			const response = await fetch(`http://127.0.0.1:${port}/webhook/${WEBHOOK_PATH}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ leadId: item.leadId }),
			});
			if (!response.ok) {
				problems.push(`${item.label}: the webhook answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
				continue;
			}
			if (!(await waitFor(() => scenario.received.length > before, 30_000))) {
				problems.push(`${item.label}: the error workflow posted nothing within 30 s`);
				continue;
			}
			const data = scenario.received[before];
			const execution = (data.execution ?? {}) as IDataObject;
			const error = (execution.error ?? {}) as IDataObject;
			const context = (error.context ?? {}) as IDataObject;
			const where = `${item.label}: ${JSON.stringify({ error: { name: error.name, message: error.message, context } }).slice(0, 500)}`;
			if (typeof error.message !== 'string' || !item.message.test(error.message)) problems.push(`${where} — message should match ${item.message}`);
			if (typeof error.message === 'string' && error.message.includes('[item')) problems.push(`${where} — message carries "[item"`);
			if (error.name !== item.name) problems.push(`${where} — name should be ${item.name}`);
			if (context.itemIndex !== 0) problems.push(`${where} — context.itemIndex should be 0`);
			if (execution.lastNodeExecuted !== 'Get lead') problems.push(`${item.label}: lastNodeExecuted is ${JSON.stringify(execution.lastNodeExecuted)}`);
			if ((data.workflow as IDataObject | undefined)?.id !== FAILING_ID) problems.push(`${item.label}: workflow is ${JSON.stringify(data.workflow)}`);
			if (JSON.stringify(data).includes(sandbox.clientSecret)) problems.push(`${item.label}: the client secret reached the error workflow`);
		}
	} finally {
		sandbox.clearFaults();
	}
	return problems;
}
