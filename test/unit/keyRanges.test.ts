/**
 * The parallel keyset read without the engine: its planning pieces (nodes/shared/paging/keyRanges.ts)
 * on plain data, and its driver (parallelKeyset.ts) against a simulated service over an id set that
 * answers in rounds (keySpace.ts). Counts only: requests, rounds, what was delivered.
 */
import type { Chunk, KeyRange, KeyRangePlan } from '../../nodes/shared/paging/keyRanges';
import { limitCertain, nextChunk, pickRange, planKeyRanges, takeAnswer } from '../../nodes/shared/paging/keyRanges';
import { KeySpace, span } from './keySpace';

const bounds = (plan: KeyRangePlan<unknown>) => plan.ranges.map((range) => [range.start, range.hi]);

describe('planKeyRanges', () => {
	it('cuts the keys between the first and the last page into `parallel` ranges on whole pages', () => {
		const plan = planKeyRanges<string>({
			firstKeys: span(10001, 10100),
			parallel: 4,
			pageSize: 100,
			limit: undefined,
			delivered: 100,
			last: { keys: span(10901, 11000), chunk: { page: 'last', start: 0, end: 100 } },
		});
		expect(bounds(plan)).toEqual([
			[10100, 10300],
			[10300, 10500],
			[10500, 10700],
			[10700, 10900],
			[10900, 11000],
		]);
		// The last page is data: its range is done and waits to be emitted last.
		expect(plan.ranges[4]).toMatchObject({ lo: 11000, done: true, fetched: 100, chunks: [{ page: 'last', start: 0, end: 100 }] });
		expect(plan.firstDensity).toBe(1);
	});

	it('with a Limit, estimates the span from the first page and leaves an open end behind it', () => {
		const plan = planKeyRanges({ firstKeys: span(1, 100).map((key) => key * 2), parallel: 4, pageSize: 100, limit: 250, delivered: 100 });
		// 100 records on keys 2…200: a page spans 199 keys; 150 more records are ⌈150 × 1.99⌉ = 299
		// keys, 1.5 pages, so 2 ranges (the first a whole page), then the open end.
		expect(bounds(plan)).toEqual([
			[200, 399],
			[399, 499],
			[499, Infinity],
		]);
	});
});

describe('takeAnswer, nextChunk, limitCertain, pickRange', () => {
	const plan = () =>
		planKeyRanges<string>({
			firstKeys: span(1, 100),
			parallel: 2,
			pageSize: 100,
			limit: undefined,
			delivered: 100,
			last: { keys: span(701, 800), chunk: { page: 'last', start: 0, end: 100 } },
		});

	it('takes a full page up to its last key, a short page for the whole span asked for', () => {
		const read = plan();
		expect(bounds(read)).toEqual([
			[100, 400],
			[400, 700],
			[700, 800],
		]);
		expect(takeAnswer(read, { page: 'a', keys: span(101, 200), hasMore: true }, 100, 400)).toBe(true);
		expect(read.ranges[0]).toMatchObject({ lo: 200, done: false, fetched: 100 });
		expect(takeAnswer(read, { page: 'b', keys: [250, 260], hasMore: false }, 200, 400)).toBe(true);
		expect(read.ranges[0]).toMatchObject({ lo: 400, done: true, fetched: 102 });
		expect(read.ranges[0].chunks).toEqual([
			{ page: 'a', start: 0, end: 100 },
			{ page: 'b', start: 0, end: 2 },
		]);
	});

	it('refuses an answer out of order or outside the span, taking nothing', () => {
		const read = plan();
		expect(takeAnswer(read, { page: 'x', keys: [150, 140], hasMore: false }, 100, 400)).toBe(false);
		expect(takeAnswer(read, { page: 'x', keys: [150, 401], hasMore: false }, 100, 400)).toBe(false);
		expect(takeAnswer(read, { page: 'x', keys: [100, 150], hasMore: false }, 100, 400)).toBe(false);
		expect(takeAnswer(read, { page: 'x', keys: undefined, hasMore: false }, 100, 400)).toBe(false);
		expect(read.ranges[0]).toMatchObject({ lo: 100, fetched: 0, chunks: [] });
	});

	it('emits in key order: a later range waits until every range before it is done', () => {
		const read = plan();
		takeAnswer(read, { page: 'second', keys: [450], hasMore: false }, 400, 700);
		expect(nextChunk(read)).toBeUndefined();
		takeAnswer(read, { page: 'first', keys: [150], hasMore: false }, 100, 400);
		const order: Array<Chunk<string> | undefined> = [nextChunk(read), nextChunk(read), nextChunk(read), nextChunk(read)];
		expect(order.map((chunk) => chunk?.page)).toEqual(['first', 'second', 'last', undefined]);
		expect(read.emitted).toBe(3);
	});

	it('with a Limit, knows when the records below a range fill it', () => {
		const read = planKeyRanges<string>({ firstKeys: span(1, 100), parallel: 2, pageSize: 100, limit: 150, delivered: 100 });
		const [first, second] = read.ranges as Array<KeyRange<string>>;
		expect(limitCertain(read, first, 100)).toBe(false);
		takeAnswer(read, { page: 'a', keys: span(101, 150), hasMore: false }, 100, first.hi);
		expect(limitCertain(read, second, 100)).toBe(true);
		// pickRange closes the ranges the Limit does not need.
		expect(pickRange(read, 100)).toBeUndefined();
		expect(read.ranges.every((range) => range.done)).toBe(true);
	});

	it('hands a free worker the upper half of the busiest range', () => {
		const read = planKeyRanges<string>({
			firstKeys: span(1, 100),
			parallel: 1,
			pageSize: 100,
			limit: undefined,
			delivered: 100,
			last: { keys: span(1001, 1100), chunk: { page: 'last', start: 0, end: 100 } },
		});
		const only = pickRange(read, 100) as KeyRange<string>;
		expect([only.start, only.hi]).toEqual([100, 1000]);
		only.owned = true;
		only.inFlight = true;
		// 900 keys at one record per key, one page on its way: split what is left after it in half.
		const taken = pickRange(read, 100) as KeyRange<string>;
		expect([taken.start, taken.hi]).toEqual([600, 1000]);
		expect(only.hi).toBe(600);
		expect(bounds(read)).toEqual([
			[100, 600],
			[600, 1000],
			[1000, 1100],
		]);
	});
});

describe('the read against a simulated service', () => {
	it('dense ids: the first page, the last page, then 4 ranges of 2 pages: 10 requests in 4 rounds', async () => {
		const ids = span(10001, 11000);
		const read = await new KeySpace(ids).read({ parallel: 4 });
		expect(read.delivered).toEqual(ids);
		expect(read.requests.slice(0, 2)).toEqual(['first 100', 'last']);
		expect(read.requests.slice(2).sort()).toEqual(
			[
				'(10100,10300]',
				'(10200,10300]',
				'(10300,10500]',
				'(10400,10500]',
				'(10500,10700]',
				'(10600,10700]',
				'(10700,10900]',
				'(10800,10900]',
			].sort(),
		);
		expect({ rounds: read.rounds, widestRound: read.widestRound }).toEqual({ rounds: 4, widestRound: 4 });
	});

	it('one request at a time when parallel is 1: every round answers one request', async () => {
		const ids = span(1, 1000);
		const read = await new KeySpace(ids).read({ parallel: 1 });
		expect(read.delivered).toEqual(ids);
		expect(read.widestRound).toBe(1);
		expect(read.rounds).toBe(read.requests.length);
	});

	// Today's planning on id layouts with gaps, as counts; issue #24 improves these.
	const layouts: Record<string, { ids: number[]; requests: number; rounds: number }> = {
		'one long gap (1–300, 9,001–13,750)': { ids: [...span(1, 300), ...span(9001, 13750)], requests: 53, rounds: 15 },
		'two dense islands of different sizes': { ids: [...span(1, 2000), ...span(50001, 50400)], requests: 30, rounds: 10 },
		'uniformly sparse (every 7th id)': { ids: span(1, 5000).map((index) => index * 7), requests: 51, rounds: 15 },
	};
	for (const [name, layout] of Object.entries(layouts)) {
		it(`${name}: every id once, in order; ${layout.requests} requests in ${layout.rounds} rounds`, async () => {
			const read = await new KeySpace(layout.ids).read({ parallel: 4 });
			expect(read.delivered).toEqual(layout.ids);
			expect(read.widestRound).toBeLessThanOrEqual(4);
			expect({ requests: read.requests.length, rounds: read.rounds }).toEqual({ requests: layout.requests, rounds: layout.rounds });
		});
	}

	it('with a Limit: reads only what the Limit needs, in order', async () => {
		const read = await new KeySpace(span(10001, 11000)).read({ parallel: 4, limit: 250 });
		expect(read.delivered).toEqual(span(10001, 10250));
		expect(read.requests).toEqual(['first 100', '(10100,10200]', '(10200,10250]']);
		expect(read.rounds).toBe(2);
	});

	it('with a Limit beyond the estimate: reads on into the open end, page after page', async () => {
		const ids = [...span(1, 300), ...span(9001, 13750)];
		const read = await new KeySpace(ids).read({ parallel: 4, limit: 1000 });
		expect(read.delivered).toEqual(ids.slice(0, 1000));
		expect(read.requests.filter((request) => request.endsWith(',Infinity]'))).toEqual([
			'(1000,Infinity]',
			'(9100,Infinity]',
			'(9200,Infinity]',
			'(9300,Infinity]',
			'(9400,Infinity]',
			'(9500,Infinity]',
			'(9600,Infinity]',
		]);
	});

	it('loses and repeats nothing while records are created and deleted between rounds', async () => {
		const space = new KeySpace(span(1, 2000));
		const created = [2500, 2501];
		const deleted = [1500, 1501, 1502];
		const read = await space.read({
			parallel: 4,
			beforeRound: (round) => {
				if (round === 3) {
					space.add(...created);
					space.remove(...deleted);
				}
			},
		});
		expect(new Set(read.delivered).size).toBe(read.delivered.length);
		expect(read.delivered).toEqual([...read.delivered].sort((a, b) => a - b));
		// Every record that existed throughout is there; a deleted one only if read before it went.
		const kept = span(1, 2000).filter((id) => !deleted.includes(id));
		expect(kept.every((id) => read.delivered.includes(id))).toBe(true);
		expect(kept).toHaveLength(1997);
	});

	it('hands over to page-after-page reading when the first page is not in whole-number id order', async () => {
		const read = await new KeySpace(span(1, 500)).read({ parallel: 4, unordered: true });
		expect(read.handedOver).toBe(true);
		expect(read.requests).toEqual(['first 100']);
		expect(read.delivered).toEqual(span(1, 100));
	});

	it('a short first page is the whole read', async () => {
		const read = await new KeySpace(span(1, 40)).read({ parallel: 4 });
		expect(read.delivered).toEqual(span(1, 40));
		expect(read.requests).toEqual(['first 100']);
	});
});
