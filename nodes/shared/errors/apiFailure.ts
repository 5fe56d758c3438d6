/**
 * What a failed exchange with the service means, in words a no-code user can act on: one entry per
 * HTTP status (and one for no answer at all), each naming what to check. The words only; the error
 * itself is built by the factory (factory.ts), which also removes any secret from them.
 */
import { networkProblem } from '../../../credentials/networkProblem';
import type { ErrorObject } from '../service/jsonapi';
import { readErrors } from '../service/jsonapi';
import { typeLabel } from '../service/schema';

export interface FailedExchange {
	method: string;
	/** Path below /jsonapi, without the query string. */
	path: string;
	status?: number;
	/** Parsed JSON body when the body was JSON. */
	body?: unknown;
	/** Raw body text, for excerpts of non-JSON answers. */
	text?: string;
	/** Network error code such as ECONNRESET when no response arrived. */
	networkCode?: string;
	attempts?: number;
	/** Set when a retry was not attempted because the method is not safe to repeat. */
	notRetried?: boolean;
}

/** How a failure's words name what the service named, in the node's parameters (hints.ts `serviceWords`). */
export interface ServiceWords {
	/** The parameter of an attribute or relationship the service pointed at, quoted; undefined when none. */
	parameterOf(name: string): string | undefined;
	/** The parameter of a whole pointer into a list's entry (a fact find's `/data/attributes/incomes/2/frequency`), quoted; undefined when none. */
	parameterAt?(pointer: string): string | undefined;
	/** The service's text with every API name of the write's parameters replaced by the parameter. */
	inParameters(text: string): string;
}

export interface Words {
	message: string;
	description: string;
}

const WRITE_NOT_REPEATED =
	'The request was sent once and was not repeated automatically, because repeating a change could apply it twice. The change may or may not have happened: check the record in Loan CRM before running the node again.';

/**
 * What the service said, one error object after another: where (the query parameter, or the field
 * pointed at: the node's parameter when `words` knows it) and the title and detail, in the
 * parameters' names where `words` knows them.
 */
function describeErrorObjects(errors: ErrorObject[], words: ServiceWords | undefined): string {
	return errors
		.map((error) => {
			const where = error.source?.parameter
				? `query parameter "${error.source.parameter}"`
				: error.source?.pointer
					? fieldFromPointer(error.source.pointer, words)
					: undefined;
			const said = [error.title, error.detail].filter((part) => part && part !== '').join(' ');
			const text = words === undefined ? said : words.inParameters(said);
			return where ? `${where}: ${text}` : text;
		})
		.filter((line) => line !== '')
		.join('; ');
}

function fieldFromPointer(pointer: string, words: ServiceWords | undefined): string {
	const entry = words?.parameterAt?.(pointer);
	if (entry !== undefined) return entry;
	const member = /^\/data\/(attributes|relationships)\/([^/]+)/.exec(pointer);
	const parameter = member === null ? undefined : words?.parameterOf(member[2]);
	if (parameter !== undefined) return parameter;
	if (member?.[1] === 'attributes') return `field "${member[2]}"`;
	if (member?.[1] === 'relationships') return `relationship "${member[2]}"`;
	return `"${pointer}"`;
}

function excerpt(text: string | undefined): string {
	if (text === undefined || text === '') return '(empty body)';
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

/** `/deals/12/dealNotes` → "deals 12 → dealNotes". */
function resourceFromPath(path: string): string {
	const segments = path.split('/').filter((segment) => segment !== '');
	const pairs: string[] = [];
	for (let index = 0; index < segments.length; index += 2) {
		const name = segments[index];
		const id = segments[index + 1];
		pairs.push(id === undefined ? name : `${name} ${id}`);
	}
	return pairs.join(' → ');
}

/** A record the service did not find: its type (`deal-notes`) and the ID(s) asked for. */
export interface MissingRecord {
	type: string;
	ids: readonly string[];
}

/**
 * The record a 404 for this path is about: the one whose ID is in the path. Every path of the
 * catalogue holds at most one ID, and a related endpoint's 404 (`/deals/12/dealNotes`) means its
 * parent is missing.
 */
function missingFromPath(path: string): MissingRecord | undefined {
	const match = /\/([a-z-]+)\/(\d+)(?:\/|$)/.exec(path);
	return match === null ? undefined : { type: match[1], ids: [match[2]] };
}

/**
 * "Loan CRM has no task with ID 999999": the words for a record that is not there, the same for
 * every resource and whichever way it was found missing (a Get that matched nothing, a 404 for an
 * ID in the path, a 404 for the target of a relationship that was written).
 */
export function notFoundWords(missing: MissingRecord, serviceSaid = ''): Words {
	const label = typeLabel(missing.type);
	const which = missing.ids.length === 1 ? `with ID ${missing.ids[0]}` : `with one of the IDs ${missing.ids.join(', ')}`;
	return {
		message: `Loan CRM has no ${label} ${which}`,
		description:
			`No ${label} with this ID exists, or it is not visible to this client (its organisation, or the User ID's rights). Check the ID.` +
			(serviceSaid === '' ? '' : ` Loan CRM said: ${serviceSaid}`),
	};
}

/** What every entry of the table may use: the exchange and what the service said about it. */
interface Said {
	failure: FailedExchange;
	status: number;
	/** `METHOD /jsonapi/path`. */
	request: string;
	/** `: <what the service said>`, or empty. */
	suffix: string;
	/** The sentence added when a write was not repeated, with a leading space; or empty. */
	writeNote: string;
	/** What the service said, or empty. */
	serviceSaid: string;
	/** For a 404: the record the request referred to that was not found, when the caller knows it. */
	missing?: MissingRecord;
}

/** By HTTP status. Any other status from 500 up is `serverError`; any other below it is `otherStatus`. */
const BY_STATUS: Record<number, (said: Said) => Words> = {
	400: ({ suffix }) => ({
		message: `Loan CRM rejected the request (400)${suffix}`,
		description:
			"A query option is not valid for this resource. Check the Filter (function syntax such as equals(name,'x')), Sort (field names, - for descending) and Include (relationship names) options.",
	}),
	401: () => ({
		message: 'Loan CRM rejected the access token (401), also after one fresh token was requested',
		description:
			"Check the credential's Client ID, Client Secret, Access Token URL and Scope. A persistent 401 is not fixed by requesting new tokens.",
	}),
	403: ({ suffix }) => ({
		message: `Loan CRM refused access (403)${suffix}`,
		description:
			"The token's scopes or the User ID (adviser contact ID) lack the rights for this operation, or the record belongs to another organisation. Add the needed scope (for example api, or api.<resource>.<read|search|create|update>) and check the User ID. New tokens do not fix this.",
	}),
	404: ({ failure, suffix, serviceSaid, missing }) => {
		const record = missing ?? missingFromPath(failure.path);
		if (record !== undefined) return notFoundWords(record, serviceSaid);
		// No ID to name: the endpoint itself was not found.
		return {
			message: `Loan CRM has no ${resourceFromPath(failure.path)} (404)${suffix}`,
			description: "The service has no such endpoint: check the credential's Base URL (without /jsonapi).",
		};
	},
	406: (said) => mediaType(said),
	409: ({ suffix }) => ({
		message: `Loan CRM reported a conflict (409)${suffix}`,
		description:
			'The request conflicts with the current state of the record (for example an external reference for this integration already exists, or the ID does not match).',
	}),
	415: (said) => mediaType(said),
	422: ({ suffix }) => ({
		message: `Loan CRM rejected the data (422)${suffix}`,
		description: 'Check the named parameter (or field): its value has the wrong type, format or length, is not one Loan CRM has, or cannot be written.',
	}),
	423: ({ suffix }) => ({
		message: `This Loan CRM feature is not enabled (423)${suffix}`,
		description:
			'The service marks it as a beta feature that must be enabled for your organisation or user. Ask Loan CRM support to enable it; new tokens do not fix this.',
	}),
};

function mediaType({ status, suffix }: Said): Words {
	return {
		message: `Loan CRM refused the media type (${status})${suffix}`,
		description: 'The node sends application/vnd.api+json; a proxy between n8n and the service may have changed the request.',
	};
}

function serverError({ failure, status, request, suffix, writeNote }: Said): Words {
	return {
		message: `Loan CRM failed to process ${request} (${status})${suffix}`,
		description:
			(failure.method === 'GET' && (failure.attempts ?? 1) > 1 ? `The request was tried ${failure.attempts} times. ` : '') +
			'The service had a problem; try again later.' +
			writeNote,
	};
}

function otherStatus({ status, request, suffix, writeNote }: Said): Words {
	return { message: `Loan CRM answered ${status} for ${request}${suffix}`, description: 'Unexpected answer from the service.' + writeNote };
}

/** No answer at all: the connection failed (after the retries a GET gets). */
function noAnswer(failure: FailedExchange, request: string, writeNote: string): Words {
	return {
		message: `Could not reach Loan CRM (${networkProblem(failure.networkCode)}) for ${request}`,
		description:
			(failure.method === 'GET'
				? `The connection failed ${failure.attempts ?? 1} time(s), including retries. Check the Base URL in the credential and whether the service is up.`
				: 'Check the Base URL in the credential and whether the service is up.') + writeNote,
	};
}

/**
 * Message and description for a failed exchange, before redaction. `missing`: for a 404, the record
 * the caller knows the service did not find (a relationship's target), else the path's record.
 */
export function describeFailure(failure: FailedExchange, missing?: MissingRecord, words?: ServiceWords): Words {
	const details = describeErrorObjects(readErrors(failure.body), words);
	const request = `${failure.method} /jsonapi${failure.path}`;
	const writeNote = failure.notRetried ? ` ${WRITE_NOT_REPEATED}` : '';
	const status = failure.status;
	if (status === undefined) return noAnswer(failure, request, writeNote);
	const notJson = failure.body === undefined && failure.text !== undefined && failure.text !== '';
	const serviceSaid = details !== '' ? details : notJson ? `non-JSON answer: ${excerpt(failure.text)}` : '';
	const said: Said = { failure, status, request, suffix: serviceSaid !== '' ? `: ${serviceSaid}` : '', writeNote, serviceSaid, missing };
	const entry = BY_STATUS[status] ?? (status >= 500 ? serverError : otherStatus);
	return entry(said);
}
