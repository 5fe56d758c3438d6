/**
 * n8n's own flow nodes from n8n-nodes-base (a devDependency, as for the HTTP Request node in
 * http-request-node.ts), registered in the harness's registry so an example that routes items runs
 * in the same engine as the package's nodes: the Switch and Edit Fields (Set) of
 * examples/lead-routing.json, in `npm run demo` and the engine tests.
 */
import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

import type { Registry } from './registry';

/** The n8n-nodes-base nodes the examples route with: type → module and class. */
const BASE_NODES = {
	'n8n-nodes-base.switch': { module: 'n8n-nodes-base/dist/nodes/Switch/Switch.node.js', className: 'Switch' },
	'n8n-nodes-base.set': { module: 'n8n-nodes-base/dist/nodes/Set/Set.node.js', className: 'Set' },
} as const;

export type BaseNodeType = keyof typeof BASE_NODES;

/** Registers n8n-nodes-base's Switch and Edit Fields (Set) nodes (every version of each); returns their types. */
export function registerFlowNodes(registry: Registry): BaseNodeType[] {
	const types = Object.keys(BASE_NODES) as BaseNodeType[];
	for (const type of types) {
		const { module, className } = BASE_NODES[type];
		const modulePath = require.resolve(module);
		const NodeClass = (require(modulePath) as Record<string, new () => IVersionedNodeType | INodeType>)[className];
		registry.nodeTypes.register(type, new NodeClass(), modulePath);
	}
	return types;
}
