/*
 * n8n's community node verification guidelines, each point a machine can check, proven on the packed
 * tarball (what npm would publish: `npm pack` of the build, unpacked as n8n's scanner unpacks it) and
 * on the sources. Quotes are from "Community node verification guidelines"
 * (docs.n8n.io/integrations/creating-nodes/build/reference/verification-guidelines, n8n-io/n8n-docs)
 * and, for the package shape, "Submit community nodes" and the package.json `n8n-node new` writes.
 *
 * Not machine-checkable, so not here: that the node is not an existing node nor a logic/flow node,
 * that the package integrates one service, that the npm maintainer matches the repository's owner,
 * that the repository is public, that the README is good. The README's "Verification" section lists
 * these checks; "Use the n8n-node tool" is test/release/n8n-lint.test.ts (strict mode, eligible).
 */
import { spawnSync } from 'child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join, relative, resolve } from 'path';

import ts from 'typescript';
import { parse } from 'yaml';

const ROOT = resolve(__dirname, '..', '..');

interface PackageJson {
	name: string;
	license: string;
	keywords: string[];
	homepage: string;
	author: { name: string; email: string };
	repository: { type: string; url: string };
	scripts?: Record<string, string>;
	dependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	bundleDependencies?: unknown;
	bundledDependencies?: unknown;
	peerDependencies?: Record<string, string>;
	overrides?: unknown;
	n8n: { nodes: string[]; credentials: string[] };
}

const readJson = <T>(file: string) => JSON.parse(readFileSync(file, 'utf8')) as T;

function filesUnder(dir: string, pattern: RegExp): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile() && pattern.test(entry.name))
		.map((entry) => join(entry.parentPath, entry.name))
		.sort();
}

let scratch: string;
/** The unpacked tarball. */
let packed: string;
beforeAll(() => {
	if (!existsSync(resolve(ROOT, 'dist'))) throw new Error('dist/ is missing: run `npm run build` before this test (npm test does).');
	scratch = mkdtempSync(join(tmpdir(), 'loan-crm-verify-'));
	const pack = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
	if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
	const [{ filename }] = JSON.parse(pack.stdout) as { filename: string }[];
	packed = join(scratch, 'package');
	mkdirSync(packed);
	const tar = spawnSync('tar', ['-xzf', join(scratch, filename), '-C', packed, '--strip-components=1'], { encoding: 'utf8' });
	if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr}`);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const source = () => readJson<PackageJson>(resolve(ROOT, 'package.json'));
const published = () => readJson<PackageJson>(join(packed, 'package.json'));
/** A file for messages: `tarball:dist/…` or its path in the repository. */
const label = (file: string) => (file.startsWith(`${packed}/`) ? `tarball:${relative(packed, file)}` : relative(ROOT, file));
/** The package's code: compiled (tarball) and source (repository). */
const tarballJs = () => filesUnder(join(packed, 'dist'), /\.js$/);
const sourceTs = () => [...filesUnder(resolve(ROOT, 'nodes'), /\.ts$/), ...filesUnder(resolve(ROOT, 'credentials'), /\.ts$/)];

describe('Package source verification', () => {
	it('"Make sure your package license is MIT": package.json says MIT and the LICENSE file is the MIT licence, in the tarball too', () => {
		for (const [where, pkg, licence] of [
			['source', source(), resolve(ROOT, 'LICENSE')],
			['tarball', published(), join(packed, 'LICENSE')],
		] as const) {
			expect({ where, license: pkg.license }).toEqual({ where, license: 'MIT' });
			expect(readFileSync(licence, 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} .+\n\nPermission is hereby granted, free of charge/);
		}
	});

	it('"Verify that your npm package repository URL matches the expected GitHub repository": one GitHub repository named like the package, everywhere', () => {
		const pkg = published();
		expect(pkg.repository.type).toBe('git');
		const match = /^git\+https:\/\/github\.com\/([\w.-]+)\/([\w.-]+)\.git$/.exec(pkg.repository.url);
		expect(match).not.toBeNull();
		const [, owner, repo] = match as RegExpExecArray;
		expect(repo).toBe(pkg.name);
		expect(pkg.homepage).toBe(`https://github.com/${owner}/${repo}#readme`);
		expect(pkg.repository).toEqual(source().repository);
	});

	it('"Confirm that the package author / maintainer matches": package.json names an author, the same in the tarball and as the LICENSE holder', () => {
		const { author } = published();
		expect(author).toEqual({ name: expect.stringMatching(/\S/), email: expect.stringMatching(/^[^@\s]+@[^@\s]+\.[a-z]+$/) });
		expect(author).toEqual(source().author);
		const holder = /^Copyright \(c\) \d{4} (.+)$/m.exec(readFileSync(join(packed, 'LICENSE'), 'utf8'))?.[1];
		expect(holder).toBe(author.name);
	});

	it('"Packages should be published from a GitHub action and include provenance": publish.yml runs `npm publish --provenance` on a version tag only, with an OIDC token', () => {
		interface Job {
			permissions?: Record<string, string>;
			steps?: Array<{ run?: string }>;
		}
		const publish = parse(readFileSync(resolve(ROOT, '.github/workflows/publish.yml'), 'utf8')) as { on: unknown; jobs: Record<string, Job> };
		expect(publish.on).toEqual({ push: { tags: ['v*.*.*'] } });
		const publishing = Object.values(publish.jobs).filter((job) => (job.steps ?? []).some((step) => /\bnpm publish\b/.test(step.run ?? '')));
		expect(publishing).toHaveLength(1);
		const [job] = publishing;
		expect(job.permissions?.['id-token']).toBe('write');
		expect((job.steps ?? []).flatMap((step) => (step.run ? [step.run.trim()] : [])).filter((run) => run.startsWith('npm publish'))).toEqual(['npm publish --provenance --access public']);
	});

	it('the package shape n8n looks for ("Submit community nodes", `n8n-node new`): n8n-nodes-* name, the keyword, every listed file in dist/', () => {
		const pkg = published();
		expect(pkg.name).toMatch(/^(@[\w.-]+\/)?n8n-nodes-[\w.-]+$/);
		expect(pkg.keywords).toContain('n8n-community-node-package');
		const listed = [...pkg.n8n.nodes, ...pkg.n8n.credentials];
		expect(listed.length).toBeGreaterThan(1);
		for (const file of listed) expect({ file, inTarball: file.startsWith('dist/') && existsSync(join(packed, file)) }).toEqual({ file, inTarball: true });
	});
});

describe('No external dependencies', () => {
	it('"Ensure that your package does not include any external dependencies": no dependencies of any kind, no overrides, no install scripts', () => {
		for (const pkg of [source(), published()]) {
			expect(pkg.dependencies ?? {}).toEqual({});
			expect(pkg.optionalDependencies ?? {}).toEqual({});
			expect(pkg.bundleDependencies ?? pkg.bundledDependencies ?? []).toEqual([]);
			expect(pkg.overrides).toBeUndefined();
			expect(Object.keys(pkg.scripts ?? {}).filter((script) => /^(pre|post)?(install|prepare|pack)$|^prepublish$/.test(script))).toEqual([]);
		}
		expect(existsSync(join(packed, 'node_modules'))).toBe(false);
	});

	it('n8n-workflow is the only peer dependency, at `*` (n8n brings it)', () => {
		for (const pkg of [source(), published()]) expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	});

	it('the compiled code requires nothing but n8n-workflow, crypto and its own files', () => {
		const files = tarballJs();
		expect(files.length).toBeGreaterThan(20);
		const outside = new Set<string>();
		for (const file of files) {
			for (const { module } of findings(file).filter((finding) => finding.kind === 'import')) {
				if (!module.startsWith('.')) outside.add(module);
				else {
					const target = resolve(file, '..', module);
					expect({ file: label(file), module, inTarball: existsSync(`${target}.js`) || existsSync(target) }).toEqual({ file: label(file), module, inTarball: true });
				}
			}
		}
		expect([...outside].sort()).toEqual(['crypto', 'n8n-workflow']);
	});
});

/**
 * What a file does that the guidelines forbid or this test tracks, read from its syntax tree (so
 * comments and property names such as `options.process` do not count):
 * - `import`: every module it imports or requires (import, export … from, require(), import());
 * - `env`: `process`, `globalThis` or the `$env` expression variable;
 * - `file`: a file-system module (fs, fs/promises, child_process, os, worker_threads, module, with or
 *   without `node:`) or one of n8n's file helpers (`….helpers.createReadStream`, `getStoragePath`,
 *   `writeContentToFile`, `resolvePath`, `isFilePathBlocked`).
 */
interface Finding {
	kind: 'import' | 'env' | 'file';
	module: string;
	line: number;
}
const FILE_MODULES = /^(node:)?(fs|fs\/promises|child_process|os|worker_threads|module)$/;
const FILE_HELPERS = new Set(['createReadStream', 'getStoragePath', 'writeContentToFile', 'resolvePath', 'isFilePathBlocked']);
const ENV_GLOBALS = new Set(['process', 'globalThis']);

function findingsIn(fileName: string, text: string): Finding[] {
	const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
	const found: Finding[] = [];
	const add = (kind: Finding['kind'], module: string, node: ts.Node) => found.push({ kind, module, line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
	const imported = (specifier: ts.Node | undefined, node: ts.Node) => {
		if (specifier === undefined || !ts.isStringLiteralLike(specifier)) return;
		add('import', specifier.text, node);
		if (FILE_MODULES.test(specifier.text)) add('file', specifier.text, node);
	};
	const visit = (node: ts.Node): void => {
		if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) imported(node.moduleSpecifier, node);
		else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) imported(node.moduleReference.expression, node);
		else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) imported(node.arguments[0], node);
		else if (ts.isIdentifier(node) && ENV_GLOBALS.has(node.text)) {
			const parent = node.parent;
			const isPropertyName = (ts.isPropertyAccessExpression(parent) && parent.name === node) || (ts.isPropertyAssignment(parent) && parent.name === node) || (ts.isPropertySignature(parent) && parent.name === node) || (ts.isPropertyDeclaration(parent) && parent.name === node);
			if (!isPropertyName) add('env', node.text, node);
		} else if (ts.isPropertyAccessExpression(node) && FILE_HELPERS.has(node.name.text) && /(^|\.)helpers$/.test(node.expression.getText(file))) add('file', node.name.text, node);
		else if (ts.isStringLiteralLike(node) && /\$env\b/.test(node.text)) add('env', '$env', node);
		ts.forEachChild(node, visit);
	};
	visit(file);
	return found;
}

const findings = (file: string) => findingsIn(file, readFileSync(file, 'utf8'));

describe('No access to environment variables or file system', () => {
	it('the check is real: it finds each kind of access in a sample, and not a property merely named so', () => {
		const sample = [
			"import { readFileSync } from 'fs';",
			"const os = require('node:os');",
			"export async function f(this: any) { return [process.env.HOME, globalThis, await import('child_process'), this.helpers.createReadStream('/etc/passwd')]; }",
			"export const expression = '={{ $env.SECRET }}';",
			"export const harmless = { process: 1, options: { process: 2 } }.options.process + resolvePath('/deals/{id}') + paths.resolvePath;",
		].join('\n');
		expect(findingsIn('sample.ts', sample).filter((finding) => finding.kind !== 'import')).toEqual([
			{ kind: 'file', module: 'fs', line: 1 },
			{ kind: 'file', module: 'node:os', line: 2 },
			{ kind: 'env', module: 'process', line: 3 },
			{ kind: 'env', module: 'globalThis', line: 3 },
			{ kind: 'file', module: 'child_process', line: 3 },
			{ kind: 'file', module: 'createReadStream', line: 3 },
			{ kind: 'env', module: '$env', line: 4 },
		]);
	});

	it('"The code must not interact with environment variables or attempt to read/write files": none in nodes/ and credentials/, nor in the tarball', () => {
		const files = [...sourceTs(), ...tarballJs()];
		expect(files.length).toBeGreaterThan(60);
		const forbidden = files.flatMap((file) => findings(file).filter((finding) => finding.kind !== 'import').map((finding) => `${label(file)}:${finding.line} ${finding.kind} ${finding.module}`));
		expect(forbidden).toEqual([]);
	});
});

describe('Use English language only', () => {
	// The micro sign of "µs" (a unit, in the README's figures) is the one non-ASCII letter allowed.
	const nonAsciiLetters = (text: string) => text.replace(/µs\b/g, 'us').match(/[^\P{L}A-Za-z]/gu) ?? [];

	it('the check is real: it finds a non-ASCII letter', () => {
		expect(nonAsciiLetters('Échéance du prêt, 50 µs')).toEqual(['É', 'é', 'ê']);
	});

	it('"Both the node interface and all documentation must be in English only": no non-ASCII letter in the tarball, nodes/ or credentials/', () => {
		const files = [...filesUnder(packed, /\.(js|json|md)$|^LICENSE$/), ...sourceTs(), ...filesUnder(resolve(ROOT, 'nodes'), /\.json$/)];
		expect(files.filter((file) => file.startsWith(packed) && /README\.md$/.test(file))).toHaveLength(1);
		const found = files.flatMap((file) => {
			const letters = nonAsciiLetters(readFileSync(file, 'utf8'));
			return letters.length > 0 ? [`${label(file)}: ${letters.join(' ')}`] : [];
		});
		expect(found).toEqual([]);
	});
});

describe('Follow n8n best practices', () => {
	it('"Make sure the linter passes (… `npx @n8n/scan-community-package n8n-nodes-PACKAGE` passes)": n8n\'s scanner on the tarball and the sources (npm run scan)', () => {
		// Without jest's NODE_ENV=test, which switches eslint-plugin-n8n-nodes-base into its own self-test mode.
		const { NODE_ENV: _jest, ...env } = process.env;
		const scan = spawnSync(process.execPath, [resolve(ROOT, 'scripts/scan.js')], { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
		const output = `${scan.stdout}${scan.stderr}`;
		expect({ status: scan.status, output }).toEqual({ status: 0, output: expect.stringMatching(/^PASS tarball [\s\S]*^PASS source tree [\s\S]*^scan passed/m) });
		// Both legs looked at files: "<n> files scanned" with n > 0.
		expect([...output.matchAll(/^PASS .*: (\d+) files scanned, 0 errors/gm)].map((match) => Number(match[1]) > 0)).toEqual([true, true]);
	}, 120_000);
});

/** n8n 3.0's removals that a package or its example workflows could trip over (README, Compatibility → n8n 3.0). */
describe('n8n 3.0', () => {
	const examples = () => filesUnder(resolve(ROOT, 'examples'), /\.json$/);

	it('nothing uses the removed `$getPairedItem`: nodes, credentials, compiled code, examples', () => {
		const files = [...sourceTs(), ...tarballJs(), ...examples()];
		expect(examples().length).toBeGreaterThan(0);
		expect(files.filter((file) => readFileSync(file, 'utf8').includes('$getPairedItem')).map(label)).toEqual([]);
	});

	it('the examples use none of the nodes 3.0 removes', () => {
		const removed = ['n8n-nodes-base.function', 'n8n-nodes-base.functionItem', 'n8n-nodes-base.itemLists', 'n8n-nodes-base.aiTransform', '@n8n/n8n-nodes-langchain.code'];
		const types = examples().flatMap((file) => readJson<{ nodes: Array<{ type: string }> }>(file).nodes.map((node) => node.type));
		expect(types.length).toBeGreaterThan(3);
		expect(types.filter((type) => removed.includes(type))).toEqual([]);
	});
});
