/**
 * What a trigger item looks like at each node version, through n8n-core's PollContext against the
 * sandbox. Version 1.1 (what the editor gives a new Deals or Contacts Trigger) reads like Get Many's
 * summary rows, with id, name, status, previous status, when it changed, amount and lender first;
 * Simplify off gives every field. Version 1 (saved workflows) keeps its items exactly.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { TestClock, runPoll } from '../../harness';
import { jsonOf, TIMELINE_START, useSandbox } from './helpers';

const env = useSandbox({ clock: TestClock.at(TIMELINE_START) });

function at(seconds: number): void {
	env.clock.set(TIMELINE_START + seconds * 1000);
}

async function poll(nodeType: string, typeVersion: number, parameters: INodeParameters, staticData: IDataObject, mode: 'trigger' | 'manual' = 'trigger') {
	const result = await runPoll({ nodeType, parameters, credentials: env.store, staticData, mode, typeVersion });
	return (result?.[0] ?? []).map((item) => item.json);
}

function dealIn(status: string): string {
	const deal = env.sandbox.data.list('deals').find((record) => record.attributes.dealStatus === status);
	if (deal === undefined) throw new Error(`no ${status} deal in the sandbox`);
	return deal.id;
}

/** The deal as Deals → Get gives it at version 1.1 with Simplify: its summary row. */
async function summaryRow(id: string): Promise<IDataObject> {
	const [row] = jsonOf(await env.run('loanCrmDeals', { resource: 'deal', operation: 'get', dealId: { __rl: true, mode: 'id', value: id } }));
	return row;
}

const SETTLED = { event: 'dealStatusChanged', toStatuses: ['Settled'] };
const LEADING_MOVE = ['id', 'name', 'dealStatus', 'previousStatus', 'statusChangedAt', 'totalLoanAmount', 'lenderName'];

beforeEach(() => {
	env.sandbox.data.reset();
	at(0);
});

describe('Loan CRM Deals Trigger, version 1.1', () => {
	it('a move into Settled is the deal summary row, with the move after the status and amount and lender next', async () => {
		const state: IDataObject = {};
		// With From Status set the trigger remembers the deals in it, so the move's previousStatus is known.
		const parameters = { ...SETTLED, fromStatuses: ['PendingSettlement'] };
		expect(await poll('loanCrmDealsTrigger', 1.1, parameters, state)).toEqual([]);
		at(5);
		const id = dealIn('PendingSettlement');
		const settled = env.sandbox.data.updateDeal(id, { dealStatus: 'Settled' });
		const [item, ...others] = await poll('loanCrmDealsTrigger', 1.1, parameters, state);
		expect(others).toEqual([]);
		expect(Object.keys(item).slice(0, LEADING_MOVE.length)).toEqual(LEADING_MOVE);
		const { previousStatus, statusChangedAt, ...row } = item;
		expect({ previousStatus, statusChangedAt }).toEqual({ previousStatus: 'PendingSettlement', statusChangedAt: settled.attributes.updated });
		// The same columns and values as Get Many's (Get's) summary row of the deal; nothing nested.
		expect(row).toEqual(await summaryRow(id));
		expect(Object.values(item).filter((value) => value !== null && typeof value === 'object')).toEqual([]);
	});

	it('Simplify off gives every field, nested ones included, as version 1 does', async () => {
		const parameters = { ...SETTLED, simplify: false };
		const [newer, older] = [{}, {}] as IDataObject[];
		await poll('loanCrmDealsTrigger', 1.1, parameters, newer);
		await poll('loanCrmDealsTrigger', 1, SETTLED, older);
		at(5);
		env.sandbox.data.updateDeal(dealIn('PendingSettlement'), { dealStatus: 'Settled' });
		const [whole] = await poll('loanCrmDealsTrigger', 1.1, parameters, newer);
		const [version1] = await poll('loanCrmDealsTrigger', 1, SETTLED, older);
		expect(whole).toEqual(version1);
		expect(whole).toEqual(expect.objectContaining({ type: 'deals', dates: expect.objectContaining({ settled: expect.anything() }), opportunity: expect.any(Object) }));
	});

	it('Deal Updated and Deal Created: id, name, status, amount and lender first, no move fields', async () => {
		for (const event of ['dealUpdated', 'dealCreated']) {
			env.sandbox.data.reset();
			at(0);
			const state: IDataObject = {};
			await poll('loanCrmDealsTrigger', 1.1, { event }, state);
			at(5);
			const created = env.sandbox.data.createDeal({ name: `New ${event}` });
			const [item] = await poll('loanCrmDealsTrigger', 1.1, { event }, state);
			expect(Object.keys(item).slice(0, 5)).toEqual(['id', 'name', 'dealStatus', 'totalLoanAmount', 'lenderName']);
			expect(item).not.toHaveProperty('previousStatus');
			expect(item).toEqual(await summaryRow(created.id));
		}
	});

	it('Fetch Test Event: a move of the event chosen, with a previous status and the sample marker first', async () => {
		at(5);
		const id = dealIn('Lodged');
		env.sandbox.data.updateDeal(id, { dealStatus: 'Settled' });
		const [sample] = await poll('loanCrmDealsTrigger', 1.1, SETTLED, {}, 'manual');
		expect(Object.keys(sample).slice(0, LEADING_MOVE.length + 1)).toEqual(['sample', ...LEADING_MOVE]);
		// The service keeps no history: a settlement follows Pending Settlement on the pipeline.
		expect(sample).toEqual(expect.objectContaining({ sample: true, id, dealStatus: 'Settled', previousStatus: 'PendingSettlement' }));
		// With From Status set, a status of that list.
		const [fromLodged] = await poll('loanCrmDealsTrigger', 1.1, { ...SETTLED, fromStatuses: ['NewLeads', 'Lodged'] }, {}, 'manual');
		expect(fromLodged).toEqual(expect.objectContaining({ id, previousStatus: 'Lodged' }));
	});

	it('Fetch Test Event: the status the trigger remembers, when it has seen the deal in another one', async () => {
		const state: IDataObject = {};
		const parameters = { event: 'dealStatusChanged', toStatuses: ['Settled'], fromStatuses: ['Lodged', 'PendingSettlement'] };
		await poll('loanCrmDealsTrigger', 1.1, parameters, state);
		at(5);
		const id = dealIn('Lodged');
		env.sandbox.data.updateDeal(id, { dealStatus: 'Settled' });
		const [sample] = await poll('loanCrmDealsTrigger', 1.1, parameters, state, 'manual');
		expect(sample).toEqual(expect.objectContaining({ sample: true, id, previousStatus: 'Lodged' }));
	});
});

describe('version 1 (saved workflows) keeps its items', () => {
	it('a move: id, name, previousStatus, statusChangedAt, then every field; a test event: previousStatus null, sample last', async () => {
		const state: IDataObject = {};
		await poll('loanCrmDealsTrigger', 1, SETTLED, state);
		at(5);
		const id = dealIn('PendingSettlement');
		env.sandbox.data.updateDeal(id, { dealStatus: 'Settled' });
		const [item] = await poll('loanCrmDealsTrigger', 1, SETTLED, state);
		expect(Object.keys(item).slice(0, 5)).toEqual(['id', 'name', 'previousStatus', 'statusChangedAt', 'type']);
		expect(item.dates).toEqual(expect.objectContaining({ settled: expect.anything() }));
		const [sample] = await poll('loanCrmDealsTrigger', 1, SETTLED, {}, 'manual');
		expect(sample).toEqual(expect.objectContaining({ id, previousStatus: null }));
		expect(Object.keys(sample).at(-1)).toBe('sample');
	});
});

describe('Loan CRM Contacts Trigger, version 1.1', () => {
	it('a contact comes whole (contacts are flat), as in version 1; a test event has its sample marker first', async () => {
		const [newer, older] = [{}, {}] as IDataObject[];
		await poll('loanCrmContactsTrigger', 1.1, { event: 'contactCreated' }, newer);
		await poll('loanCrmContactsTrigger', 1, { event: 'contactCreated' }, older);
		at(5);
		const created = env.sandbox.data.createContact({ firstName: 'Ada', lastName: 'Lovelace' });
		const [item] = await poll('loanCrmContactsTrigger', 1.1, { event: 'contactCreated' }, newer);
		expect(item).toEqual((await poll('loanCrmContactsTrigger', 1, { event: 'contactCreated' }, older))[0]);
		expect(Object.keys(item).slice(0, 4)).toEqual(['id', 'type', 'firstName', 'lastName']);
		expect(item.id).toBe(created.id);
		const [sample] = await poll('loanCrmContactsTrigger', 1.1, { event: 'contactCreated' }, {}, 'manual');
		expect(Object.keys(sample).slice(0, 2)).toEqual(['sample', 'id']);
		expect(sample).toEqual(expect.objectContaining({ sample: true, id: created.id }));
	});
});
