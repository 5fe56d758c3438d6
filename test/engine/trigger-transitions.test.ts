/**
 * Loan CRM Trigger, issue 11: the Deal Status Changed event, the service's clock, quiet polls,
 * faults and edits of the trigger's settings — scripted timelines against the sandbox, polled
 * through n8n-core's PollContext.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CredentialStore, TestClock, runPoll, sandboxCredential } from '../../harness';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { decodedQuery, TIMELINE_START, useSandbox } from './helpers';
import { forgetRateBudgets } from '../../nodes/shared/requests/rateBudget';

const DEALS = 300;
const env = useSandbox({ sizes: { deals: DEALS }, clock: TestClock.at(TIMELINE_START) });

/**
 * Moves the one clock (n8n's and the service's) to `seconds` past the test's start, in whole seconds
 * as the service stamps: `at(s)` is then exactly representable in its Date header.
 */
function at(seconds: number): void {
	env.clock.set(TIMELINE_START + seconds * 1000);
}
/** The service's clock as the trigger keeps it (ISO with milliseconds). */
function isoAt(seconds: number): string {
	return new Date(TIMELINE_START + seconds * 1000).toISOString();
}
/** A record stamp as the service writes it (whole seconds carry no fraction). */
function stampAt(seconds: number): string {
	return isoAt(seconds).replace('.000Z', 'Z');
}

/** The Deals trigger; the first block also runs as the legacy Loan CRM Trigger (one implementation). */
let nodeType = 'loanCrmDealsTrigger';

async function poll(parameters: INodeParameters, staticData: IDataObject, options: { mode?: 'trigger' | 'manual'; store?: CredentialStore } = {}) {
	// Version 1: the items saved workflows get (version 1.1's are in trigger-items.test.ts).
	const result = await runPoll({ nodeType, parameters, credentials: options.store ?? env.store, staticData, mode: options.mode ?? 'trigger', typeVersion: 1 });
	return (result?.[0] ?? []).map((item) => item.json);
}

const SETTLED = { event: 'dealStatusChanged', toStatuses: ['Settled'] };

function dealsIn(status: string, count: number, except: string[] = [], sandbox: Sandbox = env.sandbox) {
	return sandbox.data
		.list('deals')
		.filter((deal) => deal.attributes.dealStatus === status && !except.includes(deal.id))
		.slice(0, count);
}

beforeEach(() => {
	env.sandbox.data.reset();
	at(0);
});

describe.each(['loanCrmDealsTrigger', 'loanCrmTrigger'])('Deal Status Changed (%s)', (type) => {
	beforeEach(() => {
		nodeType = type;
	});
	afterAll(() => {
		nodeType = 'loanCrmDealsTrigger';
	});

	it('settle → edit → leave → return: fires on each move into Settled, never on edits', async () => {
		const state: IDataObject = {};
		const settledAtActivation = env.sandbox.data.list('deals').filter((deal) => deal.attributes.dealStatus === 'Settled');
		expect(settledAtActivation.length).toBeGreaterThan(0);

		expect(await poll(SETTLED, state)).toEqual([]);
		// Activation: every Settled deal, newest change first, sparse fieldset, keyset pages of 100.
		const baseline = env.sandbox.apiRequests();
		expect(baseline).toHaveLength(Math.floor(settledAtActivation.length / 100) + 1);
		expect(decodedQuery(baseline[0].rawQuery)).toBe("filter=equals(dealStatus,'Settled')&sort=-updated,-id&fields[deals]=dealStatus,updated&page[size]=100");
		expect(state.since).toBe(isoAt(0));

		// An edit of a deal that was already Settled at activation does not fire.
		at(1);
		const [alreadySettled] = settledAtActivation;
		env.sandbox.data.updateDeal(alreadySettled.id, { name: 'Renamed while settled' });
		const [deal] = dealsIn('Lodged', 1);
		env.sandbox.data.updateDeal(deal.id, { lenderName: 'First Bank' });
		expect(await poll(SETTLED, state)).toEqual([]);

		// The move into Settled fires once, with the status it left and the service's stamp.
		at(5);
		const settled = env.sandbox.data.updateDeal(deal.id, { dealStatus: 'Settled' });
		const emitted = await poll(SETTLED, state);
		expect(emitted).toEqual([
			expect.objectContaining({ id: deal.id, type: 'deals', dealStatus: 'Settled', lenderName: 'First Bank', previousStatus: 'Lodged', statusChangedAt: settled.attributes.updated }),
		]);
		expect(emitted[0].statusChangedAt).toBe(stampAt(5));
		// What a person looks at first comes first; the rest is the deal as Get Many returns it.
		expect(Object.keys(emitted[0]).slice(0, 4)).toEqual(['id', 'name', 'previousStatus', 'statusChangedAt']);
		expect(await poll(SETTLED, state)).toEqual([]);

		// Later edits of the settled deal (its name, then its lender) fire nothing.
		at(8);
		env.sandbox.data.updateDeal(deal.id, { name: 'Fixed the name' });
		expect(await poll(SETTLED, state)).toEqual([]);
		at(12);
		env.sandbox.data.updateDeal(deal.id, { lenderName: 'Second Bank' });
		expect(await poll(SETTLED, state)).toEqual([]);

		// It leaves Settled (nothing), and fires again when it comes back.
		at(20);
		env.sandbox.data.updateDeal(deal.id, { dealStatus: 'Varied' });
		expect(await poll(SETTLED, state)).toEqual([]);
		at(30);
		env.sandbox.data.updateDeal(deal.id, { dealStatus: 'Settled' });
		expect((await poll(SETTLED, state)).map((item) => [item.id, item.previousStatus, item.statusChangedAt])).toEqual([[deal.id, 'Varied', stampAt(30)]]);

		// The deal settled at activation fires once it has left and come back.
		at(40);
		env.sandbox.data.updateDeal(alreadySettled.id, { dealStatus: 'Repaid' });
		expect(await poll(SETTLED, state)).toEqual([]);
		at(41);
		env.sandbox.data.updateDeal(alreadySettled.id, { dealStatus: 'Settled' });
		expect((await poll(SETTLED, state)).map((item) => [item.id, item.previousStatus])).toEqual([[alreadySettled.id, 'Repaid']]);
		expect(await poll(SETTLED, state)).toEqual([]);
	});

	it('previousStatus is null for a deal not known before; new deals created as Settled fire', async () => {
		const state: IDataObject = {};
		await poll(SETTLED, state);
		at(3);
		const [quiet] = dealsIn('PendingSettlement', 1);
		env.sandbox.data.updateDeal(quiet.id, { dealStatus: 'Settled' });
		const created = env.sandbox.data.createDeal({ name: 'Imported settled', dealStatus: 'Settled' });
		env.sandbox.data.createDeal({ name: 'Imported lead' });
		expect((await poll(SETTLED, state)).map((item) => [item.id, item.previousStatus])).toEqual([
			[quiet.id, null],
			[created.id, null],
		]);
	});

	it('From Status: fires only for moves out of a selected status (into a selected To status)', async () => {
		const state: IDataObject = {};
		const parameters = { event: 'dealStatusChanged', fromStatuses: ['PendingSettlement'], toStatuses: ['Settled'] };
		await poll(parameters, state);
		expect(env.sandbox.apiRequests()[0].query.filter).toBe("equals(dealStatus,'PendingSettlement')");
		at(2);
		const [pending, pendingToo] = dealsIn('PendingSettlement', 2);
		const [lodged] = dealsIn('Lodged', 1);
		env.sandbox.data.updateDeal(pending.id, { dealStatus: 'Settled' });
		env.sandbox.data.updateDeal(pendingToo.id, { dealStatus: 'Withdrawn' });
		env.sandbox.data.updateDeal(lodged.id, { dealStatus: 'Settled' });
		expect((await poll(parameters, state)).map((item) => [item.id, item.previousStatus, item.dealStatus])).toEqual([[pending.id, 'PendingSettlement', 'Settled']]);
		expect(await poll(parameters, state)).toEqual([]);
	});

	it('From Status alone: any move out of it; empty To and From: any status change at all', async () => {
		const leaving: IDataObject = {};
		const any: IDataObject = {};
		const leaveParameters = { event: 'dealStatusChanged', fromStatuses: ['Lodged'] };
		const anyParameters = { event: 'dealStatusChanged' };
		await poll(leaveParameters, leaving);
		env.sandbox.clearLog();
		await poll(anyParameters, any);
		// Any status: the baseline reads every deal, 100 a request (a full last page needs one more to
		// know it was the last), without a status filter.
		expect(env.sandbox.apiRequests()).toHaveLength(Math.floor(DEALS / 100) + 1);
		expect(env.sandbox.apiRequests()[0].query.filter).toBeUndefined();
		at(2);
		const [lodged, other] = dealsIn('Lodged', 2);
		const [fresh] = dealsIn('NewLeads', 1);
		env.sandbox.data.updateDeal(lodged.id, { dealStatus: 'InProgress' });
		env.sandbox.data.updateDeal(other.id, { name: 'Still lodged' });
		env.sandbox.data.updateDeal(fresh.id, { dealStatus: 'Researching' });
		expect((await poll(leaveParameters, leaving)).map((item) => [item.id, item.previousStatus, item.dealStatus])).toEqual([[lodged.id, 'Lodged', 'InProgress']]);
		expect(new Set((await poll(anyParameters, any)).map((item) => `${item.id}:${item.previousStatus}>${item.dealStatus}`))).toEqual(
			new Set([`${lodged.id}:Lodged>InProgress`, `${fresh.id}:NewLeads>Researching`]),
		);
	});

	it('catches a status change whose stamp arrives late, within the safety window, once', async () => {
		const state: IDataObject = {};
		await poll(SETTLED, state);
		at(60);
		const [onTime, late] = dealsIn('Lodged', 2);
		env.sandbox.data.updateDeal(onTime.id, { dealStatus: 'Settled' });
		expect((await poll(SETTLED, state)).map((item) => item.id)).toEqual([onTime.id]);
		// Stamped 50 s before the previous poll's clock, visible only now.
		env.sandbox.data.updateDeal(late.id, { dealStatus: 'Settled', updated: stampAt(10) });
		expect((await poll(SETTLED, state)).map((item) => [item.id, item.statusChangedAt])).toEqual([[late.id, stampAt(10)]]);
		expect(await poll(SETTLED, state)).toEqual([]);
	});

	it('rejects a status that is not a deal status, naming the parameter, before any request', async () => {
		await expect(poll({ event: 'dealStatusChanged', toStatuses: ['Setled'] }, {})).rejects.toThrow(
			'Parameter "To Status" has "Setled", which is not a deal status; use one of NewLeads, Researching',
		);
		await expect(poll({ event: 'dealStatusChanged', fromStatuses: 'Lodged, Nope' as unknown as string[] }, {})).rejects.toThrow('Parameter "From Status" has "Nope"');
		expect(env.sandbox.apiRequests()).toEqual([]);
	});

	it('takes statuses from an expression (comma-separated text)', async () => {
		const state: IDataObject = {};
		const parameters = { event: 'dealStatusChanged', toStatuses: '={{ "Settled, Repaid" }}' as unknown as string[] };
		await poll(parameters, state);
		expect(env.sandbox.apiRequests()[0].query.filter).toBe("any(dealStatus,'Settled','Repaid')");
		at(2);
		const [deal] = dealsIn('Lodged', 1);
		env.sandbox.data.updateDeal(deal.id, { dealStatus: 'Repaid' });
		expect((await poll(parameters, state)).map((item) => item.dealStatus)).toEqual(['Repaid']);
	});

	it('Fetch Test Event returns the newest deal in a To status, shaped like an event, and stores nothing', async () => {
		at(30);
		const [deal] = dealsIn('Lodged', 1);
		const settled = env.sandbox.data.updateDeal(deal.id, { dealStatus: 'Settled' });
		const state: IDataObject = {};
		const sample = await poll(SETTLED, state, { mode: 'manual' });
		expect(sample).toEqual([expect.objectContaining({ id: deal.id, dealStatus: 'Settled', previousStatus: null, statusChangedAt: settled.attributes.updated, sample: true })]);
		expect(Object.keys(sample[0]).slice(0, 4)).toEqual(['id', 'name', 'previousStatus', 'statusChangedAt']);
		expect(env.sandbox.apiRequests()[0].query).toEqual({ filter: "any(dealStatus,'Settled')", sort: '-updated', 'page[size]': '1' });
		expect(state).toEqual({});
	});
});

describe("the service's clock", () => {
	it.each([
		['behind', -300],
		['ahead of', 300],
	])('with the service 5 minutes %s n8n, loses and repeats nothing', async (_direction, offsetSeconds) => {
		// The service's clock runs `offsetSeconds` from n8n's: the one clock, seen shifted by the
		// sandbox. What the trigger keeps is the service's time, never n8n's.
		const service = await startSandbox({ sizes: { deals: DEALS }, clock: env.clock.shifted(offsetSeconds * 1000) });
		const serviceIsoAt = (seconds: number) => isoAt(offsetSeconds + seconds);
		try {
			const store = new CredentialStore();
			store.add('loanCrmOAuth2Api', sandboxCredential(service));
			for (const parameters of [{ event: 'dealUpdated' }, SETTLED]) {
				service.data.reset();
				service.clearLog();
				const state: IDataObject = {};
				at(-20);
				const [before, after] = dealsIn('Lodged', 2, [], service);
				service.data.updateDeal(before.id, { dealStatus: 'Settled', name: 'Before activation' });
				at(0);
				expect(await poll(parameters, state, { store })).toEqual([]);
				expect(state.since).toBe(serviceIsoAt(0));
				at(2);
				service.data.updateDeal(after.id, { dealStatus: 'Settled', name: 'Right after activation' });
				expect((await poll(parameters, state, { store })).map((item) => item.id)).toEqual([after.id]);
				// The read started at the service's clock of activation, not at n8n's.
				expect(service.apiRequests().at(-1)?.query.filter).toBe(`greaterOrEqual(updated,'${serviceIsoAt(0)}')`);
				at(3);
				expect(await poll(parameters, state, { store })).toEqual([]);
			}
		} finally {
			await service.close();
		}
	});

	it('follows a sandbox started 5 minutes behind', async () => {
		const sandbox = await startSandbox({ sizes: { deals: 20 }, clock: env.clock.shifted(-300_000) });
		try {
			const store = new CredentialStore();
			store.add('loanCrmOAuth2Api', sandboxCredential(sandbox));
			const state: IDataObject = {};
			const [deal] = sandbox.data.list('deals');
			await poll({ event: 'dealUpdated' }, state, { store });
			// The service's clock (whole seconds, 5 minutes behind n8n's) at the poll, not n8n's.
			expect(state.since).toBe(isoAt(-300));
			// The next whole second of the service's clock, so the change is stamped after activation.
			at(1);
			sandbox.data.updateDeal(deal.id, { name: 'Changed after activation' });
			expect((await poll({ event: 'dealUpdated' }, state, { store })).map((item) => [item.id, item.name])).toEqual([[deal.id, 'Changed after activation']]);
			expect(await poll({ event: 'dealUpdated' }, state, { store })).toEqual([]);
		} finally {
			await sandbox.close();
		}
	});
});

describe('quiet polls', () => {
	it('after a burst drains out of the safety window, each poll is one request and writes nothing', async () => {
		const state: IDataObject = {};
		const parameters = { event: 'dealUpdated', options: { safetyWindow: 60 } };
		await poll(parameters, state);
		at(5);
		const burst = env.sandbox.data.list('deals').slice(0, 254);
		for (const deal of burst) env.sandbox.data.updateDeal(deal.id, { name: `Burst ${deal.id}` });
		env.sandbox.clearLog();
		expect(await poll(parameters, state)).toHaveLength(254);
		// One id-order page (full), then three pages in change order.
		expect(env.sandbox.apiRequests()).toHaveLength(4);

		// Within the window the burst is re-read (and skipped); past it, one empty request a poll.
		at(30);
		env.sandbox.clearLog();
		expect(await poll(parameters, state)).toEqual([]);
		expect(env.sandbox.apiRequests()).toHaveLength(4);
		at(100);
		expect(await poll(parameters, state)).toEqual([]);
		const drained = JSON.stringify(state);
		expect(state.seen).toEqual({});
		for (const second of [160, 220, 600]) {
			at(second);
			env.sandbox.clearLog();
			expect(await poll(parameters, state)).toEqual([]);
			const requests = env.sandbox.apiRequests();
			expect(requests).toHaveLength(1);
			expect(requests[0].query).toEqual({ filter: `greaterOrEqual(updated,'${isoAt(40)}')`, 'page[size]': '100' });
			expect(requests[0].cost).toBe(10);
			expect(JSON.stringify(state)).toBe(drained);
		}
	});

	it('two edits of one record within the same second, with a poll between them, are both emitted', async () => {
		const state: IDataObject = {};
		await poll({ event: 'dealUpdated' }, state);
		at(7);
		const [deal] = env.sandbox.data.list('deals');
		env.sandbox.data.updateDeal(deal.id, { name: 'First edit' });
		expect((await poll({ event: 'dealUpdated' }, state)).map((item) => item.name)).toEqual(['First edit']);
		env.sandbox.data.updateDeal(deal.id, { name: 'Second edit, same second' });
		expect(env.sandbox.data.get('deals', deal.id)?.attributes.updated).toBe(stampAt(7));
		expect((await poll({ event: 'dealUpdated' }, state)).map((item) => item.name)).toEqual(['Second edit, same second']);
		expect(await poll({ event: 'dealUpdated' }, state)).toEqual([]);
	});

	it('a status change within the same second as an edit already polled is emitted', async () => {
		const state: IDataObject = {};
		await poll(SETTLED, state);
		at(7);
		const [deal] = dealsIn('PendingSettlement', 1);
		env.sandbox.data.updateDeal(deal.id, { name: 'Edited' });
		expect(await poll(SETTLED, state)).toEqual([]);
		env.sandbox.data.updateDeal(deal.id, { dealStatus: 'Settled' });
		expect((await poll(SETTLED, state)).map((item) => [item.id, item.previousStatus])).toEqual([[deal.id, 'PendingSettlement']]);
	});
});

describe('faults', () => {
	async function changedWithFaultOnPageTwo(parameters: INodeParameters, fault: Parameters<Sandbox['injectFault']>[1], times: number) {
		const state: IDataObject = {};
		at(0);
		await poll(parameters, state);
		at(4);
		const changed = env.sandbox.data
			.list('deals')
			.filter((deal) => deal.attributes.dealStatus !== 'Settled')
			.slice(0, 150);
		expect(changed).toHaveLength(150);
		for (const deal of changed) env.sandbox.data.updateDeal(deal.id, { dealStatus: 'Settled' });
		const before = JSON.parse(JSON.stringify(state)) as IDataObject;
		// Page 1 answers normally (a zero delay), page 2 meets the fault.
		env.sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { kind: 'delay', ms: 0 });
		env.sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, fault, times);
		env.sandbox.clearLog();
		return { state, before, changed };
	}

	it.each([
		['a 500', { status: 500 }, 1, 2],
		['a dropped connection (beyond the retries)', { kind: 'drop' as const }, 4, 5],
		['a 429 beyond the retry budget', { status: 429, headers: { 'retry-after': '3600' } }, 1, 2],
	])('%s on page 2 emits nothing, keeps the state, and the next poll emits every change once', async (_label, fault, times, requests) => {
		for (const parameters of [{ event: 'dealUpdated' }, SETTLED]) {
			env.sandbox.data.reset();
			const { state, before, changed } = await changedWithFaultOnPageTwo(parameters, fault, times);
			await expect(poll(parameters, state)).rejects.toThrow();
			expect(env.sandbox.apiRequests()).toHaveLength(requests);
			expect(state).toEqual(before);
			at(5);
			// The next poll comes after the hour a 429 asked for (the budget would hold it until then).
			forgetRateBudgets();
			const emitted = await poll(parameters, state);
			expect(emitted.map((item) => item.id).sort()).toEqual(changed.map((deal) => deal.id).sort());
			expect(await poll(parameters, state)).toEqual([]);
		}
	}, 60_000);

	it('a 401 on a poll gets one new token, then the poll goes on', async () => {
		const state: IDataObject = {};
		await poll(SETTLED, state);
		at(3);
		const [deal] = dealsIn('Lodged', 1);
		env.sandbox.data.updateDeal(deal.id, { dealStatus: 'Settled' });
		env.sandbox.expireAllTokens();
		env.sandbox.clearLog();
		expect((await poll(SETTLED, state)).map((item) => item.id)).toEqual([deal.id]);
		expect(env.sandbox.tokenRequests()).toHaveLength(1);
		expect(env.sandbox.apiRequests().map((request) => request.status)).toEqual([401, 200]);
	});
});

describe('editing an active trigger', () => {
	it('another event, status list or filter starts from a fresh baseline: no flood, no stale skip', async () => {
		const state: IDataObject = {};
		await poll({ event: 'dealUpdated' }, state);
		at(2);
		const [first, second, third, fourth] = dealsIn('Lodged', 4);
		env.sandbox.data.updateDeal(first.id, { dealStatus: 'Settled' });
		expect((await poll({ event: 'dealUpdated' }, state)).map((item) => item.id)).toEqual([first.id]);

		// Deal Updated → Deal Status Changed: the first poll is a baseline; what happened before is not emitted.
		at(4);
		env.sandbox.clearLog();
		expect(await poll(SETTLED, state)).toEqual([]);
		expect(env.sandbox.apiRequests()[0].query.filter).toBe("equals(dealStatus,'Settled')");
		expect(state.seen).toBeUndefined();
		at(6);
		env.sandbox.data.updateDeal(first.id, { name: 'Edit of a deal settled before the switch' });
		env.sandbox.data.updateDeal(second.id, { dealStatus: 'Settled' });
		expect((await poll(SETTLED, state)).map((item) => item.id)).toEqual([second.id]);

		// A different To list: state made for Settled is not reused (Repaid deals are baselined).
		at(8);
		const repaid = { event: 'dealStatusChanged', toStatuses: ['Repaid'] };
		expect(await poll(repaid, state)).toEqual([]);
		at(9);
		env.sandbox.data.updateDeal(third.id, { dealStatus: 'Repaid' });
		expect((await poll(repaid, state)).map((item) => [item.id, item.previousStatus])).toEqual([[third.id, null]]);

		// A new filter: fresh baseline too. A deal that starts matching the filter while already
		// Settled did not move, so it does not fire; one that settles while matching does.
		at(12);
		const filtered = { ...SETTLED, filter: "equals(lenderName,'Edited Bank')" };
		expect(await poll(filtered, state)).toEqual([]);
		at(13);
		env.sandbox.data.updateDeal(first.id, { lenderName: 'Edited Bank' });
		env.sandbox.data.updateDeal(fourth.id, { dealStatus: 'Settled', lenderName: 'Edited Bank' });
		env.sandbox.data.updateDeal(third.id, { dealStatus: 'Settled', lenderName: 'Other Bank' });
		env.sandbox.clearLog();
		expect((await poll(filtered, state)).map((item) => item.id)).toEqual([fourth.id]);
		const filterCheck = env.sandbox.apiRequests()[1];
		const [low, high] = [third.id, fourth.id].sort((a, b) => Number(a) - Number(b));
		expect(filterCheck.query.filter).toBe(`and(any(id,'${low}','${high}'),equals(lenderName,'Edited Bank'))`);

		// Back to Deal Updated: a baseline, then only later changes.
		at(20);
		expect(await poll({ event: 'dealUpdated' }, state)).toEqual([]);
		expect(state.known).toBeUndefined();
		at(21);
		env.sandbox.data.updateDeal(second.id, { name: 'After switching back' });
		expect((await poll({ event: 'dealUpdated' }, state)).map((item) => item.id)).toEqual([second.id]);
	});
});

describe('upgrading', () => {
	it('an active Deal Updated trigger with state from version 0.1.0 carries on after its stored position', async () => {
		at(5);
		const [emittedBefore, changedAfter] = env.sandbox.data.list('deals');
		env.sandbox.data.updateDeal(emittedBefore.id, { name: 'Emitted by 0.1.0' });
		// What 0.1.0 stored: the newest stamp it had seen and `id@ms` keys.
		const state: IDataObject = { since: isoAt(5), seen: { [`${emittedBefore.id}@${TIMELINE_START + 5000}`]: TIMELINE_START + 5000 } };
		at(8);
		env.sandbox.data.updateDeal(changedAfter.id, { name: 'Changed during the upgrade' });
		at(9);
		expect((await poll({ event: 'dealUpdated' }, state)).map((item) => item.id)).toEqual([changedAfter.id]);
		expect(env.sandbox.apiRequests()[0].query.filter).toBe(`greaterOrEqual(updated,'${new Date(TIMELINE_START + 5001).toISOString()}')`);
		expect(typeof state.settings).toBe('string');
		expect(await poll({ event: 'dealUpdated' }, state)).toEqual([]);
	});
});
