/**
 * A node's parameters, derived from its operation catalogue and the resource tables.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { CatalogueDefaults, CatalogueEntry, OperationSpec } from '../service/catalogue';
import { CUSTOM_REQUEST, displayNameOf, idParameters, idTypeOf, showFor, writeFields } from '../service/catalogue';
import { conditionsProperty } from './conditions';
import { customRequestProperties } from './customRequest';
import { byDisplayName, writeFieldProperty } from './fieldProperties';
import { idParameterLabel, idSourceOf, locatorProperty } from './locators';
import { DEFAULT_REQUESTS_IN_PARALLEL, MAX_REQUESTS_IN_PARALLEL } from '../requests/policy';
import { RESOURCE_TYPES } from '../service/schema';
import { agentProperties, withAgentLimit } from './toolDescription';

const READ_SHAPES = new Set(['getMany', 'getRelatedMany', 'get', 'getById']);

/** Shown for every operation: act as another adviser than the credential's User ID; how many requests at once. */
const REQUEST_OPTIONS: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'User ID',
			name: 'userId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 1002',
			description: "Adviser contact ID to act as for this node, sent as the UserId header instead of the credential's User ID. Writes are recorded against this adviser.",
		},
		{
			displayName: 'Requests in Parallel',
			name: 'requestsInParallel',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_REQUESTS_IN_PARALLEL, numberPrecision: 0 },
			default: DEFAULT_REQUESTS_IN_PARALLEL,
			description:
				'How many requests this node keeps in flight: input items handled at once, or ID ranges paged at once by Return All. 1 sends one request at a time. Lower it when your rate-limit budget is small or other workflows share it.',
		},
	],
};

function resourceSelector(
	operations: readonly CatalogueEntry[],
	descriptions: Record<string, string>,
	defaults: CatalogueDefaults,
): INodeProperties {
	const resources = [...new Set(operations.map((spec) => spec.resource))];
	const defaultResource = defaults.resource;
	if (!resources.includes(defaultResource)) throw new Error(`Default resource "${defaultResource}" is not in the catalogue`);
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: resources
			.map((resource) => ({ name: displayNameOf(resource), value: resource, description: descriptions[resource] }))
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultResource,
	};
}

function operationSelectors(operations: readonly CatalogueEntry[], defaults: CatalogueDefaults): INodeProperties[] {
	const resources = [...new Set(operations.map((spec) => spec.resource))];
	return resources.map((resource) => {
		const specs = operations.filter((spec) => spec.resource === resource);
		const defaultOperation = defaults.operations[resource];
		if (!specs.some((spec) => spec.operation === defaultOperation)) {
			throw new Error(`Default operation "${String(defaultOperation)}" of resource "${resource}" is not in the catalogue`);
		}
		return {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: specs
				.map((spec) => ({ name: spec.name, value: spec.operation, action: spec.action, description: spec.description }))
				.sort((a, b) => a.name.localeCompare(b.name)),
			default: defaultOperation,
		};
	});
}

/**
 * One parameter per ID the operation needs: a resource locator where the type can be searched
 * (deals, contacts), else a plain ID field saying where to find the ID.
 */
function idProperties(spec: OperationSpec): INodeProperties[] {
	return idParameters(spec).map((name): INodeProperties => {
		const type = idTypeOf(spec, name);
		const description = spec.ids?.[name] ?? `ID of the ${displayNameOf(name.replace(/Id$/, '')).toLowerCase()}`;
		const displayName = idParameterLabel(spec, name);
		const locator = locatorProperty({ displayName, name, description, required: true }, type);
		if (locator !== undefined) return { ...locator, displayOptions: showFor(spec) };
		const source = idSourceOf(type);
		return {
			displayName,
			name,
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. 12345',
			description: [`${description}. A whole number.`, source === undefined ? undefined : `${source}.`].filter(Boolean).join(' '),
			displayOptions: showFor(spec),
		};
	});
}

/** Options → Fields: a sparse fieldset of the operation's type. */
function fieldsOption(label: string): INodeProperties {
	return {
		displayName: 'Fields',
		name: 'fields',
		type: 'string',
		default: '',
		placeholder: 'name,updated',
		description: `Comma-separated attributes to return for each ${label}; empty returns all`,
	};
}

/** Options → Include: related records embedded in each result. */
const INCLUDE_OPTION: INodeProperties = {
	displayName: 'Include',
	name: 'include',
	type: 'string',
	default: '',
	placeholder: 'contacts,customStatus',
	description: 'Comma-separated related records to embed in each result, dots for deeper levels',
};

/** An operation's Options collection, its entries in alphabetical order. */
function optionsCollection(spec: OperationSpec, options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showFor(spec),
		options: byDisplayName<INodeProperties>(options),
	};
}

/** Get by ID: the record's related records and a sparse fieldset, as on Get Many. */
function getByIdProperties(spec: OperationSpec): INodeProperties[] {
	return [optionsCollection(spec, [fieldsOption(RESOURCE_TYPES[spec.type].label), INCLUDE_OPTION])];
}

/** Return All and Limit of a collection read shown for `display` (the tool's own Limit is added by withAgentLimit). */
function pagingProperties(display: IDisplayOptions, returnAllDefault: boolean): INodeProperties[] {
	const returnAll: INodeProperties = {
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions: display,
	};
	if (returnAllDefault) returnAll.default = true;
	return [
		returnAll,
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { ...display, show: { ...display.show, returnAll: [false], '@tool': [false] } },
		},
	];
}

/** Return All and Limit of a collection read, and for searchable collections the query Options. */
function getManyProperties(spec: OperationSpec): INodeProperties[] {
	const label = RESOURCE_TYPES[spec.type].label;
	// A related collection (a deal's notes) returned every record before Return All existed; saved
	// workflows, which do not store a value equal to the default, keep doing so.
	const paging = pagingProperties(showFor(spec), spec.shape === 'getRelatedMany');
	// Related-collection endpoints take no filter, sort or include.
	if (spec.shape === 'getRelatedMany') return paging;
	return [
		...paging,
		optionsCollection(spec, [
			conditionsProperty(spec.type, {
				name: 'conditions',
				description: `Only ${label} records matching all these conditions. Combined with Filter when both are set.`,
			}),
			fieldsOption(label),
			{
				displayName: 'Filter',
				name: 'filter',
				type: 'string',
				default: '',
				placeholder: "and(equals(dealStatus,'Settled'),greaterOrEqual(updated,'2026-11-01'))",
				description: "Filter expression in the service's syntax: equals, lessThan, greaterOrEqual, contains, startsWith, any, not, and, or. Every value in single quotes; double a quote inside a value ('O''Connor').",
			},
			INCLUDE_OPTION,
			{
				displayName: 'Sort',
				name: 'sort',
				type: 'string',
				default: '',
				placeholder: '-updated,lastName',
				description: 'Comma-separated fields to sort by; prefix a field with - for descending. Default is by ID ascending, which also pages most cheaply.',
			},
		]),
	];
}

function simplifyProperty(spec: CatalogueEntry): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: 'Whether to return a simplified version of the response instead of the raw data',
		displayOptions: showFor(spec),
	};
}

/**
 * Custom Request, which every action node lists after its own operations: its own parameters, and
 * for a GET the paging of every collection read; Simplify for every answer with records.
 */
function customRequestEntry(): INodeProperties[] {
	return [
		...customRequestProperties(),
		...withAgentLimit(pagingProperties(showFor(CUSTOM_REQUEST, { method: ['GET'] }), false)),
		simplifyProperty(CUSTOM_REQUEST),
	];
}

function writeProperties(spec: OperationSpec): INodeProperties[] {
	const type = RESOURCE_TYPES[spec.type];
	const { required, optional } = writeFields(spec);
	const properties: INodeProperties[] = required.map((field) => ({
		...writeFieldProperty(field, type),
		required: true,
		displayOptions: showFor(spec),
	}));
	if (optional.length > 0) {
		const isCreate = spec.shape === 'create';
		properties.push({
			displayName: isCreate ? 'Additional Fields' : 'Update Fields',
			name: isCreate ? 'additionalFields' : 'updateFields',
			type: 'collection',
			placeholder: isCreate ? 'Add Field' : 'Add Field to Update',
			default: {},
			description: isCreate ? undefined : 'Only the fields added here are changed; all others keep their values',
			displayOptions: showFor(spec),
			options: byDisplayName(optional.map((field) => writeFieldProperty(field, type))),
		});
	}
	return properties;
}

/** Every parameter of a node: resource, operation, then each operation's own. */
export function buildProperties(
	operations: readonly OperationSpec[],
	resourceDescriptions: Record<string, string>,
	defaults: CatalogueDefaults,
): INodeProperties[] {
	const entries: readonly CatalogueEntry[] = [...operations, CUSTOM_REQUEST];
	const entryDefaults: CatalogueDefaults = { ...defaults, operations: { ...defaults.operations, [CUSTOM_REQUEST.resource]: CUSTOM_REQUEST.operation } };
	const properties: INodeProperties[] = [
		resourceSelector(entries, { ...resourceDescriptions, [CUSTOM_REQUEST.resource]: CUSTOM_REQUEST.resourceDescription }, entryDefaults),
		...operationSelectors(entries, entryDefaults),
		...agentProperties(operations),
	];
	for (const spec of operations) {
		properties.push(...idProperties(spec));
		if (spec.shape === 'getMany' || spec.shape === 'getRelatedMany') properties.push(...withAgentLimit(getManyProperties(spec)));
		if (spec.shape === 'getById') properties.push(...getByIdProperties(spec));
		if (spec.shape === 'create' || spec.shape === 'update') properties.push(...writeProperties(spec));
		if (READ_SHAPES.has(spec.shape)) properties.push(simplifyProperty(spec));
	}
	properties.push(...customRequestEntry());
	properties.push(REQUEST_OPTIONS);
	return properties;
}

