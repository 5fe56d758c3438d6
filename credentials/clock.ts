/**
 * The package's one time source: what reads the time (ms since the epoch) and what waits.
 *
 * Every run of a node carries it (`RunContext.clock`, nodes/shared/requests/runContext.ts, taken
 * from here when the run starts): the transport's waits, the rate-limit budget
 * (requests/rateBudget.ts), the triggers' polls and their cursors read `run.clock`. The credential,
 * which n8n calls without a run of ours, reads it here for token lifetimes and what it remembers of
 * tokens (accessTokens.ts). It lives in credentials/, the lowest layer, so that every layer can
 * reach it without importing upwards.
 *
 * In n8n it is the machine's clock, and it waits with n8n-workflow's `sleep` (node code may not use
 * timers of its own). Tests and the bench install a clock they move instead of waiting
 * (harness/clock.ts `TestClock.install`), so `npm test` never sleeps on the machine's clock.
 */
import { sleep } from 'n8n-workflow';

export interface Clock {
	/** Milliseconds since the epoch. */
	now(): number;
	/** Resolves when `ms` have passed on this clock. */
	sleep(ms: number): Promise<void>;
}

/** The machine's clock: what the package reads in n8n. */
export const MACHINE_CLOCK: Clock = {
	now: () => Date.now(),
	sleep: async (ms) => await sleep(ms),
};

let current: Clock = MACHINE_CLOCK;

/** The clock the package reads now; a run takes it when it starts. */
export function packageClock(): Clock {
	return current;
}

/**
 * Makes `clock` the package's one clock (tests and the bench: harness/clock.ts); the returned
 * function puts back the one before. Runs already under way keep the clock they started with.
 */
export function usePackageClock(clock: Clock): () => void {
	const previous = current;
	current = clock;
	return () => {
		current = previous;
	};
}
