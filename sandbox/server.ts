/**
 * The HTTP side of the sandbox: token endpoint, authentication, scopes, rate limiting, fault
 * injection, request log, routing and the 20 operations of seed section 4.1.
 */
import { randomBytes } from 'crypto';
import http, { IncomingMessage, ServerResponse } from 'http';
import type { AddressInfo, Socket } from 'net';

import { SandboxState, createSandboxData } from './data';
import { ApiError, NOT_FOUND_TITLE, STATUS_TITLES, apiError, validationError } from './errors';
import { AttrChain, FilterNode, Operand, compareScalars, evaluate, fieldValue, idRange, Scalar } from './filter';
import { ParsedQuery, QueryFamily, SortKey, costHints, parseQuery, queryForLog } from './query';
import type { Store } from './store';
import {
	SERVED_ENDPOINTS,
	EndpointDef,
	MEDIA_TYPE,
	PRE_SUBMISSION_STATUSES,
	TYPES,
	requestCost,
	scopeSatisfied,
} from './schema';
import { DEFAULT_SIZES, FIRST_ID } from './seed';
import { DocumentRenderer, JSONAPI_MEMBER, Json, pageLink } from './serialize';
import { Rec, lowerBound, upperBound } from './store';
import type { Fault, FaultMatch, LatencyConfig, LoggedRequest, RateLimitConfig, Sandbox, SandboxClock, SandboxOptions } from './types';
import { MACHINE_CLOCK, sleepOn } from './clock';
import { readDocument } from './validate';
import { createLead } from './leads';
import { WEBHOOK_ADMIN_PATH, WebhookDeliveries, handleWebhookAdmin } from './webhooks';
import { createStructuredLead } from './structuredLeads';

interface Client {
	secret: string;
	/** Scopes the client may request; undefined = any `api…` scope. */
	scopes?: Set<string>;
	clientAuth: 'any' | 'header' | 'body';
}

interface IssuedToken {
	clientId: string;
	scopes: string[];
	expiresAt: number;
	revoked: boolean;
}

interface QueuedFault {
	match: FaultMatch;
	fault: Fault;
	remaining: number;
}

/** Token bucket; refills continuously with the sandbox's clock. */
class Bucket {
	private tokens: number;
	private last: number;

	constructor(
		readonly config: RateLimitConfig,
		private readonly clock: SandboxClock,
	) {
		this.tokens = config.capacity;
		this.last = clock.now();
	}

	private refill(): void {
		const now = this.clock.now();
		this.tokens = Math.min(this.config.capacity, this.tokens + ((now - this.last) / 1000) * this.config.refillPerSecond);
		this.last = now;
	}

	take(cost: number): { ok: boolean; remaining: number; retryAfter: number } {
		this.refill();
		if (this.tokens >= cost) {
			this.tokens -= cost;
			return { ok: true, remaining: Math.floor(this.tokens), retryAfter: 0 };
		}
		const missing = cost - this.tokens;
		const retryAfter = this.config.refillPerSecond > 0 ? Math.max(1, Math.ceil(missing / this.config.refillPerSecond)) : 3600;
		return { ok: false, remaining: Math.floor(this.tokens), retryAfter };
	}
}

/** Per-request context. */
interface Ctx {
	req: IncomingMessage;
	res: ServerResponse;
	entry: LoggedRequest;
	body: string;
	path: string;
	rawQuery: string;
	origin: string;
	rateHeaders?: Record<string, string>;
	token?: IssuedToken;
}

const JSON_API_HEADERS = { 'content-type': MEDIA_TYPE };
const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** A record's place in a sort's order: its id, its first sort key, and a stand-in record holding only the sorted fields. */
interface OrderEntry {
	id: number;
	key: Scalar;
	view: Rec;
}

interface OrderIndex {
	/** The sorted fields (attribute names, `id`). */
	fields: Set<string>;
	entries: OrderEntry[];
}

/** A record's sort keys: values as the filter compares them, text folded (the collation ignores case). */
function sortKeys(store: Store, type: string, rec: Rec, sort: SortKey[]): Scalar[] {
	return sort.map((key) => {
		if (key.field) {
			const value = fieldValue(store, type, rec, key.field);
			return typeof value === 'string' ? value.toLowerCase() : value;
		}
		if (key.count) {
			const related = store.related(key.count.last.type, rec, key.count.last.rel);
			return Array.isArray(related) ? related.length : 0;
		}
		return null;
	});
}

/** Compares sort keys (null first ascending); 0 when every key ties (the caller breaks ties by id). */
function compareSortKeys(sort: SortKey[], a: Scalar[], b: Scalar[]): number {
	for (let i = 0; i < sort.length; i++) {
		const x = a[i];
		const y = b[i];
		if (x === y) continue;
		const c = x === null ? -1 : y === null ? 1 : (x as string | number | boolean) < (y as string | number | boolean) ? -1 : 1;
		return sort[i].descending ? -c : c;
	}
	return 0;
}

/** Whether a filter reads only the record's own `fields` (no relationship, no count). */
function readsOnly(node: FilterNode, fields: Set<string>): boolean {
	const own = (chain: AttrChain) => chain.hops.length === 0 && fields.has(chain.attr);
	const operand = (value: Operand) => (value.kind === 'field' ? own(value.chain) : value.kind !== 'count');
	switch (node.kind) {
		case 'compare':
			return operand(node.left) && operand(node.right);
		case 'text':
		case 'any':
			return own(node.field);
		case 'has':
			return false;
		case 'not':
			return readsOnly(node.filter, fields);
		case 'and':
		case 'or':
			return node.filters.every((child) => readsOnly(child, fields));
	}
}

function fieldOperand(operand: Operand, attr: string): boolean {
	return operand.kind === 'field' && operand.chain.hops.length === 0 && operand.chain.attr === attr;
}

function literalOf(operand: Operand): Scalar | undefined {
	return operand.kind === 'literal' ? operand.value : undefined;
}

/**
 * For a condition that excludes a leading stretch of the sort's order, a test that is true exactly
 * on that stretch (so the read can start after it by binary search): a lower bound on the first
 * sort key (`greaterOrEqual`/`greaterThan`, ascending) and the keyset on (key, id) in either
 * direction, as a client pages with it. Anything else: undefined (no shortcut; the scan stays exact,
 * every condition is still evaluated on every record it returns).
 */
function excludedPrefix(term: FilterNode, sort: SortKey[]): ((entry: OrderEntry) => boolean) | undefined {
	const first = sort[0]?.field;
	if (first === undefined || first.hops.length > 0 || first.attr === 'id') return undefined;
	const attr = first.attr;
	const descending = sort[0].descending;
	const idSecond = sort.length === 2 && sort[1].field?.attr === 'id' && sort[1].field.hops.length === 0 && sort[1].descending === descending;
	if (!descending && term.kind === 'compare' && (term.op === 'greaterOrEqual' || term.op === 'greaterThan') && fieldOperand(term.left, attr)) {
		const v = literalOf(term.right);
		if (v === undefined || v === null) return undefined;
		return (entry) => entry.key === null || compareScalars(entry.key, v) < (term.op === 'greaterThan' ? 1 : 0);
	}
	if (!idSecond || term.kind !== 'or') return undefined;
	// or(<later>(attr,v), and(equals(attr,v), <later>(id,i))[, equals(attr,null) descending])
	const [later, tie, nulls] = term.filters;
	const laterOp = descending ? 'lessThan' : 'greaterThan';
	if (term.filters.length !== (descending ? 3 : 2)) return undefined;
	if (later?.kind !== 'compare' || later.op !== laterOp || !fieldOperand(later.left, attr)) return undefined;
	if (tie?.kind !== 'and' || tie.filters.length !== 2) return undefined;
	const [same, afterId] = tie.filters;
	if (same.kind !== 'compare' || same.op !== 'equals' || !fieldOperand(same.left, attr)) return undefined;
	if (afterId.kind !== 'compare' || afterId.op !== laterOp || !fieldOperand(afterId.left, 'id')) return undefined;
	if (descending && (nulls?.kind !== 'compare' || nulls.op !== 'equals' || !fieldOperand(nulls.left, attr) || nulls.right.kind !== 'null')) return undefined;
	const v = literalOf(later.right);
	const sameV = literalOf(same.right);
	const id = literalOf(afterId.right);
	if (v === undefined || v === null || sameV === undefined || sameV === null || compareScalars(v, sameV) !== 0 || typeof id !== 'number') return undefined;
	if (!descending) return (entry) => entry.key === null || compareScalars(entry.key, v) < 0 || (compareScalars(entry.key, v) === 0 && entry.id <= id);
	return (entry) => entry.key !== null && (compareScalars(entry.key, v) > 0 || (compareScalars(entry.key, v) === 0 && entry.id >= id));
}

/** The first entry the filter can match, skipping leading stretches its conditions exclude. */
function firstCandidate(filter: FilterNode | undefined, sort: SortKey[], entries: OrderEntry[]): number {
	if (filter === undefined) return 0;
	let start = 0;
	for (const term of filter.kind === 'and' ? filter.filters : [filter]) {
		const excluded = excludedPrefix(term, sort);
		if (excluded === undefined) continue;
		let lo = 0;
		let hi = entries.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			if (excluded(entries[mid])) lo = mid + 1;
			else hi = mid;
		}
		start = Math.max(start, lo);
	}
	return start;
}

/** Splits a filter's top-level `and` into what reads only `fields` and the rest (each undefined when empty). */
function splitByFields(filter: FilterNode | undefined, fields: Set<string>): { onKeys?: FilterNode; rest?: FilterNode } {
	if (filter === undefined) return {};
	const terms = filter.kind === 'and' ? filter.filters : [filter];
	const onKeys = terms.filter((term) => readsOnly(term, fields));
	const rest = terms.filter((term) => !readsOnly(term, fields));
	const join = (list: FilterNode[]): FilterNode | undefined => (list.length === 0 ? undefined : list.length === 1 ? list[0] : { kind: 'and', filters: list });
	return { onKeys: join(onKeys), rest: join(rest) };
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

function headerRecord(req: IncomingMessage): Record<string, string> {
	const out: Record<string, string> = {};
	for (let i = 0; i < req.rawHeaders.length; i += 2) {
		const name = req.rawHeaders[i].toLowerCase();
		const value = req.rawHeaders[i + 1];
		out[name] = name in out ? `${out[name]}, ${value}` : value;
	}
	return out;
}

/** Whether an Accept header allows application/vnd.api+json. */
export function acceptsJsonApi(accept: string | undefined): boolean {
	if (accept === undefined || accept.trim() === '') return true;
	for (const range of accept.split(',')) {
		const [mediaRaw, ...paramsRaw] = range.split(';');
		const media = mediaRaw.trim().toLowerCase();
		const params = paramsRaw.map((p) => p.trim().toLowerCase()).filter((p) => p !== '');
		const q = params.find((p) => p.startsWith('q='));
		if (q !== undefined && Number(q.slice(2)) === 0) continue;
		if (media === '*/*' || media === 'application/*') return true;
		if (media === MEDIA_TYPE && params.every((p) => p.startsWith('q='))) return true;
	}
	return false;
}

function splitPath(path: string): string[] | undefined {
	try {
		const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
		return trimmed
			.split('/')
			.slice(1)
			.map((s) => decodeURIComponent(s));
	} catch {
		return undefined;
	}
}

interface RouteMatch {
	endpoint: EndpointDef;
	idText?: string;
}

function route(method: string, segments: string[]): RouteMatch | { allow: string[] } | undefined {
	// segments exclude the leading 'jsonapi'
	const candidates = SERVED_ENDPOINTS.filter((e) => {
		const parts = e.path.split('/').slice(1);
		if (parts.length !== segments.length) return false;
		return parts.every((p, i) => p === '{id}' || p === segments[i]);
	});
	if (!candidates.length) return undefined;
	const endpoint = candidates.find((e) => e.method === method);
	if (!endpoint) return { allow: [...new Set(candidates.map((e) => e.method))] };
	return { endpoint, idText: segments.length > 1 ? segments[1] : undefined };
}

export class SandboxServer {
	readonly state: SandboxState;
	readonly requests: LoggedRequest[] = [];
	/** Requests received in full and not yet answered (or dropped). */
	private readonly answering = new Set<LoggedRequest>();
	private arrivals = 0;
	readonly clients = new Map<string, Client>();
	readonly tokens = new Map<string, IssuedToken>();
	readonly issued: string[] = [];
	private faults: QueuedFault[] = [];
	private bucket?: Bucket;
	private spent = 0;
	private readonly sockets = new Set<Socket>();
	/** Timers of requests held by wait() on the machine's clock: cancelled by close(). */
	private readonly waits = new Set<NodeJS.Timeout>();
	/** Requests held by wait() right now (played latency, delay faults), per kind. */
	readonly held = { api: 0, token: 0 };
	private server?: http.Server;
	private port = 0;
	linkHost?: string;
	patchStatus: 200 | 204;
	countTotals: boolean;
	latency: false | LatencyConfig = false;
	beforeHandle?: (request: LoggedRequest) => void;
	/** Lifetime of tokens issued from now on (seconds). */
	tokenLifetime: number;

	/** The sandbox's one clock: SandboxOptions.clock. */
	readonly clock: SandboxClock;

	/** The service's webhooks: subscriptions and the notifications sent (webhooks.ts). */
	readonly webhooks: WebhookDeliveries;

	constructor(private readonly options: SandboxOptions) {
		const sizes = { ...DEFAULT_SIZES, ...(options.sizes ?? {}) };
		const clock = options.clock ?? MACHINE_CLOCK;
		this.clock = clock;
		this.state = new SandboxState(options.seed ?? 20261121, sizes, () => new Date(clock.now()), options.dealIds);
		this.tokenLifetime = options.tokenLifetimeSeconds ?? 3600;
		this.countTotals = options.countTotals ?? false;
		this.patchStatus = options.patchStatus ?? 200;
		this.setRateLimit(options.rateLimit ?? false);
		this.setLatency(options.latency ?? false);
		this.webhooks = new WebhookDeliveries(clock, () => `http://127.0.0.1:${this.port}`);
		this.state.onWrite = (type, id) => this.webhooks.changed(type, id);
	}

	// ---------------------------------------------------------------- lifecycle

	async listen(port: number): Promise<number> {
		const server = http.createServer((req, res) => {
			this.handle(req, res).catch((error: unknown) => {
				if (!res.headersSent && !res.destroyed) {
					const err = apiError(500, STATUS_TITLES[500], error instanceof Error ? error.message : String(error));
					res.writeHead(500, JSON_API_HEADERS).end(JSON.stringify(err.document()));
				}
			});
		});
		server.on('connection', (socket: Socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		server.keepAliveTimeout = 5000;
		this.server = server;
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(port, '127.0.0.1', () => resolve());
		});
		this.port = (server.address() as AddressInfo).port;
		return this.port;
	}

	/**
	 * Holds a request for `ms` (played latency, a delay fault) on the sandbox's clock. On the machine's
	 * clock the timers are the server's own: close() cancels them, so a request still held then leaves
	 * nothing behind that keeps the process alive.
	 */
	private async wait(ms: number, kind: 'token' | 'api'): Promise<void> {
		this.held[kind] += 1;
		try {
			await sleepOn(this.clock, ms, this.waits);
		} finally {
			this.held[kind] -= 1;
		}
	}

	async close(): Promise<void> {
		const server = this.server;
		if (!server) return;
		this.server = undefined;
		this.webhooks.close();
		for (const timer of this.waits) clearTimeout(timer);
		this.waits.clear();
		const closed = [...this.sockets].map((socket) => new Promise<void>((resolve) => (socket.destroyed && !socket.readable ? resolve() : socket.once('close', () => resolve()))));
		await new Promise<void>((resolve) => {
			server.close(() => resolve());
			for (const socket of this.sockets) socket.destroy();
			server.closeAllConnections?.();
		});
		// Every connection is gone on this side before close() returns, so a client's sockets see the end now.
		await Promise.all(closed);
	}

	// ---------------------------------------------------------------- controls

	addClient(options: { scopes?: string[]; clientAuth?: 'any' | 'header' | 'body'; clientId?: string; clientSecret?: string } = {}): {
		clientId: string;
		clientSecret: string;
	} {
		const clientId = options.clientId ?? `sandbox-client-${randomBytes(4).toString('hex')}`;
		const clientSecret = options.clientSecret ?? randomBytes(24).toString('hex');
		this.clients.set(clientId, {
			secret: clientSecret,
			scopes: options.scopes ? new Set(options.scopes) : undefined,
			clientAuth: options.clientAuth ?? 'any',
		});
		return { clientId, clientSecret };
	}

	injectFault(match: FaultMatch, fault: Fault, times = 1): void {
		this.faults.push({ match, fault, remaining: times });
	}

	clearFaults(): void {
		this.faults = [];
	}

	setRateLimit(config: false | RateLimitConfig): void {
		this.bucket = config ? new Bucket(config, this.clock) : undefined;
	}

	setLatency(config: false | LatencyConfig): void {
		if (config && (!(config.ms >= 0) || !((config.jitterMs ?? 0) >= 0) || (config.jitterMs ?? 0) > config.ms)) {
			throw new Error(`latency must be ms >= 0 with 0 <= jitterMs <= ms; got ${JSON.stringify(config)}`);
		}
		this.latency = config;
	}

	/** This request's played round trip: ms ± jitterMs, uniform. */
	private latencyMs(): number {
		if (!this.latency) return 0;
		const jitter = this.latency.jitterMs ?? 0;
		return this.latency.ms + (Math.random() * 2 - 1) * jitter;
	}

	rateLimitSpent(): number {
		return this.spent;
	}

	resetRateLimitSpent(): void {
		this.spent = 0;
	}

	expireAllTokens(): void {
		for (const token of this.tokens.values()) token.expiresAt = 0;
	}

	revokeToken(token: string): void {
		const issued = this.tokens.get(token);
		if (issued) issued.revoked = true;
	}

	// ---------------------------------------------------------------- request handling

	private send(ctx: Ctx, status: number, headers: Record<string, string | number>, body?: string): void {
		ctx.entry.status = status;
		// The service's own clock, as HTTP-date (whole seconds), like every origin server with a clock.
		const all: Record<string, string | number> = { date: this.state.now().toUTCString(), ...(ctx.rateHeaders ?? {}), ...headers };
		if (body !== undefined) all['content-length'] = Buffer.byteLength(body);
		else if (status !== 204 && status !== 304) all['content-length'] = 0;
		ctx.res.writeHead(status, all);
		ctx.res.end(body);
	}

	private sendJsonApi(ctx: Ctx, status: number, doc: unknown, headers: Record<string, string> = {}): void {
		const data = (doc as { data?: unknown } | undefined)?.data;
		if (Array.isArray(data)) ctx.entry.dataIds = data.map((resource) => String((resource as { id?: unknown }).id));
		this.send(ctx, status, { ...JSON_API_HEADERS, ...headers }, JSON.stringify(doc));
	}

	private sendError(ctx: Ctx, error: ApiError): void {
		this.sendJsonApi(ctx, error.status, error.document(), error.headers);
	}

	private takeFault(method: string, path: string, kind: 'token' | 'api'): Fault | undefined {
		for (const queued of this.faults) {
			const { match } = queued;
			if (queued.remaining <= 0) continue;
			if (match.method && match.method.toUpperCase() !== method) continue;
			if (match.kind && match.kind !== kind) continue;
			if (match.path !== undefined) {
				if (typeof match.path === 'string' ? match.path !== path : !match.path.test(path)) continue;
			}
			queued.remaining--;
			if (queued.remaining <= 0) this.faults = this.faults.filter((f) => f !== queued);
			return queued.fault;
		}
		return undefined;
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = req.url ?? '/';
		const q = url.indexOf('?');
		const path = q < 0 ? url : url.slice(0, q);
		const rawQuery = q < 0 ? '' : url.slice(q + 1);
		const method = (req.method ?? 'GET').toUpperCase();
		// The service's team's console for webhooks: not the API, not logged with its requests.
		if (path === WEBHOOK_ADMIN_PATH || path.startsWith(`${WEBHOOK_ADMIN_PATH}/`)) {
			handleWebhookAdmin(this.webhooks, method, path, await readBody(req), res);
			return;
		}
		const kind: 'token' | 'api' = path === '/oauth2/token' ? 'token' : 'api';
		const entry: LoggedRequest = {
			method,
			path,
			rawQuery,
			query: queryForLog(rawQuery),
			headers: headerRecord(req),
			body: '',
			status: 0,
			kind,
			receivedAt: 0,
			handledAt: 0,
			seq: 0,
			inFlightAtArrival: [],
			latencyMs: 0,
		};
		this.requests.push(entry);
		// 'close' comes when the answer is complete or the connection is gone, whichever is first.
		let closed = false;
		res.once('close', () => {
			closed = true;
			this.answering.delete(entry);
		});
		const body = await readBody(req);
		entry.body = body;
		entry.receivedAt = this.clock.now();
		entry.seq = ++this.arrivals;
		entry.inFlightAtArrival = [...this.answering].map((other) => other.seq);
		if (!closed) this.answering.add(entry);
		const latency = this.latencyMs();
		entry.latencyMs = latency;
		if (latency > 0) {
			await this.wait(latency, kind);
			if (res.destroyed) return;
		}
		entry.handledAt = this.clock.now();
		this.beforeHandle?.(entry);
		if (body !== '') {
			if (kind === 'api') {
				try {
					entry.json = JSON.parse(body) as unknown;
				} catch {
					/* not JSON */
				}
			} else {
				entry.json = Object.fromEntries(new URLSearchParams(body));
			}
		}
		const host = this.linkHost ?? req.headers.host ?? `127.0.0.1:${this.port}`;
		const origin = host.includes('://') ? host.replace(/\/+$/, '') : `http://${host}`;
		const ctx: Ctx = { req, res, entry, body, path, rawQuery, origin };

		const fault = this.takeFault(method, path, kind);
		if (fault) {
			if ('kind' in fault && fault.kind === 'delay') {
				entry.fault = 'delay';
				await this.wait(fault.ms, kind);
				if (res.destroyed) return;
				if (fault.then !== undefined) {
					this.applyFault(ctx, fault.then, kind);
					return;
				}
			} else {
				this.applyFault(ctx, fault, kind);
				return;
			}
		}
		if (kind === 'token') this.handleToken(ctx);
		else this.handleApi(ctx, method);
	}

	private applyFault(ctx: Ctx, fault: Fault, kind: 'token' | 'api'): void {
		if (!('kind' in fault)) {
			ctx.entry.fault = `status:${fault.status}`;
			const headers = { ...(fault.headers ?? {}) };
			let body: string | undefined;
			if (fault.body !== undefined) {
				body = typeof fault.body === 'string' ? fault.body : JSON.stringify(fault.body);
			} else if (fault.status >= 400) {
				if (kind === 'api') {
					body = JSON.stringify(apiError(fault.status, STATUS_TITLES[fault.status] ?? `HTTP ${fault.status}`).document());
				} else {
					const error = fault.status >= 500 ? (fault.status === 503 ? 'temporarily_unavailable' : 'server_error') : 'invalid_request';
					body = JSON.stringify({ error, error_description: `Injected fault (${fault.status}).` });
				}
			}
			const hasType = Object.keys(headers).some((h) => h.toLowerCase() === 'content-type');
			if (body !== undefined && !hasType) headers['content-type'] = kind === 'api' ? MEDIA_TYPE : 'application/json';
			this.send(ctx, fault.status, headers, body);
			return;
		}
		switch (fault.kind) {
			case 'drop':
				ctx.entry.fault = 'drop';
				ctx.entry.status = 0;
				ctx.req.socket.destroy();
				return;
			case 'malformedJson':
				ctx.entry.fault = 'malformedJson';
				this.send(ctx, 200, JSON_API_HEADERS, '{"jsonapi":{"version":"1.1"},"data":[{"type":"deals","id":"10001","attributes":{"name":"Trunc');
				return;
			case 'html': {
				ctx.entry.fault = 'html';
				const status = fault.status ?? 502;
				const title = STATUS_TITLES[status] ?? `HTTP ${status}`;
				this.send(
					ctx,
					status,
					{ 'content-type': 'text/html; charset=utf-8' },
					`<!DOCTYPE html>\n<html><head><title>${status} ${title}</title></head><body><center><h1>${status} ${title}</h1></center><hr><center>nginx</center></body></html>\n`,
				);
				return;
			}
			case 'custom':
				ctx.entry.fault = 'custom';
				ctx.res.on('finish', () => {
					ctx.entry.status = ctx.res.statusCode;
				});
				fault.handle(ctx.req, ctx.res, ctx.body);
				return;
			default:
				return;
		}
	}

	// ---------------------------------------------------------------- token endpoint

	private oauthError(ctx: Ctx, status: number, error: string, description: string, headers: Record<string, string> = {}): void {
		this.send(
			ctx,
			status,
			{ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', pragma: 'no-cache', ...headers },
			JSON.stringify({ error, error_description: description }),
		);
	}

	private handleToken(ctx: Ctx): void {
		const { req } = ctx;
		if (ctx.entry.method !== 'POST') {
			this.oauthError(ctx, 405, 'invalid_request', 'The token endpoint accepts POST only.', { allow: 'POST' });
			return;
		}
		const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
		if (contentType !== 'application/x-www-form-urlencoded') {
			this.oauthError(ctx, 400, 'invalid_request', 'The request must use Content-Type application/x-www-form-urlencoded.');
			return;
		}
		const form = new URLSearchParams(ctx.body);
		for (const key of new Set(form.keys())) {
			if (form.getAll(key).length > 1) {
				this.oauthError(ctx, 400, 'invalid_request', `Parameter '${key}' is repeated.`);
				return;
			}
		}
		const authorization = req.headers.authorization;
		let basic: { id: string; secret: string; rawId: string; rawSecret: string } | undefined;
		if (authorization !== undefined) {
			const m = /^Basic\s+(\S+)\s*$/i.exec(authorization);
			if (!m) {
				this.oauthError(ctx, 401, 'invalid_client', 'Unsupported Authorization header.', { 'www-authenticate': 'Basic realm="token"' });
				return;
			}
			const decoded = Buffer.from(m[1], 'base64').toString('utf8');
			const colon = decoded.indexOf(':');
			if (colon < 0) {
				this.oauthError(ctx, 401, 'invalid_client', 'Malformed Basic credentials.', { 'www-authenticate': 'Basic realm="token"' });
				return;
			}
			const rawId = decoded.slice(0, colon);
			const rawSecret = decoded.slice(colon + 1);
			const dec = (s: string) => {
				try {
					return decodeURIComponent(s.replace(/\+/g, ' '));
				} catch {
					return s;
				}
			};
			basic = { rawId, rawSecret, id: dec(rawId), secret: dec(rawSecret) };
		}
		const bodyId = form.get('client_id');
		const bodySecret = form.get('client_secret');
		const bodyAuth = bodyId !== null || bodySecret !== null;
		if (basic && bodyAuth) {
			this.oauthError(ctx, 400, 'invalid_request', 'More than one client authentication method was used.');
			return;
		}
		if (!basic && !bodyAuth) {
			this.oauthError(ctx, 401, 'invalid_client', 'Client authentication is required.', { 'www-authenticate': 'Basic realm="token"' });
			return;
		}
		let clientId: string | undefined;
		let client: Client | undefined;
		if (basic) {
			for (const [id, secret] of [
				[basic.rawId, basic.rawSecret],
				[basic.id, basic.secret],
			]) {
				const candidate = this.clients.get(id);
				if (candidate && candidate.secret === secret) {
					clientId = id;
					client = candidate;
					break;
				}
			}
		} else {
			const candidate = bodyId !== null ? this.clients.get(bodyId) : undefined;
			if (candidate && bodySecret !== null && candidate.secret === bodySecret) {
				clientId = bodyId ?? undefined;
				client = candidate;
			}
		}
		const challenge: Record<string, string> = basic ? { 'www-authenticate': 'Basic realm="token"' } : {};
		if (!client || clientId === undefined) {
			this.oauthError(ctx, 401, 'invalid_client', 'Unknown client or wrong client secret.', challenge);
			return;
		}
		if (client.clientAuth === 'header' && !basic) {
			this.oauthError(ctx, 401, 'invalid_client', 'This client must authenticate with HTTP Basic.', { 'www-authenticate': 'Basic realm="token"' });
			return;
		}
		if (client.clientAuth === 'body' && basic) {
			this.oauthError(ctx, 401, 'invalid_client', 'This client must send client_id and client_secret in the form body.', challenge);
			return;
		}
		const grantType = form.get('grant_type');
		if (grantType === null || grantType === '') {
			this.oauthError(ctx, 400, 'invalid_request', 'grant_type is required.');
			return;
		}
		if (grantType !== 'client_credentials') {
			this.oauthError(ctx, 400, 'unsupported_grant_type', `Grant type '${grantType}' is not supported.`);
			return;
		}
		const requested = (form.get('scope') ?? '').split(' ').filter((s) => s !== '');
		const scopes = requested.length ? [...new Set(requested)] : ['api'];
		for (const scope of scopes) {
			const wellFormed = /^api(\.[a-z][a-z0-9-]*){0,2}$/i.test(scope);
			if (!wellFormed || (client.scopes && !client.scopes.has(scope))) {
				this.oauthError(ctx, 400, 'invalid_scope', `Scope '${scope}' is not allowed for this client.`);
				return;
			}
		}
		const accessToken = randomBytes(32).toString('base64url');
		this.tokens.set(accessToken, { clientId, scopes, expiresAt: this.clock.now() + this.tokenLifetime * 1000, revoked: false });
		this.issued.push(accessToken);
		this.send(
			ctx,
			200,
			{ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', pragma: 'no-cache' },
			JSON.stringify({ access_token: accessToken, token_type: 'Bearer', expires_in: this.tokenLifetime, scope: scopes.join(' ') }),
		);
	}

	// ---------------------------------------------------------------- API

	private handleApi(ctx: Ctx, method: string): void {
		try {
			this.api(ctx, method);
		} catch (error) {
			if (error instanceof ApiError) this.sendError(ctx, error);
			else throw error;
		}
	}

	private authenticate(ctx: Ctx): IssuedToken | undefined {
		const header = ctx.req.headers.authorization;
		const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
		if (!m) {
			this.send(ctx, 401, { 'www-authenticate': 'Bearer' });
			return undefined;
		}
		const token = this.tokens.get(m[1]);
		if (!token || token.revoked) {
			this.send(ctx, 401, { 'www-authenticate': 'Bearer error="invalid_token"' });
			return undefined;
		}
		if (token.expiresAt <= this.clock.now()) {
			this.send(ctx, 401, { 'www-authenticate': 'Bearer error="invalid_token", error_description="The token expired"' });
			return undefined;
		}
		return token;
	}

	private api(ctx: Ctx, method: string): void {
		const token = this.authenticate(ctx);
		if (!token) return;
		ctx.token = token;
		const segments = splitPath(ctx.path);
		const matched = segments && segments[0] === 'jsonapi' ? route(method, segments.slice(1)) : undefined;
		const endpoint = matched && 'endpoint' in matched ? matched.endpoint : undefined;

		// cost and rate limit
		const cost = endpoint ? requestCost(endpoint.baseCost, costHints(ctx.rawQuery)) : 1;
		if (this.bucket) {
			const taken = this.bucket.take(cost);
			ctx.rateHeaders = {
				'x-ratelimit-limit': String(this.bucket.config.capacity),
				'x-ratelimit-remaining': String(taken.remaining),
				'x-ratelimit-cost': String(cost),
			};
			if (!taken.ok) {
				ctx.rateHeaders['retry-after'] = String(taken.retryAfter);
				throw apiError(429, 'Too Many Requests', `Rate limit exceeded: this request costs ${cost} and ${taken.remaining} remain. Retry after ${taken.retryAfter} seconds.`);
			}
		}
		this.spent += cost;
		ctx.entry.cost = cost;

		if (!matched) throw apiError(404, 'The requested endpoint does not exist.', `No endpoint matches ${method} ${ctx.path}.`);
		if (!endpoint) {
			const allow = 'allow' in matched ? matched.allow : [];
			throw new ApiError(405, [{ title: 'The request method is not allowed.', detail: `Endpoint '${ctx.path}' accepts ${allow.join(', ')} only.` }], {
				allow: allow.join(', '),
			});
		}
		if (!scopeSatisfied(token.scopes, endpoint)) {
			throw apiError(403, 'Access is denied.', `The access token lacks the scope '${endpoint.scope}' needed for ${method} /jsonapi${endpoint.path}.`);
		}
		if (!acceptsJsonApi(ctx.req.headers.accept)) {
			throw apiError(
				406,
				'The specified Accept header value does not contain any supported media types.',
				`Please include '${MEDIA_TYPE}' in the Accept header values.`,
				{ header: 'Accept' },
			);
		}
		const hasBody = method === 'POST' || method === 'PATCH' || ctx.body !== '';
		if (hasBody) {
			const contentType = ctx.req.headers['content-type'];
			if (contentType === undefined || contentType.trim().toLowerCase() !== MEDIA_TYPE) {
				throw apiError(
					415,
					'The specified Content-Type header value is not supported.',
					`Please specify '${MEDIA_TYPE}' instead of '${contentType ?? ''}' for the Content-Type header value.`,
					{ header: 'Content-Type' },
				);
			}
		}
		let adviserId: number | undefined;
		if (WRITE_METHODS.has(method)) {
			const userId = ctx.req.headers.userid;
			const value = Array.isArray(userId) ? userId[0] : userId;
			if (value === undefined || value.trim() === '') {
				throw apiError(403, 'The UserId header is required.', 'Send the adviser contact id in the UserId header on every write.', { header: 'UserId' });
			}
			adviserId = this.state.adviserFor(value);
			if (adviserId === undefined) {
				throw apiError(403, 'The UserId is not a known adviser.', `UserId '${value}' is not an adviser of this organisation.`, { header: 'UserId' });
			}
		}
		let pathId: number | undefined;
		const idText = 'endpoint' in matched ? matched.idText : undefined;
		if (idText !== undefined) pathId = this.parsePathId(idText);

		switch (endpoint.kind) {
			case 'collection':
				return this.getCollection(ctx, endpoint);
			case 'single':
				return this.getSingle(ctx, endpoint, pathId as number);
			case 'related-single':
				return this.getRelatedSingle(ctx, endpoint, pathId as number);
			case 'related-collection':
				return this.getRelatedCollection(ctx, endpoint, pathId as number);
			case 'create':
				return this.create(ctx, endpoint, adviserId as number);
			case 'update':
				return this.update(ctx, endpoint, pathId as number);
			case 'delete':
				return this.remove(ctx, endpoint, pathId as number);
		}
	}

	/** int32 path ids; a malformed id is 400, a well-formed unknown one 404 (later). */
	private parsePathId(text: string): number {
		if (/^\s*[+-]?\d+\s*$/.test(text)) {
			const n = Number(text.trim());
			if (n >= -2147483648 && n <= 2147483647) return n;
		}
		throw apiError(400, 'Input validation failed.', `The value '${text}' is not valid.`, { parameter: 'id' });
	}

	private notFound(type: string, id: number): ApiError {
		return apiError(404, NOT_FOUND_TITLE, `Resource of type '${type}' with ID '${id}' does not exist.`);
	}

	private query(ctx: Ctx, type: string, families: QueryFamily[], single: boolean): ParsedQuery {
		return parseQuery(ctx.rawQuery, { type, allowed: new Set(families), single });
	}

	private selfLink(ctx: Ctx): string {
		return `${ctx.origin}${ctx.path}${ctx.rawQuery ? `?${ctx.rawQuery}` : ''}`;
	}

	/** Filters, sorts and pages the records of a type. */
	private select(type: string, query: ParsedQuery, idsOverride?: readonly number[]): { recs: Rec[]; total: number | undefined } {
		const store = this.state.store;
		const table = store.table(type);
		const ids = idsOverride ?? table.ids();
		const filter = query.filter;
		const range = filter ? idRange(filter) : { min: -Infinity, max: Infinity };
		const lo = Number.isFinite(range.min) ? lowerBound(ids, range.min) : 0;
		const hi = Number.isFinite(range.max) ? upperBound(ids, range.max) : ids.length;
		const offset = (query.pageNumber - 1) * query.pageSize;
		const size = query.pageSize;
		const wantTotal = this.countTotals;
		const sort = query.sort;
		const byId =
			sort.length === 0 || (sort.length === 1 && sort[0].field?.attr === 'id' && sort[0].field.hops.length === 0);
		const recs: Rec[] = [];
		if (byId) {
			const descending = sort[0]?.descending ?? false;
			if (!filter) {
				const count = Math.max(0, hi - lo);
				for (let k = offset; k < Math.min(count, offset + size); k++) {
					const id = descending ? ids[hi - 1 - k] : ids[lo + k];
					const rec = table.get(id);
					if (rec) recs.push(rec);
				}
				return { recs, total: wantTotal ? count : undefined };
			}
			let matches = 0;
			for (let k = 0; k < hi - lo; k++) {
				const id = descending ? ids[hi - 1 - k] : ids[lo + k];
				const rec = table.get(id);
				if (!rec || !evaluate(filter, store, type, rec)) continue;
				if (matches >= offset && matches < offset + size) recs.push(rec);
				matches++;
				if (!wantTotal && matches >= offset + size) break;
			}
			return { recs, total: wantTotal ? matches : undefined };
		}
		const index = this.orderIndex(type, sort);
		if (index !== undefined) {
			// Conditions on the sort's own fields are judged on the index; only records that pass them
			// are built (a keyset read of a large table then builds about one page of records).
			const { onKeys, rest } = splitByFields(filter, index.fields);
			let matches = 0;
			const entries = index.entries;
			for (let k = firstCandidate(filter, sort, entries); k < entries.length; k++) {
				const entry = entries[k];
				if (onKeys && !evaluate(onKeys, store, type, entry.view)) continue;
				const rec = table.get(entry.id);
				if (!rec || (rest && !evaluate(rest, store, type, rec))) continue;
				if (matches >= offset && matches < offset + size) recs.push(rec);
				matches++;
				if (!wantTotal && matches >= offset + size) break;
			}
			return { recs, total: wantTotal ? matches : undefined };
		}
		const matched: Array<{ rec: Rec; keys: Scalar[] }> = [];
		for (let k = lo; k < hi; k++) {
			const rec = table.get(ids[k]);
			if (!rec || (filter && !evaluate(filter, store, type, rec))) continue;
			matched.push({ rec, keys: sortKeys(store, type, rec, sort) });
		}
		const compare = (a: { rec: Rec; keys: Scalar[] }, b: { rec: Rec; keys: Scalar[] }): number => compareSortKeys(sort, a.keys, b.keys) || a.rec.id - b.rec.id;
		const window = offset + size;
		let ordered: Array<{ rec: Rec; keys: Scalar[] }>;
		if (window < matched.length / 4) {
			// partial selection: keep the best `window` entries in order
			ordered = [];
			for (const m of matched) {
				if (ordered.length === window && compare(m, ordered[window - 1]) >= 0) continue;
				let lo = 0;
				let hi = ordered.length;
				while (lo < hi) {
					const mid = (lo + hi) >>> 1;
					if (compare(ordered[mid], m) <= 0) lo = mid + 1;
					else hi = mid;
				}
				ordered.splice(lo, 0, m);
				if (ordered.length > window) ordered.pop();
			}
		} else {
			ordered = matched.sort(compare);
		}
		for (const m of ordered.slice(offset, window)) recs.push(m.rec);
		return { recs, total: wantTotal ? matched.length : undefined };
	}

	/**
	 * Every record of a type in a sort's order, with the sorted fields' values, kept until the next
	 * write (what a database index on those columns gives the real service). Only for sorts on the
	 * record's own attributes (no relationship hops, no counts).
	 */
	private orderIndex(type: string, sort: SortKey[]): OrderIndex | undefined {
		if (!sort.every((key) => key.field !== undefined && key.field.hops.length === 0)) return undefined;
		const store = this.state.store;
		const fields = sort.map((key) => (key.field as AttrChain).attr);
		return store.memo(`order\u0000${type}\u0000${sort.map((key) => key.text).join(',')}`, () => {
			const table = store.table(type);
			const rows: Array<{ id: number; view: Rec; keys: Scalar[] }> = [];
			for (const id of table.ids()) {
				const rec = table.get(id);
				if (!rec) continue;
				const attributes: Record<string, unknown> = {};
				for (const name of fields) if (name !== 'id') attributes[name] = store.attribute(type, rec, name);
				rows.push({ id, view: { id, attributes, rels: {} }, keys: sortKeys(store, type, rec, sort) });
			}
			rows.sort((a, b) => compareSortKeys(sort, a.keys, b.keys) || a.id - b.id);
			return { fields: new Set([...fields, 'id']), entries: rows.map(({ id, view, keys }) => ({ id, key: keys[0], view })) };
		});
	}

	private collectionDocument(ctx: Ctx, type: string, query: ParsedQuery, recs: Rec[], total: number | undefined): Record<string, Json> {
		const renderer = new DocumentRenderer(this.state.store, ctx.origin, query.include, query.fields);
		renderer.addPrimary(type, recs);
		const links: Record<string, Json> = {
			self: this.selfLink(ctx),
			first: pageLink(ctx.origin, ctx.path, query.pairs, 1, query.pageSize),
		};
		const n = query.pageNumber;
		let hasNext = recs.length === query.pageSize;
		if (total !== undefined) {
			const lastPage = Math.max(1, Math.ceil(total / query.pageSize));
			links.last = pageLink(ctx.origin, ctx.path, query.pairs, lastPage, query.pageSize);
			hasNext = n < lastPage;
		}
		if (n > 1) links.prev = pageLink(ctx.origin, ctx.path, query.pairs, n - 1, query.pageSize);
		if (hasNext) links.next = pageLink(ctx.origin, ctx.path, query.pairs, n + 1, query.pageSize);
		const doc: Record<string, Json> = { jsonapi: JSONAPI_MEMBER, links, data: renderer.primaryData() };
		const included = renderer.included();
		if (included.length) doc.included = included;
		if (total !== undefined) doc.meta = { total };
		return doc;
	}

	private singleDocument(ctx: Ctx, type: string, query: ParsedQuery, rec: Rec | undefined, selfLink?: string): Record<string, Json> {
		const renderer = new DocumentRenderer(this.state.store, ctx.origin, query.include, query.fields);
		if (rec) renderer.addPrimary(type, [rec]);
		const doc: Record<string, Json> = {
			jsonapi: JSONAPI_MEMBER,
			links: { self: selfLink ?? this.selfLink(ctx) },
			data: rec ? renderer.primaryData()[0] : null,
		};
		const included = renderer.included();
		if (included.length) doc.included = included;
		return doc;
	}

	private getCollection(ctx: Ctx, endpoint: EndpointDef): void {
		const query = this.query(ctx, endpoint.type, ['filter', 'sort', 'page', 'include', 'fields'], false);
		const { recs, total } = this.select(endpoint.type, query);
		this.sendJsonApi(ctx, 200, this.collectionDocument(ctx, endpoint.type, query, recs, total));
	}

	private getSingle(ctx: Ctx, endpoint: EndpointDef, id: number): void {
		const query = this.query(ctx, endpoint.type, ['include', 'fields'], true);
		const rec = this.state.store.get(endpoint.type, id);
		if (!rec) throw this.notFound(endpoint.type, id);
		this.sendJsonApi(ctx, 200, this.singleDocument(ctx, endpoint.type, query, rec));
	}

	private parent(endpoint: EndpointDef, id: number): Rec {
		const rec = this.state.store.get(endpoint.type, id);
		if (!rec) throw this.notFound(endpoint.type, id);
		return rec;
	}

	private getRelatedSingle(ctx: Ctx, endpoint: EndpointDef, id: number): void {
		const rel = TYPES[endpoint.type].rels[endpoint.rel as string];
		const query = this.query(ctx, rel.target, ['include', 'fields'], true);
		const parent = this.parent(endpoint, id);
		const targetId = this.state.store.related(endpoint.type, parent, endpoint.rel as string);
		const target = typeof targetId === 'number' ? this.state.store.get(rel.target, targetId) : undefined;
		this.sendJsonApi(ctx, 200, this.singleDocument(ctx, rel.target, query, target));
	}

	private getRelatedCollection(ctx: Ctx, endpoint: EndpointDef, id: number): void {
		const rel = TYPES[endpoint.type].rels[endpoint.rel as string];
		const query = this.query(ctx, rel.target, ['page', 'include', 'fields'], false);
		const parent = this.parent(endpoint, id);
		const related = this.state.store.related(endpoint.type, parent, endpoint.rel as string);
		const ids = Array.isArray(related) ? related : [];
		const { recs, total } = this.select(rel.target, query, ids);
		this.sendJsonApi(ctx, 200, this.collectionDocument(ctx, rel.target, query, recs, total));
	}

	private relatedMustExist(type: string, rels: Record<string, Rec['rels'][string]>): void {
		for (const [name, value] of Object.entries(rels)) {
			const target = TYPES[type].rels[name].target;
			const ids = Array.isArray(value) ? value : value === null ? [] : [value];
			for (const id of ids) {
				if (!this.state.store.get(target, id)) {
					throw apiError(
						404,
						'A related resource does not exist.',
						`Related resource of type '${target}' with ID '${id}' in relationship '${name}' does not exist.`,
						{ pointer: `/data/relationships/${name}` },
					);
				}
			}
		}
	}

	private created(ctx: Ctx, type: string, rec: Rec): void {
		const query = this.query(ctx, type, ['include', 'fields'], true);
		const location = `${ctx.origin}/jsonapi/${type}/${rec.id}`;
		this.sendJsonApi(ctx, 201, this.singleDocument(ctx, type, query, rec, location), { location });
	}

	private create(ctx: Ctx, endpoint: EndpointDef, adviserId: number): void {
		const type = endpoint.type;
		this.query(ctx, type, ['include', 'fields'], true);
		const doc = readDocument(ctx.body, type, 'create');
		const store = this.state.store;
		if (type === 'contacts') {
			if (!Object.keys(doc.attributes).length && !Object.keys(doc.relationships).length) {
				throw new ApiError(422, [validationError('/data', 'A contact needs at least one attribute or relationship.')]);
			}
			this.relatedMustExist(type, doc.relationships);
			const group = doc.relationships.contactGroup;
			const rec = this.state.createContact(doc.attributes, typeof group === 'number' ? group : null, adviserId);
			return this.created(ctx, type, rec);
		}
		if (type === 'deal-external-references') {
			this.relatedMustExist(type, doc.relationships);
			const deal = doc.relationships.deal as number;
			const integration = doc.relationships.integration as number;
			const existing = store.inverse('deal-external-references', 'deal', deal).find((refId) => {
				return store.get(type, refId)?.rels.integration === integration;
			});
			if (existing !== undefined) {
				const name = store.get('integrations', integration)?.attributes.name;
				throw apiError(
					409,
					'A deal external reference for this deal and integration already exists.',
					`Deal '${deal}' already has external reference '${existing}' for integration '${integration}' (${String(name)}). Each deal has at most one external reference per integration.`,
					{ pointer: '/data/relationships/integration' },
				);
			}
			const rec: Rec = {
				id: store.table(type).nextId(),
				attributes: { externalReference: doc.attributes.externalReference },
				rels: { deal, integration },
			};
			store.insert(type, rec);
			return this.created(ctx, type, rec);
		}
		if (type === 'deal-notes') {
			// From the service's public API description (DealNote_Post), not the seed: the note is
			// written by the acting adviser.
			this.relatedMustExist(type, doc.relationships);
			const rec: Rec = {
				id: store.table(type).nextId(),
				attributes: { title: doc.attributes.title ?? null, detail: doc.attributes.detail ?? null, writtenBy: this.state.adviserName(adviserId) },
				rels: { deal: doc.relationships.deal as number },
			};
			store.insert(type, rec);
			return this.created(ctx, type, rec);
		}
		if (type === 'leads') return this.created(ctx, type, createLead(this.state, doc.attributes, adviserId));
		if (type === 'structured-leads') return this.created(ctx, type, createStructuredLead(this.state, doc.attributes, adviserId));
		throw apiError(404, 'The requested endpoint does not exist.');
	}

	private update(ctx: Ctx, endpoint: EndpointDef, id: number): void {
		const type = endpoint.type;
		const query = this.query(ctx, type, ['include', 'fields'], true);
		const doc = readDocument(ctx.body, type, 'update', id);
		const store = this.state.store;
		const rec = store.get(type, id);
		if (!rec) throw this.notFound(type, id);
		this.relatedMustExist(type, doc.relationships);
		const rels = { ...doc.relationships };
		if (type === 'deal-structures') {
			const dealId = store.related(type, rec, 'deal');
			const deal = typeof dealId === 'number' ? store.get('deals', dealId) : undefined;
			const status = deal?.attributes.dealStatus as string | undefined;
			if (deal && status !== undefined && !(PRE_SUBMISSION_STATUSES as readonly string[]).includes(status)) {
				throw apiError(
					422,
					'The deal structure cannot be changed.',
					`Deal structures can only be changed while the deal is pre-submission; deal '${deal.id}' is '${status}'.`,
					{ pointer: '/data' },
				);
			}
		}
		if (type === 'tasks' && 'residentialDeal' in rels) {
			const current = store.related(type, rec, 'residentialDeal');
			const next = rels.residentialDeal;
			if (next !== null && next !== current) {
				if (current !== null) {
					throw new ApiError(422, [validationError('/data/relationships/residentialDeal', 'The deal of a task cannot be changed once set.')]);
				}
				const groups = store.related(type, rec, 'contactGroups');
				if ('contactGroups' in rels || !Array.isArray(groups) || groups.length !== 1) {
					throw new ApiError(422, [
						validationError(
							'/data/relationships/residentialDeal',
							'A task can be linked to a deal only when it has exactly one contact group and contactGroups is not sent; the server clears the contact groups.',
						),
					]);
				}
				rels.contactGroups = [];
			}
		}
		const next = this.state.update(type, id, doc.attributes, rels);
		if (this.patchStatus === 204) {
			this.send(ctx, 204, {});
			return;
		}
		this.sendJsonApi(ctx, 200, this.singleDocument(ctx, type, query, next));
	}

	private remove(ctx: Ctx, endpoint: EndpointDef, id: number): void {
		this.query(ctx, endpoint.type, [], true);
		const store = this.state.store;
		if (!store.get(endpoint.type, id)) throw this.notFound(endpoint.type, id);
		store.remove(endpoint.type, id);
		this.send(ctx, 204, {});
	}
}

/** Starts a sandbox on 127.0.0.1. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const server = new SandboxServer(options);
	const port = await server.listen(options.port ?? 0);
	const baseUrl = `http://127.0.0.1:${port}`;
	const client = server.addClient({ clientAuth: options.clientAuth ?? 'any', clientId: 'sandbox-client' });
	const data = createSandboxData(server.state);
	const sandbox: Sandbox = {
		baseUrl,
		tokenUrl: `${baseUrl}/oauth2/token`,
		clientId: client.clientId,
		clientSecret: client.clientSecret,
		userId: server.state.ids.adviserContactId,
		requests: server.requests,
		apiRequests: () => server.requests.filter((r) => r.kind === 'api'),
		tokenRequests: () => server.requests.filter((r) => r.kind === 'token'),
		clearLog: () => {
			server.requests.length = 0;
		},
		issuedTokens: () => server.issued.slice(),
		injectFault: (match, fault, times) => server.injectFault(match, fault, times),
		clearFaults: () => server.clearFaults(),
		expireAllTokens: () => server.expireAllTokens(),
		get tokenLifetimeSeconds() {
			return server.tokenLifetime;
		},
		set tokenLifetimeSeconds(seconds: number) {
			server.tokenLifetime = seconds;
		},
		revokeToken: (token) => server.revokeToken(token),
		setRateLimit: (config) => server.setRateLimit(config),
		setLatency: (config) => server.setLatency(config),
		heldRequests: (kind) => (kind === undefined ? server.held.api + server.held.token : server.held[kind]),
		get beforeHandle() {
			return server.beforeHandle;
		},
		set beforeHandle(hook: ((request: LoggedRequest) => void) | undefined) {
			server.beforeHandle = hook;
		},
		rateLimitSpent: () => server.rateLimitSpent(),
		resetRateLimitSpent: () => server.resetRateLimitSpent(),
		get linkHost() {
			return server.linkHost;
		},
		set linkHost(value: string | undefined) {
			server.linkHost = value;
		},
		get patchStatus() {
			return server.patchStatus;
		},
		set patchStatus(value: 200 | 204) {
			server.patchStatus = value;
		},
		get countTotals() {
			return server.countTotals;
		},
		set countTotals(value: boolean) {
			server.countTotals = value;
		},
		addClient: (opts) => server.addClient(opts),
		webhooks: server.webhooks,
		data,
		close: () => server.close(),
	};
	return sandbox;
}

export { FIRST_ID };
