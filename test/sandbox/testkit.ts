/**
 * Small HTTP helpers for the sandbox's own tests (plain `fetch`, no client library).
 */
import type { TestClock } from '../../harness/clock';
import { startSandbox } from '../../sandbox';
import type { Sandbox } from '../../sandbox';

/** Requests sent by these helpers and not yet answered. */
let onTheirWay = 0;

/** Sends a request, counted as on its way until its whole answer is read. */
async function exchange(url: string, init: RequestInit): Promise<Reply> {
	onTheirWay += 1;
	try {
		return await toReply(await fetch(url, init));
	} finally {
		onTheirWay -= 1;
	}
}

/**
 * Lets waits on `clock` pass by themselves for `sb`'s requests (played latency, delay faults): time
 * jumps to the next wake-up once every request these helpers sent has arrived and waits on the
 * clock, so concurrent requests are all held before the first goes (harness/clock.ts autoAdvance).
 */
export function waitsPassByThemselves(clock: TestClock, sb: Sandbox): void {
	clock.autoAdvance(() => onTheirWay > sb.heldRequests());
}

export interface Reply {
	status: number;
	headers: Headers;
	text: string;
	/** Parsed body, or undefined when empty / not JSON. */
	json: any;
}

export async function toReply(res: Response): Promise<Reply> {
	const text = await res.text();
	let json: unknown;
	try {
		json = text ? JSON.parse(text) : undefined;
	} catch {
		json = undefined;
	}
	return { status: res.status, headers: res.headers, text, json };
}

export function basic(id: string, secret: string): string {
	return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

/** Requests a token (HTTP Basic by default). */
export async function requestToken(
	sb: Sandbox,
	options: { scope?: string; mode?: 'header' | 'body'; clientId?: string; clientSecret?: string } = {},
): Promise<Reply> {
	const id = options.clientId ?? sb.clientId;
	const secret = options.clientSecret ?? sb.clientSecret;
	const form = new URLSearchParams({ grant_type: 'client_credentials' });
	if (options.scope !== undefined) form.set('scope', options.scope);
	const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
	if (options.mode === 'body') {
		form.set('client_id', id);
		form.set('client_secret', secret);
	} else {
		headers.authorization = basic(id, secret);
	}
	return await exchange(sb.tokenUrl, { method: 'POST', headers, body: form.toString() });
}

export async function token(sb: Sandbox, scope?: string): Promise<string> {
	const reply = await requestToken(sb, { scope });
	if (reply.status !== 200) throw new Error(`token request failed: ${reply.status} ${reply.text}`);
	return reply.json.access_token as string;
}

export interface CallOptions {
	body?: unknown;
	headers?: Record<string, string>;
	/** Bearer token; null sends no Authorization header. */
	token?: string | null;
	/** UserId header; null sends none. Default: the sandbox's userId. */
	userId?: string | null;
}

/** A minimal API client bound to one sandbox and token. */
export class Api {
	constructor(
		readonly sb: Sandbox,
		public bearer: string,
	) {}

	static async connect(sb: Sandbox, scope?: string): Promise<Api> {
		return new Api(sb, await token(sb, scope));
	}

	async call(method: string, path: string, options: CallOptions = {}): Promise<Reply> {
		const headers: Record<string, string> = { accept: 'application/vnd.api+json' };
		const bearer = options.token === undefined ? this.bearer : options.token;
		if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
		const userId = options.userId === undefined ? this.sb.userId : options.userId;
		if (userId !== null) headers.UserId = userId;
		let body: string | undefined;
		if (options.body !== undefined) {
			body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
			headers['content-type'] = 'application/vnd.api+json';
		}
		Object.assign(headers, options.headers ?? {});
		const url = path.startsWith('http') ? path : `${this.sb.baseUrl}${path}`;
		return await exchange(url, { method, headers, body });
	}

	get(path: string, options?: CallOptions): Promise<Reply> {
		return this.call('GET', path, options);
	}

	patch(path: string, body: unknown, options?: CallOptions): Promise<Reply> {
		return this.call('PATCH', path, { ...options, body });
	}

	post(path: string, body: unknown, options?: CallOptions): Promise<Reply> {
		return this.call('POST', path, { ...options, body });
	}

	delete(path: string, options?: CallOptions): Promise<Reply> {
		return this.call('DELETE', path, options);
	}
}

/** Asserts a JSON:API error document and returns its first error. */
export function firstError(reply: Reply): { status: string; title: string; detail?: string; source?: Record<string, string>; id: string } {
	if (!reply.json || !Array.isArray(reply.json.errors)) throw new Error(`not an error document: ${reply.status} ${reply.text}`);
	return reply.json.errors[0];
}

export const ids = (reply: Reply): string[] => (reply.json.data as Array<{ id: string }>).map((r) => r.id);

/**
 * One small sandbox for a describe block's tests (the public-description endpoints need few
 * records): started before them with a token in `api`, its data reset before each, closed after.
 */
export function withSmallSandbox(started: (world: { sb: Sandbox; api: Api }) => void): void {
	let sb: Sandbox | undefined;
	beforeAll(async () => {
		sb = await startSandbox({ sizes: { deals: 30, contacts: 10, incomes: 10, dealSecurities: 10 } });
		started({ sb, api: await Api.connect(sb) });
	});
	afterAll(() => sb?.close());
	beforeEach(() => sb?.data.reset());
}
