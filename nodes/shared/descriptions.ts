/**
 * A node's parameters, derived from its operation catalogue and the resource tables.
 */
import type { INodeProperties } from 'n8n-workflow';

import type { OperationSpec } from './catalogue';
import { displayNameOf, pathParameters, showFor, writeFields } from './catalogue';
import { byDisplayName, writeFieldProperty } from './fieldProperties';
import { DEFAULT_REQUESTS_IN_PARALLEL, MAX_REQUESTS_IN_PARALLEL } from './parallel';
import { FILTER_OPERATORS } from './query';
import type { AttributeSpec } from './schema';
import { RESOURCE_TYPES } from './schema';

const READ_SHAPES = new Set(['getMany', 'getRelatedMany', 'get']);

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

function resourceSelector(operations: readonly OperationSpec[], descriptions: Record<string, string>): INodeProperties {
	const resources = [...new Set(operations.map((spec) => spec.resource))];
	const firstResource = resources[0];
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: resources
			.map((resource) => ({ name: displayNameOf(resource), value: resource, description: descriptions[resource] }))
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: firstResource,
	};
}

function operationSelectors(operations: readonly OperationSpec[]): INodeProperties[] {
	const resources = [...new Set(operations.map((spec) => spec.resource))];
	return resources.map((resource) => {
		const specs = operations.filter((spec) => spec.resource === resource);
		const firstOperation = specs[0].operation;
		return {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: specs
				.map((spec) => ({ name: spec.name, value: spec.operation, action: spec.action, description: spec.description }))
				.sort((a, b) => a.name.localeCompare(b.name)),
			default: firstOperation,
		};
	});
}

function idProperties(spec: OperationSpec): INodeProperties[] {
	return pathParameters(spec).map((name) => ({
		displayName: displayNameOf(name),
		name,
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 12345',
		description: `${spec.ids?.[name] ?? `ID of the ${displayNameOf(name.replace(/Id$/, '')).toLowerCase()}`}. A whole number.`,
		displayOptions: showFor(spec),
	}));
}

function filterFieldOptions(spec: OperationSpec) {
	const type = RESOURCE_TYPES[spec.type];
	const attributes = type.attributes as Record<string, AttributeSpec>;
	const paths = ('filterPaths' in type ? type.filterPaths : {}) as Record<string, string>;
	const entries = [
		{ name: 'ID', value: 'id', description: 'ID of the record' },
		...Object.entries(attributes)
			.filter(([, attribute]) => attribute.kind !== 'object')
			.map(([name, attribute]) => ({ name: displayNameOf(name), value: name, description: attribute.description })),
		...Object.entries(paths).map(([path, description]) => ({ name: displayNameOf(path.replace('.', ' ')), value: path, description })),
	];
	return entries.sort((a, b) => a.name.localeCompare(b.name));
}

function getManyProperties(spec: OperationSpec): INodeProperties[] {
	const label = RESOURCE_TYPES[spec.type].label;
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: showFor(spec),
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: showFor(spec, { returnAll: [false] }),
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: showFor(spec),
			options: byDisplayName<INodeProperties>([
				{
					displayName: 'Conditions',
					name: 'conditions',
					type: 'fixedCollection',
					typeOptions: { multipleValues: true },
					placeholder: 'Add Condition',
					default: {},
					description: `Only ${label} records matching all these conditions. Combined with Filter when both are set.`,
					options: [
						{
							displayName: 'Condition',
							name: 'condition',
							values: [
								{
									displayName: 'Field',
									name: 'field',
									type: 'options',
									options: filterFieldOptions(spec),
									default: 'id',
									description: 'Field to compare. Choose from the list, or specify a dotted path such as integration.name using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
								},
								{
									displayName: 'Operator',
									name: 'operator',
									type: 'options',
									options: FILTER_OPERATORS.map(({ name, value }) => ({ name, value })),
									default: 'equals',
								},
								{
									displayName: 'Value',
									name: 'value',
									type: 'string',
									default: '',
									description: 'Value to compare with. Dates as YYYY-MM-DD, date-times in ISO 8601, booleans as true or false. Quotes are handled for you.',
									displayOptions: { hide: { operator: ['isNull', 'isNotNull'] } },
								},
							],
						},
					],
				},
				{
					displayName: 'Fields',
					name: 'fields',
					type: 'string',
					default: '',
					placeholder: 'name,updated',
					description: `Comma-separated attributes to return for each ${label}; empty returns all`,
				},
				{
					displayName: 'Filter',
					name: 'filter',
					type: 'string',
					default: '',
					placeholder: "and(equals(dealStatus,'Settled'),greaterOrEqual(updated,'2026-11-01'))",
					description: "Filter expression in the service's syntax: equals, lessThan, greaterOrEqual, contains, startsWith, any, not, and, or. Every value in single quotes; double a quote inside a value ('O''Connor').",
				},
				{
					displayName: 'Include',
					name: 'include',
					type: 'string',
					default: '',
					placeholder: 'contacts,customStatus',
					description: 'Comma-separated related records to embed in each result, dots for deeper levels',
				},
				{
					displayName: 'Sort',
					name: 'sort',
					type: 'string',
					default: '',
					placeholder: '-updated,lastName',
					description: 'Comma-separated fields to sort by; prefix a field with - for descending. Default is by ID ascending, which also pages most cheaply.',
				},
			]),
		},
	];
}

function simplifyProperty(spec: OperationSpec): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: 'Whether to return a simplified version of the response instead of the raw data',
		displayOptions: showFor(spec),
	};
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
): INodeProperties[] {
	const properties: INodeProperties[] = [resourceSelector(operations, resourceDescriptions), ...operationSelectors(operations)];
	for (const spec of operations) {
		properties.push(...idProperties(spec));
		if (spec.shape === 'getMany') properties.push(...getManyProperties(spec));
		if (spec.shape === 'create' || spec.shape === 'update') properties.push(...writeProperties(spec));
		if (READ_SHAPES.has(spec.shape)) properties.push(simplifyProperty(spec));
	}
	properties.push(REQUEST_OPTIONS);
	return properties;
}

