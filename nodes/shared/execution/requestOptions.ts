/**
 * Request Options, shown on every operation: the adviser to act as, how many requests the node
 * keeps in flight, and how long a request may wait for the rate-limit budget (the triggers show the
 * last one under their Options).
 */
import type { IExecuteFunctions, INode, IPollFunctions } from 'n8n-workflow';

import { invalidParameter } from '../errors/factory';
import { locatorValue, parseId } from '../input/values';
import {
	DEFAULT_RATE_LIMIT_WAIT_MINUTES,
	DEFAULT_REQUESTS_IN_PARALLEL,
	MAX_RATE_LIMIT_WAIT_MINUTES,
	MAX_REQUESTS_IN_PARALLEL,
	rateLimitWaitLabel,
	RATE_LIMIT_WAIT_OPTION,
} from '../requests/policy';
import type { RunContext } from '../requests/runContext';
import { runContextOf } from '../requests/runContext';

const REQUESTS_IN_PARALLEL_LABEL = 'Request Options → Requests in Parallel';

/** The adviser to act as when Request Options → User ID is set; otherwise the credential's. */
export function userIdOverride(context: IExecuteFunctions, itemIndex: number): string | undefined {
	const options = context.getNodeParameter('requestOptions', itemIndex, {}) as { userId?: unknown };
	// A locator (By ID) since 0.2, a plain value in workflows saved before; added but left empty = not set.
	const userId = locatorValue(options.userId);
	if (userId === undefined || userId === '') return undefined;
	return parseId(context.getNode(), { label: 'Request Options → User ID', path: ['requestOptions', 'userId'] }, userId, itemIndex);
}

/** Requests in Parallel as a whole number (1 to 16); unset or empty is the default. */
function requestsInParallel(node: INode, value: unknown): number {
	if (value === undefined || value === null || value === '') return DEFAULT_REQUESTS_IN_PARALLEL;
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

/** The option as a number of minutes (0 to a day); unset or empty is the default. */
function rateLimitWaitMinutes(node: INode, value: unknown, label: string): number {
	if (value === undefined || value === null || value === '') return DEFAULT_RATE_LIMIT_WAIT_MINUTES;
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isFinite(number) || number < 0 || number > MAX_RATE_LIMIT_WAIT_MINUTES) {
		throw invalidParameter(node, label, `must be a number of minutes from 0 (fail at once) to ${MAX_RATE_LIMIT_WAIT_MINUTES}; got ${JSON.stringify(value)}`);
	}
	return number;
}

/**
 * The node settings of Request Options (read for the first item, once per run), applied to the run
 * before its first request: Requests in Parallel (the run's request slots, which the transport
 * holds every request to) and When Rate Limited (how long each request may wait for the
 * credential's rate-limit budget). Returns the run, whose `requestsInParallel` the item loop reads.
 */
export function applyRequestOptions(context: IExecuteFunctions): RunContext {
	const options = context.getNodeParameter('requestOptions', 0, {}) as Record<string, unknown>;
	const label = `Request Options → ${rateLimitWaitLabel(context.getNode())}`;
	const parallel = requestsInParallel(context.getNode(), options.requestsInParallel);
	const minutes = rateLimitWaitMinutes(context.getNode(), options[RATE_LIMIT_WAIT_OPTION], label);
	const run = runContextOf(context);
	run.requestsInParallel = parallel;
	setRateLimitWait(run, minutes, label);
	return run;
}

/** The triggers' Options → When Rate Limited, applied to the poll. */
export function applyPollRateLimitWait(context: IPollFunctions, options: Record<string, unknown>): void {
	const label = `Options → ${rateLimitWaitLabel(context.getNode())}`;
	setRateLimitWait(runContextOf(context), rateLimitWaitMinutes(context.getNode(), options[RATE_LIMIT_WAIT_OPTION], label), label);
}

function setRateLimitWait(run: RunContext, minutes: number, label: string): void {
	run.rateLimitWaitMs = minutes * 60_000;
	run.rateLimitWaitOption = label;
}
