/**
 * A tool run's output: a node runs as an agent's tool when n8n made the `…Tool` copy of it (see
 * description/toolDescription.ts for how n8n does that); its items are the node's own (Simplify
 * chooses the fields), compacted, because everything an agent receives is text it pays to read:
 * always from node version 1.1 on, unless version 1's Output says Full.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isVersion1 } from '../service/versions';

/** Whether the node runs as an agent's tool (its type is the `…Tool` copy n8n makes). */
export function isToolRun(context: Pick<IExecuteFunctions, 'getNode'>): boolean {
	return context.getNode().type.endsWith('Tool');
}

/**
 * A record without what tells an agent nothing: null members, empty objects and empty lists,
 * at every depth. Zero, false and empty text are values and stay.
 */
export function compactRecord(value: IDataObject): IDataObject {
	const result: IDataObject = {};
	for (const [key, member] of Object.entries(value)) {
		const compacted = compactValue(member);
		if (compacted !== undefined) result[key] = compacted as IDataObject[string];
	}
	return result;
}

function compactValue(value: unknown): unknown {
	if (value === null || value === undefined) return undefined;
	if (Array.isArray(value)) {
		const list = value.map(compactValue).filter((entry) => entry !== undefined);
		return list.length === 0 ? undefined : list;
	}
	if (typeof value === 'object') {
		const record = compactRecord(value as IDataObject);
		return Object.keys(record).length === 0 ? undefined : record;
	}
	return value;
}

export type AgentOutput = 'compact' | 'full';

/** How a tool run's output items are shaped: compact, unless a version 1 tool's Output says Full. */
export function agentOutputShaper(context: IExecuteFunctions, itemIndex: number): (json: IDataObject) => IDataObject {
	if (!isToolRun(context)) return (json) => json;
	if (!isVersion1(context.getNode())) return compactRecord;
	const output = context.getNodeParameter('agentOutput', itemIndex, 'compact') as AgentOutput;
	return output === 'full' ? (json) => json : compactRecord;
}
