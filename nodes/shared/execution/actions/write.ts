/**
 * Create and update: the request document is built from the operation's fields, each value checked
 * against the resource table before anything is sent. A create with If Already Exists looks for the
 * record first (matchExisting.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { writeFieldLabel } from '../../description/fieldProperties';
import type { ParameterName } from '../../errors/factory';
import { operationError } from '../../errors/factory';
import type { WriteFieldHint } from '../../errors/hints';
import type { OperationSpec, WriteField } from '../../service/catalogue';
import { HTTP_METHOD, writeFields } from '../../service/catalogue';
import { buildResourceDocument, flatten, primaryResources } from '../../service/jsonapi';
import type { AttributeSpec } from '../../service/schema';
import { RESOURCE_TYPES } from '../../service/schema';
import { apiRequest } from '../../requests/transport';
import { coerceAttribute, locatorValue, parseId, parseIdList } from '../../input/values';
import { userIdOverride } from '../requestOptions';
import type { ActionContext, ActionResult, WriteValues } from './common';
import { resolvePath } from './common';
import { createdOutcome, existingOutcome, findExisting, ifExistsOf, matchKey, takeMatch } from './matchExisting';

/** Nothing given: no value, an empty one, or a resource locator with nothing chosen. */
function isUnset(input: unknown): boolean {
	const value = locatorValue(input);
	return value === undefined || value === null || value === '';
}

function addField(
	context: ActionContext,
	spec: OperationSpec,
	field: WriteField,
	label: ParameterName,
	value: unknown,
	values: WriteValues,
	itemIndex: number,
): void {
	const node = context.getNode();
	if (field.kind === 'attribute') {
		const attribute = (RESOURCE_TYPES[spec.type].attributes as Record<string, AttributeSpec>)[field.name];
		values.attributes[field.name] = coerceAttribute(node, label, attribute, value, context.getTimezone(), itemIndex) as IDataObject[string];
		return;
	}
	const target = field.relationship.target;
	values.relationships[field.name] = field.relationship.toMany
		? parseIdList(node, label, value, itemIndex).map((id) => ({ type: target, id }))
		: { type: target, id: parseId(node, label, value, itemIndex) };
}

function collectValues(context: ActionContext, spec: OperationSpec, itemIndex: number): WriteValues {
	const node = context.getNode();
	const { required, optional } = writeFields(spec);
	const values: WriteValues = { attributes: {}, relationships: {} };
	for (const field of required) {
		const value = context.getNodeParameter(field.parameter, itemIndex, '') as unknown;
		const label = { label: writeFieldLabel(spec, field, true), path: [field.parameter] };
		if (isUnset(value) || (typeof locatorValue(value) === 'string' && String(locatorValue(value)).trim() === '')) {
			throw operationError(node, 'requiredParameter', { parameter: label }, { itemIndex });
		}
		addField(context, spec, field, label, value, values, itemIndex);
	}
	const collectionName = spec.shape === 'create' ? 'additionalFields' : 'updateFields';
	const collection = optional.length > 0 ? (context.getNodeParameter(collectionName, itemIndex, {}) as IDataObject) : {};
	for (const field of optional) {
		if (!(field.parameter in collection)) continue;
		const value = collection[field.parameter];
		// Empty (e.g. an optional form field) leaves the field out; on update an expression giving
		// null clears an attribute.
		if (value === null && spec.shape === 'update' && field.kind === 'attribute') {
			values.attributes[field.name] = null;
			continue;
		}
		if (isUnset(value)) continue;
		addField(context, spec, field, { label: writeFieldLabel(spec, field, false), path: [collectionName, field.parameter] }, value, values, itemIndex);
	}
	return values;
}

/** Each field the operation can write, as a 422 that names it should point the user to it. */
function writeFieldHints(spec: OperationSpec): WriteFieldHint[] {
	const { required, optional } = writeFields(spec);
	const attributes = RESOURCE_TYPES[spec.type].attributes as Record<string, AttributeSpec>;
	const collection = spec.shape === 'create' ? 'additionalFields' : 'updateFields';
	const hint = (field: WriteField, isRequired: boolean): WriteFieldHint => ({
		name: field.name,
		label: writeFieldLabel(spec, field, isRequired),
		parameterPath: isRequired ? [field.parameter] : [collection, field.parameter],
		values: field.kind === 'attribute' ? attributes[field.name]?.values : undefined,
	});
	return [...required.map((field) => hint(field, true)), ...optional.map((field) => hint(field, false))];
}

/**
 * The key under which the router runs creates that look first in item order: equal for items that
 * would find each other's record. Undefined when the item does not look first.
 */
export function matchKeyOf(context: ActionContext, spec: OperationSpec, itemIndex: number): string | undefined {
	if (spec.shape !== 'create' || ifExistsOf(context, spec, itemIndex) === 'createAnother') return undefined;
	const match = takeMatch(spec, collectValues(context, spec, itemIndex));
	return match === undefined ? undefined : matchKey(match);
}

export async function execute(this: ActionContext, spec: OperationSpec, itemIndex: number): Promise<ActionResult> {
	const node = this.getNode();
	const { path, ids } = resolvePath(this, spec, itemIndex);
	const ifExists = spec.shape === 'create' ? ifExistsOf(this, spec, itemIndex) : 'createAnother';
	const values = collectValues(this, spec, itemIndex);
	const match = ifExists === 'createAnother' ? undefined : takeMatch(spec, values);
	const fieldCount = Object.keys(values.attributes).length + Object.keys(values.relationships).length;
	if (fieldCount === 0) {
		throw operationError(node, 'nothingToWrite', { collection: spec.shape === 'create' ? 'Additional Fields' : 'Update Fields' }, { itemIndex });
	}
	if (match !== undefined) {
		const existing = await findExisting.call(this, spec, match, ifExists, itemIndex);
		if (existing !== undefined) return [existingOutcome(this, spec, existing, ifExists, itemIndex)];
	}
	const written = await send.call(this, spec, path, ids, values, itemIndex);
	return ifExists === 'createAnother' ? written : written.map(createdOutcome);
}

/** The one write request, and its result as items. */
async function send(
	this: ActionContext,
	spec: OperationSpec,
	path: string,
	ids: Record<string, string>,
	values: WriteValues,
	itemIndex: number,
): Promise<ActionResult> {
	// On update, data.id must equal the path id (the last id in the path).
	const id = spec.shape === 'update' ? Object.values(ids).pop() : undefined;
	const body = buildResourceDocument({ type: spec.type, id, ...values });
	const response = await apiRequest.call(this, {
		method: HTTP_METHOD[spec.shape],
		path,
		body,
		itemIndex,
		userId: userIdOverride(this, itemIndex),
		explain: { rejectedWrite: { fields: writeFieldHints(spec), relationships: values.relationships } },
	});
	const document = response.body;
	if (document !== undefined && primaryResources(document).length > 0) return flatten(document);
	// 204, or a 201 without a body: the service accepted exactly what was sent.
	const createdId = id ?? /\/(\d+)\/?$/.exec(response.headers.location ?? '')?.[1];
	return [{ id: createdId ?? null, type: spec.type, ...values.attributes }];
}
