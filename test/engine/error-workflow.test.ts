/*
 * What an Error Workflow receives when a Loan CRM node stops a run. n8n's CLI (execution lifecycle
 * hook `executeErrorWorkflow`, then WorkflowExecutionService.executeErrorWorkflow) builds
 * `{ execution: { id, url, error, lastNodeExecuted, mode, retryOf }, workflow: { id, name } }` from
 * the failed run's `resultData.error`, puts it as the single item on the Error Trigger's input and
 * runs the error workflow in mode `error`. This test does the same with n8n-core's engine and an
 * Error Trigger that does what n8n's does in that mode (below), and reads what the next node got,
 * after the JSON round trip every stored or queued execution goes through. The e2e
 * (scripts/e2e/error-workflow.ts) checks the same messages with n8n's real Error Trigger.
 *
 * The point: the message is the same whichever input item failed (users match on it), and the
 * item travels as `context.itemIndex`.
 */
import { randomUUID } from 'crypto';

import { WorkflowExecute } from 'n8n-core';
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { createRunExecutionData, NodeConnectionTypes, Workflow } from 'n8n-workflow';

import { CredentialStore, createAdditionalData, createRegistry, NOOP_TYPE, runNode, sandboxCredential } from '../../harness';
import type { RunResult } from '../../harness';
import { useSandbox } from './helpers';

const ERROR_TRIGGER_TYPE = 'n8n-nodes-base.errorTrigger';

/**
 * n8n's Error Trigger (n8n-nodes-base 2.41.1, nodes/ErrorTrigger/ErrorTrigger.node.ts), reduced to
 * what it does outside manual mode: `execute` returns the item n8n put on its input, unchanged. (Its
 * other branch, sample data for a manual run with an empty input, never runs here.) n8n-nodes-base is
 * no longer a devDependency, so the node is written out rather than loaded.
 */
class ErrorTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Error Trigger',
		name: 'errorTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Triggers the workflow when another workflow has an error',
		maxNodes: 1,
		defaults: { name: 'Error Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

const env = useSandbox();
const registry = createRegistry();
beforeAll(() => {
	registry.nodeTypes.register(ERROR_TRIGGER_TYPE, new ErrorTrigger(), __filename);
});

/** Runs the error workflow [Error Trigger → Received] the way n8n runs it for a failed execution. */
async function errorWorkflowReceives(failed: RunResult): Promise<IDataObject> {
	expect(failed.error).toBeDefined();
	const executionId = randomUUID();
	const workflowErrorData = {
		execution: {
			id: executionId,
			url: `http://localhost:5678/workflow/failed/executions/${executionId}`,
			error: failed.run.data.resultData.error,
			lastNodeExecuted: failed.run.data.resultData.lastNodeExecuted,
			mode: 'trigger',
		},
		workflow: { id: 'failed', name: 'Failing workflow' },
	};
	const nodes: INode[] = [
		{ id: randomUUID(), name: 'Error Trigger', type: ERROR_TRIGGER_TYPE, typeVersion: 1, position: [0, 0], parameters: {} },
		{ id: randomUUID(), name: 'Received', type: NOOP_TYPE, typeVersion: 1, position: [200, 0], parameters: {} },
	];
	const connections = { 'Error Trigger': { main: [[{ node: 'Received', type: NodeConnectionTypes.Main, index: 0 }]] } };
	const workflow = new Workflow({ id: 'errors', name: 'Error workflow', nodes, connections, active: false, nodeTypes: registry.nodeTypes, settings: { executionOrder: 'v1' } });
	const runExecutionData = createRunExecutionData({
		executionData: { nodeExecutionStack: [{ node: nodes[0], data: { main: [[{ json: workflowErrorData as unknown as IDataObject }]] }, source: null }] },
	});
	const now = new Date();
	const workflowData = { id: 'errors', name: 'Error workflow', active: false, isArchived: false, createdAt: now, updatedAt: now, nodes, connections, activeVersionId: null };
	const additionalData = createAdditionalData(new CredentialStore(), { executionId: randomUUID(), workflowId: 'errors', mode: 'error', workflowData });
	const run = await new WorkflowExecute(additionalData, 'error', runExecutionData).processRunExecutionData(workflow);
	expect(run.data.resultData.error).toBeUndefined();
	const received = run.data.resultData.runData.Received?.[0]?.data?.main?.[0] ?? [];
	expect(received).toHaveLength(1);
	return JSON.parse(JSON.stringify(received[0].json)) as IDataObject;
}

const leads = (ids: string[]) => ids.map((id) => ({ id }));

describe('Error Trigger workflow receives', () => {
	it('a 404: the service-facing message without the item, the item as context.itemIndex', async () => {
		const failed = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: '={{ $json.id }}' }, { input: leads([env.sandbox.data.ids.lead, '999999']) });
		const received = await errorWorkflowReceives(failed);
		expect(received.workflow).toEqual({ id: 'failed', name: 'Failing workflow' });
		const execution = received.execution as IDataObject;
		expect(execution.lastNodeExecuted).toBe(failed.nodeName);
		expect(execution.error).toEqual(
			expect.objectContaining({
				name: 'NodeApiError',
				message: 'Loan CRM has no lead with ID 999999',
				description: expect.stringMatching(/\S/),
				context: expect.objectContaining({ itemIndex: 1 }),
			}),
		);
	});

	it('the same message whichever item failed', async () => {
		const first = await errorWorkflowReceives(await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: '={{ $json.id }}' }, { input: leads(['999999']) }));
		const third = await errorWorkflowReceives(
			await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: '={{ $json.id }}' }, { input: leads([env.sandbox.data.ids.lead, env.sandbox.data.ids.lead, '999999']) }),
		);
		const errorOf = (received: IDataObject) => (received.execution as IDataObject).error as IDataObject;
		expect(errorOf(third).message).toBe(errorOf(first).message);
		expect([(errorOf(first).context as IDataObject).itemIndex, (errorOf(third).context as IDataObject).itemIndex]).toEqual([0, 2]);
	});

	it('a 403 (scope without read rights): its own message, the item as context.itemIndex', async () => {
		const store = new CredentialStore();
		store.add('loanCrmOAuth2Api', sandboxCredential(env.sandbox, { scope: 'api.deals.search' }));
		const failed = await runNode({
			nodeType: 'loanCrmLeadsAndTasks',
			parameters: { resource: 'lead', operation: 'get', leadId: env.sandbox.data.ids.lead },
			credentials: store,
			input: [{}, {}],
		});
		const error = ((await errorWorkflowReceives(failed)).execution as IDataObject).error as IDataObject;
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toMatch(/^Loan CRM refused access \(403\)/);
		expect(error.message).not.toMatch(/\[item/);
		expect(error.context).toEqual(expect.objectContaining({ itemIndex: 0 }));
		// Requests in Parallel (default 4): item 1 was already waiting behind item 0's first request.
		expect(env.sandbox.apiRequests().map((request) => request.status)).toEqual([403, 403]);
	});

	it('a bad parameter on the second item: names the parameter, nothing sent for it, context.itemIndex 1', async () => {
		const failed = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: '={{ $json.id }}' }, { input: leads([env.sandbox.data.ids.lead, 'abc']) });
		const error = ((await errorWorkflowReceives(failed)).execution as IDataObject).error as IDataObject;
		expect(error.name).toBe('NodeOperationError');
		expect(error.message).toBe('Parameter "Lead" must be a record ID (a whole number); got "abc"');
		expect(error.context).toEqual(expect.objectContaining({ itemIndex: 1 }));
		expect(env.sandbox.apiRequests()).toHaveLength(1);
	});

	it("a credential whose User ID is not a number: the credential's message, with the item's index", async () => {
		const store = new CredentialStore();
		store.add('loanCrmOAuth2Api', sandboxCredential(env.sandbox, { userId: 'adviser-7' }));
		const failed = await runNode({
			nodeType: 'loanCrmLeadsAndTasks',
			parameters: { resource: 'lead', operation: 'get', leadId: env.sandbox.data.ids.lead },
			credentials: store,
			input: [{}, {}],
			continueOnFail: false,
		});
		const error = ((await errorWorkflowReceives(failed)).execution as IDataObject).error as IDataObject;
		expect(error.message).toBe('The credential\'s User ID "adviser-7" is not a whole number');
		expect(error.context).toEqual(expect.objectContaining({ itemIndex: 0 }));
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});
});
