/**
 * Return All (or a Limit beyond one page) in id order, with up to `parallel` requests in flight:
 * the async driver of the planning in keyRanges.ts. It knows nothing of n8n or of filters: it asks
 * a `KeyPageSource` for pages by keys, and pagination.ts turns those into requests.
 *
 * 1. The first page, exactly as page-after-page reading asks for it. A short page ends the read.
 * 2. Then, after the first page and after every answer (`takeAnswer`), the plan says what to send
 *    in the slots that are free (`requestsToSend`, up to `parallel` in flight): without a Limit
 *    the last page comes first (the highest keys: data, and it bounds the key space), then the gap
 *    between is read from both of its edges and split where it still holds the most records; with
 *    a Limit, from below, the keys up to an estimate of where it is reached (and beyond it, only if
 *    needed, one page and a new estimate). A slot may stay free for a moment: without a Limit, what
 *    a part needs next is decided once its other readers of the same round have answered.
 * 3. Records are emitted strictly in key order (`nextChunk`); with a Limit nothing is asked above
 *    the point where the records known below already fill it.
 *
 * Every request is a page-1 keyset request of 100 records in id order (either direction), so each
 * costs what a page-after-page keyset request costs. Records are never lost or repeated when
 * others are created or deleted meanwhile: every answer covers a stretch of keys completely, and
 * each key is taken from the first answer that covers it.
 */
import type { Chunk, Direction, KeyRequest } from './keyRanges';
import { afterFirstPage, complete, firstPageSize, nextChunk, requestsToSend, takeAnswer } from './keyRanges';

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
	/**
	 * A page of the keys in (`from`, `to`] (`to` Infinity: no upper bound): the lowest of them
	 * (`up`) or the highest (`down`), handed back in ascending key order either way.
	 */
	between(from: number, to: number, direction: Direction): Promise<P>;
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
	const first = await source.first(firstPageSize(limit, pageSize));
	await deliver({ page: first, start: 0, end: first.count });
	const next = afterFirstPage<P>(first, { parallel: read.parallel, pageSize, limit, delivered });
	if (next.next === 'done') return delivered;
	if (next.next === 'pageAfterPage') return await read.handOver(first, delivered);

	// 2. The rest, planned: after the first page and after every answer, a request for each free
	// slot that the plan finds worth asking (requestsToSend), the new requests sent before the
	// answer's records are emitted, so that emitting never holds up a round trip.
	const { plan } = next;
	let failure: { error: unknown } | undefined;
	let emitting: Promise<void> = Promise.resolve();
	/** 3. Emits every chunk that nothing before it is still missing, in order. */
	const emit = (): void => {
		emitting = emitting.then(async () => {
			try {
				for (let chunk = finished || failure ? undefined : nextChunk(plan); chunk !== undefined; chunk = finished || failure ? undefined : nextChunk(plan)) {
					await deliver(chunk);
				}
			} catch (error) {
				failure ??= { error };
			}
		});
	};

	let outstanding = 0;
	let settled = (): void => undefined;
	const allAnswered = new Promise<void>((resolve) => (settled = resolve));
	const sendWhatIsDue = (): void => {
		if (!finished && failure === undefined && !complete(plan)) {
			const requests = requestsToSend(plan);
			outstanding += requests.length;
			for (const request of requests) void ask(request);
		}
		// Nothing on its way and nothing worth asking: the read is complete (or stopped).
		if (outstanding === 0) settled();
	};
	const ask = async (request: KeyRequest): Promise<void> => {
		try {
			if (plan.sent > read.maxPages) throw read.outOfOrder();
			const page = await source.between(request.from, request.to, request.direction);
			if (!takeAnswer(plan, request, { page, keys: page.keys, hasMore: page.hasMore })) throw read.outOfOrder();
		} catch (error) {
			failure ??= { error };
		}
		outstanding -= 1;
		sendWhatIsDue();
		emit();
	};

	sendWhatIsDue();
	// A failure sends nothing more, and the read ends once the requests on their way are answered.
	await allAnswered;
	emit();
	await emitting;
	if (failure) throw failure.error;
	return delivered;
}
