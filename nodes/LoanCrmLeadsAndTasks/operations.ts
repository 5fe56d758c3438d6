import type { CatalogueDefaults, MatchLookup, OperationSpec } from '../shared/service/catalogue';

/**
 * How a lead or a fact find sent twice is found: the deal external reference it created, and that
 * reference's deal (as the Leads Postman flow finds it).
 */
const DEAL_BY_EXTERNAL_REFERENCE: MatchLookup = {
	path: '/deal-external-references',
	type: 'deal-external-references',
	filterBy: { externalReference: 'externalReference', externalIntegration: 'integration.name' },
	record: 'deal',
	recordType: 'deals',
};

export const RESOURCE_DESCRIPTIONS: Record<string, string> = {
	lead: 'A new enquiry; its ID is the ID of the deal it became',
	structuredLead: "A whole household's enquiry: people, addresses, jobs, incomes, assets, liabilities and expenses, as one new lead",
	task: "A to-do for an adviser, with due date, priority and progress",
};

/** What a new node shows first; saved workflows that never changed them depend on these. */
export const DEFAULTS: CatalogueDefaults = {
	resource: 'lead',
	operations: {
		lead: 'get',
		structuredLead: 'create',
		task: 'update',
	},
};

export const OPERATIONS: readonly OperationSpec[] = [
	{
		resource: 'lead',
		operation: 'get',
		name: 'Get',
		action: 'Get a lead',
		description: 'Get the status of a lead by its ID (the same as its deal ID)',
		shape: 'get',
		path: '/leads/{leadId}',
		type: 'leads',
		ids: { leadId: 'The lead to get; its ID is the ID of the deal it became' },
	},
	{
		// From the service's public API description (POST /jsonapi/leads, scope api.leads), not the seed.
		resource: 'lead',
		operation: 'create',
		name: 'Create',
		action: 'Create a lead',
		description:
			"Send a new enquiry (web form, lead ad, referral) to Loan CRM, which takes the matching contact or creates one and opens a deal in New Leads allocated to the adviser of the User ID; the lead's ID is that deal's ID (from the service's public API description, not the seed)",
		agentDescription:
			"Send a new enquiry (a person who asked about a loan) to Loan CRM, which takes the matching contact or creates one and opens a deal in New Leads; the lead's ID is that deal's ID. Name the adviser it goes to in Allocate_To (their e-mail address or name), or leave it empty for the usual adviser",
		shape: 'create',
		path: '/leads',
		type: 'leads',
		featured: ['firstName', 'lastName', 'email', 'mobile', 'contactMatchExisting', 'externalReference', 'externalIntegration'],
		// A form sent twice: the deal external reference the lead created, found as the Leads Postman flow finds it.
		matchExistingBy: ['externalReference', 'externalIntegration'],
		matchLookup: DEAL_BY_EXTERNAL_REFERENCE,
		idAlias: 'dealId',
		agentFields: ['firstName', 'lastName', 'email', 'mobile', 'title', 'preferredName', 'dateOfBirth', 'hasMarketingConsent', 'noteTitle', 'noteDetails'],
		// Allocate To: the lead goes to this adviser (the item's UserId); empty, the node's adviser.
		allocates: true,
	},
	{
		// From the service's public API description (POST /jsonapi/structured-leads, swagger
		// `StructuredLeadAttributes`), not the seed: a fact find, its lists in service/factFind.ts.
		resource: 'structuredLead',
		resourceName: 'Fact Find',
		operation: 'create',
		name: 'Create',
		action: 'Create a fact find',
		description:
			"Send a whole household's fact find (people, addresses, jobs, incomes, assets, liabilities, expenses) to Loan CRM as one lead: it takes the matching contacts or creates them in one client, opens a deal in New Leads allocated to the adviser of the User ID and stores the financials with their owners; the lead's ID is that deal's ID (from the service's public API description, not the seed)",
		agentDescription:
			"Send a household's fact find to Loan CRM as one new lead: the people (a contact each, taken from Loan CRM when one has the same e-mail, else created, all in one client), where they live, their jobs and incomes, what they own and owe, their living expenses. Loan CRM opens a deal in New Leads for the adviser and stores the incomes, assets, liabilities and expenses with the people who own them; the lead's ID is that deal's ID. Put the household in Fact_Find_JSON; name the adviser in Allocate_To (their e-mail address or name), or leave it empty for the usual adviser",
		shape: 'create',
		path: '/structured-leads',
		type: 'structured-leads',
		factFind: true,
		// Added after version 1.1 was out, with node version 1.2 (service/versions.ts SINCE.factFinds).
		since: 'factFinds',
		featured: ['externalReference', 'externalIntegration'],
		// A form sent twice: the deal external reference the fact find created, found as Lead → Create finds a lead's.
		matchExistingBy: ['externalReference', 'externalIntegration'],
		matchLookup: DEAL_BY_EXTERNAL_REFERENCE,
		idAlias: 'dealId',
		agentFields: ['noteTitle', 'noteDetails'],
		allocates: true,
	},
	{
		resource: 'task',
		operation: 'update',
		name: 'Update',
		action: 'Update a task',
		description: 'Change the title, details, progress, priority, due date, assignee or linked deal of a task; only the fields given are changed',
		shape: 'update',
		path: '/tasks/{taskId}',
		type: 'tasks',
		ids: { taskId: 'ID of the task to update' },
	},
];
