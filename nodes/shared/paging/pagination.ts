/**
 * The one pagination routine for every collection read.
 *
 * The next request is always computed here, never taken from `links.next`: the service builds its
 * links from the host it saw, which behind a proxy can be an internal address. `links.next` only
 * says "there is more".
 *
 * In id order with Requests in Parallel > 1, the id space is paged in ranges at once
 * (parallelKeyset.ts, planned by keyRanges.ts; this file turns its keys into requests): over a real
 * network nearly all of a long read is waiting for answers.
 *
 * A read can also be ordered by an attribute with the id as tie-breaker (`keysetAttribute`, e.g.
 * the trigger's `sort=updated,id`) and still page by keyset, after the last record's (value, id),
 * and it can be bounded: at most `maxRequests` requests, or until `onPage` says 'stop'. The outcome
 * says whether the service had no more (`exhausted`), so a bounded reader can continue later.
 */
import type { IHttpRequestMethods, NodeApiError } from 'n8n-workflow';

import { apiError } from '../errors/factory';
import type { Explain } from '../errors/hints';
import type { Document, QueryParameters, Resource } from '../service/jsonapi';
import { primaryResources } from '../service/jsonapi';
import { combineFilters, quoteLiteral } from '../input/query';
import type { RequestContext } from '../requests/runContext';
import { runContextOf } from '../requests/runContext';
import type { ApiResponse } from '../requests/transport';
import { apiRequest } from '../requests/transport';
import type { KeyedPage, KeyPageSource } from './parallelKeyset';
import { readKeyRanges } from './parallelKeyset';

/** The service's default and maximum page size. */
export const MAX_PAGE_SIZE = 100;

/** A hard stop far beyond any real collection, so a misbehaving server can never loop forever. */
const MAX_PAGES = 100_000;

export interface PaginateOptions {
	path: string;
	query?: Omit<QueryParameters, 'pageSize' | 'pageNumber'>;
	/** Undefined: every resource. */
	limit?: number;
	itemIndex?: number;
	/** Acts as this adviser instead of the credential's User ID. */
	userId?: string;
	/** Whether the endpoint takes `filter` (related-collection endpoints do not). */
	supportsFilter: boolean;
	/**
	 * Called with each page's document, primary data trimmed to the limit, in the requested order.
	 * 'stop' ends a page-after-page read after this page (bounded and `keysetAttribute` reads are
	 * page after page; a parallel read in id order delivers every page it fetched).
	 */
	onPage: (document: Document) => PageVerdict | Promise<PageVerdict>;
	/** Called with every answer, empty pages included (the trigger reads the service's clock from it). */
	onResponse?: (response: ApiResponse) => void;
	/**
	 * Whether id ranges may be paged at once when the order is by id: as many as the run's Requests
	 * in Parallel (runContext.ts), which the transport holds the run to. Unset: page after page.
	 */
	idRangesAtOnce?: boolean;
	/** What a rejected page's error explains (a collection read's filter and sort). */
	explain?: Explain;
	/**
	 * Page by keyset on (this attribute, id) instead of by page number: `query.sort` must be
	 * `<attribute>,id` or `-<attribute>,-id`, and every record must carry the attribute (mind sparse
	 * fieldsets). Each page is then page 1, filtered to the records after the previous page's last.
	 */
	keysetAttribute?: string;
	/** Most requests the read may send; it then stops (not `exhausted`). Undefined: no bound. */
	maxRequests?: number;
	/**
	 * The first page, already read without page parameters (a Custom Request learns only from the
	 * answer whether its path is a collection). Paging goes on from page 2 by page number, with
	 * pages the size of this one.
	 */
	firstPage?: Document;
}

/** `onPage`'s answer: nothing (go on) or 'stop' (this page is the last one read). */
export type PageVerdict = void | 'stop';

export interface PageReadOutcome {
	/** Records handed to `onPage`. */
	delivered: number;
	/** The service has no record after the last one delivered (false when a limit, the request budget or 'stop' ended the read). */
	exhausted: boolean;
}

type KeysetDirection = 'ascending' | 'descending';

/**
 * Keyset paging (`greaterThan(id,'<last id>')`, page 1 every time) is used where the order is by
 * id: it avoids the service's rate-limit multiplier for `page[number]` > 1 and cannot skip or repeat
 * records that are added while paging.
 */
function keysetDirection(sort: string | undefined, supportsFilter: boolean): KeysetDirection | undefined {
	if (!supportsFilter) return undefined;
	const keys = (sort ?? '').split(',').filter((key) => key !== '');
	if (keys.length === 0 || (keys.length === 1 && keys[0] === 'id')) return 'ascending';
	if (keys.length === 1 && keys[0] === '-id') return 'descending';
	return undefined;
}

function keysetFilter(userFilter: string | undefined, direction: KeysetDirection, lastId: string): string | undefined {
	return combineFilters([userFilter, idAfter(direction, lastId)]);
}

function idAfter(direction: KeysetDirection, lastId: string): string {
	return `${direction === 'ascending' ? 'greaterThan' : 'lessThan'}(id,${quoteLiteral(lastId)})`;
}

/** Where the page after a record starts, in the read's order. */
interface Keyset {
	/** The filter term for the records after `last`. */
	after(last: Resource): string;
	/** Whether a page holds a record at or before `last`: the service did not page as asked. */
	wentBack(last: Resource, resources: Resource[]): boolean;
}

function idKeyset(direction: KeysetDirection): Keyset {
	const before = (id: string, last: string) => (direction === 'ascending' ? Number(id) <= Number(last) : Number(id) >= Number(last));
	return {
		after: (last) => idAfter(direction, String(last.id)),
		wentBack: (last, resources) => resources.some((resource) => before(String(resource.id), String(last.id))),
	};
}

/**
 * The records after (value, id) in the order `<attribute>,id` (or both descending). The service
 * sorts null first ascending (so last descending), and compares values with its own collation,
 * which `greaterThan`/`equals` share with `sort`. Values are sent exactly as the service wrote them
 * (a stamp with more digits than JavaScript keeps must match itself).
 */
export function attributeThenIdAfter(attribute: string, direction: KeysetDirection, value: unknown, id: string): string {
	const sameValueLaterId = (valueTerm: string) => `and(${valueTerm},${idAfter(direction, id)})`;
	if (value === null) {
		const laterNull = sameValueLaterId(`equals(${attribute},null)`);
		return direction === 'ascending' ? `or(not(equals(${attribute},null)),${laterNull})` : laterNull;
	}
	const literal = quoteLiteral(String(value));
	const later = `${direction === 'ascending' ? 'greaterThan' : 'lessThan'}(${attribute},${literal})`;
	const terms = [later, sameValueLaterId(`equals(${attribute},${literal})`)];
	if (direction === 'descending') terms.push(`equals(${attribute},null)`);
	return `or(${terms.join(',')})`;
}

function attributeKeyset(context: RequestContext, options: PaginateOptions, attribute: string): Keyset {
	const keys = (options.query?.sort ?? '').split(',');
	const direction: KeysetDirection | undefined =
		keys.length === 2 && keys[0] === attribute && keys[1] === 'id' ? 'ascending' : keys.length === 2 && keys[0] === `-${attribute}` && keys[1] === '-id' ? 'descending' : undefined;
	if (direction === undefined || !options.supportsFilter) {
		// A caller's mistake, not the service's: the order and the keyset must agree.
		throw new TypeError(`keysetAttribute ${attribute} needs sort ${attribute},id or -${attribute},-id on a filterable collection`);
	}
	const valueOf = (resource: Resource): unknown => {
		const value = resource.attributes?.[attribute];
		if (value === undefined) throw apiError(context.getNode(), 'keysetValueMissing', { path: options.path, attribute }, { itemIndex: options.itemIndex });
		return value;
	};
	/** Whether `resource` comes before `last` in the read's order, where that can be told here. */
	const before = (resource: Resource, last: Resource): boolean => {
		const [value, lastValue] = [valueOf(resource), valueOf(last)];
		// Text (stamps included) compares by the service's collation and precision: not judged here.
		if (typeof value !== 'number' || typeof lastValue !== 'number') return false;
		const order = value !== lastValue ? value - lastValue : Number(resource.id) - Number(last.id);
		return direction === 'ascending' ? order < 0 : order > 0;
	};
	return {
		after: (last) => attributeThenIdAfter(attribute, direction, valueOf(last), String(last.id)),
		wentBack: (last, resources) => resources.some((resource) => String(resource.id) === String(last.id) || before(resource, last)),
	};
}

function idsOf(resources: Resource[]): string[] {
	return resources.map((resource) => String(resource.id));
}

function repeatedPageError(context: RequestContext, path: string, itemIndex: number | undefined): NodeApiError {
	return apiError(context.getNode(), 'repeatedPage', { path }, { itemIndex });
}

interface Page {
	document: Document;
	resources: Resource[];
	ids: string[];
	/** `links.next` was given: the service says there is more. */
	hasMore: boolean;
}

async function fetchPage(context: RequestContext, options: PaginateOptions, query: QueryParameters): Promise<Page> {
	const response = await apiRequest.call(context, {
		method: 'GET' as IHttpRequestMethods,
		path: options.path,
		query,
		itemIndex: options.itemIndex,
		userId: options.userId,
		explain: options.explain,
	});
	options.onResponse?.(response);
	const document = response.body ?? {};
	if (!Array.isArray(document.data)) {
		throw apiError(context.getNode(), 'notACollection', { path: options.path, data: document.data }, { itemIndex: options.itemIndex });
	}
	const resources = primaryResources(document);
	const hasMore = typeof document.links?.next === 'string' && document.links.next !== '';
	return { document, resources, ids: idsOf(resources), hasMore };
}

/** What one page-after-page read has done so far (a parallel read or a first page hands over to it this way). */
interface SequentialStart {
	delivered: number;
	last?: Resource;
	previousIds?: string;
	pages: number;
	/** The size of the pages read so far, when the service chose it (page-number offsets depend on it). */
	pageSize?: number;
}

async function sequential(context: RequestContext, options: PaginateOptions, keyset: Keyset | undefined, start: SequentialStart): Promise<PageReadOutcome> {
	const query = options.query ?? {};
	let { delivered, last, previousIds } = start;
	let pageNumber = start.pages + 1;
	let requests = 0;
	// Offsets of page[number] paging depend on a constant page size.
	const fixedPageSize = start.pageSize ?? Math.min(options.limit ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);

	for (let page = start.pages; page < MAX_PAGES; page++) {
		const remaining = options.limit === undefined ? Infinity : options.limit - delivered;
		if (remaining <= 0) return { delivered, exhausted: false };
		if (options.maxRequests !== undefined && requests >= options.maxRequests) return { delivered, exhausted: false };
		const pageSize = keyset ? Math.min(remaining, MAX_PAGE_SIZE) : fixedPageSize;
		const pageQuery: QueryParameters = { ...query, pageSize };
		if (keyset && last !== undefined) {
			pageQuery.filter = combineFilters([query.filter, keyset.after(last)]);
		} else if (!keyset && pageNumber > 1) {
			pageQuery.pageNumber = pageNumber;
		}

		requests += 1;
		const { document, resources, ids, hasMore } = await fetchPage(context, options, pageQuery);
		const signature = ids.join(',');
		if (ids.length > 0 && signature === previousIds) throw repeatedPageError(context, options.path, options.itemIndex);
		if (keyset && last !== undefined && ids.length > 0 && keyset.wentBack(last, resources)) throw repeatedPageError(context, options.path, options.itemIndex);
		previousIds = signature;

		const kept = resources.length > remaining ? resources.slice(0, remaining) : resources;
		const ended = resources.length === 0 || resources.length < pageSize || !hasMore;
		if (kept.length > 0) {
			const verdict = await options.onPage({ ...document, data: kept });
			delivered += kept.length;
			if (verdict === 'stop') return { delivered, exhausted: ended && kept.length === resources.length };
		}

		if (ended) return { delivered, exhausted: kept.length === resources.length };
		last = resources[resources.length - 1];
		pageNumber += 1;
	}
	return { delivered, exhausted: false };
}

export async function paginate(this: RequestContext, options: PaginateOptions): Promise<PageReadOutcome> {
	if (options.firstPage !== undefined) return await afterFirstPage(this, options, options.firstPage);
	if (options.keysetAttribute !== undefined) {
		return await sequential(this, options, attributeKeyset(this, options, options.keysetAttribute), { delivered: 0, pages: 0 });
	}
	const direction = keysetDirection(options.query?.sort, options.supportsFilter);
	const parallel = options.idRangesAtOnce === true ? runContextOf(this).requestsInParallel : 1;
	if (direction === undefined || parallel <= 1 || options.maxRequests !== undefined) {
		return await sequential(this, options, direction && idKeyset(direction), { delivered: 0, pages: 0 });
	}
	const delivered = await parallelKeyset(this, options, direction, parallel);
	return { delivered, exhausted: options.limit === undefined || delivered < options.limit };
}

/** A first page read by the caller: delivered as any page, then the read goes on page after page. */
async function afterFirstPage(context: RequestContext, options: PaginateOptions, document: Document): Promise<PageReadOutcome> {
	if (!Array.isArray(document.data)) {
		throw apiError(context.getNode(), 'notACollection', { path: options.path, data: document.data }, { itemIndex: options.itemIndex });
	}
	const resources = primaryResources(document);
	const kept = options.limit !== undefined && resources.length > options.limit ? resources.slice(0, options.limit) : resources;
	const verdict = kept.length > 0 ? await options.onPage({ ...document, data: kept }) : undefined;
	const ended = resources.length === 0 || !(typeof document.links?.next === 'string' && document.links.next !== '');
	if (ended || verdict === 'stop' || (options.limit !== undefined && kept.length >= options.limit)) {
		return { delivered: kept.length, exhausted: ended && kept.length === resources.length };
	}
	const ids = idsOf(resources);
	return await sequential(context, options, undefined, { delivered: kept.length, previousIds: ids.join(','), pages: 1, pageSize: resources.length });
}

// ---------------------------------------------------------------------------------------------
// Parallel keyset paging: the id ranges of parallelKeyset.ts as requests.

/** A page with the keys the key-range read works on. */
interface KeyedResourcePage extends Page, KeyedPage {}

/**
 * Ids are mapped to keys that grow in the requested order (the id, or minus the id for `-id`), so
 * one routine serves both directions. Only whole-number ids can be split into ranges.
 */
function isWholeNumberId(id: string): boolean {
	return /^\d{1,15}$/.test(id);
}

async function parallelKeyset(context: RequestContext, options: PaginateOptions, direction: KeysetDirection, parallel: number): Promise<number> {
	const query = options.query ?? {};
	const ascending = direction === 'ascending';
	const keyOf = (id: string): number => (ascending ? Number(id) : -Number(id));
	const idOf = (key: number): string => String(ascending ? key : -key);
	const fetchKeyed = async (pageQuery: QueryParameters): Promise<KeyedResourcePage> => {
		const page = await fetchPage(context, options, pageQuery);
		return { ...page, count: page.resources.length, keys: page.ids.every(isWholeNumberId) ? page.ids.map(keyOf) : undefined };
	};
	const source: KeyPageSource<KeyedResourcePage> = {
		first: async (size) => await fetchKeyed({ ...query, pageSize: size }),
		between: async (from, to, which) => {
			const upper = to === Infinity ? undefined : `${ascending ? 'lessOrEqual' : 'greaterOrEqual'}(id,${quoteLiteral(idOf(to))})`;
			const filter = combineFilters([keysetFilter(query.filter, direction, idOf(from)), upper]);
			if (which === 'up') return await fetchKeyed({ ...query, filter, pageSize: MAX_PAGE_SIZE });
			// The highest keys: the first page in the opposite order, handed back in the read's.
			const page = await fetchKeyed({ ...query, sort: ascending ? '-id' : 'id', filter, pageSize: MAX_PAGE_SIZE });
			const reverse = <T>(list: readonly T[]): T[] => [...list].reverse();
			return { ...page, resources: reverse(page.resources), ids: reverse(page.ids), keys: page.keys === undefined ? undefined : reverse(page.keys) };
		},
	};
	return await readKeyRanges({
		source,
		parallel,
		limit: options.limit,
		pageSize: MAX_PAGE_SIZE,
		maxPages: MAX_PAGES,
		deliver: async (page, start, end) => {
			await options.onPage({ ...page.document, data: page.resources.slice(start, end) });
		},
		handOver: async (page, delivered) =>
			(await sequential(context, options, idKeyset(direction), { delivered, last: page.resources[page.resources.length - 1], previousIds: page.ids.join(','), pages: 1 }))
				.delivered,
		outOfOrder: () => repeatedPageError(context, options.path, options.itemIndex),
	});
}
