/**
 * Measuring tools used inside a bench worker process: wall time, peak memory, TCP connections
 * opened, and the sandbox's control calls.
 */
import diagnosticsChannel from 'diagnostics_channel';
import { mkdirSync, readFileSync, writeFileSync } from 'fs';
import inspector from 'inspector';
import { join } from 'path';
import { performance } from 'perf_hooks';

import type { SandboxStats } from './sandbox-process';

/** Runs a full garbage collection when the process was started with --expose-gc. */
export function collectGarbage(): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (gc) {
		gc();
		gc();
	}
}

/**
 * Peak RSS and heap while a measured run is in progress: sampled every 50 ms the event loop is
 * free (the node and the floor both await I/O between pages), and once more when the run ends,
 * while its result is still referenced (retained items peak there). Not more often:
 * `process.memoryUsage()` costs about 0.15 ms a call, which at 1 ms intervals was 15% of a run.
 * RSS is also read from the kernel's high-water mark (`resourceUsage().maxRSS`) of the process.
 */
export class MemorySampler {
	peakRss = 0;
	peakHeap = 0;
	private timer?: NodeJS.Timeout;

	start(): this {
		this.sample();
		this.timer = setInterval(() => this.sample(), 50);
		return this;
	}

	sample(): void {
		const usage = process.memoryUsage();
		if (usage.rss > this.peakRss) this.peakRss = usage.rss;
		if (usage.heapUsed > this.peakHeap) this.peakHeap = usage.heapUsed;
	}

	stop(): void {
		this.sample();
		if (this.timer) clearInterval(this.timer);
	}
}

/** Kernel high-water mark of this process's RSS, in bytes. */
export function maxRssBytes(): number {
	return process.resourceUsage().maxRSS * 1024;
}

/** Counts TCP connections this process opens (Node's `net.client.socket` channel; fetch and http both publish it). */
export class ConnectionCounter {
	count = 0;
	private readonly listener = () => {
		this.count++;
	};

	constructor() {
		diagnosticsChannel.subscribe('net.client.socket', this.listener);
	}

	reset(): void {
		this.count = 0;
	}

	dispose(): void {
		diagnosticsChannel.unsubscribe('net.client.socket', this.listener);
	}
}

export function now(): number {
	return performance.now();
}

/** Calls to the sandbox process's control port. */
export class Control {
	constructor(private readonly url: string) {}

	async reset(): Promise<void> {
		const response = await fetch(`${this.url}/reset`, { method: 'POST' });
		await response.text();
	}

	async stats(): Promise<SandboxStats> {
		const response = await fetch(`${this.url}/stats`);
		return (await response.json()) as SandboxStats;
	}

	async ids(type: string, n: number): Promise<string[]> {
		const response = await fetch(`${this.url}/ids?type=${encodeURIComponent(type)}&n=${n}`);
		return (await response.json()) as string[];
	}

	async dataReset(): Promise<void> {
		const response = await fetch(`${this.url}/data-reset`, { method: 'POST' });
		await response.text();
	}

	/** The sandbox's clock runs `offsetMs` ahead of the machine's from now on. */
	async clock(offsetMs: number): Promise<void> {
		const response = await fetch(`${this.url}/clock?offsetMs=${offsetMs}`, { method: 'POST' });
		await response.text();
	}

	/** Changes the first `n` deals one after another (a bulk import); returns their ids in change order. */
	async touch(n: number, dealStatus?: string): Promise<string[]> {
		const query = `n=${n}${dealStatus ? `&dealStatus=${encodeURIComponent(dealStatus)}` : ''}`;
		const response = await fetch(`${this.url}/touch?${query}`, { method: 'POST' });
		return (await response.json()) as string[];
	}
}

/** CPU time (ms) all CPUs of the machine spent busy since boot, from /proc/stat; undefined where there is none. */
export function machineBusyMs(): number | undefined {
	try {
		const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
		const fields = line.trim().split(/\s+/).slice(1).map(Number);
		// user nice system idle iowait irq softirq steal …
		const [user, nice, system, , , irq, softirq, steal] = fields;
		return ((user + nice + system + irq + softirq + (steal ?? 0)) * 1000) / 100;
	} catch {
		return undefined;
	}
}

export interface RunWindow {
	ms: number;
	connections: number;
	stats: SandboxStats;
	/** CPU ms this process used during the run. */
	selfCpuMs: number;
	/**
	 * CPU ms the rest of the machine used during the run: all busy time less this process and the
	 * sandbox process. Near 0 on a quiet machine; large values mean the figures are disturbed.
	 */
	otherCpuMs?: number;
}

/**
 * One measured run: full GC, sandbox counters reset, then the run, timed, with the TCP
 * connections it opened, the sandbox's counters and the CPU time used around it.
 */
export async function measured<T>(control: Control, connections: ConnectionCounter, run: () => Promise<T>): Promise<{ value: T; window: RunWindow }> {
	collectGarbage();
	await control.reset();
	connections.reset();
	const profiler = await startProfiler();
	const busy0 = machineBusyMs();
	const self0 = process.cpuUsage();
	const t0 = now();
	const value = await run();
	const ms = now() - t0;
	const self = process.cpuUsage(self0);
	const busy1 = machineBusyMs();
	await profiler?.stop();
	const opened = connections.count;
	const stats = await control.stats();
	const selfCpuMs = (self.user + self.system) / 1000;
	const otherCpuMs = busy0 !== undefined && busy1 !== undefined ? Math.max(0, busy1 - busy0 - selfCpuMs - stats.cpuMs) : undefined;
	return { value, window: { ms, connections: opened, stats, selfCpuMs, otherCpuMs } };
}

let profileCount = 0;

/**
 * With BENCH_CPU_PROFILE_DIR set, a V8 CPU profile of each measured run alone (not the warm-up or
 * loading) is written there as <job>-<pid>-<n>.cpuprofile, for Chrome DevTools or speedscope.
 */
async function startProfiler(): Promise<{ stop(): Promise<void> } | undefined> {
	const directory = process.env.BENCH_CPU_PROFILE_DIR;
	if (!directory) return undefined;
	const session = new inspector.Session();
	session.connect();
	const post = (method: string, params?: object) =>
		new Promise<unknown>((resolvePromise, reject) =>
			session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolvePromise(result))),
		);
	await post('Profiler.enable');
	await post('Profiler.setSamplingInterval', { interval: 200 });
	await post('Profiler.start');
	return {
		async stop() {
			const { profile } = (await post('Profiler.stop')) as { profile: unknown };
			session.disconnect();
			mkdirSync(directory, { recursive: true });
			const name = `${process.env.BENCH_JOB_KIND ?? 'run'}-${process.pid}-${++profileCount}.cpuprofile`;
			writeFileSync(join(directory, name), JSON.stringify(profile));
		},
	};
}
