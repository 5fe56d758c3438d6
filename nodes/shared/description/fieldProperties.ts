/**
 * n8n parameters derived from the resource tables: one per attribute or relationship, with the
 * n8n type that matches the attribute's type.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { OperationSpec, WriteField } from '../service/catalogue';
import { displayNameOf } from '../service/catalogue';
import { valuesInListOrder } from '../service/fields';
import { idOnlyProperty, idSourceOf, locatorProperty } from './locators';
import type { AttributeSpec, ResourceTypeSpec } from '../service/schema';
import { RESOURCE_TYPES } from '../service/schema';

/** The text as a sentence: trimmed, ending in a full stop unless it has its own end mark. */
export function sentence(text: string): string {
	const trimmed = text.trim();
	return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

export function byDisplayName<T extends { displayName: string }>(list: T[]): T[] {
	return [...list].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** An enum's dropdown entries: in the table's order when that order means something, else alphabetical. */
export function optionList(values: readonly string[], ordered = false): INodePropertyOptions[] {
	return valuesInListOrder(values, ordered).map((value) => ({ name: displayNameOf(value), value }));
}

export function attributeProperty(name: string, spec: AttributeSpec): INodeProperties {
	const base = { displayName: displayNameOf(name), name, description: sentence(spec.description) };
	switch (spec.kind) {
		case 'number':
			return { ...base, type: 'number', default: 0, typeOptions: { numberPrecision: 4 } };
		case 'integer':
			return { ...base, type: 'number', default: 0, typeOptions: { numberPrecision: 0 } };
		case 'boolean':
			return { ...base, description: `Whether ${sentence(spec.description).replace(/^Whether /, '').replace(/^./, (c) => c.toLowerCase())}`, type: 'boolean', default: false };
		case 'date':
			return { ...base, description: sentence(`${spec.description} (sent as YYYY-MM-DD)`), type: 'dateTime', default: '' };
		case 'dateTime':
			return { ...base, description: sentence(`${spec.description} (sent as ISO 8601 in UTC)`), type: 'dateTime', default: '' };
		case 'enum':
			// No preselected value: adding the field must not send a value nobody chose. Left empty,
			// nothing is sent for it.
			return { ...base, type: 'options', options: optionList(spec.values ?? [], spec.ordered), default: '' };
		default:
			return spec.long
				? { ...base, type: 'string', default: '', typeOptions: { rows: 4 } }
				: { ...base, type: 'string', default: '' };
	}
}

export function writeFieldProperty(field: WriteField, type: ResourceTypeSpec): INodeProperties {
	if (field.kind === 'attribute') {
		return attributeProperty(field.name, (type.attributes as Record<string, AttributeSpec>)[field.name]);
	}
	const many = field.relationship.toMany === true;
	const { description, target } = field.relationship;
	const what = `${description.charAt(0).toLowerCase()}${description.slice(1)}`;
	// One record of a searchable type is picked From List or By ID ("Residential Deal"); any other ID,
	// or a list of IDs, By ID only ("Assignee ID", "Contact Group IDs").
	const locator = many ? undefined : locatorProperty({ displayName: displayNameOf(field.name), name: field.parameter, description: `The ${what}` }, target);
	if (locator !== undefined) return locator;
	return idOnlyProperty(
		{ displayName: displayNameOf(field.parameter), name: field.parameter, description: sentence(`${many ? 'Comma-separated IDs' : 'ID'} of the ${what}`) },
		idSourceOf(target),
		many,
	);
}

/** The label a write field's parameter has in the node: "Progress" or "Update Fields → Progress". */
export function writeFieldLabel(spec: OperationSpec, field: WriteField, required: boolean): string {
	// The label the user sees on the field (locators read "Deal", not "Deal ID").
	const label = writeFieldProperty(field, RESOURCE_TYPES[spec.type]).displayName;
	if (required) return label;
	return `${spec.shape === 'create' ? 'Additional Fields' : 'Update Fields'} → ${label}`;
}
