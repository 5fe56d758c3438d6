/*
 * Loads the package's credentials and nodes from their TypeScript SOURCE, found through the
 * package.json `n8n` block (so the list itself is exercised): every `dist/<path>.js` entry maps to
 * `<path>.ts` at the repository root. The class is picked the way n8n-core's DirectoryLoader picks
 * it (the file name up to the first dot) and post-processed the way the loader and n8n's
 * LoadNodesAndCredentials do it (polling parameters, declarative request options, domain
 * restriction fields on credentials).
 */
import { existsSync, readFileSync } from 'fs';
import { parse, resolve } from 'path';

import { DirectoryLoader } from 'n8n-core';
import { commonPollingParameters } from 'n8n-core/dist/nodes-loader/constants';
import type { ICredentialType, INodeType, IVersionedNodeType } from 'n8n-workflow';
import { injectDomainRestrictionFields } from 'n8n-workflow';

export const REPO_ROOT = resolve(__dirname, '..');

export interface PackageJsonN8n {
	name: string;
	version: string;
	n8n?: { n8nNodesApiVersion?: number; strict?: boolean; credentials?: string[]; nodes?: string[] };
}

export function readPackageJson(root = REPO_ROOT): PackageJsonN8n {
	return JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as PackageJsonN8n;
}

/** `dist/nodes/X/X.node.js` → `<root>/nodes/X/X.node.ts`. */
export function sourcePathFor(distPath: string, root = REPO_ROOT): string {
	const withoutDist = distPath.replace(/^(\.\/)?dist\//, '');
	return resolve(root, withoutDist.replace(/\.js$/, '.ts'));
}

/** The class name n8n derives from a file path: `LoanCrmDeals.node.js` → `LoanCrmDeals`. */
export function classNameFor(filePath: string): string {
	return parse(filePath).name.split('.')[0];
}

export function instantiate<T>(filePath: string): T {
	const className = classNameFor(filePath);
	const moduleExports = require(filePath) as Record<string, new () => T>;
	const Class = moduleExports[className];
	if (typeof Class !== 'function') {
		throw new Error(`${filePath} does not export a class named ${className}`);
	}
	return new Class();
}

export interface LoadedNode {
	/** The short name from the description, e.g. `loanCrmDeals`. */
	name: string;
	type: INodeType | IVersionedNodeType;
	sourcePath: string;
}

export interface LoadedCredential {
	name: string;
	type: ICredentialType;
	sourcePath: string;
}

export interface PackageSource {
	packageName: string;
	nodes: LoadedNode[];
	credentials: LoadedCredential[];
	/** package.json entries whose source file does not exist (yet). */
	missing: string[];
}

/** DirectoryLoader.applySpecialNodeParameters (the parts that matter outside the editor). */
export function applySpecialNodeParameters(nodeType: INodeType): void {
	const { properties, polling } = nodeType.description;
	if (polling && !properties.some((p) => p.name === commonPollingParameters[0]?.name)) {
		properties.unshift(...commonPollingParameters);
	}
	DirectoryLoader.applyDeclarativeNodeOptionParameters(nodeType);
}

export function loadPackageSource(root = REPO_ROOT): PackageSource {
	const pkg = readPackageJson(root);
	const result: PackageSource = { packageName: pkg.name, nodes: [], credentials: [], missing: [] };
	for (const distPath of pkg.n8n?.nodes ?? []) {
		const sourcePath = sourcePathFor(distPath, root);
		if (!existsSync(sourcePath)) {
			result.missing.push(distPath);
			continue;
		}
		const type = instantiate<INodeType | IVersionedNodeType>(sourcePath);
		if ('nodeVersions' in type) {
			for (const version of Object.values(type.nodeVersions)) applySpecialNodeParameters(version);
		} else {
			applySpecialNodeParameters(type);
		}
		result.nodes.push({ name: type.description.name, type, sourcePath });
	}
	for (const distPath of pkg.n8n?.credentials ?? []) {
		const sourcePath = sourcePathFor(distPath, root);
		if (!existsSync(sourcePath)) {
			result.missing.push(distPath);
			continue;
		}
		const type = instantiate<ICredentialType>(sourcePath);
		// n8n's LoadNodesAndCredentials.postProcessLoaders adds the domain restriction fields.
		type.properties = injectDomainRestrictionFields(type);
		result.credentials.push({ name: type.name, type, sourcePath });
	}
	return result;
}
