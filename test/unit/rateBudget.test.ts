/**
 * The rate-limit budget on its own (nodes/shared/requests/rateBudget.ts), on a virtual clock the
 * test moves: what the headers say decides when a request may go, in order of arrival.
 */
import { TestClock } from '../../harness/clock';
import type { Ticket } from '../../nodes/shared/requests/rateBudget';
import { RateBudget, costClassOf, parseRetryAfter, readRateLimitHeaders } from '../../nodes/shared/requests/rateBudget';

/** Lets every queued promise callback run. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

const SEARCH = costClassOf('GET', '/deals', {});
const WRITE = costClassOf('POST', '/contacts');

/** A budget that has seen one answer: limit 300 tokens per 5 minutes (1 token a second). */
async function budgetAfterFirstAnswer(clock: TestClock, remaining: number, cost = 10): Promise<RateBudget> {
	const budget = new RateBudget(clock);
	const first = await budget.admit(SEARCH, { paced: true, maxWaitMs: 600_000 });
	budget.settle((first as { ticket: Ticket }).ticket, 200, { limit: 300, remaining, cost }, SEARCH);
	return budget;
}

describe('reading the headers', () => {
	it('reads x-ratelimit-* and retry-after (seconds or an HTTP date against the given clock)', () => {
		const now = Date.UTC(2026, 10, 26, 0, 0, 0);
		expect(readRateLimitHeaders({ 'x-ratelimit-limit': '3000', 'x-ratelimit-remaining': '12', 'x-ratelimit-cost': '10', 'retry-after': '7' }, now)).toEqual({
			limit: 3000,
			remaining: 12,
			cost: 10,
			retryAfterSeconds: 7,
		});
		expect(readRateLimitHeaders({}, now)).toEqual({});
		expect(readRateLimitHeaders({ 'x-ratelimit-limit': 'many' }, now).limit).toBeUndefined();
		expect(parseRetryAfter(new Date(now + 90_500).toUTCString(), now)).toBe(90);
		expect(parseRetryAfter('1.2', now)).toBe(2);
		expect(parseRetryAfter('soon', now)).toBeUndefined();
	});

	it('classes requests by what the service prices: endpoint, page number above 1, non-id sort, include depth', () => {
		expect(costClassOf('GET', '/deals/12/dealNotes')).toBe(costClassOf('GET', '/deals/99/dealNotes'));
		expect(costClassOf('GET', '/deals', { filter: "greaterThan(id,'1')" })).toBe(costClassOf('GET', '/deals', { filter: "equals(name,'x')", sort: '-id' }));
		const classes = new Set([
			costClassOf('GET', '/deals'),
			costClassOf('GET', '/deals', { pageNumber: 2 }),
			costClassOf('GET', '/deals', { sort: '-updated' }),
			costClassOf('GET', '/deals', { include: 'customStatus' }),
			costClassOf('GET', '/deals', { include: 'dealNotes.deal' }),
			costClassOf('GET', '/deals', { extra: [['page[number]', '3']] }),
			costClassOf('PATCH', '/deals/1'),
		]);
		expect(classes.size).toBe(6);
	});
});

describe('pacing', () => {
	it('knows nothing before the first answer: lets requests through at once', async () => {
		const clock = TestClock.virtual();
		const budget = new RateBudget(clock);
		const outcomes = await Promise.all([1, 2, 3].map(async () => await budget.admit(SEARCH, { paced: true, maxWaitMs: 1000 })));
		expect(outcomes.every((outcome) => 'ticket' in outcome)).toBe(true);
		expect(budget.requestsInFlight).toBe(3);
	});

	it('lets a request go at once while the tokens left cover it and the requests in flight', async () => {
		const clock = TestClock.virtual();
		const budget = await budgetAfterFirstAnswer(clock, 35);
		const granted: number[] = [];
		for (let i = 0; i < 3; i++) void budget.admit(SEARCH, { paced: true, maxWaitMs: 600_000 }).then(() => granted.push(i));
		await settled();
		// 35 tokens cover three searches of 10 in flight; the fourth waits 5 s of refill (1 token a second).
		expect(granted).toEqual([0, 1, 2]);
		let fourth = false;
		void budget.admit(SEARCH, { paced: true, maxWaitMs: 600_000 }).then(() => (fourth = true));
		await settled();
		expect(fourth).toBe(false);
		clock.advance(4_999);
		await settled();
		expect(fourth).toBe(false);
		clock.advance(1);
		await settled();
		expect(fourth).toBe(true);
	});

	it('waits for the refill the headers imply instead of sending into a 429', async () => {
		const clock = TestClock.virtual();
		const budget = await budgetAfterFirstAnswer(clock, 3);
		let admitted: Ticket | undefined;
		void budget.admit(SEARCH, { paced: true, maxWaitMs: 600_000 }).then((outcome) => (admitted = (outcome as { ticket: Ticket }).ticket));
		await settled();
		expect(budget.waitFor(10)).toEqual({ waitMs: 7_000, reason: 'refill' });
		clock.advance(6_999);
		await settled();
		expect(admitted).toBeUndefined();
		clock.advance(1);
		await settled();
		expect(admitted).toMatchObject({ cost: 10, waitedMs: 7_000 });
	});

	it('counts the requests in flight sent after the answer it believes, not those before', async () => {
		const clock = TestClock.virtual();
		const budget = await budgetAfterFirstAnswer(clock, 100);
		const tickets: Ticket[] = [];
		for (let i = 0; i < 4; i++) tickets.push(((await budget.admit(SEARCH, { paced: true, maxWaitMs: 0 })) as { ticket: Ticket }).ticket);
		// 100 left, 4 × 10 on their way: 60 expected.
		expect(budget.waitFor(61).waitMs).toBe(1_000);
		// The second one's answer: 80 left (it and the first were processed); the last two still count.
		budget.settle(tickets[1], 200, { limit: 300, remaining: 80, cost: 10 }, SEARCH);
		expect(budget.waitFor(61).waitMs).toBe(1_000);
		expect(budget.waitFor(60).waitMs).toBe(0);
		// The first one's answer, arriving late, says less than what is believed: ignored.
		budget.settle(tickets[0], 200, { limit: 300, remaining: 90, cost: 10 }, SEARCH);
		expect(budget.waitFor(61).waitMs).toBe(1_000);
	});

	it('learns each kind of request\'s cost; an unknown kind is assumed as dear as the dearest seen', async () => {
		const clock = TestClock.virtual();
		const budget = await budgetAfterFirstAnswer(clock, 200, 10);
		expect(budget.estimatedCost(SEARCH)).toBe(10);
		expect(budget.estimatedCost(WRITE)).toBe(10);
		const write = (await budget.admit(WRITE, { paced: true, maxWaitMs: 0 })) as { ticket: Ticket };
		budget.settle(write.ticket, 201, { limit: 300, remaining: 185, cost: 5 }, WRITE);
		expect(budget.estimatedCost(WRITE)).toBe(5);
		expect(budget.estimatedCost(costClassOf('GET', '/deals', { pageNumber: 2 }))).toBe(10);
	});

	it('after a 429, no request goes before its retry-after, and the 429 spent nothing', async () => {
		const clock = TestClock.virtual();
		const budget = await budgetAfterFirstAnswer(clock, 250);
		const limited = (await budget.admit(SEARCH, { paced: true, maxWaitMs: 600_000 })) as { ticket: Ticket };
		budget.settle(limited.ticket, 429, { limit: 300, remaining: 250, cost: 10, retryAfterSeconds: 30 }, SEARCH);
		expect(budget.requestsInFlight).toBe(0);
		expect(budget.waitFor(10)).toEqual({ waitMs: 30_000, reason: 'retryAfter' });
		let admitted = false;
		void budget.admit(SEARCH, { paced: true, maxWaitMs: 600_000 }).then(() => (admitted = true));
		clock.advance(29_999);
		await settled();
		expect(admitted).toBe(false);
		clock.advance(1);
		await settled();
		expect(admitted).toBe(true);
	});

	it('refuses at once a request whose wait is longer than it may wait, saying how long and why', async () => {
		const clock = TestClock.virtual();
		const budget = await budgetAfterFirstAnswer(clock, 0);
		expect(await budget.admit(SEARCH, { paced: true, maxWaitMs: 9_999 })).toEqual({ refused: { waitMs: 10_000, reason: 'refill', remaining: 0, limit: 300 } });
		const limited = (await budget.admit(SEARCH, { paced: false })) as { ticket: Ticket };
		budget.settle(limited.ticket, 429, { limit: 300, remaining: 0, cost: 10, retryAfterSeconds: 3600 }, SEARCH);
		expect(await budget.admit(SEARCH, { paced: true, maxWaitMs: 600_000 })).toEqual({ refused: { waitMs: 3_600_000, reason: 'retryAfter', remaining: 0, limit: 300 } });
		// Not paced: let through without waiting for the refill, refused only while a retry-after is ahead.
		expect(await budget.admit(SEARCH, { paced: false })).toMatchObject({ refused: { reason: 'retryAfter' } });
		clock.advance(3_600_000);
		expect(await budget.admit(SEARCH, { paced: false })).toMatchObject({ ticket: { waitedMs: 0 } });
	});

	it('runs take turns, each run\'s requests in order: a poll behind a bulk job waits for one of its requests, not all', async () => {
		const clock = TestClock.virtual();
		const budget = await budgetAfterFirstAnswer(clock, 0, 10);
		const order: string[] = [];
		const job = {};
		const poll = {};
		const ask = (name: string) =>
			void budget.admit(SEARCH, { paced: true, maxWaitMs: 3_600_000 }, name.startsWith('job') ? job : poll).then((outcome) => {
				order.push(name);
				budget.settle((outcome as { ticket: Ticket }).ticket, 200, { limit: 300, remaining: 0, cost: 10 }, SEARCH);
			});
		for (let i = 0; i < 4; i++) ask(`job${i}`);
		await settled();
		ask('poll0');
		ask('poll1');
		for (let second = 0; second < 100 && order.length < 6; second++) {
			clock.advance(1_000);
			await settled();
		}
		expect(order).toEqual(['job0', 'poll0', 'job1', 'poll1', 'job2', 'job3']);
	});

	it('a request dearer than the whole bucket goes when the bucket is full', async () => {
		const clock = TestClock.virtual();
		const budget = await budgetAfterFirstAnswer(clock, 0);
		expect(budget.waitFor(1_000).waitMs).toBe(300_000);
	});
});

describe('several processes on one client\'s budget (queue-mode workers)', () => {
	it('two processes, each with its own budget and 4 requests at a time, share one bucket: all 800 writes go through at the bucket\'s pace, a 429 repeated first', async () => {
		const clock = TestClock.at(0);
		clock.autoAdvance(() => false);
		const limit = 300;
		const rate = limit / 300_000;
		const bucket = { tokens: limit, last: 0 };
		const send = (cost: number) => {
			const now = clock.now();
			bucket.tokens = Math.min(limit, bucket.tokens + (now - bucket.last) * rate);
			bucket.last = now;
			if (bucket.tokens >= cost) {
				bucket.tokens -= cost;
				return { status: 200, headers: { limit, remaining: Math.floor(bucket.tokens), cost } };
			}
			return { status: 429, headers: { limit, remaining: Math.floor(bucket.tokens), cost, retryAfterSeconds: Math.ceil((cost - bucket.tokens) / rate / 1000) } };
		};
		let tooMany = 0;
		let worstRun = 0;
		let done = 0;
		const worker = async (budget: RateBudget, owner: object, count: number) => {
			for (let i = 0; i < count; i++) {
				let run = 0;
				for (;;) {
					const admitted = await budget.admit(WRITE, { paced: true, maxWaitMs: 600_000 }, owner, run > 0);
					if (!('ticket' in admitted)) throw new Error(`refused: ${JSON.stringify(admitted.refused)}`);
					await Promise.resolve();
					const answer = send(5);
					budget.settle(admitted.ticket, answer.status, answer.headers, WRITE);
					if (answer.status === 200) break;
					tooMany += 1;
					run += 1;
					worstRun = Math.max(worstRun, run);
				}
				done += 1;
			}
		};
		const processes = [new RateBudget(clock), new RateBudget(clock)];
		await Promise.all(processes.flatMap((budget) => { const owner = {}; return [0, 1, 2, 3].map(async () => await worker(budget, owner, 100)); }));
		expect(done).toBe(800);
		const seconds = clock.now() / 1000;
		const floor = (800 * 5 - limit) / (rate * 1000);
		if (process.env.RATE_LIMIT_DEBUG) console.log({ seconds, floor, tooMany, worstRun });
		expect(seconds).toBeGreaterThanOrEqual(floor - 1);
		expect(seconds).toBeLessThanOrEqual(1.3 * floor);
		// Each process learns the other's spending only from the headers, so they collide (429s, fewer
		// than one per request), but a repeated request goes first: none comes near the transport's
		// 10 attempts.
		expect(tooMany).toBeLessThan(800);
		expect(worstRun).toBeLessThanOrEqual(5);
		if (process.env.RATE_LIMIT_DEBUG) console.log({ seconds, floor, tooMany, worstRun });
	});
});

describe('the virtual clock', () => {
	it('moves by itself only while nothing is busy, to the earliest wake-up', async () => {
		const clock = TestClock.at(0);
		let busy = true;
		let asked = 0;
		let askedThrice = (): void => undefined;
		const busyAskedThrice = new Promise<void>((resolve) => (askedThrice = resolve));
		clock.autoAdvance(() => {
			if (++asked === 3) askedThrice();
			return busy;
		});
		const woke: number[] = [];
		const later = clock.sleep(5_000).then(() => woke.push(clock.now()));
		const sooner = clock.sleep(2_000).then(() => woke.push(clock.now()));
		// Asked three times whether anything is busy, and told so each time: time stood still.
		await busyAskedThrice;
		expect([woke, clock.now()]).toEqual([[], 0]);
		busy = false;
		await Promise.all([later, sooner]);
		expect(woke).toEqual([2_000, 5_000]);
	});
});
