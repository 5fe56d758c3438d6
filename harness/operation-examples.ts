/**
 * One parameter set per operation of the four action nodes and the request the service must
 * receive for it, written once and read by the engine tests (test/engine/operations.test.ts) and
 * the real-n8n e2e (scripts/e2e/cases.ts). Each reader keeps its own checks of the output items; a
 * reader that needs a variant spreads the entry and says why.
 *
 * To add an operation: add an entry under its key `<node>/<resource>.<operation>` with its
 * parameters and its request; the engine test checks every entry's request, and the e2e fails until
 * it has a case for every key in CONTRACT_OPERATIONS. Ids come from the sandbox's fixtures
 * (sandbox/types.ts FixtureIds).
 */
import type { INodeParameters } from 'n8n-workflow';

import type { FixtureIds, LoggedRequest } from '../sandbox';

export type ActionNode = 'loanCrmDeals' | 'loanCrmContacts' | 'loanCrmLeadsAndTasks' | 'loanCrmOrganisationsAndAssets';

/** The one request an example makes, as the sandbox logs it. */
export interface ExampleRequest {
	method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
	/** Path without the query, e.g. `/jsonapi/deals`. */
	path: string;
	/** Every decoded query parameter, exactly (`{}`: none). */
	query: Record<string, string>;
	/** The exact JSON:API document a write sends. */
	body?: unknown;
	/** What the sandbox answered. */
	status: number;
	/** The UserId header, when not the credential's (a lead's Allocate To). */
	userId?: string;
}

export interface OperationExample {
	node: ActionNode;
	parameters: INodeParameters;
	request: ExampleRequest;
}

/** JSON with object keys sorted, so key order never decides equality. */
export function canonical(value: unknown): string {
	return JSON.stringify(value, (_key, inner: unknown) =>
		inner !== null && typeof inner === 'object' && !Array.isArray(inner)
			? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
			: inner,
	);
}

function differs(label: string, actual: unknown, wanted: unknown): string[] {
	return canonical(actual) === canonical(wanted) ? [] : [`${label}: expected ${JSON.stringify(wanted)}, got ${JSON.stringify(actual)}`];
}

/** How a logged request's query and body differ from an example's, one message per difference. */
export function contentProblems(request: Pick<LoggedRequest, 'query' | 'json'>, expected: ExampleRequest): string[] {
	return [...differs('query', request.query, expected.query), ...differs('request body', request.json, expected.body)];
}

/** How a logged request differs from an example's, one message per difference (none: it matches). */
export function requestProblems(request: Pick<LoggedRequest, 'method' | 'path' | 'query' | 'json' | 'status' | 'headers'>, expected: ExampleRequest): string[] {
	return [
		...differs('method', request.method, expected.method),
		...differs('path', request.path, expected.path),
		...contentProblems(request, expected),
		...differs('status', request.status, expected.status),
		...(expected.userId === undefined ? [] : differs('UserId header', request.headers.userid, expected.userId)),
	];
}

const get = (path: string, query: Record<string, string> = {}): ExampleRequest => ({ method: 'GET', path, query, status: 200 });

export function operationExamples(ids: FixtureIds) {
	return {
		// --- Loan CRM Deals ---------------------------------------------------------------------
		'loanCrmDeals/deal.getMany': {
			node: 'loanCrmDeals',
			parameters: { resource: 'deal', operation: 'getMany', returnAll: false, limit: 3, options: { filter: "equals(dealStatus,'Settled')", sort: '-id' } },
			request: get('/jsonapi/deals', { filter: "equals(dealStatus,'Settled')", sort: '-id', 'page[size]': '3' }),
		},
		'loanCrmDeals/dealStructure.getDeal': {
			node: 'loanCrmDeals',
			// Spaces around the id: an id typed with spaces is trimmed.
			parameters: { resource: 'dealStructure', operation: 'getDeal', dealStructureId: ` ${ids.dealStructure} ` },
			request: get(`/jsonapi/deal-structures/${ids.dealStructure}/deal`),
		},
		'loanCrmDeals/dealStructure.update': {
			node: 'loanCrmDeals',
			parameters: {
				resource: 'dealStructure',
				operation: 'update',
				dealStructureId: ids.dealStructure,
				updateFields: {
					interestRate: 0.0549,
					rateTermYears: 3,
					loanStructureType: 'InterestOnly',
					capitaliseLmi: true,
					fixedRateExpiryDate: '2029-06-30T00:00:00',
					repaymentFrequency: 'Fortnightly',
				},
			},
			request: {
				method: 'PATCH',
				path: `/jsonapi/deal-structures/${ids.dealStructure}`,
				query: {},
				body: {
					data: {
						type: 'deal-structures',
						id: ids.dealStructure,
						attributes: {
							interestRate: 0.0549,
							rateTermYears: 3,
							loanStructureType: 'InterestOnly',
							capitaliseLmi: true,
							fixedRateExpiryDate: '2029-06-30',
							repaymentFrequency: 'Fortnightly',
						},
					},
				},
				status: 200,
			},
		},
		'loanCrmDeals/dealSecurity.getMany': {
			node: 'loanCrmDeals',
			parameters: { resource: 'dealSecurity', operation: 'getMany', returnAll: false, limit: 4 },
			request: get('/jsonapi/deal-securities', { 'page[size]': '4' }),
		},
		'loanCrmDeals/dealExternalReference.getMany': {
			node: 'loanCrmDeals',
			parameters: {
				resource: 'dealExternalReference',
				operation: 'getMany',
				returnAll: true,
				options: {
					conditions: {
						condition: [
							{ field: 'integration.name', operator: 'equals', value: 'MyIntegrationSource' },
							{ field: 'externalReference', operator: 'equals', value: 'ABC1234' },
						],
					},
					include: 'deal',
				},
			},
			request: get('/jsonapi/deal-external-references', { filter: "and(equals(integration.name,'MyIntegrationSource'),equals(externalReference,'ABC1234'))", include: 'deal', 'page[size]': '100' }),
		},
		'loanCrmDeals/dealExternalReference.create': {
			node: 'loanCrmDeals',
			parameters: { resource: 'dealExternalReference', operation: 'create', externalReference: 'HUB-778', integrationId: ids.otherIntegration, dealId: ids.dealWithNotes },
			request: {
				method: 'POST',
				path: '/jsonapi/deal-external-references',
				query: {},
				body: {
					data: {
						type: 'deal-external-references',
						attributes: { externalReference: 'HUB-778' },
						relationships: {
							integration: { data: { type: 'integrations', id: ids.otherIntegration } },
							deal: { data: { type: 'deals', id: ids.dealWithNotes } },
						},
					},
				},
				status: 201,
			},
		},
		'loanCrmDeals/dealNote.getMany': {
			node: 'loanCrmDeals',
			parameters: { resource: 'dealNote', operation: 'getMany', dealId: ids.dealWithNotes },
			request: get(`/jsonapi/deals/${ids.dealWithNotes}/dealNotes`, { 'page[size]': '100' }),
		},
		'loanCrmDeals/dealNote.create': {
			node: 'loanCrmDeals',
			parameters: {
				resource: 'dealNote',
				operation: 'create',
				dealId: { __rl: true, mode: 'id', value: ids.dealWithoutNotes },
				title: 'Called the client',
				detail: 'Wants a call back about refinancing on Friday.',
			},
			request: {
				method: 'POST',
				path: '/jsonapi/deal-notes',
				query: {},
				body: {
					data: {
						type: 'deal-notes',
						attributes: { title: 'Called the client', detail: 'Wants a call back about refinancing on Friday.' },
						relationships: { deal: { data: { type: 'deals', id: ids.dealWithoutNotes } } },
					},
				},
				status: 201,
			},
		},
		'loanCrmDeals/dealNote.update': {
			node: 'loanCrmDeals',
			parameters: { resource: 'dealNote', operation: 'update', dealNoteId: ids.dealNote, updateFields: { title: 'Valuation booked', detail: 'Valuer attends Tuesday 10am.' } },
			request: {
				method: 'PATCH',
				path: `/jsonapi/deal-notes/${ids.dealNote}`,
				query: {},
				body: { data: { type: 'deal-notes', id: ids.dealNote, attributes: { title: 'Valuation booked', detail: 'Valuer attends Tuesday 10am.' } } },
				status: 200,
			},
		},
		'loanCrmDeals/dealNote.delete': {
			node: 'loanCrmDeals',
			parameters: { resource: 'dealNote', operation: 'delete', dealNoteId: ids.dealNote },
			request: { method: 'DELETE', path: `/jsonapi/deal-notes/${ids.dealNote}`, query: {}, status: 204 },
		},
		'loanCrmDeals/customStatus.get': {
			node: 'loanCrmDeals',
			parameters: { resource: 'customStatus', operation: 'get', dealId: ids.dealWithCustomStatus },
			request: get(`/jsonapi/deals/${ids.dealWithCustomStatus}/customStatus`),
		},
		'loanCrmDeals/income.getMany': {
			node: 'loanCrmDeals',
			parameters: { resource: 'income', operation: 'getMany', returnAll: false, limit: 5, options: { sort: '-value' } },
			request: get('/jsonapi/incomes', { sort: '-value', 'page[size]': '5' }),
		},

		// --- Loan CRM Contacts ------------------------------------------------------------------
		'loanCrmContacts/contact.getMany': {
			node: 'loanCrmContacts',
			parameters: {
				resource: 'contact',
				operation: 'getMany',
				returnAll: true,
				options: { conditions: { condition: [{ field: 'lastName', operator: 'equals', value: "O'Brien" }] } },
			},
			request: get('/jsonapi/contacts', { filter: "equals(lastName,'O''Brien')", 'page[size]': '100' }),
		},
		'loanCrmContacts/contact.create': {
			node: 'loanCrmContacts',
			parameters: {
				resource: 'contact',
				operation: 'create',
				additionalFields: {
					firstName: 'Aroha',
					lastName: 'Ngata',
					email: 'aroha@example.com',
					mobile: '+61412345678',
					hasMarketingConsent: false,
					dateOfBirth: '1990-04-05T00:00:00',
					maritalStatus: 'DeFacto',
					contactGroupId: ids.contactGroup,
				},
			},
			request: {
				method: 'POST',
				path: '/jsonapi/contacts',
				query: {},
				body: {
					data: {
						type: 'contacts',
						attributes: {
							firstName: 'Aroha',
							lastName: 'Ngata',
							email: 'aroha@example.com',
							mobile: '+61412345678',
							hasMarketingConsent: false,
							dateOfBirth: '1990-04-05',
							maritalStatus: 'DeFacto',
						},
						relationships: { contactGroup: { data: { type: 'contact-groups', id: ids.contactGroup } } },
					},
				},
				status: 201,
			},
		},
		'loanCrmContacts/contactExternalReference.getContact': {
			node: 'loanCrmContacts',
			parameters: { resource: 'contactExternalReference', operation: 'getContact', contactExternalReferenceId: ids.contactExternalReference },
			request: get(`/jsonapi/contact-external-references/${ids.contactExternalReference}/contact`),
		},
		'loanCrmContacts/contactExternalReference.update': {
			node: 'loanCrmContacts',
			parameters: { resource: 'contactExternalReference', operation: 'update', contactExternalReferenceId: ids.contactExternalReference, externalReference: 'CRM-0042' },
			request: {
				method: 'PATCH',
				path: `/jsonapi/contact-external-references/${ids.contactExternalReference}`,
				query: {},
				body: { data: { type: 'contact-external-references', id: ids.contactExternalReference, attributes: { externalReference: 'CRM-0042' } } },
				status: 200,
			},
		},
		'loanCrmContacts/contactCategory.update': {
			node: 'loanCrmContacts',
			parameters: { resource: 'contactCategory', operation: 'update', contactCategoryId: ids.contactCategory, name: 'Refinance prospects' },
			request: {
				method: 'PATCH',
				path: `/jsonapi/contact-categories/${ids.contactCategory}`,
				query: {},
				body: { data: { type: 'contact-categories', id: ids.contactCategory, attributes: { name: 'Refinance prospects' } } },
				status: 200,
			},
		},

		// --- Loan CRM Leads & Tasks -------------------------------------------------------------
		'loanCrmLeadsAndTasks/lead.get': {
			node: 'loanCrmLeadsAndTasks',
			parameters: { resource: 'lead', operation: 'get', leadId: ids.lead },
			request: get(`/jsonapi/leads/${ids.lead}`),
		},
		'loanCrmLeadsAndTasks/lead.create': {
			node: 'loanCrmLeadsAndTasks',
			parameters: {
				resource: 'lead',
				operation: 'create',
				firstName: 'Fred',
				lastName: 'Flintstone',
				email: 'fred@bedrock.com',
				mobile: '+61412345678',
				contactMatchExisting: 'EmailMobile',
				externalReference: 'FORM-0001',
				externalIntegration: 'MyIntegrationSource',
				// Another adviser of the organisation than the credential's, and a referrer, both From
				// List: sent as chosen, no look-up (issue 42).
				allocateTo: { __rl: true, mode: 'list', value: ids.adviserContactIds[1] },
				additionalFields: {
					title: 'Mr',
					hasMarketingConsent: true,
					noteTitle: 'Website enquiry',
					noteDetails: 'Looking to refinance',
					utmSource: 'facebook',
					sourceReferrerId: { __rl: true, mode: 'list', value: ids.referrer },
				},
			},
			request: {
				method: 'POST',
				path: '/jsonapi/leads',
				query: {},
				userId: ids.adviserContactIds[1],
				body: {
					data: {
						type: 'leads',
						attributes: {
							firstName: 'Fred',
							lastName: 'Flintstone',
							email: 'fred@bedrock.com',
							mobile: '+61412345678',
							contactMatchExisting: 'EmailMobile',
							externalReference: 'FORM-0001',
							externalIntegration: 'MyIntegrationSource',
							title: 'Mr',
							hasMarketingConsent: true,
							noteTitle: 'Website enquiry',
							noteDetails: 'Looking to refinance',
							utmSource: 'facebook',
							sourceReferrerId: ids.referrer,
						},
					},
				},
				status: 201,
			},
		},
		'loanCrmLeadsAndTasks/task.update': {
			node: 'loanCrmLeadsAndTasks',
			parameters: {
				resource: 'task',
				operation: 'update',
				taskId: ids.task,
				updateFields: { progress: 'Completed', priority: 'High', dueDate: '2026-12-01T09:30:00Z', assigneeId: ids.adviser },
			},
			request: {
				method: 'PATCH',
				path: `/jsonapi/tasks/${ids.task}`,
				query: {},
				body: {
					data: {
						type: 'tasks',
						id: ids.task,
						attributes: { progress: 'Completed', priority: 'High', dueDate: '2026-12-01T09:30:00.000Z' },
						relationships: { assignee: { data: { type: 'advisers', id: ids.adviser } } },
					},
				},
				status: 200,
			},
		},

		// --- Loan CRM Organisations & Assets ----------------------------------------------------
		'loanCrmOrganisationsAndAssets/organisation.getAddresses': {
			node: 'loanCrmOrganisationsAndAssets',
			parameters: { resource: 'organisation', operation: 'getAddresses', organisationId: ids.organisation },
			request: get(`/jsonapi/organisations/${ids.organisation}/addresses`, { 'page[size]': '100' }),
		},
		'loanCrmOrganisationsAndAssets/asset.getAddresses': {
			node: 'loanCrmOrganisationsAndAssets',
			parameters: { resource: 'asset', operation: 'getAddresses', assetId: ids.asset },
			request: get(`/jsonapi/assets/${ids.asset}/addresses`, { 'page[size]': '100' }),
		},
	} satisfies Record<string, OperationExample>;
}

export type OperationKey = keyof ReturnType<typeof operationExamples>;

/** The table's keys, known before any sandbox (and its ids) exists: for a test per entry. */
export function operationKeys(): OperationKey[] {
	const anyIds = new Proxy({}, { get: () => '0' }) as FixtureIds;
	return Object.keys(operationExamples(anyIds)) as OperationKey[];
}

/**
 * The columns of a deal's summary (node version 1.1, Simplify on), in order, written out here from
 * the README's *Output* section rather than read from the node's table, so that the engine tests,
 * the unit tests and the e2e check the node against one expectation.
 */
export const DEAL_SUMMARY_COLUMNS = [
	'id',
	'name',
	'dealStatus',
	'customStatusName',
	'dealType',
	'lenderName',
	'totalLoanAmount',
	'proposedLoanAmount',
	'securityAmount',
	'loanPurpose',
	'lodgedDate',
	'approvedDate',
	'financeClauseDate',
	'preApprovedExpiryDate',
	'estimatedSettledDate',
	'settledDate',
	'created',
	'updated',
] as const;
