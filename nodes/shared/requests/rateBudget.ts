/**
 * The service's rate limit as the client sees it, and the pacing that keeps requests inside it.
 *
 * The service meters each client with a token bucket that refills over 5 minutes: every answer says
 * the bucket's size (`x-ratelimit-limit`, tokens per 5 minutes), what is left after the request
 * (`x-ratelimit-remaining`) and what the request cost (`x-ratelimit-cost`); an empty bucket answers
 * 429 with `retry-after`, and a 429 was not processed.
 *
 * A `RateBudget` keeps the last thing the service said, the requests on their way, and the cost each
 * kind of request had, and from that tells a request when it may go: when the tokens left, minus
 * those the requests in flight will spend, cover its cost, at once; otherwise after the refill that
 * covers it (the bucket refills `limit` tokens per 5 minutes as documented, or faster when the
 * answers prove it: `RefillRate`); after a 429, not before its
 * `retry-after`. Runs (an execution, a poll) take turns, each run's requests in order of arrival,
 * so a poll that arrives behind a bulk job waits for at most one of the job's requests before each
 * of its own, never for the job.
 *
 * One budget per credential in the process (`rateBudgetFor`), keyed like the shared access tokens
 * (credentials/accessTokens.ts): every execution, poll and list search with the same credential
 * values paces against one view of the bucket. Other processes on the same client (queue-mode
 * workers, the main's polls) say nothing to this one; what they spend shows in the answers, and
 * bucketSharing.ts makes room for it. A request that has waited half of what it may waits only for
 * the bucket, so sharing never makes a request give up.
 *
 * Pure apart from the clock it is given: the run's (`run.clock`, the package's one clock,
 * credentials/clock.ts), which tests and the bench replace with a virtual clock they move
 * (harness/clock.ts); the nodes run on real time.
 */
import type { Clock } from '../../../credentials/clock';
import type { QueryParameters } from '../service/jsonapi';
import { BucketSharing } from './bucketSharing';
import { RATE_LIMIT_WINDOW_SECONDS } from './policy';

export type { Clock };
export { RATE_LIMIT_WINDOW_SECONDS };

/** While a request waits and others of this budget are on their way, it looks again this often (their answers may change its wait). */
const LOOK_AGAIN_MS = 1000;
/** A request that has waited this share of what it may waits only for the bucket, no longer for the others' room. */
const URGENT_SHARE = 0.5;

/** The rate-limit headers of one answer, as numbers (absent or unreadable: undefined). */
export interface RateLimitHeaders {
	limit?: number;
	remaining?: number;
	cost?: number;
	/** Seconds to wait (from a number of seconds or an HTTP date). */
	retryAfterSeconds?: number;
}

function headerNumber(value: string | undefined): number | undefined {
	if (value === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
	return Number(value);
}

/** `retry-after` as whole seconds: a number of seconds, or an HTTP date measured against `now`. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const trimmed = value.trim();
	if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed));
	const date = Date.parse(trimmed);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, Math.ceil((date - now) / 1000));
}

/** Reads the rate-limit headers of an answer (header names in lower case). */
export function readRateLimitHeaders(headers: Record<string, string>, now: number): RateLimitHeaders {
	return {
		limit: headerNumber(headers['x-ratelimit-limit']),
		remaining: headerNumber(headers['x-ratelimit-remaining']),
		cost: headerNumber(headers['x-ratelimit-cost']),
		retryAfterSeconds: parseRetryAfter(headers['retry-after'], now),
	};
}

/**
 * What decides a request's cost, as the service's README describes it: the endpoint (a collection
 * search, a fetch, a write, a delete), and whether the page number is above 1, the sort is not by
 * id, and how deep the includes go. Requests of one class cost the same, so the cost an answer
 * reported is the estimate for the next request of its class.
 */
export function costClassOf(method: string, path: string, query: QueryParameters = {}): string {
	const extra = new Map(query.extra ?? []);
	const template = path.replace(/\/\d+(?=\/|$)/g, '/{id}');
	const page = Number(query.pageNumber ?? extra.get('page[number]') ?? 1);
	const sorted = String(query.sort ?? extra.get('sort') ?? '')
		.split(',')
		.map((key) => key.trim())
		.some((key) => key !== '' && key !== 'id' && key !== '-id');
	const include = String(query.include ?? extra.get('include') ?? '').trim();
	const depth = include === '' ? 0 : Math.max(...include.split(',').map((entry) => entry.trim().split('.').length));
	return [method.toUpperCase(), template, page > 1 ? 'page>1' : '', sorted ? 'sorted' : '', depth > 0 ? `include${depth}` : ''].join(' ');
}

/** A request let through: its place in sending order and the cost it was expected to have. */
export interface Ticket {
	readonly seq: number;
	readonly cost: number;
	/** How long it waited for its turn (ms). */
	readonly waitedMs: number;
}

/** A request that would have to wait longer than it may. */
export interface Refusal {
	/** How long it would have to wait (ms). */
	waitMs: number;
	/** Why: the service's `retry-after` after a 429, or the refill the headers imply. */
	reason: 'retryAfter' | 'refill';
	/** The last `x-ratelimit-remaining` and `x-ratelimit-limit` seen. */
	remaining?: number;
	limit?: number;
	/** How long it had waited for its turn before it was refused (ms). */
	waitedMs: number;
}

interface Waiter {
	/** Whose request it is (a run: an execution, a poll); requests of one owner keep their order. */
	owner: object;
	/** A request the service answered 429: it had its turn, so it goes before every other. */
	repeat: boolean;
	cost: number;
	maxWaitMs: number;
	arrivedAt: number;
	resolve: (outcome: { ticket: Ticket } | { refused: Refusal }) => void;
}

/**
 * The bucket's refill rate. The service documents `x-ratelimit-limit` as tokens per 5 minutes, and
 * that is the rate assumed until the answers prove a faster one: between two answers of this
 * process with everything it spent in between known, the bucket rose by the refill less what this
 * process spent and less what others spent, so the rise plus this process's spending is at most the
 * refill. That sum over a span long enough for latency not to matter, less a token for the headers'
 * rounding and a margin for the latency left, is a lower bound of the refill rate; the highest bound
 * seen is taken (never below the documented rate). Others' spending and the bucket's cap only make
 * a bound lower, never higher. A new limit starts the learning again.
 */
export class RefillRate {
	private learnedPerMs = 0;

	private limit?: number;

	/** Where the span being measured began, and what this process has spent since. */
	private anchor?: { remaining: number; at: number; own: number };

	/** Tokens per ms. */
	perMs(limit: number): number {
		return Math.max(limit / (RATE_LIMIT_WINDOW_SECONDS * 1000), limit === this.limit ? this.learnedPerMs : 0);
	}

	/**
	 * An answer believed after `from`: it says `remaining` at `now`; this process's requests took
	 * `ownTokens` in between (undefined when not known for certain: the span starts again here).
	 */
	observe(limit: number, from: { remaining: number; at: number }, remaining: number, now: number, ownTokens: number | undefined): void {
		if (limit !== this.limit) {
			this.limit = limit;
			this.learnedPerMs = 0;
			this.anchor = undefined;
		}
		if (ownTokens === undefined) {
			this.anchor = { remaining, at: now, own: 0 };
			return;
		}
		const anchor = (this.anchor ??= { remaining: from.remaining, at: from.at, own: 0 });
		anchor.own += ownTokens;
		const spanMs = now - anchor.at;
		if (spanMs < REFILL_SPAN_MS) return;
		const rise = remaining - anchor.remaining + anchor.own - REFILL_ROUNDING_TOKENS;
		if (rise > 0) this.learnedPerMs = Math.max(this.learnedPerMs, (rise / spanMs) * REFILL_LATENCY_MARGIN);
		this.anchor = { remaining, at: now, own: 0 };
	}
}

/** A refill rate is learnt over at least this long (a latency of a few hundred ms distorts it by a few per cent). */
const REFILL_SPAN_MS = 10_000;
/** The headers are whole tokens. */
const REFILL_ROUNDING_TOKENS = 1;
/** What is left of latency's distortion over such a span. */
const REFILL_LATENCY_MARGIN = 0.97;

/** The last `x-ratelimit-remaining` believed, when it was read, and after which request. */
interface Observation {
	remaining: number;
	at: number;
	seq: number;
}

export class RateBudget {
	/** Tokens per window (`x-ratelimit-limit`), once an answer said it. */
	private limit?: number;

	private observed?: Observation;

	/** No request is sent before this time (ms): the longest `retry-after` of a 429 still ahead. */
	private blockedUntil = 0;

	/** Requests sent and not yet answered: sending order → expected cost. */
	private readonly inFlight = new Map<number, number>();

	/** Requests sent after the answer believed and answered since (without a newer one): sending order → tokens it took (0 for a 429). */
	private readonly answeredSince = new Map<number, number>();

	/** How fast the bucket refills: the documented rate, or a faster one the answers proved. */
	private readonly refill = new RefillRate();

	/** What the others on the same client spend, and the room and pace this process keeps for them. */
	private readonly sharing = new BucketSharing((limit) => this.refill.perMs(limit));

	private readonly costs = new Map<string, number>();

	private highestCost = 0;

	private sent = 0;

	private readonly queue: Waiter[] = [];

	/** When each owner's last request was let through (sending order). */
	private readonly lastServed = new WeakMap<object, number>();

	private pumping = false;

	constructor(private readonly clock: Clock) {}

	/** Requests let through and not yet answered. */
	get requestsInFlight(): number {
		return this.inFlight.size;
	}

	/** What this process has learnt of the others on the same client (tokens per second), and its pace while it shares the bucket with them. */
	get sharingView(): { othersPerSecond: number; ownPerSecond: number; pacePerSecond?: number } {
		return this.sharing.view;
	}

	/** The cost a request of this class is expected to have: what the last one cost, else the dearest seen. */
	estimatedCost(costClass: string): number {
		return this.costs.get(costClass) ?? this.highestCost;
	}

	/**
	 * Paced: waits for the request's turn (`owner`: its run; `repeat`: after a 429, first) and for
	 * the budget to cover it, at most `maxWaitMs`; a request that would wait longer is refused at once (and waits not at all).
	 * Not paced (the node never waits): let through at once, unless a 429's `retry-after` is still
	 * ahead, which refuses it.
	 */
	async admit(
		costClass: string,
		how: { paced: false } | { paced: true; maxWaitMs: number },
		owner: object = {},
		repeat = false,
	): Promise<{ ticket: Ticket } | { refused: Refusal }> {
		const cost = this.estimatedCost(costClass);
		if (!how.paced) {
			const now = this.clock.now();
			if (this.blockedUntil > now) return { refused: this.refusal(this.blockedUntil - now, 'retryAfter', 0) };
			return { ticket: this.grant(cost, 0) };
		}
		const outcome = new Promise<{ ticket: Ticket } | { refused: Refusal }>((resolve) =>
			this.queue.push({ owner, repeat, cost, maxWaitMs: how.maxWaitMs, arrivedAt: this.clock.now(), resolve }),
		);
		void this.pump();
		return await outcome;
	}

	/**
	 * The answer to a request let through: what the service said about the bucket and what the
	 * request cost. A 429 holds every request of the budget until its `retry-after`.
	 */
	settle(ticket: Ticket, status: number | undefined, headers: RateLimitHeaders, costClass: string): void {
		this.inFlight.delete(ticket.seq);
		const now = this.clock.now();
		if (headers.limit !== undefined && headers.limit > 0) this.limit = headers.limit;
		if (headers.cost !== undefined && status !== 429) {
			this.costs.set(costClass, headers.cost);
			this.highestCost = Math.max(this.highestCost, headers.cost);
		}
		// What it took from the bucket: nothing for a 429 (not processed); without an answer, what it was expected to.
		const took = status === 429 ? 0 : (headers.cost ?? ticket.cost);
		// An answer to a request sent before the one last believed says less than that one did.
		if (headers.remaining !== undefined && (this.observed === undefined || ticket.seq > this.observed.seq)) {
			const from = this.observed;
			if (from !== undefined && this.limit !== undefined) {
				// Only what this process spent for certain explains a drop: while a request sent before
				// this one is still unanswered, its cost is a guess, and the guess's error would look
				// like someone else's spending.
				const own = this.ownTokensSince(from, ticket.seq, took);
				this.refill.observe(this.limit, from, headers.remaining, now, own);
				if (own !== undefined) this.sharing.learn(this.limit, from, headers.remaining, now, own, this.highestCost);
			} else if (this.limit !== undefined) {
				this.sharing.firstAnswer(this.limit, headers.remaining, took, now, this.highestCost);
			}
			this.observed = { remaining: headers.remaining, at: now, seq: ticket.seq };
			for (const seq of this.answeredSince.keys()) if (seq <= ticket.seq) this.answeredSince.delete(seq);
		} else if (this.observed !== undefined && ticket.seq > this.observed.seq) {
			this.answeredSince.set(ticket.seq, took);
		}
		if (status === 429) {
			// Sent on a cost estimated too low: learn the real one.
			const underestimated = headers.cost !== undefined && headers.cost > ticket.cost;
			if (headers.cost !== undefined && (underestimated || !this.costs.has(costClass))) this.costs.set(costClass, headers.cost);
			this.highestCost = Math.max(this.highestCost, headers.cost ?? 0);
			this.holdFor((headers.retryAfterSeconds ?? 0) * 1000, now);
		}
	}

	/**
	 * The tokens this process's requests took between the answer believed (`from`) and the answer
	 * to request `seq` (which took `took`): the service handles requests in the order they arrive,
	 * so every request sent in between counts, at what it took; undefined while one of them is
	 * still on its way.
	 */
	private ownTokensSince(from: Observation, seq: number, took: number): number | undefined {
		let own = took;
		for (let earlier = from.seq + 1; earlier < seq; earlier++) {
			if (this.inFlight.has(earlier)) return undefined;
			own += this.answeredSince.get(earlier) ?? 0;
		}
		return own;
	}

	/** No request of this budget is sent for `ms` (a later hold already set stays). */
	holdFor(ms: number, now = this.clock.now()): void {
		this.blockedUntil = Math.max(this.blockedUntil, now + ms);
	}

	/**
	 * How long a request of `cost` tokens must wait from now for the budget to cover it (ms): a
	 * 429's `retry-after` still ahead, the refill the last answer implies, and unless `bucketOnly`,
	 * the room and pace kept for other processes on the same client.
	 */
	waitFor(cost: number, bucketOnly = false): { waitMs: number; reason: Refusal['reason'] } {
		const now = this.clock.now();
		const held = Math.max(0, this.blockedUntil - now);
		const refill = this.refillWait(cost, now, bucketOnly);
		return held >= refill ? { waitMs: held, reason: 'retryAfter' } : { waitMs: refill, reason: 'refill' };
	}

	private refillWait(cost: number, now: number, bucketOnly: boolean): number {
		const { limit, observed } = this;
		if (limit === undefined || observed === undefined) return 0;
		let onTheirWay = 0;
		for (const [seq, reserved] of this.inFlight) if (seq > observed.seq) onTheirWay += reserved;
		const bucketWaitMs = this.bucketWait(cost, now, limit, observed, onTheirWay);
		if (bucketOnly) return bucketWaitMs;
		const sharingWaitMs = this.sharing.waitMs({ cost, now, limit, observed, onTheirWay, dearest: this.highestCost, bucketWaitMs });
		return Math.max(bucketWaitMs, sharingWaitMs);
	}

	/**
	 * How long until the bucket, as the last answer and the refill since project it, covers `cost`,
	 * what is on its way, and room for one more of the dearest requests seen: a process alone keeps
	 * the bucket from running dry, so that another process starting on the same client finds a
	 * request's worth in it, gets an answer, and is seen (a process sending the instant the refill
	 * covers its request would win every token, and the newcomer's 429s show it nothing). It costs
	 * a process alone one request's refill time, once.
	 */
	private bucketWait(cost: number, now: number, limit: number, observed: Observation, onTheirWay: number): number {
		const perMs = this.refill.perMs(limit);
		// A request dearer than the whole bucket goes when the bucket is full.
		const needed = Math.min(cost + this.highestCost, limit) + onTheirWay;
		const level = Math.min(limit, observed.remaining + (now - observed.at) * perMs);
		if (level >= needed) return 0;
		// Nothing in flight can bring the level above the limit: wait for what the bucket can hold.
		const target = Math.min(needed, limit);
		if (level >= target) return 0;
		return Math.ceil((target - level) / perMs);
	}

	private grant(cost: number, waitedMs: number): Ticket {
		if (this.limit !== undefined && this.observed !== undefined) this.sharing.granted(cost, this.clock.now(), this.limit, this.observed, this.highestCost);
		this.sent += 1;
		this.inFlight.set(this.sent, cost);
		return { seq: this.sent, cost, waitedMs };
	}

	private refusal(waitMs: number, reason: Refusal['reason'], waitedMs: number): Refusal {
		return { waitMs, reason, remaining: this.observed?.remaining, limit: this.limit, waitedMs };
	}

	/**
	 * Whose turn it is: a request repeated after a 429 first (it already had its turn); then the
	 * waiting request of the owner served longest ago (an owner not served yet
	 * first), the earliest of that owner's. Owners take turns, so a poll behind a bulk job (or two
	 * jobs) waits for at most one request of each before each of its own.
	 */
	private nextInTurn(): Waiter | undefined {
		const repeat = this.queue.find((waiter) => waiter.repeat);
		if (repeat !== undefined) return repeat;
		let chosen: Waiter | undefined;
		let chosenServed = Infinity;
		for (const waiter of this.queue) {
			const served = this.lastServed.get(waiter.owner) ?? 0;
			if (served < chosenServed) {
				chosen = waiter;
				chosenServed = served;
			}
		}
		return chosen;
	}

	/**
	 * Serves the queue's head whenever the budget covers it; one pump at a time. Only the bucket
	 * (its refill, a `retry-after`) refuses a request: the room kept for other processes never makes
	 * it wait past what it may, and once it has waited half of that it waits for the bucket alone.
	 */
	private async pump(): Promise<void> {
		if (this.pumping) return;
		this.pumping = true;
		try {
			for (;;) {
				const head = this.nextInTurn();
				if (head === undefined) return;
				const waited = this.clock.now() - head.arrivedAt;
				const bucket = this.waitFor(head.cost, true);
				const sharing = waited >= head.maxWaitMs * URGENT_SHARE ? bucket.waitMs : this.waitFor(head.cost).waitMs;
				const waitMs = Math.min(sharing, Math.max(bucket.waitMs, head.maxWaitMs - waited));
				if (waitMs <= 0) {
					this.queue.splice(this.queue.indexOf(head), 1);
					const ticket = this.grant(head.cost, waited);
					this.lastServed.set(head.owner, ticket.seq);
					head.resolve({ ticket });
					continue;
				}
				if (waited + bucket.waitMs > head.maxWaitMs) {
					this.queue.splice(this.queue.indexOf(head), 1);
					head.resolve({ refused: this.refusal(bucket.waitMs, bucket.reason, waited) });
					continue;
				}
				// Answers still on their way may shorten the wait: look again soon while any is.
				await this.clock.sleep(this.inFlight.size > 0 ? Math.min(waitMs, LOOK_AGAIN_MS) : waitMs);
			}
		} finally {
			this.pumping = false;
		}
	}
}

/**
 * The budgets of the process, per clock they read, then per credential fingerprint. In n8n there is
 * one clock; a test or the bench that installs its own starts every budget afresh with it.
 */
const budgets = new Map<Clock, Map<string, RateBudget>>();

/**
 * The budget of the credential values with this fingerprint, shared by the whole process, on the
 * clock of the run that asks (`run.clock`).
 */
export function rateBudgetFor(fingerprint: string, clock: Clock): RateBudget {
	let ofClock = budgets.get(clock);
	if (ofClock === undefined) {
		ofClock = new Map();
		budgets.set(clock, ofClock);
	}
	let budget = ofClock.get(fingerprint);
	if (budget === undefined) {
		budget = new RateBudget(clock);
		ofClock.set(fingerprint, budget);
	}
	return budget;
}

/** Forgets every budget (tests: each starts from a process that has not met the service yet). */
export function forgetRateBudgets(): void {
	budgets.clear();
}

/** Requests let through and not yet answered, over every budget of the process. */
export function rateLimitedRequestsInFlight(): number {
	let count = 0;
	for (const ofClock of budgets.values()) for (const budget of ofClock.values()) count += budget.requestsInFlight;
	return count;
}
