/**
 * Deal Status Changed's baseline against a CRM larger than one poll: spread over polls (at most
 * BASELINE_REQUESTS_PER_POLL each), newest change first, with sparse fieldsets; its progress kept in
 * the state; a 429 pauses it without failing it; a poll cut off part-way loses only its own slice.
 * Counts only, through n8n-core's PollContext.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { BASELINE_REQUESTS_PER_POLL } from '../../nodes/shared/trigger/statusTransitions';
import type { EngineContext } from './helpers';
import { PollAbandoned, TestClock, runPoll } from '../../harness';
import { TIMELINE_START, useSandbox } from './helpers';
import { forgetRateBudgets } from '../../nodes/shared/requests/rateBudget';

/** Two polls' worth (at most 10,000 deals a poll): what the baseline keeps from one poll to the next. */
const DEALS = 12_000;
const env = useSandbox({ sizes: { deals: DEALS }, clock: TestClock.at(TIMELINE_START) });

function at(seconds: number, context: EngineContext = env): void {
	context.clock.set(TIMELINE_START + seconds * 1000);
}

async function poll(parameters: INodeParameters, staticData: IDataObject, abandonWhen?: Promise<unknown>, context: EngineContext = env) {
	const result = await runPoll({ nodeType: 'loanCrmDealsTrigger', parameters, credentials: context.store, staticData, abandonWhen });
	return (result?.[0] ?? []).map((item) => item.json);
}

// To Status empty: any status (a new node's default is Settled, version 1's empty).
const ANY_MOVE = { event: 'dealStatusChanged', toStatuses: [] };

/** The ids each request since the log was cleared was answered with, in order. */
async function idsPerRequest(): Promise<string[][]> {
	return env.sandbox
		.apiRequests()
		.filter((request) => request.status === 200)
		.map((request) => request.dataIds ?? []);
}

beforeEach(() => {
	env.sandbox.data.reset();
	at(0);
});

describe('the baseline of Deal Status Changed (all statuses) against 25,000 deals: a first, a middle and a last slice', () => {
	const LARGE = 25_000;
	const large = useSandbox({ sizes: { deals: LARGE }, clock: TestClock.at(TIMELINE_START) });

	it('is spread over three polls of at most 100 requests, newest first, sparse, and emits nothing', async () => {
		const state: IDataObject = {};
		const sizes: number[] = [];
		for (let round = 1; round <= 3; round++) {
			at(round, large);
			large.sandbox.clearLog();
			expect(await poll(ANY_MOVE, state, undefined, large)).toEqual([]);
			const requests = large.sandbox.apiRequests();
			sizes.push(requests.length);
			for (const request of requests) {
				expect(request.query.sort).toBe('-updated,-id');
				expect(request.query['fields[deals]']).toBe('dealStatus,updated');
			}
			if (round < 3) expect(state.baseline).toEqual(expect.objectContaining({ since: new Date(TIMELINE_START + 1000).toISOString(), after: expect.objectContaining({ id: expect.any(String) }) }));
		}
		expect(BASELINE_REQUESTS_PER_POLL).toBe(100);
		// ⌈25,000 ÷ 100⌉ pages and one to learn the last full page was the last.
		expect(sizes).toEqual([100, 100, 51]);
		expect(state.baseline).toBeUndefined();
		expect((state.known as { ids: number[] }).ids).toHaveLength(LARGE);
		expect(state.since).toBe(new Date(TIMELINE_START + 1000).toISOString());
	}, 180_000);
});

describe(`the baseline of Deal Status Changed (all statuses) against ${DEALS.toLocaleString('en')} deals: two slices`, () => {
	it('keeps its progress: each deal is read once over the polls, and moves during it are judged honestly', async () => {
		const state: IDataObject = {};
		at(1);
		await poll(ANY_MOVE, state);
		const firstSlice = new Set((await idsPerRequest()).flat());
		expect(firstSlice.size).toBe(BASELINE_REQUESTS_PER_POLL * 100);
		// While the baseline is taken: a deal already read changes status, and one not read yet.
		const readDeal = env.sandbox.data.get('deals', [...firstSlice][5000]);
		const unreadDeal = env.sandbox.data.list('deals').find((deal) => !firstSlice.has(deal.id) && deal.attributes.dealStatus !== 'Withdrawn');
		expect(readDeal && unreadDeal).toBeDefined();
		at(2);
		env.sandbox.data.updateDeal(unreadDeal!.id, { dealStatus: 'Withdrawn' });
		at(3);
		env.sandbox.data.updateDeal(readDeal!.id, { dealStatus: readDeal!.attributes.dealStatus === 'Withdrawn' ? 'Cancelled' : 'Withdrawn' });
		const read = [...firstSlice];
		for (let round = 4; state.baseline !== undefined; round++) {
			at(round);
			env.sandbox.clearLog();
			await poll(ANY_MOVE, state);
			read.push(...(await idsPerRequest()).flat());
		}
		// Every deal read once, except the one that moved ahead of the read before it was reached.
		expect(read).toHaveLength(DEALS - 1);
		expect(new Set(read).size).toBe(DEALS - 1);
		expect(read).not.toContain(unreadDeal!.id);
		// The first regular poll: the deal read before its move carries the status it left; the one
		// that moved before it was read is a deal not seen before.
		at(60);
		const moves = await poll(ANY_MOVE, state);
		expect(moves.map((item) => [item.id, item.previousStatus])).toEqual([
			[unreadDeal!.id, null],
			[readDeal!.id, readDeal!.attributes.dealStatus],
		]);
	}, 180_000);

	it('a 429 that the transport waits out pauses the slice and it continues', async () => {
		const state: IDataObject = {};
		env.sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { kind: 'delay', ms: 0 }, 40);
		env.sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { status: 429, headers: { 'retry-after': '1' } }, 1);
		expect(await poll(ANY_MOVE, state)).toEqual([]);
		const requests = env.sandbox.apiRequests();
		expect(requests.map((request) => request.status).filter((status) => status === 429)).toHaveLength(1);
		// The refused request was sent again after the wait, and the slice read its 100 pages.
		expect(requests.filter((request) => request.status === 200)).toHaveLength(BASELINE_REQUESTS_PER_POLL);
		expect(requests[41].rawQuery).toBe(requests[40].rawQuery);
	}, 60_000);

	it('a 429 beyond the waits ends the slice quietly, keeping what was read; the next poll goes on from there', async () => {
		const state: IDataObject = {};
		env.sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { kind: 'delay', ms: 0 }, 49);
		env.sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { status: 429, headers: { 'retry-after': '3600' } }, 1);
		// Activation does not fail.
		expect(await poll(ANY_MOVE, state)).toEqual([]);
		const firstSlice = (await idsPerRequest()).flat();
		expect(firstSlice).toHaveLength(49 * 100);
		expect((state.baseline as { after: { id: string } }).after.id).toBe(firstSlice[firstSlice.length - 1]);
		const read = [...firstSlice];
		// The next polls come after the hour the 429 asked for (the budget would hold them until then).
		forgetRateBudgets();
		while (state.baseline !== undefined) {
			env.sandbox.clearLog();
			await poll(ANY_MOVE, state);
			read.push(...(await idsPerRequest()).flat());
		}
		expect(read).toHaveLength(DEALS);
		expect(new Set(read).size).toBe(DEALS);
	}, 180_000);

	it('a 429 on the very first request: activation succeeds, nothing is stored, the next poll begins the baseline', async () => {
		const state: IDataObject = {};
		env.sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { status: 429, headers: { 'retry-after': '3600' } }, 1);
		expect(await poll(ANY_MOVE, state)).toEqual([]);
		expect(state).toEqual({});
		env.sandbox.clearLog();
		// The next poll comes after the hour the 429 asked for (the budget would hold it until then).
		forgetRateBudgets();
		await poll(ANY_MOVE, state);
		expect(env.sandbox.apiRequests()).toHaveLength(BASELINE_REQUESTS_PER_POLL);
		expect(state.baseline).toBeDefined();
	}, 60_000);

	it('a slice cut off part-way leaves the previous progress; the next poll reads that slice again, nothing else twice', async () => {
		const state: IDataObject = {};
		at(1);
		await poll(ANY_MOVE, state);
		const before = JSON.parse(JSON.stringify(state)) as IDataObject;
		const read = (await idsPerRequest()).flat();

		env.sandbox.clearLog();
		let arrived: () => void = () => undefined;
		const held = new Promise<void>((resolve) => (arrived = resolve));
		let answer: (() => void) | undefined;
		env.sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { kind: 'delay', ms: 0 }, 9);
		env.sandbox.injectFault(
			{ method: 'GET', path: '/jsonapi/deals' },
			{
				kind: 'custom',
				handle: (_request, response) => {
					answer = () => response.writeHead(500, { 'content-type': 'application/vnd.api+json' }).end('{"errors":[{"status":"500"}]}');
					arrived();
				},
			},
		);
		const cut = await poll(ANY_MOVE, state, held).catch((error: unknown) => error);
		expect(cut).toBeInstanceOf(PollAbandoned);
		expect(state).toEqual(before);
		answer?.();
		await (cut as PollAbandoned).settled;
		expect(state).toEqual(before);

		env.sandbox.clearFaults();
		while (state.baseline !== undefined) {
			env.sandbox.clearLog();
			await poll(ANY_MOVE, state);
			read.push(...(await idsPerRequest()).flat());
		}
		expect(read).toHaveLength(DEALS);
		expect(new Set(read).size).toBe(DEALS);
	}, 180_000);
});
