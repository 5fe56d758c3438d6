import type { CatalogueDefaults, OperationSpec } from '../shared/service/catalogue';

export const RESOURCE_DESCRIPTIONS: Record<string, string> = {
	asset: "A client's asset, such as a property",
	organisation: 'A broker organisation',
};

/** What a new node shows first; saved workflows that never changed them depend on these. */
export const DEFAULTS: CatalogueDefaults = {
	resource: 'organisation',
	operations: {
		asset: 'getAddresses',
		organisation: 'getAddresses',
	},
};

export const OPERATIONS: readonly OperationSpec[] = [
	{
		resource: 'organisation',
		operation: 'getAddresses',
		name: 'Get Addresses',
		action: 'Get the addresses of an organisation',
		description: 'List every address of a broker organisation, one item per address',
		shape: 'getRelatedMany',
		path: '/organisations/{organisationId}/addresses',
		type: 'organisation-addresses',
		ids: { organisationId: 'ID of the organisation' },
	},
	{
		resource: 'asset',
		operation: 'getAddresses',
		name: 'Get Addresses',
		action: 'Get the addresses of an asset',
		description: 'List every address of an asset, one item per address',
		shape: 'getRelatedMany',
		path: '/assets/{assetId}/addresses',
		type: 'financial-address',
		ids: { assetId: 'ID of the asset' },
	},
];
