/**
 * How hard and how wide the package works the service: the retries of one request, and how many
 * requests a node keeps in flight (Request Options → Requests in Parallel). Exported so that the
 * parameters, the README and the tests state the same numbers.
 */

/** How hard the transport tries before giving up. */
export const RETRY_POLICY = {
	/** Attempts in all when the service answers 429. */
	rateLimitAttempts: 4,
	/** Longest `retry-after` the node waits for; a longer one fails at once with the wait in the message. */
	maxRetryAfterSeconds: 60,
	/** Wait when a 429 carries no usable `retry-after`. */
	defaultRetryAfterSeconds: 2,
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
