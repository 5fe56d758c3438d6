/**
 * A clock the tests move instead of sleeping: hand `clock.now` to the sandbox (`clock` option) and
 * to the credential (`useCredentialClock`), then `advance` past a token's lifetime or a rate-limit
 * window.
 *
 * - `new ManualClock()` stands still at the machine's time until it is advanced: exact, for checks
 *   that count what a given span of time allows (a bucket's refill, a token's last millisecond).
 * - `ManualClock.running()` runs with the machine's clock and jumps forward when advanced: for
 *   suites where many things happen between the jumps and ordering by time must stay natural.
 */
import { credentialClock } from '../credentials/clock';

export class ManualClock {
	private offset = 0;

	private constructor(private readonly base: () => number) {}

	/** A clock that stands still at `start` (the machine's time by default) until advanced. */
	static stopped(start = Date.now()): ManualClock {
		return new ManualClock(() => start);
	}

	/** The machine's clock plus every `advance` so far. */
	static running(): ManualClock {
		return new ManualClock(() => Date.now());
	}

	readonly now = (): number => this.base() + this.offset;

	advance(ms: number): void {
		this.offset += ms;
	}
}

/** Makes the credential read `clock` until the returned function restores the machine's time. */
export function useCredentialClock(clock: ManualClock): () => void {
	const previous = credentialClock.now;
	credentialClock.now = clock.now;
	return () => {
		credentialClock.now = previous;
	};
}
