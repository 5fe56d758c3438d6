/*
 * The package's nodes as AI tools in the engine, as n8n's CLI registers them: for every node with
 * `usableAsTool`, a `<name>Tool` copy (mirrors packages/cli createAiTools + convertNodeToAiTool of
 * n8n 2.30/2.41: replacements applied, name + 'Tool', inputs [], outputs [ai_tool], Tool Description
 * parameters added unless the node has its own toolDescription) that runs the node's own execute;
 * plus the harness agent (fixtures/HarnessAgent.node.ts), which calls them through n8n-core.
 */
import { randomUUID } from 'crypto';
import { resolve } from 'path';

import type { IConnections, IDataObject, INode, INodeParameters, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, deepCopy } from 'n8n-workflow';

import { instantiate } from './package-source';
import type { Registry } from './registry';
import { HARNESS_PACKAGE, createRegistry } from './registry';
import type { CredentialStore } from './credentials';
import { START_NODE_TYPE, runWorkflow } from './run';

/** packages/cli/src/tool-generation/convert-node-to-ai-tool.ts (description part). */
export function toolDescriptionFor(base: INodeTypeDescription): INodeTypeDescription {
	const replacements = typeof base.usableAsTool === 'object' ? base.usableAsTool.replacements : undefined;
	const description = { ...deepCopy(base), ...replacements } as INodeTypeDescription;
	description.name += 'Tool';
	description.inputs = [];
	description.outputs = [NodeConnectionTypes.AiTool];
	description.displayName += ' Tool';
	delete description.usableAsTool;
	if (!description.properties.some((property) => property.name === 'toolDescription')) {
		const descriptionProperty: INodeProperties = {
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: description.description,
			required: true,
			typeOptions: { rows: 2 },
			displayOptions: { show: { descriptionType: ['manual'] } },
		};
		const descriptionType: INodeProperties = {
			displayName: 'Tool Description',
			name: 'descriptionType',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Set Automatically', value: 'auto' },
				{ name: 'Set Manually', value: 'manual' },
			],
			default: 'auto',
		};
		description.properties.unshift(descriptionType, descriptionProperty);
	}
	description.codex = { categories: ['AI'], subcategories: { AI: ['Tools'], Tools: ['Other Tools'] } };
	return description;
}

export const AGENT_TYPE = `${HARNESS_PACKAGE}.harnessAgent`;

/** A registry with the package's tool copies and the harness agent. */
export function createToolRegistry(): Registry {
	const registry = createRegistry();
	for (const node of registry.source.nodes) {
		const type = node.type as INodeType;
		if (!type.description?.usableAsTool) continue;
		const tool = Object.create(type, { description: { value: toolDescriptionFor(type.description) } }) as INodeType;
		registry.nodeTypes.register(`${registry.packageName}.${type.description.name}Tool`, tool, node.sourcePath);
	}
	const agentPath = resolve(__dirname, 'fixtures', 'HarnessAgent.node.ts');
	registry.nodeTypes.register(AGENT_TYPE, instantiate<INodeType>(agentPath), agentPath);
	return registry;
}

export interface ToolSpec {
	/** Node name; n8n makes the tool name from it (spaces → underscores). */
	name: string;
	/** Package node name, e.g. loanCrmDeals. */
	node: string;
	parameters: INodeParameters;
}

export interface AgentCall {
	tool: string;
	args: IDataObject;
}

/** Runs the harness agent with the given tools attached and returns its items' json. */
export async function runAgent(
	registry: Registry,
	credentials: CredentialStore,
	tools: ToolSpec[],
	calls: AgentCall[],
): Promise<{ tools: Array<{ name: string; description: string; arguments: string[] }>; answers: IDataObject[]; error?: unknown }> {
	const nodes: INode[] = [
		{ id: randomUUID(), name: 'Start', type: START_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: { items: '[{}]' } },
		{ id: randomUUID(), name: 'Agent', type: AGENT_TYPE, typeVersion: 1, position: [200, 0], parameters: { calls: JSON.stringify(calls) } },
		...tools.map((tool, index) => ({
			id: randomUUID(),
			name: tool.name,
			type: `${registry.packageName}.${tool.node}Tool`,
			typeVersion: 1,
			position: [200 + index * 100, 200] as [number, number],
			parameters: tool.parameters,
		})),
	];
	const connections: IConnections = {
		Start: { main: [[{ node: 'Agent', type: NodeConnectionTypes.Main, index: 0 }]] },
	};
	for (const tool of tools) connections[tool.name] = { ai_tool: [[{ node: 'Agent', type: NodeConnectionTypes.AiTool, index: 0 }]] };
	const result = await runWorkflow({ nodes, connections }, { credentials, startNode: 'Start', registry });
	const items = result.output('Agent').map((item) => item.json);
	const listed = (items[0]?.tools ?? []) as Array<{ name: string; description: string; arguments: string[] }>;
	return { tools: listed, answers: items.slice(1), error: result.error };
}
