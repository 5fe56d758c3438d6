/**
 * How an AI agent reads a field's type: `one of NewLeads, …`, `date YYYY-MM-DD`, `list of objects,
 * each with amount (number), …`. Written from the resource tables (schema.ts), nested members
 * included, so a list is never called an object and a rate says it is a fraction.
 */
import type { AttributeSpec, ResourceTypeSpec } from '../service/schema';

/** Reading a value the service returns, or writing one the node sends (date-times carry a zone). */
export type Use = 'read' | 'write';

/** The words for each member: `settled, lodged (date YYYY-MM-DD, each)` when they share a type. */
function memberWords(members: Record<string, AttributeSpec>): string {
	const entries = Object.entries(members).map(([name, member]) => ({ name, words: typeWords(member, 'read') }));
	if (entries.every((entry) => entry.words === entries[0].words)) return `${entries.map((entry) => entry.name).join(', ')} (${entries[0].words}, each)`;
	return entries.map((entry) => `${entry.name} (${entry.words})`).join(', ');
}

export function typeWords(attribute: AttributeSpec, use: Use): string {
	const note = attribute.note === undefined ? '' : `, ${attribute.note}`;
	switch (attribute.kind) {
		case 'enum':
			return `one of ${(attribute.values ?? []).join(', ')}`;
		case 'date':
			return 'date YYYY-MM-DD';
		case 'dateTime':
			return use === 'write' ? 'date-time, ISO 8601 with its offset or Z, e.g. 2026-11-21T09:30:00+10:00' : 'date-time, ISO 8601 UTC';
		case 'boolean':
			return 'true or false';
		case 'integer':
			return `whole number${note}`;
		case 'number':
			return `number${note}`;
		case 'object':
			return attribute.members === undefined ? 'object' : `object with ${memberWords(attribute.members)}`;
		case 'list':
			return attribute.members === undefined ? 'list' : `list of objects, each with ${memberWords(attribute.members)}`;
		default:
			return `text${note}`;
	}
}

/** `name (text); dealStatus (one of NewLeads, …)`: each field by its name and what it holds. */
export function fieldList(attributes: Record<string, AttributeSpec>, names: readonly string[], use: Use = 'read'): string {
	return names.map((name) => `${name} (${typeWords(attributes[name], use)})`).join('; ');
}

/** A filter on the type's own fields, for examples: an enum's last value, then a date. */
export function exampleFilter(type: ResourceTypeSpec): string {
	const attributes = type.attributes;
	const enumField = Object.entries(attributes).find(([, attribute]) => attribute.kind === 'enum');
	const dateField = Object.entries(attributes)
		.sort(([a], [b]) => Number(b === 'updated') - Number(a === 'updated'))
		.find(([, attribute]) => attribute.kind === 'dateTime' || attribute.kind === 'date');
	const textField = Object.entries(attributes).find(([, attribute]) => attribute.kind === 'string');
	const terms: string[] = [];
	if (enumField) terms.push(`equals(${enumField[0]},'${enumField[1].example ?? enumField[1].values?.[enumField[1].values.length - 1] ?? ''}')`);
	if (dateField) terms.push(`greaterOrEqual(${dateField[0]},'2026-11-01')`);
	if (terms.length === 0 && textField) terms.push(`contains(${textField[0]},'Smith')`);
	if (terms.length === 0) return "equals(id,'123')";
	return terms.length === 1 ? terms[0] : `and(${terms.join(',')})`;
}
