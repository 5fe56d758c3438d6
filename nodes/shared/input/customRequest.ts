/**
 * What a Custom Request's user types, checked before anything is sent: the method, the path below
 * /jsonapi, the query parameters and the JSON:API body. Each problem names the parameter as the
 * editor shows it.
 */
import type { IDataObject, IHttpRequestMethods, INode } from 'n8n-workflow';

import { invalidParameter } from '../errors/factory';

/** The methods the service's JSON:API endpoints take. */
export const CUSTOM_METHODS = ['DELETE', 'GET', 'PATCH', 'POST'] as const satisfies readonly IHttpRequestMethods[];

export type CustomMethod = (typeof CUSTOM_METHODS)[number];

/** Methods whose request carries a body. */
export const METHODS_WITH_BODY: readonly CustomMethod[] = ['PATCH', 'POST'];

export const PATH_EXAMPLES = '/integrations, /deals/10001/dealNotes or /deal-notes/3000001';

/** Quoted, at most 100 characters: enough to recognise a value in a message. */
function shown(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
	return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
}

export function customMethod(node: INode, value: unknown, itemIndex: number): CustomMethod {
	const method = String(value ?? '').trim().toUpperCase();
	if ((CUSTOM_METHODS as readonly string[]).includes(method)) return method as CustomMethod;
	throw invalidParameter(node, 'Method', `must be one of ${CUSTOM_METHODS.join(', ')}; got ${shown(value)}`, itemIndex);
}

/** A path segment: unreserved characters and percent-escapes, as the service's own links write them. */
const SEGMENT = /^(?:[A-Za-z0-9._~-]|%[0-9A-Fa-f]{2})+$/;

/**
 * The path below /jsonapi, with a leading slash and without /jsonapi: `/integrations`,
 * `integrations` and `/jsonapi/integrations` are the same. Never another host, a query (it belongs
 * in Query Parameters), a fragment or a `.`/`..` segment, written plainly or escaped, so the
 * request cannot leave the credential's Base URL.
 */
export function customPath(node: INode, value: unknown, itemIndex: number): string {
	const problem = `must be a path below /jsonapi such as ${PATH_EXAMPLES}, without a host, query or "..": put query parameters under Query Parameters; got ${shown(value)}`;
	if (typeof value !== 'string') throw invalidParameter(node, 'Path', problem, itemIndex);
	let path = value.trim();
	if (path === '' || path.startsWith('//') || /[?#\\\s]/.test(path) || /^[a-z][a-z0-9+.-]*:/i.test(path)) {
		throw invalidParameter(node, 'Path', problem, itemIndex);
	}
	if (!path.startsWith('/')) path = `/${path}`;
	path = path.replace(/^\/jsonapi(?=\/|$)/i, '').replace(/\/$/, '');
	const segments = path.split('/').slice(1);
	const valid =
		segments.length > 0 &&
		segments.every((segment) => {
			if (!SEGMENT.test(segment)) return false;
			const decoded = decodeURIComponent(segment);
			return decoded !== '.' && decoded !== '..' && !/[/\\]/.test(decoded);
		});
	if (!valid) throw invalidParameter(node, 'Path', problem, itemIndex);
	return `/${segments.join('/')}`;
}

/**
 * Query Parameters (`{ parameters: [{ name, value }] }`, as n8n's HTTP Request node has them) as
 * name/value pairs in order. A row without a value is left out, as the node leaves out every empty
 * query value (the service answers an empty one with 400). Paging is the node's (Return All,
 * Limit), so `page[…]` cannot be set.
 */
export function customQuery(node: INode, value: unknown, itemIndex: number): Array<[string, string]> {
	const rows = (value as { parameters?: unknown } | undefined)?.parameters;
	if (rows === undefined || rows === null) return [];
	if (!Array.isArray(rows)) throw invalidParameter(node, 'Query Parameters', `must be a list of name and value pairs; got ${shown(rows)}`, itemIndex);
	const pairs: Array<[string, string]> = [];
	for (const row of rows as Array<{ name?: unknown; value?: unknown }>) {
		const name = String(row?.name ?? '').trim();
		const text = row?.value === undefined || row.value === null ? '' : typeof row.value === 'object' ? JSON.stringify(row.value) : String(row.value);
		if (name === '' && text === '') continue;
		if (name === '') throw invalidParameter(node, 'Query Parameters', `has a value without a name: ${shown(text)}`, itemIndex);
		let decodedName = name;
		try {
			decodedName = decodeURIComponent(name);
		} catch {
			// Kept as typed; the service says what it makes of it.
		}
		if (/^page\[/i.test(decodedName)) {
			throw invalidParameter(node, 'Query Parameters', `cannot set ${decodedName}: the node pages by itself (Return All, Limit)`, itemIndex);
		}
		if (text !== '') pairs.push([decodedName, text]);
	}
	return pairs;
}

const BODY_EXAMPLE = '{"data": {"type": "deal-notes", "attributes": {"title": "Call back"}, "relationships": {"deal": {"data": {"type": "deals", "id": "10001"}}}}}';

/**
 * The JSON Body of a POST or PATCH: a JSON:API document, checked for what the service would refuse
 * anyway (no `data`, a resource without `type`, a numeric `id`, on PATCH an `id` other than the
 * path's), so the mistake is named before anything is sent.
 */
export function customBody(node: INode, value: unknown, method: CustomMethod, path: string, itemIndex: number): IDataObject {
	let body: unknown = value;
	if (typeof value === 'string') {
		if (value.trim() === '') throw invalidParameter(node, 'JSON Body', `is required for ${method}, e.g. ${BODY_EXAMPLE}`, itemIndex);
		try {
			body = JSON.parse(value) as unknown;
		} catch (error) {
			throw invalidParameter(node, 'JSON Body', `is not valid JSON (${(error as Error).message})`, itemIndex);
		}
	}
	if (body === null || typeof body !== 'object' || Array.isArray(body) || !('data' in body)) {
		throw invalidParameter(node, 'JSON Body', `must be a JSON:API document with "data", e.g. ${BODY_EXAMPLE}`, itemIndex);
	}
	const data = (body as { data: unknown }).data;
	const resources = data === null ? [] : Array.isArray(data) ? data : [data];
	for (const resource of resources as unknown[]) {
		const member = resource as { type?: unknown; id?: unknown } | null;
		if (member === null || typeof member !== 'object' || Array.isArray(member) || typeof member.type !== 'string' || member.type.trim() === '') {
			throw invalidParameter(node, 'JSON Body', `needs "type" in every resource of "data" (the resource type, e.g. "deal-notes"); got ${shown(resource)}`, itemIndex);
		}
		if (member.id !== undefined && typeof member.id !== 'string') {
			throw invalidParameter(node, 'JSON Body', `has "id": ${shown(member.id)}; IDs are strings in JSON:API, e.g. "3000001"`, itemIndex);
		}
	}
	// Updating a resource (not a relationship): the id in the body is the id at the end of the path.
	const single = data !== null && !Array.isArray(data) ? (data as { id?: string }) : undefined;
	if (method === 'PATCH' && single !== undefined && !path.includes('/relationships/')) {
		const pathId = decodeURIComponent(path.split('/').pop() ?? '');
		if (single.id !== pathId) {
			throw invalidParameter(node, 'JSON Body', `must name the resource it changes: "data.id" is ${shown(single.id ?? '(missing)')} but the Path ends in ${shown(pathId)}`, itemIndex);
		}
	}
	return body as IDataObject;
}
