/**
 * The Base URL as every request uses it: the text the user entered, trimmed, without trailing
 * slashes and without a trailing /jsonapi (people paste the API root as often as the host).
 *
 * One rule, used in three places: the nodes' requests, the values a stored token is fingerprinted
 * with (accessTokens.ts), and the credential's Test request, whose base URL n8n evaluates as an
 * expression and so is written from the same patterns (test/credential/base-url.test.ts checks that
 * the Test button and the nodes reach the same address for every spelling).
 */
const TRAILING_SLASHES = /\/+$/;
const JSONAPI_SUFFIX = /\/jsonapi$/i;

export function serviceBaseUrl(entered: unknown): string {
	return String(entered ?? '').trim().replace(TRAILING_SLASHES, '').replace(JSONAPI_SUFFIX, '');
}

/** `serviceBaseUrl($credentials.baseUrl)` as an n8n expression body (without `={{ }}`). */
export const SERVICE_BASE_URL_EXPRESSION = `String($credentials.baseUrl).trim().replace(${String(TRAILING_SLASHES)}, "").replace(${String(JSONAPI_SUFFIX)}, "")`;
