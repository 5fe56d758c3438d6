/**
 * JSON:API error objects as JsonApiDotNetCore writes them (status as a string, a guid id).
 */
import { randomUUID } from 'crypto';

export interface ErrorSource {
	pointer?: string;
	parameter?: string;
	header?: string;
}

export interface ErrorObject {
	id: string;
	status: string;
	title: string;
	detail?: string;
	code?: string;
	source?: ErrorSource;
	meta?: Record<string, unknown>;
}

export class ApiError extends Error {
	readonly errors: ErrorObject[];

	constructor(
		readonly status: number,
		errors: Array<Omit<ErrorObject, 'id' | 'status'> & { status?: number }>,
		readonly headers: Record<string, string> = {},
	) {
		super(errors[0]?.title ?? `HTTP ${status}`);
		this.errors = errors.map((e) => ({
			id: randomUUID(),
			status: String(e.status ?? status),
			title: e.title,
			...(e.detail !== undefined ? { detail: e.detail } : {}),
			...(e.code !== undefined ? { code: e.code } : {}),
			...(e.source !== undefined ? { source: e.source } : {}),
			...(e.meta !== undefined ? { meta: e.meta } : {}),
		}));
	}

	document(): { errors: ErrorObject[] } {
		return { errors: this.errors };
	}
}

export function apiError(status: number, title: string, detail?: string, source?: ErrorSource): ApiError {
	return new ApiError(status, [{ title, detail, source }]);
}

/** A query string error: 400 with `source.parameter`. */
export function queryError(parameter: string, title: string, detail: string): ApiError {
	return apiError(400, title, detail, { parameter });
}

/** A parse error whose detail ends with "Failed at position N: <text with ^ marker>". */
export class ParseError extends Error {
	constructor(
		message: string,
		/** 1-based position in the parameter value. */
		readonly position: number,
	) {
		super(message);
	}

	detailFor(text: string): string {
		const at = Math.max(0, Math.min(text.length, this.position - 1));
		return `${this.message} Failed at position ${this.position}: ${text.slice(0, at)}^${text.slice(at)}`;
	}
}

/** A validation error (422 "Input validation failed."). */
export function validationError(pointer: string, detail: string): Omit<ErrorObject, 'id' | 'status'> {
	return { title: 'Input validation failed.', detail, source: { pointer } };
}

export const NOT_FOUND_TITLE = 'The requested resource does not exist.';
export const UNHANDLED_TITLE = 'An unhandled error occurred while processing this request.';

/** Default titles of statuses used by faults and generic errors. */
export const STATUS_TITLES: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: NOT_FOUND_TITLE,
	405: 'Method Not Allowed',
	406: 'Not Acceptable',
	409: 'Conflict',
	415: 'Unsupported Media Type',
	422: 'Unprocessable Entity',
	423: 'Locked',
	429: 'Too Many Requests',
	500: UNHANDLED_TITLE,
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};
