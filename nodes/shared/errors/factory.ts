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
import { describeFailure, notFoundWords } from './apiFailure';
import type { Explain } from './hints';
import { hintFor, joinSentences, missingTarget, serviceWords, toolArgument } from './hints';

/** What an entry of the table makes of its details. */
interface Made {
	message: string;
	description?: string;
	/** NodeApiError only: the error response n8n keeps with it (its `message` also lands in `messages`). */
	response?: JsonObject;
	httpCode?: string;
}

/**
 * A parameter as messages name it: its label in the editor ("Options → Filter"), and where it sits
 * in the node's parameters (`['options', 'filter']`) so that, when an AI agent fills it, the message
 * also names the tool argument the agent knows it by.
 */
export type ParameterName = string | { label: string; path: readonly string[] };

/** `"Options → Filter"`, or `"Options → Filter" (tool argument "Filter")` when an agent fills it. */
function quotedParameter(parameter: ParameterName, node: INode): string {
	if (typeof parameter === 'string') return `"${parameter}"`;
	return `"${parameter.label}"${toolArgument(node, parameter.path)}`;
}

/** Settings problems, input problems and unknown names: a NodeOperationError, nothing was sent. */
const OPERATION_ERRORS = {
	/** A parameter's value cannot be used. */
	invalidParameter: ({ parameter, problem }: { parameter: ParameterName; problem: string }, node: INode): Made => ({
		message: `Parameter ${quotedParameter(parameter, node)} ${problem}`,
	}),
	requiredParameter: ({ parameter }: { parameter: ParameterName }, node: INode): Made => ({ message: `Parameter ${quotedParameter(parameter, node)} is required` }),
	/** `own`: from node version 1.2, the optional fields with a parameter of their own (a contact's Email), named too. */
	nothingToWrite: ({ collection, own = [] }: { collection: 'Additional Fields' | 'Update Fields'; own?: readonly string[] }): Made => ({
		message: own.length === 0 ? `Add at least one field under "${collection}"` : `Fill in ${own.join(', ')} or add a field under "${collection}"`,
		description: 'Nothing would be sent otherwise.',
	}),
	/**
	 * A record picked By Name (an adviser's e-mail, an enquiry source's name) or by a number looked up
	 * first matched nothing in its list: nothing was sent for the item.
	 */
	pickNotFound: ({ parameter, what, by, value }: { parameter: ParameterName; what: string; by: 'id' | 'name' | 'email'; value: string }, node: INode): Made => ({
		message: `Loan CRM has no ${what} ${by === 'id' ? `with ID ${value}` : by === 'email' ? `with the e-mail address ${value}` : `named "${value}"`}. Check parameter ${quotedParameter(parameter, node)}`,
		description: `Nothing was sent for this item. ${by === 'id' ? 'Choose it From List, or check the ID.' : 'Names and e-mail addresses are compared as Loan CRM compares text (upper and lower case alike): check the spelling, or choose it From List.'}`,
	}),
	/** A name given By Name matched several records and none exactly: nothing was sent for the item. */
	pickAmbiguous: ({ parameter, what, value, choices, more }: { parameter: ParameterName; what: string; value: string; choices: readonly string[]; more: boolean }, node: INode): Made => ({
		message: `Loan CRM has more than one ${what} named "${value}". Check parameter ${quotedParameter(parameter, node)}`,
		description: `Nothing was sent for this item. Say which one: ${choices.join('; ')}${more ? '; …' : ''}. Give it as the list shows it (without the #ID), by e-mail for an adviser, or choose it From List or By ID.`,
	}),
	/**
	 * A fact find (Fact Find → Create) that does not hold together: each problem names where it is
	 * (`incomes[2].frequency`, or `Incomes → Salary 2 → Frequency`) and what is wrong; nothing was sent.
	 * `parameter`: the JSON parameter it came from (manual mapping's problems name their list).
	 */
	factFindInvalid: ({ problems, parameter }: { problems: readonly string[]; parameter?: ParameterName }, node: INode): Made => {
		const shown = problems.slice(0, 25);
		const first = problems.length === 1 ? problems[0] : `${problems.length} problems, the first: ${problems[0]}`;
		return {
			message: `Fact find: ${parameter === undefined ? first : joinSentences(first, `Check parameter ${quotedParameter(parameter, node)}`)}`,
			description: `Nothing was sent for this item.${problems.length > 1 ? ` Every problem: ${shown.map((problem, index) => `${index + 1}. ${problem}`).join('; ')}${problems.length > shown.length ? `; and ${problems.length - shown.length} more` : ''}.` : ''}`,
		};
	},
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
/** Seconds in words: "45 seconds", "10 minutes", "9 minutes 58 seconds". */
function duration(seconds: number): string {
	if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
	const minutes = Math.floor(seconds / 60);
	const rest = seconds % 60;
	return `${minutes} minutes${rest > 0 ? ` ${rest} second${rest === 1 ? '' : 's'}` : ''}`;
}

const API_ERRORS = {
	/** An exchange that failed (any status, or no answer), with the hints the request asked for. */
	apiFailure: ({ failure, explain }: { failure: FailedExchange; explain?: Explain }, node: INode): Made => {
		const errors = readErrors(failure.body);
		const words = describeFailure(failure, missingTarget(failure.status, errors, explain), serviceWords(node, explain));
		const hint = hintFor(node, failure.status, errors, explain);
		const response: JsonObject = { message: words.message, status: failure.status ?? null, request: `${failure.method} /jsonapi${failure.path}` };
		if (errors.length > 0) response.errors = errors as unknown as JsonObject[];
		return {
			message: hint === undefined ? words.message : joinSentences(words.message, hint.addition),
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
	/**
	 * The rate-limit budget would make a request wait longer than the node's When Rate Limited
	 * option allows in all: nothing more was sent for it. `reason`: a 429's `retry-after` still
	 * ahead, or the refill the last `x-ratelimit-*` headers imply. `waitedSeconds`: what the request
	 * had already waited, over every 429 it met (`tooManyRequests`).
	 */
	rateLimitWait: (details: {
		waitSeconds: number;
		waitedSeconds: number;
		reason: 'retryAfter' | 'refill';
		remaining?: number;
		limit?: number;
		limitMinutes: number;
		option: string;
		method: string;
		path: string;
		/** 429s this request met before. */
		tooManyRequests: number;
	}): Made => {
		const { waitSeconds, waitedSeconds, reason, remaining, limit, limitMinutes, option, method, path, tooManyRequests } = details;
		const message = 'Loan CRM rate limit: the wait is longer than When Rate Limited allows';
		const asked =
			reason === 'retryAfter'
				? `The service asked to wait ${waitSeconds} seconds (retry-after of a 429). `
				: `The rate-limit budget${remaining !== undefined && limit !== undefined ? ` (${remaining} of ${limit} tokens left, refilled over 5 minutes)` : ''} covers this request in ${waitSeconds} seconds. `;
		const waited =
			waitedSeconds > 0
				? `The request had already waited ${duration(waitedSeconds)} in all${tooManyRequests > 0 ? `, through ${tooManyRequests} 429 answer(s)` : ''}. `
				: tooManyRequests > 1
					? `The service had answered it with 429 ${tooManyRequests} times. `
					: '';
		const allowed = limitMinutes > 0 ? `This node waits at most ${limitMinutes} minute(s)` : 'This node is set not to wait';
		const sent = tooManyRequests > 0 ? ' The service refused it with 429, so it was not processed; it was not sent again.' : ' Nothing more was sent for it.';
		return {
			message,
			description:
				`${asked}${waited}${allowed} ("${option}").${sent} ` +
				'Raise that option (0 fails at once; the default, 10, lets a job of any size finish at the pace of the budget), lower Requests in Parallel or split the job so that other workflows on this credential get their share, or run it outside business hours (08:00–18:00 AEST), when the service allows more.',
			response: { message, status: tooManyRequests > 0 ? 429 : null, request: `${method} /jsonapi${path}`, waitSeconds, waitedSeconds, tooManyRequests },
			// Rate limited either way: callers that end quietly on a 429 (a trigger's baseline) do so here too.
			httpCode: '429',
		};
	},
	repeatedPage: ({ path }: { path: string }): Made => ({
		message: `Loan CRM returned the same page again while paging through /jsonapi${path}`,
		description:
			'The service ignored the paging parameters, so the node stopped instead of looping. Narrow the request with a filter or a limit, or report it to Loan CRM.',
		response: { message: 'repeated page' },
	}),
	keysetValueMissing: ({ path, attribute }: { path: string; attribute: string }): Made => ({
		message: `Loan CRM answered /jsonapi${path} without the ${attribute} of a record, which paging in that order needs`,
		response: { message: 'keyset value missing' },
	}),
	notACollection: ({ path, data }: { path: string; data: unknown }): Made => ({
		message: `Loan CRM answered /jsonapi${path} with ${data === undefined ? 'no data' : 'a single resource'} where a collection was expected`,
		response: { message: 'not a collection' },
	}),
	/**
	 * Get by ID: the collection filtered by the ID had no record. Worded like the service's own 404
	 * for an ID (`apiFailure`): "Loan CRM has no deal with ID 999999".
	 */
	recordNotFound: ({ type, id, path }: { type: string; id: string; path: string }): Made => {
		const words = notFoundWords({ type, ids: [id] });
		return {
			...words,
			response: { message: words.message, status: 404, request: `GET /jsonapi${path}` },
			httpCode: '404',
		};
	},
	/**
	 * Create → If Already Exists → Stop With Error: the search before the create found the record,
	 * so nothing was created. 409 as the service answers a duplicate it refuses itself; `count` is
	 * how many matched (the oldest, `id`, is named), `atLeast` when the page of matches was full.
	 */
	alreadyExists: ({ label, match, id, count, atLeast, path }: { label: string; match: string; id: string; count: number; atLeast: boolean; path: string }): Made => {
		const message = `Loan CRM already has a ${label} with this ${match}: ID ${id}`;
		const several = count > 1 ? `${count}${atLeast ? ' or more' : ''} ${label}s match; the oldest (lowest ID) is named. ` : '';
		return {
			message,
			description: `${several}Nothing was created, because If Already Exists is set to Stop With Error. Set it to Return Existing to continue with the existing ${label} instead.`,
			response: { message, status: 409, request: `GET /jsonapi${path}` },
			httpCode: '409',
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
	const made = (OPERATION_ERRORS[kind] as (details: Parameters<(typeof OPERATION_ERRORS)[K]>[0], node: INode) => Made)(details, node);
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
export function invalidParameter(node: INode, parameter: ParameterName, problem: string, itemIndex?: number): NodeOperationError {
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
