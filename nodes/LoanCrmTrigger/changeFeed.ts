/**
 * Exactly-once change detection for the polling trigger, on the service's clock.
 *
 * Every poll reads the records stamped at or after `since − safety window` (one filtered search,
 * 100 records a request). `since` is the service's own clock — the `Date` header of the previous
 * poll's first answer — never n8n's, so a clock offset between the two cannot lose or repeat a
 * change. A change can become visible at most one safety window after its stamp, so every change
 * that appears after a poll carries a stamp inside the next poll's window.
 *
 * What each poll re-reads of the window it already saw is skipped by a fingerprint of the record's
 * content (`seen`), not by its stamp: the service stamps whole seconds, so two edits of one record
 * within a second carry the same stamp but different content.
 *
 * State is returned, never written here: the node stores it only after the whole poll succeeded,
 * so a poll that fails part-way keeps the previous state and the next poll reads the same window
 * again. A poll that reads nothing changes nothing, so quiet periods cost one request and no write.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Document } from '../shared/service/jsonapi';
import { flatten } from '../shared/service/jsonapi';
import type { PaginateOptions } from '../shared/paging/pagination';
import { paginate } from '../shared/paging/pagination';
import { combineFilters, quoteLiteral } from '../shared/input/query';
import type { RequestContext } from '../shared/requests/runContext';
import type { ApiResponse } from '../shared/requests/transport';
import { apiRequest } from '../shared/requests/transport';

/** Most fingerprints remembered for one safety window; see `trimSeen` for what happens above it. */
export const MAX_SEEN = 20_000;

/** The part of the state every event keeps. */
export interface FeedCursor {
	/** Fingerprint of the settings this state was made for; other settings start from a fresh baseline. */
	settings?: string;
	/** The service's clock (ISO) when the last poll that read something began. */
	since?: string;
	/** Changes stamped before this instant (ISO) are history: they happened before the baseline. */
	horizon?: string;
}

export interface FeedState extends FeedCursor {
	/** Content fingerprints (`<id>.<hash>`) of records emitted within the window, with their stamp in ms. */
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
}

/** The records of one read, oldest change first, with the service's clock at its first answer. */
export interface ChangeRead {
	records: Array<{ item: IDataObject; at: number }>;
	/** The service's clock in ms, or undefined when it sent no usable `Date` header. */
	serviceNowMs: number | undefined;
	requests: number;
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

function iso(ms: number): string {
	return new Date(ms).toISOString();
}

/** Where the next read starts: one safety window before `since`, never before the horizon. */
export function windowStart(cursor: FeedCursor, windowMs: number): number {
	const since = Date.parse(cursor.since as string);
	const horizon = cursor.horizon === undefined ? -Infinity : Date.parse(cursor.horizon);
	return Math.max(since - windowMs, horizon);
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

/** Every record matching the user's filter stamped at or after `fromMs`, oldest change first. */
export async function readChanges(
	context: RequestContext,
	query: FeedQuery,
	fromMs: number,
	extraFilter?: string,
): Promise<ChangeRead> {
	const records: ChangeRead['records'] = [];
	const filter = combineFilters([`greaterOrEqual(${query.field},${quoteLiteral(iso(fromMs))})`, extraFilter, query.filter]);
	const { serviceNowMs, requests } = await readRecords(context, query.path, { filter }, (item) => {
		const at = timestampOf(item, query.field);
		if (at !== undefined) records.push({ item, at });
	});
	records.sort((a, b) => a.at - b.at || Number(a.item.id) - Number(b.item.id));
	return { records, serviceNowMs, requests };
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

/** The next `since`: the service's clock at this read, never moving backwards. */
export function nextSince(cursor: FeedCursor, read: ChangeRead): string {
	const previous = Date.parse(cursor.since as string);
	const newest = read.records.length > 0 ? read.records[read.records.length - 1].at : previous;
	return iso(Math.max(previous, read.serviceNowMs ?? newest));
}

/**
 * Keeps the fingerprints the next read can meet again (stamped at or after its start). Above
 * `maxSeen`, the newest `maxSeen` are kept and the horizon moves up past the ones dropped, so the
 * next read cannot meet — and repeat — a record it no longer remembers; the price is that a
 * change stamped before the new horizon and arriving later than that is not seen.
 */
export function trimSeen(
	seen: Record<string, number>,
	cursor: FeedCursor,
	windowMs: number,
	maxSeen: number,
): { seen: Record<string, number>; horizon?: string } {
	const start = windowStart(cursor, windowMs);
	let kept = Object.entries(seen).filter(([, at]) => at >= start);
	let horizon = cursor.horizon;
	if (kept.length > maxSeen) {
		kept.sort((a, b) => b[1] - a[1]);
		const cut = kept[maxSeen][1];
		horizon = iso(Math.max(cut + 1, cursor.horizon === undefined ? -Infinity : Date.parse(cursor.horizon)));
		kept = kept.filter(([, at]) => at > cut);
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
 * Created / Updated events: each new record version once, oldest change first. A fresh baseline
 * (first poll, or settings changed) emits nothing.
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
	const read = await readChanges(context, query, windowStart(state, query.windowMs));
	// Nothing read: nothing to remember, so nothing is written (an adopted 0.1.0 state is, once).
	if (read.records.length === 0) return { emit: [], state: legacy === undefined ? undefined : state };

	const seen: Record<string, number> = { ...(state.seen ?? {}) };
	const emit: IDataObject[] = [];
	for (const { item, at } of read.records) {
		const key = `${String(item.id)}.${fingerprint(item)}`;
		if (seen[key] !== undefined) continue;
		seen[key] = at;
		emit.push(item);
	}
	const cursor: FeedCursor = { settings, since: nextSince(state, read), horizon: state.horizon };
	const trimmed = trimSeen(seen, cursor, query.windowMs, maxSeen);
	return { emit, state: { ...cursor, horizon: trimmed.horizon, seen: trimmed.seen } };
}

/** The most recent record, for the editor's "Fetch Test Event". */
export async function latestRecord(context: RequestContext, query: FeedQuery, extraFilter?: string): Promise<IDataObject[]> {
	const response = await apiRequest.call(context, {
		method: 'GET',
		path: query.path,
		query: { filter: combineFilters([extraFilter, query.filter]), sort: `-${query.field}`, pageSize: 1 },
	});
	return flatten(response.body ?? {}).slice(0, 1);
}
