/**
 * The fields of each resource type as messages and tool descriptions list them (what can be
 * filtered and sorted on, a field's known values in the order people read them), and the functions
 * of the service's filter language.
 */
import { displayNameOf } from './catalogue';
import type { ResourceTypeSpec } from './schema';

/** The fields of a resource an agent can filter and sort on, for tool descriptions and error messages. */
export function queryableFields(type: ResourceTypeSpec): { attributes: string[]; paths: string[] } {
	const attributes = Object.entries(type.attributes)
		.filter(([, attribute]) => attribute.kind !== 'object' && attribute.kind !== 'list')
		.map(([name]) => name);
	return { attributes: ['id', ...attributes], paths: Object.keys(type.filterPaths ?? {}) };
}

/** An enum's values in the table's order when that order means something, else alphabetically by label. */
export function valuesInListOrder(values: readonly string[], ordered = false): string[] {
	return ordered ? [...values] : [...values].sort((a, b) => displayNameOf(a).localeCompare(displayNameOf(b)));
}

/** The functions the service's filter language has (it has no operators). */
export const FILTER_FUNCTIONS = [
	'equals',
	'lessThan',
	'lessOrEqual',
	'greaterThan',
	'greaterOrEqual',
	'contains',
	'startsWith',
	'endsWith',
	'any',
	'has',
	'not',
	'and',
	'or',
] as const;
