/**
 * A clock the tests and the bench move instead of waiting: hours of rate-limit pacing run in
 * seconds, and nothing sleeps. The nodes' rate-limit budget (`useRateLimitClock`) and the sandbox's
 * bucket (`rateLimit.clock`) both read it, so they agree on when tokens come back.
 *
 * Time moves only by `advance(ms)`, or, with `autoAdvance(busy)`, by itself: whenever someone sleeps
 * on the clock, nothing is `busy` (no request on its way) and the event loop has gone quiet for a
 * few turns, time jumps to the earliest wake-up and those sleepers wake. Everything that is not
 * waiting for the clock thus happens at the virtual instant it would have happened anyway, and a
 * wait costs exactly the virtual time it asked for.
 */
export class VirtualClock {
	private time: number;

	private sleepers: Array<{ at: number; wake: () => void }> = [];

	private busy?: () => boolean;

	private driving = false;

	/** Jumps made by `autoAdvance`, for the curious. */
	jumps = 0;

	constructor(start = Date.UTC(2026, 10, 26, 0, 0, 0)) {
		this.time = start;
	}

	readonly now = (): number => this.time;

	readonly sleep = async (ms: number): Promise<void> =>
		await new Promise<void>((resolve) => {
			this.sleepers.push({ at: this.time + Math.max(0, ms), wake: resolve });
			if (this.busy !== undefined) this.drive();
		});

	/** Sleepers not yet woken. */
	get sleeping(): number {
		return this.sleepers.length;
	}

	/** Moves time forward by `ms` and wakes every sleeper due by then. */
	advance(ms: number): void {
		this.time += ms;
		this.wakeDue();
	}

	/** From now on time moves by itself whenever everyone waits for it and `busy()` is false. */
	autoAdvance(busy: () => boolean): void {
		this.busy = busy;
		if (this.sleepers.length > 0) this.drive();
	}

	private wakeDue(): void {
		const due = this.sleepers.filter((sleeper) => sleeper.at <= this.time);
		this.sleepers = this.sleepers.filter((sleeper) => sleeper.at > this.time);
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
			if (next > this.time) {
				this.time = next;
				this.jumps += 1;
			}
			this.wakeDue();
			setImmediate(step);
		};
		setImmediate(step);
	}
}
