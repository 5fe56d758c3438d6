/**
 * The action nodes' versions, read by the editor's parameters (description/versions.ts) and by the
 * behaviour that differs at run time (execution/), so both stand on this one definition.
 */
import type { INode } from 'n8n-workflow';

/** The versions of the action nodes; the editor gives a new node the last one. */
export const NODE_VERSIONS = [1, 1.1];

/**
 * The newest version, what the editor gives a new node. An operation added since the last release
 * exists from it (a catalogue row's `since`), so it follows when a version is added before the
 * release; once released, the row says its number.
 */
export const NEWEST_VERSION = NODE_VERSIONS[NODE_VERSIONS.length - 1];

/** Whether a node of this version has the operation (a catalogue row's `since`). */
export function hasOperation(node: Pick<INode, 'typeVersion'>, operation: { since?: number }): boolean {
	return operation.since === undefined || node.typeVersion >= operation.since;
}

/** Whether the node runs version 1, the behaviour of workflows saved before version 1.1. */
export function isVersion1(node: Pick<INode, 'typeVersion'>): boolean {
	return node.typeVersion < 1.1;
}
