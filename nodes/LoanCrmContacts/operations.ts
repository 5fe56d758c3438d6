import type { CatalogueDefaults, OperationSpec } from '../shared/service/catalogue';

export const RESOURCE_DESCRIPTIONS: Record<string, string> = {
	contact: 'A person: client, applicant or family member',
	contactCategory: 'A category that contacts can be sorted into',
	contactExternalReference: "A contact's ID in another system (integration)",
};

/** What a new node shows first; saved workflows that never changed them depend on these. */
export const DEFAULTS: CatalogueDefaults = {
	resource: 'contact',
	operations: {
		contact: 'getMany',
		contactCategory: 'update',
		contactExternalReference: 'getContact',
	},
};

export const OPERATIONS: readonly OperationSpec[] = [
	{
		resource: 'contact',
		operation: 'getMany',
		name: 'Get Many',
		action: 'Get many contacts',
		description: 'List contacts, optionally filtered (e.g. by email, lastName or updated date), sorted and with related records included',
		agentDescription: 'List contacts, optionally filtered (e.g. by email, lastName or updated date) and sorted',
		shape: 'getMany',
		path: '/contacts',
		type: 'contacts',
	},
	{
		resource: 'contact',
		operation: 'get',
		name: 'Get',
		action: 'Get a contact',
		description: 'Get one contact by its ID, optionally with related records (contact group, addresses, external references) included',
		agentDescription: 'Get one contact by its ID',
		shape: 'getById',
		path: '/contacts',
		type: 'contacts',
		idParameter: 'contactId',
		ids: { contactId: 'The contact to get' },
	},
	{
		resource: 'contact',
		operation: 'create',
		name: 'Create',
		action: 'Create a contact',
		description: 'Create a contact from names, phone numbers, e-mail and other details, optionally in an existing contact group',
		shape: 'create',
		path: '/contacts',
		type: 'contacts',
		// What a form maps every time, and what If Already Exists matches on, on top (from 1.2).
		featured: ['email', 'firstName', 'lastName'],
		matchExistingBy: ['email'],
		// Saved nodes of versions 1 and 1.1 keep them under Additional Fields.
		before: { v1_2: { featured: [] } },
	},
	{
		resource: 'contactExternalReference',
		operation: 'getContact',
		name: 'Get Contact',
		action: 'Get the contact of an external reference',
		description: 'Get the contact that an external reference points to',
		shape: 'get',
		path: '/contact-external-references/{contactExternalReferenceId}/contact',
		type: 'contacts',
		ids: { contactExternalReferenceId: 'ID of the contact external reference' },
	},
	{
		resource: 'contactExternalReference',
		operation: 'update',
		name: 'Update',
		action: 'Update a contact external reference',
		description: "Change the other system's ID stored on a contact external reference; the contact and integration stay as they are",
		shape: 'update',
		path: '/contact-external-references/{contactExternalReferenceId}',
		type: 'contact-external-references',
		ids: { contactExternalReferenceId: 'ID of the contact external reference to update' },
		required: ['externalReference'],
		optional: [],
	},
	{
		resource: 'contactCategory',
		operation: 'update',
		name: 'Update',
		action: 'Rename a contact category',
		description: 'Change the name of a contact category',
		shape: 'update',
		path: '/contact-categories/{contactCategoryId}',
		type: 'contact-categories',
		ids: { contactCategoryId: 'ID of the contact category to rename' },
		required: ['name'],
		optional: [],
	},
];
