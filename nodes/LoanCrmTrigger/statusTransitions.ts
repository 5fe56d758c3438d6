/**
 * "Deal Status Changed": a deal is emitted once each time its status moves into a selected To
 * status (out of a selected From status, when From is set); an edit that leaves the status as it
 * was never fires.
 *
 * The service keeps no history, so the trigger remembers the last status it knew of each deal:
 * - Baseline (first poll, or settings changed): every deal in the watched statuses (From when set,
 *   else To, else all), read with a sparse fieldset (`dealStatus,updated`): one request per 100
 *   such deals. A deal already in a To status is thereby known, and does not fire when edited.
 * - Each poll reads the deals changed in the window (`changeFeed.readChanges`), compares each
 *   deal's status with the remembered one and remembers the new one. Re-reading the window is
 *   harmless: an unchanged status emits nothing.
 * - Deals outside the watched statuses are remembered too once seen changing (so `previousStatus`
 *   is known), but they are the first to be forgotten when the memory is full.
 * - The user's Filter narrows what is emitted, not what is remembered: statuses are followed for
 *   every deal, and the deals about to be emitted are checked against the filter with one more
 *   request (`and(any(id,…),<filter>)`, 100 ids a request). So a deal that starts matching the
 *   filter while already in a To status is not mistaken for one that just moved there.
 *
 * Memory: deal ids in observation order (oldest first) plus one character per deal for its status,
 * about 7–12 bytes of static data per remembered deal. Above `MAX_REMEMBERED_DEALS` the
 * longest-unobserved deals outside the watched statuses are forgotten first, then the
 * longest-unobserved watched ones, with a warning in n8n's log. A forgotten deal is treated like a
 * deal never seen: if it later changes while in a To status it is emitted once with
 * `previousStatus: null` (and remembered again). Nothing is lost and nothing floods: at most one
 * extra event per forgotten deal, only when that deal is touched.
 */
import type { IDataObject } from 'n8n-workflow';

import { anyOf, combineFilters, quoteLiteral } from '../shared/input/query';
import { MAX_PAGE_SIZE } from '../shared/paging/pagination';
import type { RequestContext } from '../shared/requests/runContext';
import type { ChangeRead, FeedCursor, FeedQuery } from './changeFeed';
import { nextSince, readChanges, readRecords, timestampOf, windowStart } from './changeFeed';

/** Most deals whose status the trigger remembers (about 0.5 MB of static data at the cap). */
export const MAX_REMEMBERED_DEALS = 50_000;

/** Status codes: one base-36 character per remembered deal, indexing `StatusMemory.names`. */
const CODE_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

export interface StatusMemory {
	/** Status names that `codes` index. */
	names: string[];
	/** Deal ids, longest-unobserved first. */
	ids: number[];
	/** One character per id: the index of its last known status in `names`. */
	codes: string;
}

export interface TransitionState extends FeedCursor {
	known?: StatusMemory;
}

export interface TransitionSelection {
	/** Empty: any status. */
	to: string[];
	/** Empty: from any status, including unknown. */
	from: string[];
}

export interface TransitionQuery extends FeedQuery {
	statusField: string;
}

/** Statuses a deal must be remembered in for the selection to be judged right. */
export function watchedStatuses(selection: TransitionSelection): string[] | undefined {
	if (selection.from.length > 0) return selection.from;
	if (selection.to.length > 0) return selection.to;
	return undefined;
}

function statusFilter(field: string, statuses: string[] | undefined): string | undefined {
	if (statuses === undefined) return undefined;
	return statuses.length === 1 ? `equals(${field},${quoteLiteral(statuses[0])})` : anyOf(field, statuses);
}

function decode(memory: StatusMemory | undefined): Map<number, string> {
	const known = new Map<number, string>();
	if (memory === undefined) return known;
	memory.ids.forEach((id, index) => {
		const name = memory.names[CODE_ALPHABET.indexOf(memory.codes[index])];
		if (name !== undefined) known.set(id, name);
	});
	return known;
}

function encode(known: Map<number, string>): StatusMemory {
	const names: string[] = [];
	const ids: number[] = [];
	let codes = '';
	for (const [id, status] of known) {
		let index = names.indexOf(status);
		if (index < 0) {
			if (names.length >= CODE_ALPHABET.length) continue; // more distinct statuses than codes: forget the deal
			index = names.push(status) - 1;
		}
		ids.push(id);
		codes += CODE_ALPHABET[index];
	}
	return { names, ids, codes };
}

/** Forgets the longest-unobserved deals above the cap, unwatched ones first. Returns how many watched were forgotten. */
export function forgetAboveCap(known: Map<number, string>, watched: string[] | undefined, cap: number): number {
	if (known.size <= cap) return 0;
	if (watched !== undefined) {
		for (const [id, status] of known) {
			if (known.size <= cap) break;
			if (!watched.includes(status)) known.delete(id);
		}
	}
	let forgottenWatched = 0;
	for (const id of known.keys()) {
		if (known.size <= cap) break;
		known.delete(id);
		forgottenWatched += 1;
	}
	return forgottenWatched;
}

/** Moves a deal to the newest end of the memory with its status. */
function remember(known: Map<number, string>, id: number, status: string): void {
	known.delete(id);
	known.set(id, status);
}

async function baseline(
	context: RequestContext,
	query: TransitionQuery,
	selection: TransitionSelection,
	settings: string,
	nowMs: number,
	cap: number,
): Promise<{ state: TransitionState; forgotten: number }> {
	const watched = watchedStatuses(selection);
	const rows: Array<{ id: number; status: string; at: number }> = [];
	const fields = { [query.type]: `${query.statusField},${query.field}` };
	const { serviceNowMs } = await readRecords(context, query.path, { filter: statusFilter(query.statusField, watched), fields }, (item) => {
		const status = item[query.statusField];
		const at = timestampOf(item, query.field);
		if (typeof status === 'string' && at !== undefined) rows.push({ id: Number(item.id), status, at });
	});
	const start = serviceNowMs ?? rows.reduce((newest, row) => Math.max(newest, row.at), -Infinity);
	const startMs = Number.isFinite(start) ? start : nowMs;
	// A deal changed since the baseline began may already show its new status: leave it unknown,
	// so the first poll judges it (as a deal not known before).
	const known = new Map<number, string>();
	rows
		.filter((row) => row.at < startMs)
		.sort((a, b) => a.at - b.at || a.id - b.id)
		.forEach((row) => known.set(row.id, row.status));
	const forgotten = forgetAboveCap(known, watched, cap);
	const since = new Date(startMs).toISOString();
	return { state: { settings, since, horizon: since, known: encode(known) }, forgotten };
}

/** Which of `ids` match the user's filter now (one request per 100 ids, one field each). */
async function matchingFilter(context: RequestContext, query: TransitionQuery, ids: string[]): Promise<Set<string>> {
	const matching = new Set<string>();
	for (let start = 0; start < ids.length; start += MAX_PAGE_SIZE) {
		const chunk = ids.slice(start, start + MAX_PAGE_SIZE);
		await readRecords(context, query.path, { filter: combineFilters([anyOf('id', chunk), query.filter]), fields: { [query.type]: query.field } }, (item) =>
			matching.add(String(item.id)),
		);
	}
	return matching;
}

function moves(selection: TransitionSelection, previous: string | undefined, current: string): boolean {
	if (previous === current) return false;
	if (selection.to.length > 0 && !selection.to.includes(current)) return false;
	if (selection.from.length > 0 && (previous === undefined || !selection.from.includes(previous))) return false;
	return true;
}

export interface TransitionPoll {
	emit: IDataObject[];
	/** Undefined: keep the stored state as it is. */
	state: TransitionState | undefined;
	/** Watched deals forgotten because the memory was full. */
	forgotten: number;
	remembered: number;
}

/**
 * One poll of status transitions. Emitted items are the deal (flattened) plus `previousStatus`
 * (null when the deal was not known) and `statusChangedAt` (the deal's change stamp as the service
 * reported it), oldest change first.
 */
export async function pollStatusTransitions(
	context: RequestContext,
	query: TransitionQuery,
	selection: TransitionSelection,
	settings: string,
	state: TransitionState,
	nowMs: number,
	cap = MAX_REMEMBERED_DEALS,
): Promise<TransitionPoll> {
	if (state.settings !== settings || state.since === undefined) {
		const { state: fresh, forgotten } = await baseline(context, query, selection, settings, nowMs, cap);
		return { emit: [], state: fresh, forgotten, remembered: fresh.known?.ids.length ?? 0 };
	}
	// Every changed deal, whatever the user's filter: the filter only narrows what is emitted.
	const read: ChangeRead = await readChanges(context, { ...query, filter: undefined }, windowStart(state, query.windowMs));
	const rememberedBefore = state.known?.ids.length ?? 0;
	if (read.records.length === 0) return { emit: [], state: undefined, forgotten: 0, remembered: rememberedBefore };

	const known = decode(state.known);
	let emit: IDataObject[] = [];
	for (const { item } of read.records) {
		const current = item[query.statusField];
		if (typeof current !== 'string') continue;
		const id = Number(item.id);
		const previous = known.get(id);
		if (moves(selection, previous, current)) {
			emit.push({ ...item, previousStatus: previous ?? null, statusChangedAt: item[query.field] ?? null });
		}
		remember(known, id, current);
	}
	if (query.filter !== undefined && emit.length > 0) {
		const matching = await matchingFilter(context, query, [...new Set(emit.map((item) => String(item.id)))]);
		emit = emit.filter((item) => matching.has(String(item.id)));
	}
	const forgotten = forgetAboveCap(known, watchedStatuses(selection), cap);
	const next: TransitionState = { settings, since: nextSince(state, read), horizon: state.horizon, known: encode(known) };
	return { emit, state: next, forgotten, remembered: known.size };
}
