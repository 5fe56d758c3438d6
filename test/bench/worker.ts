/**
 * One bench job in a process of its own (forked by bench.ts with --expose-gc): the job comes as
 * JSON in argv[2], the result goes back with `process.send`. Engine jobs load n8n-core and the
 * harness; floor jobs load nothing but Node.
 */
import type { ItemOperation, LatencyClient } from './latency';
import type { RunSample } from './sample';
import type { FloorPaging } from './floor';
import { fetchToken, floorGetAll, floorPatchTasks, taskUpdates } from './floor';
import { Control, ConnectionCounter, MemorySampler, maxRssBytes, measured } from './measure';
import { sampleFrom } from './sample';
import type { SandboxInfo } from './sandbox-process';

export type Job =
	| { kind: 'nodeGetMany'; sandbox: SandboxInfo; warmupRecords: number; warmups: number }
	| { kind: 'floorGetMany'; sandbox: SandboxInfo; warmupRecords: number; warmups: number }
	| { kind: 'nodeReturnAll'; sandbox: SandboxInfo; sort?: string; runs: number; warmups: number }
	| { kind: 'floorReturnAll'; sandbox: SandboxInfo; paging: FloorPaging; sort?: string; runs: number; warmups: number }
	| { kind: 'httpRequestReturnAll'; sandbox: SandboxInfo; paging: 'nextLink' | 'pageParameter'; runs: number; warmups: number }
	| { kind: 'tokens'; sandbox: SandboxInfo; itemCounts: number[]; runs: number }
	| { kind: 'nodeWrites'; sandbox: SandboxInfo; items: number; runs: number; warmups: number }
	| { kind: 'floorWrites'; sandbox: SandboxInfo; items: number; runs: number; warmups: number }
	| { kind: 'flatten'; sandbox: SandboxInfo; sizes: number[]; include: string; samples: number; sampleMs: number }
	| { kind: 'triggerActivation'; sandbox: SandboxInfo }
	| { kind: 'triggerDrain'; sandbox: SandboxInfo; changes: number }
	| { kind: 'sandboxScale'; sizes: [number, number]; runs: number; pages: number }
	| { kind: 'pacing'; job: 'writes' | 'returnAll' | 'twoExecutions' | 'jobWhilePolling'; writes: number; deals: number }
	| { kind: 'pacingProcesses'; job: 'twoProcesses' | 'fourProcesses'; items: number }

	| { kind: 'latencyReturnAll'; sandbox: SandboxInfo; client: LatencyClient }
	| { kind: 'latencyItems'; sandbox: SandboxInfo; operation: ItemOperation; items: number; client: LatencyClient };

/** The floor's Get Many: warm-up loops, then one measured loop over every page, like nodeGetMany. */
async function floorGetMany(sandbox: SandboxInfo, warmupRecords: number, warmups: number): Promise<RunSample> {
	const control = new Control(sandbox.controlUrl);
	const token = await fetchToken(sandbox);
	for (let i = 0; i < warmups; i++) await floorGetAll(sandbox, token, { paging: 'keyset', stopAfter: warmupRecords });
	const connections = new ConnectionCounter();
	const sampler = new MemorySampler();
	let start = process.memoryUsage();
	const { value: result, window } = await measured(control, connections, async () => {
		start = process.memoryUsage();
		sampler.start();
		const loop = await floorGetAll(sandbox, token, { paging: 'keyset' });
		sampler.stop();
		return loop;
	});
	return {
		...sampleFrom(window, result.records),
		peakRss: sampler.peakRss,
		peakHeap: sampler.peakHeap,
		maxRss: maxRssBytes(),
		startRss: start.rss,
		startHeap: start.heapUsed,
	};
}

async function floorRuns(
	sandbox: SandboxInfo,
	runs: number,
	warmups: number,
	body: (token: string) => Promise<{ records: number; requests: number }>,
): Promise<RunSample[]> {
	const control = new Control(sandbox.controlUrl);
	const token = await fetchToken(sandbox);
	const connections = new ConnectionCounter();
	const samples: RunSample[] = [];
	for (let i = 0; i < warmups + runs; i++) {
		const { value: result, window } = await measured(control, connections, () => body(token));
		if (i < warmups) continue;
		samples.push(sampleFrom(window, result.records));
	}
	return samples;
}

async function run(job: Job): Promise<unknown> {
	switch (job.kind) {
		case 'nodeGetMany': {
			const engine = await import('./engine');
			return await engine.nodeGetMany(job.sandbox, job.warmupRecords, job.warmups);
		}
		case 'floorGetMany':
			return await floorGetMany(job.sandbox, job.warmupRecords, job.warmups);
		case 'nodeReturnAll': {
			const engine = await import('./engine');
			return await engine.nodeReturnAllRuns(job.sandbox, { sort: job.sort, runs: job.runs, warmups: job.warmups });
		}
		case 'floorReturnAll':
			return await floorRuns(job.sandbox, job.runs, job.warmups, (token) =>
				floorGetAll(job.sandbox, token, { paging: job.paging, sort: job.sort }),
			);
		case 'httpRequestReturnAll': {
			const engine = await import('./engine');
			return await engine.httpRequestReturnAllRuns(job.sandbox, { paging: job.paging, runs: job.runs, warmups: job.warmups });
		}
		case 'tokens': {
			const engine = await import('./engine');
			return await engine.tokenRuns(job.sandbox, job.itemCounts, job.runs);
		}
		case 'nodeWrites': {
			const engine = await import('./engine');
			return await engine.nodeWrites(job.sandbox, job.items, job.runs, job.warmups);
		}
		case 'floorWrites': {
			const updates = await taskUpdates(new Control(job.sandbox.controlUrl), job.items);
			const samples = await floorRuns(job.sandbox, job.runs, job.warmups, (token) => floorPatchTasks(job.sandbox, token, updates));
			await new Control(job.sandbox.controlUrl).dataReset();
			return samples;
		}
		case 'latencyReturnAll': {
			const latency = await import('./latency');
			return await latency.latencyReturnAll(job.sandbox, job.client);
		}
		case 'latencyItems': {
			const latency = await import('./latency');
			return await latency.latencyItems(job.sandbox, job.operation, job.items, job.client);
		}
		case 'flatten': {
			const flatten = await import('./flatten-bench');
			return await flatten.flattenBench(job.sandbox, job.sizes, job.include, job.samples, job.sampleMs);
		}
		case 'triggerActivation': {
			const trigger = await import('./trigger-scale');
			return await trigger.triggerActivation(job.sandbox);
		}
		case 'triggerDrain': {
			const trigger = await import('./trigger-scale');
			return await trigger.triggerDrain(job.sandbox, job.changes);
		}
		case 'sandboxScale': {
			const scale = await import('./sandbox-scale');
			return await scale.sandboxScale(job.sizes, job.runs, job.pages);
		}
		case 'pacing': {
			const pacing = await import('./pacing');
			return await pacing.pacingJob(job.job, job.writes, job.deals);
		}
		case 'pacingProcesses': {
			const pacing = await import('./pacing');
			return await pacing.pacingProcessesJob(job.job, job.items);
		}
	}
}

async function main(): Promise<void> {
	const job = JSON.parse(process.argv[2] ?? '{}') as Job;
	process.env.BENCH_JOB_KIND = job.kind;
	try {
		const result = await run(job);
		process.send?.({ ok: true, result }, () => process.exit(0));
	} catch (error) {
		// fetch() puts what went wrong (a refused or reset connection) in `cause`.
		const reason = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
		const cause = reason instanceof Error ? ` (${reason.message})` : '';
		const message = error instanceof Error ? `${error.message}${cause}\n${error.stack ?? ''}` : String(error);
		process.send?.({ ok: false, error: message }, () => process.exit(1));
	}
}

void main();
