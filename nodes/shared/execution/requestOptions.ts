/**
 * Request Options, shown on every operation: how many requests the node keeps in flight, and how
 * long a request may wait for the rate-limit budget (the triggers show the last one under their
 * Options). Its User ID, the adviser to act as, is read with Allocate To in adviser.ts: one concept.
 */
import type { IExecuteFunctions, INode, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';

import { invalidParameter } from '../errors/factory';
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

/**
 * The triggers' Options → When Rate Limited, applied to the poll (or the Webhook Trigger's read),
 * named as `wordsOf`'s version names it (the node's own; the Webhook Trigger's, the polling
 * triggers' version whose words it shows).
 */
export function applyPollRateLimitWait(
	context: IPollFunctions | IWebhookFunctions,
	options: Record<string, unknown>,
	wordsOf: Pick<INode, 'typeVersion'> = context.getNode(),
): void {
	const label = `Options → ${rateLimitWaitLabel(wordsOf)}`;
	setRateLimitWait(runContextOf(context), rateLimitWaitMinutes(context.getNode(), options[RATE_LIMIT_WAIT_OPTION], label), label);
}

function setRateLimitWait(run: RunContext, minutes: number, label: string): void {
	run.rateLimitWaitMs = minutes * 60_000;
	run.rateLimitWaitOption = label;
}
