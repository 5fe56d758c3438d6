/**
 * The JSON:API media type, and how the credential makes any request to the service carry it.
 *
 * The service answers 406 to an Accept header without `application/vnd.api+json` (or a wildcard
 * that admits it) and 415 to a body that is not `application/vnd.api+json`. The package's own
 * nodes always send both; n8n's HTTP Request node sends `application/json` types. So the
 * credential's `authenticate` (which every request made with it passes through) completes what
 * the request says, for requests to `<Base URL>/jsonapi` only:
 *
 * - **Accept**: when no value of the header admits the JSON:API type, `application/vnd.api+json`
 *   is put in front of the values given (which stay, so the header still says what else the
 *   caller reads).
 * - **Content-Type**: a body n8n serialises as JSON (an object or array: the HTTP Request node's
 *   Body Content Type "JSON") goes out as `application/vnd.api+json` when it has no Content-Type
 *   or `application/json`, the type n8n gives JSON and which the service always refuses. Any other
 *   Content-Type, and every body n8n does not serialise itself (Raw, Form, Binary File: text,
 *   buffers and streams), is sent exactly as the user set it: "Raw" is the way to send a request
 *   byte for byte.
 */
import { serviceBaseUrl } from './baseUrl';

export const MEDIA_TYPE = 'application/vnd.api+json';

type Headers = Record<string, unknown>;

/** The request fields the media types depend on, in n8n's two request shapes (`url`, legacy `uri`). */
export interface RequestTarget {
	url?: string;
	uri?: string;
	baseURL?: string;
	body?: unknown;
}

/** The name a header is stored under, whatever its case; undefined when absent. */
export function headerName(headers: Headers, name: string): string | undefined {
	const wanted = name.toLowerCase();
	return Object.keys(headers).find((key) => key.toLowerCase() === wanted);
}

/** Whether an Accept header lets the service answer with the JSON:API type (no header does too). */
export function acceptsJsonApi(accept: string): boolean {
	if (accept.trim() === '') return true;
	return accept.split(',').some((range) => {
		const [media, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
		const quality = parameters.find((parameter) => parameter.startsWith('q='));
		if (quality !== undefined && Number(quality.slice(2)) === 0) return false;
		if (media === '*/*' || media === 'application/*') return true;
		// JSON:API: the type with any parameter other than q is not the type the service serves.
		return media === MEDIA_TYPE && parameters.every((parameter) => parameter.startsWith('q='));
	});
}

/** The absolute address a request goes to, as far as it can be told before it is sent. */
function targetOf(request: RequestTarget): string {
	if (typeof request.uri === 'string') return request.uri;
	const url = typeof request.url === 'string' ? request.url : '';
	if (/^https?:\/\//i.test(url) || typeof request.baseURL !== 'string') return url;
	return `${request.baseURL.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

/** Whether the request goes to the service's JSON:API root (`<Base URL>/jsonapi`, `…/jsonapi/…`, `…/jsonapi?…`). */
export function isServiceRequest(request: RequestTarget, baseUrl: unknown): boolean {
	const base = serviceBaseUrl(baseUrl).toLowerCase();
	if (base === '') return false;
	const target = targetOf(request).toLowerCase();
	const root = `${base}/jsonapi`;
	return target === root || target.startsWith(`${root}/`) || target.startsWith(`${root}?`);
}

/** A body n8n serialises as JSON itself: a plain object or array (not text, a buffer, a stream or a form). */
function isJsonValueBody(body: unknown): boolean {
	if (body === null || typeof body !== 'object') return false;
	if (Array.isArray(body)) return true;
	const prototype = Object.getPrototypeOf(body) as unknown;
	return prototype === Object.prototype || prototype === null;
}

/** `application/json`, with or without parameters such as `; charset=utf-8`. */
function isPlainJsonType(contentType: string): boolean {
	return contentType.split(';')[0].trim().toLowerCase() === 'application/json';
}

/**
 * A copy of the headers with the JSON:API media types completed as described at the top of this
 * file; requests to other addresses get their headers back unchanged.
 */
export function withJsonApiMediaTypes(headers: Headers, request: RequestTarget, baseUrl: unknown): Headers {
	if (!isServiceRequest(request, baseUrl)) return headers;
	const result = { ...headers };
	const acceptKey = headerName(result, 'accept');
	const accept = acceptKey === undefined ? '' : String(result[acceptKey] ?? '');
	if (acceptKey !== undefined && !acceptsJsonApi(accept)) {
		result[acceptKey] = `${MEDIA_TYPE}, ${accept}`;
	} else if (acceptKey === undefined) {
		result.accept = MEDIA_TYPE;
	}
	if (isJsonValueBody(request.body)) {
		const typeKey = headerName(result, 'content-type');
		if (typeKey === undefined) result['content-type'] = MEDIA_TYPE;
		else if (isPlainJsonType(String(result[typeKey] ?? ''))) result[typeKey] = MEDIA_TYPE;
	}
	return result;
}
