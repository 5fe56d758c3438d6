/*
 * Why a `preAuthentication` credential and not `extends: ['oAuth2Api']`:
 *
 * - n8n does not apply an `authenticate` block to OAuth2 credentials. Here it is applied, so the
 *   Bearer token, the `UserId` header and the JSON:API media types (mediaTypes.ts) reach every
 *   request made with this credential, including n8n's HTTP Request node ("Custom API Call") for
 *   endpoints this package does not cover.
 * - The service issues clients that authenticate either by HTTP Basic or by form fields and rejects
 *   a request that uses both. Owning the token request guarantees exactly one method, and lets a
 *   failure say which value to fix without echoing the secret.
 * - The "Test" button always fetches a token with the values in the dialog and lists one deal with it
 *   (see TEST_STARTED_HEADER), so a wrong secret, token URL or base URL is reported at once, even
 *   while a token fetched with the old values is still stored.
 *
 * How a token is used and renewed:
 *
 * - n8n stores the token in the hidden, expirable `accessToken` field with its fingerprint (a digest
 *   of the values it was fetched with), when it was fetched and when it expires, and reuses it across
 *   items and executions. `preAuthentication` fetches one when none is stored.
 * - `authenticate` refuses the stored token, before anything is sent, when any value was edited
 *   since it was fetched, when its expiry is less than a minute away (accessTokens.ts renewalDue),
 *   or when the service has rejected it in this process. The refusal looks like a 401 to n8n, which
 *   then asks `preAuthentication` for a new token and signs the request with it.
 * - After a request failed, n8n asks `preAuthentication` again and repeats the request once if it
 *   returns a token. The package's own requests ask only after the service answered 401 (and only
 *   through the refusal above: the transport renews itself). n8n's HTTP Request node asks after
 *   *any* failure, which would send a write that failed with a 500 or a timeout a second time. So a
 *   request that went out is followed up by checking whether the service still accepts the token
 *   (the Test button's request, shared by the requests that failed together): only a rejected
 *   token is renewed and the request repeated; otherwise nothing is returned, n8n repeats nothing
 *   and reports the service's own answer. `authenticate` and the `preAuthentication` after it
 *   receive the same credentials object from n8n, which is how the second knows what the first
 *   signed (`marks`).
 * - n8n has no lock around `preAuthentication`: requests that need a new token at once would each
 *   fetch one. accessTokens.ts makes them share one fetch within the process.
 *
 * `authenticate` is a class field, not a method: n8n copies community credentials with an object
 * spread before it writes the editor's credential types, and a method would be lost there; without
 * `authenticate` in that file the HTTP Request node does not offer the credential.
 */
import type {
	IAuthenticate,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { SERVICE_BASE_URL_EXPRESSION, serviceBaseUrl } from './baseUrl';
import { packageClock } from './clock';
import { MEDIA_TYPE, headerName, withJsonApiMediaTypes } from './mediaTypes';
import { networkErrorCode, networkProblem } from './networkProblem';
import {
	credentialFingerprint,
	heldToken,
	isRejectedToken,
	normalisedScope,
	rememberRejectedToken,
	renewalDue,
	requireTokenFetchedSince,
	sharedAccessToken,
	storedTokenFields,
	tokenStillAccepted,
} from './accessTokens';

const TOKEN_TIMEOUT_MS = 10_000;

/**
 * Set on the credential test's request only, to when the test started; `authenticate` removes it
 * and accepts no token fetched before then, so the Test button always asks the Access Token URL
 * with the values in the dialog. (n8n means to run preAuthentication during a test, but its check
 * compares the test node's type 'noOp' with 'n8n-nodes-base.noOp' and never matches.)
 */
const TEST_STARTED_HEADER = 'X-Loan-Crm-Credential-Test-Started';

/**
 * The request that shows whether the service accepts a token: the cheapest list there is (one
 * deal). The Test button sends it, and a request that failed through the HTTP Request node is
 * followed by it. Any answer but 401, even 403, means the token is accepted.
 */
const CHECK_REQUEST = { path: '/deals', qs: { 'page[size]': 1 } } as const;

/** Methods a repeat cannot apply twice. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What `authenticate` did with a credentials object. n8n hands the same object to the
 * `preAuthentication` it calls after a failure, which reads (and forgets) the mark.
 */
type Mark =
	/**
	 * A request went out signed with `token`. `afterAnyFailure`: it came through n8n's legacy request
	 * helper (the HTTP Request node; its options have `uri`), which asks for a new token after any
	 * failure; the other helper asks only after a 401.
	 */
	| { kind: 'sent'; token: string; method: string; signedAt: number; afterAnyFailure: boolean }
	/** The stored token was refused before anything was sent: a new one is needed. */
	| { kind: 'refused' }
	/** The token request failed; n8n's legacy path asks again at once, which must not fetch again. */
	| { kind: 'fetchFailed'; error: unknown };

const marks = new WeakMap<ICredentialDataDecryptedObject, Mark>();

interface TokenResponse {
	access_token?: unknown;
	token_type?: unknown;
	expires_in?: unknown;
	scope?: unknown;
}

export class LoanCrmOAuth2Api implements ICredentialType {
	name = 'loanCrmOAuth2Api';

	displayName = 'Loan CRM OAuth2 API';

	icon: Icon = { light: 'file:../icons/loanCrm.svg', dark: 'file:../icons/loanCrm.dark.svg' };

	documentationUrl = 'https://github.com/loan-crm/n8n-nodes-loan-crm#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description: 'The service address issued at onboarding, without /jsonapi',
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://auth.example.com/connect/token',
			description: 'The complete token URL issued at onboarding',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'string',
			default: 'api',
			description:
				'Space-separated scopes to request, e.g. "api" for everything or "api.deals.search api.tasks.update"',
		},
		{
			displayName: 'Client Authentication',
			name: 'authentication',
			type: 'options',
			options: [
				{
					name: 'Send as Basic Auth Header',
					value: 'header',
					description: 'Client ID and secret in an HTTP Basic Authorization header',
				},
				{
					name: 'Send in Body',
					value: 'body',
					description: 'Client ID and secret as client_id and client_secret form fields',
				},
			],
			default: 'header',
			description: 'How your client was issued to authenticate at the token URL; exactly one is used',
		},
		{
			displayName: 'User ID',
			name: 'userId',
			type: 'string',
			default: '',
			required: true,
			description:
				'Your adviser contact ID (AdviserContactId), sent as the UserId header on every request. Writes are recorded against it.',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		// Which values the stored token was fetched with (a SHA-256 digest, never shown in the
		// editor), when, and when it expires (ms since the epoch, as text), so tokens can be shared
		// safely between concurrent renewals and renewed before they expire.
		{
			displayName: 'Access Token Fingerprint',
			name: 'accessTokenFingerprint',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
		{
			displayName: 'Access Token Fetched At',
			name: 'accessTokenFetchedAt',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
		{
			displayName: 'Access Token Expires At',
			name: 'accessTokenExpiresAt',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
	];

	httpRequestNode = {
		name: 'Loan CRM',
		docsUrl: 'https://github.com/loan-crm/n8n-nodes-loan-crm#custom-api-call',
		apiBaseUrlPlaceholder: 'https://api.example.com/jsonapi/integrations',
	};

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject): Promise<IDataObject> {
		const mark = marks.get(credentials);
		marks.delete(credentials);
		if (mark?.kind === 'fetchFailed') throw mark.error;
		const held = heldToken(credentials);
		if (mark?.kind === 'sent' && mark.token === held.accessToken && !(await renewAfterFailure(this, credentials, mark))) {
			// Nothing to store: n8n repeats nothing and reports the failure as the service answered it.
			return {};
		}
		const fingerprint = credentialFingerprint(credentials);
		try {
			const token = await sharedAccessToken(fingerprint, held, async () => await requestAccessToken(this, credentials));
			return storedTokenFields(fingerprint, token);
		} catch (error) {
			marks.set(credentials, { kind: 'fetchFailed', error });
			throw error;
		}
	}

	authenticate: IAuthenticate = async (credentials, requestOptions) => {
		const headers: IDataObject = { ...(requestOptions.headers ?? {}) };
		const testStartedAt = Number(headers[TEST_STARTED_HEADER]);
		delete headers[TEST_STARTED_HEADER];
		// A stored token is used only with the values it was fetched with: editing the secret, client
		// ID, token URL, scope (or any other value) makes n8n fetch a new one before the request.
		const fingerprint = credentialFingerprint(credentials);
		const held = heldToken(credentials);
		if (held.fingerprint !== fingerprint) {
			throw refuse(credentials, 'was fetched with other credential values');
		}
		if (Number.isFinite(testStartedAt) && held.fetchedAt < testStartedAt) {
			requireTokenFetchedSince(fingerprint, testStartedAt);
			throw refuse(credentials, 'predates the credential test');
		}
		if (typeof credentials.accessTokenFetchedAt === 'number') {
			// Stored by an earlier version as a number, which n8n 1.x's editor cannot list.
			throw refuse(credentials, 'was stored in an earlier format');
		}
		if (renewalDue(held)) throw refuse(credentials, 'expires within a minute');
		if (isRejectedToken(held.accessToken)) throw refuse(credentials, 'was rejected by the service');
		headers.Authorization = `Bearer ${held.accessToken}`;
		// A node may override the adviser for one request; the credential's value is the default.
		if (headerName(headers, 'userid') === undefined && credentials.userId !== undefined && credentials.userId !== '') {
			headers.UserId = String(credentials.userId).trim();
		}
		const target = requestOptions as IHttpRequestOptions & { uri?: string };
		const method = String(requestOptions.method ?? 'GET').toUpperCase();
		marks.set(credentials, { kind: 'sent', token: held.accessToken, method, signedAt: packageClock().now(), afterAnyFailure: target.uri !== undefined });
		return { ...requestOptions, headers: withJsonApiMediaTypes(headers, target, credentials.baseUrl) as IDataObject };
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: `={{${SERVICE_BASE_URL_EXPRESSION}}}/jsonapi`,
			url: CHECK_REQUEST.path,
			qs: { ...CHECK_REQUEST.qs },
			headers: {
				Accept: MEDIA_TYPE,
				[TEST_STARTED_HEADER]: '={{ $now.toMillis() }}',
			},
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'The token was issued, but the Base URL does not lead to the service (404). Use the base address without /jsonapi.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The token was issued, but listing deals was refused (403): check that the scope includes api or api.deals.search and that the User ID is your adviser contact ID.',
				},
			},
		],
	};
}

/**
 * What `authenticate` throws when the stored token must not be used. It looks like the service's 401
 * to n8n, which then runs `preAuthentication` (a new token) and `authenticate` again, before any
 * request is sent.
 */
function refuse(credentials: ICredentialDataDecryptedObject, reason: string): Error {
	marks.set(credentials, { kind: 'refused' });
	return Object.assign(new Error(`Loan CRM credential: the stored access token ${reason}; a new one is needed.`), {
		response: { status: 401 },
	});
}

/**
 * After a request signed with the held token failed: whether to renew the token (and so have n8n
 * repeat the request). Only when the service rejects the token: then it refused the request before
 * doing anything, and a repeat cannot apply anything twice.
 */
async function renewAfterFailure(
	context: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
	sent: { token: string; method: string; signedAt: number; afterAnyFailure: boolean },
): Promise<boolean> {
	if (!sent.afterAnyFailure) {
		// n8n asks only after the service answered 401.
		rememberRejectedToken(sent.token, heldToken(credentials).expiresAt);
		return true;
	}
	const { expiresAt } = heldToken(credentials);
	if (expiresAt !== undefined && packageClock().now() >= expiresAt) {
		// It expired on the way (a request that took over a minute): the failure may be anything. A
		// read is repeated with a new token; a write is not (the next request renews first).
		return SAFE_METHODS.has(sent.method);
	}
	const accepted = await tokenStillAccepted(sent.token, sent.signedAt, async () => await serviceAcceptsToken(context, credentials, sent.token));
	return !accepted;
}

/** The Test button's request with this token: false only when the service answers 401. */
async function serviceAcceptsToken(context: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject, token: string): Promise<boolean> {
	const response = (await context.helpers.httpRequest({
		method: 'GET',
		url: `${serviceBaseUrl(credentials.baseUrl)}/jsonapi${CHECK_REQUEST.path}`,
		qs: { ...CHECK_REQUEST.qs },
		headers: { Accept: MEDIA_TYPE, Authorization: `Bearer ${token}`, UserId: String(credentials.userId ?? '').trim() },
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		json: false,
		timeout: TOKEN_TIMEOUT_MS,
	})) as { statusCode?: number };
	return response.statusCode !== 401;
}

/** Client-credentials token request; exactly one client authentication method per request. */
async function requestAccessToken(
	context: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<{ accessToken: string; expiresInSeconds?: number }> {
	const tokenUrl = String(credentials.accessTokenUrl ?? '').trim();
	const clientId = String(credentials.clientId ?? '');
	const clientSecret = String(credentials.clientSecret ?? '');
	const form: Record<string, string> = { grant_type: 'client_credentials' };
	const scope = normalisedScope(credentials.scope);
	if (scope !== '') form.scope = scope;

	const request: IHttpRequestOptions = {
		method: 'POST',
		url: tokenUrl,
		headers: {
			'Content-Type': 'application/x-www-form-urlencoded',
			Accept: 'application/json',
		},
		timeout: TOKEN_TIMEOUT_MS,
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	if (credentials.authentication === 'body') {
		form.client_id = clientId;
		form.client_secret = clientSecret;
	} else {
		request.auth = { username: clientId, password: clientSecret };
	}
	request.body = new URLSearchParams(form).toString();

	let response: { statusCode?: number; body?: unknown; headers?: Record<string, unknown> };
	try {
		response = (await context.helpers.httpRequest(request)) as typeof response;
	} catch (error) {
		throw new Error(
			`Loan CRM credential: could not reach the Access Token URL ${safeUrl(tokenUrl)} (${networkProblem(networkErrorCode(error))}). Check the Access Token URL.`,
		);
	}
	const status = response.statusCode ?? 0;
	const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body ?? '');
	let parsed: (TokenResponse & { error?: unknown; error_description?: unknown }) | undefined;
	try {
		parsed = JSON.parse(text) as typeof parsed;
	} catch {
		parsed = undefined;
	}
	if (status < 200 || status >= 300) {
		const challenge = String(response.headers?.['www-authenticate'] ?? '');
		throw new Error(describeTokenFailure(status, parsed, tokenUrl, challenge));
	}
	if (parsed === undefined || typeof parsed !== 'object' || parsed === null) {
		throw new Error(
			`Loan CRM credential: the Access Token URL ${safeUrl(tokenUrl)} answered ${status} without a JSON token response. Check that it is the token endpoint issued at onboarding.`,
		);
	}
	if (typeof parsed.access_token !== 'string' || parsed.access_token === '') {
		throw new Error(
			`Loan CRM credential: the token response from ${safeUrl(tokenUrl)} has no access_token. Check the Access Token URL.`,
		);
	}
	const expiresIn = Number(parsed.expires_in);
	return { accessToken: parsed.access_token, expiresInSeconds: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : undefined };
}

function describeTokenFailure(
	status: number,
	parsed: { error?: unknown; error_description?: unknown } | undefined,
	tokenUrl: string,
	challenge: string,
): string {
	const code = typeof parsed?.error === 'string' ? parsed.error : undefined;
	const where = `the Access Token URL ${safeUrl(tokenUrl)}`;
	// A 401 blames the client only when it looks like a token endpoint's answer.
	if (code === 'invalid_client' || (status === 401 && /^basic/i.test(challenge.trim()))) {
		return `Loan CRM credential: ${where} rejected the client (${status} ${code ?? 'Unauthorized'}). Check the Client ID, the Client Secret and the Client Authentication setting.`;
	}
	if (code === 'invalid_scope') {
		return `Loan CRM credential: ${where} refused the requested scope (${status} invalid_scope). Check the Scope field.`;
	}
	if (code === 'invalid_request') {
		return `Loan CRM credential: ${where} refused the token request (${status} invalid_request). Try the other Client Authentication option.`;
	}
	if (code !== undefined) {
		return `Loan CRM credential: ${where} refused the token request (${status} ${code}).`;
	}
	if (status === 404) {
		return `Loan CRM credential: ${where} was not found (404). Check the Access Token URL.`;
	}
	if (status === 401 || status === 403) {
		return `Loan CRM credential: ${where} answered ${status} without an OAuth error; it does not look like a token endpoint. Check the Access Token URL.`;
	}
	return `Loan CRM credential: ${where} answered ${status}. Check the Access Token URL; if it is right, the token service may be down, so try again later.`;
}

/** The URL without credentials or query, fit for an error message. */
function safeUrl(url: string): string {
	try {
		const parsed = new URL(url);
		return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
	} catch {
		return `"${url.slice(0, 120)}"`;
	}
}
