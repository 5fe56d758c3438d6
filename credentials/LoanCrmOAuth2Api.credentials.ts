/*
 * Why a `preAuthentication` credential and not `extends: ['oAuth2Api']`:
 *
 * - n8n does not apply an `authenticate` block to OAuth2 credentials. Here it is applied, so the
 *   Bearer token and the `UserId` header reach every request made with this credential, including
 *   n8n's own HTTP Request node for endpoints this package does not cover.
 * - The service issues clients that authenticate either by HTTP Basic or by form fields and rejects
 *   a request that uses both. Owning the token request guarantees exactly one method, and lets a
 *   failure say which value to fix without echoing the secret.
 * - The "Test" button always fetches a token with the values in the dialog and lists one deal with it
 *   (see TEST_STARTED_HEADER), so a wrong secret, token URL or base URL is reported at once, even
 *   while a token fetched with the old values is still stored.
 * - The token is stored with a fingerprint of the values it was fetched with; after any edit
 *   `authenticate` refuses it and n8n fetches a new one before the next request.
 * - n8n stores the token in the hidden, expirable `accessToken` field and reuses it across items and
 *   executions; after a 401 it calls `preAuthentication` once more and retries the request once.
 * - n8n has no lock around `preAuthentication`: requests that meet a 401 at once would each fetch a
 *   token. accessTokens.ts makes them share one fetch within the process.
 *
 * The cost: n8n renews this kind of token on the first 401 rather than shortly before `expires_in`
 * runs out. The lifetime itself is never hard-coded.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { SERVICE_BASE_URL_EXPRESSION } from './baseUrl';
import { networkErrorCode, networkProblem } from './networkProblem';
import {
	credentialFingerprint,
	heldToken,
	normalisedScope,
	requireTokenFetchedSince,
	sharedAccessToken,
} from './accessTokens';

const TOKEN_TIMEOUT_MS = 10_000;

/**
 * Set on the credential test's request only, to when the test started; `authenticate` removes it
 * and accepts no token fetched before then, so the Test button always asks the Access Token URL
 * with the values in the dialog. (n8n means to run preAuthentication during a test, but its check
 * compares the test node's type 'noOp' with 'n8n-nodes-base.noOp' and never matches.)
 */
const TEST_STARTED_HEADER = 'X-Loan-Crm-Credential-Test-Started';

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
		// editor) and when, so tokens can be shared safely between concurrent renewals.
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
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const fingerprint = credentialFingerprint(credentials);
		const token = await sharedAccessToken(fingerprint, heldToken(credentials), async () => await requestAccessToken(this, credentials));
		return {
			accessToken: token.accessToken,
			accessTokenFingerprint: fingerprint,
			accessTokenFetchedAt: token.fetchedAt,
		};
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const headers = { ...(requestOptions.headers ?? {}) };
		const testStartedAt = Number(headers[TEST_STARTED_HEADER]);
		delete headers[TEST_STARTED_HEADER];
		// A stored token is used only with the values it was fetched with: editing the secret, client
		// ID, token URL, scope (or any other value) makes n8n fetch a new one before the request.
		const fingerprint = credentialFingerprint(credentials);
		const held = heldToken(credentials);
		if (held.fingerprint !== fingerprint) {
			throw needsNewToken('was fetched with other credential values');
		}
		if (Number.isFinite(testStartedAt) && held.fetchedAt < testStartedAt) {
			requireTokenFetchedSince(fingerprint, testStartedAt);
			throw needsNewToken('predates the credential test');
		}
		headers.Authorization = `Bearer ${String(credentials.accessToken ?? '')}`;
		// A node may override the adviser for one request; the credential's value is the default.
		const hasUserId = Object.keys(headers).some((name) => name.toLowerCase() === 'userid');
		if (!hasUserId && credentials.userId !== undefined && credentials.userId !== '') {
			headers.UserId = String(credentials.userId).trim();
		}
		return { ...requestOptions, headers };
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: `={{${SERVICE_BASE_URL_EXPRESSION}}}/jsonapi`,
			url: '/deals',
			qs: { 'page[size]': 1 },
			headers: {
				Accept: 'application/vnd.api+json',
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
 * Thrown by `authenticate` when the stored token must not be used. It looks like the service's 401
 * to n8n, which then runs `preAuthentication` (a new token) and `authenticate` again, before any
 * request is sent.
 */
function needsNewToken(reason: string): Error {
	return Object.assign(new Error(`Loan CRM credential: the stored access token ${reason}; a new one is needed.`), {
		response: { status: 401 },
	});
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
