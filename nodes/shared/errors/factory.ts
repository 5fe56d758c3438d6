/**
 * The one place where the package builds the errors n8n shows: every NodeOperationError (the
 * input or the node's settings are wrong, nothing was sent) and every NodeApiError (the service,
 * the network or the token failed) comes from the table below, so a message is written once and
 * an Error Workflow can match on it. Messages do not change with the item that failed (the item
 * travels as `itemIndex`), and no secret of the credential ever reaches one (`redact`).
 *
 * Hints that help the caller correct itself are passed in when the error is built (`Explain`,
 * hints.ts), never added to a message afterwards.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { readErrors } from '../service/jsonapi';
import type { FailedExchange } from './apiFailure';
import { describeFailure } from './apiFailure';
import type { Explain } from './hints';
import { hintFor } from './hints';

/** What an entry of the table makes of its details. */
interface Made {
	message: string;
	description?: string;
	/** NodeApiError only: the error response n8n keeps with it (its `message` also lands in `messages`). */
	response?: JsonObject;
	httpCode?: string;
}

/** Settings problems, input problems and unknown names: a NodeOperationError, nothing was sent. */
const OPERATION_ERRORS = {
	/** A parameter's value cannot be used; `parameter` is its label in the editor ("Options → Filter"). */
	invalidParameter: ({ parameter, problem }: { parameter: string; problem: string }): Made => ({
		message: `Parameter "${parameter}" ${problem}`,
	}),
	requiredParameter: ({ parameter }: { parameter: string }): Made => ({ message: `Parameter "${parameter}" is required` }),
	nothingToWrite: ({ collection }: { collection: 'Additional Fields' | 'Update Fields' }): Made => ({
		message: `Add at least one field under "${collection}"`,
		description: 'Nothing would be sent otherwise.',
	}),
	unknownOperation: ({ resource, operation }: { resource: string; operation: string }): Made => ({
		message: `The operation "${operation}" is not known for resource "${resource}"`,
	}),
	/** n8n's "Custom API Call" entry, which the editor adds to our Resource and Operation lists, was saved and run. */
	customApiCall: (): Made => ({
		message: 'Custom API Call runs in n8n\'s HTTP Request node, not in this node',
		description:
			'Add an HTTP Request node with Authentication "Predefined Credential Type" and Credential Type "Loan CRM OAuth2 API" (the credential adds the token, UserId and media types), or choose Resource "Custom Request" in this node, the safe choice for writes. The README\'s Custom API Call section has both.',
	}),
	baseUrlNotHttp: ({ baseUrl }: { baseUrl: string }): Made => ({
		message: `The credential's Base URL "${baseUrl.slice(0, 100)}" is not an http(s) URL`,
		description: 'Enter the service address issued at onboarding, e.g. https://api.example.com (without /jsonapi).',
	}),
	userIdNotWholeNumber: ({ userId }: { userId: string }): Made => ({
		message: `The credential's User ID "${userId.slice(0, 30)}" is not a whole number`,
		description: 'The User ID is your adviser contact ID (AdviserContactId), a whole number issued with the credentials.',
	}),
};

/** What the service, the network or the token endpoint answered: a NodeApiError. */
const API_ERRORS = {
	/** An exchange that failed (any status, or no answer), with the hints the request asked for. */
	apiFailure: ({ failure, explain }: { failure: FailedExchange; explain?: Explain }, node: INode): Made => {
		const errors = readErrors(failure.body);
		const words = describeFailure(failure);
		const hint = hintFor(node, failure.status, errors, explain);
		const response: JsonObject = { message: words.message, status: failure.status ?? null, request: `${failure.method} /jsonapi${failure.path}` };
		if (errors.length > 0) response.errors = errors as unknown as JsonObject[];
		return {
			message: hint === undefined ? words.message : `${words.message}. ${hint.addition}`,
			description: hint?.description ?? words.description,
			response,
			httpCode: failure.status === undefined ? undefined : String(failure.status),
		};
	},
	/** The credential could not get an access token; `problem` is the credential's own sentence. */
	tokenFailure: ({ problem }: { problem: string }): Made => ({
		message: problem,
		description: 'The Loan CRM credential could not get an access token, so no request was sent to the API.',
		response: { message: problem },
	}),
	repeatedPage: ({ path }: { path: string }): Made => ({
		message: `Loan CRM returned the same page again while paging through /jsonapi${path}`,
		description:
			'The service ignored the paging parameters, so the node stopped instead of looping. Narrow the request with a filter or a limit, or report it to Loan CRM.',
		response: { message: 'repeated page' },
	}),
	notACollection: ({ path, data }: { path: string; data: unknown }): Made => ({
		message: `Loan CRM answered /jsonapi${path} with ${data === undefined ? 'no data' : 'a single resource'} where a collection was expected`,
		response: { message: 'not a collection' },
	}),
	/** Get by ID: the collection filtered by the ID had no record (the service's own 404 is `apiFailure`). */
	recordNotFound: ({ label, id, path }: { label: string; id: string; path: string }): Made => {
		const message = `Loan CRM has no ${label} with ID ${id}`;
		return {
			message,
			description: `No ${label} with this ID exists, or it is not visible to this client (its organisation, or the User ID's rights). Check the ID.`,
			response: { message, status: 404, request: `GET /jsonapi${path}` },
			httpCode: '404',
		};
	},
};

type OperationKind = keyof typeof OPERATION_ERRORS;
type ApiKind = keyof typeof API_ERRORS;

/** Where the error happened and what must not appear in it. */
export interface ErrorPlace {
	itemIndex?: number;
	/** Credential values (client secret, token) removed from every text of the error. */
	secrets?: readonly string[];
}

/** Replaces every occurrence of the given secrets, so they can never reach a message. */
export function redact(text: string, secrets: readonly string[]): string {
	let result = text;
	for (const secret of secrets) {
		if (secret.length >= 4) result = result.split(secret).join('***');
	}
	return result;
}

/** A JSON copy of the error response without the secrets (and without undefined members). */
function redactJson(value: JsonObject, secrets: readonly string[]): JsonObject {
	return JSON.parse(redact(JSON.stringify(value), secrets)) as JsonObject;
}

export function operationError<K extends OperationKind>(
	node: INode,
	kind: K,
	details: Parameters<(typeof OPERATION_ERRORS)[K]>[0],
	place: ErrorPlace = {},
): NodeOperationError {
	const made = (OPERATION_ERRORS[kind] as (details: Parameters<(typeof OPERATION_ERRORS)[K]>[0]) => Made)(details);
	const secrets = place.secrets ?? [];
	return new NodeOperationError(node, redact(made.message, secrets), {
		itemIndex: place.itemIndex,
		...(made.description === undefined ? {} : { description: redact(made.description, secrets) }),
	});
}

export function apiError<K extends ApiKind>(node: INode, kind: K, details: Parameters<(typeof API_ERRORS)[K]>[0], place: ErrorPlace = {}): NodeApiError {
	const made = (API_ERRORS[kind] as (details: Parameters<(typeof API_ERRORS)[K]>[0], node: INode) => Made)(details, node);
	const secrets = place.secrets ?? [];
	return new NodeApiError(node, redactJson(made.response ?? { message: made.message }, secrets), {
		message: redact(made.message, secrets),
		description: made.description === undefined ? undefined : redact(made.description, secrets),
		httpCode: made.httpCode,
		itemIndex: place.itemIndex,
	});
}

/** The most used entry, short: `Parameter "<label>" <problem>`. */
export function invalidParameter(node: INode, parameter: string, problem: string, itemIndex?: number): NodeOperationError {
	return operationError(node, 'invalidParameter', { parameter, problem }, { itemIndex });
}

/**
 * The error that stops a run at the item that failed. An error of ours is handed on as it is (its
 * message does not depend on the item: an Error Workflow can match on it), with the item's index
 * if it has none; anything else (a bug, an error from n8n itself) is wrapped for n8n to show.
 */
export function stoppingError(node: INode, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(node, error instanceof Error ? error : String(error), { itemIndex });
}
