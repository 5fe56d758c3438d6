/**
 * The planning of a parallel keyset read, as synchronous functions over plain data (no requests,
 * no n8n, no clock), so unit tests drive them over any id layout. parallelKeyset.ts is the async
 * driver that sends the requests they ask for.
 *
 * The read works on keys: whole numbers that grow in the requested order (the id, or minus the id
 * for `-id`), so one plan serves both directions. Every request asks for one page of the keys in
 * (`from`, `to`]: the lowest of them (`up`) or the highest (`down`). Every answer makes a stretch
 * of keys known: up to its last record if the page is full, the whole span asked for if it is
 * short. The plan is the list of known stretches; between them lie gaps.
 *
 * How the layout is learnt, and why that costs few extra requests. Nothing is probed: every
 * request starts at the edge of a gap and reads into it, from below or from above, so a full page
 * is records the read needs anyway, wherever in the gap they lie. A gap read from both edges
 * closes where its two readers meet, wherever that is: the balance between them is found by
 * reading, not by guessing. A free worker gives a reader to a part nobody reads first, then splits
 * the gap where one more reader saves the most rounds, at the middle of its records as the
 * densities next to the gap's edges estimate them; a wrong estimate loses no records, it only
 * makes readers meet early (and the freed workers split again). A request brings less than a page
 * of new records only where readers meet or where a split met fewer records than estimated: such
 * requests come with gaps, and gaps come only from splits, which are limited. A split is made only
 * - while the pages' worth of requests that brought no new records, plus one for each gap still
 *   open (each closes with about one), stay within one (the short page that ends any read) plus
 *   the larger of ⌈parallel ÷ 2⌉ (what the first splits, made before anything of the layout is
 *   known, may cost) and `MAX_WASTE_SHARE` of the pages the read is estimated to need; or, for
 *   Return All, while the requests sent, those the unknown records probably still need and a
 *   short page per gap stay within `MAX_REQUEST_SHARE` of the pages it is estimated to need;
 * - where each reader of the gap still has `MIN_PAGES_PER_READER_TO_SPLIT` pages to read, so that
 *   it shortens the read; and one split per gap at a time, so that each is placed on densities
 *   measured by the pages around it, not on the guess of the one before.
 * For Return All, whether a gap holds that many is judged on the wider view of it: the density of
 * the known keys as far as half its width beside each edge (`densityBeside`), not of the page next
 * to the edge, which in ids that come in bursts is one burst and promises a burst's density all
 * across the gap. And a part's next request (its second reader, a split) is decided once its
 * readers of the current round have answered, on where they did end: the plan counts rounds
 * (`round`, `roundOf`), and a request sent on any answer of a round is answered in the next, so
 * waiting for the round's other answers costs none (the slot freed meanwhile is kept for the part).
 *
 * So a read of a few thousand records or more sends at most about 10 % more requests than page
 * after page, and, as every worker reads from the third round on, needs a few rounds of requests
 * more than ⌈pages ÷ parallel⌉: test/unit/roundTrips.test.ts holds it to 1.25 × (⌈pages ÷
 * parallel⌉ + 2) rounds and 1.1 × pages requests on 15 id layouts at 4 and 8 at once and on 20 more
 * of ids in bursts at 4, driving these functions as the driver does (5,050 records at 4: 51–55
 * requests in 15–18 rounds, where page after page sends 51 in 51). Those 20 layouts of ids in
 * bursts (of 20–200, gaps of 50–20,000) meet both bounds at 8 at once on about half of them only:
 * how many records a gap holds is not known before it is read (the test says what that costs and
 * what it asserts there).
 *
 * The pieces, in the order a read uses them:
 * - `startPlan`: the plan after the first page (with a Limit, a bound estimated from its density);
 * - `nextRequest`: what a free worker asks for next, if anything;
 * - `takeAnswer`: an answer's records into the plan;
 * - `nextChunk`: the next records to emit in key order, once nothing before them is missing.
 */

/** Records `start` … `end - 1` of one answer (its keys ascending). */
export interface Chunk<P> {
	page: P;
	start: number;
	end: number;
}

/** Keys in (`from`, `to`] whose records are all known, in key order. */
export interface Stretch<P> {
	from: number;
	to: number;
	/** Records fetched into it and not emitted yet, in key order. */
	chunks: Array<Chunk<P>>;
	/** Records fetched into it, emitted or not. */
	records: number;
	/** Records per key next to each edge: what the keys beyond it probably hold. */
	lowDensity: number;
	highDensity: number;
	/** What each answer made known of it, in key order (the layout the gap estimates read). */
	pieces: Piece[];
}

/** Keys (`from`, `to`] that one answer made known, with its records' keys there (ascending). */
export interface Piece {
	from: number;
	to: number;
	keys: readonly number[];
}

/** `up`: the lowest keys of the span (read from its lower edge); `down`: the highest. */
export type Direction = 'up' | 'down';

/** One page of the keys in (`from`, `to`]; `to` may be Infinity. */
export interface KeyRequest {
	from: number;
	to: number;
	direction: Direction;
}

export interface KeyPlan<P> {
	/** Known stretches in key order, none adjacent (adjacent ones are merged). The first one starts at -Infinity. */
	known: Array<Stretch<P>>;
	/** Requests sent and not answered yet. */
	inFlight: KeyRequest[];
	pageSize: number;
	parallel: number;
	limit: number | undefined;
	/** Requests sent, the first page included. */
	sent: number;
	/** Pages' worth of requests that brought no new records: 1 - new records ÷ page size, summed. */
	wasted: number;
	/** Splits made. */
	splits: number;
	/**
	 * The round of the latest answer taken (the first page's is 1): a request sent now is answered
	 * in the next. Requests sent on answers of one round are one round, however their answers
	 * arrive; `roundOf` says which round each request on its way belongs to.
	 */
	round: number;
	roundOf: Map<KeyRequest, number>;
	/**
	 * With a Limit: records per key of the last page read without an upper bound (the first page, or
	 * one above a bound that did not fill the Limit), for placing the next bound; spent by it.
	 */
	openDensity: number | undefined;
	/** The lowest key (the first page's first), and the highest once the last page has come. */
	lowest: number;
	highest: number | undefined;
}

/**
 * The share of the pages a read needs that splits may add in requests short of a page of new
 * records (see the top): 8 %, so that with the estimates' errors a read stays within 10 %.
 */
export const MAX_WASTE_SHARE = 0.08;

/** Return All: the most requests a read is planned to send, as a share of the pages page-after-page reading needs. */
export const MAX_REQUEST_SHARE = 1.1;

/** A gap is split only when each of its readers still has at least this many pages to read. */
export const MIN_PAGES_PER_READER_TO_SPLIT = 3;

/** A gap's second reader starts only when at least this share of a page is left beyond the first one's page. */
export const MIN_PAGES_FOR_SECOND_READER = 0.5;

/** Strictly growing keys, all above `floor`. */
export function ascendingAbove(keys: readonly number[], floor: number): boolean {
	return keys.every((key, index) => key > floor && (index === 0 || key > keys[index - 1]));
}

/** Records per key over `span` keys (0 for an unbounded span). */
function densityOf(records: number, span: number): number {
	return Number.isFinite(span) ? records / Math.max(1, span) : 0;
}

/** The first page as the plan sees it. */
export interface FirstPage {
	/** Its records' keys in the order of the page; undefined when an id is not a whole number. */
	keys: readonly number[] | undefined;
	count: number;
	/** The service says there is more (`links.next`). */
	hasMore: boolean;
}

/** The size of the first page: as page-after-page reading asks for it (the Limit, if below a page). */
export function firstPageSize(limit: number | undefined, pageSize: number): number {
	return Math.min(limit ?? pageSize, pageSize);
}

/**
 * What follows the first page: nothing (it was short, or it filled the Limit), page-after-page
 * reading (its ids are not ascending whole numbers, so they cannot be split into ranges), or the
 * plan of the rest.
 */
export type AfterFirstPage<P> = { next: 'done' } | { next: 'pageAfterPage' } | { next: 'plan'; plan: KeyPlan<P> };

export function afterFirstPage<P>(first: FirstPage, read: { parallel: number; pageSize: number; limit: number | undefined; delivered: number }): AfterFirstPage<P> {
	const { limit, pageSize } = read;
	if ((limit !== undefined && read.delivered >= limit) || first.count < firstPageSize(limit, pageSize) || !first.hasMore) return { next: 'done' };
	if (first.keys === undefined || !ascendingAbove(first.keys, -Infinity)) return { next: 'pageAfterPage' };
	return { next: 'plan', plan: startPlan<P>({ firstKeys: first.keys, parallel: read.parallel, pageSize, limit, delivered: read.delivered }) };
}

export interface PlanInput {
	/** The first page's keys (ascending, whole numbers), a full page. */
	firstKeys: readonly number[];
	parallel: number;
	pageSize: number;
	/** Undefined: every record (Return All). */
	limit: number | undefined;
	/** Records already emitted (the first page's). */
	delivered: number;
}

/**
 * The plan after the first page: it is known (and emitted) up to its last key. Without a Limit the
 * rest is one gap up to Infinity, whose first request is the last page (the highest keys): data,
 * and it bounds the key space. With a Limit the gap ends at an estimate of where the Limit is
 * reached by the first page's density (a stretch of no keys marks it); the keys beyond it are
 * read, page after page, only if the records below it do not fill the Limit.
 */
export function startPlan<P>(input: PlanInput): KeyPlan<P> {
	const { firstKeys, pageSize, limit } = input;
	const frontKey = firstKeys[firstKeys.length - 1];
	const density = densityOf(firstKeys.length, frontKey - firstKeys[0] + 1);
	const pieces: Piece[] = [{ from: firstKeys[0] - 1, to: frontKey, keys: firstKeys }];
	const known: Array<Stretch<P>> = [{ from: -Infinity, to: frontKey, chunks: [], records: input.delivered, lowDensity: density, highDensity: density, pieces }];
	return {
		known,
		inFlight: [],
		pageSize,
		parallel: input.parallel,
		limit,
		sent: 1,
		wasted: 0,
		splits: 0,
		round: 1,
		roundOf: new Map(),
		openDensity: density,
		lowest: firstKeys[0],
		highest: undefined,
	};
}

// ---------------------------------------------------------------------------------------------
// Answers

/** What an answer to a request brought. */
export interface Answer<P> {
	page: P;
	/** Its records' keys, ascending; undefined when an id is not a whole number. */
	keys: readonly number[] | undefined;
	/** The service says there is more (`links.next`). */
	hasMore: boolean;
}

/**
 * Takes an answer into the plan: the keys it covers that were not known yet become known, with
 * their records (what an earlier answer already covered is taken from that one, so a record is
 * never emitted twice, and every key is covered by one answer that saw all its records). Returns
 * false, taking nothing, when the answer is out of order or outside the span asked for: the
 * service did not page as asked.
 */
export function takeAnswer<P>(plan: KeyPlan<P>, request: KeyRequest, answer: Answer<P>): boolean {
	const index = plan.inFlight.indexOf(request);
	if (index >= 0) plan.inFlight.splice(index, 1);
	plan.round = Math.max(plan.round, plan.roundOf.get(request) ?? plan.round);
	plan.roundOf.delete(request);
	const { keys } = answer;
	if (keys === undefined || !ascendingAbove(keys, request.from) || keys.some((key) => key > request.to)) return false;
	const full = keys.length >= plan.pageSize && answer.hasMore;
	// A full page covers up to its last record (read up) or from its first one (read down).
	const covered = { from: request.from, to: request.to };
	if (full && request.direction === 'up') covered.to = keys[keys.length - 1];
	if (full && request.direction === 'down') covered.from = keys[0] - 1;
	if (covered.to === Infinity && keys.length > 0) plan.highest = keys[keys.length - 1];
	const densities = edgeDensities(keys, covered);
	if (request.direction === 'up' && request.to === Infinity && full) plan.openDensity = densities.high;
	// The parts of the covered span not known yet: around the known stretches it overlaps.
	const pieces: Array<Stretch<P>> = [];
	let cursor = covered.from;
	for (const stretch of plan.known) {
		if (stretch.to <= cursor) continue;
		if (stretch.from >= covered.to) break;
		if (stretch.from > cursor) pieces.push(piece(answer.page, keys, cursor, stretch.from, densities));
		cursor = stretch.to;
	}
	if (cursor < covered.to) pieces.push(piece(answer.page, keys, cursor, covered.to, densities));
	let taken = 0;
	for (const part of pieces) {
		taken += part.records;
		insertStretch(plan, part);
	}
	plan.wasted += Math.max(0, 1 - taken / plan.pageSize);
	return true;
}

/** The records of keys in (`from`, `to`] of an answer, as a stretch. */
function piece<P>(page: P, keys: readonly number[], from: number, to: number, densities: { low: number; high: number }): Stretch<P> {
	const start = firstAbove(keys, from);
	const end = firstAbove(keys, to);
	const pieces: Piece[] = [{ from, to, keys: keys.slice(start, end) }];
	return { from, to, chunks: end > start ? [{ page, start, end }] : [], records: end - start, lowDensity: densities.low, highDensity: densities.high, pieces };
}

/**
 * Records per key next to each edge of what an answer covers, from the half of its records nearest
 * to that edge, counting the empty keys between them and the edge: a page that crosses from sparse
 * ids into dense ones says "dense" at its top, a short page over a long span says "sparse". An
 * unbounded edge (the last page's top) takes the density of the records alone.
 */
function edgeDensities(keys: readonly number[], covered: { from: number; to: number }): { low: number; high: number } {
	const count = keys.length;
	if (count === 0) return { low: 0, high: 0 };
	const near = Math.max(1, Math.floor(count / 2));
	const high = Number.isFinite(covered.to) ? covered.to : keys[count - 1];
	return { low: densityOf(near, keys[near - 1] - covered.from), high: densityOf(near, high - keys[count - near] + 1) };
}

/** Inserts a stretch that overlaps no known one, merging it with the ones it touches. */
function insertStretch<P>(plan: KeyPlan<P>, stretch: Stretch<P>): void {
	const { known } = plan;
	let index = known.findIndex((candidate) => candidate.from >= stretch.to);
	if (index < 0) index = known.length;
	known.splice(index, 0, stretch);
	for (const at of [index, index - 1]) {
		const low = known[at];
		const high = known[at + 1];
		if (low === undefined || high === undefined || low.to !== high.from) continue;
		known.splice(at, 2, {
			from: low.from,
			to: high.to,
			chunks: [...low.chunks, ...high.chunks],
			records: low.records + high.records,
			// A Limit's bound (no keys) only marks an estimate: the density below it is the one measured.
			lowDensity: low.to > low.from ? low.lowDensity : high.lowDensity,
			highDensity: high.to > high.from ? high.highDensity : low.highDensity,
			pieces: [...low.pieces, ...high.pieces],
		});
	}
}

/** The index of the first key above `bound` (keys ascending). */
function firstAbove(keys: readonly number[], bound: number): number {
	let index = 0;
	while (index < keys.length && keys[index] <= bound) index++;
	return index;
}

/**
 * The next records to emit, in key order: those of the first stretch (which starts at -Infinity),
 * as they arrive. Undefined: the next records are still missing.
 */
export function nextChunk<P>(plan: KeyPlan<P>): Chunk<P> | undefined {
	return plan.known[0].chunks.shift();
}

/** Every key is known: the read is complete. */
export function complete<P>(plan: KeyPlan<P>): boolean {
	return plan.known.length === 1 && plan.known[0].to === Infinity;
}

// ---------------------------------------------------------------------------------------------
// Choosing the next request

/**
 * A part of a gap between the starting points of readers: the gap's own edges, or a split on its
 * way (whose answer has not come yet).
 */
interface Part {
	/** The gap: keys (`lo`, `hi`] unknown, with the densities at its edges. */
	lo: number;
	hi: number;
	lowDensity: number;
	highDensity: number;
	/** The part's own keys (`from`, `to`], within the gap. */
	from: number;
	to: number;
	/** A request on its way reads up from `from` / down from `to`. */
	readFromBelow: boolean;
	readFromAbove: boolean;
	/** The gap has a split on its way. */
	splitting: boolean;
	/** A reader of the part answers in the current round and has not yet. */
	waiting: boolean;
	/**
	 * Return All: records per key over the known keys within half the gap's width beside each edge
	 * (`densityBeside`), what splits are decided on; undefined with a Limit and for the top gap.
	 */
	wideLowDensity: number | undefined;
	wideHighDensity: number | undefined;
}

/** The density a gap probably has at `key`: between those at its edges, in proportion. */
function densityAt(part: Part, key: number): number {
	if (part.hi === Infinity) return part.lowDensity;
	const share = Math.min(1, Math.max(0, (key - part.lo) / Math.max(1, part.hi - part.lo)));
	return part.lowDensity + (part.highDensity - part.lowDensity) * share;
}

/** The records a gap probably holds in (`from`, `to`]. */
function recordsIn(part: Part, from: number, to: number): number {
	return to <= from ? 0 : ((to - from) * (densityAt(part, from) + densityAt(part, to))) / 2;
}

/**
 * The keys of a part that the pages of its readers on their way will probably not reach. `short`:
 * as if the gap were at its densest there (whether a second reader is worth it: one too many costs
 * at most a request, one too few a round); else by the density estimated there (where a split goes,
 * clear of those pages).
 */
function unclaimed(part: Part, pageSize: number, short: boolean): { from: number; to: number } {
	const densest = Math.max(part.lowDensity, part.highDensity);
	const reach = (key: number) => pageSize / Math.max(short ? densest : densityAt(part, key), Number.MIN_VALUE);
	const from = part.readFromBelow ? part.from + reach(part.from) : part.from;
	const to = part.readFromAbove ? part.to - reach(part.to) : part.to;
	return { from, to: Math.max(from, to) };
}

/**
 * The key that halves the records a gap probably holds in (`from`, `to`], moved to a whole number
 * of pages from the part's lower edge by the density there, so that where the density holds, the
 * reader from below ends on a full page.
 */
function middleOf(part: Part, from: number, to: number, pageSize: number): number {
	const half = recordsIn(part, from, to) / 2;
	let low = from;
	let high = to;
	while (high - low > 1) {
		const middle = (low + high) / 2;
		if (recordsIn(part, from, middle) < half) low = middle;
		else high = middle;
	}
	const pageSpan = pageSize / Math.max(densityAt(part, part.from), Number.MIN_VALUE);
	const onPage = Math.round(part.from + Math.round((low - part.from) / pageSpan) * pageSpan);
	return onPage >= from && onPage < to && onPage > part.from ? onPage : Math.round(low);
}

/** The gaps between known stretches, cut into parts at the starting points of splits on their way. */
function partsOf<P>(plan: KeyPlan<P>): Part[] {
	const parts: Part[] = [];
	const { known, inFlight } = plan;
	for (let index = 0; index < known.length; index++) {
		const below = known[index];
		const above = known[index + 1] as Stretch<P> | undefined;
		const lo = below.to;
		const hi = above?.from ?? Infinity;
		if (lo >= hi) continue;
		const cuts = new Set<number>([lo, hi]);
		for (const request of inFlight) {
			const start = request.direction === 'up' ? request.from : request.to;
			if (start > lo && start < hi) cuts.add(start);
		}
		const bounds = [...cuts].sort((a, b) => a - b);
		// Return All: the wider view of the gap; none for the top gap (its last page comes first).
		const wide = plan.limit === undefined && above !== undefined;
		const halfWidth = (hi - lo) / 2;
		const wideLowDensity = wide ? densityBeside(plan, lo, 'below', halfWidth) : undefined;
		const wideHighDensity = wide ? densityBeside(plan, hi, 'above', halfWidth) : undefined;
		for (let at = 0; at + 1 < bounds.length; at++) {
			const from = bounds[at];
			const to = bounds[at + 1];
			// A request on its way reads into the part if it starts at its edge, or started below
			// (above) it, within the stretch next to the gap, before other answers made the keys up
			// to the edge known: it will bring the records just past the edge.
			const readsFromBelow = (request: KeyRequest) =>
				request.direction === 'up' && request.to > from && (request.from === from || (from === lo && request.from <= lo && request.from >= below.from));
			const readsFromAbove = (request: KeyRequest) =>
				request.direction === 'down' && request.from < to && (request.to === to || (to === hi && above !== undefined && request.to >= hi && request.to <= above.to));
			const readers = inFlight.filter((request) => readsFromBelow(request) || readsFromAbove(request));
			parts.push({
				lo,
				hi,
				lowDensity: below.highDensity,
				highDensity: above?.lowDensity ?? below.highDensity,
				from,
				to,
				readFromBelow: readers.some(readsFromBelow),
				readFromAbove: readers.some(readsFromAbove),
				splitting: bounds.length > 2,
				waiting: readers.some((request) => (plan.roundOf.get(request) ?? 0) <= plan.round),
				wideLowDensity,
				wideHighDensity,
			});
		}
	}
	return parts;
}

/** With a Limit: the records known at or below `key` already fill it, so nothing above it is needed. */
function limitFilledBelow<P>(plan: KeyPlan<P>, key: number): boolean {
	if (plan.limit === undefined) return false;
	let records = 0;
	for (const stretch of plan.known) if (stretch.to <= key) records += stretch.records;
	return records >= plan.limit;
}

/** Records per key over every known key (the first and the last page's stretches from their records). */
function averageDensity<P>(plan: KeyPlan<P>): number {
	let records = 0;
	let keys = 0;
	for (const stretch of plan.known) {
		records += stretch.records;
		const from = stretch.from === -Infinity ? plan.lowest - 1 : stretch.from;
		const to = stretch.to === Infinity ? (plan.highest ?? from) : stretch.to;
		keys += Math.max(0, to - from);
	}
	return densityOf(records, keys);
}

/**
 * Records per key over the `width` known keys nearest to `edge` on one side of it (`below`: at or
 * under it; `above`: over it), across the known stretches, skipping the gaps between them; over
 * fewer keys if fewer are known. The first page counts from its first record, the last page to its
 * last. The keys beside a gap's edge as far as half its width: a page's worth next to an edge is
 * one burst in ids that come in bursts, and says nothing of the gaps between them, which the wider
 * view counts.
 */
function densityBeside<P>(plan: KeyPlan<P>, edge: number, side: 'below' | 'above', width: number): number {
	let records = 0;
	let keys = 0;
	const { known } = plan;
	for (let at = 0; at < known.length; at++) {
		const stretch = known[side === 'below' ? known.length - 1 - at : at];
		if (side === 'below' ? stretch.from >= edge : stretch.to <= edge) continue;
		const { pieces } = stretch;
		for (let index = 0; index < pieces.length; index++) {
			const piece = pieces[side === 'below' ? pieces.length - 1 - index : index];
			const from = Math.max(piece.from, plan.lowest - 1);
			const to = piece.to === Infinity ? Math.max(from, plan.highest ?? from) : piece.to;
			const span = to - from;
			if (keys + span < width) {
				records += piece.keys.length;
				keys += span;
				continue;
			}
			// The window ends inside this piece: its records within the keys still wanted.
			const rest = width - keys;
			records += side === 'below' ? piece.keys.length - firstAbove(piece.keys, to - rest) : firstAbove(piece.keys, from + rest);
			return densityOf(records, width);
		}
	}
	return densityOf(records, keys);
}

/**
 * Return All: a split of a part read from both edges, where each of its readers still has
 * `MIN_PAGES_PER_READER_TO_SPLIT` pages to read by the wider view of its gap (`densityBeside`) and
 * the request budget allows it (`splitAffordable`); at the middle of its records as the edges
 * estimate them (`middleOf`). The wider view decides: next to an edge in a burst, the edges promise
 * a burst's density all across the gap, and splits on that promise meet few records and end in
 * short pages; where the records do continue as at the edges (a dense island's rest, the records
 * crowded at the top), the edges place the split better. The first split is made before anything
 * inside the gap has been read, where the wider view knows no more than the edges: the larger of
 * the two decides it.
 */
function wideSplit<P>(plan: KeyPlan<P>, part: Part, parts: Part[], open: { from: number; to: number }, edgeLeft: number): KeyRequest | undefined {
	const { pageSize } = plan;
	const wide: Part = { ...part, lowDensity: part.wideLowDensity ?? part.lowDensity, highDensity: part.wideHighDensity ?? part.highDensity };
	const wideOpen = unclaimed(wide, pageSize, false);
	const wideLeft = recordsIn(wide, wideOpen.from, wideOpen.to);
	if ((plan.splits === 0 ? Math.max(wideLeft, edgeLeft) : wideLeft) < MIN_PAGES_PER_READER_TO_SPLIT * 2 * pageSize) return undefined;
	if (!splitAffordable(plan, parts)) return undefined;
	const middle = middleOf(part, open.from, open.to, pageSize);
	return middle > part.from && middle < part.to ? { from: middle, to: part.to, direction: 'up' } : undefined;
}

/**
 * Whether one more split keeps the requests within about `MAX_WASTE_SHARE` of the pages the read
 * needs (see the top). The records a gap holds are estimated, for this, as the lower of what its
 * edges say and what every known key says: edges in a dense burst say nothing of the emptiness
 * around it.
 */
function splitAffordable<P>(plan: KeyPlan<P>, parts: Part[]): boolean {
	const average = averageDensity(plan);
	let known = 0;
	for (const stretch of plan.known) known += stretch.records;
	let records = known;
	for (const part of parts) records += Math.min(recordsIn(part, part.from, part.to), average * (part.to - part.from));
	const gaps = plan.known.length - 1;
	const allowed = 1 + Math.max(Math.ceil(plan.parallel / 2), (MAX_WASTE_SHARE * records) / plan.pageSize);
	if (Math.floor(plan.wasted) + gaps + 1 <= allowed) return true;
	if (plan.limit !== undefined) return false;
	// Return All, once that is spent: the requests sent, those the records not known yet probably
	// need beyond the ones on their way, and a short page for each gap after the split, within
	// `MAX_REQUEST_SHARE` of the pages the read probably needs. The unknown records are the lower
	// of what the edges and what the wider view say.
	let unknown = 0;
	for (const part of parts) {
		if (part.hi === Infinity) continue;
		const wide: Part = { ...part, lowDensity: part.wideLowDensity ?? part.lowDensity, highDensity: part.wideHighDensity ?? part.highDensity };
		unknown += Math.min(recordsIn(part, part.from, part.to), recordsIn(wide, part.from, part.to));
	}
	const pages = (known + unknown) / plan.pageSize + 1;
	const projected = plan.sent + Math.max(0, unknown / plan.pageSize - plan.inFlight.length) + gaps + 1;
	return projected <= MAX_REQUEST_SHARE * pages;
}

/**
 * What to send now: a request for each free slot (`parallel` less the requests on their way) that
 * the plan finds worth asking, each registered as on its way. The driver calls it after the first
 * page and after every answer; the round-trip simulator of the tests does the same.
 */
export function requestsToSend<P>(plan: KeyPlan<P>): KeyRequest[] {
	const requests: KeyRequest[] = [];
	while (plan.inFlight.length < plan.parallel) {
		const request = nextRequest(plan);
		if (request === undefined) break;
		requests.push(request);
	}
	return requests;
}

/**
 * What a free worker asks for next, registered as on its way; undefined when nothing is worth
 * asking now (the worker waits for the next answer). For the parts of gaps in order of the records
 * they probably hold per reader:
 * - a part nobody reads: from its lower edge (at the top of a Return All: the last page);
 * - a second reader for a part read from one edge, from the other edge, when its first reader's
 *   page will probably not reach that far;
 * - a split of a part read from both edges, at the middle of its unread records (see the top).
 * With a Limit: only from below (a split reads up from its middle), nothing above the point where
 * the records known below already fill it, and once everything below the estimated bound is known
 * without filling it, one page above it (alone), then a new bound by that page's density.
 */
export function nextRequest<P>(plan: KeyPlan<P>): KeyRequest | undefined {
	const { pageSize } = plan;
	const parts = partsOf(plan).filter((part) => !limitFilledBelow(plan, part.from));
	const send = (request: KeyRequest): KeyRequest => {
		plan.inFlight.push(request);
		plan.roundOf.set(request, plan.round + 1);
		plan.sent += 1;
		return request;
	};
	let top = parts.find((part) => part.to === Infinity);
	if (top !== undefined && plan.limit === undefined) {
		// Return All: the last page, alone; the gap has no upper edge to split or read from until it comes.
		return top.readFromAbove ? undefined : send({ from: top.from, to: Infinity, direction: 'down' });
	}
	if (top !== undefined && parts.length === 1) {
		// With a Limit, everything below is known: read one page above it (alone), then bound the
		// rest where the Limit is probably reached by that page's density, and read up to there.
		if (plan.inFlight.length > 0) return undefined;
		const density = plan.openDensity ?? 0;
		if (density <= 0) return send({ from: top.from, to: Infinity, direction: 'up' });
		plan.openDensity = undefined;
		const remaining = (plan.limit ?? 0) - plan.known.reduce((sum, stretch) => sum + stretch.records, 0);
		const bound = top.from + Math.max(1, Math.ceil(remaining / density));
		insertStretch(plan, { from: bound, to: bound, chunks: [], records: 0, lowDensity: density, highDensity: density, pieces: [] });
		parts.splice(0, 1, ...partsOf(plan));
		top = parts.find((part) => part.to === Infinity);
	}
	if (top !== undefined) parts.splice(parts.indexOf(top), 1);
	const readers = (part: Part) => Number(part.readFromBelow) + Number(part.readFromAbove);
	const ranked = parts.map((part) => {
		const open = unclaimed(part, pageSize, readers(part) < (plan.limit === undefined ? 2 : 1));
		return { part, open, left: recordsIn(part, open.from, open.to) };
	});
	if (plan.limit === undefined) {
		// Return All: a part nobody reads first (it makes no progress at all), then by the rounds one
		// more reader would save it (its records left ÷ (readers × (readers + 1))).
		const gain = (entry: { part: Part; left: number }) => entry.left / Math.max(1, readers(entry.part) * (readers(entry.part) + 1));
		ranked.sort((a, b) => Number(readers(b.part) === 0) - Number(readers(a.part) === 0) || gain(b) - gain(a));
	} else {
		ranked.sort((a, b) => b.left / Math.max(1, readers(b.part)) - a.left / Math.max(1, readers(a.part)));
	}
	// Return All: a slot freed by a reader whose part waits for its other reader of this round is
	// kept for that part, else the part loses a reader to one whose turn came first.
	let kept = 0;
	if (plan.limit === undefined) for (const part of parts) if (part.waiting) kept += 2 - readers(part);
	for (const { part, open, left } of ranked) {
		const up: KeyRequest = { from: part.from, to: part.to, direction: 'up' };
		if (readers(part) === 0) return send(up);
		if (plan.limit === undefined) {
			// Return All. What a part needs next is decided once its readers of this round have
			// answered, on where they did end rather than where they probably will; it costs no
			// round: whatever is sent on an answer of this round is answered in the next.
			if (part.waiting || plan.parallel - plan.inFlight.length <= kept) continue;
			if (readers(part) === 1) {
				if (left >= MIN_PAGES_FOR_SECOND_READER * pageSize) return send(part.readFromBelow ? { ...up, direction: 'down' } : up);
				continue;
			}
			const split = part.splitting ? undefined : wideSplit(plan, part, parts, open, left);
			if (split === undefined) continue;
			plan.splits += 1;
			return send(split);
		}
		// With a Limit, only from below: the top of a part is an estimate, the records there are
		// the least certain to be needed. A part read from below is split where its reader's page
		// will probably not reach, on whole pages, as many times as workers ask.
		if (part.readFromAbove || left < MIN_PAGES_FOR_SECOND_READER * pageSize) continue;
		if (!splitAffordable(plan, parts)) continue;
		const middle = middleOf(part, open.from, open.to, pageSize);
		if (middle > part.from && middle < part.to) {
			plan.splits += 1;
			return send({ from: middle, to: part.to, direction: 'up' });
		}
	}
	return undefined;
}
