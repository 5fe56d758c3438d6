/**
 * Exactly-once change detection for the polling trigger.
 *
 * Each poll re-reads a safety window before the newest timestamp seen so far (the service's clock,
 * not n8n's, so clock skew cannot lose records), and skips records already emitted with the same
 * id and timestamp. What is remembered covers only that window, so it stays bounded.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Document } from './jsonapi';
import { flatten } from './jsonapi';
import { paginate } from './pagination';
import type { RequestContext } from './transport';
import { apiRequest } from './transport';

export interface FeedState {
	/** Newest change timestamp seen (ISO, service clock); the next poll reads from here minus the window. */
	since?: string;
	/** `id@timestamp` of records emitted (or baselined) within the window, with the timestamp in ms. */
	seen?: Record<string, number>;
}

export interface FeedQuery {
	path: string;
	/** Attribute holding the change time: `created` or `updated`. */
	field: string;
	/** The user's filter, already normalised. */
	filter?: string;
	windowMs: number;
	/** Upper bound on remembered keys, however busy the window. */
	maxSeen: number;
}

function timestampOf(item: IDataObject, field: string): number | undefined {
	const value = item[field];
	if (typeof value !== 'string') return undefined;
	const parsed = Date.parse(value);
	return Number.isNaN(parsed) ? undefined : parsed;
}

function combine(...terms: Array<string | undefined>): string | undefined {
	const present = terms.filter((term): term is string => term !== undefined && term !== '');
	if (present.length === 0) return undefined;
	return present.length === 1 ? present[0] : `and(${present.join(',')})`;
}

async function readChangesSince(context: RequestContext, query: FeedQuery, fromMs: number): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	const condition = `greaterOrEqual(${query.field},'${new Date(fromMs).toISOString()}')`;
	await paginate.call(context, {
		path: query.path,
		query: { filter: combine(condition, query.filter) },
		supportsFilter: true,
		onPage: (document: Document) => {
			for (const item of flatten(document)) items.push(item);
		},
	});
	return items;
}

/**
 * The changes to emit, oldest first, and the state to keep. On the first poll nothing is emitted:
 * the records already in the window are remembered so that history does not flood the workflow.
 */
export async function pollChanges(
	context: RequestContext,
	query: FeedQuery,
	state: FeedState,
	nowMs: number,
): Promise<{ emit: IDataObject[]; state: FeedState }> {
	const first = state.since === undefined;
	const sinceMs = first ? nowMs : Date.parse(state.since as string);
	const seen: Record<string, number> = { ...(state.seen ?? {}) };
	const records = await readChangesSince(context, query, sinceMs - query.windowMs);

	const fresh: Array<{ item: IDataObject; at: number; key: string }> = [];
	let newest = sinceMs;
	for (const item of records) {
		const at = timestampOf(item, query.field);
		if (at === undefined) continue;
		const key = `${String(item.id)}@${at}`;
		if (at > newest) newest = at;
		if (seen[key] !== undefined) continue;
		seen[key] = at;
		fresh.push({ item, at, key });
	}
	fresh.sort((a, b) => a.at - b.at || Number(a.item.id) - Number(b.item.id));

	const horizon = newest - query.windowMs;
	let kept = Object.entries(seen).filter(([, at]) => at >= horizon);
	if (kept.length > query.maxSeen) kept = kept.sort((a, b) => b[1] - a[1]).slice(0, query.maxSeen);
	return {
		emit: first ? [] : fresh.map((entry) => entry.item),
		state: { since: new Date(newest).toISOString(), seen: Object.fromEntries(kept) },
	};
}

/** The most recent record, for the editor's "Fetch Test Event". */
export async function latestRecord(context: RequestContext, query: FeedQuery): Promise<IDataObject[]> {
	const response = await apiRequest.call(context, {
		method: 'GET',
		path: query.path,
		query: { filter: query.filter, sort: `-${query.field}`, pageSize: 1 },
	});
	return flatten(response.body ?? {}).slice(0, 1);
}
