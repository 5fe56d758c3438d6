/**
 * n8n's own HTTP Request node (from n8n-nodes-base), registered in the harness's node registry so it
 * runs in the same engine as the package's nodes: the engine tests of the Custom API Call
 * (test/engine/custom-api-call.test.ts), the examples' node-type checks (test/unit/dev-examples.test.ts)
 * and the bench's HTTP Request rows.
 *
 * n8n-nodes-base is a devDependency pinned in package-lock.json, so `npm ci` installs it and every
 * machine runs the same node: no test installs anything at run time or depends on a cache.
 * Bump it together with n8n-core (test/release/dev-dependencies.test.ts checks they match).
 */
import { dirname } from 'path';

import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

import type { Registry } from './registry';

export const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';
const HTTP_REQUEST_MODULE = 'n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js';

export interface HttpRequestNodeInfo {
	available: boolean;
	/** Why it is not available. */
	reason?: string;
	/** n8n-nodes-base's version, when available. */
	version?: string;
}

/** Whether n8n-nodes-base is installed (by `npm ci`), and which version. */
export function httpRequestNodeInfo(): HttpRequestNodeInfo {
	try {
		const { version } = require('n8n-nodes-base/package.json') as { version: string };
		return { available: true, version };
	} catch {
		return { available: false, reason: 'n8n-nodes-base is not installed: run `npm ci` (it is a devDependency)' };
	}
}

/** The folder n8n-nodes-base's package sits in (`<dir>/node_modules/n8n-nodes-base`). */
export function n8nNodesBaseDir(): string {
	return dirname(dirname(dirname(require.resolve('n8n-nodes-base/package.json'))));
}

/** Loads the HTTP Request node and registers it; returns its current type version. */
export function registerHttpRequestNode(registry: Registry): number {
	const modulePath = require.resolve(HTTP_REQUEST_MODULE);
	const { HttpRequest } = require(modulePath) as { HttpRequest: new () => IVersionedNodeType | INodeType };
	const type = new HttpRequest();
	registry.nodeTypes.register(HTTP_REQUEST_TYPE, type, modulePath);
	return 'nodeVersions' in type ? type.currentVersion : (type.description.version as number);
}
