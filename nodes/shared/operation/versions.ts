/**
 * The action nodes' versions, read by the editor's parameters (description/versions.ts) and by the
 * behaviour that differs at run time (execution/), so both stand on this one definition.
 */
import type { INode } from 'n8n-workflow';

/** The versions of the action nodes; the editor gives a new node the last one. */
export const NODE_VERSIONS = [1, 1.1];

/** Whether the node runs version 1, the behaviour of workflows saved before version 1.1. */
export function isVersion1(node: Pick<INode, 'typeVersion'>): boolean {
	return node.typeVersion < 1.1;
}
