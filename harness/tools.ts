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
import { NodeConnectionTypes, NodeHelpers, deepCopy } from 'n8n-workflow';

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
	/** The node's version; the version the editor gives a new node when absent. */
	typeVersion?: number;
	parameters: INodeParameters;
}

/** The tool copy's description of a package node, as the registry has it. */
function toolTypeDescription(registry: Registry, node: string, typeVersion?: number): { type: string; typeVersion: number; description: INodeTypeDescription } {
	const type = `${registry.packageName}.${node}Tool`;
	const base = registry.nodeTypes.getByName(type).description as INodeTypeDescription;
	const version = typeVersion ?? base.defaultVersion ?? (Array.isArray(base.version) ? Math.max(...base.version) : base.version);
	return { type, typeVersion: version, description: registry.nodeTypes.getByNameAndVersion(type, version).description };
}

/**
 * A tool node exactly as the editor adds it from an AI agent's tool connector with an action picked:
 * the node creator sets resource and operation, the editor fills in the defaults
 * (getNodeParameters with defaults), saves what differs from them (without), names the node
 * (makeNodeName: "<action> in <defaults.name>"); the Workflow fills the defaults in again when it runs.
 */
export function toolAsTheEditorAddsIt(registry: Registry, node: string, action: { resource: string; operation: string }, typeVersion?: number): ToolSpec & { typeVersion: number } {
	const { typeVersion: version, description } = toolTypeDescription(registry, node, typeVersion);
	const stub = { typeVersion: version, parameters: {} } as unknown as INode;
	const shown = NodeHelpers.getNodeParameters(description.properties, { ...action }, true, false, stub, description) ?? {};
	const saved = NodeHelpers.getNodeParameters(description.properties, shown, false, false, stub, description) ?? {};
	return { name: NodeHelpers.makeNodeName(shown, description), node, typeVersion: version, parameters: saved };
}

/** What the model is told about one argument (n8n-core's zod schema, read by the harness agent). */
export interface ToolArgumentSchema {
	type: string;
	required: boolean;
	default?: unknown;
	description: string;
}

/** A tool as the agent lists it. */
export interface ListedTool {
	name: string;
	description: string;
	arguments: string[];
	schema: Record<string, ToolArgumentSchema>;
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
): Promise<{ tools: ListedTool[]; answers: IDataObject[]; error?: unknown }> {
	const nodes: INode[] = [
		{ id: randomUUID(), name: 'Start', type: START_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: { items: '[{}]' } },
		{ id: randomUUID(), name: 'Agent', type: AGENT_TYPE, typeVersion: 1, position: [200, 0], parameters: { calls: JSON.stringify(calls) } },
		...tools.map((tool, index) => ({
			id: randomUUID(),
			name: tool.name,
			type: `${registry.packageName}.${tool.node}Tool`,
			typeVersion: toolTypeDescription(registry, tool.node, tool.typeVersion).typeVersion,
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
	const listed = (items[0]?.tools ?? []) as unknown as ListedTool[];
	return { tools: listed, answers: items.slice(1), error: result.error };
}
