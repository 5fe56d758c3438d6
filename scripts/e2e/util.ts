/* Small helpers shared by the e2e runner, `npm run dev`, the screenshots and the installer. */
import { spawn } from 'child_process';
import type { ChildProcess, SpawnOptions } from 'child_process';

const started = Date.now();

/** Seconds since the process started, for log lines. */
export function clock(): string {
	return `${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s`;
}

export function log(message: string): void {
	console.log(`[${clock()}] ${message}`);
}

export function seconds(since: number): string {
	return `${((Date.now() - since) / 1000).toFixed(1)}s`;
}

/** Measures a step and records it for the final timing table. */
export class Timings {
	readonly steps: Array<{ name: string; ms: number }> = [];

	async step<T>(name: string, fn: () => Promise<T> | T): Promise<T> {
		const t0 = Date.now();
		log(`${name} …`);
		try {
			return await fn();
		} finally {
			const ms = Date.now() - t0;
			this.steps.push({ name, ms });
			log(`${name}: ${(ms / 1000).toFixed(1)}s`);
		}
	}

	print(title: string): void {
		const width = Math.max(...this.steps.map((s) => s.name.length), 10);
		console.log(`\n${title}`);
		for (const { name, ms } of this.steps) console.log(`  ${name.padEnd(width)}  ${(ms / 1000).toFixed(1).padStart(7)}s`);
		console.log(`  ${'total'.padEnd(width)}  ${((Date.now() - started) / 1000).toFixed(1).padStart(7)}s`);
	}
}

/** Process groups of children still running (each child is spawned detached, in its own group). */
const liveGroups = new Set<number>();
const interruptCleanups: Array<() => void> = [];

export function trackGroup(pid: number | undefined): void {
	if (pid !== undefined) liveGroups.add(pid);
}

export function untrackGroup(pid: number | undefined): void {
	if (pid !== undefined) liveGroups.delete(pid);
}

/** Runs on Ctrl-C / SIGTERM after the children have stopped (e.g. removing a temp folder). */
export function onInterrupt(cleanup: () => void): void {
	interruptCleanups.push(cleanup);
}

let interruptHandlerInstalled = false;
let interruptReceived = false;

/** Whether Ctrl-C / SIGTERM arrived (children exiting now are being stopped, not crashing). */
export function interruptRequested(): boolean {
	return interruptReceived;
}

/**
 * Ctrl-C and SIGTERM stop every child this process started (npm, node-gyp, n8n: they run in their
 * own process groups, so the terminal's Ctrl-C does not reach them), wait up to 15 s for them to
 * exit, run the cleanups and exit. A second Ctrl-C exits at once.
 */
export function installInterruptHandler(): void {
	if (interruptHandlerInstalled) return;
	interruptHandlerInstalled = true;
	let interrupted = false;
	const handler = (signal: NodeJS.Signals) => {
		const code = signal === 'SIGINT' ? 130 : 143;
		if (interrupted) process.exit(code);
		interrupted = true;
		interruptReceived = true;
		console.log(`\n${signal}: stopping ${liveGroups.size} child process group(s) …`);
		for (const pid of liveGroups) {
			try {
				process.kill(-pid, 'SIGTERM');
			} catch {
				liveGroups.delete(pid);
			}
		}
		const deadline = Date.now() + 15_000;
		const timer = setInterval(() => {
			for (const pid of liveGroups) {
				try {
					process.kill(-pid, 0);
				} catch {
					liveGroups.delete(pid);
				}
			}
			if (liveGroups.size > 0 && Date.now() < deadline) return;
			clearInterval(timer);
			for (const pid of liveGroups) {
				try {
					process.kill(-pid, 'SIGKILL');
				} catch {
					// gone
				}
			}
			for (const cleanup of interruptCleanups) {
				try {
					cleanup();
				} catch {
					// best effort
				}
			}
			process.exit(code);
		}, 200);
	};
	process.on('SIGINT', handler);
	process.on('SIGTERM', handler);
}

export interface RunResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

/** Failure of a child process, with the tail of its output. */
export class CommandError extends Error {
	constructor(
		readonly command: string,
		readonly result: RunResult,
	) {
		super(
			`command failed (${result.signal ?? `exit ${result.code}`}): ${command}\n` +
				`--- stdout (tail) ---\n${tail(result.stdout, 60)}\n--- stderr (tail) ---\n${tail(result.stderr, 60)}`,
		);
	}
}

export function tail(text: string, lines: number): string {
	const all = text.trimEnd().split('\n');
	return (all.length > lines ? ['…', ...all.slice(-lines)] : all).join('\n');
}

/**
 * Runs a command, collecting output (echoed live with `echo`), and rejects on a non-zero exit
 * unless `allowFailure`. `timeoutMs` kills the child's process group.
 */
export async function run(
	command: string,
	args: string[],
	options: SpawnOptions & { echo?: boolean; allowFailure?: boolean; timeoutMs?: number; input?: string } = {},
): Promise<RunResult> {
	const { echo, allowFailure, timeoutMs, input, ...spawnOptions } = options;
	const printable = [command, ...args].join(' ');
	return await new Promise<RunResult>((resolve, reject) => {
		const child = spawn(command, args, { ...spawnOptions, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
		trackGroup(child.pid);
		let stdout = '';
		let stderr = '';
		child.stdout?.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			if (echo) process.stdout.write(chunk);
		});
		child.stderr?.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
			if (echo) process.stderr.write(chunk);
		});
		if (input !== undefined) child.stdin?.end(input);
		else child.stdin?.end();
		let timedOut = false;
		const timer =
			timeoutMs !== undefined
				? setTimeout(() => {
						timedOut = true;
						killGroup(child.pid);
					}, timeoutMs)
				: undefined;
		child.on('error', (error) => {
			untrackGroup(child.pid);
			if (timer) clearTimeout(timer);
			reject(new Error(`cannot start ${printable}: ${error.message}`));
		});
		child.on('close', (code, signal) => {
			untrackGroup(child.pid);
			if (timer) clearTimeout(timer);
			const result = { code, signal, stdout, stderr: timedOut ? `${stderr}\n[timed out after ${timeoutMs} ms]` : stderr };
			if ((code !== 0 || timedOut) && !allowFailure) reject(new CommandError(printable, result));
			else resolve(result);
		});
	});
}

/** Sends SIGTERM (then SIGKILL after a grace period) to a child's whole process group. */
export function killGroup(pid: number | undefined, graceMs = 5000): void {
	if (pid === undefined) return;
	try {
		process.kill(-pid, 'SIGTERM');
	} catch {
		return;
	}
	const timer = setTimeout(() => {
		try {
			process.kill(-pid, 'SIGKILL');
		} catch {
			// already gone
		}
	}, graceMs);
	timer.unref();
}

export async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Starts a long-running child (n8n, Postgres, Redis) in its own process group, which Ctrl-C stops
 * with the others; its output, stdout and stderr as they come, goes to `onOutput`.
 */
export function startDaemon(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; onOutput: (text: string) => void }): ChildProcess {
	const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	trackGroup(child.pid);
	child.once('exit', () => untrackGroup(child.pid));
	child.stdout?.on('data', (chunk: Buffer) => options.onOutput(chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => options.onOutput(chunk.toString()));
	return child;
}

/** Stops a daemon: SIGTERM to its process group, SIGKILL after `graceMs`; waits for it to exit (at most 2 s more). */
export async function stopDaemon(child: ChildProcess, graceMs: number): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	let timer: NodeJS.Timeout | undefined;
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	killGroup(child.pid, graceMs);
	await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs + 2000)))]);
	clearTimeout(timer);
}

/** Polls `predicate` until it holds or `timeoutMs` has passed; its last answer. */
export async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 200): Promise<boolean> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (await predicate()) return true;
		await sleep(intervalMs);
	}
	return await predicate();
}

/** The value of a command-line option, `--name value` or `--name=value`. */
export function option(name: string): string | undefined {
	const index = process.argv.indexOf(name);
	if (index >= 0) return process.argv[index + 1];
	return process.argv.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

/** A whole-number command-line option, `fallback` when it is not given. */
export function intOption(name: string, fallback: number): number {
	const value = option(name);
	if (value === undefined) return fallback;
	const n = Number(value);
	if (!Number.isInteger(n) || n < 0) throw new Error(`${name} needs a whole number, got '${value}'`);
	return n;
}
