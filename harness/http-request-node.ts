/**
 * n8n's own HTTP Request node (from n8n-nodes-base), registered in the harness's node registry so it
 * runs in the same engine as the package's nodes: the engine tests of the Custom API Call
 * (test/engine/custom-api-call.test.ts) and the bench's HTTP Request rows.
 *
 * n8n-nodes-base is about 800 MB with its dependencies, so it is not a devDependency: the first run
 * that needs it installs it into the e2e cache, outside the repository
 * (`<cache>/n8n-nodes-base-<version>/`, see scripts/e2e/install.ts; `$LOAN_CRM_E2E_CACHE` moves it),
 * and says so. Without it (no registry, say) the bench marks those rows "not measured" and the
 * Custom API Call engine tests fail, saying why.
 */
import { join, resolve } from 'path';

import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

import { cachedPackages, ensureCachedPackages } from '../scripts/e2e/install';
import type { Registry } from './registry';

export const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';
const HTTP_REQUEST_MODULE = 'n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js';
/** The n8n-nodes-base release that goes with the n8n-core devDependency: bump them together. */
export const N8N_NODES_BASE_VERSION = '2.41.1';
const CACHE_PART = `n8n-nodes-base-${N8N_NODES_BASE_VERSION}`;
const MANIFEST = {
	name: 'loan-crm-bench-http-request-node',
	private: true,
	description: "n8n's HTTP Request node (n8n-nodes-base) for n8n-nodes-loan-crm's npm run bench (generated, safe to delete)",
	dependencies: { 'n8n-nodes-base': N8N_NODES_BASE_VERSION },
};
const REPO_ROOT = resolve(__dirname, '..');
/** Why the last install attempt failed, for the report. */
let installFailure: string | undefined;

export interface HttpRequestNodeInfo {
	available: boolean;
	/** Why it is not available. */
	reason?: string;
	/** n8n-nodes-base's version, when available. */
	version?: string;
}

/**
 * Installs n8n-nodes-base into the cache unless it is there (once, under the cache's lock, with a
 * line saying so). Never throws: an install that fails leaves the HTTP Request rows unmeasured.
 */
export async function prepareHttpRequestNode(): Promise<HttpRequestNodeInfo> {
	if (cachedPackages(CACHE_PART, MANIFEST) === undefined) {
		console.error(
			`n8n's HTTP Request node is not in the cache yet; installing n8n-nodes-base@${N8N_NODES_BASE_VERSION} (about 800 MB with its dependencies, once) into ${CACHE_PART} of the e2e cache`,
		);
		try {
			await ensureCachedPackages(CACHE_PART, MANIFEST, {
				what: `n8n-nodes-base@${N8N_NODES_BASE_VERSION} (n8n's HTTP Request node, for the engine tests and the bench)`,
				npmFlags: ['--legacy-peer-deps'],
				timeoutMs: 15 * 60_000,
				verify: async (dir) => {
					require.resolve(HTTP_REQUEST_MODULE, { paths: [dir] });
					return { 'n8n-nodes-base': N8N_NODES_BASE_VERSION };
				},
			});
		} catch (error) {
			installFailure = `n8n-nodes-base could not be installed: ${String(error).split('\n')[0]}`;
		}
	}
	return httpRequestNodeInfo();
}

/** The folder n8n-nodes-base is installed in (`<dir>/node_modules/n8n-nodes-base`), once prepared. */
export function n8nNodesBaseDir(): string | undefined {
	return cachedPackages(CACHE_PART, MANIFEST);
}

/** Whether the HTTP Request node is installed in the cache, without loading or installing it. */
export function httpRequestNodeInfo(): HttpRequestNodeInfo {
	const dir = cachedPackages(CACHE_PART, MANIFEST);
	if (dir === undefined) return { available: false, reason: installFailure ?? `n8n-nodes-base@${N8N_NODES_BASE_VERSION} is not installed in the cache` };
	return { available: true, version: N8N_NODES_BASE_VERSION };
}

/**
 * Loads the HTTP Request node from the cache and registers it; returns its current type version.
 * The node's own `n8n-workflow` import is pointed at the repository's copy, the one the engine runs
 * with, so both share one module (error classes, constants), as they did when it was a devDependency.
 */
export function registerHttpRequestNode(registry: Registry): number {
	const dir = cachedPackages(CACHE_PART, MANIFEST);
	if (dir === undefined) throw new Error(`n8n-nodes-base@${N8N_NODES_BASE_VERSION} is not installed in the cache (prepareHttpRequestNode installs it)`);
	shareModule('n8n-workflow', join(dir, 'node_modules'));
	const modulePath = require.resolve(HTTP_REQUEST_MODULE, { paths: [dir] });
	const { HttpRequest } = require(modulePath) as { HttpRequest: new () => IVersionedNodeType | INodeType };
	const type = new HttpRequest();
	registry.nodeTypes.register(HTTP_REQUEST_TYPE, type, modulePath);
	return 'nodeVersions' in type ? type.currentVersion : (type.description.version as number);
}

type ResolveFilename = (request: string, parent: unknown, isMain: boolean, options?: { paths?: string[] }) => string;
const shared = new Set<string>();

/** Makes `require(name)` (and `name/…`) in files under `folder` resolve from the repository. */
function shareModule(name: string, folder: string): void {
	if (shared.has(`${name}\0${folder}`)) return;
	shared.add(`${name}\0${folder}`);
	const Module = require('module') as { _resolveFilename: ResolveFilename };
	const resolveFilename = Module._resolveFilename;
	Module._resolveFilename = function (request, parent, isMain, options) {
		const from = (parent as { filename?: string } | undefined)?.filename;
		if ((request === name || request.startsWith(`${name}/`)) && from?.startsWith(folder)) {
			return resolveFilename.call(this, request, parent, isMain, { paths: [REPO_ROOT] });
		}
		return resolveFilename.call(this, request, parent, isMain, options);
	};
}
