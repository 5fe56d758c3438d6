/**
 * The sandbox's clocks (SandboxOptions.clock): the machine's, and the machine's shifted, which the
 * CLI's `--clock-offset` uses to run the service's clock ahead of or behind n8n's.
 */

/** What the sandbox reads the time from and waits on (SandboxOptions.clock). */
export interface SandboxClock {
	/** Milliseconds since the epoch. */
	now(): number;
	/** Resolves when `ms` have passed on this clock; absent: the machine's timers. */
	sleep?(ms: number): Promise<void>;
}

/** The machine's clock; the sandbox's default (its waits then use the server's own timers). */
export const MACHINE_CLOCK: SandboxClock = { now: () => Date.now() };

/** The machine's clock `offsetSeconds` ahead (positive) or behind (negative). */
export function offsetClock(offsetSeconds: number): SandboxClock {
	const offsetMs = offsetSeconds * 1000;
	return offsetMs === 0 ? MACHINE_CLOCK : { now: () => Date.now() + offsetMs };
}

/**
 * Waits `ms` on the sandbox's clock: with its own `sleep` (a test's clock that moves), on that; else
 * on a timer of the machine's, kept in `timers` so that the sandbox can cancel it when it closes.
 * `unref`: the timer alone keeps no process alive (a delivery retry nobody waits for).
 */
export async function sleepOn(clock: SandboxClock, ms: number, timers: Set<NodeJS.Timeout>, options: { unref?: boolean } = {}): Promise<void> {
	if (clock.sleep !== undefined) {
		await clock.sleep.call(clock, ms);
		return;
	}
	await new Promise<void>((resolve) => {
		const timer = setTimeout(() => {
			timers.delete(timer);
			resolve();
		}, ms);
		if (options.unref === true) timer.unref();
		timers.add(timer);
	});
}
