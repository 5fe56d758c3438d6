/** One measured run as the workers report it, and how it is made from a measured window. */
import type { RunWindow } from './measure';

export interface RunSample {
	ms: number;
	/** Items the node returned (or records the floor read). */
	records: number;
	api: number;
	token: number;
	spent: number;
	pageNumberRequests: number;
	connections: number;
	sandboxCpuMs: number;
	/** CPU ms of the process that ran the node (or the floor loop) during the run. */
	selfCpuMs: number;
	/** CPU ms used by everything else on the machine during the run (see measure.ts). */
	otherCpuMs?: number;
	statuses: Record<string, number>;
	/** Round trips one after the other (sandbox-process.ts `roundTrips`): the latency steps the run waited for. */
	rounds?: number;
	/** Memory (bytes): peaks during the measured run, and the level it started from. */
	peakRss?: number;
	peakHeap?: number;
	maxRss?: number;
	startRss?: number;
	startHeap?: number;
	error?: string;
	/** How many times the bench repeated this run because other processes disturbed it. */
	retries?: number;
}

export function sampleFrom(window: RunWindow, records: number): RunSample {
	const { stats } = window;
	return {
		ms: window.ms,
		records,
		api: stats.api,
		token: stats.token,
		spent: stats.spent,
		pageNumberRequests: stats.pageNumberRequests,
		connections: window.connections,
		sandboxCpuMs: stats.cpuMs,
		selfCpuMs: window.selfCpuMs,
		otherCpuMs: window.otherCpuMs,
		statuses: stats.statuses,
		rounds: stats.rounds,
	};
}
