/**
 * Query string handling as JsonApiDotNetCore does it: decoding, which parameters an endpoint
 * accepts, and parsing of filter, sort, page, include and fields.
 */
import { ApiError, ParseError, queryError } from './errors';
import { AttrChain, FilterNode, ToManyChain, parseFilter, resolveAttrChain, resolveToManyChain, tokenize } from './filter';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, TYPES, isHiddenRel } from './schema';

export type QueryFamily = 'filter' | 'sort' | 'page' | 'include' | 'fields';

/** Decodes one query component (`+` is a space). Returns undefined for invalid escapes. */
export function decodeComponent(text: string): string | undefined {
	try {
		return decodeURIComponent(text.replace(/\+/g, ' '));
	} catch {
		return undefined;
	}
}

/** Splits a raw query into decoded key/value pairs, in order. */
export function decodeQuery(raw: string): Array<[string, string]> {
	const pairs: Array<[string, string]> = [];
	if (!raw) return pairs;
	for (const part of raw.split('&')) {
		if (part === '') continue;
		const eq = part.indexOf('=');
		const rawKey = eq < 0 ? part : part.slice(0, eq);
		const rawValue = eq < 0 ? '' : part.slice(eq + 1);
		const key = decodeComponent(rawKey);
		const value = decodeComponent(rawValue);
		if (key === undefined || value === undefined) {
			throw queryError(rawKey, 'The query string is invalid.', `Query string parameter '${rawKey}' is not correctly percent-encoded.`);
		}
		pairs.push([key, value]);
	}
	return pairs;
}

/** For the request log: decoded parameters, repeated keys joined with '\n'; undecodable parts kept raw. */
export function queryForLog(raw: string): Record<string, string> {
	const out: Record<string, string> = {};
	if (!raw) return out;
	for (const part of raw.split('&')) {
		if (part === '') continue;
		const eq = part.indexOf('=');
		const rawKey = eq < 0 ? part : part.slice(0, eq);
		const rawValue = eq < 0 ? '' : part.slice(eq + 1);
		const key = decodeComponent(rawKey) ?? rawKey;
		const value = decodeComponent(rawValue) ?? rawValue;
		out[key] = key in out ? `${out[key]}\n${value}` : value;
	}
	return out;
}

export interface SortKey {
	descending: boolean;
	field?: AttrChain;
	count?: ToManyChain;
	text: string;
}

export interface IncludeNode {
	children: Map<string, IncludeNode>;
}

export interface ParsedQuery {
	/** OR of every `filter` parameter. */
	filter?: FilterNode;
	/** Sort keys; empty means the default (`id` ascending). */
	sort: SortKey[];
	pageSize: number;
	pageNumber: number;
	include: IncludeNode;
	includePaths: string[];
	/** Sparse fieldsets keyed by resource type. */
	fields: Map<string, Set<string>>;
	/** Every decoded pair, in order (for building links). */
	pairs: Array<[string, string]>;
}

const TITLES: Record<QueryFamily, string> = {
	filter: 'The specified filter is invalid.',
	sort: 'The specified sort is invalid.',
	page: 'The specified pagination is invalid.',
	include: 'The specified include is invalid.',
	fields: 'The specified fieldset is invalid.',
};

function familyOf(key: string): QueryFamily | undefined {
	if (key === 'filter') return 'filter';
	if (key === 'sort') return 'sort';
	if (key === 'include') return 'include';
	if (key === 'page[size]' || key === 'page[number]') return 'page';
	if (/^fields\[[^\]]*\]$/.test(key)) return 'fields';
	return undefined;
}

function parseFailure(parameter: string, family: QueryFamily, value: string, error: unknown): ApiError {
	if (error instanceof ParseError) return queryError(parameter, TITLES[family], error.detailFor(value));
	throw error;
}

/** Rough values for the cost model, read before validation (never throws). */
export function costHints(raw: string): { pageNumber: number; sortKeys: string[]; includePaths: string[] } {
	const query = queryForLog(raw);
	const pageNumber = Number.parseInt(query['page[number]'] ?? '1', 10);
	return {
		pageNumber: Number.isFinite(pageNumber) ? pageNumber : 1,
		sortKeys: (query.sort ?? '').split(/[,\n]/).filter((s) => s !== ''),
		includePaths: (query.include ?? '').split(/[,\n]/).filter((s) => s !== ''),
	};
}

export interface QueryContext {
	/** Resource type of the primary data. */
	type: string;
	/** Parameter families this endpoint accepts. */
	allowed: ReadonlySet<QueryFamily>;
	/** Whether the primary data is a single resource (words the error for collection-only parameters). */
	single: boolean;
}

/** Parses and validates the query string for an endpoint. Throws `ApiError` (400). */
export function parseQuery(raw: string, ctx: QueryContext): ParsedQuery {
	const pairs = decodeQuery(raw);
	const result: ParsedQuery = {
		sort: [],
		pageSize: DEFAULT_PAGE_SIZE,
		pageNumber: 1,
		include: { children: new Map() },
		includePaths: [],
		fields: new Map(),
		pairs,
	};
	// Group by key in order of first appearance; repeated values are joined with ',' (ASP.NET's
	// StringValues), except filter, whose values are read one by one and OR-ed.
	const grouped = new Map<string, string[]>();
	for (const [key, value] of pairs) {
		const list = grouped.get(key);
		if (list) list.push(value);
		else grouped.set(key, [value]);
	}
	const filters: FilterNode[] = [];
	for (const [key, values] of grouped) {
		const family = familyOf(key);
		if (!family) {
			if (/^filter\[/.test(key)) {
				throw queryError(key, TITLES.filter, `Scoped filters ('${key}') are not supported by this service.`);
			}
			throw queryError(
				key,
				'Unknown query string parameter.',
				`Query string parameter '${key}' is unknown. Set 'AllowUnknownQueryStringParameters' to 'true' in options to ignore unknown parameters.`,
			);
		}
		const joined = values.join(',');
		if (family !== 'fields' && values.some((v) => v === '')) {
			throw queryError(key, 'Missing query string parameter value.', `Missing value for '${key}' query string parameter.`);
		}
		if (!ctx.allowed.has(family)) {
			if (ctx.single && (family === 'filter' || family === 'sort' || family === 'page')) {
				throw queryError(
					key,
					TITLES[family],
					'This query string parameter can only be used on a collection of resources (not on a single resource).',
				);
			}
			throw queryError(
				key,
				'Usage of one or more query string parameters is not allowed at the requested endpoint.',
				`The parameter '${key}' cannot be used at this endpoint.`,
			);
		}
		switch (family) {
			case 'filter':
				for (const value of values) {
					try {
						filters.push(parseFilter(value, ctx.type));
					} catch (error) {
						throw parseFailure(key, family, value, error);
					}
				}
				break;
			case 'sort':
				try {
					result.sort = parseSort(joined, ctx.type);
				} catch (error) {
					throw parseFailure(key, family, joined, error);
				}
				break;
			case 'page':
				try {
					const n = parsePageValue(joined);
					if (key === 'page[size]') {
						if (n < 1) throw new ParseError('Page size cannot be negative or zero.', 1);
						if (n > MAX_PAGE_SIZE) throw new ParseError(`Page size cannot be higher than ${MAX_PAGE_SIZE}.`, 1);
						result.pageSize = n;
					} else {
						if (n < 1) throw new ParseError('Page number cannot be negative or zero.', 1);
						result.pageNumber = n;
					}
				} catch (error) {
					throw parseFailure(key, family, joined, error);
				}
				break;
			case 'include':
				if (TYPES[ctx.type]?.noInclude) {
					throw queryError(key, TITLES.include, `Including related resources is not supported for resource type '${ctx.type}'.`);
				}
				try {
					result.includePaths = parseInclude(joined, ctx.type, result.include);
				} catch (error) {
					throw parseFailure(key, family, joined, error);
				}
				break;
			case 'fields': {
				const type = key.slice('fields['.length, -1);
				if (!TYPES[type]) throw queryError(key, TITLES.fields, `Resource type '${type}' does not exist.`);
				try {
					result.fields.set(type, parseFields(joined, type));
				} catch (error) {
					throw parseFailure(key, family, joined, error);
				}
				break;
			}
		}
	}
	if (filters.length === 1) result.filter = filters[0];
	else if (filters.length > 1) result.filter = { kind: 'or', filters };
	return result;
}

function parsePageValue(value: string): number {
	if (/\s/.test(value)) {
		const at = value.search(/\s/);
		throw new ParseError('Unexpected whitespace.', at + 1);
	}
	if (!/^-?\d+$/.test(value)) throw new ParseError('Value must be an integer.', 1);
	const n = Number(value);
	if (n > 2147483647 || n < -2147483648) throw new ParseError('Value must be an integer.', 1);
	return n;
}

/** Comma-separated keys; `-` for descending; a key is a field chain or `count(toMany)`. */
export function parseSort(value: string, type: string): SortKey[] {
	const tokens = tokenize(value);
	const keys: SortKey[] = [];
	let i = 0;
	const endPos = value.length + 1;
	for (;;) {
		const token = tokens[i];
		if (!token || token.kind !== 'text') throw new ParseError('Field name expected.', token?.pos ?? endPos);
		const descending = token.value.startsWith('-');
		const name = descending ? token.value.slice(1) : token.value;
		const namePos = token.pos + (descending ? 1 : 0);
		i++;
		if (name === 'count' && tokens[i]?.kind === 'open') {
			const arg = tokens[i + 1];
			if (!arg || arg.kind !== 'text') throw new ParseError('Field name expected.', arg?.pos ?? endPos);
			const chain = resolveToManyChain(type, arg.value, arg.pos);
			if (tokens[i + 2]?.kind !== 'close') throw new ParseError(') expected.', tokens[i + 2]?.pos ?? endPos);
			i += 3;
			keys.push({ descending, count: chain, text: token.value });
		} else {
			keys.push({ descending, field: resolveAttrChain(type, name, namePos, 'Sorting'), text: token.value });
		}
		const next = tokens[i];
		if (!next) break;
		if (next.kind !== 'comma') throw new ParseError(', expected.', next.pos);
		i++;
	}
	return keys;
}

/** Comma-separated relationship paths with dots for nesting; fills `root`, returns the paths. */
export function parseInclude(value: string, type: string, root: IncludeNode): string[] {
	const tokens = tokenize(value);
	const paths: string[] = [];
	let i = 0;
	const endPos = value.length + 1;
	for (;;) {
		const token = tokens[i];
		if (!token || token.kind !== 'text') throw new ParseError('Relationship name expected.', token?.pos ?? endPos);
		let current = type;
		let node = root;
		let offset = 0;
		for (const name of token.value.split('.')) {
			const pos = token.pos + offset;
			offset += name.length + 1;
			if (name === '') throw new ParseError('Relationship name expected.', pos);
			const rel = TYPES[current]?.rels[name];
			if (!rel || isHiddenRel(current, name)) {
				throw new ParseError(`Relationship '${name}' does not exist on resource type '${current}'.`, pos);
			}
			let child = node.children.get(name);
			if (!child) {
				child = { children: new Map() };
				node.children.set(name, child);
			}
			node = child;
			current = rel.target;
		}
		paths.push(token.value);
		i++;
		const next = tokens[i];
		if (!next) break;
		if (next.kind !== 'comma') throw new ParseError(', expected.', next.pos);
		i++;
	}
	return paths;
}

/** Comma-separated attribute and relationship names of `type` (`id` is accepted and ignored). */
export function parseFields(value: string, type: string): Set<string> {
	const fields = new Set<string>();
	if (value === '') return fields;
	const tokens = tokenize(value);
	let i = 0;
	const endPos = value.length + 1;
	const def = TYPES[type];
	for (;;) {
		const token = tokens[i];
		if (!token || token.kind !== 'text') throw new ParseError('Field name expected.', token?.pos ?? endPos);
		const name = token.value;
		const known = name === 'id' || (name in def.attrs && !def.attrs[name].hidden) || (name in def.rels && !isHiddenRel(type, name));
		if (!known) throw new ParseError(`Field '${name}' does not exist on resource type '${type}'.`, token.pos);
		fields.add(name);
		i++;
		const next = tokens[i];
		if (!next) break;
		if (next.kind !== 'comma') throw new ParseError(', expected.', next.pos);
		i++;
	}
	return fields;
}
