/**
 * Section 7 of `npm run bench`: the Loan CRM Deals Trigger against a CRM of 100,000 deals, over a
 * played network (the sandbox process answers every request after 50 ± 5 ms). Runs in a worker
 * process (worker.ts, with --expose-gc); the sandbox runs in its own process and is driven through
 * its control port (reset, a bulk import `POST /touch`, its clock `POST /clock`).
 *
 * - Activation of each event: every poll until the trigger holds a complete baseline (Created /
 *   Updated: one request; Deal Status Changed: the spread baseline). Requests (all, and the most
 *   one poll sent), polls, wall time, the worker's peak RSS and heap, the static data it stores and
 *   its bytes per remembered deal.
 * - A backlog of 100,000 changes drained: a bulk import changes every deal (1 ms apart on the
 *   service's clock), and the trigger polls again five minutes later (the import is then older than
 *   the safety window, as after n8n was down during a bulk job): polls back to back until a poll
 *   finds nothing. Per poll: requests, items, peak RSS and heap (a full GC before each); in all:
 *   wall time, and whether every change came once, in change order.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CredentialStore, runPoll, sandboxCredential } from '../../harness';
import { Control, MemorySampler, collectGarbage, now } from './measure';
import type { SandboxInfo } from './sandbox-process';

export interface TriggerActivationCase {
	event: string;
	polls: number;
	requests: number;
	maxRequestsPerPoll: number;
	ms: number;
	peakRss: number;
	peakHeap: number;
	staticDataBytes: number;
	remembered: number;
	emitted: number;
}

export interface TriggerDrainPoll {
	items: number;
	requests: number;
	ms: number;
	peakRss: number;
	peakHeap: number;
}

export interface TriggerDrainCase {
	changes: number;
	polls: TriggerDrainPoll[];
	ms: number;
	/** Every change emitted exactly once, in change order. */
	inOrder: boolean;
	emitted: number;
	staticDataBytesMax: number;
	spent: number;
}

const TRIGGER = 'loanCrmDealsTrigger';

async function poll(store: CredentialStore, parameters: INodeParameters, staticData: IDataObject): Promise<IDataObject[]> {
	const result = await runPoll({ nodeType: TRIGGER, parameters, credentials: store, staticData });
	return (result?.[0] ?? []).map((item) => item.json);
}

function credentialStore(sandbox: SandboxInfo): CredentialStore {
	const store = new CredentialStore();
	store.add('loanCrmOAuth2Api', sandboxCredential(sandbox));
	return store;
}

/** Whether `emitted` is exactly `changed`, in the same order. */
function exactlyInOrder(emitted: string[], changed: string[]): boolean {
	return emitted.length === changed.length && emitted.every((id, index) => id === changed[index]);
}

export async function triggerActivation(sandbox: SandboxInfo): Promise<TriggerActivationCase[]> {
	const control = new Control(sandbox.controlUrl);
	const store = credentialStore(sandbox);
	const events: Array<[string, INodeParameters]> = [
		['Deal Created', { event: 'dealCreated' }],
		['Deal Updated', { event: 'dealUpdated' }],
		['Deal Status Changed → Settled', { event: 'dealStatusChanged', toStatuses: ['Settled'] }],
		['Deal Status Changed, any status', { event: 'dealStatusChanged', toStatuses: [] }],
	];
	// A token first, so the activations count only their own requests.
	await poll(store, { event: 'dealCreated' }, {});
	const cases: TriggerActivationCase[] = [];
	for (const [event, parameters] of events) {
		await control.dataReset();
		await control.reset();
		collectGarbage();
		const sampler = new MemorySampler().start();
		const state: IDataObject = {};
		let polls = 0;
		let maxRequestsPerPoll = 0;
		let emitted = 0;
		let requestsBefore = 0;
		const t0 = now();
		do {
			emitted += (await poll(store, parameters, state)).length;
			polls += 1;
			const { api } = await control.stats();
			maxRequestsPerPoll = Math.max(maxRequestsPerPoll, api - requestsBefore);
			requestsBefore = api;
		} while (state.baseline !== undefined && polls < 50);
		const ms = now() - t0;
		sampler.stop();
		const known = state.known as { ids: number[] } | undefined;
		cases.push({
			event,
			polls,
			requests: (await control.stats()).api,
			maxRequestsPerPoll,
			ms,
			peakRss: sampler.peakRss,
			peakHeap: sampler.peakHeap,
			staticDataBytes: JSON.stringify(state).length,
			remembered: known?.ids.length ?? 0,
			emitted,
		});
	}
	await control.dataReset();
	return cases;
}

export async function triggerDrain(sandbox: SandboxInfo, changes: number): Promise<TriggerDrainCase> {
	const control = new Control(sandbox.controlUrl);
	const store = credentialStore(sandbox);
	const parameters: INodeParameters = { event: 'dealUpdated' };
	await control.dataReset();
	await control.clock(0);
	const state: IDataObject = {};
	await poll(store, parameters, state);
	// The service stamps whole seconds: the import starts in the next one.
	await new Promise((resolve) => setTimeout(resolve, 1100));
	const changed = await control.touch(changes);
	// n8n comes back five minutes after the import ended: the backlog is older than the safety window.
	await control.clock(changes + 300_000);
	await control.reset();
	const polls: TriggerDrainPoll[] = [];
	const emitted: string[] = [];
	let staticDataBytesMax = 0;
	let requestsBefore = 0;
	const t0 = now();
	for (let index = 0; index < 1000; index++) {
		collectGarbage();
		const sampler = new MemorySampler().start();
		const started = now();
		const items = await poll(store, parameters, state);
		const ms = now() - started;
		sampler.stop();
		const { api } = await control.stats();
		polls.push({ items: items.length, requests: api - requestsBefore, ms, peakRss: sampler.peakRss, peakHeap: sampler.peakHeap });
		requestsBefore = api;
		for (const item of items) emitted.push(String(item.id));
		staticDataBytesMax = Math.max(staticDataBytesMax, JSON.stringify(state).length);
		if (items.length === 0 && state.drain === undefined) break;
	}
	const ms = now() - t0;
	const { spent } = await control.stats();
	await control.clock(0);
	await control.dataReset();
	return { changes, polls, ms, inOrder: exactlyInOrder(emitted, changed), emitted: emitted.length, staticDataBytesMax, spent };
}
