/**
 * How hard and how wide the package works the service: the retries of one request, and how many
 * requests a node keeps in flight (Request Options → Requests in Parallel). Exported so that the
 * parameters, the README and the tests state the same numbers.
 */

import type { INode } from 'n8n-workflow';

import { has } from '../service/versions';

/** The service's window: `x-ratelimit-limit` tokens refill over this many seconds (its README: tokens per 5 minutes). */
export const RATE_LIMIT_WINDOW_SECONDS = 300;

/** How hard the transport tries before giving up. */
export const RETRY_POLICY = {
	/*
	 * A 429 (not processed, so repeated whatever the method) is repeated after its `retry-after` for
	 * as long as Request Options → When Rate Limited allows in all: the limit is a time, never a
	 * count. Pacing (rateBudget.ts, bucketSharing.ts) keeps 429s rare.
	 */
	/** Wait when a 429 carries no usable `retry-after`. */
	defaultRetryAfterSeconds: 2,
	/** The shortest wait after a 429 (a `retry-after` of 0 would otherwise repeat it at once, over and over). */
	shortestRetryAfterSeconds: 1,
	/** Attempts in all for a GET that meets 502/503/504 or a dropped connection. */
	transientAttempts: 4,
	/** Backoff before the 2nd, 3rd, 4th attempt of a GET. */
	backoffMs: [300, 1000, 2500],
	/** Longest wait for one answer; a page of 100 large records arrives well within it. */
	timeoutMs: 60_000,
} as const;

/*
 * Over the internet a round trip costs 30–150 ms and the service needs a few ms per request, so a
 * node that waits for each answer before sending the next spends nearly all its time waiting.
 */

/**
 * Four in flight: cuts the waiting about fourfold at any latency, is the pace the service's own
 * keyset example can sustain without its per-5-minute token budget running out sooner than with
 * sequential requests of the same count (parallelism changes the pace, never the cost), and keeps
 * to a handful of connections, far below what a web API treats as a burst.
 */
export const DEFAULT_REQUESTS_IN_PARALLEL = 4;
/** More gains little once the service's own time dominates, and empties small rate-limit budgets fast. */
export const MAX_REQUESTS_IN_PARALLEL = 16;

/**
 * The most records a version 1.1 tool returns when the model fills its Limit (the tool description
 * says so): one page of the service, about 40 KB of deal summaries for the model to read. A model
 * asking for more is told to narrow its filter (execution/actions/common.ts collectionLimit), since
 * thousands of records paged into its context cost much and answer little. A Limit the workflow's
 * author sets, and version 1 tools, are not bounded.
 */
export const AGENT_LIMIT_CEILING = 100;

/**
 * Request Options → When Rate Limited, Wait Up To (Minutes): the longest a request waits for the
 * rate-limit budget (its turn, the refill the headers imply, a 429's `retry-after`) before it fails.
 * The bucket refills in full every 5 minutes, so any request of a paced job is covered within one
 * refill period of its turn; 10 minutes adds a second for the requests of other executions queued
 * before it and for a service that refills slower than its headers say. So a job of any size
 * finishes, at the pace of the budget.
 */
export const DEFAULT_RATE_LIMIT_WAIT_MINUTES = 10;
/** The option's name inside Request Options (action nodes) and Options (triggers), and its label. */
export const RATE_LIMIT_WAIT_OPTION = 'rateLimitWaitMinutes';
/** Its label in a node of this version: short enough from 1.2 to show whole, unit included. */
export function rateLimitWaitLabel(node: Pick<INode, 'typeVersion'>): string {
	return has(node, 'plainWords') ? 'Rate Limit Wait (Minutes)' : 'When Rate Limited, Wait Up To (Minutes)';
}
/** A day: longer waits are a stuck job rather than a plan. */
export const MAX_RATE_LIMIT_WAIT_MINUTES = 1440;
/** A list search in the editor (someone is typing) waits for the budget at most this long. */
export const LIST_SEARCH_RATE_LIMIT_WAIT_SECONDS = 60;
