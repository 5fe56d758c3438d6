/**
 * The nodes' versions and what each brought: the one table of "which version has what", read by the
 * editor's parameters (description/versions.ts `forVersions`), the catalogue rows' earlier forms
 * (catalogue.ts `before`) and the operations a version has (catalogue.ts `since`), and the behaviour
 * that differs at run time. It sits in the lowest layer
 * so that every layer reads the same table (an ID's rule is worded in input/values.ts).
 *
 * A saved node keeps the version it was saved with; the editor gives a new node the newest
 * (`NEWEST_VERSION`, the action nodes' `defaultVersion`). Adding a version is one line in
 * `NODE_VERSIONS` and a line in `SINCE` for each thing it brings; a behaviour asks
 * `has(node, 'thatThing')`, never a version number, so the next version keeps it by itself.
 */
import type { INode } from 'n8n-workflow';

/**
 * Every version, oldest first, under the key `forVersions` knows it by (`v1_1` = 1.1). The polling
 * triggers share it (version 1.2 changes only a label there); the hidden legacy trigger stays at 1.
 */
export const VERSION_KEYS = { v1: 1, v1_1: 1.1, v1_2: 1.2 } as const;

export type VersionKey = keyof typeof VERSION_KEYS;
export type NodeVersion = (typeof VERSION_KEYS)[VersionKey];

export const NODE_VERSIONS: readonly NodeVersion[] = Object.values(VERSION_KEYS);

/** What the editor gives a new node. */
export const NEWEST_VERSION: NodeVersion = NODE_VERSIONS[NODE_VERSIONS.length - 1];

/** The key of a version (1.2 → `v1_2`). */
export function versionKey(version: NodeVersion): VersionKey {
	return `v${String(version).replace('.', '_')}` as VersionKey;
}

/** What each version brought, by the first version that has it. */
export const SINCE = {
	/**
	 * 1.1: Simplify gives a record's summary (summary.ts); Options → Fields takes `*`; a tool's
	 * arguments come filled by the model and its answers leave out empty fields; the triggers' rows
	 * are summaries with `sample` first.
	 */
	summaries: VERSION_KEYS.v1_1,
	/**
	 * 1.2: what the editor shows in plain words: labels (When Rate Limited, Create Integration If
	 * Missing), option names ("E-mail and date of birth"), canvas subtitles ("Create deal note"), the
	 * ID rule ("a record ID (a whole number)").
	 */
	plainWords: VERSION_KEYS.v1_2,
	/** 1.2: a create's key fields (a contact's E-mail, First Name, Last Name) are parameters of their own. */
	keyFieldsOnTop: VERSION_KEYS.v1_2,
	/**
	 * 1.2: a create that looks first gives one shape whether it created or found (Simplify), says
	 * when it could not look (`notSearched`), and a created record names its related record (a deal
	 * note's `dealId`).
	 */
	oneCreateShape: VERSION_KEYS.v1_2,
	/**
	 * 1.2: Fact Find → Create (structured leads), the first operation added after version 1: older
	 * versions neither list its resource nor run it (its catalogue row's `since`). It came before the
	 * release that brings 1.2, so it starts at 1.2, not at 1.1.
	 */
	factFinds: VERSION_KEYS.v1_2,
} as const satisfies Record<string, NodeVersion>;

export type VersionFeature = keyof typeof SINCE;

/** Whether a node of this version has what `feature` names. */
export function has(node: Pick<INode, 'typeVersion'>, feature: VersionFeature): boolean {
	return node.typeVersion >= SINCE[feature];
}

/**
 * The first version that has an operation: its catalogue row's `since` (what that version brought),
 * else version 1.
 */
export function firstVersionOf(operation: { since?: VersionFeature }): NodeVersion {
	return operation.since === undefined ? VERSION_KEYS.v1 : SINCE[operation.since];
}

/** Whether a node of this version has the operation (a catalogue row's `since`). */
export function hasOperation(node: Pick<INode, 'typeVersion'>, operation: { since?: VersionFeature }): boolean {
	return node.typeVersion >= firstVersionOf(operation);
}

/**
 * Earlier forms of a catalogue row or a resource attribute, by the key of the version that changed
 * it: `{ v1_2: { featured: [] } }` is what the row was before 1.2. The row itself is the newest
 * version's, so what is added later has the newest behaviour.
 */
export type EarlierForms<T> = Partial<Record<Exclude<VersionKey, 'v1'>, Partial<T>>>;

/** `row` as a node of `version` has it: the earlier form of every later version applied, newest first. */
export function formAt<T extends { before?: object }>(row: T, version: number): T {
	const before = row.before as Partial<Record<VersionKey, Partial<T>>> | undefined;
	if (before === undefined) return row;
	let form: T = row;
	for (const key of (Object.keys(VERSION_KEYS) as VersionKey[]).reverse()) {
		const earlier = before[key];
		if (earlier !== undefined && VERSION_KEYS[key] > version) form = { ...form, ...earlier };
	}
	return form;
}

/** Whether the node runs version 1, the behaviour of workflows saved before version 1.1. */
export function isVersion1(node: Pick<INode, 'typeVersion'>): boolean {
	return !has(node, 'summaries');
}
