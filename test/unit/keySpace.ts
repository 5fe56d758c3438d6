/**
 * A simulated service over a set of keys, for driving the parallel keyset read
 * (nodes/shared/paging/parallelKeyset.ts) without the engine, the sandbox or a clock.
 *
 * Every answer takes the same time, as over a steady network, and is made from the keys as they
 * are when it is answered (so a test can create or delete records while the read runs). `rounds`
 * is the read's critical path in requests: a request sent on an answer is one round after it; with
 * P in flight, no read of N pages needs fewer than ⌈N ÷ P⌉ rounds. Two ways to answer:
 * - `together` (the default): every request sent since the last round is answered at once, and the
 *   read sees all those answers before it asks for more;
 * - `oneByOne`: the oldest request is answered, the read reacts to it (sends what it sends), then
 *   the next: as over a real network, where answers of one round arrive one after the other.
 */
import type { KeyPageSource, KeyedPage } from '../../nodes/shared/paging/parallelKeyset';
import { readKeyRanges } from '../../nodes/shared/paging/parallelKeyset';

export interface SimulatedPage extends KeyedPage {
	/** The records: their keys, in ascending order. */
	records: number[];
}

export interface KeySpaceRead {
	/** The keys delivered, in order. */
	delivered: number[];
	/** Each request as `first 100`, `↑(from,to]` (the lowest keys) or `↓(from,to]` (the highest), in the order sent. */
	requests: string[];
	/** The requests answered in each round. */
	perRound: string[][];
	/** Each request with what its answer held: `↑(100,400]=100`, `… (37 new)` when some were in earlier answers. */
	log: string[];
	rounds: number;
	/** The most requests answered in one round. */
	widestRound: number;
	/** Set when the read handed over to page-after-page reading. */
	handedOver: boolean;
}

/** Lets every queued promise callback run (the read is all promises: one macrotask drains it). */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export class KeySpace {
	private keys: number[];

	private pending: Array<{ round: number; answer: () => void }> = [];

	constructor(
		keys: Iterable<number>,
		private readonly pageSize = 100,
	) {
		this.keys = [...new Set(keys)].sort((a, b) => a - b);
	}

	/** Records created or deleted (between rounds). */
	add(...keys: number[]): void {
		this.keys = [...new Set([...this.keys, ...keys])].sort((a, b) => a - b);
	}

	remove(...keys: number[]): void {
		const gone = new Set(keys);
		this.keys = this.keys.filter((key) => !gone.has(key));
	}

	get size(): number {
		return this.keys.length;
	}

	/** What page-after-page keyset reading sends for the keys as they are: every full page, then a short or empty one. */
	get sequentialRequests(): number {
		return Math.floor(this.keys.length / this.pageSize) + 1;
	}

	/**
	 * Runs one read to its end. `beforeRound(round)` runs before each round is answered (1 = the
	 * first page's round). With `unordered`, the first page's ids are not whole numbers.
	 */
	async read(
		options: {
			parallel: number;
			limit?: number;
			beforeRound?: (round: number) => void;
			unordered?: boolean;
			answer?: 'together' | 'oneByOne';
		} = { parallel: 4 },
	): Promise<KeySpaceRead> {
		const result: KeySpaceRead = { delivered: [], requests: [], perRound: [], log: [], rounds: 0, widestRound: 0, handedOver: false };
		const seen = new Set<number>();
		/** The round of the answer the read is reacting to: what it asks for now comes one round later. */
		let reactingTo = 0;
		const answer = (request: string, page: () => SimulatedPage): Promise<SimulatedPage> => {
			const index = result.requests.push(request) - 1;
			result.log.push(request);
			const round = reactingTo + 1;
			(result.perRound[round - 1] ??= []).push(request);
			return new Promise<SimulatedPage>((resolve) =>
				this.pending.push({
					round,
					answer: () => {
						const answered = page();
						const fresh = answered.records.filter((key) => !seen.has(key));
						for (const key of fresh) seen.add(key);
						result.log[index] = `${request}=${answered.count}${fresh.length < answered.count ? ` (${fresh.length} new)` : ''}`;
						reactingTo = round;
						resolve(answered);
					},
				}),
			);
		};
		const pageOf = (keys: number[], size: number): SimulatedPage => {
			const taken = keys.slice(0, size);
			// As the service without totals: `links.next` whenever the page is full.
			return { count: taken.length, keys: taken, records: taken, hasMore: taken.length === size };
		};
		const source: KeyPageSource<SimulatedPage> = {
			first: (size) =>
				answer(`first ${size}`, () => {
					const page = pageOf(this.keys, size);
					return options.unordered ? { ...page, keys: undefined } : page;
				}),
			between: (from, to, direction) =>
				answer(`${direction === 'up' ? '↑' : '↓'}(${from},${to}]`, () => {
					const inside = this.keys.filter((key) => key > from && key <= to);
					if (direction === 'up') return pageOf(inside, this.pageSize);
					// Asked for in the opposite order, handed back ascending (as pagination.ts does).
					const page = pageOf([...inside].reverse(), this.pageSize);
					const records = [...page.records].reverse();
					return { ...page, keys: records, records };
				}),
		};
		let finished = false;
		const reading = readKeyRanges({
			source,
			parallel: options.parallel,
			limit: options.limit,
			pageSize: this.pageSize,
			maxPages: 100_000,
			deliver: async (page, start, end) => {
				result.delivered.push(...page.records.slice(start, end));
			},
			handOver: async (page, delivered) => {
				result.handedOver = true;
				return delivered;
			},
			outOfOrder: () => new Error('out of order'),
		}).finally(() => (finished = true));
		let announced = 0;
		for (;;) {
			await settle();
			if (finished) break;
			if (this.pending.length === 0) throw new Error('the read waits for nothing: stalled');
			const due = options.answer === 'oneByOne' ? this.pending.splice(0, 1) : this.pending.splice(0);
			for (; announced < due[0].round; announced++) options.beforeRound?.(announced + 1);
			for (const pending of due) pending.answer();
		}
		await reading;
		result.rounds = result.perRound.length;
		result.widestRound = Math.max(...result.perRound.map((round) => round.length));
		return result;
	}
}

/** `from`, `from + 1`, … `to`. */
export function span(from: number, to: number): number[] {
	return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}
