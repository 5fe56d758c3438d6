/**
 * The e2e matrix: which legs (n8n version × mode) `npm run test:e2e` runs, how, and the summary.
 *
 *   npm run test:e2e                                 every version, single-process and queue mode
 *   npm run test:e2e -- --n8n 1.123.81               one version (both modes)
 *   npm run test:e2e -- --n8n 2.41.0 --mode single   one leg, run in this process
 *   npm run test:e2e -- --parallel 2                 legs at once (default: one per 2 CPU cores)
 *
 * With more than one leg, the package is built and packed once, the missing n8n versions are
 * installed side by side, and each leg runs as its own process (`--leg`), its output prefixed with
 * the leg's name. The summary lists every leg with its checks, token requests and time.
 */
import { spawn } from 'child_process';
import { mkdtempSync, rmSync } from 'fs';
import { cpus, tmpdir } from 'os';
import { join } from 'path';

import type { N8nVersion } from './install';
import { N8N_VERSIONS, ensureN8n, isN8nVersion } from './install';
import { LEG_TARBALL_VARIABLE, buildAndPack } from './n8n';
import { installInterruptHandler, log, trackGroup, untrackGroup } from './util';

export const MODES = ['single', 'queue'] as const;
export type Mode = (typeof MODES)[number];

export interface Leg {
	version: N8nVersion;
	mode: Mode;
}

export interface MatrixOptions {
	legs: Leg[];
	parallel: number;
	/** Run exactly one leg in this process (set for the child processes). */
	inProcess: boolean;
}

const USAGE = `usage: npm run test:e2e -- [--n8n <version>[,<version>…]] [--mode single|queue|all] [--parallel <n>]
known versions: ${N8N_VERSIONS.join(', ')}`;

export function parseOptions(argv: string[]): MatrixOptions {
	const versions: N8nVersion[] = [];
	let modes: Mode[] = [...MODES];
	let parallel = Math.max(1, Math.floor(cpus().length / 2));
	let inProcess = false;
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split('=', 2) as [string, string | undefined];
		const value = () => {
			const next = inline ?? argv[++i];
			if (next === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
			return next;
		};
		if (flag === '--n8n') {
			for (const version of value().split(',')) {
				if (!isN8nVersion(version)) throw new Error(`unknown n8n version ${JSON.stringify(version)}\n${USAGE}`);
				if (!versions.includes(version)) versions.push(version);
			}
		} else if (flag === '--mode') {
			const mode = value();
			if (mode === 'all') modes = [...MODES];
			else if ((MODES as readonly string[]).includes(mode)) modes = [mode as Mode];
			else throw new Error(`unknown mode ${JSON.stringify(mode)}\n${USAGE}`);
		} else if (flag === '--parallel') {
			parallel = Number(value());
			if (!Number.isInteger(parallel) || parallel < 1) throw new Error(`--parallel needs a whole number >= 1\n${USAGE}`);
		} else if (flag === '--leg') {
			inProcess = true;
		} else {
			throw new Error(`unknown option ${JSON.stringify(argv[i])}\n${USAGE}`);
		}
	}
	const selected = versions.length > 0 ? versions : [...N8N_VERSIONS];
	const legs = selected.flatMap((version) => modes.map((mode) => ({ version, mode })));
	return { legs, parallel, inProcess: inProcess || legs.length === 1 };
}

export function legName(leg: Leg): string {
	return `n8n ${leg.version} ${leg.mode === 'single' ? 'single process' : 'queue mode'}`;
}

export interface LegRunners {
	single: (version: N8nVersion) => Promise<number>;
}

interface LegOutcome {
	leg: Leg;
	code: number;
	seconds: number;
	/** The leg's own "N passed, M failed" line. */
	verdict: string;
	/** Lines the leg printed with the SUMMARY: prefix (token counts, …). */
	notes: string[];
}

/** Runs the legs the command line asks for and returns the exit code. */
export async function runE2e(runners: LegRunners): Promise<number> {
	const options = parseOptions(process.argv.slice(2));
	if (options.inProcess) {
		const [leg] = options.legs;
		if (leg.mode === 'single') return await runners.single(leg.version);
		const { runQueueLeg } = await import('./queue');
		return await runQueueLeg(leg.version);
	}
	installInterruptHandler();
	const started = Date.now();
	console.log(`n8n-nodes-loan-crm end-to-end matrix: ${options.legs.map(legName).join('; ')} (${options.parallel} at a time)\n`);
	const versions = [...new Set(options.legs.map((leg) => leg.version))];
	log(`n8n ${versions.join(', ')} + Node 24 from the cache (missing ones are installed side by side)`);
	await Promise.all(versions.map(async (version) => await ensureN8n(version)));
	const workDir = mkdtempSync(join(tmpdir(), 'loan-crm-e2e-matrix-'));
	try {
		log('npm run build + npm pack (once for all legs)');
		const pack = await buildAndPack(workDir, { skipBuild: Boolean(process.env.LOAN_CRM_E2E_SKIP_BUILD) });
		const queue = [...options.legs];
		const outcomes: LegOutcome[] = [];
		const worker = async () => {
			for (let leg = queue.shift(); leg !== undefined; leg = queue.shift()) outcomes.push(await runLeg(leg, pack));
		};
		await Promise.all(Array.from({ length: Math.min(options.parallel, options.legs.length) }, worker));
		outcomes.sort((a, b) => options.legs.indexOf(a.leg) - options.legs.indexOf(b.leg));
		printSummary(outcomes, (Date.now() - started) / 1000);
		return outcomes.some((outcome) => outcome.code !== 0) ? 1 : 0;
	} finally {
		rmSync(workDir, { recursive: true, force: true });
	}
}

async function runLeg(leg: Leg, pack: { tarball: string; name: string; version: string }): Promise<LegOutcome> {
	const started = Date.now();
	const prefix = `[${leg.version} ${leg.mode}] `;
	log(`${legName(leg)}: starting`);
	const tsNode = require.resolve('ts-node/dist/bin');
	const child = spawn(process.execPath, [tsNode, '--transpile-only', process.argv[1], '--leg', '--n8n', leg.version, '--mode', leg.mode], {
		env: { ...process.env, [LEG_TARBALL_VARIABLE]: JSON.stringify(pack) },
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	trackGroup(child.pid);
	const lines: string[] = [];
	const echo = (chunk: Buffer, stream: NodeJS.WriteStream) => {
		const text = chunk.toString();
		for (const line of text.split('\n')) if (line.length > 0) lines.push(line);
		stream.write(text.replace(/^(?=.)/gm, prefix));
	};
	child.stdout?.on('data', (chunk: Buffer) => echo(chunk, process.stdout));
	child.stderr?.on('data', (chunk: Buffer) => echo(chunk, process.stderr));
	const code = await new Promise<number>((resolve) => child.on('close', (exitCode) => resolve(exitCode ?? 1)));
	untrackGroup(child.pid);
	const seconds = (Date.now() - started) / 1000;
	const verdict = [...lines].reverse().find((line) => /^\d+ passed, \d+ failed/.test(line)) ?? (code === 2 ? 'could not be set up' : 'no result line');
	const notes = lines.filter((line) => line.startsWith('SUMMARY: ')).map((line) => line.slice('SUMMARY: '.length));
	log(`${legName(leg)}: ${code === 0 ? 'passed' : 'FAILED'} (${verdict}, ${seconds.toFixed(0)} s)`);
	return { leg, code, seconds, verdict, notes };
}

function printSummary(outcomes: LegOutcome[], totalSeconds: number): void {
	console.log('\nE2E summary (per n8n version and mode)');
	const width = Math.max(...outcomes.map((outcome) => legName(outcome.leg).length));
	for (const outcome of outcomes) {
		console.log(`  ${outcome.code === 0 ? 'PASS' : 'FAIL'}  ${legName(outcome.leg).padEnd(width)}  ${outcome.verdict.padEnd(28)}  ${outcome.seconds.toFixed(0).padStart(5)} s`);
		for (const note of outcome.notes) console.log(`        ${note}`);
	}
	console.log(`  total ${totalSeconds.toFixed(0)} s; ${outcomes.filter((outcome) => outcome.code === 0).length} of ${outcomes.length} legs passed`);
}
