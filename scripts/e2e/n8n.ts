/**
 * The real n8n, driven from outside: an isolated user folder with the package installed the way
 * n8n's community-package installer lays it out, the environment n8n needs to run headless, and
 * the CLI commands (import, export, execute, publish, start).
 */
import { randomBytes } from 'crypto';
import type { ChildProcess } from 'child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { createServer as createHttpServer } from 'http';
import type { Server } from 'http';
import { createServer } from 'net';
import { tmpdir } from 'os';
import { join, resolve } from 'path';

import type { IDataObject, IRun } from 'n8n-workflow';

import { sandboxCredential } from '../../harness/sandbox-credential';
import type { SandboxLike } from '../../harness/sandbox-credential';
import type { N8nInstall } from './install';
import { CommandError, log, run, sleep, startDaemon, stopDaemon, tail } from './util';
import type { CredentialRef } from './workflows';
import { CREDENTIAL_TYPE } from './workflows';

export const REPO_ROOT = resolve(__dirname, '..', '..');

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
	return await new Promise((resolvePort, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address !== null ? address.port : 0;
			server.close(() => resolvePort(port));
		});
	});
}

/** `preferred` when it is free on 127.0.0.1, else a free port. */
export async function portOrFree(preferred: number): Promise<number> {
	return await new Promise((resolvePort) => {
		const server = createServer();
		server.once('error', () => resolvePort(freePort()));
		server.listen(preferred, '127.0.0.1', () => server.close(() => resolvePort(preferred)));
	});
}

/** A tiny HTTP server on 127.0.0.1 that collects the JSON bodies a workflow posts to `url`. */
export async function startSink(path = '/loan-crm-trigger'): Promise<{ server: Server; url: string; received: IDataObject[] }> {
	const received: IDataObject[] = [];
	const server = createHttpServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString()));
		req.on('end', () => {
			try {
				received.push(JSON.parse(body) as IDataObject);
			} catch {
				received.push({ unparsable: body });
			}
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end('{"ok":true}');
		});
	});
	const port = await freePort();
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
	return { server, url: `http://127.0.0.1:${port}${path}`, received };
}

/** Where the matrix hands the tarball it packed to its legs (each leg runs in its own process). */
export const LEG_TARBALL_VARIABLE = 'LOAN_CRM_E2E_TARBALL';

/** The tarball the matrix packed for its legs (a leg alone packs its own). */
export function legTarball(): { tarball: string; name: string; version: string } | undefined {
	const value = process.env[LEG_TARBALL_VARIABLE];
	return value ? (JSON.parse(value) as { tarball: string; name: string; version: string }) : undefined;
}

/** `npm run build`, then `npm pack` into a temp folder; returns the tarball. */
export async function buildAndPack(workDir: string, options: { skipBuild?: boolean } = {}): Promise<{ tarball: string; name: string; version: string }> {
	if (!options.skipBuild) await run('npm', ['run', 'build'], { cwd: REPO_ROOT, timeoutMs: 5 * 60_000 });
	const packDir = join(workDir, 'pack');
	mkdirSync(packDir, { recursive: true });
	const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], { cwd: REPO_ROOT });
	const [info] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string; name: string; version: string }>;
	return { tarball: join(packDir, info.filename), name: info.name, version: info.version };
}

/**
 * Installs a packed tarball into `<userFolder>/.n8n/nodes` exactly as n8n 2.30's
 * CommunityPackagesService.downloadPackage does: extract with --strip-components=1 into
 * node_modules/<name>, drop devDependencies/peerDependencies/optionalDependencies from its
 * package.json, `npm install` its own dependencies (shallow, no scripts, no lock), and record it in
 * nodes/package.json.
 */
export async function installPackage(userFolder: string, pack: { tarball: string; name: string; version: string }): Promise<string> {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const packageDir = join(nodesDir, 'node_modules', pack.name);
	rmSync(packageDir, { recursive: true, force: true });
	mkdirSync(packageDir, { recursive: true });
	const manifestPath = join(nodesDir, 'package.json');
	const manifest = existsSync(manifestPath)
		? (JSON.parse(readFileSync(manifestPath, 'utf8')) as { dependencies?: Record<string, string> })
		: { name: 'installed-nodes', private: true, dependencies: {} };
	await run('tar', ['-xzf', pack.tarball, '-C', packageDir, '--strip-components=1']);
	const packageJsonPath = join(packageDir, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...packageJson } = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as Record<string, unknown>;
	void devDependencies;
	void peerDependencies;
	void optionalDependencies;
	writeFileSync(packageJsonPath, JSON.stringify(packageJson, null, 2));
	if (packageJson.dependencies && Object.keys(packageJson.dependencies as object).length > 0) {
		await run('npm', ['install', '--audit=false', '--fund=false', '--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false'], {
			cwd: packageDir,
			timeoutMs: 5 * 60_000,
		});
	}
	manifest.dependencies = { ...(manifest.dependencies ?? {}), [pack.name]: pack.version };
	writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	return packageDir;
}

export interface N8nEnvOptions {
	userFolder: string;
	/** Editor/REST port (only `n8n start` listens). */
	port?: number;
	logLevel?: string;
}

/** The environment for every n8n command of one user folder. */
export async function n8nEnvironment(install: N8nInstall, options: N8nEnvOptions): Promise<NodeJS.ProcessEnv> {
	const env: NodeJS.ProcessEnv = {};
	// Keep PATH/HOME/locale, drop the caller's N8N_* / DB_* settings so a developer's own n8n
	// configuration cannot leak into the test.
	for (const [key, value] of Object.entries(process.env)) {
		if (/^(N8N_|DB_|EXECUTIONS_|QUEUE_|GENERIC_TIMEZONE|WEBHOOK_URL|NODE_OPTIONS|NODES_)/.test(key)) continue;
		env[key] = value;
	}
	const keyFile = join(options.userFolder, 'encryption-key');
	if (!existsSync(keyFile)) writeFileSync(keyFile, randomBytes(24).toString('hex'));
	return {
		...env,
		PATH: `${join(install.nodeDir, 'bin')}:${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: options.userFolder,
		N8N_ENCRYPTION_KEY: readFileSync(keyFile, 'utf8'),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		// `n8n execute` prints the run through the logger at level info.
		N8N_LOG_LEVEL: options.logLevel ?? 'info',
		N8N_LOG_OUTPUT: 'console',
		DB_TYPE: 'sqlite',
		DB_SQLITE_POOL_SIZE: '2',
		// n8n's default: requests to loopback addresses (the sandbox) are allowed. Pinned here so a
		// developer's N8N_SSRF_PROTECTION_ENABLED=true cannot turn the run into a false failure.
		N8N_SSRF_PROTECTION_ENABLED: 'false',
		// Community packages load from <user folder>/.n8n/nodes/node_modules; nothing reinstalls.
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		// n8n 2.41's default expression engine ('vm', isolated-vm 7.0.1's prebuilt binary for Node 24)
		// crashes this machine's n8n with SIGSEGV: 2 of 3 `n8n execute` runs after the run was stored,
		// and once `n8n start` in mid-run; with 'legacy' 0 of 4. Older n8n has only the legacy engine,
		// so every version is proven on the same one. The package's behaviour does not depend on the engine.
		N8N_EXPRESSION_ENGINE: 'legacy',
		// Task runners are always on in n8n 2; give this instance's broker its own port. n8n 1.x
		// runs without them by default (its internal runner shares the CLI's process group and took
		// `n8n execute` down with it on exit), and so does this run.
		N8N_RUNNERS_ENABLED: install.n8nVersion.startsWith('1.') ? 'false' : 'true',
		N8N_RUNNERS_MODE: 'internal',
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'true',
		N8N_SECURE_COOKIE: 'false',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: 'localhost',
		N8N_PORT: String(options.port ?? 5678),
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `http://localhost:${options.port ?? 5678}/`,
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		EXECUTIONS_MODE: 'regular',
		N8N_METRICS: 'false',
		N8N_PUBLIC_API_DISABLED: 'true',
		N8N_NO_COLOR: 'true',
		NO_COLOR: '1',
	};
}

/** One n8n user folder (own SQLite database, own nodes folder) and its CLI. */
export class N8nInstance {
	readonly userFolder: string;
	env: NodeJS.ProcessEnv = {};
	/** The editor/REST port `n8n start` listens on (`init`'s). */
	port = 5678;
	private server?: ChildProcess;
	serverOutput = '';
	/** Every CLI call made, for the timing report. */
	readonly calls: Array<{ command: string; ms: number }> = [];

	constructor(
		readonly install: N8nInstall,
		userFolder?: string,
	) {
		this.userFolder = userFolder ?? mkdtempSync(join(tmpdir(), 'loan-crm-n8n-e2e-'));
	}

	async init(options: Omit<N8nEnvOptions, 'userFolder'> = {}): Promise<this> {
		this.env = await n8nEnvironment(this.install, { ...options, userFolder: this.userFolder });
		this.port = options.port ?? this.port;
		return this;
	}

	/** Runs `n8n <args>`; rejects with the output on a non-zero exit unless allowFailure. */
	async cli(args: string[], options: { allowFailure?: boolean; timeoutMs?: number } = {}) {
		const t0 = Date.now();
		try {
			return await run(this.install.node, [this.install.n8nBin, ...args], {
				cwd: this.userFolder,
				env: this.env,
				allowFailure: options.allowFailure,
				timeoutMs: options.timeoutMs ?? 180_000,
			});
		} finally {
			this.calls.push({ command: `n8n ${args.join(' ')}`, ms: Date.now() - t0 });
		}
	}

	private writeJson(name: string, value: unknown): string {
		const file = join(this.userFolder, name);
		writeFileSync(file, JSON.stringify(value, null, 2));
		return file;
	}

	async importCredentials(credentials: unknown[]): Promise<void> {
		await this.cli(['import:credentials', `--input=${this.writeJson('credentials.json', credentials)}`]);
	}

	/** Imports a Loan CRM credential with the sandbox's values as a user enters them, under each name and id. */
	async importSandboxCredentials(sandbox: SandboxLike, ...credentials: CredentialRef[]): Promise<void> {
		const data = sandboxCredential(sandbox);
		await this.importCredentials(credentials.map(({ id, name }) => ({ id, name, type: CREDENTIAL_TYPE, data })));
	}

	async importWorkflows(workflows: unknown[], fileName = 'workflows.json'): Promise<void> {
		await this.cli(['import:workflow', `--input=${this.writeJson(fileName, workflows)}`]);
	}

	/**
	 * `import:workflow --separate`: one file per workflow in a folder of their own (a string is written
	 * as it is), as a user imports files; n8n gives a workflow without an id its own.
	 */
	async importSeparately(workflows: Array<[fileName: string, workflow: unknown]>) {
		const dir = join(this.userFolder, 'import-separately');
		rmSync(dir, { recursive: true, force: true });
		mkdirSync(dir);
		for (const [file, workflow] of workflows) writeFileSync(join(dir, file), typeof workflow === 'string' ? workflow : JSON.stringify(workflow, null, 2));
		try {
			return await this.cli(['import:workflow', '--separate', `--input=${dir}`]);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	}

	async exportWorkflows(): Promise<Array<Record<string, unknown>>> {
		const file = join(this.userFolder, 'export.json');
		await this.cli(['export:workflow', '--all', `--output=${file}`]);
		return JSON.parse(readFileSync(file, 'utf8')) as Array<Record<string, unknown>>;
	}

	/** Makes the workflow run under `n8n start`: `publish:workflow` in n8n 2, `update:workflow --active=true` in n8n 1. */
	async publish(workflowId: string): Promise<void> {
		if (this.install.n8nVersion.startsWith('1.')) await this.cli(['update:workflow', `--id=${workflowId}`, '--active=true']);
		else await this.cli(['publish:workflow', `--id=${workflowId}`]);
	}

	/**
	 * `n8n execute --id=<id> --rawOutput`. Returns the parsed run when n8n printed one, and the raw
	 * output; `ok` is false when n8n exited non-zero (a failed execution).
	 */
	async execute(workflowId: string): Promise<{ ok: boolean; run?: IRun; stdout: string; stderr: string; code: number | null }> {
		const result = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], { allowFailure: true });
		// A signal (code null) is named in the output the checks print.
		const stderr = result.signal ? `${result.stderr}\n[n8n execute ended by ${result.signal}]` : result.stderr;
		return { ok: result.code === 0, run: parseRun(result.stdout), stdout: result.stdout, stderr, code: result.code };
	}

	/** Starts `n8n start` and waits until the editor answers on /healthz. */
	async start(port = this.port, timeoutMs = 120_000): Promise<void> {
		await this.startProcess(['start'], async () => {
			try {
				return (await fetch(`http://127.0.0.1:${port}/healthz/readiness`)).ok;
			} catch {
				return false; // not listening yet
			}
		}, timeoutMs);
	}

	/** Starts `n8n worker` (queue mode) and waits until it says it is ready. */
	async startWorker(concurrency: number, timeoutMs = 120_000): Promise<void> {
		await this.startProcess(['worker', `--concurrency=${concurrency}`], () => Promise.resolve(this.serverOutput.includes('n8n worker is now ready')), timeoutMs);
	}

	private async startProcess(args: string[], ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
		this.serverOutput = '';
		const child = startDaemon(this.install.node, [this.install.n8nBin, ...args], { cwd: this.userFolder, env: this.env, onOutput: (text) => (this.serverOutput += text) });
		this.server = child;
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (child.exitCode !== null || child.signalCode !== null) {
				throw new Error(`n8n ${args[0]} exited (${child.signalCode ?? child.exitCode}) before it was ready:\n${tail(this.serverOutput, 60)}`);
			}
			if (await ready()) return;
			await sleep(250);
		}
		throw new Error(`n8n ${args[0]} was not ready within ${timeoutMs / 1000}s:\n${tail(this.serverOutput, 60)}`);
	}

	get serverProcess(): ChildProcess | undefined {
		return this.server;
	}

	/** Stops `n8n start` (SIGTERM to its process group) and waits for it to exit. */
	async stop(timeoutMs = 30_000): Promise<void> {
		const child = this.server;
		if (!child || child.exitCode !== null || child.signalCode !== null) return;
		await stopDaemon(child, timeoutMs);
		this.server = undefined;
	}

	/** Kills `n8n start` at once (SIGKILL to its process group, as a crash or an OOM kill would) and waits for it to exit. */
	async kill(): Promise<void> {
		const child = this.server;
		if (!child || child.exitCode !== null || child.signalCode !== null) return;
		const exited = new Promise<void>((r) => child.once('exit', () => r()));
		try {
			process.kill(-(child.pid as number), 'SIGKILL');
		} catch {
			// already gone
		}
		await exited;
		this.server = undefined;
	}

	remove(): void {
		rmSync(this.userFolder, { recursive: true, force: true });
	}
}

/**
 * n8n's durable poll cursors (from 2.36): N8N_POLLER_DURABLE_CURSORS_ENABLED and the flags it
 * depends on in 2.41 (the durable scheduler for poll triggers, the publication service).
 */
export const DURABLE_CURSOR_ENV = {
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
};

/**
 * The JSON document `n8n execute --rawOutput` prints (`JSON.stringify(run, null, 2)`): it starts at
 * a line that is exactly "{" and ends at the next line that is exactly "}". Log lines around it are
 * ignored.
 */
export function parseRun(stdout: string): IRun | undefined {
	const lines = stdout.split('\n');
	for (let start = lines.length - 1; start >= 0; start--) {
		if (lines[start] !== '{') continue;
		const end = lines.findIndex((line, index) => index > start && line === '}');
		if (end < 0) continue;
		try {
			return JSON.parse(lines.slice(start, end + 1).join('\n')) as IRun;
		} catch {
			// keep looking
		}
	}
	return undefined;
}

export { CommandError, log };

/** The owner account `npm run dev` and the e2e run set up (local, throw-away instances only). */
export const DEV_OWNER = { email: 'dev@loan-crm.local', firstName: 'Loan CRM', lastName: 'Developer', password: 'LoanCrm-dev-1' };

/** A logged-in client of n8n's internal REST API (what the editor uses), for the few calls needed. */
/** A workflow's executions, newest first (at most 100), as the REST API of the n8n at `rest` lists them. */
export async function executionsOf(rest: N8nRest, workflowId: string): Promise<Array<{ id: string; status?: string }>> {
	const list = await rest.request('GET', `/executions?limit=100&filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`);
	return (list.json as { data?: { results?: Array<{ id: string; status?: string }> } } | undefined)?.data?.results ?? [];
}

export class N8nRest {
	private cookie = '';
	private readonly browserId = randomBytes(16).toString('hex');

	constructor(readonly baseUrl: string) {}

	/** A client of the n8n on `port`, signed in as its owner (set up on its first start). */
	static async signedIn(port: number): Promise<N8nRest> {
		const rest = new N8nRest(`http://127.0.0.1:${port}`);
		await rest.ownerSession();
		return rest;
	}

	async request(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown; text: string }> {
		return await this.send(method, `/rest${path}`, body);
	}

	/** A GET of a path outside /rest with the session: a file the editor loads, e.g. /types/nodes.json (the node types) or /types/credentials.json. */
	async getWithSession(path: string): Promise<{ status: number; json: unknown; text: string }> {
		return await this.send('GET', path);
	}

	private async send(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown; text: string }> {
		const response = await fetch(`${this.baseUrl}${path}`, {
			method,
			headers: { 'content-type': 'application/json', 'browser-id': this.browserId, ...(this.cookie ? { cookie: this.cookie } : {}) },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = response.headers.get('set-cookie');
		const auth = setCookie?.match(/n8n-auth=[^;]+/)?.[0];
		if (auth) this.cookie = auth;
		const text = await response.text();
		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		return { status: response.status, json, text };
	}

	/** Sets up the instance owner (first start) or logs in as it (later starts). */
	async ownerSession(owner = DEV_OWNER): Promise<'created' | 'logged in'> {
		const setup = await this.request('POST', '/owner/setup', owner);
		if (setup.status === 200) return 'created';
		const login = await this.request('POST', '/login', { emailOrLdapLoginId: owner.email, password: owner.password });
		if (login.status === 200) return 'logged in';
		throw new Error(`n8n owner setup answered ${setup.status} (${setup.text.slice(0, 200)}) and login ${login.status} (${login.text.slice(0, 200)})`);
	}

	/**
	 * What the editor's "Fetch Test Event" / "Execute workflow" from a trigger sends. n8n 1.x's
	 * editor sends the workflow along (`workflowData`); n8n 2 reads it from the database.
	 */
	async runFromTrigger(workflowId: string, triggerName: string): Promise<{ status: number; json: unknown; text: string }> {
		const settings = await this.request('GET', '/settings');
		const version = String((settings.json as { data?: { versionCli?: unknown } } | undefined)?.data?.versionCli ?? '');
		if (version.startsWith('1.')) {
			const workflow = await this.request('GET', `/workflows/${workflowId}`);
			const workflowData = (workflow.json as { data?: unknown } | undefined)?.data;
			return await this.request('POST', `/workflows/${workflowId}/run`, { workflowData, triggerToStartFrom: { name: triggerName } });
		}
		return await this.request('POST', `/workflows/${workflowId}/run`, { triggerToStartFrom: { name: triggerName } });
	}

	/** `runFromTrigger`, then the execution followed until it stopped (or `timeoutMs` passed): its status and what n8n stored. */
	async runToEnd(workflowId: string, triggerName: string, timeoutMs = 30_000): Promise<{ status?: string; text: string; problem?: string }> {
		const started = await this.runFromTrigger(workflowId, triggerName);
		const executionId = (started.json as { data?: { executionId?: string } } | undefined)?.data?.executionId;
		if (started.status !== 200 || executionId === undefined) {
			return { text: started.text, problem: `POST /rest/workflows/${workflowId}/run answered ${started.status}: ${started.text.slice(0, 300)}` };
		}
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const response = await this.request('GET', `/executions/${executionId}`);
			const execution = (response.json as { data?: { status?: string; stoppedAt?: string | null } } | undefined)?.data;
			if ((execution?.stoppedAt !== undefined && execution.stoppedAt !== null) || Date.now() > deadline) return { status: execution?.status, text: response.text };
			await sleep(250);
		}
	}
}
