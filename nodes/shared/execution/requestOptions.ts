/**
 * Request Options, shown on every operation: the adviser to act as, and how many requests the node
 * keeps in flight.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { invalidParameter } from '../errors/factory';
import { locatorValue, parseId } from '../input/values';
import { DEFAULT_REQUESTS_IN_PARALLEL, MAX_REQUESTS_IN_PARALLEL } from '../requests/policy';

const REQUESTS_IN_PARALLEL_LABEL = 'Request Options → Requests in Parallel';

/** The adviser to act as when Request Options → User ID is set; otherwise the credential's. */
export function userIdOverride(context: IExecuteFunctions, itemIndex: number): string | undefined {
	const options = context.getNodeParameter('requestOptions', itemIndex, {}) as { userId?: unknown };
	// A locator (By ID) since 0.2, a plain value in workflows saved before; added but left empty = not set.
	const userId = locatorValue(options.userId);
	if (userId === undefined || userId === '') return undefined;
	return parseId(context.getNode(), { label: 'Request Options → User ID', path: ['requestOptions', 'userId'] }, userId, itemIndex);
}

/** The node's Requests in Parallel (a node setting: read for the first item). */
export function requestsInParallel(context: IExecuteFunctions): number {
	const options = context.getNodeParameter('requestOptions', 0, {}) as { requestsInParallel?: unknown };
	const value = options.requestsInParallel;
	if (value === undefined || value === null || value === '') return DEFAULT_REQUESTS_IN_PARALLEL;
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isInteger(number) || number < 1 || number > MAX_REQUESTS_IN_PARALLEL) {
		throw invalidParameter(
			context.getNode(),
			REQUESTS_IN_PARALLEL_LABEL,
			`must be a whole number from 1 (one request at a time) to ${MAX_REQUESTS_IN_PARALLEL}; got ${JSON.stringify(value)}`,
		);
	}
	return number;
}
