/**
 * The one pagination routine for every collection read.
 *
 * The next request is always computed here, never taken from `links.next`: the service builds its
 * links from the host it saw, which behind a proxy can be an internal address. `links.next` only
 * says "there is more".
 *
 * In id order with Requests in Parallel > 1, the id space is paged in ranges at once (see
 * `parallelKeyset`): over a real network nearly all of a long read is waiting for answers.
 */
import type { IHttpRequestMethods, NodeApiError } from 'n8n-workflow';

import { apiError } from '../errors/factory';
import type { Explain } from '../errors/hints';
import type { Document, QueryParameters, Resource } from '../service/jsonapi';
import { primaryResources } from '../service/jsonapi';
import { inParallel } from '../requests/parallel';
import type { RequestContext } from '../requests/runContext';
import { runContextOf } from '../requests/runContext';
import type { ApiResponse } from '../requests/transport';
import { apiRequest } from '../requests/transport';

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

function quoted(id: string): string {
	return `'${id.replace(/'/g, "''")}'`;
}

function allOf(...conditions: Array<string | undefined>): string {
	const present = conditions.filter((condition): condition is string => condition !== undefined && condition !== '');
	return present.length === 1 ? present[0] : `and(${present.join(',')})`;
}

function keysetFilter(userFilter: string | undefined, direction: KeysetDirection, lastId: string): string {
	return allOf(userFilter, `${direction === 'ascending' ? 'greaterThan' : 'lessThan'}(id,${quoted(lastId)})`);
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

/** What one page-after-page read has done so far (a parallel read hands over to it this way). */
interface SequentialStart {
	delivered: number;
	lastId?: string;
	previousIds?: string;
	pages: number;
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
	const fixedPageSize = Math.min(options.limit ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);

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
	const direction = keysetDirection(options.query?.sort, options.supportsFilter);
	if (direction === undefined || (options.parallel ?? 1) <= 1) {
		return await sequential(this, options, direction, { delivered: 0, pages: 0 });
	}
	return await parallelKeyset(this, options, direction, options.parallel ?? 1);
}

// ---------------------------------------------------------------------------------------------
// Parallel keyset paging

/**
 * Ids are mapped to keys that grow in the requested order (the id, or minus the id for `-id`), so
 * one routine serves both directions. Only whole-number ids can be split into ranges.
 */
function isWholeNumberId(id: string): boolean {
	return /^\d{1,15}$/.test(id);
}

/**
 * A part of the key space not yet read through: keys in (`lo`, `hi`] are still to be fetched, keys
 * in (`start`, `lo`] have been, and wait in `chunks` to be emitted. `hi` is Infinity for the open
 * end of a read with a Limit, which is fetched only if the ranges before it cannot fill the Limit.
 */
interface Range {
	start: number;
	lo: number;
	hi: number;
	chunks: Document[];
	/** Records fetched into this range, emitted or not. */
	fetched: number;
	/** A worker is paging it (from `lo` upwards). */
	owned: boolean;
	/** The owner's request is on its way (it will cover some keys above `lo`). */
	inFlight: boolean;
	done: boolean;
}

function newRange(start: number, hi: number): Range {
	return { start, lo: start, hi, chunks: [], fetched: 0, owned: false, inFlight: false, done: start >= hi };
}

/** A range is split only when the busy part left is at least this many pages: a split costs a short page. */
const MIN_PAGES_TO_SPLIT = 2;

/**
 * Return All (or a Limit beyond one page) in id order, with up to `parallel` requests in flight.
 *
 * 1. The first page, exactly as page-after-page reading asks for it. A short page ends the read.
 * 2. Without a Limit: the last page (the highest ids, by the opposite sort). It is data, not a
 *    probe, and bounds the id space; if it is short, the read is complete. With a Limit the range
 *    is estimated from the first page's density instead, with an open end behind it.
 * 3. The ids in between are split into up to `parallel` ranges of equal width (bounds on whole
 *    pages by the first page's density), each paged with the keyset pattern bounded above
 *    (`and(greaterThan(id,'a'),lessOrEqual(id,'b'))`, page 1). Id spaces have gaps, so equal
 *    width is only a start: a worker whose range is finished takes over the upper half of the
 *    range that still holds the most records by its observed density.
 * 4. Pages are emitted strictly in id order; with a Limit no request is sent once the records
 *    known below a range already fill the Limit, and the open end behind the estimated ranges is
 *    read (page after page) only if they did not fill it.
 *
 * Every request is a page-1 keyset request, so each costs what a page-after-page keyset request
 * costs; an extra request is needed only where ranges meet off a whole page (a short page, or an
 * empty one after a full one). Records are never lost or
 * repeated when others are created or deleted meanwhile: every answer covers a stretch of ids
 * completely, and each id is taken from the first answer that covers it.
 */
async function parallelKeyset(
	context: RequestContext,
	options: PaginateOptions,
	direction: KeysetDirection,
	parallel: number,
): Promise<number> {
	const query = options.query ?? {};
	const limit = options.limit;
	const ascending = direction === 'ascending';
	const keyOf = (id: string): number => (ascending ? Number(id) : -Number(id));
	const idOf = (key: number): string => String(ascending ? key : -key);
	let delivered = 0;
	let pages = 0;
	let finished = false;
	const fetchInSlot = (pageQuery: QueryParameters): Promise<Page> =>
		runContextOf(context).inRequestSlot(parallel, () => fetchPage(context, options, pageQuery));

	const deliver = async (document: Document): Promise<void> => {
		const data = document.data as Resource[];
		if (finished || data.length === 0) return;
		const remaining = limit === undefined ? Infinity : limit - delivered;
		const kept = data.length > remaining ? data.slice(0, remaining) : data;
		await options.onPage({ ...document, data: kept });
		delivered += kept.length;
		if (limit !== undefined && delivered >= limit) finished = true;
	};

	// 1. The first page.
	const firstSize = Math.min(limit ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);
	const first = await fetchInSlot({ ...query, pageSize: firstSize });
	pages += 1;
	await deliver(first.document);
	if (finished || first.resources.length < firstSize || !first.hasMore) return delivered;
	const firstKeys = first.ids.map(keyOf);
	const ordered = first.ids.every(isWholeNumberId) && firstKeys.every((key, index) => index === 0 || key > firstKeys[index - 1]);
	const lastId = first.ids[first.ids.length - 1];
	if (!ordered) {
		return await sequential(context, options, direction, { delivered, lastId, previousIds: first.ids.join(','), pages });
	}
	const frontKey = firstKeys[firstKeys.length - 1];
	// Records per key from the first page: the estimate until a range has its own.
	const firstDensity = first.resources.length / (frontKey - firstKeys[0] + 1);

	const ranges: Range[] = [];
	let gapEnd: number;
	let backRange: Range | undefined;
	if (limit === undefined) {
		// 2. The last page: the highest ids above the first page, in the opposite order.
		const back = await fetchInSlot({
			...query,
			sort: ascending ? '-id' : 'id',
			filter: keysetFilter(query.filter, direction, lastId),
			pageSize: MAX_PAGE_SIZE,
		});
		pages += 1;
		const backKeys = back.ids.map(keyOf);
		const backOrdered =
			back.ids.every(isWholeNumberId) && backKeys.every((key, index) => key > frontKey && (index === 0 || key < backKeys[index - 1]));
		if (!backOrdered) throw repeatedPageError(context, options.path, options.itemIndex);
		const backDocument: Document = { ...back.document, data: [...back.resources].reverse() };
		if (back.resources.length < MAX_PAGE_SIZE || !back.hasMore) {
			await deliver(backDocument);
			return delivered;
		}
		gapEnd = backKeys[backKeys.length - 1] - 1;
		backRange = { ...newRange(gapEnd, backKeys[0]), lo: backKeys[0], chunks: [backDocument], fetched: back.resources.length, done: true };
	} else {
		gapEnd = frontKey + Math.max(1, Math.ceil((limit - delivered) / firstDensity));
	}

	// 3. Ranges of equal width between them, their bounds on whole pages as far as the density
	// tells: a range that ends on a full page needs no short page to know it is done.
	const pageSpan = MAX_PAGE_SIZE / firstDensity;
	const expectedPages = (gapEnd - frontKey) / pageSpan;
	const count = Math.max(1, Math.min(parallel, Math.ceil(expectedPages), gapEnd - frontKey));
	let start = frontKey;
	for (let index = 1; index <= count; index++) {
		const end = index === count ? gapEnd : Math.min(gapEnd, frontKey + Math.round(Math.round((expectedPages * index) / count) * pageSpan));
		if (end > start) ranges.push(newRange(start, end));
		start = Math.max(start, end);
	}
	if (backRange) ranges.push(backRange);
	else ranges.push(newRange(gapEnd, Infinity));

	let emitted = 0;
	let emitting: Promise<void> = Promise.resolve();
	/** 4. Emits every chunk that nothing before it is still missing, in order. */
	const emit = (): Promise<void> => {
		emitting = emitting.then(async () => {
			while (emitted < ranges.length && !finished) {
				const range = ranges[emitted];
				while (range.chunks.length > 0 && !finished) await deliver(range.chunks.shift() as Document);
				if (!range.done) return;
				emitted += 1;
			}
		});
		return emitting;
	};

	const densityOf = (range: Range): number => (range.lo > range.start && range.fetched > 0 ? range.fetched / (range.lo - range.start) : firstDensity);
	/** Records still to fetch in a range beyond what its request in flight will bring. */
	const expectedLeft = (range: Range): number => {
		const density = densityOf(range);
		const coming = range.inFlight ? MAX_PAGE_SIZE / density : 0;
		return Math.max(0, range.hi - range.lo - coming) * density;
	};
	/** With a Limit: the records known below this range's next request already fill it. */
	const limitCertain = (range: Range): boolean => {
		if (limit === undefined) return false;
		let known = delivered;
		for (let index = emitted; index < ranges.length; index++) {
			const candidate = ranges[index];
			known += candidate.chunks.reduce((sum, chunk) => sum + (chunk.data as Resource[]).length, 0);
			if (candidate === range) break;
		}
		return known >= limit;
	};

	const pick = (): Range | undefined => {
		for (const range of ranges) if (!range.done && !range.owned && limitCertain(range)) range.done = true;
		const waiting = ranges.find((range) => !range.done && !range.owned && range.hi !== Infinity);
		if (waiting) return waiting;
		let busiest: Range | undefined;
		for (const range of ranges) {
			if (range.done || !range.owned || range.hi === Infinity) continue;
			if (busiest === undefined || expectedLeft(range) > expectedLeft(busiest)) busiest = range;
		}
		if (busiest && expectedLeft(busiest) >= MIN_PAGES_TO_SPLIT * MAX_PAGE_SIZE) {
			const span = MAX_PAGE_SIZE / densityOf(busiest);
			const from = busiest.lo + (busiest.inFlight ? span : 0);
			// Half the pages left, on a page bound of the part that stays.
			const middle = Math.floor(from + Math.round((busiest.hi - from) / span / 2) * span);
			if (middle > busiest.lo && middle < busiest.hi) {
				const taken = newRange(middle, busiest.hi);
				busiest.hi = middle;
				ranges.splice(ranges.indexOf(busiest) + 1, 0, taken);
				return taken;
			}
		}
		// The open end (a Limit that the estimated ranges did not fill): only once they are all read,
		// page after page, so that nothing is requested that the Limit turns out not to need.
		const openEnd = ranges[ranges.length - 1];
		if (openEnd.hi === Infinity && !openEnd.done && !openEnd.owned && ranges.every((range) => range === openEnd || range.done)) return openEnd;
		return undefined;
	};

	/** Takes an answer's records into every range whose next keys it covers. */
	const take = (page: Page, from: number, to: number, size: number): void => {
		const keys = page.ids.map(keyOf);
		const inOrder = page.ids.every(isWholeNumberId) && keys.every((key, index) => key > from && key <= to && (index === 0 || key > keys[index - 1]));
		if (!inOrder) throw repeatedPageError(context, options.path, options.itemIndex);
		// A full page covers the keys up to its last one; a short one the whole span asked for.
		const coveredTo = page.resources.length >= size && page.hasMore ? keys[keys.length - 1] : to;
		for (const range of ranges) {
			if (range.done || range.lo < from || range.lo >= coveredTo) continue;
			const upTo = Math.min(range.hi, coveredTo);
			const data = page.resources.filter((_, index) => keys[index] > range.lo && keys[index] <= upTo);
			if (data.length > 0) {
				range.chunks.push({ ...page.document, data });
				range.fetched += data.length;
			}
			range.lo = upTo;
			if (range.lo >= range.hi) range.done = true;
		}
	};

	const fetchRange = async (range: Range): Promise<void> => {
		const from = range.lo;
		const to = range.hi;
		const conditions = [keysetFilter(query.filter, direction, idOf(from))];
		if (to !== Infinity) conditions.push(`${ascending ? 'lessOrEqual' : 'greaterOrEqual'}(id,${quoted(idOf(to))})`);
		pages += 1;
		if (pages > MAX_PAGES) throw repeatedPageError(context, options.path, options.itemIndex);
		range.inFlight = true;
		try {
			const page = await fetchInSlot({ ...query, filter: allOf(...conditions), pageSize: MAX_PAGE_SIZE });
			take(page, from, to, MAX_PAGE_SIZE);
		} finally {
			range.inFlight = false;
		}
		await emit();
	};

	// A worker with nothing to take waits for the next answer (which may make a range worth
	// splitting) while any range is still being read.
	let answered = (): void => undefined;
	let nextAnswer = new Promise<void>((resolve) => (answered = resolve));
	const announce = (): void => {
		const wake = answered;
		nextAnswer = new Promise<void>((resolve) => (answered = resolve));
		wake();
	};

	let failure: { error: unknown } | undefined;
	await inParallel(parallel, async () => {
		try {
			for (;;) {
				if (finished || failure) return;
				const range = pick();
				if (range === undefined) {
					if (!ranges.some((candidate) => candidate.owned)) return;
					await nextAnswer;
					continue;
				}
				range.owned = true;
				try {
					while (!range.done && !finished && !failure && !limitCertain(range)) {
						await fetchRange(range);
						announce();
					}
				} finally {
					range.owned = false;
					if (limitCertain(range)) range.done = true;
					announce();
				}
			}
		} catch (error) {
			failure ??= { error };
			announce();
		}
	});
	if (failure) throw failure.error;
	await emit();
	return delivered;
}
