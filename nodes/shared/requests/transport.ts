/**
 * The one function every Loan CRM request goes through (`apiRequest`): URL, media types, UserId,
 * authentication through n8n's credential helpers, retries, and the error for a failure (built by
 * errors/factory.ts with the hints the request asks for).
 *
 * What is repeated, exactly:
 * - 401: once, after one new token, whatever the method (the service refused the request before
 *   doing anything; see `send`). A second 401 fails the run's later requests at once (runContext.ts).
 * - 429: after `retry-after` (2 s without one, at least 1 s), whatever the method, writes included: a
 *   429 means the service did not process the request. The wait holds for every request of the
 *   credential in the process (rateBudget.ts). Repeated for as long as the node's When Rate Limited
 *   option allows in all (every wait of the request counted), never a fixed number of times.
 * Before any of that, each request waits for its turn in the credential's rate-limit budget
 * (rateBudget.ts): when the tokens left would not cover it and the requests in flight, it waits for
 * the refill the headers imply instead of being sent into a 429. A request that would wait longer
 * than the node's When Rate Limited option allows fails at once, saying how long and what to do.
 * - 502, 503, 504 and a dropped or timed-out connection: GET only, up to 4 attempts (0.3, 1, 2.5 s
 *   apart). A write is never repeated after such an uncertain failure: it may have been applied,
 *   and its error says to check the record.
 * - Nothing else (400, 403, 404, 409, 422, 500, a refused connection, …).
 * The numbers are RETRY_POLICY (policy.ts).
 */
import type { ICredentialDataDecryptedObject, ICredentialsDecrypted, IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';

import { heldToken, rememberRejectedToken } from '../../../credentials/accessTokens';
import { MEDIA_TYPE } from '../../../credentials/mediaTypes';
import { networkErrorCode } from '../../../credentials/networkProblem';
import type { FailedExchange } from '../errors/apiFailure';
import { apiError, operationError } from '../errors/factory';
import type { Explain } from '../errors/hints';
import type { Document, QueryParameters } from '../service/jsonapi';
import { buildQueryString } from '../service/jsonapi';
import { RETRY_POLICY } from './policy';
import type { RateBudget, Ticket } from './rateBudget';
import { costClassOf, rateBudgetFor, readRateLimitHeaders } from './rateBudget';
import type { ConnectionSettings, RequestContext, RunContext } from './runContext';
import { CREDENTIAL_TYPE, runContextOf } from './runContext';

const TRANSIENT_STATUSES = new Set([502, 503, 504]);
const RETRYABLE_NETWORK_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'UND_ERR_SOCKET']);

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below /jsonapi, e.g. `/deals` or `/deal-notes/12`. */
	path: string;
	query?: QueryParameters;
	body?: IDataObject;
	itemIndex?: number;
	/** Acts as this adviser instead of the credential's User ID (already checked). */
	userId?: string;
	/** What the error explains if the service rejects the request (the query, the written fields). */
	explain?: Explain;
}

export interface ApiResponse {
	status: number;
	headers: Record<string, string>;
	/** The parsed JSON:API document; undefined for an empty body (204). */
	body: Document | undefined;
}

/**
 * The credential's connection values for this run. A wrong value fails every request, each with
 * its own item index (the same message for every item, so Error Workflows can match it).
 */
async function settingsOf(context: RequestContext, run: RunContext, itemIndex: number | undefined): Promise<ConnectionSettings> {
	const outcome = await run.connectionSettings();
	if ('problem' in outcome) {
		const { problem } = outcome;
		throw problem.kind === 'baseUrlNotHttp'
			? operationError(context.getNode(), problem.kind, { baseUrl: problem.baseUrl }, { itemIndex })
			: operationError(context.getNode(), problem.kind, { userId: problem.userId }, { itemIndex });
	}
	return outcome.settings;
}

function lowerCaseHeaders(headers: unknown): Record<string, string> {
	const result: Record<string, string> = {};
	if (headers === null || typeof headers !== 'object') return result;
	for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
		if (value === undefined || value === null) continue;
		result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
	}
	return result;
}

function bodyText(data: unknown): string | undefined {
	if (data === undefined || data === null) return undefined;
	if (typeof data === 'string') return data;
	if (data instanceof Uint8Array) return new TextDecoder().decode(data);
	return JSON.stringify(data);
}

function parseJson(text: string | undefined): { ok: true; value: unknown } | { ok: false } {
	if (text === undefined || text.trim() === '') return { ok: true, value: undefined };
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch {
		return { ok: false };
	}
}

interface Outcome {
	status?: number;
	headers: Record<string, string>;
	text?: string;
	networkCode?: string;
	/** The credential could not get a token; the message says which value to fix. */
	tokenProblem?: string;
}

/** What a thrown request error tells: the HTTP answer, a network failure, or a token failure. */
function outcomeOfError(error: unknown): Outcome {
	const candidates: unknown[] = [error, (error as { cause?: unknown })?.cause];
	for (const candidate of candidates) {
		const response = (candidate as { response?: { status?: unknown; headers?: unknown; data?: unknown } })
			?.response;
		if (response && typeof response.status === 'number') {
			return { status: response.status, headers: lowerCaseHeaders(response.headers), text: bodyText(response.data) };
		}
	}
	for (const candidate of candidates) {
		const message = (candidate as { message?: unknown })?.message;
		if (typeof message === 'string' && message.startsWith('Loan CRM credential:')) {
			return { headers: {}, tokenProblem: message };
		}
	}
	// n8n before 2.34 keeps only the status code and the parsed body of an HTTP error.
	const httpCode = Number((error as { httpCode?: unknown })?.httpCode);
	if (Number.isInteger(httpCode) && httpCode >= 100) {
		const data = (error as { context?: { data?: unknown } })?.context?.data;
		return { status: httpCode, headers: {}, text: bodyText(data) };
	}
	return { headers: {}, networkCode: networkErrorCode(error) ?? 'UNKNOWN' };
}

/**
 * One exchange. Every status comes back as an answer, so its headers and body are always readable
 * (n8n before 2.34 drops them from the errors it throws), and n8n never asks the credential for a
 * new token on its own.
 *
 * A 401 means the service refused the token before doing anything, so the request is repeated
 * once, whatever its method: the token that was sent is recorded as rejected (the credentials
 * object n8n signed it from holds it), and the repeat goes out with the same object. The credential
 * then refuses that token, n8n asks it for a new one (shared with other requests that need one,
 * credentials/accessTokens.ts), stores it for later requests and executions, and sends the request
 * once with it. Every n8n version thus costs one new token and one repeat, and never the check the
 * credential makes after other failures of n8n's HTTP Request node. The repeat's answer is final,
 * whatever its status.
 */
async function send(context: RequestContext, options: IHttpRequestOptions): Promise<Outcome> {
	const credentials = await signingCredentials(context);
	const attempt = async (): Promise<Outcome & { answered?: boolean }> => {
		try {
			const response = (await context.helpers.httpRequestWithAuthentication.call(
				context,
				CREDENTIAL_TYPE,
				{ ...options, headers: { ...options.headers }, ignoreHttpStatusErrors: true },
				{ credentialsDecrypted: credentials },
			)) as { statusCode: number; headers: unknown; body: unknown };
			return { status: response.statusCode, headers: lowerCaseHeaders(response.headers), text: bodyText(response.body), answered: true };
		} catch (error) {
			return outcomeOfError(error);
		}
	};
	const outcome = await attempt();
	if (outcome.status !== 401 || !outcome.answered) return outcome;
	const sent = heldToken(credentials.data ?? {});
	rememberRejectedToken(sent.accessToken, sent.expiresAt);
	return await attempt();
}

/**
 * The node's credential as n8n decrypts it, handed to n8n with each attempt of an exchange: n8n
 * signs the request from this object and writes a renewed token into it, so after an attempt it
 * holds the token that attempt sent.
 */
async function signingCredentials(context: RequestContext): Promise<ICredentialsDecrypted> {
	const reference = context.getNode().credentials?.[CREDENTIAL_TYPE];
	return {
		id: reference?.id ?? '',
		name: reference?.name ?? '',
		type: CREDENTIAL_TYPE,
		data: (await context.getCredentials(CREDENTIAL_TYPE)) as ICredentialDataDecryptedObject,
	};
}

/**
 * Sends one API request, after the run's first exchange has its answer, holding one of the run's
 * Requests in Parallel slots from its first attempt to its last (runContext.ts), with the repeats
 * described at the top of this file. Whoever sends (the item loop, a parallel read's id ranges, an
 * If Already Exists lookup), the run never has more requests on their way.
 */
export async function apiRequest(this: RequestContext, request: ApiRequest): Promise<ApiResponse> {
	const run = runContextOf(this);
	return await run.afterFirstExchange(async () => await run.inRequestSlot(async () => await exchange(this, run, request)));
}

async function exchange(context: RequestContext, run: RunContext, request: ApiRequest): Promise<ApiResponse> {
	const node = context.getNode();
	const settings = await settingsOf(context, run, request.itemIndex);
	const place = { secrets: settings.secrets, itemIndex: request.itemIndex };
	if (run.rejectedToken) {
		throw apiError(node, 'apiFailure', { failure: { ...run.rejectedToken, path: request.path, method: request.method } }, place);
	}
	if (run.tokenProblem !== undefined) throw apiError(node, 'tokenFailure', { problem: run.tokenProblem }, place);
	const queryString = buildQueryString(request.query ?? {});
	const headers: IDataObject = { Accept: MEDIA_TYPE, UserId: request.userId ?? settings.userId };
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${settings.baseUrl}/jsonapi${request.path}${queryString === '' ? '' : `?${queryString}`}`,
		headers,
		returnFullResponse: true,
		encoding: 'text',
		json: false,
		timeout: RETRY_POLICY.timeoutMs,
	};
	if (request.body !== undefined) {
		headers['Content-Type'] = MEDIA_TYPE;
		options.body = JSON.stringify(request.body);
	}

	const isGet = request.method === 'GET';
	const clock = run.clock;
	const budget = rateBudgetFor(settings.budgetKey, clock);
	const costClass = costClassOf(request.method, request.path, request.query);
	let waitedMs = 0;
	let tooManyRequests = 0;
	let transientAttempts = 0;
	for (;;) {
		const ticket = await turnInBudget(context, run, budget, costClass, request, waitedMs, tooManyRequests, place);
		waitedMs += ticket.waitedMs;
		const outcome = await send(context, options);
		const rateHeaders = readRateLimitHeaders(outcome.headers, clock.now());
		if (outcome.status === 429) {
			rateHeaders.retryAfterSeconds = Math.max(RETRY_POLICY.shortestRetryAfterSeconds, rateHeaders.retryAfterSeconds ?? RETRY_POLICY.defaultRetryAfterSeconds);
		}
		budget.settle(ticket, outcome.status, rateHeaders, costClass);

		const failure: FailedExchange = {
			method: request.method,
			path: request.path,
			status: outcome.status,
			text: outcome.text,
			networkCode: outcome.networkCode,
		};

		if (outcome.tokenProblem !== undefined) {
			run.tokenProblem = outcome.tokenProblem;
			throw apiError(node, 'tokenFailure', { problem: outcome.tokenProblem }, place);
		}

		const status = outcome.status;
		if (status !== undefined && status >= 200 && status < 300) {
			const parsed = parseJson(outcome.text);
			if (!parsed.ok) {
				throw apiError(node, 'apiFailure', { failure: { ...failure, status }, explain: request.explain }, place);
			}
			if (parsed.value !== undefined && (parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value))) {
				throw apiError(node, 'apiFailure', { failure: { ...failure, text: outcome.text, body: undefined }, explain: request.explain }, place);
			}
			return { status, headers: outcome.headers, body: parsed.value as Document | undefined };
		}

		const parsed = parseJson(outcome.text);
		failure.body = parsed.ok ? parsed.value : undefined;

		if (status === 429) {
			// Not processed: repeated after its retry-after. The next turn in the budget waits for it,
			// and refuses at once when that would take the request's waits past When Rate Limited.
			tooManyRequests += 1;
			continue;
		}

		const transient =
			(status !== undefined && TRANSIENT_STATUSES.has(status)) ||
			(status === undefined && outcome.networkCode !== undefined && RETRYABLE_NETWORK_CODES.has(outcome.networkCode));
		if (transient) {
			transientAttempts += 1;
			failure.attempts = transientAttempts;
			if (!isGet) {
				failure.notRetried = true;
			} else if (transientAttempts < RETRY_POLICY.transientAttempts) {
				await clock.sleep(RETRY_POLICY.backoffMs[transientAttempts - 1] ?? 2500);
				continue;
			}
		}

		if (status === undefined && !isGet) failure.notRetried = true;
		if (status === 401) run.rejectedToken = failure;
		throw apiError(node, 'apiFailure', { failure, explain: request.explain }, place);
	}
}

/**
 * Waits for the request's turn in the credential's rate-limit budget, within what is left of the
 * run's When Rate Limited wait (`waitedMs`: what the request has waited so far, over every 429 it
 * met); a longer wait fails the request at once, saying how long it waited and would wait.
 */
async function turnInBudget(
	context: RequestContext,
	run: RunContext,
	budget: RateBudget,
	costClass: string,
	request: ApiRequest,
	waitedMs: number,
	tooManyRequests: number,
	place: { secrets: string[]; itemIndex?: number },
): Promise<Ticket> {
	const limitMs = run.rateLimitWaitMs;
	const admission = await budget.admit(costClass, limitMs <= 0 ? { paced: false } : { paced: true, maxWaitMs: Math.max(0, limitMs - waitedMs) }, run, tooManyRequests > 0);
	if ('ticket' in admission) return admission.ticket;
	throw apiError(
		context.getNode(),
		'rateLimitWait',
		{
			waitSeconds: Math.ceil(admission.refused.waitMs / 1000),
			waitedSeconds: Math.round((waitedMs + admission.refused.waitedMs) / 1000),
			reason: admission.refused.reason,
			remaining: admission.refused.remaining,
			limit: admission.refused.limit,
			limitMinutes: limitMs / 60_000,
			option: run.rateLimitWaitOption,
			method: request.method,
			path: request.path,
			tooManyRequests,
		},
		place,
	);
}
