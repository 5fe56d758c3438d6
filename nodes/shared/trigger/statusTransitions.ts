/**
 * "Deal Status Changed": a deal is emitted once each time its status moves into a selected To
 * status (out of a selected From status, when From is set); an edit that leaves the status as it
 * was never fires.
 *
 * The service keeps no history, so the trigger remembers the last status it knew of each deal:
 * - Baseline (first poll, or settings changed): the deals in the watched statuses (From when set,
 *   else To, else all), newest change first (`sort=-updated,-id`), with a sparse fieldset
 *   (`dealStatus,updated`), at most `BASELINE_REQUESTS_PER_POLL` requests a poll: a large baseline
 *   is spread over several polls, its progress kept in the state (`baseline`), so each poll stays
 *   within n8n's poll timeout. It ends when every watched deal was read or the memory is full
 *   (`MAX_REMEMBERED_DEALS`): the deals not read then are the longest-untouched, exactly those the
 *   cap would forget first, so activation costs at most ⌈cap ÷ 100⌉ requests whatever the CRM's
 *   size. A 429 the transport could not wait out ends the poll quietly with the progress kept; the
 *   next poll continues (activation never fails on it).
 *   A deal that changes while the baseline is being taken moves ahead of the read (its stamp is new)
 *   and is not read by it: it stays unknown, so the first regular poll judges it as a deal not seen
 *   before (previousStatus null). A deal read before it changed is known, and its move is judged
 *   right. Changes stamped since the baseline began are read by the regular polls that follow.
 * - Each poll reads the deals changed since (changeFeed.readChanges: change order, bounded, a drain
 *   cursor), compares each deal's status with the remembered one and remembers the new one.
 *   Re-reading the window is harmless: an unchanged status emits nothing. A poll stops once it has
 *   found `maxRecords` moves; the next one continues after the last deal it went through.
 * - Deals outside the watched statuses are remembered too once seen changing (so `previousStatus`
 *   is known), but they are the first to be forgotten when the memory is full.
 * - The user's Filter narrows what is emitted, not what is remembered: statuses are followed for
 *   every deal, and the deals about to be emitted are checked against the filter with one more
 *   request (`and(any(id,…),<filter>)`, 100 ids a request, so at most ⌈maxRecords ÷ 100⌉). So a
 *   deal that starts matching the filter while already in a To status is not mistaken for one that
 *   just moved there.
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

import { anyOf, combineFilters, quoteLiteral } from '../input/query';
import { MAX_PAGE_SIZE, attributeThenIdAfter, paginate } from '../paging/pagination';
import type { RequestContext } from '../requests/runContext';
import { flatten } from '../service/jsonapi';
import { DEAL_STATUSES } from '../service/schema';
import type { FeedCursor, FeedQuery, Position } from './changeFeed';
import { iso, nextCursor, readBudget, readChanges, readRecords, readStart, serviceClockOf, timestampOf } from './changeFeed';

/** Most deals whose status the trigger remembers (about 0.5 MB of static data at the cap). */
export const MAX_REMEMBERED_DEALS = 50_000;

/**
 * Requests one baseline poll may send: 10,000 deals of a sparse fieldset, about 5 s over a 50 ms
 * network and 10 s over 100 ms — well inside n8n's 45 s poll timeout; 500 requests (five polls)
 * fill the memory's cap.
 */
export const BASELINE_REQUESTS_PER_POLL = 100;

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
	/** Set while the baseline is being taken, over several polls. */
	baseline?: BaselineProgress;
}

export interface BaselineProgress {
	/** The service's clock (ISO) at the baseline's first answer: deals stamped since are left unknown. */
	since: string;
	/** The last deal read, in the baseline's order (newest change first). */
	after?: Position;
	/** What was read so far, newest change first (reversed into `known` when the baseline ends). */
	newestFirst: StatusMemory;
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

/** A status memory as a map (id → status), longest-unobserved first. */
export function decodeStatuses(memory: StatusMemory | undefined): Map<number, string> {
	const known = new Map<number, string>();
	if (memory === undefined) return known;
	memory.ids.forEach((id, index) => {
		const name = memory.names[CODE_ALPHABET.indexOf(memory.codes[index])];
		if (name !== undefined) known.set(id, name);
	});
	return known;
}

/** A map (id → status, longest-unobserved first) as the memory kept in static data. */
export function encodeStatuses(known: Map<number, string>): StatusMemory {
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
export function remember(known: Map<number, string>, id: number, status: string): void {
	known.delete(id);
	known.set(id, status);
}

/** An error the transport gave up on after the service's 429s (its retries and waits are spent). */
function isRateLimited(error: unknown): boolean {
	return String((error as { httpCode?: unknown })?.httpCode) === '429';
}

/** Memory read newest first, as the regular memory keeps it: longest-unobserved first. */
function oldestFirst(memory: StatusMemory): StatusMemory {
	return { names: memory.names, ids: [...memory.ids].reverse(), codes: [...memory.codes].reverse().join('') };
}

/**
 * One slice of the baseline: the watched deals after the last one read, newest change first, until
 * the slice's request budget, the end, or the memory's cap. Returns the state to keep.
 */
async function baselineStep(
	context: RequestContext,
	query: TransitionQuery,
	selection: TransitionSelection,
	settings: string,
	progress: BaselineProgress | undefined,
	nowMs: number,
	cap: number,
): Promise<{ state: TransitionState; rateLimited: boolean; capped: boolean }> {
	const watched = watchedStatuses(selection);
	const known = decodeStatuses(progress?.newestFirst);
	let sinceMs = progress === undefined ? undefined : Date.parse(progress.since);
	let after = progress?.after;
	let newestRead: number | undefined;
	let capped = false;
	let rateLimited = false;
	let requests = 0;
	const read = await paginate
		.call(context, {
			path: query.path,
			query: {
				filter: combineFilters([statusFilter(query.statusField, watched), after === undefined ? undefined : attributeThenIdAfter(query.field, 'descending', after.at, after.id)]),
				sort: `-${query.field},-id`,
				fields: { [query.type]: `${query.statusField},${query.field}` },
			},
			keysetAttribute: query.field,
			supportsFilter: true,
			maxRequests: BASELINE_REQUESTS_PER_POLL,
			onResponse: (response) => {
				requests += 1;
				if (sinceMs === undefined) sinceMs = serviceClockOf(response);
			},
			onPage: (document) => {
				for (const item of flatten(document)) {
					const status = item[query.statusField];
					const at = timestampOf(item, query.field);
					if (typeof status !== 'string' || at === undefined) continue;
					if (known.size >= cap) {
						capped = true;
						return 'stop';
					}
					newestRead = Math.max(newestRead ?? -Infinity, at);
					after = { at: item[query.field] as string, id: String(item.id) };
					// Changed since the baseline began: its status may be the new one, so it stays
					// unknown and the first regular poll judges it (as a deal not known before).
					if (sinceMs !== undefined && at >= sinceMs) continue;
					if (!known.has(Number(item.id))) known.set(Number(item.id), status);
				}
				return undefined;
			},
		})
		.then(
			(outcome) => ({ exhausted: outcome.exhausted, failure: undefined }),
			(failure: unknown) => ({ exhausted: false, failure }),
		);
	if (read.failure !== undefined) {
		// Rate limited beyond what the transport waits for: keep what was read, go on next poll.
		if (!isRateLimited(read.failure)) throw read.failure;
		rateLimited = true;
	}
	const { exhausted } = read;
	// Without a Date header, the newest stamp read (or, with nothing read, n8n's clock) anchors it.
	const since = iso(sinceMs ?? newestRead ?? nowMs);
	if (requests === 0 && progress === undefined) return { state: {}, rateLimited, capped };
	if (!exhausted && !capped) return { state: { settings, baseline: { since, after, newestFirst: encodeStatuses(known) } }, rateLimited, capped };
	return { state: { settings, since, horizon: since, known: oldestFirst(encodeStatuses(known)) }, rateLimited, capped };
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

/**
 * Whether a deal whose status was `previous` (undefined: not known) and is `current` moved as the
 * selection asks: into a To status (any when empty), out of a From status (when set; an unknown
 * previous status is then not one of them).
 */
export function moves(selection: TransitionSelection, previous: string | undefined, current: string): boolean {
	if (previous === current) return false;
	if (selection.to.length > 0 && !selection.to.includes(current)) return false;
	if (selection.from.length > 0 && (previous === undefined || !selection.from.includes(previous))) return false;
	return true;
}

export interface TransitionPoll {
	emit: IDataObject[];
	/** Undefined: keep the stored state as it is. */
	state: TransitionState | undefined;
	/** Watched deals forgotten because the memory was full (-1: the baseline found more than it holds). */
	forgotten: number;
	remembered: number;
	/** A 429 ended a baseline slice early (its progress is kept). */
	rateLimited: boolean;
}

/**
 * The item of a move: `id`, `name`, `previousStatus` (null when the deal was not known) and
 * `statusChangedAt` (the deal's change stamp as the service reported it) first, then the deal as
 * Get Many returns it.
 */
export function transitionItem(item: IDataObject, previousStatus: string | null, statusChangedAt: unknown): IDataObject {
	const { id, name, ...rest } = item;
	return { id, ...(name === undefined ? {} : { name }), previousStatus, statusChangedAt: statusChangedAt ?? null, ...rest };
}

/** The statuses a deal moves through on its way to settlement, in order (the pipeline's first nine). */
const FORWARD_PATH: readonly string[] = DEAL_STATUSES.slice(0, DEAL_STATUSES.indexOf('Settled') + 1);

/**
 * The status a test event's deal (Fetch Test Event, version 1.1) shows as `previousStatus`, so the
 * sample has the shape a real move has. The service keeps no status history, so: the status this
 * trigger remembers for the deal when it differs from the current one (a move not yet emitted);
 * else the step before the current one on the way to settlement (Settled after PendingSettlement;
 * Varied and Repaid after Settled; Withdrawn and Cancelled after InProgress), or, with From Status
 * set, the last of those statuses before the current one in the pipeline (else the first).
 */
export function samplePreviousStatus(state: TransitionState, deal: IDataObject, statusField: string, selection: TransitionSelection): string | null {
	const current = String(deal[statusField]);
	const remembered = decodeStatuses(state.known).get(Number(deal.id));
	if (remembered !== undefined && remembered !== current && (selection.from.length === 0 || selection.from.includes(remembered))) return remembered;
	const onPath = FORWARD_PATH.indexOf(current);
	const step = onPath > 0 ? FORWARD_PATH[onPath - 1] : onPath === 0 ? null : current === 'Varied' || current === 'Repaid' ? 'Settled' : 'InProgress';
	if (selection.from.length === 0 || (step !== null && selection.from.includes(step))) return step;
	const order = (status: string) => (DEAL_STATUSES as readonly string[]).indexOf(status);
	const before = selection.from.filter((status) => status !== current && order(status) < order(current));
	return before.at(-1) ?? selection.from.find((status) => status !== current) ?? null;
}

/** One poll of status transitions: a baseline slice, or the moves since the last poll, oldest change first. */
export async function pollStatusTransitions(
	context: RequestContext,
	query: TransitionQuery,
	selection: TransitionSelection,
	settings: string,
	state: TransitionState,
	nowMs: number,
	cap = MAX_REMEMBERED_DEALS,
): Promise<TransitionPoll> {
	const fresh = state.settings !== settings || (state.since === undefined && state.baseline === undefined);
	if (fresh || state.baseline !== undefined) {
		const step = await baselineStep(context, query, selection, settings, fresh ? undefined : state.baseline, nowMs, cap);
		return {
			emit: [],
			state: step.state.settings === undefined ? undefined : step.state,
			forgotten: step.capped ? -1 : 0,
			remembered: step.state.known?.ids.length ?? step.state.baseline?.newestFirst.ids.length ?? 0,
			rateLimited: step.rateLimited,
		};
	}
	const known = decodeStatuses(state.known);
	const rememberedBefore = state.known?.ids.length ?? 0;
	let emit: IDataObject[] = [];
	// Every changed deal, whatever the user's filter: the filter only narrows what is emitted.
	const read = await readChanges(context, { ...query, filter: undefined }, readStart(state, query.windowMs), readBudget(query.maxRecords), state.drain !== undefined, (item) => {
		const current = item[query.statusField];
		if (typeof current !== 'string') return undefined;
		const id = Number(item.id);
		const previous = known.get(id);
		remember(known, id, current);
		if (!moves(selection, previous, current)) return undefined;
		emit.push(transitionItem(item, previous ?? null, item[query.field]));
		return emit.length >= query.maxRecords ? 'last' : undefined;
	});
	if (read.records === 0 && read.exhausted && state.drain === undefined) return { emit: [], state: undefined, forgotten: 0, remembered: rememberedBefore, rateLimited: false };
	if (query.filter !== undefined && emit.length > 0) {
		const matching = await matchingFilter(context, query, [...new Set(emit.map((item) => String(item.id)))]);
		emit = emit.filter((item) => matching.has(String(item.id)));
	}
	const forgotten = forgetAboveCap(known, watchedStatuses(selection), cap);
	const next: TransitionState = { ...nextCursor({ ...state, settings }, read), known: encodeStatuses(known) };
	return { emit, state: next, forgotten, remembered: known.size, rateLimited: false };
}
