/**
 * What the real-n8n end-to-end run executes and checks: one node per operation of the four action
 * nodes (the 20 of the contract, the Get by ID operations, and again with IDs given as resource
 * locators where the existing rows give plain old-style IDs), a chained pair that passes data between nodes through expressions, and the requests
 * the sandbox must have received for each. Ids come from the sandbox's fixtures.
 */
import type { IDataObject, INodeParameterResourceLocator, INodeParameters } from 'n8n-workflow';

import type { ActionNode, ExampleRequest, OperationKey } from '../../harness/operation-examples';
import { canonical, contentProblems, operationExamples } from '../../harness/operation-examples';
import type { FixtureIds, LoggedRequest, Sandbox } from '../../sandbox';

export type { ActionNode };
export { canonical };

export interface ExpectedRequest {
	method: string;
	/** Path without the query, e.g. `/jsonapi/deals`; a RegExp for paths with ids assigned at run time. */
	path: string | RegExp;
	status?: number;
	/** Its UserId header, when not the credential's (a lead's Allocate To). */
	userId?: string;
	/** Extra checks on the request; return a message for each problem. */
	check?: (request: LoggedRequest) => string[];
}

export interface OperationCase {
	/** `<node>/<resource>.<operation>`, used in messages. */
	key: string;
	/** Node name in the workflow (unique). */
	name: string;
	node: ActionNode;
	parameters: INodeParameters;
	/** Name of the node feeding this one; default the workflow's Manual Trigger. */
	after?: string;
	/** The requests this node must cause, in order. */
	requests: ExpectedRequest[];
	/** The node is expected to output `{ error }` items (Continue On Fail); `check` inspects them. */
	expectsError?: boolean;
	/** Checks on the node's output items; return a message for each problem. */
	check: (items: IDataObject[]) => string[];
}

/** Small assertion helpers that return messages instead of throwing, so every problem is listed. */
export const expectThat = {
	equal(label: string, actual: unknown, expected: unknown): string[] {
		return canonical(actual) === canonical(expected)
			? []
			: [`${label}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
	},
	count(items: IDataObject[], expected: number): string[] {
		return items.length === expected ? [] : [`expected ${expected} item(s), got ${items.length}`];
	},
	fields(label: string, item: IDataObject | undefined, expected: IDataObject): string[] {
		if (item === undefined) return [`${label}: no item`];
		return Object.entries(expected).flatMap(([key, value]) =>
			canonical(item[key]) === canonical(value)
				? []
				: [`${label}.${key}: expected ${JSON.stringify(value)}, got ${JSON.stringify(item[key])}`],
		);
	},
	every(label: string, items: IDataObject[], predicate: (item: IDataObject) => boolean): string[] {
		const bad = items.filter((item) => !predicate(item));
		return bad.length === 0 ? [] : [`${label}: ${bad.length} of ${items.length} item(s) fail, first: ${JSON.stringify(bad[0]).slice(0, 300)}`];
	},
};

const { equal, count, fields, every } = expectThat;

/** A resource locator's value as the editor saves it: picked From List or typed By ID. */
export function locator(value: string, mode: 'list' | 'id' = 'list'): INodeParameterResourceLocator {
	return { __rl: true, mode, value };
}

/** The body of a JSON:API write as the sandbox logged it. */
function bodyIs(expected: unknown): (request: LoggedRequest) => string[] {
	return (request) => equal('request body', request.json, expected);
}

function queryIs(expected: Record<string, string>): (request: LoggedRequest) => string[] {
	return (request) => Object.entries(expected).flatMap(([key, value]) => equal(`query ${key}`, request.query[key], value));
}

/** The table's request as the e2e finds it (method and path) and checks it (status, query and body exactly). */
function tableRequest(expected: ExampleRequest): ExpectedRequest {
	return { method: expected.method, path: expected.path, status: expected.status, userId: expected.userId, check: (request) => contentProblems(request, expected) };
}

/**
 * The operation cases against this sandbox's fixtures, for the single-process and the queue-mode
 * legs alike; refuses to run when an operation of the contract has no case.
 */
export function contractCases(sandbox: Sandbox): OperationCase[] {
	const ids = sandbox.data.ids;
	const customStatusOfDeal = (sandbox.data.get('deals', ids.dealWithCustomStatus)?.relationships.customStatus as { id: string } | null)?.id ?? '';
	const cases = operationCases(ids, customStatusOfDeal);
	const covered = new Set(cases.map((item) => item.key));
	const missing = CONTRACT_OPERATIONS.filter((key) => !covered.has(key));
	if (missing.length > 0) throw new Error(`e2e cases missing for: ${missing.join(', ')}`);
	return cases;
}

export function operationCases(ids: FixtureIds, customStatusOfDeal: string): OperationCase[] {
	const examples = operationExamples(ids);
	/**
	 * The table's parameter set of an operation (harness/operation-examples.ts), with any overrides,
	 * and the request the table says it makes (the engine tests check the same one).
	 */
	const example = (key: OperationKey, overrides: INodeParameters = {}) => ({
		key,
		node: examples[key].node,
		parameters: { ...examples[key].parameters, ...overrides },
		requests: [tableRequest(examples[key].request)],
	});
	const deals: OperationCase[] = [
		{
			...example('loanCrmDeals/deal.getMany'),
			name: 'Deals: deal.getMany',
			check: (items) => [
				...count(items, 3),
				...every('every deal Settled, type deals', items, (item) => item.dealStatus === 'Settled' && item.type === 'deals'),
				...equal('ids descending', items.map((item) => Number(item.id)), [...items.map((item) => Number(item.id))].sort((a, b) => b - a)),
			],
		},
		{
			key: 'loanCrmDeals/deal.get',
			name: 'Deals: deal.get',
			node: 'loanCrmDeals',
			parameters: { resource: 'deal', operation: 'get', dealId: locator(ids.dealWithCustomStatus), options: { include: 'customStatus', fields: 'name' } },
			requests: [
				{
					method: 'GET',
					path: '/jsonapi/deals',
					check: queryIs({ filter: `equals(id,'${ids.dealWithCustomStatus}')`, include: 'customStatus', 'fields[deals]': 'name,customStatus', 'page[size]': '1' }),
				},
			],
			check: (items) => [
				...count(items, 1),
				...equal('item keys', Object.keys(items[0] ?? {}).sort(), ['customStatus', 'id', 'name', 'type']),
				...fields('deal', items[0], { id: ids.dealWithCustomStatus, type: 'deals' }),
				...fields('custom status', items[0]?.customStatus as IDataObject | undefined, { id: customStatusOfDeal, type: 'custom-statuses' }),
			],
		},
		{
			...example('loanCrmDeals/dealStructure.getDeal'),
			name: 'Deals: dealStructure.getDeal',
			check: (items) => [...count(items, 1), ...fields('deal', items[0], { id: ids.dealWithNotes, type: 'deals' })],
		},
		{
			...example('loanCrmDeals/dealStructure.update'),
			name: 'Deals: dealStructure.update',
			check: (items) => [
				...count(items, 1),
				...fields('structure', items[0], { id: ids.dealStructure, type: 'deal-structures', interestRate: 0.0549, rateTermYears: 3, fixedRateExpiryDate: '2029-06-30' }),
			],
		},
		{
			...example('loanCrmDeals/dealSecurity.getMany'),
			name: 'Deals: dealSecurity.getMany',
			check: (items) => [...count(items, 4), ...every('type deal-securities with id', items, (item) => item.type === 'deal-securities' && typeof item.id === 'string')],
		},
		{
			key: 'loanCrmDeals/dealSecurity.get',
			name: 'Deals: dealSecurity.get',
			node: 'loanCrmDeals',
			parameters: { resource: 'dealSecurity', operation: 'get', dealSecurityId: ids.dealSecurity },
			requests: [{ method: 'GET', path: '/jsonapi/deal-securities', check: queryIs({ filter: `equals(id,'${ids.dealSecurity}')`, 'page[size]': '1' }) }],
			check: (items) => [...count(items, 1), ...fields('security', items[0], { id: ids.dealSecurity, type: 'deal-securities' })],
		},
		{
			...example('loanCrmDeals/dealExternalReference.getMany'),
			name: 'Deals: dealExternalReference.getMany',
			check: (items) => [
				...count(items, 1),
				...fields('reference', items[0], { id: ids.dealExternalReference, externalReference: 'ABC1234' }),
				...equal('included deal id', (items[0]?.deal as IDataObject | undefined)?.id, ids.dealWithNotes),
			],
		},
		{
			key: 'loanCrmDeals/dealExternalReference.get',
			name: 'Deals: dealExternalReference.get',
			node: 'loanCrmDeals',
			parameters: { resource: 'dealExternalReference', operation: 'get', dealExternalReferenceId: ids.dealExternalReference, options: { include: 'deal' } },
			requests: [
				{
					method: 'GET',
					path: '/jsonapi/deal-external-references',
					check: queryIs({ filter: `equals(id,'${ids.dealExternalReference}')`, include: 'deal', 'page[size]': '1' }),
				},
			],
			check: (items) => [
				...count(items, 1),
				...fields('reference', items[0], { id: ids.dealExternalReference, externalReference: 'ABC1234' }),
				...fields('its deal', items[0]?.deal as IDataObject | undefined, { id: ids.dealWithNotes, type: 'deals' }),
			],
		},
		{
			// Beyond the seed: from the service's public API description (POST /jsonapi/deal-notes).
			...example('loanCrmDeals/dealNote.create'),
			name: 'Deals: dealNote.create',
			check: (items) => [...count(items, 1), ...fields('created note', items[0], { type: 'deal-notes', title: 'Called the client' })],
		},
		{
			...example('loanCrmDeals/dealExternalReference.create'),
			name: 'Deals: dealExternalReference.create',
			check: (items) => [
				...count(items, 1),
				...fields('created reference', items[0], { type: 'deal-external-references', externalReference: 'HUB-778' }),
				...(typeof items[0]?.id === 'string' && items[0].id !== '' ? [] : ['created reference has no id']),
			],
		},
		{
			...example('loanCrmDeals/dealNote.getMany'),
			name: 'Deals: dealNote.getMany',
			check: (items) => [...count(items, 3), ...every('deal-notes with a title', items, (item) => item.type === 'deal-notes' && typeof item.title === 'string')],
		},
		{
			key: 'loanCrmDeals/dealNote.getMany',
			name: 'Deals: dealNote.getMany, deal picked From List',
			node: 'loanCrmDeals',
			parameters: { resource: 'dealNote', operation: 'getMany', dealId: locator(ids.dealWithNotes) },
			requests: [{ method: 'GET', path: `/jsonapi/deals/${ids.dealWithNotes}/dealNotes` }],
			check: (items) => [...count(items, 3), ...every('deal-notes', items, (item) => item.type === 'deal-notes')],
		},
		{
			...example('loanCrmDeals/dealNote.update'),
			name: 'Deals: dealNote.update',
			check: (items) => [...count(items, 1), ...fields('note', items[0], { id: ids.dealNote, title: 'Valuation booked', detail: 'Valuer attends Tuesday 10am.' })],
		},
		{
			...example('loanCrmDeals/dealNote.delete'),
			name: 'Deals: dealNote.delete',
			check: (items) => equal('items', items, [{ id: ids.dealNote, deleted: true }]),
		},
		{
			...example('loanCrmDeals/customStatus.get'),
			name: 'Deals: customStatus.get',
			check: (items) => [...count(items, 1), ...fields('custom status', items[0], { id: customStatusOfDeal, type: 'custom-statuses' })],
		},
		{
			...example('loanCrmDeals/income.getMany'),
			name: 'Deals: income.getMany',
			check: (items) => {
				const values = items.map((item) => item.value as number);
				return [...count(items, 5), ...equal('values sorted descending', values, [...values].sort((a, b) => b - a))];
			},
		},
		{
			key: 'loanCrmDeals/income.get',
			name: 'Deals: income.get',
			node: 'loanCrmDeals',
			parameters: { resource: 'income', operation: 'get', incomeId: ids.income, simplify: false },
			requests: [{ method: 'GET', path: '/jsonapi/incomes', check: queryIs({ filter: `equals(id,'${ids.income}')`, 'page[size]': '1' }) }],
			check: (items) => [...count(items, 1), ...fields('income', items[0], { id: ids.income, type: 'incomes' }), ...(items[0]?.attributes ? [] : ['Simplify off: no attributes'])],
		},
	];

	const contacts: OperationCase[] = [
		{
			...example('loanCrmContacts/contact.getMany'),
			name: 'Contacts: contact.getMany',
			check: (items) => [
				...(items.some((item) => item.id === ids.contactWithApostrophe) ? [] : [`contact ${ids.contactWithApostrophe} (O'Brien) not in the output`]),
				...every("lastName O'Brien", items, (item) => item.lastName === "O'Brien"),
			],
		},
		{
			key: 'loanCrmContacts/contact.get',
			name: 'Contacts: contact.get',
			node: 'loanCrmContacts',
			parameters: { resource: 'contact', operation: 'get', contactId: locator(` ${ids.contact} `, 'id'), options: { include: 'contactGroup' } },
			requests: [
				{ method: 'GET', path: '/jsonapi/contacts', check: queryIs({ filter: `equals(id,'${ids.contact}')`, include: 'contactGroup', 'page[size]': '1' }) },
			],
			check: (items) => [
				...count(items, 1),
				...fields('contact', items[0], { id: ids.contact, type: 'contacts' }),
				...((items[0]?.contactGroup as IDataObject | undefined)?.type === 'contact-groups' ? [] : ['contactGroup not included']),
			],
		},
		{
			...example('loanCrmContacts/contact.create'),
			name: 'Contacts: contact.create',
			check: (items) => [...count(items, 1), ...fields('contact', items[0], { type: 'contacts', firstName: 'Aroha', lastName: 'Ngata', dateOfBirth: '1990-04-05' })],
		},
		{
			// Chained after contact.create, a variant of the table's entry: the reference is built from
			// the created contact's id through an expression.
			...example('loanCrmContacts/contactExternalReference.update', { externalReference: "={{ 'WEB-' + $json.id + '-' + $json.lastName }}" }),
			name: 'Contacts: contactExternalReference.update',
			after: 'Contacts: contact.create',
			requests: [
				{
					method: 'PATCH',
					path: `/jsonapi/contact-external-references/${ids.contactExternalReference}`,
					check: (request) => {
						const data = (request.json as { data?: IDataObject } | undefined)?.data;
						const reference = (data?.attributes as IDataObject | undefined)?.externalReference;
						return [
							...equal('request body keys', Object.keys(data ?? {}).sort(), ['attributes', 'id', 'type']),
							...(typeof reference === 'string' && /^WEB-\d+-Ngata$/.test(reference) ? [] : [`externalReference should be WEB-<new contact id>-Ngata, got ${JSON.stringify(reference)}`]),
						];
					},
				},
			],
			check: (items) => [
				...count(items, 1),
				...fields('reference', items[0], { id: ids.contactExternalReference, type: 'contact-external-references' }),
				...(/^WEB-\d+-Ngata$/.test(String(items[0]?.externalReference)) ? [] : [`externalReference: got ${JSON.stringify(items[0]?.externalReference)}`]),
			],
		},
		{
			...example('loanCrmContacts/contactExternalReference.getContact'),
			name: 'Contacts: contactExternalReference.getContact',
			check: (items) => [...count(items, 1), ...fields('contact', items[0], { id: ids.contact, type: 'contacts' })],
		},
		{
			...example('loanCrmContacts/contactCategory.update'),
			name: 'Contacts: contactCategory.update',
			check: (items) => [...count(items, 1), ...fields('category', items[0], { id: ids.contactCategory, type: 'contact-categories', name: 'Refinance prospects' })],
		},
	];

	const leadsAndTasks: OperationCase[] = [
		{
			// Beyond the seed: from the service's public API description (POST /jsonapi/leads).
			...example('loanCrmLeadsAndTasks/lead.create'),
			name: 'Leads & Tasks: lead.create',
			check: (items) => [
				...count(items, 1),
				...fields('created lead', items[0], { type: 'leads', dealStatus: 'NewLeads' }),
				...(typeof items[0]?.id === 'string' && items[0].id !== '' && items[0].dealId === items[0].id ? [] : ['created lead has no id, or dealId differs']),
			],
		},
		{
			...example('loanCrmLeadsAndTasks/lead.get'),
			name: 'Leads & Tasks: lead.get',
			check: (items) => [
				...count(items, 1),
				...fields('lead', items[0], { id: ids.lead, type: 'leads' }),
				...(typeof items[0]?.dealStatus === 'string' ? [] : ['lead has no dealStatus']),
			],
		},
		{
			key: 'loanCrmLeadsAndTasks/lead.get',
			name: 'Leads & Tasks: lead.get, by ID from an expression',
			node: 'loanCrmLeadsAndTasks',
			parameters: { resource: 'lead', operation: 'get', leadId: locator(`={{ '${ids.lead}' }}`, 'id') },
			requests: [{ method: 'GET', path: `/jsonapi/leads/${ids.lead}` }],
			check: (items) => [...count(items, 1), ...fields('lead', items[0], { id: ids.lead, type: 'leads' })],
		},
		{
			...example('loanCrmLeadsAndTasks/task.update'),
			name: 'Leads & Tasks: task.update',
			check: (items) => [...count(items, 1), ...fields('task', items[0], { id: ids.task, progress: 'Completed', priority: 'High' })],
		},
		{
			key: 'loanCrmLeadsAndTasks/task.update',
			name: 'Leads & Tasks: task.update, residential deal picked From List',
			node: 'loanCrmLeadsAndTasks',
			parameters: { resource: 'task', operation: 'update', taskId: ids.task, updateFields: { residentialDealId: locator(ids.dealWithoutNotes) } },
			requests: [
				{
					method: 'PATCH',
					path: `/jsonapi/tasks/${ids.task}`,
					check: bodyIs({ data: { type: 'tasks', id: ids.task, relationships: { residentialDeal: { data: { type: 'deals', id: ids.dealWithoutNotes } } } } }),
				},
			],
			check: (items) => [...count(items, 1), ...fields('task', items[0], { id: ids.task, type: 'tasks' })],
		},
	];

	const organisationsAndAssets: OperationCase[] = [
		{
			...example('loanCrmOrganisationsAndAssets/organisation.getAddresses'),
			name: 'Organisations & Assets: organisation.getAddresses',
			check: (items) => [
				...count(items, 2),
				...every('organisation-addresses with formattedAddress', items, (item) => item.type === 'organisation-addresses' && typeof item.formattedAddress === 'string'),
			],
		},
		{
			...example('loanCrmOrganisationsAndAssets/asset.getAddresses'),
			name: 'Organisations & Assets: asset.getAddresses',
			check: (items) => [
				...count(items, 1),
				...every('financial-address with formattedAddress', items, (item) => item.type === 'financial-address' && typeof item.formattedAddress === 'string'),
			],
		},
	];

	return [...deals, ...contacts, ...leadsAndTasks, ...organisationsAndAssets];
}

/** The 20 operations of the node contract; the run fails if a case for one is missing. */
export const CONTRACT_OPERATIONS = [
	'loanCrmDeals/deal.getMany',
	'loanCrmDeals/dealStructure.getDeal',
	'loanCrmDeals/dealStructure.update',
	'loanCrmDeals/dealSecurity.getMany',
	'loanCrmDeals/dealExternalReference.getMany',
	'loanCrmDeals/dealExternalReference.create',
	'loanCrmDeals/dealNote.getMany',
	'loanCrmDeals/dealNote.update',
	'loanCrmDeals/dealNote.delete',
	'loanCrmDeals/customStatus.get',
	'loanCrmDeals/income.getMany',
	'loanCrmContacts/contact.getMany',
	'loanCrmContacts/contact.create',
	'loanCrmContacts/contactExternalReference.getContact',
	'loanCrmContacts/contactExternalReference.update',
	'loanCrmContacts/contactCategory.update',
	'loanCrmLeadsAndTasks/lead.get',
	'loanCrmLeadsAndTasks/task.update',
	'loanCrmOrganisationsAndAssets/organisation.getAddresses',
	'loanCrmOrganisationsAndAssets/asset.getAddresses',
];

/** What the sandbox must be told before the error cases run (each fault answers one request). */
export interface FaultSetup {
	path: RegExp;
	fault: { status: number; headers?: Record<string, string>; body?: unknown };
}

/**
 * Failures as n8n users meet them, each node with Continue On Fail: the error item must carry the
 * package's own message (status, resource, the service's detail), writes are never repeated, and
 * a GET that meets 503 or 429 is retried and succeeds.
 */
export function errorCases(ids: FixtureIds): { cases: OperationCase[]; faults: FaultSetup[] } {
	const errorItem = (pattern: RegExp) => (items: IDataObject[]) => [
		...count(items, 1),
		...(typeof items[0]?.error === 'string' && pattern.test(items[0].error) ? [] : [`error item should match ${pattern}, got ${JSON.stringify(items[0]).slice(0, 400)}`]),
	];
	const cases: OperationCase[] = [
		{
			key: 'errors/404 on a GET',
			expectsError: true,
			name: 'Errors: lead.get of a missing lead',
			node: 'loanCrmLeadsAndTasks',
			parameters: { resource: 'lead', operation: 'get', leadId: '999999' },
			requests: [{ method: 'GET', path: '/jsonapi/leads/999999', status: 404 }],
			check: errorItem(/^Loan CRM has no lead with ID 999999$/),
		},
		{
			key: 'errors/Get by ID of a missing record',
			expectsError: true,
			name: 'Errors: deal.get of a missing deal',
			node: 'loanCrmDeals',
			parameters: { resource: 'deal', operation: 'get', dealId: locator('999999', 'id') },
			requests: [{ method: 'GET', path: '/jsonapi/deals', status: 200, check: queryIs({ filter: "equals(id,'999999')", 'page[size]': '1' }) }],
			check: (items) => [
				...errorItem(/^Loan CRM has no deal with ID 999999$/)(items),
				...fields('error item', items[0], { httpCode: '404' }),
			],
		},
		{
			key: 'errors/409 on a POST (not repeated)',
			expectsError: true,
			name: 'Errors: dealExternalReference.create duplicate',
			node: 'loanCrmDeals',
			parameters: { resource: 'dealExternalReference', operation: 'create', externalReference: 'DUPLICATE', integrationId: ids.integration, dealId: ids.dealWithNotes },
			requests: [{ method: 'POST', path: '/jsonapi/deal-external-references', status: 409 }],
			check: errorItem(/^Loan CRM reported a conflict \(409\)/),
		},
		{
			key: 'errors/422 on a PATCH (not repeated)',
			expectsError: true,
			name: 'Errors: dealStructure.update of a settled deal',
			node: 'loanCrmDeals',
			parameters: { resource: 'dealStructure', operation: 'update', dealStructureId: ids.lockedDealStructure, updateFields: { interestRate: 0.05 } },
			requests: [{ method: 'PATCH', path: `/jsonapi/deal-structures/${ids.lockedDealStructure}`, status: 422 }],
			check: errorItem(/^Loan CRM rejected the data \(422\)/),
		},
		{
			key: 'errors/503 on a GET is retried',
			name: 'Errors: lead.get after a 503',
			node: 'loanCrmLeadsAndTasks',
			parameters: { resource: 'lead', operation: 'get', leadId: ids.lead },
			requests: [
				{ method: 'GET', path: `/jsonapi/leads/${ids.lead}`, status: 503 },
				{ method: 'GET', path: `/jsonapi/leads/${ids.lead}`, status: 200 },
			],
			check: (items) => [...count(items, 1), ...fields('lead', items[0], { id: ids.lead, type: 'leads' })],
		},
		{
			key: 'errors/429 waits for retry-after',
			name: 'Errors: income.getMany after a 429',
			node: 'loanCrmDeals',
			parameters: { resource: 'income', operation: 'getMany', returnAll: false, limit: 2 },
			requests: [
				{ method: 'GET', path: '/jsonapi/incomes', status: 429 },
				{ method: 'GET', path: '/jsonapi/incomes', status: 200 },
			],
			check: (items) => count(items, 2),
		},
	];
	const faults: FaultSetup[] = [
		{ path: new RegExp(`^/jsonapi/leads/${ids.lead}$`), fault: { status: 503, body: { errors: [{ status: '503', title: 'Service Unavailable' }] } } },
		{ path: /^\/jsonapi\/incomes$/, fault: { status: 429, headers: { 'retry-after': '1' }, body: { errors: [{ status: '429', title: 'Too Many Requests' }] } } },
	];
	return { cases, faults };
}
