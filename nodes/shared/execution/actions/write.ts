/**
 * Create and update: the request document is built from the operation's fields, each value checked
 * as its resolved field says (operation/operation.ts) when the item is read, before anything is
 * sent. A create with If Already Exists reads its match with the item (match.ts) and looks for the
 * record first when it runs (matchExisting.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { invalidParameter, operationError } from '../../errors/factory';
import type { Operation } from '../../operation/operation';
import { PICK_VALUE } from '../../operation/operation';
import type { IfExists } from '../../service/catalogue';
import { HTTP_METHOD, IF_EXISTS_DEFAULT, IF_EXISTS_DISPLAY_NAME, IF_EXISTS_PARAMETER, IF_EXISTS_VALUES, MATCH_COUNT_FIELD, NOT_SEARCHED_FIELD, OUTCOME_FIELD } from '../../service/catalogue';
import type { RelationshipValue } from '../../service/jsonapi';
import { buildResourceDocument, flatten, primaryResources } from '../../service/jsonapi';
import { apiRequest } from '../../requests/transport';
import type { Picked } from '../../input/values';
import { checkValue, locatorValue } from '../../input/values';
import type { ActingAdviser } from '../adviser';
import { readActingAdviser } from '../adviser';
import type { ItemFactFind } from '../factFind';
import { lookUpNamedTypes, readFactFind, withDealContacts } from '../factFind';
import { lookUp } from '../lookups';
import type { ActionContext, ActionResult, PreparedItem, WriteValues } from './common';
import { resolvePath } from './common';
import type { ItemMatch } from './match';
import { matchOf, missingMatch } from './match';
import { createdOutcome, lookFirst, notSearchedOutcome } from './matchExisting';
import { readableRecord } from '../../service/summary';

/** Nothing given: no value, an empty one, or a resource locator with nothing chosen. */
function isUnset(input: unknown): boolean {
	const value = locatorValue(input);
	return value === undefined || value === null || value === '';
}

type WriteField = Operation['fields'][number];

/** A field picked with a locator (an enquiry source, a referrer, an adviser), sent once its record is known. */
interface Pick {
	field: WriteField & { pick: NonNullable<WriteField['pick']> };
	picked: Picked;
}

/** An item's write, read and checked: where it goes, what it sends, and whether it looks first. */
interface WriteInput {
	path: string;
	/** An update's ordering key: its record. */
	recordKey: string;
	ids: Record<string, string>;
	values: WriteValues;
	/** Fields picked with a locator: their values are known when the picked records are (`sendPicks`). */
	picks: Pick[];
	ifExists: IfExists;
	/** What the create looks for first, when the item looks first and has every match value. */
	match?: ItemMatch;
	/** The adviser the item's requests act as (Allocate To, Request Options → User ID, the credential's). */
	adviser: ActingAdviser;
	/** Fact Find → Create: the fact find, checked (its lists are in `values` already). */
	factFind?: ItemFactFind;
}

/**
 * Every parameter of the item's write, in the order an error would name them: the IDs, If Already
 * Exists, the adviser (Allocate To, Request Options → User ID), a fact find's lists, then each field
 * (required ones must be given; the collection's only when added).
 */
function readWrite(context: ActionContext, operation: Operation, itemIndex: number): WriteInput {
	const node = context.getNode();
	const timeZone = context.getTimezone();
	const { path, ids, recordKey } = resolvePath(context, operation, itemIndex);
	let ifExists: IfExists = IF_EXISTS_DEFAULT;
	if (operation.ifAlreadyExists !== undefined) {
		const value = context.getNodeParameter(IF_EXISTS_PARAMETER, itemIndex, IF_EXISTS_DEFAULT) as unknown;
		const text = typeof value === 'string' ? value.trim() : value;
		if (!(IF_EXISTS_VALUES as readonly unknown[]).includes(text)) {
			throw invalidParameter(node, IF_EXISTS_DISPLAY_NAME, `must be one of ${IF_EXISTS_VALUES.join(', ')}; got ${JSON.stringify(value)}`, itemIndex);
		}
		ifExists = text as IfExists;
	}
	// The adviser the item acts as (Allocate To, Request Options → User ID), before the fields: its
	// pick is read like theirs, and this way the reading goes once through the input checks.
	const adviser = readActingAdviser(context, itemIndex, operation.allocation);
	const values: WriteValues = { attributes: {}, relationships: {} };
	// A fact find's lists first, as the editor shows them: every entry checked before any field.
	const factFind = operation.factFindInput === undefined ? undefined : readFactFind(context, operation.factFindInput, itemIndex);
	for (const [list, entries] of Object.entries(factFind?.attributes ?? {})) if (entries.length > 0) values.attributes[list] = entries;
	const picks: Pick[] = [];
	const inCollection = (field: Operation['fields'][number]) => !field.required && !field.featured;
	const collection = operation.collection === undefined || !operation.fields.some(inCollection) ? {} : (context.getNodeParameter(operation.collection.name, itemIndex, {}) as IDataObject);
	for (const field of operation.fields) {
		let value: unknown;
		if (field.required) {
			value = context.getNodeParameter(field.parameter, itemIndex, '') as unknown;
			if (isUnset(value) || (typeof locatorValue(value) === 'string' && String(locatorValue(value)).trim() === '')) {
				throw operationError(node, 'requiredParameter', { parameter: field.parameterName }, { itemIndex });
			}
		} else if (field.featured) {
			// A parameter of its own; left empty (an unmapped form field), nothing is sent.
			value = context.getNodeParameter(field.parameter, itemIndex, '') as unknown;
			if (isUnset(value) || (typeof value === 'string' && value.trim() === '')) continue;
		} else {
			if (!(field.parameter in collection)) continue;
			value = collection[field.parameter];
			// Empty (e.g. an optional form field) leaves the field out; on update an expression giving
			// null clears an attribute.
			if (value === null && operation.shape === 'update' && field.kind === 'attribute') {
				values.attributes[field.name] = null;
				continue;
			}
			if (isUnset(value)) continue;
		}
		const checked = checkValue(node, field.parameterName, field.check, value, timeZone, itemIndex);
		if (field.pick !== undefined) picks.push({ field: field as Pick['field'], picked: checked as Picked });
		else if (field.kind === 'attribute') values.attributes[field.name] = checked as IDataObject[string];
		else {
			const { target } = field.relationship;
			values.relationships[field.name] = Array.isArray(checked) ? checked.map((id: string) => ({ type: target, id })) : ({ type: target, id: checked as string } as RelationshipValue);
		}
	}
	const match = operation.ifAlreadyExists === undefined ? undefined : matchOf(operation, values, ifExists);
	return { path, recordKey, ids, values, picks, ifExists, adviser, ...(match === undefined ? {} : { match }), ...(factFind === undefined ? {} : { factFind }) };
}

/**
 * What the picked fields send, once their records are known: an ID as chosen (From List, By ID), or
 * the record looked up in its list (By Name; an enquiry source also for its category), acting as
 * the node's adviser. In the operation's field order, after the other fields.
 */
async function sendPicks(context: ActionContext, picks: readonly Pick[], values: WriteValues, itemIndex: number, adviser: ActingAdviser): Promise<WriteValues> {
	if (picks.length === 0) return values;
	const sent: WriteValues = { attributes: { ...values.attributes }, relationships: { ...values.relationships } };
	for (const { field, picked } of picks) {
		const { type, sends, needsRecord } = field.pick;
		const record = picked.by === 'id' && !needsRecord ? undefined : await lookUp(context, type, picked, field.parameterName, itemIndex, await adviser.nodeUserId());
		// What the pick is known by: the ID as chosen, or the looked-up record's.
		const known = record?.value ?? (picked.by === 'id' ? picked.id : '');
		for (const [name, from] of Object.entries(sends)) {
			const value = from === PICK_VALUE || record === undefined ? known : record.attributes[from];
			if (field.kind === 'relationship') sent.relationships[name] = { type: field.relationship.target, id: String(value) };
			else sent.attributes[name] = (field.attribute.kind === 'integer' ? Number(value) : value) as IDataObject[string];
		}
	}
	return sent;
}

/**
 * The item's write, read and checked once: what it sends, and its ordering key (an update's record;
 * a create's match when it looks first).
 */
export function prepare(context: ActionContext, operation: Operation, itemIndex: number): PreparedItem {
	const node = context.getNode();
	const { path, recordKey, ids, values, picks, ifExists, match, adviser, factFind } = readWrite(context, operation, itemIndex);
	const fieldCount = Object.keys(values.attributes).length + Object.keys(values.relationships).length + picks.length;
	if (fieldCount === 0 && operation.collection !== undefined) {
		const own = operation.features.plainWords ? operation.fields.filter((field) => field.featured).map((field) => field.label) : [];
		throw operationError(node, 'nothingToWrite', { collection: operation.collection.label, own }, { itemIndex });
	}
	// On update, data.id must equal the path id (the last id in the path).
	const id = operation.shape === 'update' ? Object.values(ids).pop() : undefined;
	const shape = createShape(context, operation, values, itemIndex);
	// Asked to look first, but a match field is empty: created without a search, and (from 1.2) said so.
	const missing = operation.ifAlreadyExists !== undefined && ifExists !== 'createAnother' && match === undefined ? missingMatch(operation, values) : [];
	return {
		orderingKey: operation.shape === 'update' ? recordKey : match?.orderingKey,
		run: async () => {
			// The item's adviser first: its search and its write act as it (a lead: Allocate To).
			const userId = await adviser.userId();
			// A fact find's record, created or found, lists the deal's contacts by the fact find's names
			// (after the item's shape: they are the fact find's, not a field of the record).
			const finish = async (records: ActionResult): Promise<ActionResult> =>
				factFind === undefined ? records : await Promise.all(records.map(async (record) => await withDealContacts(context, record, factFind.people, itemIndex, userId)));
			if (match !== undefined) {
				const existing = await lookFirst.call(context, operation, match, ifExists, itemIndex, userId);
				if (existing !== undefined) return await finish([shape(existing)]);
			}
			const sent = await sendPicks(context, picks, values, itemIndex, adviser);
			if (factFind !== undefined) await lookUpNamedTypes(context, factFind, itemIndex, await adviser.nodeUserId());
			const body = buildResourceDocument({ type: operation.type, id, ...sent });
			const explain = {
				rejectedWrite: {
					fields: operation.fields.map((field) => field.hint),
					relationships: sent.relationships,
					...(factFind === undefined
						? {}
						: {
								entryAt: (pointer: string) => {
									const where = factFind.describe(pointer);
									return where === undefined ? undefined : factFind.parameterAt(where);
								},
							}),
				},
				...(adviser.from === undefined ? {} : { userIdFrom: adviser.from }),
			};
			const response = await apiRequest.call(context, { method: HTTP_METHOD[operation.shape], path, body, itemIndex, userId, explain });
			const document = response.body;
			let written: ActionResult;
			if (document !== undefined && primaryResources(document).length > 0) written = flatten(document);
			// 204, or a 201 without a body: the service accepted exactly what was sent.
			else written = [{ id: id ?? /\/(\d+)\/?$/.exec(response.headers.location ?? '')?.[1] ?? null, type: operation.type, ...sent.attributes }];
			if (ifExists === 'createAnother') return await finish(written.map(shape));
			if (missing.length > 0 && shape.oneShape) return await finish(written.map((record) => shape(notSearchedOutcome(record, missing))));
			return await finish(written.map((record) => shape(createdOutcome(record))));
		},
	};
}

/** How a create's or update's output item is shaped in the node's version, created or found. */
type CreateShape = ((record: IDataObject) => IDataObject) & { oneShape: boolean };

/**
 * The output item of a write, whichever way it came (written, or found by If Already Exists): its
 * marks (`outcome`, `matchCount`, `notSearched`) first, then the record. From node version 1.2
 * (`oneCreateShape`): a create whose existing record is found through another type gives, with
 * Simplify, the created type's readable record for both (service/summary.ts `readableRecord`: a lead
 * created and a lead found as its deal have the same columns); a create names the records it
 * required (a deal note's `dealId`), right after id and type, as Get Many names a note's deal. The
 * id alias (a lead's `dealId`) follows the id.
 */
function createShape(context: ActionContext, operation: Operation, values: WriteValues, itemIndex: number): CreateShape {
	const oneShape = operation.shape === 'create' && operation.features.oneCreateShape;
	const simplify = oneShape && operation.matchLookup !== undefined && (context.getNodeParameter('simplify', itemIndex, true) as boolean);
	const required: IDataObject = {};
	if (oneShape) {
		for (const field of operation.fields) {
			const related = values.relationships[field.name];
			if (field.required && field.kind === 'relationship' && related !== null && related !== undefined && !Array.isArray(related)) required[field.parameter] = related.id;
		}
	}
	const shape = (item: IDataObject): IDataObject => {
		const marks: IDataObject = {};
		const record: IDataObject = {};
		for (const [key, value] of Object.entries(item)) {
			if (key === OUTCOME_FIELD || key === MATCH_COUNT_FIELD || key === NOT_SEARCHED_FIELD) marks[key] = value;
			else record[key] = value;
		}
		const body = simplify ? readableRecord(operation.type, record) : record;
		return { ...marks, ...withIds(body, { ...required, ...(operation.idAlias === undefined ? {} : { [operation.idAlias]: record.id }) }) };
	};
	return Object.assign(shape, { oneShape });
}

/** `ids` right after the record's id and type (after its id when it has no type), the rest as it was. */
function withIds(record: IDataObject, ids: IDataObject): IDataObject {
	if (Object.keys(ids).length === 0) return record;
	const item: IDataObject = {};
	const after = 'type' in record ? 'type' : 'id';
	for (const [key, value] of Object.entries(record)) {
		if (key in ids) continue;
		item[key] = value;
		if (key === after) Object.assign(item, ids);
	}
	return item;
}
