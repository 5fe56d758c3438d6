import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { IdParameter, Operation } from '../../operation/operation';
import { isVersion1 } from '../../service/versions';
import type { Document, RelationshipValue } from '../../service/jsonapi';
import { flatten, rawResources } from '../../service/jsonapi';
import { summarize } from '../../service/summary';
import { invalidParameter } from '../../errors/factory';
import { checkValue } from '../../input/values';
import { toolArgument } from '../../errors/hints';
import { AGENT_LIMIT_CEILING } from '../../requests/policy';
import { isToolRun } from '../toolOutput';

export type ActionContext = IExecuteFunctions;

/** What an item's request gives: the output items' JSON for one input item. */
export type ActionResult = IDataObject[];

/**
 * An input item read and checked, once, by its shape's `prepare` (a bad parameter throws there,
 * before any request): what the router orders it by, and what sends it.
 */
export interface PreparedItem {
	/**
	 * Items with the same key reach the service one after the other, in item order (router.ts):
	 * writes to one record (`recordKey`), and creates that look for the same record first, so a
	 * later one finds what an earlier one created. Undefined: no order needed (reads, plain creates).
	 */
	orderingKey?: string;
	/** Sends the item's request(s) and gives its output items. */
	run(): Promise<ActionResult>;
}

/** How each request shape reads an item: `prepare(context, operation, itemIndex)`. */
export type Prepare<Spec> = (context: ActionContext, spec: Spec, itemIndex: number) => PreparedItem;

/** The ordering key of a write to one record (an update or delete of `path`, a Custom Request's PATCH or DELETE). */
export function recordKey(path: string): string {
	return `record ${path}`;
}

/** What a create or update sends, its values checked: attributes and relationships by name. */
export interface WriteValues {
	attributes: IDataObject;
	relationships: Record<string, RelationshipValue>;
}

export interface ResolvedPath {
	path: string;
	/** Every ID parameter's value by its name, already checked: the path ids, then a getById's. */
	ids: Record<string, string>;
	/** The ordering key of a write to the record at `path` (an update, a delete). */
	recordKey: string;
}

/** An ID parameter read and checked, named in messages as the editor labels it ("Deal", "Deal Note ID"). */
export function idValue(context: ActionContext, id: IdParameter, itemIndex: number): string {
	return checkValue(context.getNode(), id.parameter, id.check, context.getNodeParameter(id.name, itemIndex, ''), context.getTimezone(), itemIndex) as string;
}

/** The request path with each `{id}` replaced by its checked parameter value; and the other IDs (a getById's). */
export function resolvePath(context: ActionContext, operation: Operation, itemIndex: number): ResolvedPath {
	const ids: Record<string, string> = {};
	for (const id of operation.idParameters) ids[id.name] = idValue(context, id, itemIndex);
	const path = operation.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => ids[name]);
	return { path, ids, recordKey: recordKey(path) };
}

/**
 * How a read gives its records: as the service sent them (`raw`), every field flattened (`whole`),
 * or the type's summary (`summary`, service/summary.ts).
 */
export type RecordShape = 'raw' | 'whole' | 'summary';

/** A read's Options with Fields understood: `*` (version 1.1) asks for every field, so no fieldset is sent. */
export interface ReadOptions {
	options: IDataObject;
	/** Fields was set: the records carry exactly what was asked for, whatever Simplify says. */
	fieldsChosen: boolean;
}

/** Options → Fields read once per item, for the query (no `*` sent) and the record shape (Fields chosen). */
export function readOptions(context: ActionContext, itemIndex: number): ReadOptions {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fields = typeof options.fields === 'string' ? options.fields.trim() : options.fields;
	if (isVersion1(context.getNode()) || fields === undefined || fields === null || fields === '') return { options, fieldsChosen: false };
	if (fields === '*') return { options: { ...options, fields: undefined }, fieldsChosen: true };
	return { options, fieldsChosen: true };
}

/**
 * Version 1: Simplify on flattens every field, off gives the JSON:API resources. Version 1.1: on,
 * the summary; off, every field flattened; Options → Fields, when set, wins over Simplify.
 */
export function recordShape(context: ActionContext, itemIndex: number, fieldsChosen = false): RecordShape {
	const simplify = context.getNodeParameter('simplify', itemIndex, true) as boolean;
	if (isVersion1(context.getNode())) return simplify ? 'whole' : 'raw';
	return simplify && !fieldsChosen ? 'summary' : 'whole';
}

/**
 * Custom Request's record shape. Simplify on: version 1 flattens every record; from version 1.1 a
 * record of a type with a summary (a deal) is its summary, as the typed operation gives it, and
 * others are flattened whole. A sparse fieldset (`fields[…]` among the query parameters) wins over
 * the summary, as Options → Fields does. Off: the service's JSON:API resources.
 */
export function customRecordShape(context: ActionContext, itemIndex: number, extra: Array<[string, string]>): RecordShape {
	if (!(context.getNodeParameter('simplify', itemIndex, true) as boolean)) return 'raw';
	if (isVersion1(context.getNode()) || extra.some(([name]) => /^fields\[/i.test(name))) return 'whole';
	return 'summary';
}

/** Output items of a read, in the shape asked for. */
export function readOutput(document: Document, shape: RecordShape): IDataObject[] {
	if (shape === 'raw') return rawResources(document);
	const records = flatten(document);
	return shape === 'summary' ? records.map(summarize) : records;
}

/**
 * How many records a collection read returns: undefined for Return All, else Limit (checked).
 * `returnAllDefault` is the Return All default of the operation (true for a deal's notes).
 */
export function collectionLimit(context: ActionContext, itemIndex: number, returnAllDefault: boolean): number | undefined {
	if (context.getNodeParameter('returnAll', itemIndex, returnAllDefault) as boolean) return undefined;
	const value = context.getNodeParameter('limit', itemIndex, 50) as unknown;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
		throw invalidParameter(context.getNode(), { label: 'Limit', path: ['limit'] }, `must be a whole number of at least 1; got ${JSON.stringify(value)}`, itemIndex);
	}
	if (value > AGENT_LIMIT_CEILING && modelFillsLimit(context)) {
		throw invalidParameter(
			context.getNode(),
			{ label: 'Limit', path: ['limit'] },
			`is ${value}, above the ${AGENT_LIMIT_CEILING} records this tool returns at most. Narrow the filter (e.g. by status, lender or a date range) so that fewer records match, or sort and ask for the first ${AGENT_LIMIT_CEILING}`,
			itemIndex,
		);
	}
	return value;
}

/** A version 1.1 tool whose Limit the model fills (`$fromAI`, the tool's default), bounded by AGENT_LIMIT_CEILING. */
function modelFillsLimit(context: ActionContext): boolean {
	const node = context.getNode();
	return isToolRun(context) && !isVersion1(node) && toolArgument(node, ['limit']) !== '';
}
