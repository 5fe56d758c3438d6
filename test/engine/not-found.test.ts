/**
 * A record that is not there reads the same for every resource — "Loan CRM has no task with ID
 * 999999" — whether the service answered 404 for the ID in the path, a Get found nothing in the
 * collection, or a write named a related record the service does not have. In n8n-core's engine
 * against the sandbox: the request the sandbox answered, then the message and its details.
 */
import type { INodeParameters } from 'n8n-workflow';

import { jsonOf, useSandbox } from './helpers';

const env = useSandbox();
const ids = () => env.sandbox.data.ids;

afterEach(() => env.sandbox.data.reset());

const MISSING = '999999';

interface Case {
	node: string;
	parameters: () => INodeParameters;
	request: [method: string, path: string];
	message: string;
}

const CASES: Record<string, Case> = {
	'Lead → Get': {
		node: 'loanCrmLeadsAndTasks',
		parameters: () => ({ resource: 'lead', operation: 'get', leadId: MISSING }),
		request: ['GET', `/jsonapi/leads/${MISSING}`],
		message: `Loan CRM has no lead with ID ${MISSING}`,
	},
	'Task → Update': {
		node: 'loanCrmLeadsAndTasks',
		parameters: () => ({ resource: 'task', operation: 'update', taskId: MISSING, updateFields: { progress: 'Completed' } }),
		request: ['PATCH', `/jsonapi/tasks/${MISSING}`],
		message: `Loan CRM has no task with ID ${MISSING}`,
	},
	'Deal Note → Update': {
		node: 'loanCrmDeals',
		parameters: () => ({ resource: 'dealNote', operation: 'update', dealNoteId: MISSING, updateFields: { title: 'x' } }),
		request: ['PATCH', `/jsonapi/deal-notes/${MISSING}`],
		message: `Loan CRM has no deal note with ID ${MISSING}`,
	},
	'Deal Note → Delete': {
		node: 'loanCrmDeals',
		parameters: () => ({ resource: 'dealNote', operation: 'delete', dealNoteId: MISSING }),
		request: ['DELETE', `/jsonapi/deal-notes/${MISSING}`],
		message: `Loan CRM has no deal note with ID ${MISSING}`,
	},
	'Deal Note → Get Many (the deal is missing)': {
		node: 'loanCrmDeals',
		parameters: () => ({ resource: 'dealNote', operation: 'getMany', dealId: MISSING }),
		request: ['GET', `/jsonapi/deals/${MISSING}/dealNotes`],
		message: `Loan CRM has no deal with ID ${MISSING}`,
	},
	'Custom Status → Get (the deal is missing)': {
		node: 'loanCrmDeals',
		parameters: () => ({ resource: 'customStatus', operation: 'get', dealId: MISSING }),
		request: ['GET', `/jsonapi/deals/${MISSING}/customStatus`],
		message: `Loan CRM has no deal with ID ${MISSING}`,
	},
	'Deal Structure → Get Deal': {
		node: 'loanCrmDeals',
		parameters: () => ({ resource: 'dealStructure', operation: 'getDeal', dealStructureId: MISSING }),
		request: ['GET', `/jsonapi/deal-structures/${MISSING}/deal`],
		message: `Loan CRM has no deal structure with ID ${MISSING}`,
	},
	'Deal Structure → Update': {
		node: 'loanCrmDeals',
		parameters: () => ({ resource: 'dealStructure', operation: 'update', dealStructureId: MISSING, updateFields: { accountNumber: '1' } }),
		request: ['PATCH', `/jsonapi/deal-structures/${MISSING}`],
		message: `Loan CRM has no deal structure with ID ${MISSING}`,
	},
	'Contact External Reference → Get Contact': {
		node: 'loanCrmContacts',
		parameters: () => ({ resource: 'contactExternalReference', operation: 'getContact', contactExternalReferenceId: MISSING }),
		request: ['GET', `/jsonapi/contact-external-references/${MISSING}/contact`],
		message: `Loan CRM has no contact external reference with ID ${MISSING}`,
	},
	'Contact Category → Update': {
		node: 'loanCrmContacts',
		parameters: () => ({ resource: 'contactCategory', operation: 'update', contactCategoryId: MISSING, name: 'x' }),
		request: ['PATCH', `/jsonapi/contact-categories/${MISSING}`],
		message: `Loan CRM has no contact category with ID ${MISSING}`,
	},
	'Organisation → Get Addresses': {
		node: 'loanCrmOrganisationsAndAssets',
		parameters: () => ({ resource: 'organisation', operation: 'getAddresses', organisationId: MISSING }),
		request: ['GET', `/jsonapi/organisations/${MISSING}/addresses`],
		message: `Loan CRM has no organisation with ID ${MISSING}`,
	},
	'Asset → Get Addresses': {
		node: 'loanCrmOrganisationsAndAssets',
		parameters: () => ({ resource: 'asset', operation: 'getAddresses', assetId: MISSING }),
		request: ['GET', `/jsonapi/assets/${MISSING}/addresses`],
		message: `Loan CRM has no asset with ID ${MISSING}`,
	},
	// Get by ID: the service answers 200 with no record; the node says the same as for a 404.
	'Deal → Get': {
		node: 'loanCrmDeals',
		parameters: () => ({ resource: 'deal', operation: 'get', dealId: { __rl: true, mode: 'id', value: MISSING } }),
		request: ['GET', '/jsonapi/deals'],
		message: `Loan CRM has no deal with ID ${MISSING}`,
	},
	'Deal Security → Get': {
		node: 'loanCrmDeals',
		parameters: () => ({ resource: 'dealSecurity', operation: 'get', dealSecurityId: MISSING }),
		request: ['GET', '/jsonapi/deal-securities'],
		message: `Loan CRM has no deal security with ID ${MISSING}`,
	},
	'Income → Get': {
		node: 'loanCrmDeals',
		parameters: () => ({ resource: 'income', operation: 'get', incomeId: MISSING }),
		request: ['GET', '/jsonapi/incomes'],
		message: `Loan CRM has no income with ID ${MISSING}`,
	},
	'Contact → Get': {
		node: 'loanCrmContacts',
		parameters: () => ({ resource: 'contact', operation: 'get', contactId: { __rl: true, mode: 'id', value: MISSING } }),
		request: ['GET', '/jsonapi/contacts'],
		message: `Loan CRM has no contact with ID ${MISSING}`,
	},
};

describe('"Loan CRM has no <record> with ID <id>", the same for every resource', () => {
	it.each(Object.entries(CASES))('%s', async (_name, { node, parameters, request, message }) => {
		const result = await env.run(node, parameters());
		const requests = env.sandbox.apiRequests();
		// A path with an ID: the service's 404. Get by ID reads the collection: 200 with no record.
		const status = /\/\d+(\/|$)/.test(request[1]) ? 404 : 200;
		expect(requests.map((sent) => [sent.method, sent.path, sent.status])).toEqual([[...request, status]]);
		expect(result.error).toEqual(expect.objectContaining({ message, httpCode: '404' }));
		// What to do, in the same words for every resource, with what the service said when it said something.
		const label = message.replace(/^Loan CRM has no (.+) with ID \d+$/, '$1');
		expect(result.error?.description).toMatch(new RegExp(`^No ${label} with this ID exists, or it is not visible to this client .+ Check the ID\\.( Loan CRM said: .+)?$`));
		if (status === 404) expect(result.error?.description).toContain('Loan CRM said: The requested resource does not exist.');
	});
});

describe('a write naming a related record the service does not have', () => {
	it('Deal External Reference → Create with an unknown integration: names the integration and the parameter it came from', async () => {
		const result = await env.run('loanCrmDeals', {
			resource: 'dealExternalReference',
			operation: 'create',
			externalReference: 'X-1',
			integrationId: '99',
			dealId: ids().dealWithoutNotes,
		});
		const [request] = env.sandbox.apiRequests();
		expect([request.method, request.path, request.status]).toEqual(['POST', '/jsonapi/deal-external-references', 404]);
		expect(result.error?.message).toBe('Loan CRM has no integration with ID 99. Check parameter "Integration ID"');
		expect(result.error?.description).toContain(`Loan CRM said: "Integration ID": A related resource does not exist. Related resource of type 'integrations' with ID '99'`);
	});

	it('Task → Update with unknown contact groups: the IDs as sent, one of which is missing', async () => {
		const known = env.sandbox.data.idsOf('contact-groups')[0];
		const result = await env.run('loanCrmLeadsAndTasks', {
			resource: 'task',
			operation: 'update',
			taskId: ids().task,
			updateFields: { contactGroupIds: `${known},${MISSING}` },
		});
		expect(env.sandbox.apiRequests().map((sent) => [sent.method, sent.path, sent.status])).toEqual([['PATCH', `/jsonapi/tasks/${ids().task}`, 404]]);
		expect(result.error?.message).toBe(`Loan CRM has no contact group with one of the IDs ${known}, ${MISSING}. Check parameter "Update Fields → Contact Group IDs"`);
	});

	it('with Continue On Fail the error item carries the same message', async () => {
		const result = await env.run(
			'loanCrmLeadsAndTasks',
			{ resource: 'task', operation: 'update', taskId: '={{ $json.task }}', updateFields: { progress: 'Completed' } },
			{ input: [{ task: MISSING }, { task: ids().task }], continueOnFail: true },
		);
		expect(jsonOf(result).map((item) => item.error ?? item.id)).toEqual([`Loan CRM has no task with ID ${MISSING}`, ids().task]);
		expect(env.sandbox.apiRequests()).toHaveLength(2);
	});
});

describe('an endpoint the service does not have (no ID to name)', () => {
	it('says so and points at the Base URL', async () => {
		env.sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { status: 404, body: { errors: [{ status: '404', title: 'The requested endpoint does not exist.' }] } });
		const result = await env.run('loanCrmDeals', { resource: 'deal', operation: 'getMany', limit: 1 });
		expect(env.sandbox.apiRequests()).toHaveLength(1);
		expect(result.error?.message).toBe('Loan CRM has no deals (404): The requested endpoint does not exist.');
		expect(result.error?.description).toContain('Base URL');
	});
});
