/**
 * The planning of a parallel keyset read, as synchronous functions over plain data (no requests,
 * no n8n, no clock), so unit tests drive them over any id layout. parallelKeyset.ts is the async
 * driver that sends the requests they ask for.
 *
 * The read works on keys: whole numbers that grow in the requested order (the id, or minus the id
 * for `-id`), so one plan serves both directions. The key space above the first page is cut into
 * ranges; a range holds what its answers brought until everything before it has been emitted.
 *
 * The pieces, in the order a read uses them:
 * - `planKeyRanges`: the ranges after the first page (and the last page, without a Limit);
 * - `pickRange`: which range a free worker reads next, splitting the busiest range if worth it;
 * - `takeAnswer`: an answer's records into every range whose next keys it covers;
 * - `nextChunk`: the next records to emit in key order, once nothing before them is missing;
 * - `limitCertain`: with a Limit, whether the records known below a range already fill it.
 */

/** Records `start` … `end - 1` of one answer. */
export interface Chunk<P> {
	page: P;
	start: number;
	end: number;
}

/**
 * A part of the key space not yet read through: keys in (`lo`, `hi`] are still to be fetched, keys
 * in (`start`, `lo`] have been, and wait in `chunks` to be emitted. `hi` is Infinity for the open
 * end of a read with a Limit, which is fetched only if the ranges before it cannot fill the Limit.
 */
export interface KeyRange<P> {
	start: number;
	lo: number;
	hi: number;
	chunks: Array<Chunk<P>>;
	/** Records fetched into this range, emitted or not. */
	fetched: number;
	/** A worker is paging it (from `lo` upwards). */
	owned: boolean;
	/** The owner's request is on its way (it will cover some keys above `lo`). */
	inFlight: boolean;
	done: boolean;
}

export interface KeyRangePlan<P> {
	/** In key order; the last one is the last page's (done) or the open end behind a Limit's estimate. */
	ranges: Array<KeyRange<P>>;
	/** Every range before this index has been emitted completely. */
	emitted: number;
	limit: number | undefined;
	/** Records per request. */
	pageSize: number;
	/** Records per key on the first page: a range's density until it has its own. */
	firstDensity: number;
}

/** A range is split only when the busy part left is at least this many pages: a split costs a short page. */
export const MIN_PAGES_TO_SPLIT = 2;

export function newRange<P>(start: number, hi: number): KeyRange<P> {
	return { start, lo: start, hi, chunks: [], fetched: 0, owned: false, inFlight: false, done: start >= hi };
}

/** Strictly growing keys, all above `floor`. */
export function ascendingAbove(keys: readonly number[], floor: number): boolean {
	return keys.every((key, index) => key > floor && (index === 0 || key > keys[index - 1]));
}

export interface PlanInput<P> {
	/** The first page's keys (ascending, whole numbers) and how many records it had. */
	firstKeys: readonly number[];
	parallel: number;
	pageSize: number;
	limit: number | undefined;
	/** Records already emitted (the first page's). */
	delivered: number;
	/** Without a Limit: the last page (the highest keys, ascending, a full page), to emit last. */
	last?: { keys: readonly number[]; chunk: Chunk<P> };
}

/**
 * The ranges between the first page and the last one, or (with a Limit) up to an estimate of where
 * the Limit is reached from the first page's density, with an open end behind it. Up to `parallel`
 * ranges of equal width, their bounds on whole pages as far as the density tells: a range that
 * ends on a full page needs no short page to know it is done.
 */
export function planKeyRanges<P>(input: PlanInput<P>): KeyRangePlan<P> {
	const { firstKeys, pageSize, limit } = input;
	const frontKey = firstKeys[firstKeys.length - 1];
	const firstDensity = firstKeys.length / (frontKey - firstKeys[0] + 1);
	const gapEnd =
		input.last !== undefined
			? input.last.keys[0] - 1
			: frontKey + Math.max(1, Math.ceil(((limit ?? 0) - input.delivered) / firstDensity));

	const ranges: Array<KeyRange<P>> = [];
	const pageSpan = pageSize / firstDensity;
	const expectedPages = (gapEnd - frontKey) / pageSpan;
	const count = Math.max(1, Math.min(input.parallel, Math.ceil(expectedPages), gapEnd - frontKey));
	let start = frontKey;
	for (let index = 1; index <= count; index++) {
		const end = index === count ? gapEnd : Math.min(gapEnd, frontKey + Math.round(Math.round((expectedPages * index) / count) * pageSpan));
		if (end > start) ranges.push(newRange(start, end));
		start = Math.max(start, end);
	}
	if (input.last !== undefined) {
		const { keys, chunk } = input.last;
		const highest = keys[keys.length - 1];
		ranges.push({ ...newRange<P>(gapEnd, highest), lo: highest, chunks: [chunk], fetched: chunk.end - chunk.start, done: true });
	} else {
		ranges.push(newRange(gapEnd, Infinity));
	}
	return { ranges, emitted: 0, limit, pageSize, firstDensity };
}

function densityOf<P>(plan: KeyRangePlan<P>, range: KeyRange<P>): number {
	return range.lo > range.start && range.fetched > 0 ? range.fetched / (range.lo - range.start) : plan.firstDensity;
}

/** Records still to fetch in a range beyond what its request in flight will bring. */
function expectedLeft<P>(plan: KeyRangePlan<P>, range: KeyRange<P>): number {
	const density = densityOf(plan, range);
	const coming = range.inFlight ? plan.pageSize / density : 0;
	return Math.max(0, range.hi - range.lo - coming) * density;
}

/** With a Limit: the records known below this range's next request (emitted or waiting) already fill it. */
export function limitCertain<P>(plan: KeyRangePlan<P>, range: KeyRange<P>, delivered: number): boolean {
	if (plan.limit === undefined) return false;
	let known = delivered;
	for (let index = plan.emitted; index < plan.ranges.length; index++) {
		const candidate = plan.ranges[index];
		known += candidate.chunks.reduce((sum, chunk) => sum + (chunk.end - chunk.start), 0);
		if (candidate === range) break;
	}
	return known >= plan.limit;
}

/**
 * The range a free worker reads next: a range nobody reads; else the upper half of the range that
 * still holds the most records by its observed density (id spaces have gaps, so equal width is only
 * a start), inserted after it; else the open end behind a Limit's estimate, once everything before
 * it is read. Undefined: nothing to take now (a worker then waits for the next answer).
 */
export function pickRange<P>(plan: KeyRangePlan<P>, delivered: number): KeyRange<P> | undefined {
	const { ranges, pageSize } = plan;
	for (const range of ranges) if (!range.done && !range.owned && limitCertain(plan, range, delivered)) range.done = true;
	const waiting = ranges.find((range) => !range.done && !range.owned && range.hi !== Infinity);
	if (waiting) return waiting;
	let busiest: KeyRange<P> | undefined;
	for (const range of ranges) {
		if (range.done || !range.owned || range.hi === Infinity) continue;
		if (busiest === undefined || expectedLeft(plan, range) > expectedLeft(plan, busiest)) busiest = range;
	}
	if (busiest && expectedLeft(plan, busiest) >= MIN_PAGES_TO_SPLIT * pageSize) {
		const span = pageSize / densityOf(plan, busiest);
		const from = busiest.lo + (busiest.inFlight ? span : 0);
		// Half the pages left, on a page bound of the part that stays.
		const middle = Math.floor(from + Math.round((busiest.hi - from) / span / 2) * span);
		if (middle > busiest.lo && middle < busiest.hi) {
			const taken = newRange<P>(middle, busiest.hi);
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
}

/** What an answer to the request for keys (`from`, `to`] brought. */
export interface Answer<P> {
	page: P;
	/** Its records' keys in the order sent; undefined when an id is not a whole number. */
	keys: readonly number[] | undefined;
	/** The service says there is more (`links.next`). */
	hasMore: boolean;
}

/**
 * Takes an answer's records into every range whose next keys it covers (a range may have been split
 * while the request was on its way). A full page covers the keys up to its last one; a short one the
 * whole span asked for. Returns false, taking nothing, when the answer is out of order or outside
 * the span: the service did not page as asked.
 */
export function takeAnswer<P>(plan: KeyRangePlan<P>, answer: Answer<P>, from: number, to: number): boolean {
	const { keys } = answer;
	if (keys === undefined || !ascendingAbove(keys, from) || keys.some((key) => key > to)) return false;
	const coveredTo = keys.length >= plan.pageSize && answer.hasMore ? keys[keys.length - 1] : to;
	for (const range of plan.ranges) {
		if (range.done || range.lo < from || range.lo >= coveredTo) continue;
		const upTo = Math.min(range.hi, coveredTo);
		// Keys are ascending, so the records of (lo, upTo] are one run of the page.
		const start = firstAbove(keys, range.lo);
		const end = firstAbove(keys, upTo);
		if (end > start) {
			range.chunks.push({ page: answer.page, start, end });
			range.fetched += end - start;
		}
		range.lo = upTo;
		if (range.lo >= range.hi) range.done = true;
	}
	return true;
}

/** The index of the first key above `bound` (keys ascending). */
function firstAbove(keys: readonly number[], bound: number): number {
	let index = 0;
	while (index < keys.length && keys[index] <= bound) index++;
	return index;
}

/**
 * The next records to emit, in key order: those of the first range not emitted yet, once it has
 * any; a range is passed only when it is done. Undefined: the next records are still missing.
 */
export function nextChunk<P>(plan: KeyRangePlan<P>): Chunk<P> | undefined {
	while (plan.emitted < plan.ranges.length) {
		const range = plan.ranges[plan.emitted];
		const chunk = range.chunks.shift();
		if (chunk !== undefined) return chunk;
		if (!range.done) return undefined;
		plan.emitted += 1;
	}
	return undefined;
}
