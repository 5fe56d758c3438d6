/**
 * The Loan CRM Webhook Trigger as the editor and n8n's webhook registration see it: what each
 * n8n-workflow copy at hand shows for which settings (NodeHelpers, n8n 1.123, 2.30, 2.41), the
 * canvas subtitle and the webhook's path as n8n's expression engine works them out, and the
 * lifecycle n8n's lint asks of a webhook trigger.
 */
import type { INode, INodeTypeDescription } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { LoanCrmWebhookTrigger } from '../../nodes/LoanCrmWebhookTrigger/LoanCrmWebhookTrigger.node';
import { CREDENTIAL_TYPE } from '../../nodes/shared/requests/runContext';
import { workflowCopies } from './n8nCopies';

const node = new LoanCrmWebhookTrigger();
const description = node.description as INodeTypeDescription;

function evaluated(parameters: INode['parameters'], expression: string): unknown {
	const workflow = new Workflow({
		nodes: [{ id: '1', name: 'Trigger', type: 'n8n-nodes-loan-crm.loanCrmWebhookTrigger', typeVersion: 1, position: [0, 0], parameters, webhookId: 'hook' }],
		connections: {},
		active: false,
		nodeTypes: { getByName: () => node, getByNameAndVersion: () => node, getKnownTypes: () => ({}) } as never,
	});
	return workflow.expression.getSimpleParameterValue(workflow.getNode('Trigger') as INode, expression, 'internal', {});
}

describe('Loan CRM Webhook Trigger in the editor', () => {
	it('is a trigger of its own in the nodes panel: the credential, no input, one webhook (POST), no polling, no tool copy', () => {
		expect(description).toEqual(
			expect.objectContaining({
				displayName: 'Loan CRM Webhook Trigger',
				name: 'loanCrmWebhookTrigger',
				group: ['trigger'],
				version: 1,
				defaults: { name: 'Loan CRM Webhook Trigger' },
				inputs: [],
				credentials: [{ name: CREDENTIAL_TYPE, required: true }],
				webhooks: [expect.objectContaining({ name: 'default', httpMethod: 'POST' })],
			}),
		);
		expect([description.polling, description.usableAsTool, description.hidden]).toEqual([undefined, undefined, undefined]);
		expect(Object.keys(node.webhookMethods.default)).toEqual(['checkExists', 'create', 'delete']);
		expect(typeof node.webhook).toBe('function');
	});

	it.each(workflowCopies().map((copy) => [copy.label, copy] as const))('shows each parameter for the settings it belongs to (%s)', (_label, { helpers }) => {
		const shown = (parameters: INode['parameters']) => {
			const values = helpers.getNodeParameters(description.properties, parameters, true, false, null, description) ?? {};
			return description.properties.filter((property) => helpers.displayParameter(values, property, null, description)).map((property) => property.name);
		};
		expect(shown({})).toEqual(['setupNotice', 'resources', 'dealEvent', 'toStatuses', 'fromStatuses', 'simplify', 'sharedSecret', 'options']);
		expect(shown({ resources: ['contacts', 'advisers'] })).toEqual(['setupNotice', 'resources', 'sharedSecret', 'options']);
		expect(shown({ resources: ['contacts', 'deals'], dealEvent: 'dealUpdated' })).toEqual(['setupNotice', 'resources', 'dealEvent', 'simplify', 'sharedSecret', 'options']);
		expect(shown({ sharedSecret: 'header' })).toEqual(expect.arrayContaining(['headerName', 'secret']));
		expect(shown({ sharedSecret: 'path' })).toEqual(expect.arrayContaining(['secret']));
		expect(shown({ sharedSecret: 'path' })).not.toContain('headerName');
		// A new node: deals, Deal Status Changed into Settled, as the Deals Trigger starts.
		const values = helpers.getNodeParameters(description.properties, {}, true, false, null, description) ?? {};
		expect([values.resources, values.dealEvent, values.toStatuses, values.simplify, values.sharedSecret]).toEqual([['deals'], 'dealStatusChanged', ['Settled'], true, 'none']);
	});

	it("the canvas subtitle says the records and the deal event, worked out by n8n's expression engine", () => {
		const subtitle = description.subtitle as string;
		expect(evaluated({ resources: ['deals'], dealEvent: 'dealStatusChanged' }, subtitle)).toBe('deals · Deal Status Changed');
		expect(evaluated({ resources: ['deals', 'contacts'], dealEvent: 'dealCreated' }, subtitle)).toBe('deals, contacts · Deal Created');
		expect(evaluated({ resources: ['advisers', 'organisations'] }, subtitle)).toBe('advisers, organisations');
	});

	it('n8n serves it at <webhook id>/notify, or /notify/<secret> with a path secret', () => {
		const path = description.webhooks?.[0].path as string;
		expect(evaluated({}, path)).toBe('notify');
		expect(evaluated({ sharedSecret: 'header', secret: 'not-in-the-url-0123' }, path)).toBe('notify');
		expect(evaluated({ sharedSecret: 'path', secret: 'in-the-url-0123456' }, path)).toBe('notify/in-the-url-0123456');
	});
});
