/**
 * The one clock the tests and the bench move instead of waiting. Hand `clock.now` to what reads
 * time: the sandbox (`clock`, or `rateLimit.clock` for a bucket set later), the credential
 * (`useCredentialClock`) and the nodes' rate-limit budget (`useRateLimitClock`, which also sleeps on
 * `clock.sleep`). Nothing in `npm test` sleeps on the machine's clock.
 *
 * - `TestClock.stopped()` stands still at the machine's time until advanced, `TestClock.at(t)` at
 *   `t`, `TestClock.virtual()` at a fixed instant (2026-11-26 00:00 UTC, so a run is the same on
 *   every machine and every day): exact, for checks that count what a span of time allows (a
 *   bucket's refill, a token's last millisecond, hours of rate-limit pacing).
 * - `TestClock.running()` runs with the machine's clock and jumps forward when advanced: for suites
 *   where many things happen between the jumps and ordering by time must stay natural.
 *
 * Time moves by `advance(ms)`, or, after `autoAdvance(busy)`, by itself: whenever someone sleeps on
 * the clock, nothing is `busy` (no request on its way) and the event loop has gone quiet for a few
 * turns, time jumps to the earliest wake-up and those sleepers wake. Everything that is not waiting
 * for the clock thus happens at the instant it would have happened anyway, and a wait costs exactly
 * the time it asked for.
 */
import { credentialClock } from '../credentials/clock';

const VIRTUAL_START = Date.UTC(2026, 10, 26, 0, 0, 0);

export class TestClock {
	private offset = 0;

	private sleepers: Array<{ at: number; wake: () => void }> = [];

	private busy?: () => boolean;

	private driving = false;

	/** Jumps made by `autoAdvance`, for the curious. */
	jumps = 0;

	private constructor(private readonly base: () => number) {}

	/** Stands still at `start` (ms since the epoch) until advanced. */
	static at(start: number): TestClock {
		return new TestClock(() => start);
	}

	/** Stands still at the machine's time now until advanced. */
	static stopped(): TestClock {
		return TestClock.at(Date.now());
	}

	/** Stands still at 2026-11-26 00:00 UTC until advanced. */
	static virtual(): TestClock {
		return TestClock.at(VIRTUAL_START);
	}

	/** The machine's clock plus every advance so far. */
	static running(): TestClock {
		return new TestClock(() => Date.now());
	}

	readonly now = (): number => this.base() + this.offset;

	/** Resolves when the clock has moved `ms` past now (by `advance` or `autoAdvance`). */
	readonly sleep = async (ms: number): Promise<void> =>
		await new Promise<void>((resolve) => {
			this.sleepers.push({ at: this.now() + Math.max(0, ms), wake: resolve });
			if (this.busy !== undefined) this.drive();
		});

	/** Sleepers not yet woken. */
	get sleeping(): number {
		return this.sleepers.length;
	}

	/** Moves time forward by `ms` and wakes every sleeper due by then. */
	advance(ms: number): void {
		this.offset += ms;
		this.wakeDue();
	}

	/** From now on time moves by itself whenever everyone waits for it and `busy()` is false. */
	autoAdvance(busy: () => boolean): void {
		this.busy = busy;
		if (this.sleepers.length > 0) this.drive();
	}

	private wakeDue(): void {
		const now = this.now();
		const due = this.sleepers.filter((sleeper) => sleeper.at <= now);
		this.sleepers = this.sleepers.filter((sleeper) => sleeper.at > now);
		for (const sleeper of due.sort((a, b) => a.at - b.at)) sleeper.wake();
	}

	private drive(): void {
		if (this.driving) return;
		this.driving = true;
		let quietTurns = 0;
		const step = (): void => {
			const busy = this.busy;
			if (this.sleepers.length === 0 || busy === undefined) {
				this.driving = false;
				return;
			}
			if (busy()) {
				quietTurns = 0;
				setTimeout(step, 1);
				return;
			}
			quietTurns += 1;
			if (quietTurns < 3) {
				setImmediate(step);
				return;
			}
			quietTurns = 0;
			const next = Math.min(...this.sleepers.map((sleeper) => sleeper.at));
			const now = this.now();
			if (next > now) {
				this.offset += next - now;
				this.jumps += 1;
			}
			this.wakeDue();
			setImmediate(step);
		};
		setImmediate(step);
	}
}

/** Makes the credential read `clock` until the returned function restores the machine's time. */
export function useCredentialClock(clock: TestClock): () => void {
	const previous = credentialClock.now;
	credentialClock.now = clock.now;
	return () => {
		credentialClock.now = previous;
	};
}
