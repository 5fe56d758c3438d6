/**
 * The Loan CRM triggers: a scripted timeline against the sandbox, polled through n8n-core's
 * PollContext, must yield every change exactly once — run for each trigger type (the Deals and
 * Contacts triggers, and the legacy Loan CRM Trigger that saved workflows use), which share one
 * implementation.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { TestClock, runPoll } from '../../harness';
import { decodedQuery, TIMELINE_START, useSandbox } from './helpers';

const env = useSandbox({ clock: TestClock.at(TIMELINE_START) });

/** Moves the one clock (n8n's, and the service's that stamps created/updated) to `seconds` past the test's start. */
function at(seconds: number): void {
	env.clock.set(TIMELINE_START + seconds * 1000);
}

/** The trigger types under test: which one serves deal events and which contact events. */
const TYPES = [
	{ label: 'Loan CRM Deals / Contacts Trigger', deals: 'loanCrmDealsTrigger', contacts: 'loanCrmContactsTrigger' },
	{ label: 'Loan CRM Trigger (legacy)', deals: 'loanCrmTrigger', contacts: 'loanCrmTrigger' },
];
let types = TYPES[0];

async function poll(parameters: INodeParameters, staticData: IDataObject, mode: 'trigger' | 'manual' = 'trigger') {
	const nodeType = String(parameters.event).startsWith('contact') ? types.contacts : types.deals;
	// Version 1: the items saved workflows get (version 1.1's are in trigger-items.test.ts).
	const result = await runPoll({ nodeType, parameters, credentials: env.store, staticData, mode, typeVersion: 1 });
	return (result?.[0] ?? []).map((item) => item.json);
}

beforeEach(() => {
	env.sandbox.data.reset();
	at(0);
});

describe.each(TYPES)('$label', (under) => {
	beforeEach(() => {
		types = under;
	});

	it('emits nothing on activation, then each new deal once, in order, even within one second', async () => {
		const state: IDataObject = {};
		expect(await poll({ event: 'dealCreated' }, state)).toEqual([]);
		expect(typeof state.since).toBe('string');

		at(5);
		const created = [env.sandbox.data.createDeal({ name: 'Burst A' }), env.sandbox.data.createDeal({ name: 'Burst B' }), env.sandbox.data.createDeal({ name: 'Burst C' })];
		const emitted = await poll({ event: 'dealCreated' }, state);
		expect(emitted.map((item) => item.id)).toEqual(created.map((deal) => deal.id));
		expect(emitted[0]).toEqual(expect.objectContaining({ type: 'deals', name: 'Burst A' }));

		expect(await poll({ event: 'dealCreated' }, state)).toEqual([]);
		at(6);
		const another = env.sandbox.data.createDeal({ name: 'Same second as nothing else' });
		expect((await poll({ event: 'dealCreated' }, state)).map((item) => item.id)).toEqual([another.id]);
	});

	it('filters by timestamp on the server; a window of more than a page is read in change order by keyset', async () => {
		const state: IDataObject = {};
		await poll({ event: 'dealUpdated' }, state);
		env.sandbox.clearLog();
		at(3);
		const changed = Array.from({ length: 150 }, (_, index) => env.sandbox.data.createDeal({ name: `Bulk ${index}` }));
		const emitted = await poll({ event: 'dealUpdated' }, state);
		expect(emitted).toHaveLength(150);
		expect(new Set(emitted.map((item) => item.id))).toEqual(new Set(changed.map((deal) => deal.id)));
		const requests = env.sandbox.apiRequests();
		expect(requests).toHaveLength(3);
		// One page in id order (a quiet window ends here); it was full, so the read starts again in
		// change order, page 1 every time, after the last record's (stamp, id).
		expect(decodedQuery(requests[0].rawQuery)).toMatch(/^filter=greaterOrEqual\(updated,'\d{4}-\d\d-\d\dT[\d:.]+Z'\)&page\[size\]=100$/);
		expect(decodedQuery(requests[1].rawQuery)).toMatch(/^filter=greaterOrEqual\(updated,'[^']+'\)&sort=updated,id&page\[size\]=100$/);
		expect(decodedQuery(requests[2].rawQuery)).toMatch(
			/^filter=and\(greaterOrEqual\(updated,'[^']+'\),or\(greaterThan\(updated,'[^']+'\),and\(equals\(updated,'[^']+'\),greaterThan\(id,'\d+'\)\)\)\)&sort=updated,id&page\[size\]=100$/,
		);
		// A sort other than by id costs double on the service's rate limit.
		expect(requests.map((request) => request.cost)).toEqual([10, 20, 20]);
	});

	it('emits a record changed twice between polls once, and again after a later change', async () => {
		const state: IDataObject = {};
		const [existing] = env.sandbox.data.list('deals');
		await poll({ event: 'dealUpdated' }, state);
		at(2);
		env.sandbox.data.updateDeal(existing.id, { name: 'First change' });
		at(3);
		env.sandbox.data.updateDeal(existing.id, { name: 'Second change' });
		const emitted = await poll({ event: 'dealUpdated' }, state);
		expect(emitted.map((item) => [item.id, item.name])).toEqual([[existing.id, 'Second change']]);
		expect(await poll({ event: 'dealUpdated' }, state)).toEqual([]);
		at(4);
		env.sandbox.data.updateDeal(existing.id, { name: 'Third change' });
		expect((await poll({ event: 'dealUpdated' }, state)).map((item) => item.name)).toEqual(['Third change']);
	});

	it('catches records whose timestamps arrive late, within the safety window, without repeating', async () => {
		const state: IDataObject = {};
		await poll({ event: 'dealUpdated' }, state);
		at(10);
		const onTime = env.sandbox.data.createDeal({ name: 'On time' });
		expect((await poll({ event: 'dealUpdated' }, state)).map((item) => item.id)).toEqual([onTime.id]);
		// The service's clock lags: this change is stamped before the newest one already seen.
		at(4);
		const late = env.sandbox.data.createDeal({ name: 'Late stamp' });
		expect((await poll({ event: 'dealUpdated' }, state)).map((item) => item.id)).toEqual([late.id]);
		expect(await poll({ event: 'dealUpdated' }, state)).toEqual([]);
	});

	it("combines the user's filter with the event's condition", async () => {
		const state: IDataObject = {};
		await poll({ event: 'dealUpdated', filter: "equals(dealStatus,'Settled')" }, state);
		env.sandbox.clearLog();
		at(2);
		const [first, second] = env.sandbox.data.list('deals').filter((deal) => deal.attributes.dealStatus !== 'Settled');
		env.sandbox.data.updateDeal(first.id, { dealStatus: 'Settled' });
		env.sandbox.data.updateDeal(second.id, { dealStatus: 'Lodged' });
		const emitted = await poll({ event: 'dealUpdated', filter: "equals(dealStatus,'Settled')" }, state);
		expect(emitted.map((item) => [item.id, item.dealStatus])).toEqual([[first.id, 'Settled']]);
		expect(env.sandbox.apiRequests()[0].query.filter).toMatch(/^and\(greaterOrEqual\(updated,'[^']+'\),equals\(dealStatus,'Settled'\)\)$/);
	});

	it('contactCreated ignores changes to existing contacts; contactUpdated sees them', async () => {
		const created: IDataObject = {};
		const updated: IDataObject = {};
		await poll({ event: 'contactCreated' }, created);
		await poll({ event: 'contactUpdated' }, updated);
		at(2);
		const [existing] = env.sandbox.data.list('contacts');
		env.sandbox.data.updateContact(existing.id, { firstName: 'Renamed' });
		const fresh = env.sandbox.data.createContact({ firstName: 'New', lastName: 'Person' });
		expect((await poll({ event: 'contactCreated' }, created)).map((item) => item.id)).toEqual([fresh.id]);
		expect(new Set((await poll({ event: 'contactUpdated' }, updated)).map((item) => item.id))).toEqual(new Set([existing.id, fresh.id]));
	});

	it('refuses a Max Records per Poll outside 1–5000 (e.g. from an expression), naming it, before any request', async () => {
		for (const value of ['={{ 0 }}', '={{ 6000 }}', '={{ 2.5 }}']) {
			await expect(poll({ event: 'dealUpdated', options: { maxRecordsPerPoll: value as unknown as number } }, {})).rejects.toThrow(
				/^Parameter "Options → Max Records per Poll" must be a whole number from 1 to 5000; got /,
			);
		}
		expect(env.sandbox.apiRequests()).toEqual([]);
	});

	it('Fetch Test Event returns one recent record, marked as a sample', async () => {
		at(30);
		const newest = env.sandbox.data.createDeal({ name: 'Newest deal' });
		const sample = await poll({ event: 'dealUpdated' }, {}, 'manual');
		expect(sample).toEqual([expect.objectContaining({ id: newest.id, name: 'Newest deal', sample: true })]);
		// Otherwise the item is the record as a poll emits it, the mark last.
		const [emitted] = await poll({ event: 'dealUpdated' }, {}, 'manual');
		expect(Object.keys(emitted).at(-1)).toBe('sample');
	});

	it('keeps its remembered state bounded over sixty polls, twenty safety windows', async () => {
		// A poll every 10 s with a 30 s window: what a poll remembers leaves the window three polls on,
		// so twenty windows show growth as plainly as a thousand would (unbounded: 60 keys and some
		// 2,000 characters of state, against at most 5 and under 1,000).
		const state: IDataObject = {};
		const parameters = { event: 'dealUpdated', options: { safetyWindow: 30 } };
		await poll(parameters, state);
		const [deal] = env.sandbox.data.list('deals');
		let emittedTotal = 0;
		const sizes: number[] = [];
		for (let round = 1; round <= 60; round++) {
			at(round * 10);
			env.sandbox.data.updateDeal(deal.id, { name: `Round ${round}` });
			emittedTotal += (await poll(parameters, state)).length;
			sizes.push(Object.keys(state.seen as object).length);
		}
		expect(emittedTotal).toBe(60);
		expect(Math.max(...sizes)).toBeLessThanOrEqual(5);
		expect(JSON.stringify(state).length).toBeLessThan(1000);
	}, 120_000);
});

describe('the trigger types', () => {
	it('each offers only its own events: another one (e.g. from an edited workflow file) is refused by name, before any request', async () => {
		for (const [nodeType, event] of [
			['loanCrmDealsTrigger', 'contactCreated'],
			['loanCrmContactsTrigger', 'dealStatusChanged'],
		]) {
			await expect(runPoll({ nodeType, parameters: { event }, credentials: env.store, staticData: {} })).rejects.toThrow(
				`Parameter "Event" has "${event}", which is not an event of this trigger`,
			);
		}
		expect(env.sandbox.apiRequests()).toEqual([]);
	});

	it('their default events: Deal Status Changed, Contact Created; the legacy trigger keeps Deal Updated', async () => {
		const firstRequest = async (nodeType: string) => {
			env.sandbox.clearLog();
			await runPoll({ nodeType, parameters: {}, credentials: env.store, staticData: {} });
			return env.sandbox.apiRequests()[0];
		};
		expect((await firstRequest('loanCrmDealsTrigger')).query).toEqual(expect.objectContaining({ sort: '-updated,-id', 'fields[deals]': 'dealStatus,updated' }));
		expect(await firstRequest('loanCrmContactsTrigger')).toEqual(expect.objectContaining({ path: '/jsonapi/contacts', query: expect.objectContaining({ sort: '-created' }) }));
		expect(await firstRequest('loanCrmTrigger')).toEqual(expect.objectContaining({ path: '/jsonapi/deals', query: expect.objectContaining({ sort: '-updated', 'fields[deals]': 'updated' }) }));
	});
});
