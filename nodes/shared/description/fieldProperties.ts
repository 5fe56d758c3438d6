/**
 * n8n parameters derived from the resource tables: one per attribute or relationship, with the
 * n8n type that matches the attribute's type.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { displayNameOf } from '../service/catalogue';
import { valuesInListOrder } from '../service/fields';
import { idOnlyProperty, idSourceOf, locatorProperty } from './locators';
import type { WriteField } from '../operation/operation';
import type { AttributeSpec } from '../service/schema';
import type { NodeVersion } from '../service/versions';

/** The text as a sentence: trimmed, ending in a full stop unless it has its own end mark. */
export function sentence(text: string): string {
	const trimmed = text.trim();
	return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

export function byDisplayName<T extends { displayName: string }>(list: T[]): T[] {
	return [...list].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/**
 * An enum's dropdown entries: in the table's order when that order means something, else
 * alphabetical; each named as `names` says, else by its value in words ("InProgress" → "In Progress").
 */
export function optionList(values: readonly string[], ordered = false, descriptions?: Readonly<Record<string, string>>, names?: Readonly<Record<string, string>>): INodePropertyOptions[] {
	return valuesInListOrder(values, ordered).map((value) => {
		const name = names?.[value] ?? displayNameOf(value);
		return descriptions?.[value] === undefined ? { name, value } : { name, value, description: descriptions[value] };
	});
}

/** "Whether …": a boolean's description, the rest of the sentence as written ("Whether Loan CRM …" keeps its capital). */
function whetherSentence(description: string): string {
	const rest = sentence(description).replace(/^Whether /, '');
	return `Whether ${/^[A-Z][a-z]/.test(rest) ? rest.charAt(0).toLowerCase() + rest.slice(1) : rest}`;
}

/** An attribute's parameter, labelled as its operation resolved it. */
function attributeProperty(name: string, label: string, spec: AttributeSpec): INodeProperties {
	const base = { displayName: label, name, description: sentence(spec.description) };
	switch (spec.kind) {
		case 'number':
			return { ...base, type: 'number', default: 0, typeOptions: { numberPrecision: 4 } };
		case 'integer':
			return { ...base, type: 'number', default: 0, typeOptions: { numberPrecision: 0 } };
		case 'boolean':
			return { ...base, description: whetherSentence(spec.description), type: 'boolean', default: false };
		case 'date':
			return { ...base, description: sentence(`${spec.description} (sent as YYYY-MM-DD)`), type: 'dateTime', default: '' };
		case 'dateTime':
			return { ...base, description: sentence(`${spec.description} (sent as ISO 8601 in UTC)`), type: 'dateTime', default: '' };
		case 'enum':
			// No preselected value: adding the field must not send a value nobody chose. Left empty,
			// nothing is sent for it.
			// Unless the service applies a value anyway (`default`): then that one, said plainly.
			return { ...base, type: 'options', options: optionList(spec.values ?? [], spec.ordered, spec.valueDescriptions, spec.valueNames), default: spec.default ?? '' };
		default:
			return spec.long
				? { ...base, type: 'string', default: '', typeOptions: { rows: 4 } }
				: { ...base, type: 'string', default: '' };
	}
}

/** A write field's parameter in a node version, as its operation resolved it (operation/operation.ts): name, label, check. */
export function writeFieldProperty(field: WriteField, version: NodeVersion): INodeProperties {
	if (field.kind === 'attribute' && field.attribute.picked !== undefined) {
		const description = field.attribute.description;
		const locator = locatorProperty({ displayName: field.label, name: field.parameter, description }, field.attribute.picked, version);
		if (locator === undefined) throw new Error(`${field.name}: no locator for ${field.attribute.picked}`);
		return locator;
	}
	if (field.kind === 'attribute') return attributeProperty(field.name, field.label, field.attribute);
	const many = field.relationship.toMany === true;
	const { description, target } = field.relationship;
	const what = `${description.charAt(0).toLowerCase()}${description.slice(1)}`;
	const locator = many ? undefined : locatorProperty({ displayName: field.label, name: field.parameter, description: `The ${what}` }, target, version);
	if (locator !== undefined) return locator;
	return idOnlyProperty({ displayName: field.label, name: field.parameter, description: sentence(`${many ? 'Comma-separated IDs' : 'ID'} of the ${what}`) }, idSourceOf(target), version, many);
}
