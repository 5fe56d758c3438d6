/**
 * Return All (or a Limit beyond one page) in id order, with up to `parallel` requests in flight:
 * the async driver of the planning in keyRanges.ts. It knows nothing of n8n or of filters: it asks
 * a `KeyPageSource` for pages by keys, and pagination.ts turns those into requests.
 *
 * 1. The first page, exactly as page-after-page reading asks for it. A short page ends the read.
 * 2. Without a Limit: the last page (the highest keys, by the opposite sort). It is data, not a
 *    probe, and bounds the key space; if it is short, the read is complete. With a Limit the range
 *    is estimated from the first page's density instead, with an open end behind it.
 * 3. The keys in between are split into up to `parallel` ranges (`planKeyRanges`), each paged with
 *    the keyset pattern bounded above (page 1 every time). A worker whose range is finished takes
 *    over the upper half of the range that still holds the most records (`pickRange`).
 * 4. Pages are emitted strictly in key order (`nextChunk`); with a Limit no request is sent once
 *    the records known below a range already fill the Limit, and the open end behind the estimated
 *    ranges is read (page after page) only if they did not fill it.
 *
 * Every request is a page-1 keyset request, so each costs what a page-after-page keyset request
 * costs; an extra request is needed only where ranges meet off a whole page (a short page, or an
 * empty one after a full one). Records are never lost or repeated when others are created or
 * deleted meanwhile: every answer covers a stretch of keys completely, and each key is taken from
 * the first answer that covers it.
 */
import { inParallel, Signal } from '../requests/parallel';
import type { Answer, Chunk } from './keyRanges';
import { ascendingAbove, limitCertain, nextChunk, pickRange, planKeyRanges, takeAnswer } from './keyRanges';

/** A page as the read sees it: how many records, their keys, and whether the service has more. */
export interface KeyedPage {
	count: number;
	/** The records' keys in the order of the page; undefined when an id is not a whole number. */
	keys: readonly number[] | undefined;
	hasMore: boolean;
}

/** Where the pages come from (requests in the real read, an id set in unit tests). */
export interface KeyPageSource<P extends KeyedPage> {
	/** The first page, as page-after-page reading asks for it, with `size` records at most. */
	first(size: number): Promise<P>;
	/** A full page of the highest keys above the first page, handed back in ascending key order. */
	last(): Promise<P>;
	/** The first page of the keys in (`from`, `to`], ascending; `to` Infinity: no upper bound. */
	between(from: number, to: number): Promise<P>;
}

export interface KeyRangeRead<P extends KeyedPage> {
	source: KeyPageSource<P>;
	parallel: number;
	/** Undefined: every record. */
	limit: number | undefined;
	pageSize: number;
	/** A hard stop on requests; beyond it the read fails as `outOfOrder`. */
	maxPages: number;
	/** Emits records `start` … `end - 1` of a page (in key order, trimmed to the Limit). */
	deliver(page: P, start: number, end: number): Promise<void>;
	/** The first page is full but its ids are not ascending whole numbers: the caller reads on page after page. */
	handOver(first: P, delivered: number): Promise<number>;
	/** The error for answers that do not page as asked (out of order, outside the span, endless). */
	outOfOrder(): Error;
}

/** Reads every record (or up to the Limit) in key order; returns how many were delivered. */
export async function readKeyRanges<P extends KeyedPage>(read: KeyRangeRead<P>): Promise<number> {
	const { source, limit, pageSize } = read;
	let delivered = 0;
	let pages = 0;
	let finished = false;

	const deliver = async (chunk: Chunk<P>): Promise<void> => {
		const count = chunk.end - chunk.start;
		if (finished || count === 0) return;
		const remaining = limit === undefined ? Infinity : limit - delivered;
		const end = count > remaining ? chunk.start + remaining : chunk.end;
		await read.deliver(chunk.page, chunk.start, end);
		delivered += end - chunk.start;
		if (limit !== undefined && delivered >= limit) finished = true;
	};

	// 1. The first page.
	const firstSize = Math.min(limit ?? pageSize, pageSize);
	const first = await source.first(firstSize);
	pages += 1;
	await deliver({ page: first, start: 0, end: first.count });
	if (finished || first.count < firstSize || !first.hasMore) return delivered;
	const firstKeys = first.keys;
	if (firstKeys === undefined || !ascendingAbove(firstKeys, -Infinity)) return await read.handOver(first, delivered);

	// 2. Without a Limit, the last page.
	let last: { keys: readonly number[]; chunk: Chunk<P> } | undefined;
	if (limit === undefined) {
		const page = await source.last();
		pages += 1;
		if (page.keys === undefined || !ascendingAbove(page.keys, firstKeys[firstKeys.length - 1])) throw read.outOfOrder();
		const chunk = { page, start: 0, end: page.count };
		if (page.count < pageSize || !page.hasMore) {
			await deliver(chunk);
			return delivered;
		}
		last = { keys: page.keys, chunk };
	}

	// 3. The ranges between.
	const plan = planKeyRanges({ firstKeys, parallel: read.parallel, pageSize, limit, delivered, last });

	let emitting: Promise<void> = Promise.resolve();
	/** 4. Emits every chunk that nothing before it is still missing, in order. */
	const emit = (): Promise<void> => {
		emitting = emitting.then(async () => {
			for (let chunk = finished ? undefined : nextChunk(plan); chunk !== undefined; chunk = finished ? undefined : nextChunk(plan)) {
				await deliver(chunk);
			}
		});
		return emitting;
	};

	const fetchRange = async (range: (typeof plan.ranges)[number]): Promise<void> => {
		const from = range.lo;
		const to = range.hi;
		pages += 1;
		if (pages > read.maxPages) throw read.outOfOrder();
		range.inFlight = true;
		try {
			const page = await source.between(from, to);
			const answer: Answer<P> = { page, keys: page.keys, hasMore: page.hasMore };
			if (!takeAnswer(plan, answer, from, to)) throw read.outOfOrder();
		} finally {
			range.inFlight = false;
		}
		await emit();
	};

	// A worker with nothing to take waits for the next answer (which may make a range worth
	// splitting) while any range is still being read.
	const answered = new Signal();
	let failure: { error: unknown } | undefined;
	await inParallel(read.parallel, async () => {
		try {
			for (;;) {
				if (finished || failure) return;
				const range = pickRange(plan, delivered);
				if (range === undefined) {
					if (!plan.ranges.some((candidate) => candidate.owned)) return;
					await answered.wait();
					continue;
				}
				range.owned = true;
				try {
					while (!range.done && !finished && !failure && !limitCertain(plan, range, delivered)) {
						await fetchRange(range);
						answered.notify();
					}
				} finally {
					range.owned = false;
					if (limitCertain(plan, range, delivered)) range.done = true;
					answered.notify();
				}
			}
		} catch (error) {
			failure ??= { error };
			answered.notify();
		}
	});
	if (failure) throw failure.error;
	await emit();
	return delivered;
}
