/*
 * The node and credential type registries the engine runs against:
 *   - the package's nodes and credentials, loaded from source through package.json (package-source.ts),
 *     typed `<package name>.<node name>` like n8n does for community packages;
 *   - the harness's own nodes (start node, test-only request node, …) under HARNESS_PACKAGE;
 *   - a NoOp node under `n8n-nodes-base.noOp`, which n8n's credential tester needs.
 * getByNameAndVersion mirrors n8n 2.41.3's packages/cli/src/node-types.ts (including giving
 * declarative nodes an `execute` that runs RoutingNode); AI-tool variants are not supported.
 */
import './env';

import { resolve } from 'path';

import { RoutingNode } from 'n8n-core';
import type {
	IExecuteFunctions,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
	KnownNodesAndCredentials,
} from 'n8n-workflow';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';

import { CredentialTypes } from './credential-types';
import type { PackageSource } from './package-source';
import { applySpecialNodeParameters, classNameFor, instantiate, loadPackageSource } from './package-source';

export const HARNESS_PACKAGE = 'n8n-nodes-loan-crm-harness';
export const NOOP_TYPE = 'n8n-nodes-base.noOp';

const FIXTURES = resolve(__dirname, 'fixtures');
const HARNESS_NODE_FILES = [
	'HarnessStart.node.ts',
	'HarnessPoll.node.ts',
	'HarnessThrow.node.ts',
	'LoanCrmTestRequest.node.ts',
];

/** packages/cli/src/utils.ts shouldAssignExecuteMethod */
function shouldAssignExecuteMethod(nodeType: INodeType): boolean {
	const isDeclarativeNode = nodeType?.description?.requestDefaults !== undefined;
	return (
		!nodeType.execute &&
		!nodeType.supplyData &&
		!nodeType.poll &&
		!nodeType.trigger &&
		(!nodeType.webhook || isDeclarativeNode) &&
		(!nodeType.methods || isDeclarativeNode)
	);
}

export interface HarnessNodeTypes extends INodeTypes {
	/** Full type names of every registered node. */
	list(): string[];
	has(type: string): boolean;
	/**
	 * Full type for a name: a full name is returned as is; a short name is looked up in the
	 * package first, then among the harness's nodes.
	 */
	resolve(name: string): string;
	register(fullType: string, type: INodeType | IVersionedNodeType, sourcePath?: string): void;
}

export interface Registry {
	packageName: string;
	source: PackageSource;
	nodeTypes: HarnessNodeTypes;
	credentialTypes: CredentialTypes;
}

export function createRegistry(): Registry {
	const source = loadPackageSource();
	const { packageName } = source;
	const nodes = new Map<string, { type: INodeType | IVersionedNodeType; sourcePath: string }>();

	const nodeTypes: HarnessNodeTypes = {
		list: () => [...nodes.keys()],
		has: (type) => nodes.has(type),
		resolve(name) {
			if (name.includes('.')) return name;
			for (const prefix of [packageName, HARNESS_PACKAGE]) {
				if (nodes.has(`${prefix}.${name}`)) return `${prefix}.${name}`;
			}
			return `${packageName}.${name}`;
		},
		register(fullType, type, sourcePath = '') {
			nodes.set(fullType, { type, sourcePath });
		},
		getByName(nodeType) {
			const entry = nodes.get(nodeType);
			if (!entry) throw new UnexpectedError(`Unrecognized node type: ${nodeType}`);
			return entry.type;
		},
		getByNameAndVersion(nodeType, version) {
			const entry = nodes.get(nodeType);
			if (!entry) throw new UnexpectedError(`Unrecognized node type: ${nodeType}`);
			const versionedNodeType = NodeHelpers.getVersionedNodeType(entry.type, version);
			if (shouldAssignExecuteMethod(versionedNodeType)) {
				versionedNodeType.execute = async function (this: IExecuteFunctions) {
					const routingNode = new RoutingNode(this as ConstructorParameters<typeof RoutingNode>[0], versionedNodeType);
					const data = await routingNode.runNode();
					return data ?? [];
				};
			}
			return versionedNodeType;
		},
		getKnownTypes() {
			const known: KnownNodesAndCredentials['nodes'] = {};
			for (const [type, { sourcePath }] of nodes) {
				known[type] = { className: classNameFor(sourcePath || type), sourcePath };
			}
			return known;
		},
	};

	for (const node of source.nodes) {
		nodeTypes.register(`${packageName}.${node.name}`, node.type, node.sourcePath);
	}
	for (const file of HARNESS_NODE_FILES) {
		const sourcePath = resolve(FIXTURES, file);
		const type = instantiate<INodeType>(sourcePath);
		applySpecialNodeParameters(type);
		nodeTypes.register(`${HARNESS_PACKAGE}.${type.description.name}`, type, sourcePath);
	}
	const noOpPath = resolve(FIXTURES, 'NoOp.node.ts');
	nodeTypes.register(NOOP_TYPE, instantiate<INodeType>(noOpPath), noOpPath);

	// Credential types, with supportedNodes inferred from the package's nodes
	// (PackageDirectoryLoader.inferSupportedNodes + LoadNodesAndCredentials prefixing).
	const credentialTypes = new CredentialTypes();
	for (const credential of source.credentials) {
		credentialTypes.register(credential.type);
	}
	for (const node of source.nodes) {
		const descriptions =
			'nodeVersions' in node.type
				? Object.values(node.type.nodeVersions).map((v) => v.description)
				: [node.type.description];
		for (const description of descriptions) {
			for (const credential of description.credentials ?? []) {
				credentialTypes.addSupportedNode(credential.name, `${packageName}.${node.name}`);
			}
		}
	}

	return { packageName, source, nodeTypes, credentialTypes };
}

let cached: Registry | undefined;

/** One registry per test file (jest gives each file its own module registry). */
export function defaultRegistry(): Registry {
	cached ??= createRegistry();
	return cached;
}
