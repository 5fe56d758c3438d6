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
	/** Called with each page's document, primary data trimmed to the limit, in the requested order. */
	onPage: (document: Document) => void | Promise<void>;
	/** Called with every answer, empty pages included (the trigger reads the service's clock from it). */
	onResponse?: (response: ApiResponse) => void;
	/** Id ranges paged at once when the order is by id; undefined or 1: one page after the other. */
	parallel?: number;
	/** What a rejected page's error explains (a collection read's filter and sort). */
	explain?: Explain;
	/**
	 * The first page, already read without page parameters (a Custom Request learns only from the
	 * answer whether its path is a collection). Paging goes on from page 2 by page number, with
	 * pages the size of this one.
	 */
	firstPage?: Document;
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
	return combineFilters([userFilter, `${direction === 'ascending' ? 'greaterThan' : 'lessThan'}(id,${quoteLiteral(lastId)})`]);
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
	lastId?: string;
	previousIds?: string;
	pages: number;
	/** The size of the pages read so far, when the service chose it (page-number offsets depend on it). */
	pageSize?: number;
}

async function sequential(
	context: RequestContext,
	options: PaginateOptions,
	direction: KeysetDirection | undefined,
	start: SequentialStart,
): Promise<number> {
	const query = options.query ?? {};
	let { delivered, lastId, previousIds } = start;
	let pageNumber = start.pages + 1;
	// Offsets of page[number] paging depend on a constant page size.
	const fixedPageSize = start.pageSize ?? Math.min(options.limit ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);

	for (let page = start.pages; page < MAX_PAGES; page++) {
		const remaining = options.limit === undefined ? Infinity : options.limit - delivered;
		if (remaining <= 0) break;
		const pageSize = direction ? Math.min(remaining, MAX_PAGE_SIZE) : fixedPageSize;
		const pageQuery: QueryParameters = { ...query, pageSize };
		if (direction && lastId !== undefined) {
			pageQuery.filter = keysetFilter(query.filter, direction, lastId);
		} else if (!direction && pageNumber > 1) {
			pageQuery.pageNumber = pageNumber;
		}

		const { document, resources, ids, hasMore } = await fetchPage(context, options, pageQuery);
		const signature = ids.join(',');
		if (ids.length > 0 && signature === previousIds) throw repeatedPageError(context, options.path, options.itemIndex);
		if (direction && lastId !== undefined && ids.length > 0) {
			const last = Number(lastId);
			const wentBack = ids.some((id) => (direction === 'ascending' ? Number(id) <= last : Number(id) >= last));
			if (wentBack) throw repeatedPageError(context, options.path, options.itemIndex);
		}
		previousIds = signature;

		const kept = resources.length > remaining ? resources.slice(0, remaining) : resources;
		if (kept.length > 0) {
			await options.onPage({ ...document, data: kept });
			delivered += kept.length;
		}

		if (resources.length === 0 || resources.length < pageSize || !hasMore) break;
		lastId = ids[ids.length - 1];
		pageNumber += 1;
	}
	return delivered;
}

export async function paginate(this: RequestContext, options: PaginateOptions): Promise<number> {
	if (options.firstPage !== undefined) return await afterFirstPage(this, options, options.firstPage);
	const direction = keysetDirection(options.query?.sort, options.supportsFilter);
	if (direction === undefined || (options.parallel ?? 1) <= 1) {
		return await sequential(this, options, direction, { delivered: 0, pages: 0 });
	}
	return await parallelKeyset(this, options, direction, options.parallel ?? 1);
}

/** A first page read by the caller: delivered as any page, then the read goes on page after page. */
async function afterFirstPage(context: RequestContext, options: PaginateOptions, document: Document): Promise<number> {
	if (!Array.isArray(document.data)) {
		throw apiError(context.getNode(), 'notACollection', { path: options.path, data: document.data }, { itemIndex: options.itemIndex });
	}
	const resources = primaryResources(document);
	const kept = options.limit !== undefined && resources.length > options.limit ? resources.slice(0, options.limit) : resources;
	if (kept.length > 0) await options.onPage({ ...document, data: kept });
	const hasMore = typeof document.links?.next === 'string' && document.links.next !== '';
	if (!hasMore || resources.length === 0 || (options.limit !== undefined && kept.length >= options.limit)) return kept.length;
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
	const run = runContextOf(context);
	const fetchKeyed = async (pageQuery: QueryParameters): Promise<KeyedResourcePage> => {
		const page = await run.inRequestSlot(parallel, async () => await fetchPage(context, options, pageQuery));
		return { ...page, count: page.resources.length, keys: page.ids.every(isWholeNumberId) ? page.ids.map(keyOf) : undefined };
	};
	let first: KeyedResourcePage | undefined;
	const source: KeyPageSource<KeyedResourcePage> = {
		first: async (size) => (first = await fetchKeyed({ ...query, pageSize: size })),
		last: async () => {
			const ids = first?.ids ?? [];
			const page = await fetchKeyed({
				...query,
				sort: ascending ? '-id' : 'id',
				filter: keysetFilter(query.filter, direction, ids[ids.length - 1]),
				pageSize: MAX_PAGE_SIZE,
			});
			// Asked for in the opposite order; handed back in the read's.
			const resources = [...page.resources].reverse();
			return { ...page, resources, ids: [...page.ids].reverse(), keys: page.keys === undefined ? undefined : [...page.keys].reverse() };
		},
		between: async (from, to) => {
			const upper = to === Infinity ? undefined : `${ascending ? 'lessOrEqual' : 'greaterOrEqual'}(id,${quoteLiteral(idOf(to))})`;
			return await fetchKeyed({ ...query, filter: combineFilters([keysetFilter(query.filter, direction, idOf(from)), upper]), pageSize: MAX_PAGE_SIZE });
		},
	};
	return await readKeyRanges({
		source,
		parallel,
		limit: options.limit,
		pageSize: MAX_PAGE_SIZE,
		maxPages: MAX_PAGES,
		deliver: async (page, start, end) => await options.onPage({ ...page.document, data: page.resources.slice(start, end) }),
		handOver: async (page, delivered) =>
			await sequential(context, options, direction, { delivered, lastId: page.ids[page.ids.length - 1], previousIds: page.ids.join(','), pages: 1 }),
		outOfOrder: () => repeatedPageError(context, options.path, options.itemIndex),
	});
}
