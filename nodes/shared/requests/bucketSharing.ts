/**
 * Several processes, one bucket: how a process's rate-limit budget (rateBudget.ts) shares the
 * service's bucket with other n8n processes on the same client (queue-mode workers, the main's
 * trigger polls) that it cannot talk to. Nothing is shared but the service's answers.
 *
 * What the others spend shows as the **unexplained drop**: between two answers, this process knows
 * what the refill added and what its own requests took, so whatever else `x-ratelimit-remaining`
 * fell by, someone else spent (`SpendingRates`, averaged over the last minute). While it sees
 * others spend, the process:
 *
 * - **leaves room for them**: a request goes only when the bucket, projected from the last answer
 *   with the refill *less the others' recent rate*, covers it, what this process has on its way,
 *   and what the others may spend at once (their largest drop lately: a tenth of the bucket at
 *   most, the dearest request seen at least);
 * - **keeps to a pace** of its own while the bucket is low (a tenth full or less): it starts at the
 *   room the others leave (the refill less their rate), rises by the same amount for every process
 *   while the answers say the bucket holds more than a twentieth of its limit, and is cut by a fifth
 *   when they say it holds less. Every process reads the same bucket, so they rise and cut
 *   together; cutting in proportion and rising alike evens the shares out (additive increase,
 *   multiplicative decrease), so no process starves and none keeps the bucket to itself. Without
 *   the pace, processes that each wait for the level to come back all see it come back at once and
 *   spend it together.
 *
 * The marks are shares of the bucket (with a floor of a few requests for small buckets), the same
 * for every process: a mark drawn from a process's own requests would make one that sends dearer
 * requests read "low" where the others read "enough", and be cut again and again.
 *
 * The room and the pace are preferences, never a reason to give up: each adds at most a short
 * probe to what the bucket alone asks (a tenth of the refill period, `Timing`), and a request that has waited half of what it
 * may waits only for the bucket (rateBudget.ts). A process whose first answer shows the bucket
 * nearly empty starts sharing at once (others are spending it); one that has seen no one else for
 * a refill period paces alone again, exactly as a single process does.
 */
/**
 * How long things take, as shares of the refill period (the time the bucket takes to refill fully:
 * `x-ratelimit-limit` ÷ the refill rate, 5 minutes as the service documents it; rateBudget.ts
 * `RefillRate` learns a faster one from the answers), so that sharing reacts as fast to a bucket
 * that refills in one minute as to one that refills in five:
 *
 * - the others' rate is averaged over a fifth of it: long enough that one request of theirs is not
 *   taken for a rate, short enough that a job starting or ending elsewhere shows soon;
 * - a rate is never worked out over less than a twentieth (a bucket's stock spent in a few ms is
 *   not a rate);
 * - after a whole period without an unexplained drop, the process paces alone again;
 * - between cuts the pace rises by the whole refill over half of it;
 * - a cut is made at most once per thirtieth (the others need that long to see its effect);
 * - room and pace add at most a tenth of it to what the bucket alone asks (a process that sees
 *   itself squeezed out still asks, and learns).
 */
interface Timing {
	/** Tokens per ms. */
	refillPerMs: number;
	averagedOverMs: number;
	shortestSpanMs: number;
	forgetAfterMs: number;
	riseOverMs: number;
	cutSpacingMs: number;
	probeMs: number;
}

function timingOf(limit: number, refillPerMs: number): Timing {
	const periodMs = limit / refillPerMs;
	return {
		refillPerMs,
		averagedOverMs: periodMs / 5,
		shortestSpanMs: periodMs / 20,
		forgetAfterMs: periodMs,
		riseOverMs: periodMs / 2,
		cutSpacingMs: periodMs / 30,
		probeMs: periodMs / 10,
	};
}

/** Others spending less than this share of the refill are not waited for. */
const SEEN_SHARE = 0.02;
/**
 * The bucket is low (the pace applies) while the last answer says it holds at most this share of
 * its limit, or this many tokens in a small bucket; the pace is cut when an answer says it holds
 * less than half that. Above it, the bucket's stock is spent as a single process would spend it.
 */
const CONTENDED_SHARE = 0.1;
const LOW_SHARE = 0.05;
const LOW_TOKENS = 20;
/** However much the others spend, the pace never falls below this share of the refill. */
const LEAST_SHARE = 0.1;
/** A cut keeps this much of the pace (at most once per `Timing.cutSpacingMs`). */
const CUT_TO = 0.8;
/** At the pace, up to this many of the dearest requests may go at once. */
const BURST_REQUESTS = 2;
/** The room kept for the others' next requests: at least the dearest request seen, at most this share of the bucket. */
const ROOM_REQUESTS = 1;
const ROOM_SHARE = 0.1;

/** At or below this, the bucket is low and the pace applies. */
const contendedMark = (limit: number): number => Math.max(limit * CONTENDED_SHARE, 2 * LOW_TOKENS);
/** Below this, the pace is cut. */
const lowMark = (limit: number): number => Math.max(limit * LOW_SHARE, LOW_TOKENS);

/**
 * This process's and the others' spending rates, from the unexplained drops: exponentially
 * weighted sums of tokens and of elapsed time, so the rates are those of the recent past.
 */
export class SpendingRates {
	private others = 0;

	private own = 0;

	private span = 0;

	/** The largest unexplained drop between two answers lately (fading like the rates): what the others may spend at once. */
	largestDrop = 0;

	/** Over `ms`, this process spent `ownTokens`, and the bucket fell by `unexplained` more than that and the refill explain. */
	add(ms: number, ownTokens: number, unexplained: number, averagedOverMs: number): void {
		const keep = Math.exp(-Math.max(0, ms) / averagedOverMs);
		this.others = this.others * keep + unexplained;
		this.own = this.own * keep + ownTokens;
		this.span = this.span * keep + Math.max(0, ms);
		this.largestDrop = Math.max(unexplained, this.largestDrop * keep);
	}

	/** Tokens per ms the others spend (never below 0: the refill's rounding and cap can make a drop look negative). */
	othersPerMs(shortestSpanMs: number): number {
		return Math.max(0, this.others / Math.max(this.span, shortestSpanMs));
	}

	/** Tokens per ms this process spends. */
	ownPerMs(shortestSpanMs: number): number {
		return this.own / Math.max(this.span, shortestSpanMs);
	}
}

/** The last answer believed: what it said was left, and when. */
export interface Level {
	remaining: number;
	at: number;
}

/** What a process knows when a request asks to go. */
export interface Asking {
	cost: number;
	now: number;
	limit: number;
	observed: Level;
	/** Tokens of this process's requests sent after that answer. */
	onTheirWay: number;
	/** The dearest request seen (tokens). */
	dearest: number;
	/** How long the bucket alone asks it to wait (ms), as a single process would. */
	bucketWaitMs: number;
}

interface Pace {
	/** Tokens per ms. */
	perMs: number;
	/** Tokens that may still go at the pace, and when that was worked out. */
	credit: number;
	creditAt: number;
	/** When the pace last rose or was cut. */
	adjustedAt: number;
	cutAt: number;
}

export class BucketSharing {
	private readonly rates = new SpendingRates();

	/** Shortest span of the last timing worked out, for `view`. */
	private lastShortestSpanMs = 15_000;

	/** `refillPerMs(limit)`: the bucket's refill rate, as the budget knows it (tokens per ms). */
	constructor(private readonly refillPerMs: (limit: number) => number) {}

	private timing(limit: number): Timing {
		const timing = timingOf(limit, this.refillPerMs(limit));
		this.lastShortestSpanMs = timing.shortestSpanMs;
		return timing;
	}

	/** When an answer last showed someone else's spending. */
	private othersSeenAt = -Infinity;

	/** Set while others are seen. */
	private pace?: Pace;

	/**
	 * An answer after the one believed (`from`): it says `remaining` at `now`, and this process's
	 * own requests took `ownTokens` in between.
	 */
	learn(limit: number, from: Level, remaining: number, now: number, ownTokens: number, dearest: number): void {
		const timing = this.timing(limit);
		const elapsed = Math.max(0, now - from.at);
		const projected = Math.min(limit, from.remaining + elapsed * timing.refillPerMs) - ownTokens;
		const drop = projected - remaining;
		// The headers are whole tokens: a drop under one is their rounding, not someone else's request.
		this.rates.add(elapsed, ownTokens, Math.abs(drop) < 1 ? 0 : drop, timing.averagedOverMs);
		if (drop >= 1) this.othersSeenAt = now;
		this.adjustPace(limit, remaining, now, dearest);
	}

	/**
	 * The first answer this process gets: a bucket already low although it has spent nothing but
	 * this request means others are spending it (a process starting beside a running job). They are
	 * taken to spend the whole refill until answers say better, so the process starts at the least
	 * pace and rises from there.
	 */
	firstAnswer(limit: number, remaining: number, took: number, now: number, dearest: number): void {
		if (remaining + took > contendedMark(limit)) return;
		const timing = this.timing(limit);
		this.rates.add(timing.shortestSpanMs, took, timing.refillPerMs * timing.shortestSpanMs, timing.averagedOverMs);
		this.othersSeenAt = now;
		this.adjustPace(limit, remaining, now, dearest);
	}

	private adjustPace(limit: number, remaining: number, now: number, dearest: number): void {
		const { refillPerMs, shortestSpanMs, forgetAfterMs, riseOverMs, cutSpacingMs } = this.timing(limit);
		const others = this.rates.othersPerMs(shortestSpanMs);
		const gone = this.pace === undefined ? others <= refillPerMs * SEEN_SHARE : now - this.othersSeenAt > forgetAfterMs;
		if (gone) {
			this.pace = undefined;
			return;
		}
		const least = refillPerMs * LEAST_SHARE;
		const burst = BURST_REQUESTS * dearest;
		if (this.pace === undefined) {
			// The room the others leave: the refill less their rate; while the bucket's stock is spent
			// faster than it refills, this process's part of what is spent.
			const own = this.rates.ownPerMs(shortestSpanMs);
			const room = own + others > refillPerMs ? (refillPerMs * own) / (own + others) : refillPerMs - others;
			this.pace = { perMs: Math.max(least, room), credit: burst, creditAt: now, adjustedAt: now, cutAt: -Infinity };
			return;
		}
		const pace = this.pace;
		if (remaining > contendedMark(limit)) {
			// Plenty left: nothing to share yet.
			pace.credit = burst;
			pace.creditAt = now;
			pace.adjustedAt = now;
			return;
		}
		pace.credit = this.creditAt(now, burst);
		pace.creditAt = now;
		if (remaining < lowMark(limit)) {
			if (now - pace.cutAt >= cutSpacingMs) {
				pace.perMs = Math.max(least, pace.perMs * CUT_TO);
				pace.cutAt = now;
			}
		} else {
			pace.perMs = Math.min(refillPerMs, pace.perMs + (refillPerMs / riseOverMs) * (now - pace.adjustedAt));
		}
		pace.adjustedAt = now;
	}

	private creditAt(now: number, burst: number): number {
		const pace = this.pace;
		return pace === undefined ? burst : Math.min(burst, pace.credit + pace.perMs * (now - pace.creditAt));
	}

	/** Whether the bucket is shared and low, so that room and pace apply. */
	private contended(limit: number, observed: Level): boolean {
		return this.pace !== undefined && observed.remaining <= contendedMark(limit);
	}

	/**
	 * How long a request waits beyond what the bucket alone asks, for the room the others need
	 * (while they are seen) and this process's pace (while the bucket is low); ms from now, 0 when
	 * no one else is seen. At most a tenth of the refill period beyond the bucket's own wait.
	 */
	waitMs(asking: Asking): number {
		const { cost, now, limit, observed, dearest, bucketWaitMs } = asking;
		const pace = this.pace;
		if (pace === undefined) return 0;
		const timing = this.timing(limit);
		const forRoom = this.roomWaitMs(asking, pace, timing);
		let forPace = 0;
		if (this.contended(limit, observed)) {
			const credit = this.creditAt(now, BURST_REQUESTS * dearest);
			forPace = credit >= cost ? 0 : Math.ceil((cost - credit) / pace.perMs);
		}
		return Math.min(Math.max(forPace, forRoom), bucketWaitMs + timing.probeMs);
	}

	/**
	 * When the bucket, projected from the last answer with the refill less the others' rate (trusted
	 * less the older the answer: they may have stopped), covers this request, what is on its way
	 * and room for one of theirs.
	 */
	private roomWaitMs({ cost, now, limit, observed, onTheirWay, dearest }: Asking, pace: Pace, timing: Timing): number {
		const { refillPerMs, averagedOverMs, shortestSpanMs } = timing;
		// The others are counted at their rate, but never above what this process's pace leaves them:
		// a process that has fallen behind would otherwise project almost no refill for itself and
		// stay behind, whatever its pace says.
		const others = Math.min(this.rates.othersPerMs(shortestSpanMs), refillPerMs - Math.min(pace.perMs, refillPerMs * (1 - LEAST_SHARE)));
		// Room for what the others may spend at once: the dearest request seen, or their largest drop lately (at most a tenth of the bucket).
		const room = Math.max(ROOM_REQUESTS * dearest, Math.min(this.rates.largestDrop, limit * ROOM_SHARE));
		const target = Math.min(Math.min(cost + room, limit) + onTheirWay, limit);
		const short = (t: number): boolean =>
			Math.min(limit, observed.remaining + t * refillPerMs - others * averagedOverMs * (1 - Math.exp(-t / averagedOverMs))) < target;
		const elapsed = now - observed.at;
		if (!short(elapsed)) return 0;
		// The projected level only rises: find when it reaches the target, to the ms.
		let low = elapsed;
		let high = elapsed + 1000;
		while (short(high)) high = elapsed + (high - elapsed) * 2;
		while (high - low > 1) {
			const mid = Math.floor((low + high) / 2);
			if (short(mid)) low = mid;
			else high = mid;
		}
		return high - elapsed;
	}

	/** A request let through at the pace (its tokens leave the credit; a request that could wait no longer may overdraw it by a burst). */
	granted(cost: number, now: number, limit: number, observed: Level, dearest: number): void {
		const pace = this.pace;
		if (pace === undefined || !this.contended(limit, observed)) return;
		const burst = BURST_REQUESTS * dearest;
		pace.credit = Math.max(-burst, this.creditAt(now, burst) - cost);
		pace.creditAt = now;
	}

	/** What this process has learnt (tokens per second): the others' rate, its own, and its pace while it shares the bucket. */
	get view(): { othersPerSecond: number; ownPerSecond: number; pacePerSecond?: number } {
		return {
			othersPerSecond: this.rates.othersPerMs(this.lastShortestSpanMs) * 1000,
			ownPerSecond: this.rates.ownPerMs(this.lastShortestSpanMs) * 1000,
			...(this.pace === undefined ? {} : { pacePerSecond: this.pace.perMs * 1000 }),
		};
	}
}
