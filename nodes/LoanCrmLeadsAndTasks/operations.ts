import type { CatalogueDefaults, OperationSpec } from '../shared/service/catalogue';

export const RESOURCE_DESCRIPTIONS: Record<string, string> = {
	lead: 'A new enquiry; its ID is the ID of the deal it became',
	task: "A to-do for an adviser, with due date, priority and progress",
};

/** What a new node shows first; saved workflows that never changed them depend on these. */
export const DEFAULTS: CatalogueDefaults = {
	resource: 'lead',
	operations: {
		lead: 'get',
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
		shape: 'create',
		path: '/leads',
		type: 'leads',
		featured: ['firstName', 'lastName', 'email', 'mobile', 'contactMatchExisting', 'externalReference', 'externalIntegration'],
		// A form sent twice: the deal external reference the lead created, found as the Leads Postman flow finds it.
		matchExistingBy: ['externalReference', 'externalIntegration'],
		matchLookup: {
			path: '/deal-external-references',
			type: 'deal-external-references',
			filterBy: { externalReference: 'externalReference', externalIntegration: 'integration.name' },
			record: 'deal',
			recordType: 'deals',
		},
		idAlias: 'dealId',
		agentFields: ['firstName', 'lastName', 'email', 'mobile', 'title', 'preferredName', 'dateOfBirth', 'hasMarketingConsent', 'noteTitle', 'noteDetails'],
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
