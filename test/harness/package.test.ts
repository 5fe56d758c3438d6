/*
 * Packaging check: loads the BUILT package (dist/, from `npm run build`) the way n8n loads an
 * installed community package — n8n-core's PackageDirectoryLoader on the package root, which reads
 * the package.json `n8n` block — and checks that every listed credential and node loads, with
 * file icons that resolve to files inside dist/.
 */
import { existsSync } from 'fs';
import { resolve } from 'path';

import '../../harness/env';
import { PackageDirectoryLoader } from 'n8n-core';
import type { ICredentialType, INodeType, INodeTypeDescription, IVersionedNodeType } from 'n8n-workflow';

import { REPO_ROOT, readPackageJson, sourcePathFor } from '../../harness/package-source';

const pkg = readPackageJson();
const listedNodes = pkg.n8n?.nodes ?? [];
const listedCredentials = pkg.n8n?.credentials ?? [];
const missingBuild = [...listedNodes, ...listedCredentials].filter((p) => !existsSync(resolve(REPO_ROOT, p)));

type IconUrl = string | { light: string; dark: string } | undefined;

/** `icons/<package>/dist/icons/x.svg` → absolute path of the file in the package. */
function iconFiles(iconUrl: IconUrl): string[] {
	if (iconUrl === undefined) return [];
	const urls = typeof iconUrl === 'string' ? [iconUrl] : [iconUrl.light, iconUrl.dark];
	const prefix = `icons/${pkg.name}/`;
	return urls.map((url) => {
		expect(url.startsWith(prefix)).toBe(true);
		return resolve(REPO_ROOT, url.slice(prefix.length));
	});
}

function expectIcon(what: string, owner: { icon?: unknown; iconUrl?: IconUrl }) {
	// fixIconPaths turns every `file:` icon into an iconUrl; a remaining icon must be fa:/node:.
	if (owner.icon !== undefined) {
		expect({ what, icon: owner.icon }).toEqual({ what, icon: expect.stringMatching(/^(fa|node):/) });
		return;
	}
	const files = iconFiles(owner.iconUrl);
	expect({ what, hasIcon: files.length > 0 }).toEqual({ what, hasIcon: true });
	for (const file of files) {
		expect({ what, file, exists: existsSync(file) }).toEqual({ what, file, exists: true });
		expect({ what, file, inDist: file.startsWith(resolve(REPO_ROOT, 'dist') + '/') }).toEqual({
			what,
			file,
			inDist: true,
		});
	}
}

describe('built package loaded by n8n-core PackageDirectoryLoader', () => {
	let loader: PackageDirectoryLoader;

	beforeAll(async () => {
		if (missingBuild.length > 0) {
			throw new Error(
				`dist/ is missing ${missingBuild.join(', ')}: run \`npm run build\` before this test (npm test does).`,
			);
		}
		loader = new PackageDirectoryLoader(REPO_ROOT);
		await loader.loadAll();
	});

	it('has a valid n8n block', () => {
		expect(pkg.n8n?.n8nNodesApiVersion).toBe(1);
		expect(listedCredentials.length).toBeGreaterThan(0);
		expect(listedNodes.length).toBeGreaterThan(0);
		for (const p of [...listedNodes, ...listedCredentials]) expect(p).toMatch(/^dist\//);
		expect(loader.packageName).toBe(pkg.name);
	});

	it('loads every listed credential, with its icons in dist', () => {
		const loaded = Object.values(loader.known.credentials).map((c) => c.sourcePath);
		expect(loaded.sort()).toEqual([...listedCredentials].sort());
		for (const name of Object.keys(loader.known.credentials)) {
			const credential = loader.getCredential(name).type as ICredentialType & { iconUrl?: IconUrl };
			expectIcon(`credential ${name}`, credential);
		}
		expect(Object.keys(loader.known.credentials)).toContain('loanCrmOAuth2Api');
	});

	it('loads every listed node, with its icons in dist and the credential it uses', () => {
		const loaded = Object.values(loader.known.nodes).map((n) => n.sourcePath);
		expect(loaded.sort()).toEqual([...listedNodes].sort());
		for (const name of Object.keys(loader.known.nodes)) {
			const type = loader.getNode(name).type as INodeType | IVersionedNodeType;
			const descriptions: INodeTypeDescription[] =
				'nodeVersions' in type
					? Object.values(type.nodeVersions).map((v) => v.description)
					: [type.description];
			for (const description of descriptions) {
				expectIcon(`node ${name}`, description as INodeTypeDescription & { iconUrl?: IconUrl });
				for (const credential of description.credentials ?? []) {
					expect(Object.keys(loader.known.credentials)).toContain(credential.name);
				}
			}
		}
		// Codex files (.node.json) are shipped next to the compiled nodes and picked up.
		for (const [name, { sourcePath }] of Object.entries(loader.known.nodes)) {
			const codexSource = sourcePathFor(sourcePath).replace(/\.ts$/, '.json');
			if (!existsSync(codexSource)) continue;
			expect({ name, codexInDist: existsSync(resolve(REPO_ROOT, `${sourcePath}on`)) }).toEqual({
				name,
				codexInDist: true,
			});
			expect(loader.getNode(name).type.description.codex?.categories?.length).toBeGreaterThan(0);
		}
		// Every node using the credential is recorded as supporting it.
		const supported = loader.known.credentials.loanCrmOAuth2Api?.supportedNodes ?? [];
		expect(supported.length).toBeGreaterThan(0);
	});

	it('exposes the node descriptions n8n sends to the editor', () => {
		expect(loader.types.nodes.length).toBeGreaterThanOrEqual(listedNodes.length);
		expect(loader.types.credentials.map((c) => c.name)).toContain('loanCrmOAuth2Api');
	});
});
