/**
 * Postgres and Redis for the queue-mode scenario, as a self-hoster gets them on Debian/Ubuntu:
 * `apt-get install postgresql redis-server` (run here when either is missing), then a throw-away
 * Postgres cluster and a Redis server on free local ports, owned by this run and removed after it.
 *
 * Postgres refuses to run as root: when the run is root, the cluster belongs to the `postgres`
 * user the Debian package creates and its commands run through `runuser -u postgres`.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'fs';
import { connect } from 'net';
import { tmpdir, userInfo } from 'os';
import { join } from 'path';

import { freePort } from './n8n';
import { log, run, sleep, startDaemon, stopDaemon, tail } from './util';

/** The Debian packages the scenario needs; the README's queue-mode instructions name the same. */
export const DEBIAN_PACKAGES = ['postgresql', 'redis-server'] as const;

async function onPath(command: string): Promise<string | undefined> {
	const { code, stdout } = await run('sh', ['-c', `command -v ${command}`], { allowFailure: true });
	return code === 0 ? stdout.trim() : undefined;
}

/** initdb, pg_ctl, postgres, pg_isready: on PATH, else in Debian's /usr/lib/postgresql/<major>/bin. */
function postgresBin(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	const majors = readdirSync(root)
		.filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length > 0 ? join(root, majors[0], 'bin') : undefined;
}

/** Installs postgresql and redis-server with apt-get when either is missing. */
export async function ensureServicePackages(): Promise<{ pgBin: string; installed: string[] }> {
	const missing: string[] = [];
	if (!postgresBin()) missing.push('postgresql');
	if (!(await onPath('redis-server'))) missing.push('redis-server');
	if (missing.length > 0) {
		if (userInfo().uid !== 0) throw new Error(`${missing.join(' and ')} missing; install with: sudo apt-get install -y ${DEBIAN_PACKAGES.join(' ')}`);
		log(`installing ${missing.join(', ')} (apt-get update; apt-get install -y ${DEBIAN_PACKAGES.join(' ')})`);
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		await run('apt-get', ['update'], { env, timeoutMs: 10 * 60_000 });
		await run('apt-get', ['install', '-y', ...DEBIAN_PACKAGES], { env, timeoutMs: 15 * 60_000 });
	}
	const pgBin = postgresBin();
	if (!pgBin) throw new Error('postgresql installed, but no /usr/lib/postgresql/<major>/bin/initdb found');
	return { pgBin, installed: missing };
}

export interface Services {
	postgres: { host: string; port: number; database: string; user: string; password: string };
	redis: { host: string; port: number };
	stop: () => Promise<void>;
}

/** A daemon with its output kept for error messages. */
function daemon(command: string, args: string[]) {
	let output = '';
	const child = startDaemon(command, args, { onOutput: (text) => (output += text) });
	return { child, output: () => output };
}

async function redisPing(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const socket = connect(port, '127.0.0.1');
		let answer = '';
		socket.setTimeout(1000);
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (chunk) => {
			answer += chunk.toString();
			if (answer.includes('\r\n')) {
				socket.destroy();
				resolve(answer.startsWith('+PONG'));
			}
		});
		socket.on('error', () => resolve(false));
		socket.on('timeout', () => {
			socket.destroy();
			resolve(false);
		});
	});
}

/** Starts a fresh Postgres cluster and a Redis server on free ports of 127.0.0.1. */
export async function startServices(pgBin: string): Promise<Services> {
	const dir = mkdtempSync(join(tmpdir(), 'loan-crm-queue-services-'));
	const asRoot = userInfo().uid === 0;
	// Postgres refuses root; the Debian package's `postgres` user owns the cluster then.
	const pg = (command: string, args: string[]): [string, string[]] => (asRoot ? ['runuser', ['-u', 'postgres', '--', join(pgBin, command), ...args]] : [join(pgBin, command), args]);
	const dataDir = join(dir, 'pgdata');
	mkdirSync(dataDir);
	chmodSync(dir, 0o755);
	if (asRoot) {
		const { stdout } = await run('id', ['-u', 'postgres']);
		const { stdout: gid } = await run('id', ['-g', 'postgres']);
		chownSync(dataDir, Number(stdout.trim()), Number(gid.trim()));
	}
	chmodSync(dataDir, 0o700);
	const user = 'n8n';
	const database = 'n8n';
	const password = 'n8n-queue-e2e';
	const pgPort = await freePort();
	await run(...pg('initdb', ['-D', dataDir, '-U', user, '--auth=trust', '--encoding=UTF8', '--no-sync']), { timeoutMs: 120_000 });
	const postgres = daemon(...pg('postgres', ['-D', dataDir, '-p', String(pgPort), '-k', dataDir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=200']));
	const redisPort = await freePort();
	const redis = daemon('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir]);
	const stop = async () => {
		await Promise.all([stopDaemon(postgres.child, 10_000), stopDaemon(redis.child, 10_000)]);
		rmSync(dir, { recursive: true, force: true });
	};
	try {
		const deadline = Date.now() + 60_000;
		for (;;) {
			const ready = await run(...pg('pg_isready', ['-h', '127.0.0.1', '-p', String(pgPort)]), { allowFailure: true });
			if (ready.code === 0) break;
			if (postgres.child.exitCode !== null || Date.now() > deadline) throw new Error(`Postgres did not start:\n${tail(postgres.output(), 30)}`);
			await sleep(300);
		}
		await run(...pg('createdb', ['-h', '127.0.0.1', '-p', String(pgPort), '-U', user, database]));
		while (!(await redisPing(redisPort))) {
			if (redis.child.exitCode !== null || Date.now() > deadline) throw new Error(`Redis did not start:\n${tail(redis.output(), 30)}`);
			await sleep(300);
		}
	} catch (error) {
		await stop();
		throw error;
	}
	log(`Postgres on 127.0.0.1:${pgPort} (database ${database}), Redis on 127.0.0.1:${redisPort}`);
	return { postgres: { host: '127.0.0.1', port: pgPort, database, user, password }, redis: { host: '127.0.0.1', port: redisPort }, stop };
}
