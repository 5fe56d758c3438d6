/**
 * Which adviser a request acts as — its UserId header (seed §5.2: "the assigned adviser contact
 * identifier") — decided in one place, by this precedence:
 *
 * 1. **Allocate To** of the item, on a create that allocates its record (a lead): the adviser the
 *    record goes to, for the item's own requests (its If Already Exists search and its create);
 * 2. else **Request Options → User ID** of the node: the adviser every request of the node acts as;
 * 3. else the credential's **User ID** (the transport's default).
 *
 * Both parameters pick an adviser the same way (From List, By ID, By Name or E-mail), as the UserId
 * takes one: an adviser-details ID, the AdviserContactId. By Name is looked up once per run
 * (lookups.ts), as the node's adviser (2, else 3). A 403 names the parameter the UserId came from.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ParameterName } from '../errors/factory';
import type { Picked } from '../input/values';
import { checkValue, locatorValue } from '../input/values';
import type { AllocationParameter } from '../operation/operation';
import { lookUp } from './lookups';

/** The type an adviser is picked as for the UserId: its adviser-details record. */
const USER_ID_TYPE = 'adviser-details';

const REQUEST_OPTIONS_USER_ID = { label: 'Request Options → User ID', path: ['requestOptions', 'userId'] } as const;

export interface ActingAdviser {
	/** The UserId of the item's requests; undefined: the credential's. */
	userId(): Promise<string | undefined>;
	/** The node's UserId (Request Options → User ID, else the credential's): the look-ups before the item's requests act as it. */
	nodeUserId(): Promise<string | undefined>;
	/** The parameter the item's UserId came from, for a 403; undefined for the credential's. */
	from?: ParameterName & object;
}

/** Nothing chosen: no value, an empty one, or a locator with nothing in it (a new parameter on an old node). */
function isUnset(value: unknown): boolean {
	const inner = locatorValue(value);
	return inner === undefined || inner === null || (typeof inner === 'string' && inner.trim() === '');
}

/** The UserId a pick gives: its ID as chosen, or the ID looked up By Name (acting as `asUserId`). */
async function resolve(context: IExecuteFunctions, picked: Picked, parameter: ParameterName, itemIndex: number, asUserId: string | undefined): Promise<string> {
	if (picked.by === 'id') return picked.id;
	return (await lookUp(context, USER_ID_TYPE, picked, parameter, itemIndex, asUserId)).value;
}

/** Memoised: a by-name pick is looked up when the first request needs it, once. */
function once<T>(work: () => Promise<T>): () => Promise<T> {
	let result: Promise<T> | undefined;
	return () => (result ??= work());
}

/**
 * The item's adviser, read and checked in the item's one pass: Allocate To (when the operation has
 * it), then Request Options → User ID. A wrong value fails here, before any request.
 */
export function readActingAdviser(context: IExecuteFunctions, itemIndex: number, allocation?: AllocationParameter): ActingAdviser {
	const node = context.getNode();
	const timeZone = context.getTimezone();
	const allocateTo = allocation === undefined ? undefined : (context.getNodeParameter(allocation.name, itemIndex, '') as unknown);
	const allocated = allocation === undefined || isUnset(allocateTo) ? undefined : (checkValue(node, allocation.parameter, allocation.check, allocateTo, timeZone, itemIndex) as Picked);
	const options = context.getNodeParameter('requestOptions', itemIndex, {}) as IDataObject;
	// A locator since 0.2, a plain value in workflows saved before; added but left empty = not set.
	const override = isUnset(options.userId) ? undefined : (checkValue(node, REQUEST_OPTIONS_USER_ID, { kind: 'pick' }, options.userId, timeZone, itemIndex) as Picked);
	const nodeUserId = once(async () => (override === undefined ? undefined : await resolve(context, override, REQUEST_OPTIONS_USER_ID, itemIndex, undefined)));
	if (allocated !== undefined && allocation !== undefined) {
		return {
			nodeUserId,
			userId: once(async () => await resolve(context, allocated, allocation.parameter, itemIndex, await nodeUserId())),
			from: allocation.parameter,
		};
	}
	return { nodeUserId, userId: nodeUserId, ...(override === undefined ? {} : { from: REQUEST_OPTIONS_USER_ID }) };
}
