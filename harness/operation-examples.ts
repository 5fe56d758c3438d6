/**
 * One parameter set per operation of the four action nodes, written once and read by the engine
 * tests (test/engine/operations.test.ts) and the real-n8n e2e (scripts/e2e/cases.ts). Each reader
 * keeps its own checks; a reader that needs a variant spreads the entry and says why.
 *
 * To add an operation: add an entry under its key `<node>/<resource>.<operation>`; the e2e fails
 * until it has a case for every key in CONTRACT_OPERATIONS, and the engine test picks it up by key.
 * Ids come from the sandbox's fixtures (sandbox/types.ts FixtureIds).
 */
import type { INodeParameters } from 'n8n-workflow';

import type { FixtureIds } from '../sandbox';

export type ActionNode = 'loanCrmDeals' | 'loanCrmContacts' | 'loanCrmLeadsAndTasks' | 'loanCrmOrganisationsAndAssets';

export interface OperationExample {
	node: ActionNode;
	parameters: INodeParameters;
}

export function operationExamples(ids: FixtureIds) {
	return {
		// --- Loan CRM Deals ---------------------------------------------------------------------
		'loanCrmDeals/deal.getMany': {
			node: 'loanCrmDeals',
			parameters: { resource: 'deal', operation: 'getMany', returnAll: false, limit: 3, options: { filter: "equals(dealStatus,'Settled')", sort: '-id' } },
		},
		'loanCrmDeals/dealStructure.getDeal': {
			node: 'loanCrmDeals',
			// Spaces around the id: an id typed with spaces is trimmed.
			parameters: { resource: 'dealStructure', operation: 'getDeal', dealStructureId: ` ${ids.dealStructure} ` },
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
		},
		'loanCrmDeals/dealSecurity.getMany': {
			node: 'loanCrmDeals',
			parameters: { resource: 'dealSecurity', operation: 'getMany', returnAll: false, limit: 4 },
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
		},
		'loanCrmDeals/dealExternalReference.create': {
			node: 'loanCrmDeals',
			parameters: { resource: 'dealExternalReference', operation: 'create', externalReference: 'HUB-778', integrationId: ids.otherIntegration, dealId: ids.dealWithNotes },
		},
		'loanCrmDeals/dealNote.getMany': {
			node: 'loanCrmDeals',
			parameters: { resource: 'dealNote', operation: 'getMany', dealId: ids.dealWithNotes },
		},
		'loanCrmDeals/dealNote.update': {
			node: 'loanCrmDeals',
			parameters: { resource: 'dealNote', operation: 'update', dealNoteId: ids.dealNote, updateFields: { title: 'Valuation booked', detail: 'Valuer attends Tuesday 10am.' } },
		},
		'loanCrmDeals/dealNote.delete': {
			node: 'loanCrmDeals',
			parameters: { resource: 'dealNote', operation: 'delete', dealNoteId: ids.dealNote },
		},
		'loanCrmDeals/customStatus.get': {
			node: 'loanCrmDeals',
			parameters: { resource: 'customStatus', operation: 'get', dealId: ids.dealWithCustomStatus },
		},
		'loanCrmDeals/income.getMany': {
			node: 'loanCrmDeals',
			parameters: { resource: 'income', operation: 'getMany', returnAll: false, limit: 5, options: { sort: '-value' } },
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
		},
		'loanCrmContacts/contactExternalReference.getContact': {
			node: 'loanCrmContacts',
			parameters: { resource: 'contactExternalReference', operation: 'getContact', contactExternalReferenceId: ids.contactExternalReference },
		},
		'loanCrmContacts/contactExternalReference.update': {
			node: 'loanCrmContacts',
			parameters: { resource: 'contactExternalReference', operation: 'update', contactExternalReferenceId: ids.contactExternalReference, externalReference: 'CRM-0042' },
		},
		'loanCrmContacts/contactCategory.update': {
			node: 'loanCrmContacts',
			parameters: { resource: 'contactCategory', operation: 'update', contactCategoryId: ids.contactCategory, name: 'Refinance prospects' },
		},

		// --- Loan CRM Leads & Tasks -------------------------------------------------------------
		'loanCrmLeadsAndTasks/lead.get': {
			node: 'loanCrmLeadsAndTasks',
			parameters: { resource: 'lead', operation: 'get', leadId: ids.lead },
		},
		'loanCrmLeadsAndTasks/task.update': {
			node: 'loanCrmLeadsAndTasks',
			parameters: {
				resource: 'task',
				operation: 'update',
				taskId: ids.task,
				updateFields: { progress: 'Completed', priority: 'High', dueDate: '2026-12-01T09:30:00Z', assigneeId: ids.adviser },
			},
		},

		// --- Loan CRM Organisations & Assets ----------------------------------------------------
		'loanCrmOrganisationsAndAssets/organisation.getAddresses': {
			node: 'loanCrmOrganisationsAndAssets',
			parameters: { resource: 'organisation', operation: 'getAddresses', organisationId: ids.organisation },
		},
		'loanCrmOrganisationsAndAssets/asset.getAddresses': {
			node: 'loanCrmOrganisationsAndAssets',
			parameters: { resource: 'asset', operation: 'getAddresses', assetId: ids.asset },
		},
	} satisfies Record<string, OperationExample>;
}

export type OperationKey = keyof ReturnType<typeof operationExamples>;

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
