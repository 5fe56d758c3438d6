/**
 * JSON:API, the way the Loan CRM speaks it: flattening response documents into n8n items,
 * building request documents, reading error documents and building query strings.
 */
import type { IDataObject } from 'n8n-workflow';

import { LEADING_ATTRIBUTES } from './schema';

export interface ResourceIdentifier {
	type: string;
	id: string;
}

export interface Relationship {
	data?: ResourceIdentifier | ResourceIdentifier[] | null;
	links?: IDataObject;
	meta?: IDataObject;
}

export interface Resource extends ResourceIdentifier {
	attributes?: IDataObject;
	relationships?: Record<string, Relationship>;
	links?: IDataObject;
	meta?: IDataObject;
}

export interface Document {
	data?: Resource | Resource[] | null;
	included?: Resource[] | null;
	links?: Record<string, string | null | undefined>;
	meta?: IDataObject;
	errors?: ErrorObject[];
}

export interface ErrorObject {
	id?: string;
	status?: string;
	code?: string;
	title?: string;
	detail?: string;
	source?: { pointer?: string; parameter?: string; header?: string };
}

/** Deeper nesting than this is cut to `{ id, type }`; include paths are rarely more than 3 levels. */
const MAX_DEPTH = 8;

/** Own-property write that stays data even for keys like `__proto__`. */
function setOwn(target: IDataObject, key: string, value: unknown): void {
	if (key === '__proto__') {
		Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
	} else {
		target[key] = value as IDataObject[keyof IDataObject];
	}
}

function keyOf(identifier: ResourceIdentifier): string {
	return `${identifier.type}\u0000${identifier.id}`;
}

function isResourceIdentifier(value: unknown): value is ResourceIdentifier {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as ResourceIdentifier).type === 'string' &&
		(typeof (value as ResourceIdentifier).id === 'string' ||
			typeof (value as ResourceIdentifier).id === 'number')
	);
}

/** A deep copy of JSON data into fresh objects, so no two items share an object. */
function copyJson(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(copyJson);
	if (value !== null && typeof value === 'object') {
		const copy: IDataObject = {};
		for (const key of Object.keys(value)) setOwn(copy, key, copyJson((value as IDataObject)[key]));
		return copy;
	}
	return value;
}

type IncludedIndex = Map<string, Resource>;

const LEADING = new Map(
	Object.entries(LEADING_ATTRIBUTES).map(([type, list]) => [type, { list, set: new Set(list) }]),
);

export function indexIncluded(document: Document): IncludedIndex {
	const index: IncludedIndex = new Map();
	const included = Array.isArray(document.included) ? document.included : [];
	for (const resource of included) {
		if (isResourceIdentifier(resource)) index.set(keyOf(resource), resource);
	}
	return index;
}

/** The included resource a relationship's identifier points at, if the document included it. */
export function includedResource(index: ReadonlyMap<string, Resource>, identifier: ResourceIdentifier): Resource | undefined {
	return index.get(keyOf(identifier));
}

/** The attribute order worked out for the last resource of each type with the same attribute names. */
type KeyOrders = Map<string, { names: string[]; order: string[] }>;

function sameNames(a: string[], b: string[]): boolean {
	if (a.length !== b.length) return false;
	for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
	return true;
}

/**
 * The order of an item's attribute keys: the type's leading attributes, other plain values, then
 * nested objects, so the first columns of n8n's table say which record a row is. Worked out once
 * per type and attribute set within a document (the resources of a page share their shape), so
 * the items of one document share one order.
 */
function keyOrder(type: string, names: string[], attributes: IDataObject, orders: KeyOrders): string[] {
	const known = orders.get(type);
	if (known !== undefined && sameNames(known.names, names)) return known.order;
	const leading = LEADING.get(type);
	const first = leading === undefined ? [] : leading.list.filter((name) => names.includes(name));
	const rest = names.filter((name) => name !== 'id' && name !== 'type' && !first.includes(name));
	const isNested = (name: string) => attributes[name] !== null && typeof attributes[name] === 'object';
	const order = [...first, ...rest.filter((name) => !isNested(name)), ...rest.filter(isNested)];
	orders.set(type, { names, order });
	return order;
}

/**
 * `copy` is off only for a primary resource met once in the document: its attribute values belong to
 * no other item, so they are moved instead of copied (about a tenth of the flattening time).
 */
function flattenResource(
	resource: Resource,
	included: IncludedIndex,
	ancestors: Set<string>,
	depth: number,
	orders: KeyOrders,
	copy = true,
): IDataObject {
	const item: IDataObject = { id: String(resource.id), type: resource.type };
	const attributes = resource.attributes;
	if (attributes !== null && typeof attributes === 'object' && !Array.isArray(attributes)) {
		const names = Object.keys(attributes);
		for (const name of keyOrder(resource.type, names, attributes, orders)) {
			setOwn(item, name, copy ? copyJson(attributes[name]) : attributes[name]);
		}
	}
	const relationships = resource.relationships;
	if (relationships === null || typeof relationships !== 'object') return item;
	const key = keyOf(resource);
	ancestors.add(key);
	for (const name of Object.keys(relationships)) {
		if (name === 'id' || name === 'type') continue;
		const relationship = relationships[name];
		if (relationship === null || typeof relationship !== 'object' || !('data' in relationship)) continue;
		const data = relationship.data;
		if (data === null || data === undefined) {
			setOwn(item, name, null);
		} else if (Array.isArray(data)) {
			setOwn(
				item,
				name,
				data.filter(isResourceIdentifier).map((related) => resolve(related, included, ancestors, depth, orders)),
			);
		} else if (isResourceIdentifier(data)) {
			setOwn(item, name, resolve(data, included, ancestors, depth, orders));
		}
	}
	ancestors.delete(key);
	return item;
}

function resolve(
	identifier: ResourceIdentifier,
	included: IncludedIndex,
	ancestors: Set<string>,
	depth: number,
	orders: KeyOrders,
): IDataObject {
	const key = keyOf(identifier);
	const full = included.get(key);
	if (full === undefined || ancestors.has(key) || depth >= MAX_DEPTH) {
		return { id: String(identifier.id), type: identifier.type };
	}
	return flattenResource(full, included, ancestors, depth + 1, orders);
}

/**
 * One plain item per primary resource: `{ id, type, ...attributes }` (leading attributes of the type
 * first, nested objects last), with each relationship that
 * carries `data` under its own name, resolved from `included` (or `{ id, type }`), `[...]` for
 * to-many, `null` when empty. A resource met again on its own path is cut to `{ id, type }`.
 * Items share no object with each other; they may take over objects of the document they come from.
 */
export function flatten(document: Document): IDataObject[] {
	const included = indexIncluded(document);
	const seen = new Set<Resource>();
	const orders: KeyOrders = new Map();
	return primaryResources(document).map((resource) => {
		const repeated = seen.has(resource);
		seen.add(resource);
		return flattenResource(resource, included, new Set(), 0, orders, repeated);
	});
}

/** The primary resources of a document, as an array (empty for `data: null`). */
export function primaryResources(document: Document): Resource[] {
	const data = document.data;
	if (Array.isArray(data)) return data.filter(isResourceIdentifier);
	if (isResourceIdentifier(data)) return [data];
	return [];
}

/** The resource objects as the service sent them, each a fresh copy. */
export function rawResources(document: Document): IDataObject[] {
	return primaryResources(document).map((resource) => copyJson(resource) as IDataObject);
}

export type RelationshipValue = ResourceIdentifier | ResourceIdentifier[] | null;

/** A create (no id) or update (id) document; only the members given are sent. */
export function buildResourceDocument(input: {
	type: string;
	id?: string;
	attributes?: IDataObject;
	relationships?: Record<string, RelationshipValue>;
}): { data: IDataObject } {
	const data: IDataObject = { type: input.type };
	if (input.id !== undefined) data.id = String(input.id);
	if (input.attributes && Object.keys(input.attributes).length > 0) {
		data.attributes = input.attributes;
	}
	if (input.relationships && Object.keys(input.relationships).length > 0) {
		const relationships: IDataObject = {};
		for (const [name, value] of Object.entries(input.relationships)) {
			relationships[name] = { data: value } as IDataObject;
		}
		data.relationships = relationships;
	}
	return { data };
}

/** The error objects of an error document; empty when the body is not one. */
export function readErrors(body: unknown): ErrorObject[] {
	if (body === null || typeof body !== 'object') return [];
	const errors = (body as Document).errors;
	if (!Array.isArray(errors)) return [];
	return errors
		.filter((error): error is ErrorObject => error !== null && typeof error === 'object')
		.map((error) => ({
			status: error.status === undefined ? undefined : String(error.status),
			code: typeof error.code === 'string' ? error.code : undefined,
			title: typeof error.title === 'string' ? error.title : undefined,
			detail: typeof error.detail === 'string' ? error.detail : undefined,
			source:
				error.source && typeof error.source === 'object'
					? {
							pointer: typeof error.source.pointer === 'string' ? error.source.pointer : undefined,
							parameter:
								typeof error.source.parameter === 'string' ? error.source.parameter : undefined,
							header: typeof error.source.header === 'string' ? error.source.header : undefined,
						}
					: undefined,
		}));
}

export interface QueryParameters {
	filter?: string;
	sort?: string;
	include?: string;
	/** Sparse fieldsets, keyed by resource type. */
	fields?: Record<string, string>;
	pageSize?: number;
	pageNumber?: number;
	/** Further parameters as the caller named them (a Custom Request's Query Parameters), in order, before the page. */
	extra?: ReadonlyArray<readonly [string, string]>;
}

/** `%5B`/`%5D` for brackets, as the service writes its own links. */
function encodeKey(key: string): string {
	return encodeURIComponent(key);
}

/**
 * The query string for a request, without the leading `?`. Empty values are left out entirely:
 * the service answers an empty `filter=` or `page[size]=` with 400.
 */
export function buildQueryString(query: QueryParameters): string {
	const parts: string[] = [];
	const add = (key: string, value: string | number | undefined) => {
		if (value === undefined) return;
		const text = String(value);
		if (text === '') return;
		parts.push(`${encodeKey(key)}=${encodeURIComponent(text)}`);
	};
	add('filter', query.filter);
	add('sort', query.sort);
	add('include', query.include);
	for (const [type, fieldList] of Object.entries(query.fields ?? {})) add(`fields[${type}]`, fieldList);
	for (const [key, value] of query.extra ?? []) add(key, value);
	add('page[size]', query.pageSize);
	add('page[number]', query.pageNumber);
	return parts.join('&');
}
