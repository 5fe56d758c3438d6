/**
 * The rate-limit budget on its own (nodes/shared/requests/rateBudget.ts), on a virtual clock the
 * test moves: what the headers say decides when a request may go, in order of arrival.
 */
import { TestClock } from '../../harness/clock';
import type { RateLimitHeaders, Ticket } from '../../nodes/shared/requests/rateBudget';
import { RATE_LIMIT_WINDOW_SECONDS, RateBudget, costClassOf, parseRetryAfter, readRateLimitHeaders } from '../../nodes/shared/requests/rateBudget';

/** Lets every queued promise callback run. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

const SEARCH = costClassOf('GET', '/deals', {});
const WRITE = costClassOf('POST', '/contacts');

const DELETE = costClassOf('DELETE', '/deal-notes/1');

/**
 * A budget whose answers so far brought the bucket (300 tokens per 5 minutes: 1 token a second)
 * down to `remaining` by this process's own requests: the first said 290 after a search of `cost`,
 * each next one `cost` less, a last cheaper request the rest, all at one instant. Every drop is
 * explained by its own spending: it has seen no other process.
 */
async function budgetAt(clock: TestClock, remaining: number, cost = 10): Promise<RateBudget> {
	const budget = new RateBudget(clock);
	let level = 300;
	const answer = async (costClass: string, tokens: number) => {
		const { ticket } = (await budget.admit(costClass, { paced: false })) as { ticket: Ticket };
		level -= tokens;
		budget.settle(ticket, 200, { limit: 300, remaining: level, cost: tokens }, costClass);
	};
	while (level - cost >= remaining) await answer(SEARCH, cost);
	if (level > remaining) await answer(DELETE, level - remaining);
	expect(budget.sharingView.othersPerSecond).toBe(0);
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

	it('lets a request go at once while the tokens left cover it, the requests in flight and room for one more', async () => {
		const clock = TestClock.virtual();
		const budget = await budgetAt(clock, 45);
		const granted: number[] = [];
		for (let i = 0; i < 3; i++) void budget.admit(SEARCH, { paced: true, maxWaitMs: 600_000 }).then(() => granted.push(i));
		await settled();
		// 45 tokens cover three searches of 10 in flight and room for a fourth (the bucket is never
		// emptied, so that another process starting on the client finds a request's worth); the
		// fourth waits 5 s of refill (1 token a second).
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
		const budget = await budgetAt(clock, 13);
		let admitted: Ticket | undefined;
		void budget.admit(SEARCH, { paced: true, maxWaitMs: 600_000 }).then((outcome) => (admitted = (outcome as { ticket: Ticket }).ticket));
		await settled();
		// 13 left: a search of 10 and room for another need 7 more.
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
		const budget = await budgetAt(clock, 100);
		const tickets: Ticket[] = [];
		for (let i = 0; i < 4; i++) tickets.push(((await budget.admit(SEARCH, { paced: true, maxWaitMs: 0 })) as { ticket: Ticket }).ticket);
		// 100 left, 4 × 10 on their way: 60 expected, 50 of them for a request (10 kept as room).
		expect(budget.waitFor(51).waitMs).toBe(1_000);
		// The second one's answer: 80 left (it and the first were processed); the last two still count.
		budget.settle(tickets[1], 200, { limit: 300, remaining: 80, cost: 10 }, SEARCH);
		expect(budget.waitFor(51).waitMs).toBe(1_000);
		expect(budget.waitFor(50).waitMs).toBe(0);
		// The first one's answer, arriving late, says less than what is believed: ignored.
		budget.settle(tickets[0], 200, { limit: 300, remaining: 90, cost: 10 }, SEARCH);
		expect(budget.waitFor(51).waitMs).toBe(1_000);
	});

	it('learns each kind of request\'s cost; an unknown kind is assumed as dear as the dearest seen', async () => {
		const clock = TestClock.virtual();
		const budget = await budgetAt(clock, 200, 10);
		expect(budget.estimatedCost(SEARCH)).toBe(10);
		expect(budget.estimatedCost(WRITE)).toBe(10);
		const write = (await budget.admit(WRITE, { paced: true, maxWaitMs: 0 })) as { ticket: Ticket };
		budget.settle(write.ticket, 201, { limit: 300, remaining: 185, cost: 5 }, WRITE);
		expect(budget.estimatedCost(WRITE)).toBe(5);
		expect(budget.estimatedCost(costClassOf('GET', '/deals', { pageNumber: 2 }))).toBe(10);
	});

	it('after a 429, no request goes before its retry-after, and the 429 spent nothing', async () => {
		const clock = TestClock.virtual();
		const budget = await budgetAt(clock, 250);
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
		const budget = await budgetAt(clock, 10);
		expect(await budget.admit(SEARCH, { paced: true, maxWaitMs: 9_999 })).toEqual({ refused: { waitMs: 10_000, reason: 'refill', remaining: 10, limit: 300, waitedMs: 0 } });
		const limited = (await budget.admit(SEARCH, { paced: false })) as { ticket: Ticket };
		budget.settle(limited.ticket, 429, { limit: 300, remaining: 0, cost: 10, retryAfterSeconds: 3600 }, SEARCH);
		expect(await budget.admit(SEARCH, { paced: true, maxWaitMs: 600_000 })).toEqual({ refused: { waitMs: 3_600_000, reason: 'retryAfter', remaining: 0, limit: 300, waitedMs: 0 } });
		// Not paced: let through without waiting for the refill, refused only while a retry-after is ahead.
		expect(await budget.admit(SEARCH, { paced: false })).toMatchObject({ refused: { reason: 'retryAfter' } });
		clock.advance(3_600_000);
		expect(await budget.admit(SEARCH, { paced: false })).toMatchObject({ ticket: { waitedMs: 0 } });
	});

	it('runs take turns, each run\'s requests in order: a poll behind a bulk job waits for one of its requests, not all', async () => {
		const clock = TestClock.virtual();
		const budget = await budgetAt(clock, 0, 10);
		const order: string[] = [];
		const job = {};
		const poll = {};
		// The bucket as the service keeps it: refilled at 1 token a second from 0.
		const bucket = { level: 0, at: clock.now() };
		const ask = (name: string) =>
			void budget.admit(SEARCH, { paced: true, maxWaitMs: 3_600_000 }, name.startsWith('job') ? job : poll).then((outcome) => {
				order.push(name);
				bucket.level += (clock.now() - bucket.at) / 1000 - 10;
				bucket.at = clock.now();
				budget.settle((outcome as { ticket: Ticket }).ticket, 200, { limit: 300, remaining: Math.floor(bucket.level), cost: 10 }, SEARCH);
			});
		for (let i = 0; i < 4; i++) ask(`job${i}`);
		await settled();
		ask('poll0');
		ask('poll1');
		for (let second = 0; second < 200 && order.length < 6; second++) {
			clock.advance(1_000);
			await settled();
		}
		expect(order).toEqual(['job0', 'poll0', 'job1', 'poll1', 'job2', 'job3']);
	});

	it('a request dearer than the whole bucket goes when the bucket is full', async () => {
		const clock = TestClock.virtual();
		const budget = await budgetAt(clock, 0);
		expect(budget.waitFor(1_000).waitMs).toBe(300_000);
	});
});

describe('what the others on the same client spend: the unexplained drop', () => {
	it('learns the others\' rate from remaining below its projection, and ignores a drop under one token (the headers\' rounding)', async () => {
		const clock = TestClock.virtual();
		// 300 tokens per 5 minutes: 1 token a second.
		const budget = await budgetAt(clock, 100);
		expect(budget.sharingView).toMatchObject({ othersPerSecond: 0 });
		// 20 s later this process's next search (10 tokens) is answered: 100 + 20 refilled − 10 would
		// leave 110; 100 left means someone else spent 10 in those 20 s.
		clock.advance(20_000);
		const next = (await budget.admit(SEARCH, { paced: true, maxWaitMs: 0 })) as { ticket: Ticket };
		budget.settle(next.ticket, 200, { limit: 300, remaining: 100, cost: 10 }, SEARCH);
		expect(budget.sharingView.othersPerSecond).toBeCloseTo(10 / 20, 6);

		const alone = await budgetAt(TestClock.virtual(), 100);
		const again = (await alone.admit(SEARCH, { paced: false })) as { ticket: Ticket };
		// 0.9 token short of the projection: rounding of the headers, not a request of someone else.
		alone.settle(again.ticket, 200, { limit: 300, remaining: 89.1, cost: 10 }, SEARCH);
		expect(alone.sharingView.othersPerSecond).toBe(0);
	});

	it('a process whose very first answer shows the bucket nearly empty knows that others are spending it', async () => {
		const budget = new RateBudget(TestClock.virtual());
		const first = (await budget.admit(SEARCH, { paced: true, maxWaitMs: 0 })) as { ticket: Ticket };
		budget.settle(first.ticket, 429, { limit: 300, remaining: 4, cost: 10, retryAfterSeconds: 6 }, SEARCH);
		expect(budget.sharingView.othersPerSecond).toBeCloseTo(1, 6);
		expect(budget.sharingView.pacePerSecond).toBeCloseTo(0.1, 6);
	});

	it('while others spend and the bucket is low, a request waits for room for what they spend at once, and keeps to a pace', async () => {
		const clock = TestClock.virtual();
		const budget = await budgetAt(clock, 45);
		// Over the next 20 s the others spend 30 tokens (1.5 a second) as this process spends 10: 45 + 20 − 10 − 30 = 25 left.
		clock.advance(20_000);
		const next = (await budget.admit(SEARCH, { paced: true, maxWaitMs: 0 })) as { ticket: Ticket };
		budget.settle(next.ticket, 200, { limit: 300, remaining: 25, cost: 10 }, SEARCH);
		expect(budget.sharingView.othersPerSecond).toBeCloseTo(1.5, 6);
		expect(budget.sharingView.pacePerSecond).toBeGreaterThan(0);
		// The bucket alone covers the next search at once (25 left: 10 and room for 10); shared, the
		// process keeps room for what the others spent at once (30) and waits for it.
		expect(budget.waitFor(10, true).waitMs).toBe(0);
		expect(budget.waitFor(10).waitMs).toBeGreaterThan(0);
	});
});

// ---------------------------------------------------------------------------------------------
// Several processes on one client's bucket, each with a budget of its own (as separate n8n
// processes have), nothing shared but the service's answers.

/** The sandbox's `--rate-limit` bucket: 600 tokens refilled at 2 a second (its refill period: 5 minutes). */
const LIMIT = 600;
const REFILL_PER_MS = LIMIT / (RATE_LIMIT_WINDOW_SECONDS * 1000);
const REFILL_PERIOD_MS = LIMIT / REFILL_PER_MS;
/** When Rate Limited's default: 10 minutes in all per request. */
const WAIT_LIMIT_MS = 600_000;

/** The service's bucket as the sandbox models it (sandbox/server.ts): continuous refill, whole tokens in `x-ratelimit-remaining`, a 429 (nothing taken) with `retry-after` in whole seconds. */
class ServiceBucket {
	private tokens = LIMIT;

	/** Time for the bucket to refill fully. */
	readonly refillPeriodMs: number;

	private last: number;

	/** Tokens of the requests it processed. */
	served = 0;

	constructor(
		private readonly clock: TestClock,
		/** Tokens per ms: the documented rate (`x-ratelimit-limit` per 5 minutes) unless a test says otherwise. */
		readonly refillPerMs = REFILL_PER_MS,
	) {
		this.last = clock.now();
		this.refillPeriodMs = LIMIT / refillPerMs;
	}

	answer(cost: number): { status: number; headers: RateLimitHeaders } {
		const now = this.clock.now();
		this.tokens = Math.min(LIMIT, this.tokens + (now - this.last) * this.refillPerMs);
		this.last = now;
		if (this.tokens >= cost) {
			this.tokens -= cost;
			this.served += cost;
			return { status: 200, headers: { limit: LIMIT, remaining: Math.floor(this.tokens), cost } };
		}
		const retryAfterSeconds = Math.max(1, Math.ceil((cost - this.tokens) / this.refillPerMs / 1000));
		return { status: 429, headers: { limit: LIMIT, remaining: Math.floor(this.tokens), cost, retryAfterSeconds } };
	}
}

interface Job {
	requests: Array<{ costClass: string; cost: number }>;
	/** Requests in Parallel. */
	parallel: number;
}

/** One n8n process: its own budget, its jobs (executions), what it met. */
interface SimulatedProcess {
	name: string;
	budget: RateBudget;
	/** Requests it had to make, and those the service processed (once each). */
	asked: number;
	served: number;
	refused: number;
	tooManyRequests: number;
	finishedAt: number;
	longestWaitMs: number;
}

const inOrder = (count: number, make: (index: number) => { costClass: string; cost: number }) => Array.from({ length: count }, (_, index) => make(index));
const TASK_UPDATE = { costClass: costClassOf('PATCH', '/tasks/1'), cost: 5 };
const LEAD_READ = { costClass: costClassOf('GET', '/leads/1'), cost: 5 };
const CONTACT_CREATE = { costClass: costClassOf('POST', '/contacts'), cost: 5 };
const DEAL_SEARCH = { costClass: costClassOf('GET', '/deals', { filter: "equals(dealStatus,'Settled')" }), cost: 10 };

/**
 * Runs processes at once against one bucket on a virtual clock: each request waits its turn in its
 * process's budget, travels `latencyMs` there and back, and is repeated after a 429 as the transport
 * does (for as long as 10 minutes allow in all). `pollEveryMs`: one more process (the main) polls
 * with 3 searches that often until the jobs are done. `startAtMs`: when each worker starts.
 */
async function simulate(
	jobs: Job[][],
	options: { latencyMs: number; pollEveryMs?: number; startAtMs?: number[]; refillPerMs?: number },
): Promise<{ processes: SimulatedProcess[]; bucket: ServiceBucket }> {
	const clock = TestClock.at(0);
	clock.autoAdvance(() => false);
	const bucket = new ServiceBucket(clock, options.refillPerMs);
	const processOf = (name: string): SimulatedProcess => ({ name, budget: new RateBudget(clock), asked: 0, served: 0, refused: 0, tooManyRequests: 0, finishedAt: 0, longestWaitMs: 0 });
	const send = async (process: SimulatedProcess, owner: object, request: { costClass: string; cost: number }): Promise<void> => {
		process.asked += 1;
		let waitedMs = 0;
		for (let repeats = 0; ; repeats++) {
			const admitted = await process.budget.admit(request.costClass, { paced: true, maxWaitMs: WAIT_LIMIT_MS - waitedMs }, owner, repeats > 0);
			if (!('ticket' in admitted)) {
				process.refused += 1;
				return;
			}
			waitedMs += admitted.ticket.waitedMs;
			process.longestWaitMs = Math.max(process.longestWaitMs, waitedMs);
			await clock.sleep(options.latencyMs / 2);
			const answer = bucket.answer(request.cost);
			await clock.sleep(options.latencyMs / 2);
			process.budget.settle(admitted.ticket, answer.status, answer.headers, request.costClass);
			if (answer.status !== 429) {
				process.served += 1;
				return;
			}
			process.tooManyRequests += 1;
		}
	};
	const runJob = async (process: SimulatedProcess, job: Job): Promise<void> => {
		const owner = {};
		let next = 0;
		await Promise.all(
			Array.from({ length: job.parallel }, async () => {
				while (next < job.requests.length) await send(process, owner, job.requests[next++]);
			}),
		);
	};
	const workers = jobs.map((_, index) => processOf(`worker ${index + 1}`));
	const main = processOf('main (polls)');
	let done = false;
	const polling = (async () => {
		if (options.pollEveryMs === undefined) return;
		while (!done) {
			await clock.sleep(options.pollEveryMs);
			if (done) break;
			const poll = {};
			for (let search = 0; search < 3; search++) await send(main, poll, DEAL_SEARCH);
		}
		main.finishedAt = clock.now();
	})();
	await Promise.all(
		workers.map(async (process, index) => {
			await clock.sleep(options.startAtMs?.[index] ?? 0);
			await Promise.all(jobs[index].map(async (job) => await runJob(process, job)));
			process.finishedAt = clock.now();
		}),
	);
	done = true;
	await polling;
	return { processes: options.pollEveryMs === undefined ? workers : [...workers, main], bucket };
}

/**
 * What must hold (issue 40, item 2): every request processed once and none given up; per process
 * at most ⌈its duration ÷ the refill period⌉ + 1 429s; the whole run within 1.2× the budget floor
 * (tokens served ÷ refill rate), and no faster than the bucket allows.
 */
function expectSharedWell(processes: SimulatedProcess[], bucket: ServiceBucket): void {
	const durationMs = Math.max(...processes.map((process) => process.finishedAt));
	const floorMs = bucket.served / bucket.refillPerMs;
	if (process.env.RATE_LIMIT_DEBUG) {
		const lines = processes.map(
			(p) => `${p.name}: ${(p.finishedAt / 60_000).toFixed(1)} min, ${p.tooManyRequests} × 429 (bound ${Math.ceil(p.finishedAt / bucket.refillPeriodMs) + 1}), longest wait ${(p.longestWaitMs / 1000).toFixed(0)} s`,
		);
		console.log(`${lines.join('\n')}\nall: ${(durationMs / 60_000).toFixed(1)} min, ${(durationMs / floorMs).toFixed(3)} × the floor`);
	}
	const problems = processes.flatMap((process) => {
		const bound = Math.ceil(process.finishedAt / bucket.refillPeriodMs) + 1;
		return [
			...(process.served === process.asked && process.refused === 0 ? [] : [`${process.name}: ${process.served} of ${process.asked} served, ${process.refused} given up`]),
			...(process.tooManyRequests <= bound ? [] : [`${process.name}: ${process.tooManyRequests} × 429 in ${(process.finishedAt / 1000).toFixed(0)} s, bound ${bound}`]),
		];
	});
	expect(problems).toEqual([]);
	expect(processes.every((process) => process.asked > 0)).toBe(true);
	expect(durationMs).toBeLessThanOrEqual(1.2 * floorMs);
	expect(durationMs).toBeGreaterThanOrEqual((bucket.served - LIMIT) / bucket.refillPerMs);
}

describe('several processes on one client\'s bucket (queue-mode workers and the main), each with its own budget', () => {
	it('2 workers (400 task updates; 400 lead reads with 100 deal searches) and the main polling every 5 minutes: every request once, few 429s, near the floor', async () => {
		const { processes, bucket } = await simulate(
			[
				[{ requests: inOrder(400, () => TASK_UPDATE), parallel: 4 }],
				[{ requests: inOrder(500, (index) => (index % 5 === 4 ? DEAL_SEARCH : LEAD_READ)), parallel: 4 }],
			],
			{ latencyMs: 50, pollEveryMs: 300_000 },
		);
		expect(processes.map((process) => process.asked).slice(0, 2)).toEqual([400, 500]);
		expectSharedWell(processes, bucket);
	});

	it('4 workers (writes, reads, creates, searches; two executions on one of them) and the main polling: every request once, few 429s, near the floor', async () => {
		const { processes, bucket } = await simulate(
			[
				[{ requests: inOrder(300, () => TASK_UPDATE), parallel: 4 }],
				[{ requests: inOrder(300, () => LEAD_READ), parallel: 4 }],
				[
					{ requests: inOrder(150, () => CONTACT_CREATE), parallel: 4 },
					{ requests: inOrder(150, () => CONTACT_CREATE), parallel: 4 },
				],
				[{ requests: inOrder(200, () => DEAL_SEARCH), parallel: 8 }],
			],
			{ latencyMs: 50, pollEveryMs: 300_000 },
		);
		expectSharedWell(processes, bucket);
	});

	it('a worker that starts 10 minutes after another, with no latency at all: the two share the bucket and both finish', async () => {
		const { processes, bucket } = await simulate(
			[[{ requests: inOrder(600, () => TASK_UPDATE), parallel: 4 }], [{ requests: inOrder(300, () => CONTACT_CREATE), parallel: 4 }]],
			{ latencyMs: 0, startAtMs: [0, 600_000] },
		);
		expectSharedWell(processes, bucket);
		// It got a share: the late one's 300 creates (1,500 tokens) take it less than twice what they would alone at the refill.
		expect(processes[1].finishedAt - 600_000).toBeLessThan((2 * 1500) / REFILL_PER_MS);
	});

	it('a process alone paces as before (one request\'s room aside): it learns no others and meets no 429', async () => {
		const { processes, bucket } = await simulate([[{ requests: inOrder(600, () => TASK_UPDATE), parallel: 4 }]], { latencyMs: 50 });
		expect(processes[0].budget.sharingView).toEqual({ othersPerSecond: 0, ownPerSecond: expect.any(Number) });
		expect(processes[0].tooManyRequests).toBe(0);
		expectSharedWell(processes, bucket);
	});
});

describe('a bucket that refills faster than documented: 600 tokens at 10 a second (a 1-minute refill period)', () => {
	const FAST = 10 / 1000;

	it('learns the faster refill from its answers (a lower bound: the rise plus its own spending), and waits for that refill', async () => {
		const clock = TestClock.virtual();
		const budget = new RateBudget(clock);
		// 600 tokens per "5 minutes" (2 a second documented), really refilled at 10 a second. Each
		// second it spends 10 and the bucket, refilled by 10, says the same level again.
		let level = 100;
		for (let second = 0; second <= 12; second++) {
			const { ticket } = (await budget.admit(SEARCH, { paced: false })) as { ticket: Ticket };
			budget.settle(ticket, 200, { limit: 600, remaining: level, cost: 10 }, SEARCH);
			clock.advance(1000);
			level = Math.min(600, level - 10 + 10);
		}
		// Spent down to nothing: 50 tokens (a search and room for one more) take 5 s at 10 a second, not 25 s at 2.
		const { ticket } = (await budget.admit(SEARCH, { paced: false })) as { ticket: Ticket };
		budget.settle(ticket, 200, { limit: 600, remaining: 0, cost: 10 }, SEARCH);
		// (The bucket alone: that last drop, unexplained by its own spending, shows another process too.)
		const { waitMs } = budget.waitFor(10, true);
		expect(waitMs).toBeGreaterThanOrEqual(2000);
		// What it learnt is a lower bound, a few per cent under the real rate (a token for rounding, 3 % for latency).
		expect(waitMs).toBeLessThanOrEqual(2000 * 1.05);
		// A new limit (the service's higher limit outside business hours) starts the learning again.
		const { ticket: next } = (await budget.admit(SEARCH, { paced: false })) as { ticket: Ticket };
		budget.settle(next, 200, { limit: 1200, remaining: 0, cost: 10 }, SEARCH);
		expect(budget.waitFor(10, true).waitMs).toBe(Math.ceil(20 / (1200 / 300_000)));
	});

	it('others spending only lowers what it learns: never a refill faster than the real one', async () => {
		const clock = TestClock.virtual();
		const budget = new RateBudget(clock);
		// Really 2 a second, and another process spends 1 a second: the level falls by 1 a second beyond its own spending.
		let level = 300;
		for (let second = 0; second <= 30; second++) {
			const { ticket } = (await budget.admit(SEARCH, { paced: false })) as { ticket: Ticket };
			budget.settle(ticket, 200, { limit: 600, remaining: level, cost: 10 }, SEARCH);
			clock.advance(1000);
			level = level - 10 + 2 - 1;
		}
		const { ticket } = (await budget.admit(SEARCH, { paced: false })) as { ticket: Ticket };
		budget.settle(ticket, 200, { limit: 600, remaining: 0, cost: 10 }, SEARCH);
		// The documented 2 a second: 20 tokens (a search and room for one more) in 10 s, not sooner.
		expect(budget.waitFor(10, true).waitMs).toBe(10_000);
	});

	it('a process alone learns the refill from the answers: no 429, within 1.2× the floor at the real rate', async () => {
		const { processes, bucket } = await simulate([[{ requests: inOrder(1200, () => TASK_UPDATE), parallel: 4 }]], { latencyMs: 50, refillPerMs: FAST });
		expect(processes[0].tooManyRequests).toBe(0);
		expectSharedWell(processes, bucket);
	});

	it('2 workers (400 task updates; 400 lead reads with 100 deal searches) and the main polling every minute', async () => {
		const { processes, bucket } = await simulate(
			[
				[{ requests: inOrder(400, () => TASK_UPDATE), parallel: 4 }],
				[{ requests: inOrder(500, (index) => (index % 5 === 4 ? DEAL_SEARCH : LEAD_READ)), parallel: 4 }],
			],
			{ latencyMs: 50, pollEveryMs: 60_000, refillPerMs: FAST },
		);
		expectSharedWell(processes, bucket);
	});

	it('4 workers (writes, reads, creates, searches) and the main polling every minute', async () => {
		const { processes, bucket } = await simulate(
			[
				[{ requests: inOrder(300, () => TASK_UPDATE), parallel: 4 }],
				[{ requests: inOrder(300, () => LEAD_READ), parallel: 4 }],
				[
					{ requests: inOrder(150, () => CONTACT_CREATE), parallel: 4 },
					{ requests: inOrder(150, () => CONTACT_CREATE), parallel: 4 },
				],
				[{ requests: inOrder(200, () => DEAL_SEARCH), parallel: 8 }],
			],
			{ latencyMs: 50, pollEveryMs: 60_000, refillPerMs: FAST },
		);
		expectSharedWell(processes, bucket);
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
