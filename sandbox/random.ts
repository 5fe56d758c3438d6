/**
 * Small deterministic pseudo-random helpers (no dependencies).
 *
 * Every generated record draws from its own stream, seeded from the sandbox seed, a salt per
 * resource type and the record id, so a record looks the same whether it is generated eagerly
 * at startup or lazily when a page is served.
 */

/** 32-bit integer hash (a variant of the murmur3 finaliser). */
export function hash32(...parts: number[]): number {
	let h = 0x811c9dc5;
	for (const part of parts) {
		h = Math.imul(h ^ (part >>> 0), 0x01000193);
		h ^= h >>> 15;
		h = Math.imul(h, 0x2c1b3c6d);
		h ^= h >>> 12;
		h = Math.imul(h, 0x297a2d39);
		h ^= h >>> 15;
	}
	return h >>> 0;
}

/** A seeded pseudo-random stream (mulberry32). */
export class Rng {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0;
	}

	/** Restarts the stream from another seed (saves allocations in hot loops). */
	reseed(seed: number): this {
		this.state = seed >>> 0;
		return this;
	}

	/** A float in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/** An integer in [min, max] (inclusive). */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	/** True with probability p. */
	chance(p: number): boolean {
		return this.next() < p;
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}

	/** Picks from `[value, weight]` pairs. */
	weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
		let total = 0;
		for (const [, weight] of items) total += weight;
		let roll = this.next() * total;
		for (const [value, weight] of items) {
			roll -= weight;
			if (roll < 0) return value;
		}
		return items[items.length - 1][0];
	}

	/** A number rounded to `step`, in [min, max]. */
	amount(min: number, max: number, step: number): number {
		return Math.round((min + this.next() * (max - min)) / step) * step;
	}

	digits(count: number): string {
		let out = '';
		for (let i = 0; i < count; i++) out += String(Math.floor(this.next() * 10));
		return out;
	}
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** Civil date (UTC) of a day number since 1970-01-01 (H. Hinnant's algorithm, no Date object). */
function civil(days: number): [number, number, number] {
	const z = days + 719468;
	const era = Math.floor(z / 146097);
	const doe = z - era * 146097;
	const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
	const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
	const mp = Math.floor((5 * doy + 2) / 153);
	const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
	const m = mp < 10 ? mp + 3 : mp - 9;
	return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

/** Formats epoch milliseconds as `YYYY-MM-DD` (UTC). */
export function isoDate(ms: number): string {
	const [y, m, d] = civil(Math.floor(ms / 86_400_000));
	return `${y}-${pad2(m)}-${pad2(d)}`;
}

/** Formats epoch milliseconds as ISO 8601 UTC; milliseconds are written only when not zero. */
export function isoTimestamp(ms: number): string {
	if (ms < 0 || ms >= 253402300800000) {
		const iso = new Date(ms).toISOString();
		return iso.endsWith('.000Z') ? `${iso.slice(0, 19)}Z` : iso;
	}
	const dayMs = ((ms % 86_400_000) + 86_400_000) % 86_400_000;
	const seconds = Math.floor(dayMs / 1000);
	const millis = dayMs % 1000;
	const time = `${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}`;
	const fraction = millis === 0 ? '' : `.${String(millis).padStart(3, '0')}`;
	return `${isoDate(ms)}T${time}${fraction}Z`;
}

export const DAY_MS = 86_400_000;
