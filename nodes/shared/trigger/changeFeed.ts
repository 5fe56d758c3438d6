/**
 * Exactly-once change detection for the polling trigger, on the service's clock, a bounded slice
 * per poll.
 *
 * Order. Changes are read in change order: by the record's stamp (`created` or `updated`), ties by
 * id. A *position* is such a pair (the stamp exactly as the service wrote it, the id).
 *
 * Clock. `since` is the service's own clock — the `Date` header of a poll's first answer — never
 * n8n's, so a clock offset between the two cannot lose or repeat a change.
 *
 * Late visibility. A change can become visible at most one safety window W after its stamp. So a
 * record stamped at or before `since − W` was visible when the poll that set `since` began, and
 * any later read that passed its position saw it. What a read passes can therefore be *settled*:
 *
 *   settled(poll) = min(the position the read stopped at, since − W)
 *
 * Every record at or before the settled position that will ever be visible has been read, and no
 * later poll needs to look there again. Each poll reads from the previous poll's settled position:
 * - Quiet or small windows (the read reaches the end): settled = since − W, i.e. each poll re-reads
 *   one safety window, as the trigger always has. Records stamped late land in it.
 * - A backlog larger than one poll's bound (`maxRecords`, a request budget): the read stops at the
 *   drain cursor `drain`, the position of the last record the poll went through. If the cursor is
 *   older than since − W, the next poll continues right after it — no re-read, so a backlog of any
 *   size drains at the bound's pace. If it lies within the window, the next poll starts at
 *   since − W and re-reads up to the cursor (the part a late stamp could still land in) before it
 *   goes on; once the clock has moved a window past the cursor, the re-reading stops by itself.
 * Proof sketch: a record missed by the poll that passed its position was invisible then, so its
 * stamp is after (that poll's since − W); settled never moves past that, so a later poll reads it.
 *
 * Repeats. What a poll re-reads is skipped by a fingerprint of the record's content (`seen`), not
 * by its stamp: the service stamps whole seconds, so two edits of one record within a second carry
 * the same stamp but different content. A record that changes again while a backlog drains moves
 * to a later position (a new stamp), where it is read — and, its content being new, emitted —
 * again; so every visible version is emitted once. Fingerprints are kept only for positions after
 * the settled one: every such record was passed by one bounded read from the settled position, so
 * there are at most about as many as one poll may read (2,100 by default, 10,100 at the ceiling),
 * below `MAX_SEEN`, which `trimSeen` keeps as a guard.
 *
 * Bounds. A poll emits at most `maxRecords` records and sends at most `readBudget(maxRecords)`
 * requests. Its first request asks in id order (one page of records at or after the start); if the
 * window holds no more than a page, that is the whole read and the poll costs what one search costs.
 * Otherwise the read goes on in change order (`sort=updated,id`, keyset on the position, page 1
 * every time), which the service charges double (a sort other than by id): a busy poll costs one
 * id-order request plus two searches' worth per page.
 *
 * State is returned, never written here: the node stores it only after the whole poll succeeded,
 * so a poll that fails or is abandoned part-way keeps the previous state and the next poll reads
 * the same slice again. A poll that reads nothing changes nothing, so quiet periods cost one request
 * and no write.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Document } from '../service/jsonapi';
import { flatten } from '../service/jsonapi';
import type { PaginateOptions, PageVerdict } from '../paging/pagination';
import { MAX_PAGE_SIZE, attributeThenIdAfter, paginate } from '../paging/pagination';
import { combineFilters, quoteLiteral } from '../input/query';
import type { RequestContext } from '../requests/runContext';
import type { ApiResponse } from '../requests/transport';
import { apiRequest } from '../requests/transport';

/** Most fingerprints remembered for one safety window; see `trimSeen` for what happens above it. */
export const MAX_SEEN = 20_000;

/** Records one poll emits by default (Options → Max Records per Poll), and at most. */
export const DEFAULT_MAX_RECORDS_PER_POLL = 1_000;
export const MAX_RECORDS_PER_POLL_CEILING = 5_000;

/**
 * Requests one poll may send to read changes: one page per 100 records it may emit, as many again
 * for re-reading the safety window, and the first (id-order) request. With the default 1,000: 21.
 */
export function readBudget(maxRecords: number): number {
	return 2 * Math.ceil(maxRecords / MAX_PAGE_SIZE) + 1;
}

/** A place in change order: the stamp exactly as the service wrote it, and the record's id. */
export interface Position {
	at: string;
	id: string;
}

/** The part of the state every event keeps. */
export interface FeedCursor {
	/** Fingerprint of the settings this state was made for; other settings start from a fresh baseline. */
	settings?: string;
	/** The service's clock (ISO) when the last poll that read something began. */
	since?: string;
	/** Changes stamped before this instant (ISO) are history: they happened before the baseline. */
	horizon?: string;
	/** Set while a backlog drains: the position of the last record the previous poll went through. */
	drain?: Position;
}

export interface FeedState extends FeedCursor {
	/** Content fingerprints (`<id>.<hash>`) of records emitted after the settled position, with their stamp in ms. */
	seen?: Record<string, number>;
}

export interface FeedQuery {
	path: string;
	/** Resource type, for sparse fieldsets. */
	type: string;
	/** Attribute holding the change time: `created` or `updated`. */
	field: string;
	/** The user's filter, already normalised. */
	filter?: string;
	windowMs: number;
	/** Most records one poll emits (for Deal Status Changed: moves found). */
	maxRecords: number;
}

export function timestampOf(item: IDataObject, field: string): number | undefined {
	const value = item[field];
	if (typeof value !== 'string') return undefined;
	const parsed = Date.parse(value);
	return Number.isNaN(parsed) ? undefined : parsed;
}

/** The service's clock from an answer's `Date` header (whole seconds, rounded down by the service). */
export function serviceClockOf(response: ApiResponse): number | undefined {
	const header = response.headers.date;
	if (header === undefined) return undefined;
	const parsed = Date.parse(header);
	return Number.isNaN(parsed) ? undefined : parsed;
}

/**
 * A short, stable fingerprint of a value's JSON (FNV-1a, 32 bits, base 36), for a record version
 * (`seen`) and for the trigger's settings. It is deliberately not the credential's fingerprint
 * (credentials/accessTokens.ts, SHA-256): that one is derived from secrets and keys shared tokens,
 * so it must be one-way and collision-resistant; this one is stored up to `MAX_SEEN` times in the
 * workflow's static data, so it is short, and a collision costs at most one record version within
 * one safety window. It is also part of the stored state: changing it would make every active
 * trigger start a fresh baseline (losing the changes of that poll) and re-emit the window once.
 */
export function fingerprint(value: unknown): string {
	const text = JSON.stringify(value) ?? '';
	let hash = 0x811c9dc5;
	for (let index = 0; index < text.length; index++) {
		hash ^= text.charCodeAt(index);
		hash = Math.imul(hash, 0x01000193);
	}
	return (hash >>> 0).toString(36);
}

export function iso(ms: number): string {
	return new Date(ms).toISOString();
}

/**
 * Where a read starts: at a stamp (inclusive) when `id` is undefined, else strictly after the
 * position (`at`, `id`).
 */
interface Bound {
	at: string;
	id?: string;
}

function compareBounds(a: Bound, b: Bound): number {
	const byStamp = Date.parse(a.at) - Date.parse(b.at);
	if (byStamp !== 0) return byStamp;
	return (a.id === undefined ? -Infinity : Number(a.id)) - (b.id === undefined ? -Infinity : Number(b.id));
}

/** The settled position of a cursor: the earlier of the drain cursor and since − W, never before the horizon. */
export function readStart(cursor: FeedCursor, windowMs: number): Bound {
	const window: Bound = { at: iso(Date.parse(cursor.since as string) - windowMs) };
	const settled = cursor.drain !== undefined && compareBounds(cursor.drain, window) < 0 ? cursor.drain : window;
	if (cursor.horizon === undefined) return settled;
	const horizon: Bound = { at: cursor.horizon };
	return compareBounds(horizon, settled) > 0 ? horizon : settled;
}

function boundFilter(field: string, bound: Bound): string {
	return bound.id === undefined ? `greaterOrEqual(${field},${quoteLiteral(bound.at)})` : attributeThenIdAfter(field, 'ascending', bound.at, bound.id);
}

/**
 * Every record of a query, flattened, one by one, with the service's clock at the first answer:
 * later pages are read later, so it is the earliest instant of the read.
 */
export async function readRecords(
	context: RequestContext,
	path: string,
	query: PaginateOptions['query'],
	onRecord: (item: IDataObject) => void,
): Promise<{ serviceNowMs: number | undefined; requests: number }> {
	let serviceNowMs: number | undefined;
	let requests = 0;
	await paginate.call(context, {
		path,
		query,
		supportsFilter: true,
		onResponse: (response) => {
			requests += 1;
			if (requests === 1) serviceNowMs = serviceClockOf(response);
		},
		onPage: (document: Document) => {
			for (const item of flatten(document)) onRecord(item);
		},
	});
	return { serviceNowMs, requests };
}

/**
 * What a reader does with one record in change order: 'stop' leaves it (and every later one)
 * unread; 'last' takes it and ends the read after it (the reader's bound is reached).
 */
export type ChangeVisitor = (item: IDataObject, at: number) => 'stop' | 'last' | void;

/** The outcome of one bounded read of changes. */
export interface ChangeRead {
	/** The service's clock in ms at the first answer, or undefined when it sent no usable `Date` header. */
	serviceNowMs: number | undefined;
	requests: number;
	/** Records the visitor went through. */
	records: number;
	/** The position of the last of them. */
	last?: Position;
	/** The stamp (ms) of the newest of them. */
	newestMs?: number;
	/** Every change after the start was gone through (no bound, budget or visitor stopped the read). */
	exhausted: boolean;
}

/**
 * Reads the changes after `start` in change order, handing each record (stamp parsed) to `visit`,
 * within `budget` requests. The first request asks in id order for one page: if that is the whole
 * read (a quiet or small window), it is sorted here and costs one ordinary search; otherwise the read
 * starts again in change order, keyset-paged (`sort=<field>,id`). `inChangeOrder` skips the first
 * request (a backlog is known to be draining).
 */
export async function readChanges(
	context: RequestContext,
	query: Pick<FeedQuery, 'path' | 'field' | 'filter'>,
	start: Bound,
	budget: number,
	inChangeOrder: boolean,
	visit: ChangeVisitor,
): Promise<ChangeRead> {
	const read: ChangeRead = { serviceNowMs: undefined, requests: 0, records: 0, exhausted: false };
	const filter = combineFilters([boundFilter(query.field, start), query.filter]);
	const onResponse = (response: ApiResponse) => {
		read.requests += 1;
		if (read.requests === 1) read.serviceNowMs = serviceClockOf(response);
	};
	let stopped = false;
	const goThrough = (items: IDataObject[]): PageVerdict => {
		for (const item of items) {
			const at = timestampOf(item, query.field);
			if (at === undefined) continue;
			const verdict = visit(item, at);
			if (verdict === 'stop') {
				stopped = true;
				return 'stop';
			}
			read.records += 1;
			read.last = { at: item[query.field] as string, id: String(item.id) };
			read.newestMs = Math.max(read.newestMs ?? -Infinity, at);
			if (verdict === 'last') {
				stopped = true;
				return 'stop';
			}
		}
		return undefined;
	};

	if (!inChangeOrder) {
		let page: IDataObject[] = [];
		const probe = await paginate.call(context, {
			path: query.path,
			query: { filter },
			supportsFilter: true,
			maxRequests: 1,
			onResponse,
			onPage: (document) => {
				page = flatten(document);
			},
		});
		if (probe.exhausted) {
			const ordered = page
				.map((item) => ({ item, at: timestampOf(item, query.field) }))
				.filter((entry): entry is { item: IDataObject; at: number } => entry.at !== undefined)
				.sort((a, b) => a.at - b.at || Number(a.item.id) - Number(b.item.id));
			goThrough(ordered.map((entry) => entry.item));
			read.exhausted = !stopped;
			return read;
		}
	}
	const outcome = await paginate.call(context, {
		path: query.path,
		query: { filter, sort: `${query.field},id` },
		keysetAttribute: query.field,
		supportsFilter: true,
		maxRequests: Math.max(1, budget - read.requests),
		onResponse,
		onPage: (document) => goThrough(flatten(document)),
	});
	read.exhausted = outcome.exhausted && !stopped;
	return read;
}

/**
 * The cursor of a new baseline from one cheap request (the newest matching record's stamp, one
 * record, one field): its `Date` header is the service's clock now. Without a `Date` header the
 * newest stamp stands in for it, and without any record n8n's clock is the last resort.
 */
export async function baselineCursor(context: RequestContext, query: FeedQuery, settings: string, nowMs: number): Promise<FeedCursor> {
	const response = await apiRequest.call(context, {
		method: 'GET',
		path: query.path,
		query: { filter: query.filter, sort: `-${query.field}`, fields: { [query.type]: query.field }, pageSize: 1 },
	});
	const newest = flatten(response.body ?? {})
		.map((item) => timestampOf(item, query.field))
		.find((at): at is number => at !== undefined);
	const start = serviceClockOf(response) ?? newest ?? nowMs;
	return { settings, since: iso(start), horizon: iso(start) };
}

/**
 * The cursor after a read: `since` is the service's clock at this read (never moving backwards),
 * `drain` the position the read stopped at, unless it went through everything.
 */
export function nextCursor(cursor: FeedCursor, read: ChangeRead): FeedCursor {
	const previous = Date.parse(cursor.since as string);
	const since = iso(Math.max(previous, read.serviceNowMs ?? read.newestMs ?? previous));
	const next: FeedCursor = { settings: cursor.settings, since, horizon: cursor.horizon };
	const drain = read.exhausted ? undefined : (read.last ?? cursor.drain);
	if (drain !== undefined) next.drain = drain;
	return next;
}

/**
 * Keeps the fingerprints the next read can meet again (stamped at or after its start). Above
 * `maxSeen`, the newest `maxSeen` are kept and the horizon moves past the ones dropped, so the next
 * read cannot meet — and repeat — a record it no longer remembers; the price is that a change
 * stamped before the new horizon and arriving later than that is not seen. While a backlog drains,
 * the horizon never reaches the drain cursor's stamp (unread records may carry it): if the cut
 * would, nothing is dropped yet — the set shrinks by itself once the clock has moved a safety
 * window past the cursor.
 */
export function trimSeen(seen: Record<string, number>, cursor: FeedCursor, windowMs: number, maxSeen: number): { seen: Record<string, number>; horizon?: string } {
	const start = Date.parse(readStart(cursor, windowMs).at);
	let kept = Object.entries(seen).filter(([, at]) => at >= start);
	let horizon = cursor.horizon;
	if (kept.length > maxSeen) {
		kept.sort((a, b) => b[1] - a[1]);
		const cut = kept[maxSeen][1];
		if (cursor.drain === undefined || cut + 1 <= Date.parse(cursor.drain.at)) {
			horizon = iso(Math.max(cut + 1, horizon === undefined ? -Infinity : Date.parse(horizon)));
			kept = kept.filter(([, at]) => at > cut);
		}
	}
	return { seen: Object.fromEntries(kept), horizon };
}

/**
 * State kept by version 0.1.0 (no settings fingerprint): `since` was the newest stamp it had seen,
 * on the service's clock, and everything up to it was emitted. Carrying on from just after it
 * keeps an active trigger from losing the changes of the upgrade's poll interval.
 */
function adoptLegacyState(state: FeedState, settings: string): FeedCursor | undefined {
	if (state.settings !== undefined || state.horizon !== undefined || typeof state.since !== 'string') return undefined;
	const since = Date.parse(state.since);
	if (Number.isNaN(since)) return undefined;
	return { settings, since: state.since, horizon: iso(since + 1) };
}

/**
 * Created / Updated events: each new record version once, oldest change first, at most
 * `maxRecords` a poll. A fresh baseline (first poll, or settings changed) emits nothing.
 */
export async function pollRecordChanges(
	context: RequestContext,
	query: FeedQuery,
	settings: string,
	state: FeedState,
	nowMs: number,
	maxSeen = MAX_SEEN,
): Promise<{ emit: IDataObject[]; state: FeedState | undefined }> {
	const legacy = adoptLegacyState(state, settings);
	if (legacy !== undefined) state = { ...legacy, seen: {} };
	if (state.settings !== settings || state.since === undefined) {
		return { emit: [], state: { ...(await baselineCursor(context, query, settings, nowMs)), seen: {} } };
	}
	const seen: Record<string, number> = { ...(state.seen ?? {}) };
	const emit: IDataObject[] = [];
	const read = await readChanges(context, query, readStart(state, query.windowMs), readBudget(query.maxRecords), state.drain !== undefined, (item, at) => {
		const key = `${String(item.id)}.${fingerprint(item)}`;
		if (seen[key] !== undefined) return undefined;
		seen[key] = at;
		emit.push(item);
		return emit.length >= query.maxRecords ? 'last' : undefined;
	});
	// Nothing read: nothing to remember, so nothing is written (an adopted 0.1.0 state is, once).
	if (read.records === 0 && read.exhausted && state.drain === undefined) return { emit: [], state: legacy === undefined ? undefined : state };

	const cursor = nextCursor({ ...state, settings }, read);
	const trimmed = trimSeen(seen, cursor, query.windowMs, maxSeen);
	return { emit, state: { ...cursor, horizon: trimmed.horizon, seen: trimmed.seen } };
}

/** The most recent record, for the editor's "Fetch Test Event". */
export async function latestRecord(context: RequestContext, query: Pick<FeedQuery, 'path' | 'field' | 'filter'>, extraFilter?: string): Promise<IDataObject[]> {
	const response = await apiRequest.call(context, {
		method: 'GET',
		path: query.path,
		query: { filter: combineFilters([extraFilter, query.filter]), sort: `-${query.field}`, pageSize: 1 },
	});
	return flatten(response.body ?? {}).slice(0, 1);
}
