/**
 * The sandbox's clocks (SandboxOptions.clock): the machine's, and the machine's shifted, which the
 * CLI's `--clock-offset` uses to run the service's clock ahead of or behind n8n's.
 */
import type { SandboxClock } from './types';

/** The machine's clock; the sandbox's default (its waits then use the server's own timers). */
export const MACHINE_CLOCK: SandboxClock = { now: () => Date.now() };

/** The machine's clock `offsetSeconds` ahead (positive) or behind (negative). */
export function offsetClock(offsetSeconds: number): SandboxClock {
	const offsetMs = offsetSeconds * 1000;
	return offsetMs === 0 ? MACHINE_CLOCK : { now: () => Date.now() + offsetMs };
}
