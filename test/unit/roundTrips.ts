/**
 * The round-trip simulator of the parallel keyset read: the planner of
 * nodes/shared/paging/keyRanges.ts driven synchronously against a set of keys, exactly as the
 * driver (parallelKeyset.ts) drives it (`afterFirstPage`, then `requestsToSend` after the first
 * page and after every answer, `takeAnswer`, `nextChunk`), with no requests, no promises and no
 * clock, so its counts are exact on any machine.
 *
 * Every request takes exactly one round: a request sent in reaction to an answer of round r is
 * answered in round r + 1, and at most `parallel` are on their way at once (the planner's own
 * bound). Two orders in which the answers of one round reach the planner:
 * - `together`: the planner takes every answer of the round, then sends;
 * - `oneByOne`: it takes the round's answers one at a time, in the order they were sent, and sends
 *   after each (as over a real network, where the answers of a round arrive one after the other).
 *   What it sends after an early answer of round r still takes one round: it is answered in r + 1.
 *
 * The pages are made as the service makes them: the lowest (`up`) or highest (`down`) `pageSize`
 * keys in the span asked for, handed back ascending, `links.next` whenever a page is full.
 */
import type { Chunk, KeyPlan, KeyRequest } from '../../nodes/shared/paging/keyRanges';
import { afterFirstPage, complete, firstPageSize, nextChunk, requestsToSend, takeAnswer } from '../../nodes/shared/paging/keyRanges';

export type AnswerOrder = 'together' | 'oneByOne';

export interface SimulatedRead {
	/** The keys emitted, in order. */
	delivered: number[];
	requests: number;
	rounds: number;
	/** The requests answered in each round, as `first`, `↑(from,to]` or `↓(from,to]`. */
	perRound: string[][];
	/** The most requests on their way at once. */
	widest: number;
	/** The splits the planner made: the read was cut into one range more than that. */
	splits: number;
	/** Each answered request with the records it brought that no earlier answer had: `↑(100,400]=100 (37 new)`. */
	log: string[];
}

/** A page: its keys, ascending. */
type Keys = readonly number[];

/** The index of the first key above `bound` (keys ascending). */
function firstAbove(keys: Keys, bound: number): number {
	let low = 0;
	let high = keys.length;
	while (low < high) {
		const middle = (low + high) >> 1;
		if (keys[middle] <= bound) low = middle + 1;
		else high = middle;
	}
	return low;
}

/** What page-after-page keyset reading sends for `records` records: every full page, then a short or empty one. */
export function pageAfterPageRequests(records: number, pageSize = 100): number {
	return Math.floor(records / pageSize) + 1;
}

const label = (request: KeyRequest): string => `${request.direction === 'up' ? '↑' : '↓'}(${request.from},${request.to}]`;

/** Reads every key (or up to `limit`) with the planner; `keys` ascending whole numbers. */
export function simulateRead(keys: Keys, options: { parallel: number; order?: AnswerOrder; pageSize?: number; limit?: number }): SimulatedRead {
	const pageSize = options.pageSize ?? 100;
	const { parallel, limit } = options;
	const result: SimulatedRead = { delivered: [], requests: 1, rounds: 1, perRound: [['first']], widest: 1, splits: 0, log: [] };
	const deliver = (chunk: Chunk<Keys>) => {
		const remaining = limit === undefined ? Infinity : limit - result.delivered.length;
		result.delivered.push(...chunk.page.slice(chunk.start, Math.min(chunk.end, chunk.start + remaining)));
	};

	const firstKeys = keys.slice(0, firstPageSize(limit, pageSize));
	deliver({ page: firstKeys, start: 0, end: firstKeys.length });
	const next = afterFirstPage<Keys>(
		{ keys: firstKeys, count: firstKeys.length, hasMore: firstKeys.length === firstPageSize(limit, pageSize) },
		{ parallel, pageSize, limit, delivered: result.delivered.length },
	);
	if (next.next !== 'plan') return result;
	const plan: KeyPlan<Keys> = next.plan;

	const answer = (request: KeyRequest): Keys => {
		const start = firstAbove(keys, request.from);
		const end = firstAbove(keys, request.to);
		return request.direction === 'up' ? keys.slice(start, Math.min(end, start + pageSize)) : keys.slice(Math.max(start, end - pageSize), end);
	};
	const filled = () => limit !== undefined && result.delivered.length >= limit;
	const emit = () => {
		for (let chunk = filled() ? undefined : nextChunk(plan); chunk !== undefined; chunk = filled() ? undefined : nextChunk(plan)) deliver(chunk);
	};

	/** Requests on their way, each with the round it is answered in. */
	let onTheirWay: Array<{ request: KeyRequest; round: number }> = [];
	const send = (round: number) => {
		if (filled() || complete(plan)) return;
		for (const request of requestsToSend(plan)) {
			onTheirWay.push({ request, round });
			result.requests += 1;
		}
		result.widest = Math.max(result.widest, onTheirWay.length);
	};
	send(2);
	while (onTheirWay.length > 0) {
		const round = onTheirWay[0].round;
		const due = options.order === 'oneByOne' ? [onTheirWay[0]] : onTheirWay.filter((entry) => entry.round === round);
		onTheirWay = onTheirWay.filter((entry) => !due.includes(entry));
		for (const { request } of due) {
			(result.perRound[round - 1] ??= []).push(label(request));
			const page = answer(request);
			const wastedBefore = plan.wasted;
			if (!takeAnswer(plan, request, { page, keys: page, hasMore: page.length === pageSize })) throw new Error(`the planner refused the answer to ${label(request)}`);
			const fresh = Math.round(pageSize * (1 - (plan.wasted - wastedBefore)));
			result.log.push(`${round}: ${label(request)}=${page.length}${fresh < page.length ? ` (${fresh} new)` : ''}`);
		}
		result.rounds = Math.max(result.rounds, round);
		send(round + 1);
		emit();
	}
	emit();
	result.splits = plan.splits;
	return result;
}
