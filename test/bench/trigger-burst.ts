/**
 * Section 6 of `npm run bench`: one Loan CRM Trigger poll after a bulk import changed 10,000 deals
 * (issue 11). Runs in a worker process (worker.ts); the sandbox is in its own process and changes
 * the deals through its control port (`POST /touch`), so the poll reads them over loopback like
 * any other. Measured per run: wall time, API requests, peak RSS and heap, items emitted, and the
 * size of the trigger's static data afterwards. Each run starts from a fresh baseline.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CredentialStore, runPoll, sandboxCredential } from '../../harness';
import { Control, ConnectionCounter, MemorySampler, maxRssBytes, measured } from './measure';
import type { RunSample } from './sample';
import { sampleFrom } from './sample';
import type { SandboxInfo } from './sandbox-process';

export interface TriggerBurstCase {
	event: string;
	changes: number;
	samples: Array<RunSample & { staticDataBytes: number; inOrder: boolean }>;
}

/** Whether `emitted` lists ids in the order they were changed (each at most once). */
function inChangeOrder(emitted: string[], changed: string[]): boolean {
	const position = new Map(changed.map((id, index) => [id, index]));
	let last = -1;
	for (const id of emitted) {
		const at = position.get(id);
		if (at === undefined || at <= last) return false;
		last = at;
	}
	return true;
}

async function poll(store: CredentialStore, parameters: INodeParameters, staticData: IDataObject): Promise<IDataObject[]> {
	const result = await runPoll({ nodeType: 'loanCrmTrigger', parameters, credentials: store, staticData });
	return (result?.[0] ?? []).map((item) => item.json);
}

export async function triggerBurst(sandbox: SandboxInfo, changes: number, runs: number): Promise<TriggerBurstCase[]> {
	const control = new Control(sandbox.controlUrl);
	const store = new CredentialStore();
	store.add('loanCrmOAuth2Api', sandboxCredential(sandbox));
	const cases: TriggerBurstCase[] = [];
	const events: Array<[string, INodeParameters]> = [
		['Deal Updated', { event: 'dealUpdated' }],
		['Deal Status Changed → Settled', { event: 'dealStatusChanged', toStatuses: ['Settled'] }],
	];
	for (const [label, parameters] of events) {
		const samples: TriggerBurstCase['samples'] = [];
		for (let run = 0; run < runs; run++) {
			await control.dataReset();
			const state: IDataObject = {};
			await poll(store, parameters, state);
			// The service stamps whole seconds: let the import start in the next one.
			await new Promise((resolve) => setTimeout(resolve, 1100));
			const touched = await control.touch(changes, parameters.event === 'dealStatusChanged' ? 'Settled' : undefined);
			const connections = new ConnectionCounter();
			const sampler = new MemorySampler();
			let start = process.memoryUsage();
			const { value: emitted, window } = await measured(control, connections, async () => {
				start = process.memoryUsage();
				sampler.start();
				const items = await poll(store, parameters, state);
				sampler.stop();
				return items;
			});
			const ids = emitted.map((item) => String(item.id));
			samples.push({
				...sampleFrom(window, emitted.length),
				peakRss: sampler.peakRss,
				peakHeap: sampler.peakHeap,
				maxRss: maxRssBytes(),
				startRss: start.rss,
				startHeap: start.heapUsed,
				staticDataBytes: JSON.stringify(state).length,
				inOrder: inChangeOrder(ids, touched),
			});
		}
		cases.push({ event: label, changes, samples });
	}
	await control.dataReset();
	return cases;
}
