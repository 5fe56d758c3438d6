/**
 * The one clock the tests and the bench move instead of waiting. `install()` makes it the package's
 * clock (credentials/clock.ts): the credential's token lifetimes, every run's `run.clock` (the
 * transport's waits, the rate-limit budget, the triggers' polls and their cursors). Hand the same
 * clock to the sandbox (`startSandbox({ clock })`: token expiry, the bucket's refill, the service's
 * `Date` header and stamps, played latency and delay faults). One clock, moved by one call
 * (`advance`, `set`), moves all of them; nothing in `npm test` sleeps on the machine's clock.
 * Engine tests get one from `useSandbox` (test/engine/helpers.ts), installed for the file.
 *
 * - `TestClock.stopped()` stands still at the machine's time until moved, `TestClock.at(t)` at
 *   `t`, `TestClock.virtual()` at a fixed instant (2026-11-26 00:00 UTC, so a run is the same on
 *   every machine and every day): exact, for checks that count what a span of time allows (a
 *   bucket's refill, a token's last millisecond, hours of rate-limit pacing).
 * - `TestClock.running()` runs with the machine's clock and jumps forward when advanced: for suites
 *   where many things happen between the jumps and ordering by time must stay natural.
 *
 * Time moves by `advance(ms)` and `set(t)`, or, after `autoAdvance(busy)`, by itself: whenever
 * someone sleeps on the clock, nothing is `busy` (no request on its way) and the event loop has gone
 * quiet for a few turns, time jumps to the earliest wake-up and those sleepers wake. Everything that
 * is not waiting for the clock thus happens at the instant it would have happened anyway, and a wait
 * costs exactly the time it asked for.
 */
import type { Clock } from '../credentials/clock';
import type { Sandbox } from '../sandbox';

/**
 * The package's modules this file uses, loaded when first needed: they load n8n-workflow (a third
 * of a second in a jest file), which the sandbox's own tests, that only need a TestClock, never do.
 */
const packageModules = () => ({
	clock: require('../credentials/clock') as typeof import('../credentials/clock'),
	accessTokens: require('../credentials/accessTokens') as typeof import('../credentials/accessTokens'),
	rateBudget: require('../nodes/shared/requests/rateBudget') as typeof import('../nodes/shared/requests/rateBudget'),
});

const VIRTUAL_START = Date.UTC(2026, 10, 26, 0, 0, 0);

export class TestClock implements Clock {
	private offset = 0;

	private sleepers: Array<{ at: number; wake: () => void }> = [];

	private busy?: () => boolean;

	private driving = false;

	/** Jumps made by `autoAdvance`, for the curious. */
	jumps = 0;

	private constructor(private readonly base: () => number) {}

	/** Stands still at `start` (ms since the epoch) until moved. */
	static at(start: number): TestClock {
		return new TestClock(() => start);
	}

	/** Stands still at the machine's time now until moved. */
	static stopped(): TestClock {
		return TestClock.at(Date.now());
	}

	/** Stands still at 2026-11-26 00:00 UTC until moved. */
	static virtual(): TestClock {
		return TestClock.at(VIRTUAL_START);
	}

	/** The machine's clock plus every advance so far. */
	static running(): TestClock {
		return new TestClock(() => Date.now());
	}

	readonly now = (): number => this.base() + this.offset;

	/** Resolves when the clock has moved `ms` past now (by `advance`, `set` or `autoAdvance`). */
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

	/** Puts the clock at `instant` (ms since the epoch; back too, as a machine's clock can go) and wakes every sleeper due by then. */
	set(instant: number): void {
		this.offset += instant - this.now();
		this.wakeDue();
	}

	/**
	 * This clock seen `offsetMs` ahead (positive) or behind (negative): for a sandbox whose service
	 * runs ahead of or behind n8n's clock. It moves with this one.
	 */
	shifted(offsetMs: number): Clock {
		return { now: () => this.now() + offsetMs, sleep: this.sleep };
	}

	/**
	 * Makes this the package's one clock (credentials/clock.ts): the credential and every run
	 * started from now on read it. The returned function puts back the clock before.
	 */
	install(): () => void {
		return packageModules().clock.usePackageClock(this);
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

/**
 * Lets waits on `clock` pass by themselves: time jumps to the next wake-up whenever no request the
 * nodes sent is on its way, other than those `sandbox` holds on the clock (played latency, a delay
 * fault) and those waiting for a token whose request it holds (`requestsInFlight`: the package's
 * requests by default; a test node's for tests that send through it). So requests sent at once all
 * arrive before latency lets the first of them go, requests that meet an expired token all wait for
 * the one new token before it comes, and a retry-after passes only once every request in flight has
 * its answer.
 */
export function waitsPassByThemselves(clock: TestClock, sandbox: Pick<Sandbox, 'heldRequests'>, requestsInFlight?: () => number): void {
	const { accessTokens, rateBudget } = packageModules();
	const inFlight = requestsInFlight ?? rateBudget.rateLimitedRequestsInFlight;
	clock.autoAdvance(() => {
		const waitingForToken = accessTokens.requestsWaitingForToken();
		const onTheirWay = inFlight() - sandbox.heldRequests('api') - waitingForToken;
		return onTheirWay > 0 || (waitingForToken > 0 && sandbox.heldRequests('token') === 0);
	});
}
