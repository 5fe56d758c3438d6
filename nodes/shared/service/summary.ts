/**
 * A record's summary: `id` and the fields of its type's `summary` list (schema.ts), flat, in that
 * order; what Simplify gives from node version 1.1 on, for a table a person reads at a glance and an
 * answer an agent can afford. Defined once per resource type, so every place that shapes records
 * (the action nodes, later the trigger) gives the same columns.
 */
import type { IDataObject } from 'n8n-workflow';

import type { AttributeSpec, ResourceTypeName, ResourceTypeSpec } from './schema';
import { RESOURCE_TYPES } from './schema';

export interface SummaryColumn {
	/** The column's name in the item: `name`, `settledDate`. */
	key: string;
	/** Where the value is in a flattened record: `['name']`, `['dates', 'settled']`. */
	path: [string] | [string, string];
	attribute: AttributeSpec;
}

/** The type's summary columns, or undefined when records of the type are always given whole. */
export function summaryColumns(type: ResourceTypeSpec): SummaryColumn[] | undefined {
	return type.summary?.map((entry): SummaryColumn => {
		const [name, member] = entry.split('.');
		const attribute = type.attributes[name];
		if (attribute === undefined) throw new Error(`summary field "${entry}" is not an attribute of ${type.label}`);
		if (member === undefined) return { key: name, path: [name], attribute };
		const inner = attribute.members?.[member];
		if (attribute.kind !== 'object' || inner === undefined) throw new Error(`summary field "${entry}" is not a member of the object ${name}`);
		return { key: `${member}${attribute.liftedSuffix ?? ''}`, path: [name, member], attribute: inner };
	});
}

const COLUMNS = new Map(
	Object.entries(RESOURCE_TYPES as Record<string, ResourceTypeSpec>).map(([name, type]) => [name, summaryColumns(type)] as const),
);

/** Whether records of this type have a summary (and Simplify in version 1.1 changes them). */
export function hasSummary(typeName: string): boolean {
	return COLUMNS.get(typeName) !== undefined;
}

/**
 * The summary of a flattened record (`flatten`): `{ id, ...columns }`, every column present (null
 * when the record has no value, so a table's columns stay put), then any related records the
 * request included. A record of a type without a summary is returned as it is.
 */
export function summarize(record: IDataObject): IDataObject {
	const typeName = String(record.type);
	const columns = COLUMNS.get(typeName);
	if (columns === undefined) return record;
	const summary: IDataObject = { id: record.id };
	for (const { key, path } of columns) {
		const outer = record[path[0]];
		const value = path.length === 1 ? outer : outer !== null && typeof outer === 'object' && !Array.isArray(outer) ? (outer as IDataObject)[path[1]] : undefined;
		summary[key] = value === undefined ? null : value;
	}
	const relationships = (RESOURCE_TYPES as Record<string, ResourceTypeSpec>)[typeName].relationships;
	for (const name of Object.keys(relationships)) {
		if (name in record) summary[name] = record[name];
	}
	return summary;
}

/**
 * A record as a record of `typeName` reads: `id`, then the type's readable attributes (those the
 * service returns; write-only ones never come back), each from the record's field of that name,
 * null when it has none. From node version 1.2 a create whose existing record is found through
 * another type gives both the created and the found record this way (Simplify): a lead created and
 * a lead found as the deal it became have the same columns, in the same order, nothing nested.
 */
export function readableRecord(typeName: ResourceTypeName, record: IDataObject): IDataObject {
	const attributes = RESOURCE_TYPES[typeName].attributes as Record<string, AttributeSpec>;
	const readable: IDataObject = { id: record.id };
	for (const [name, attribute] of Object.entries(attributes)) {
		if (attribute.writeOnly === true) continue;
		const value = record[name];
		readable[name] = value === undefined ? null : value;
	}
	return readable;
}
