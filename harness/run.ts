/*
 * Running nodes through n8n-core's real engine:
 *   - runWorkflow / runNode: `new WorkflowExecute(additionalData, 'manual').run({ workflow, startNode })`
 *     with execution order v1, as a manual execution in the editor.
 *   - runPoll: mode 'trigger' runs the poll the way an active workflow's poller does
 *     (PollTriggerExecutor → TriggersAndPollers.runPollFunction with a PollContext in 'trigger'
 *     mode), with the node's static data backed by the caller's object; mode 'manual' runs the
 *     poll node through WorkflowExecute like "Fetch Test Event" (n8n does not save static data
 *     for manual executions, so the caller's object is left untouched).
 *     With `abandonWhen`, the poll is cut off when that promise settles, the way n8n 2.41's
 *     durable scheduler abandons a poll that outlives N8N_SCHEDULER_POLL_TIMEOUT (or a killed
 *     process loses one): the poll works on a copy of the static data (n8n's staged cursor), which
 *     reaches the caller's object only if the poll finishes first; runPoll then rejects with
 *     `PollAbandoned`, whose `settled` is the abandoned poll running on in the background.
 */
import './env';

import { randomUUID } from 'crypto';

import { Container } from '@n8n/di';
import { PollContext, TriggersAndPollers, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionError,
	ICredentialDataDecryptedObject,
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	IVersionedNodeType,
	IWorkflowBase,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeConnectionTypes, Workflow, deepCopy } from 'n8n-workflow';

import { createAdditionalData } from './additional-data';
import { CredentialStore } from './credentials';
import type { Registry } from './registry';
import { HARNESS_PACKAGE, defaultRegistry } from './registry';

export type CredentialsInput =
	| CredentialStore
	/** One credential's data, for the loanCrmOAuth2Api type. */
	| ICredentialDataDecryptedObject;

export type WorkflowCredentialsInput =
	| CredentialStore
	/** Credential data by credential type, e.g. `{ loanCrmOAuth2Api: sandboxCredential(sb) }`. */
	| Record<string, ICredentialDataDecryptedObject>;

export const DEFAULT_CREDENTIAL_TYPE = 'loanCrmOAuth2Api';
export const START_NODE_TYPE = `${HARNESS_PACKAGE}.harnessStart`;

function toStore(credentials: CredentialsInput | undefined): CredentialStore {
	if (credentials instanceof CredentialStore) return credentials;
	const store = new CredentialStore();
	if (credentials !== undefined) store.add(DEFAULT_CREDENTIAL_TYPE, credentials);
	return store;
}

function toWorkflowStore(credentials: WorkflowCredentialsInput | undefined): CredentialStore {
	if (credentials instanceof CredentialStore) return credentials;
	const store = new CredentialStore();
	for (const [type, data] of Object.entries(credentials ?? {})) store.add(type, data);
	return store;
}

/** The version the editor gives a new node: the current version of a versioned type, else the latest. */
function latestVersion(type: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in type) return type.currentVersion;
	const { version } = type.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

/** The full type, version and default node name the editor would give a new node of this type. */
function resolveNodeType(registry: Registry, nodeType: string, version?: number): { type: string; typeVersion: number; nodeName: string } {
	const type = registry.nodeTypes.resolve(nodeType);
	const typeVersion = version ?? latestVersion(registry.nodeTypes.getByName(type));
	const description = registry.nodeTypes.getByNameAndVersion(type, typeVersion).description;
	return { type, typeVersion, nodeName: description.defaults?.name ?? description.displayName };
}

/** Gives every node without credentials the store's first record of each type its node type declares. */
function bindCredentials(nodes: INode[], store: CredentialStore, registry: Registry): void {
	for (const node of nodes) {
		if (node.credentials && Object.keys(node.credentials).length > 0) continue;
		if (!registry.nodeTypes.has(node.type)) continue;
		const nodeType = registry.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		for (const { name } of nodeType.description.credentials ?? []) {
			const record = store.firstOfType(name);
			if (!record) continue;
			node.credentials = { ...(node.credentials ?? {}), [name]: { id: record.id, name: record.name } };
		}
	}
}

function workflowData(id: string, nodes: INode[], connections: IConnections): IWorkflowBase {
	const now = new Date();
	return {
		id,
		name: 'Harness workflow',
		active: false,
		isArchived: false,
		createdAt: now,
		updatedAt: now,
		nodes,
		connections,
		activeVersionId: null,
	};
}

export interface WorkflowRunResult {
	run: IRun;
	/** Items of a node's output (default the first output) from its last run; [] if it did not run. */
	output(nodeName: string, outputIndex?: number): INodeExecutionData[];
	/** The execution's error, if a node failed. */
	error?: ExecutionError;
	credentials: CredentialStore;
	workflow: Workflow;
}

export async function runWorkflow(
	definition: { nodes: INode[]; connections: IConnections; staticData?: IDataObject },
	opts: {
		credentials?: WorkflowCredentialsInput;
		startNode?: string;
		mode?: WorkflowExecuteMode;
		registry?: Registry;
	} = {},
): Promise<WorkflowRunResult> {
	const registry = opts.registry ?? defaultRegistry();
	const store = toWorkflowStore(opts.credentials);
	const nodes = deepCopy(definition.nodes).map((node) => ({ ...node, id: node.id ?? randomUUID() }));
	bindCredentials(nodes, store, registry);
	const workflowId = randomUUID();
	const workflow = new Workflow({
		id: workflowId,
		name: 'Harness workflow',
		nodes,
		connections: definition.connections,
		active: false,
		nodeTypes: registry.nodeTypes,
		staticData: definition.staticData,
		settings: { executionOrder: 'v1' },
	});
	const startName =
		opts.startNode ??
		nodes.find((node) => workflow.getParentNodes(node.name, NodeConnectionTypes.Main, 1).length === 0)?.name;
	const startNode = startName !== undefined ? workflow.getNode(startName) : null;
	if (!startNode) throw new Error('runWorkflow: no start node found');
	const mode = opts.mode ?? 'manual';
	const executionId = randomUUID();
	const additionalData = createAdditionalData(store, {
		executionId,
		workflowId,
		mode,
		workflowData: workflowData(workflowId, nodes, definition.connections),
	});
	const run = await new WorkflowExecute(additionalData, mode).run({ workflow, startNode });
	const runData = run.data.resultData.runData;
	return {
		run,
		output(nodeName, outputIndex = 0) {
			const tasks = runData[nodeName];
			const last = tasks?.[tasks.length - 1];
			return last?.data?.[NodeConnectionTypes.Main]?.[outputIndex] ?? [];
		},
		error: run.data.resultData.error,
		credentials: store,
		workflow,
	};
}

export interface RunResult {
	/** The node's first output. */
	items: INodeExecutionData[];
	/** The run's error, if the node failed. */
	error?: ExecutionError;
	run: IRun;
	/** The node's name in the workflow. */
	nodeName: string;
	/** Where the credential lives (the one passed in, or a fresh store). */
	credentials: CredentialStore;
}

export async function runNode(opts: {
	/** Package node name, e.g. 'loanCrmDeals', a harness node name, or a full type. */
	nodeType: string;
	parameters: INodeParameters;
	credentials?: CredentialsInput;
	/** Items fed in by the harness's start node (default [{}]). */
	input?: IDataObject[];
	/** Sets the node's onError to continueRegularOutput. */
	continueOnFail?: boolean;
	typeVersion?: number;
	/** Extra node settings (retryOnFail, alwaysOutputData, …). */
	node?: Partial<INode>;
	registry?: Registry;
}): Promise<RunResult> {
	const registry = opts.registry ?? defaultRegistry();
	const { type, typeVersion, nodeName } = resolveNodeType(registry, opts.nodeType, opts.typeVersion);
	const store = toStore(opts.credentials);
	const nodes: INode[] = [
		{
			id: randomUUID(),
			name: 'Start',
			type: START_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: JSON.stringify(opts.input ?? [{}]) },
		},
		{
			id: randomUUID(),
			name: nodeName,
			type,
			typeVersion,
			position: [200, 0],
			parameters: opts.parameters,
			...(opts.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
			...opts.node,
		},
	];
	const connections: IConnections = {
		Start: { main: [[{ node: nodeName, type: NodeConnectionTypes.Main, index: 0 }]] },
	};
	const result = await runWorkflow(
		{ nodes, connections },
		{ credentials: store, startNode: 'Start', registry },
	);
	return {
		items: result.output(nodeName),
		error: result.error,
		run: result.run,
		nodeName,
		credentials: store,
	};
}

/** A trigger-mode poll cut off by `abandonWhen`; `settled` follows the poll that runs on. */
export class PollAbandoned extends Error {
	constructor(readonly settled: Promise<unknown>) {
		super('poll abandoned (cut off before it finished)');
		this.name = 'PollAbandoned';
	}
}

export async function runPoll(opts: {
	nodeType: string;
	parameters: INodeParameters;
	credentials?: CredentialsInput;
	/** The node's static data; mutated in place by trigger-mode polls (keep it between calls). */
	staticData?: IDataObject;
	mode?: 'trigger' | 'manual';
	typeVersion?: number;
	registry?: Registry;
	/** Trigger mode: cut the poll off when this settles (see the file header). */
	abandonWhen?: Promise<unknown>;
	/** The workflow's and the node's ids, kept across polls as n8n keeps them (default: fresh ones each poll). */
	ids?: { workflowId: string; nodeId: string };
}): Promise<INodeExecutionData[][] | null> {
	const registry = opts.registry ?? defaultRegistry();
	const { type, typeVersion, nodeName } = resolveNodeType(registry, opts.nodeType, opts.typeVersion);
	const store = toStore(opts.credentials);
	const node: INode = {
		id: opts.ids?.nodeId ?? randomUUID(),
		name: nodeName,
		type,
		typeVersion,
		position: [0, 0],
		parameters: opts.parameters,
	};
	const mode = opts.mode ?? 'trigger';

	if (mode === 'manual') {
		const result = await runWorkflow(
			{ nodes: [node], connections: {}, staticData: { [`node:${nodeName}`]: deepCopy(opts.staticData ?? {}) } },
			{ credentials: store, startNode: nodeName, registry },
		);
		if (result.error) throw result.error;
		const tasks = result.run.data.resultData.runData[nodeName];
		const data = tasks?.[tasks.length - 1]?.data?.[NodeConnectionTypes.Main];
		return data && data.length > 0 ? (data as INodeExecutionData[][]) : null;
	}

	const nodes = [node];
	bindCredentials(nodes, store, registry);
	const workflowId = opts.ids?.workflowId ?? randomUUID();
	const callerState = opts.staticData ?? {};
	const staged = opts.abandonWhen === undefined ? callerState : deepCopy(callerState);
	const workflow = new Workflow({
		id: workflowId,
		name: 'Harness workflow',
		nodes,
		connections: {},
		active: true,
		nodeTypes: registry.nodeTypes,
		staticData: { [`node:${nodeName}`]: staged },
		settings: { executionOrder: 'v1' },
	});
	const additionalData = createAdditionalData(store, { workflowId, mode: 'trigger' });
	const pollFunctions = new PollContext(
		workflow,
		workflow.getNode(nodeName) as INode,
		additionalData,
		'trigger',
		'activate',
	);
	// PollTriggerExecutor (non-testing path): own the isolate, run the poll, hand back the response.
	await workflow.expression.acquireIsolate();
	const poll = Container.get(TriggersAndPollers)
		.runPollFunction(workflow, workflow.getNode(nodeName) as INode, pollFunctions)
		.finally(async () => await workflow.expression.releaseIsolate());
	if (opts.abandonWhen === undefined) return await poll;
	const cutOff = Symbol('cut off');
	const outcome = await Promise.race([poll, opts.abandonWhen.then(() => cutOff)]);
	if (outcome === cutOff) throw new PollAbandoned(poll.catch((error: unknown) => error));
	// Finished first: the staged state becomes the caller's (n8n commits the cursor).
	const finished = workflow.staticData[`node:${nodeName}`] as IDataObject;
	for (const key of Object.keys(callerState)) delete callerState[key];
	Object.assign(callerState, finished);
	return outcome as INodeExecutionData[][] | null;
}
