/**
 * Id layouts a multi-tenant service produces: the ids one adviser sees are a subset of one global
 * sequence, with gaps (other tenants' records, migrations, deletions). Each layout is a list of
 * ascending deal ids from `FIRST_ID.deals` (10001) up, deterministic for a record count; the
 * sandbox seeds deals with exactly these ids (`SandboxOptions.dealIds`), the unit tests of the
 * parallel read page them in a simulation, and the bench measures Return All over each.
 */
import { FIRST_ID } from './seed';

export const ID_LAYOUTS = ['dense', 'oneLongGap', 'twoIslands', 'uniformlySparse', 'clusteredSparse', 'skewedTop'] as const;
export type IdLayout = (typeof ID_LAYOUTS)[number];

/** What each layout looks like, in words (for test names and the bench's rows). */
export const ID_LAYOUT_DESCRIPTIONS: Record<IdLayout, string> = {
	dense: 'dense (consecutive ids)',
	oneLongGap: 'one long gap (6 % of the records, 8,700 ids of nothing, the rest)',
	twoIslands: 'two dense islands of different sizes (80 % and 20 %, 50,000 ids apart)',
	uniformlySparse: 'uniformly sparse (every 7th id)',
	clusteredSparse: 'clustered sparse (bursts of 20–200 ids, gaps of 50–20,000)',
	skewedTop: 'skewed (90 % of the records in the top 10 % of the span)',
};

/** `from`, `from + 1`, … `to`. */
function run(from: number, to: number): number[] {
	return Array.from({ length: Math.max(0, to - from + 1) }, (_, index) => from + index);
}

/** A small deterministic generator (a linear congruential one), so a layout is the same in every run. */
function generator(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

/**
 * The ascending ids of `records` deals in a layout, the lowest at `first`. `seed` varies the bursts
 * and gaps of `clusteredSparse`.
 */
export function idLayout(layout: IdLayout, records: number, options: { first?: number; seed?: number } = {}): number[] {
	const first = options.first ?? FIRST_ID.deals;
	const n = Math.max(0, Math.floor(records));
	switch (layout) {
		case 'dense':
			return run(first, first + n - 1);
		case 'oneLongGap': {
			// The service: ids 1–300 and 9,001–13,750 for 5,050 records.
			const head = Math.round((n * 300) / 5050);
			const resume = first + 9000;
			return [...run(first, first + head - 1), ...run(resume, resume + n - head - 1)];
		}
		case 'twoIslands': {
			const big = Math.round(n * 0.8);
			const resume = first + big + 50_000;
			return [...run(first, first + big - 1), ...run(resume, resume + n - big - 1)];
		}
		case 'uniformlySparse':
			return Array.from({ length: n }, (_, index) => first + 6 + index * 7);
		case 'clusteredSparse': {
			const random = generator(options.seed ?? 24);
			const ids: number[] = [];
			let next = first;
			while (ids.length < n) {
				const burst = 20 + Math.floor(random() * 181);
				for (let index = 0; index < burst && ids.length < n; index++) ids.push(next + index);
				// Gaps spread evenly on a log scale from 50 to 20,000 ids.
				next += burst + Math.round(50 * 400 ** random());
			}
			return ids;
		}
		case 'skewedTop': {
			// A span of 10 ids per record: the bottom 90 % holds every 90th id (10 % of the records),
			// the top 10 % nine ids in ten (90 %).
			const span = 10 * n;
			const top = first + Math.round(span * 0.9);
			const low = Array.from({ length: Math.round(n * 0.1) }, (_, index) => first + index * 90);
			const high: number[] = [];
			for (let id = top; high.length < n - low.length; id++) if ((id - top) % 10 !== 9) high.push(id);
			return [...low, ...high];
		}
	}
}
