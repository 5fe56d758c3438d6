/**
 * How many requests a node keeps in flight: Request Options → Requests in Parallel, and the one
 * bounded worker loop that the router (input items) and the pagination (id ranges) share.
 *
 * Over the internet a round trip costs 30–150 ms and the service needs a few ms per request, so a
 * node that waits for each answer before sending the next spends nearly all its time waiting.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { invalidParameter } from '../errors/factory';

/**
 * Four in flight: cuts the waiting about fourfold at any latency, is the pace the service's own
 * keyset example can sustain without its per-5-minute token budget running out sooner than with
 * sequential requests of the same count (parallelism changes the pace, never the cost), and keeps
 * to a handful of connections, far below what a web API treats as a burst.
 */
export const DEFAULT_REQUESTS_IN_PARALLEL = 4;
/** More gains little once the service's own time dominates, and empties small rate-limit budgets fast. */
export const MAX_REQUESTS_IN_PARALLEL = 16;

export const REQUESTS_IN_PARALLEL_LABEL = 'Request Options → Requests in Parallel';

/** The node's Requests in Parallel (a node setting: read for the first item). */
export function requestsInParallel(context: IExecuteFunctions): number {
	const options = context.getNodeParameter('requestOptions', 0, {}) as { requestsInParallel?: unknown };
	const value = options.requestsInParallel;
	if (value === undefined || value === null || value === '') return DEFAULT_REQUESTS_IN_PARALLEL;
	return checkRequestsInParallel(context.getNode(), value);
}

export function checkRequestsInParallel(node: INode, value: unknown): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isInteger(number) || number < 1 || number > MAX_REQUESTS_IN_PARALLEL) {
		throw invalidParameter(
			node,
			REQUESTS_IN_PARALLEL_LABEL,
			`must be a whole number from 1 (one request at a time) to ${MAX_REQUESTS_IN_PARALLEL}; got ${JSON.stringify(value)}`,
		);
	}
	return number;
}

/**
 * Runs `worker` in `concurrency` loops at once and resolves when all of them have returned. Each
 * loop asks for its own work, so a loop that finishes early takes the next piece instead of idling.
 */
export async function inParallel(concurrency: number, worker: () => Promise<void>): Promise<void> {
	const loops: Array<Promise<void>> = [];
	for (let i = 0; i < Math.max(1, concurrency); i++) loops.push(worker());
	await Promise.all(loops);
}

/**
 * Calls `task` for 0 … count-1, at most `concurrency` at once, starting them in index order.
 * Tasks that share a key run one after the other, in index order (two items writing one record).
 * `stopAfter()` is asked before each start: once it returns an index, later indexes are not started.
 */
export async function forEachIndex(
	count: number,
	concurrency: number,
	task: (index: number) => Promise<void>,
	options: { keyOf?: (index: number) => string | undefined; stopAfter?: () => number | undefined } = {},
): Promise<void> {
	let next = 0;
	const lastOfKey = new Map<string, Promise<void>>();
	await inParallel(Math.min(concurrency, count), async () => {
		for (;;) {
			const index = next;
			const stop = options.stopAfter?.();
			if (index >= count || (stop !== undefined && index > stop)) return;
			next += 1;
			const key = options.keyOf?.(index);
			const previous = key === undefined ? undefined : lastOfKey.get(key);
			let finished = (): void => undefined;
			if (key !== undefined) lastOfKey.set(key, new Promise<void>((resolve) => (finished = resolve)));
			try {
				if (previous !== undefined) await previous;
				await task(index);
			} finally {
				finished();
			}
		}
	});
}

/** At most `size` holders at once; the others wait in order of arrival. */
class Slots {
	private waiting: Array<() => void> = [];

	constructor(private free: number) {}

	async hold<T>(work: () => Promise<T>): Promise<T> {
		if (this.free > 0) this.free -= 1;
		else await new Promise<void>((resolve) => this.waiting.push(resolve));
		try {
			return await work();
		} finally {
			const next = this.waiting.shift();
			if (next) next();
			else this.free += 1;
		}
	}
}

const slotsOfRun = new WeakMap<object, Slots>();

/**
 * Runs one request within the run's bound of `limit` requests in flight, shared by everything the
 * run pages at once (several input items each paging id ranges still make `limit` in all).
 */
export async function withRequestSlot<T>(run: object, limit: number, work: () => Promise<T>): Promise<T> {
	let slots = slotsOfRun.get(run);
	if (slots === undefined) {
		slots = new Slots(Math.max(1, limit));
		slotsOfRun.set(run, slots);
	}
	return await slots.hold(work);
}
