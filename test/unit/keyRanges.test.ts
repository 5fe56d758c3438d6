/**
 * The parallel keyset read without the engine: its planning pieces (nodes/shared/paging/keyRanges.ts)
 * on plain data, and its driver (parallelKeyset.ts) against a simulated service over an id set that
 * answers in rounds (keySpace.ts), over the id layouts a multi-tenant service produces
 * (sandbox/layouts.ts). Counts only: requests, rounds, what was delivered.
 */
import type { KeyPlan, KeyRequest } from '../../nodes/shared/paging/keyRanges';
import { complete, nextChunk, nextRequest, startPlan, takeAnswer } from '../../nodes/shared/paging/keyRanges';
import { ID_LAYOUTS, ID_LAYOUT_DESCRIPTIONS, idLayout } from '../../sandbox/layouts';
import { KeySpace, span } from './keySpace';

const PAGE = 100;

/** The plan after a first page of keys 1…100, with the requests a free worker asks for, one by one. */
function planAfterFirstPage(options: { parallel?: number; limit?: number } = {}): KeyPlan<string> {
	return startPlan<string>({ firstKeys: span(1, 100), parallel: options.parallel ?? 4, pageSize: PAGE, limit: options.limit, delivered: 100 });
}

const asked = (request: KeyRequest | undefined) =>
	request === undefined ? undefined : `${request.direction === 'up' ? '↑' : '↓'}(${request.from},${request.to}]`;

const stretches = (plan: KeyPlan<string>) => plan.known.map((stretch) => [stretch.from, stretch.to, stretch.records]);

describe('the plan, on plain data', () => {
	it('Return All: the last page first, alone; the gap it bounds is then read from both edges and split in the middle', () => {
		const plan = planAfterFirstPage();
		const last = nextRequest(plan) as KeyRequest;
		expect(asked(last)).toBe('↓(100,Infinity]');
		// Nothing else until the last page bounds the key space.
		expect(nextRequest(plan)).toBeUndefined();
		expect(takeAnswer(plan, last, { page: 'last', keys: span(901, 1000), hasMore: true })).toBe(true);
		expect(stretches(plan)).toEqual([
			[-Infinity, 100, 100],
			[900, Infinity, 100],
		]);
		// 800 keys at one record per key: from below, from above, then a split at the middle of what
		// those two pages leave (on a whole page), and its other side.
		const round = [nextRequest(plan), nextRequest(plan), nextRequest(plan), nextRequest(plan)].map(asked);
		expect(round).toEqual(['↑(100,900]', '↓(100,900]', '↑(500,900]', '↓(100,500]']);
		expect(plan.splits).toBe(1);
		// One split per gap at a time: a fifth worker waits for an answer.
		expect(nextRequest(plan)).toBeUndefined();
	});

	it('takes a full page up to its last key (read up) or from its first key (read down), a short page for the whole span', () => {
		const plan = planAfterFirstPage();
		const last = nextRequest(plan) as KeyRequest;
		takeAnswer(plan, last, { page: 'last', keys: span(901, 1000), hasMore: true });
		const [up, down, split, splitDown] = [nextRequest(plan), nextRequest(plan), nextRequest(plan), nextRequest(plan)] as KeyRequest[];
		takeAnswer(plan, up, { page: 'up', keys: span(101, 200), hasMore: true });
		takeAnswer(plan, down, { page: 'down', keys: span(801, 900), hasMore: true });
		takeAnswer(plan, split, { page: 'split', keys: [550, 560], hasMore: false });
		expect(stretches(plan)).toEqual([
			[-Infinity, 200, 200],
			[500, Infinity, 202],
		]);
		expect(plan.wasted).toBeCloseTo(0.98);
		// The same keys again (a request that was on its way): nothing taken twice.
		takeAnswer(plan, splitDown, { page: 'again', keys: span(401, 500), hasMore: true });
		takeAnswer(plan, { from: 100, to: 500, direction: 'up' }, { page: 'overlap', keys: span(151, 250), hasMore: true });
		expect(stretches(plan)).toEqual([
			[-Infinity, 250, 250],
			[400, Infinity, 302],
		]);
	});

	it('refuses an answer out of order or outside the span asked for, taking nothing', () => {
		const plan = planAfterFirstPage();
		const request: KeyRequest = { from: 100, to: 400, direction: 'up' };
		expect(takeAnswer(plan, request, { page: 'x', keys: [150, 140], hasMore: false })).toBe(false);
		expect(takeAnswer(plan, request, { page: 'x', keys: [150, 401], hasMore: false })).toBe(false);
		expect(takeAnswer(plan, request, { page: 'x', keys: [100, 150], hasMore: false })).toBe(false);
		expect(takeAnswer(plan, request, { page: 'x', keys: undefined, hasMore: false })).toBe(false);
		expect(stretches(plan)).toEqual([[-Infinity, 100, 100]]);
	});

	it('emits in key order: records above a gap wait until it is closed', () => {
		const plan = planAfterFirstPage();
		takeAnswer(plan, { from: 100, to: Infinity, direction: 'down' }, { page: 'last', keys: span(901, 1000), hasMore: true });
		takeAnswer(plan, { from: 500, to: 900, direction: 'up' }, { page: 'middle', keys: [600], hasMore: false });
		expect(nextChunk(plan)).toBeUndefined();
		takeAnswer(plan, { from: 100, to: 500, direction: 'up' }, { page: 'first', keys: [150], hasMore: false });
		expect(complete(plan)).toBe(true);
		const order = [nextChunk(plan), nextChunk(plan), nextChunk(plan), nextChunk(plan)];
		expect(order.map((chunk) => chunk?.page)).toEqual(['first', 'middle', 'last', undefined]);
	});

	it('with a Limit: reads up to where the first page says it is reached, only from below, and nothing above what fills it', () => {
		const plan = planAfterFirstPage({ limit: 250 });
		// 150 records to go at one per key: up to key 250, a page from below and the rest after it.
		const requests = [nextRequest(plan), nextRequest(plan), nextRequest(plan)].map(asked);
		expect(requests).toEqual(['↑(100,250]', '↑(200,250]', undefined]);
		takeAnswer(plan, { from: 100, to: 250, direction: 'up' }, { page: 'a', keys: span(101, 200), hasMore: true });
		takeAnswer(plan, { from: 200, to: 250, direction: 'up' }, { page: 'b', keys: span(201, 250), hasMore: false });
		// 250 records known below key 250: nothing above it is asked for.
		expect(nextRequest(plan)).toBeUndefined();
	});

	it('splits no more once the requests short of a page would take the read past its budget', () => {
		const gapOf1900Keys = (wasted: number) => {
			const plan = planAfterFirstPage();
			takeAnswer(plan, nextRequest(plan) as KeyRequest, { page: 'last', keys: span(2001, 2100), hasMore: true });
			// `wasted` requests sent that brought no new record.
			plan.wasted = wasted;
			plan.sent += wasted;
			return [nextRequest(plan), nextRequest(plan), nextRequest(plan)].map(asked);
		};
		// About 21 pages: the budget of short pages is 1 + ⌈4 ÷ 2⌉ = 3 (8 % of 21 pages is less). A split
		// makes 2 gaps, each to close with about one request short of a page: 0 + 2 + 1 ≤ 3, but not
		// after 3 such requests. Nor do the requests allow it then: 7 sent, 17 more for the 1,900
		// records beyond the 2 on their way, and a short page for each of the 2 gaps, 26 > 1.1 × 22.
		expect(gapOf1900Keys(0)).toEqual(['↑(100,2000]', '↓(100,2000]', '↑(1000,2000]']);
		expect(gapOf1900Keys(3)).toEqual(['↑(100,2000]', '↓(100,2000]', undefined]);
	});

	it('Return All: decides what a part needs next once its readers of the round have answered, keeping the slot for it', () => {
		const plan = planAfterFirstPage();
		takeAnswer(plan, nextRequest(plan) as KeyRequest, { page: 'last', keys: span(2001, 2100), hasMore: true });
		const round3 = [nextRequest(plan), nextRequest(plan), nextRequest(plan), nextRequest(plan)] as KeyRequest[];
		expect(round3.map(asked)).toEqual(['↑(100,2000]', '↓(100,2000]', '↑(1000,2000]', '↓(100,1000]']);
		const [up, down, split, splitDown] = round3;
		// Round 3 answers one by one. Each of the first two leaves its part with a reader still to
		// answer in this round: nothing is sent for it yet, nor for any other part in the slot it freed.
		takeAnswer(plan, up, { page: 'up', keys: span(101, 200), hasMore: true });
		expect(nextRequest(plan)).toBeUndefined();
		takeAnswer(plan, split, { page: 'split', keys: span(1001, 1100), hasMore: true });
		expect(nextRequest(plan)).toBeUndefined();
		// The lower part's readers have both answered: it is read on from where they ended, from both
		// edges, in two of the three free slots; the third is kept for the upper part.
		takeAnswer(plan, splitDown, { page: 'splitDown', keys: span(901, 1000), hasMore: true });
		expect([nextRequest(plan), nextRequest(plan), nextRequest(plan)].map(asked)).toEqual(['↑(200,900]', '↓(200,900]', undefined]);
		// The round's last answer: the upper part, from both edges.
		takeAnswer(plan, down, { page: 'down', keys: span(1901, 2000), hasMore: true });
		expect([nextRequest(plan), nextRequest(plan), nextRequest(plan)].map(asked)).toEqual(['↑(1100,1900]', '↓(1100,1900]', undefined]);
		// All of them answered in round 4, however the answers of round 3 arrived.
		expect(plan.round).toBe(3);
		expect(plan.inFlight.map((request) => plan.roundOf.get(request))).toEqual([4, 4, 4, 4]);
	});
});

describe('Return All of 5,050 records over the layouts of a multi-tenant service, 4 requests at once', () => {
	// Page after page sends 51 requests in 51 rounds. No read of 51 pages at 4 at once needs fewer
	// than ⌈51 ÷ 4⌉ = 13 rounds. This one sends the first and the last page alone (the first says
	// whether there is more, the last bounds the key space: 2 rounds for 2 pages), then reads with
	// every worker; its gaps close on a short page each, and a split placed on an estimate that
	// turned out wrong frees workers early, while the request budget may keep them from splitting
	// again. So it is held to ⌈pages ÷ 4⌉ + 5 (0.35 of page after page): 1.5 rounds for the lone
	// pages, 1 for the short pages where readers meet, 2 for splits on wrong estimates.
	const PARALLEL = 4;
	for (const answer of ['together', 'oneByOne'] as const) {
		for (const layout of ID_LAYOUTS) {
			it(`${ID_LAYOUT_DESCRIPTIONS[layout]}, answers ${answer === 'together' ? 'of a round together' : 'one by one'}: every id once, in order; requests ≤ 1.1 × page after page; rounds ≤ ⌈pages ÷ 4⌉ + 5`, async () => {
				const ids = idLayout(layout, 5050);
				const space = new KeySpace(ids);
				const sequential = space.sequentialRequests;
				const read = await space.read({ parallel: PARALLEL, answer });
				expect(sequential).toBe(51);
				expect(read.delivered).toEqual(ids);
				expect(read.widestRound).toBe(PARALLEL);
				expect(read.requests.length).toBeLessThanOrEqual(1.1 * sequential);
				expect(read.rounds).toBeLessThanOrEqual(Math.ceil(sequential / PARALLEL) + 5);
				// Every request a page-1 keyset request: the first page, then pages by keys.
				expect(read.requests[0]).toBe('first 100');
				expect(read.requests.slice(1).every((request) => /^[↑↓]\(\d+,(\d+|Infinity)\]$/.test(request))).toBe(true);
			});
		}
	}

	it('with 2 and 8 requests at once: every id once, in order; requests within 1.1 × page after page', async () => {
		const results: string[] = [];
		for (const parallel of [2, 8]) {
			for (const layout of ID_LAYOUTS) {
				const ids = idLayout(layout, 5050);
				const read = await new KeySpace(ids).read({ parallel, answer: 'oneByOne' });
				expect(read.delivered).toEqual(ids);
				expect(read.widestRound).toBeLessThanOrEqual(parallel);
				expect(read.requests.length).toBeLessThanOrEqual(1.1 * 51);
				results.push(`${parallel} ${layout}`);
			}
		}
		expect(results).toHaveLength(12);
	});

	it('one request at a time when parallel is 1: every round answers one request', async () => {
		const ids = idLayout('skewedTop', 1000);
		const read = await new KeySpace(ids).read({ parallel: 1 });
		expect(read.delivered).toEqual(ids);
		expect(read.widestRound).toBe(1);
		expect(read.rounds).toBe(read.requests.length);
	});
});

describe('records created and deleted while the read runs', () => {
	for (const [layout, answer] of ID_LAYOUTS.flatMap((name) => [[name, 'together'] as const, [name, 'oneByOne'] as const])) {
		it(`${ID_LAYOUT_DESCRIPTIONS[layout]}, answers ${answer === 'together' ? 'of a round together' : 'one by one'}: nothing lost that existed throughout, nothing repeated, nothing that never existed, in order`, async () => {
			const ids = idLayout(layout, 5050);
			const space = new KeySpace(ids);
			const top = ids[ids.length - 1];
			// Every 97th record deleted and one created in each gap between ids, at rounds 3, 6 and 9.
			const deleted = new Set<number>();
			const created = new Set<number>();
			const read = await space.read({
				parallel: 4,
				answer,
				beforeRound: (round) => {
					if (round % 3 !== 0) return;
					const victims = ids.filter((_, index) => (index + round) % 97 === 0);
					space.remove(...victims);
					victims.forEach((id) => deleted.add(id));
					const fresh = ids.filter((id, index) => index % 211 === round && !ids.includes(id + 1)).map((id) => id + 1);
					fresh.push(top + round);
					space.add(...fresh);
					fresh.forEach((id) => created.add(id));
				},
			});
			expect(deleted.size).toBeGreaterThan(100);
			expect(created.size).toBeGreaterThan(3);
			expect(new Set(read.delivered).size).toBe(read.delivered.length);
			expect(read.delivered).toEqual([...read.delivered].sort((a, b) => a - b));
			const throughout = ids.filter((id) => !deleted.has(id));
			const returned = new Set(read.delivered);
			expect(throughout.filter((id) => !returned.has(id))).toEqual([]);
			const existed = new Set([...ids, ...created]);
			expect(read.delivered.filter((id) => !existed.has(id))).toEqual([]);
		});
	}
});

describe('a Limit', () => {
	it('dense ids, Limit 250: the first page, then 2 requests at once, none beyond the Limit', async () => {
		const read = await new KeySpace(span(10001, 11000)).read({ parallel: 4, limit: 250 });
		expect(read.delivered).toEqual(span(10001, 10250));
		expect(read.perRound).toEqual([['first 100'], ['↑(10100,10250]', '↑(10200,10250]']]);
	});

	for (const layout of ID_LAYOUTS) {
		it(`${ID_LAYOUT_DESCRIPTIONS[layout]}, Limit 1,234: the first 1,234 in order, at most 4 + 1 requests more than page after page`, async () => {
			const ids = idLayout(layout, 5050);
			const read = await new KeySpace(ids).read({ parallel: 4, limit: 1234, answer: 'oneByOne' });
			expect(read.delivered).toEqual(ids.slice(0, 1234));
			// Page after page: 13 requests. Requests above the 1,234th record are sent only where the
			// density estimated from the pages before it was too low (never once the known records fill it).
			expect(read.requests.length).toBeLessThanOrEqual(13 + 5);
		});
	}

	it('reads on beyond an estimated bound that the records below did not fill, one page, then bounded again', async () => {
		const ids = idLayout('oneLongGap', 5050);
		const read = await new KeySpace(ids).read({ parallel: 4, limit: 1000 });
		expect(read.delivered).toEqual(ids.slice(0, 1000));
		// The first page says 900 more records lie within 900 keys: they hold only 200 (ids 10101–10300).
		// One page above that bound finds the ids that resume at 19001; the 600 still missing are
		// then bounded by its density, 600 keys above it, and read at once again.
		const open = read.requests.filter((request) => request.endsWith(',Infinity]'));
		expect(open).toEqual(['↑(11000,Infinity]']);
		expect(read.requests).toContain('↑(19100,19700]');
	});
});

describe('the read in the order of -id, and its edge cases', () => {
	it('keys are minus the ids: descending ids are read as ascending keys, all of them, in order', async () => {
		const ids = idLayout('skewedTop', 5050);
		const keys = ids.map((id) => -id).reverse();
		const read = await new KeySpace(keys).read({ parallel: 4 });
		expect(read.delivered.map((key) => -key)).toEqual([...ids].reverse());
		expect(read.requests.length).toBeLessThanOrEqual(1.1 * 51);
		expect(read.rounds).toBeLessThanOrEqual(13 + 3);
	});

	it('hands over to page-after-page reading when the first page is not in whole-number id order', async () => {
		const read = await new KeySpace(span(1, 500)).read({ parallel: 4, unordered: true });
		expect(read.handedOver).toBe(true);
		expect(read.requests).toEqual(['first 100']);
		expect(read.delivered).toEqual(span(1, 100));
	});

	it('a short first page is the whole read; a short last page ends it', async () => {
		const short = await new KeySpace(span(1, 40)).read({ parallel: 4 });
		expect(short.delivered).toEqual(span(1, 40));
		expect(short.requests).toEqual(['first 100']);
		const two = await new KeySpace(span(1, 150)).read({ parallel: 4 });
		expect(two.delivered).toEqual(span(1, 150));
		expect(two.requests).toEqual(['first 100', '↓(100,Infinity]']);
	});
});
