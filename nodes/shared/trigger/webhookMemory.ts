/**
 * What the Webhook Trigger remembers so that each change is emitted once although the service
 * retries and bursts (the same record notified several times for one change):
 *
 * - `versions`: the last version emitted (or seen, for Deal Created) of each recently notified
 *   record, as its `updated` stamp and a fingerprint of its content (changeFeed.ts `fingerprint`):
 *   a read whose record is the remembered version, or older, emits nothing. The service stamps whole
 *   seconds, so two edits within one second carry one stamp: the content tells them apart, as in the
 *   polling triggers. At most `MAX_VERSIONS` records, the longest-unnotified forgotten first: a
 *   forgotten record is one the trigger has not seen, and its next notification emits its current
 *   version (once more, if that is the version last emitted — thousands of other records' changes
 *   ago, far beyond the service's retries).
 * - `statuses` (Deal Status Changed): the last status known of each deal, in the memory the Deals
 *   Trigger keeps (statusTransitions.ts: one character per deal, `MAX_REMEMBERED_DEALS`, deals outside
 *   the watched statuses forgotten first). A deal not in it is one the trigger has not seen, handled
 *   as the Deals Trigger handles such a deal (`moves` with an unknown previous status).
 *
 * Where it lives. n8n hands each webhook call the workflow's static data as stored, and stores it
 * again when the call returns: two calls at once each start from the same stored copy, and the last
 * to finish would overwrite the other's change. So the process keeps the memory (per trigger node),
 * and each call writes it, bounded, into the node's static data: after a restart the process starts
 * from the last stored copy. The stored copy keeps the newest `STORED_VERSIONS` versions (the
 * retries still to come are of recent changes) and every remembered status.
 *
 * Settings. Memory made for other settings (resources, event, statuses) is not reused: editing an
 * active trigger starts from an empty memory, as the polling triggers start from a fresh baseline.
 */
import type { IDataObject } from 'n8n-workflow';

import type { StatusMemory } from './statusTransitions';
import { MAX_REMEMBERED_DEALS, decodeStatuses, encodeStatuses, forgetAboveCap } from './statusTransitions';
import { fingerprint, timestampOf } from './changeFeed';
import type { WebhookResource } from './webhookNotification';

/** Records whose last version the process remembers per trigger node. */
export const MAX_VERSIONS = 10_000;

/** Of those, the newest stored in the node's static data (about 20 bytes each). */
export const STORED_VERSIONS = 1_000;

/** A record's version: its `updated` stamp (ms; undefined when it has none) and its content's fingerprint. */
export interface Version {
	at?: number;
	content: string;
}

/** The node's static data as this trigger writes it. */
export interface WebhookState {
	/** Fingerprint of the settings the memory was made for. */
	settings?: string;
	/** `<type letter><id>.<stamp in base 36 or ->.<content fingerprint>`, oldest first. */
	versions?: string[];
	/** Deal Status Changed: the last status of each deal, longest-unobserved first. */
	known?: StatusMemory;
	/** The memory's revision this copy holds (a call that changed nothing leaves the copy as it is). */
	revision?: number;
}

/** One letter per record type, for the stored versions. */
const TYPE_LETTERS: Record<WebhookResource, string> = { deals: 'd', contacts: 'c', advisers: 'a', organisations: 'o' };

export function recordKey(type: WebhookResource, id: number): string {
	return `${TYPE_LETTERS[type]}${id}`;
}

/** A record's version as the memory compares it. */
export function versionOf(record: IDataObject): Version {
	return { at: timestampOf(record, 'updated'), content: fingerprint(record) };
}

/** Whether `version` is a change after `remembered` (a later stamp, or the same stamp with other content). */
export function isNewer(version: Version, remembered: Version | undefined): boolean {
	if (remembered === undefined) return true;
	if (version.at !== undefined && remembered.at !== undefined && version.at !== remembered.at) return version.at > remembered.at;
	return version.content !== remembered.content;
}

function encodeVersion(key: string, version: Version): string {
	return `${key}.${version.at === undefined ? '-' : version.at.toString(36)}.${version.content}`;
}

function decodeVersion(text: unknown): [string, Version] | undefined {
	if (typeof text !== 'string') return undefined;
	const match = /^([a-z]\d+)\.(-|[0-9a-z]+)\.([0-9a-z]+)$/.exec(text);
	if (match === null) return undefined;
	return [match[1], { at: match[2] === '-' ? undefined : parseInt(match[2], 36), content: match[3] }];
}

/** The memory of one trigger node in this process. */
export class WebhookMemory {
	/** Record key → last version, longest-unnotified first. */
	readonly versions = new Map<string, Version>();

	/** Deal id → last known status, longest-unobserved first. */
	statuses = new Map<number, string>();

	/** Counts the changes of what is remembered (not of its order). */
	revision = 0;

	constructor(readonly settings: string) {}

	static fromState(settings: string, state: WebhookState): WebhookMemory {
		const memory = new WebhookMemory(settings);
		if (state.settings !== settings) return memory;
		for (const text of state.versions ?? []) {
			const entry = decodeVersion(text);
			if (entry !== undefined) memory.versions.set(entry[0], entry[1]);
		}
		memory.statuses = decodeStatuses(state.known);
		memory.revision = typeof state.revision === 'number' ? state.revision : 0;
		return memory;
	}

	/** Remembers `version` as the record's newest (it moves to the newest end). */
	rememberVersion(key: string, version: Version): void {
		const before = this.versions.get(key);
		if (before === undefined || before.at !== version.at || before.content !== version.content) this.revision += 1;
		this.versions.delete(key);
		this.versions.set(key, version);
		for (const oldest of this.versions.keys()) {
			if (this.versions.size <= MAX_VERSIONS) break;
			this.versions.delete(oldest);
		}
	}

	/** Remembers a deal's status; forgets the longest-unobserved above the cap. Returns how many watched deals were forgotten. */
	rememberStatus(id: number, status: string, watched: string[] | undefined): number {
		if (this.statuses.get(id) !== status) this.revision += 1;
		this.statuses.delete(id);
		this.statuses.set(id, status);
		return forgetAboveCap(this.statuses, watched, MAX_REMEMBERED_DEALS);
	}

	/** What the node's static data keeps of it. */
	toState(): WebhookState {
		const versions = [...this.versions].slice(-STORED_VERSIONS).map(([key, version]) => encodeVersion(key, version));
		return { settings: this.settings, ...(versions.length > 0 ? { versions } : {}), ...(this.statuses.size > 0 ? { known: encodeStatuses(this.statuses) } : {}), revision: this.revision };
	}
}

/** Per trigger node (`<workflow id>:<node id>`), the memory of this process. */
const memories = new Map<string, WebhookMemory>();

/**
 * The memory of the trigger node `nodeKey` for `settings`: the process's, else the one stored in the
 * node's static data (after a restart), else an empty one. `keep: false` (a test event) looks without
 * making it the process's.
 */
export function webhookMemory(nodeKey: string, settings: string, stored: WebhookState, keep = true): WebhookMemory {
	const kept = memories.get(nodeKey);
	if (kept !== undefined && kept.settings === settings) return kept;
	const memory = WebhookMemory.fromState(settings, stored);
	if (keep) memories.set(nodeKey, memory);
	return memory;
}

/** Forgets every trigger node's memory (tests: a process that restarted, with only the stored copies). */
export function forgetWebhookMemories(): void {
	memories.clear();
}

/**
 * Replaces the node's static data with the memory's stored copy, unless it holds that revision
 * already (n8n then has nothing to save: a retry costs no write to its database).
 */
export function storeMemory(staticData: IDataObject, memory: WebhookMemory): void {
	if (staticData.settings === memory.settings && staticData.revision === memory.revision) return;
	const state = memory.toState() as IDataObject;
	for (const key of Object.keys(staticData)) if (!(key in state)) delete staticData[key];
	Object.assign(staticData, state);
}
