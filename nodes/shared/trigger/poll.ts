/**
 * The one poll of every Loan CRM trigger type (the Deals and Contacts triggers, and the legacy
 * Loan CRM Trigger): reads the parameters, checks them before any request, and runs the event's
 * change detection (changeFeed.ts, statusTransitions.ts), storing its state only after the whole
 * poll succeeded. In the editor ("Fetch Test Event") it returns the newest matching record, marked
 * `sample: true`.
 *
 * With n8n's durable poll cursors (2.36+), the state a poll produced is committed together with the
 * execution of its items, after the poll has returned and without the next poll waiting for it. When
 * polls follow each other closely (several poll times, or the late ones n8n's scheduler fires in a
 * row after a restart), the next poll can start from the state before that commit and emit the same
 * items again; after a restart n8n may even start the late polls while the first is still reading.
 * So each process remembers, per trigger node, the state its last emitting poll (or the poll under
 * way) started from: a poll that starts from that same state while that poll is under way, or within
 * `COMMIT_GRACE_MS` after it emitted, emits nothing and changes nothing (its predecessor's result is
 * still being read or committed). Without durable cursors the state is
 * shared in memory and has moved on, so this never applies; if n8n dropped the predecessor's result
 * (no execution, no commit), the poll after the grace emits it.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';

import { anyOf, queryFromOptions } from '../input/query';
import { DEAL_STATUSES, RESOURCE_TYPES } from '../service/schema';
import { invalidParameter } from '../errors/factory';
import { applyPollRateLimitWait } from '../execution/requestOptions';
import { runContextOf } from '../requests/runContext';
import type { FeedQuery, FeedState } from './changeFeed';
import { DEFAULT_MAX_RECORDS_PER_POLL, MAX_RECORDS_PER_POLL_CEILING, fingerprint, latestRecord, pollRecordChanges } from './changeFeed';
import type { TransitionSelection, TransitionState } from './statusTransitions';
import { MAX_REMEMBERED_DEALS, pollStatusTransitions, samplePreviousStatus, transitionItem } from './statusTransitions';
import type { ItemShape } from './output';
import { sampleItem, triggerItem } from './output';
import { isVersion1 } from '../service/versions';
import { TRIGGER_EVENTS } from './events';

const DEFAULT_SAFETY_WINDOW_SECONDS = 120;

/** How long a poll waits, at most, for its predecessor's state to be committed (see the header). */
const COMMIT_GRACE_MS = 60_000;

/**
 * Per trigger node (`<workflow id>:<node id>`): the state the poll under way, or the last emitting
 * poll, in this process started from (`at`: when it emitted; undefined while it runs).
 */
const lastEmittingPoll = new Map<string, { startedFrom: string; at?: number }>();

/**
 * A status list from the multi-select, or from an expression (an array or comma-separated text);
 * a name that is not a deal status is refused, naming the parameter (the Webhook Trigger reads its
 * To and From Status with it too).
 */
export function statusList(context: IPollFunctions | IWebhookFunctions, name: string, label: string): string[] {
	const value = context.getNodeParameter(name, []) as unknown;
	const entries = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
	if (entries === undefined) throw invalidParameter(context.getNode(), label, 'must be a list of deal statuses such as Settled');
	const statuses = entries.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
	for (const status of statuses) {
		if (!(DEAL_STATUSES as readonly string[]).includes(status)) {
			throw invalidParameter(
				context.getNode(),
				label,
				`has "${status.slice(0, 60)}", which is not a deal status; use one of ${DEAL_STATUSES.join(', ')}`,
			);
		}
	}
	return [...new Set(statuses)];
}

/** Options → Max Records per Poll: a whole number from 1 to the ceiling (an expression may give anything). */
function maxRecordsPerPoll(context: IPollFunctions, options: IDataObject): number {
	const value = options.maxRecordsPerPoll ?? DEFAULT_MAX_RECORDS_PER_POLL;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_RECORDS_PER_POLL_CEILING) {
		throw invalidParameter(context.getNode(), 'Options → Max Records per Poll', `must be a whole number from 1 to ${MAX_RECORDS_PER_POLL_CEILING}; got ${JSON.stringify(value)}`);
	}
	return value;
}

/** How items look at the node's version: version 1's exactly as before; from 1.1 Simplify (on unless set off). */
function itemShape(context: IPollFunctions): ItemShape {
	if (isVersion1(context.getNode())) return { version1: true, simplify: false };
	const simplify = context.getNodeParameter('simplify', true) as unknown;
	if (typeof simplify !== 'boolean') throw invalidParameter(context.getNode(), 'Simplify', `must be true or false; got ${JSON.stringify(simplify)}`);
	return { version1: false, simplify };
}

/** Replaces the node's static data with `state` (keys of another event's state are removed). */
function store(staticData: IDataObject, state: object): void {
	for (const key of Object.keys(staticData)) {
		if (!(key in state)) delete staticData[key];
	}
	Object.assign(staticData, state);
}

/** One poll of a trigger that offers the events `offered`. */
export async function pollTrigger(context: IPollFunctions, offered: readonly string[]): Promise<INodeExecutionData[][] | null> {
	const eventName = context.getNodeParameter('event') as string;
	const event = offered.includes(eventName) ? TRIGGER_EVENTS[eventName] : undefined;
	if (event === undefined) throw invalidParameter(context.getNode(), 'Event', `has "${String(eventName).slice(0, 60)}", which is not an event of this trigger`);
	const options = context.getNodeParameter('options', {}) as IDataObject;
	applyPollRateLimitWait(context, options);
	const { filter } = queryFromOptions(
		context.getNode(),
		event.type,
		RESOURCE_TYPES[event.type],
		{
			filter: context.getNodeParameter('filter', '') as string,
			conditions: event.type === 'deals' ? options.dealConditions : options.contactConditions,
		},
		context.getTimezone(),
		undefined,
		{ filter: 'Filter', conditions: 'Options → Conditions' },
	);
	const windowSeconds = typeof options.safetyWindow === 'number' ? options.safetyWindow : DEFAULT_SAFETY_WINDOW_SECONDS;
	const query: FeedQuery = { path: event.path, type: event.type, field: event.field, filter, windowMs: windowSeconds * 1000, maxRecords: maxRecordsPerPoll(context, options) };
	const statusField = event.statusField;
	const selection: TransitionSelection | undefined =
		statusField === undefined
			? undefined
			: { to: statusList(context, 'toStatuses', 'To Status'), from: statusList(context, 'fromStatuses', 'From Status') };
	// State made for other settings (event, filter, statuses) is not reused: a fresh baseline.
	const settings = fingerprint({ event: eventName, filter: filter ?? '', to: selection?.to ?? [], from: selection?.from ?? [] });
	const shape = itemShape(context);

	if (context.getMode() === 'manual') {
		const toFilter =
			selection !== undefined && statusField !== undefined && selection.to.length > 0
				? anyOf(statusField, selection.to)
				: undefined;
		const [newest] = await latestRecord(context, query, toFilter);
		if (newest === undefined) return null;
		// No move was observed: version 1 says previousStatus null; from 1.1 the sample shows the shape
		// of a move (samplePreviousStatus). `sample` tells a test event from a real one.
		const previousStatus =
			statusField === undefined || selection === undefined || shape.version1
				? null
				: samplePreviousStatus(context.getWorkflowStaticData('node') as TransitionState, newest, statusField, selection);
		const item = statusField === undefined ? newest : transitionItem(newest, previousStatus, newest[event.field]);
		return [context.helpers.returnJsonArray([sampleItem(triggerItem(item, shape), shape)])];
	}

	const staticData = context.getWorkflowStaticData('node');
	const trigger = `Loan CRM Trigger "${context.getNode().name}"`;
	const nodeKey = `${String(context.getWorkflow().id)}:${context.getNode().id}`;
	const startedFrom = fingerprint(staticData);
	const clock = runContextOf(context).clock;
	const previous = lastEmittingPoll.get(nodeKey);
	if (previous !== undefined && previous.startedFrom === startedFrom && (previous.at === undefined || clock.now() - previous.at < COMMIT_GRACE_MS)) {
		context.logger.debug(`${trigger}: a poll from the same state is under way or its items are still being committed by n8n; this poll waits for the next one`);
		return null;
	}
	const mine = { startedFrom } as { startedFrom: string; at?: number };
	lastEmittingPoll.set(nodeKey, mine);
	try {
		return await pollFrom(context, { shape, query, statusField, selection, settings, staticData, trigger, emitted: (items) => (items.length > 0 ? ((mine.at = clock.now()), true) : false) });
	} finally {
		// A poll that emitted nothing (or failed) holds nothing back.
		if (mine.at === undefined && lastEmittingPoll.get(nodeKey) === mine) lastEmittingPoll.delete(nodeKey);
	}
}

/** One poll's reading and emitting, from the node's stored state. */
async function pollFrom(
	context: IPollFunctions,
	run: { shape: ItemShape; query: FeedQuery; statusField: string | undefined; selection: TransitionSelection | undefined; settings: string; staticData: IDataObject; trigger: string; emitted: (items: IDataObject[]) => boolean },
): Promise<INodeExecutionData[][] | null> {
	const { query, statusField, selection, settings, staticData, trigger } = run;
	const emitted = (items: IDataObject[]): INodeExecutionData[][] | null => (run.emitted(items) ? [context.helpers.returnJsonArray(items.map((item) => triggerItem(item, run.shape)))] : null);
	if (selection !== undefined && statusField !== undefined) {
		const result = await pollStatusTransitions(context, { ...query, statusField }, selection, settings, staticData as TransitionState, runContextOf(context).clock.now());
		if (result.forgotten !== 0) {
			const what = result.forgotten < 0 ? 'found more deals in the watched statuses than that and did not remember the longest-untouched' : `forgot ${result.forgotten} in the watched statuses`;
			context.logger.warn(
				`${trigger} remembers at most ${MAX_REMEMBERED_DEALS} deals and ${what}; if one of them changes while in a To status it is emitted once with previousStatus null. Narrow the From or To statuses.`,
			);
		}
		if (result.rateLimited) {
			context.logger.warn(`${trigger}: Loan CRM answered 429 (rate limit) while the trigger took its baseline; it keeps what it read and continues at the next poll.`);
		}
		if (result.state !== undefined) store(staticData, result.state);
		return emitted(result.emit);
	}
	const { emit, state } = await pollRecordChanges(context, query, settings, staticData as FeedState, runContextOf(context).clock.now());
	if (state !== undefined) store(staticData, state);
	return emitted(emit);
}
