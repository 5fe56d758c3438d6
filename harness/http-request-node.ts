/**
 * n8n's own HTTP Request node (from n8n-nodes-base), if it is installed, registered in the
 * harness's node registry so it runs in the same engine as the package's nodes.
 */
import { resolve } from 'path';

import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

import type { Registry } from './registry';

export const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';
const HTTP_REQUEST_MODULE = 'n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js';
const REPO_ROOT = resolve(__dirname, '..');

export interface HttpRequestNodeInfo {
	available: boolean;
	/** Why it is not available. */
	reason?: string;
	/** n8n-nodes-base's version, when available. */
	version?: string;
}

/** Whether n8n-nodes-base can be loaded from the repo, without loading it. */
export function httpRequestNodeInfo(): HttpRequestNodeInfo {
	try {
		require.resolve(HTTP_REQUEST_MODULE, { paths: [REPO_ROOT] });
	} catch {
		return { available: false, reason: 'n8n-nodes-base is not installed (it is an optional devDependency of the bench)' };
	}
	try {
		const packageJson = require.resolve('n8n-nodes-base/package.json', { paths: [REPO_ROOT] });
		const { version } = require(packageJson) as { version: string };
		return { available: true, version };
	} catch (error) {
		return { available: false, reason: `n8n-nodes-base could not be read: ${String(error)}` };
	}
}

/** Loads the HTTP Request node and registers it; returns its current type version. */
export function registerHttpRequestNode(registry: Registry): number {
	const modulePath = require.resolve(HTTP_REQUEST_MODULE, { paths: [REPO_ROOT] });
	const { HttpRequest } = require(modulePath) as { HttpRequest: new () => IVersionedNodeType | INodeType };
	const type = new HttpRequest();
	registry.nodeTypes.register(HTTP_REQUEST_TYPE, type, modulePath);
	return 'nodeVersions' in type ? type.currentVersion : (type.description.version as number);
}
