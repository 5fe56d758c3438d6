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
