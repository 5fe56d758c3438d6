/**
 * Loan CRM Trigger at volume: a 10,000-change burst, and more changes in one window than the
 * seen-set holds. (The status memory's cap: trigger-memory-cap.test.ts.)
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MAX_SEEN } from '../../nodes/LoanCrmTrigger/changeFeed';
import { runPoll } from '../../harness';
import { useSandbox } from './helpers';

const DEALS = MAX_SEEN + 100;
const env = useSandbox({ sizes: { deals: DEALS } });

let clock = 0;
function at(seconds: number): void {
	const instant = new Date(clock + seconds * 1000);
	env.sandbox.data.setNow(() => instant);
}

async function poll(parameters: INodeParameters, staticData: IDataObject) {
	const result = await runPoll({ nodeType: 'loanCrmTrigger', parameters, credentials: env.store, staticData });
	return (result?.[0] ?? []).map((item) => item.json);
}

/** `count` deal ids in a scrambled (not id) order, so change order and id order differ. */
function scrambledIds(count: number): string[] {
	const ids = env.sandbox.data.idsOf('deals').slice(0, count);
	// 7919 is prime and does not divide `count`, so this is a permutation.
	return ids.map((_id, index) => ids[(index * 7919) % count]);
}

beforeEach(() => {
	env.sandbox.data.reset();
	clock = Math.floor(Date.now() / 1000) * 1000;
	at(0);
});

describe('Loan CRM Trigger at volume', () => {
	it('10,000 deals changed between two polls: each emitted once, in change order, in ⌈10,000/100⌉ + 1 requests', async () => {
		const state: IDataObject = {};
		await poll({ event: 'dealUpdated' }, state);
		expect(env.sandbox.apiRequests()).toHaveLength(1);
		const order = scrambledIds(10_000);
		expect(new Set(order).size).toBe(10_000);
		order.forEach((id, index) => {
			env.sandbox.data.setNow(new Date(clock + 1000 + index * 3));
			env.sandbox.data.updateDeal(id, { name: `Imported ${index}` });
		});
		at(40);
		env.sandbox.clearLog();
		const emitted = await poll({ event: 'dealUpdated' }, state);
		expect(emitted.map((item) => item.id)).toEqual(order);
		// 100 full pages, and one more to learn the last full page was the last (no meta.total).
		expect(env.sandbox.apiRequests()).toHaveLength(101);
		expect(await poll({ event: 'dealUpdated' }, state)).toEqual([]);
	}, 120_000);

	it('more changes in one window than the seen-set holds: none is emitted twice', async () => {
		const state: IDataObject = {};
		const parameters = { event: 'dealUpdated', options: { safetyWindow: 600 } };
		await poll(parameters, state);
		const count = MAX_SEEN + 50;
		const ids = env.sandbox.data.idsOf('deals').slice(0, count);
		ids.forEach((id, index) => {
			env.sandbox.data.setNow(new Date(clock + 1000 + index));
			env.sandbox.data.updateDeal(id, { name: `Bulk ${index}` });
		});
		at(30);
		expect(await poll(parameters, state)).toHaveLength(count);
		expect(Object.keys(state.seen as object)).toHaveLength(MAX_SEEN);
		// The horizon moved past the 50 forgotten ones, so the re-read cannot meet them.
		expect(state.horizon).toBe(new Date(clock + 1000 + 50).toISOString());
		at(40);
		expect(await poll(parameters, state)).toEqual([]);
		at(41);
		env.sandbox.data.updateDeal(ids[0], { name: 'Changed again' });
		expect((await poll(parameters, state)).map((item) => [item.id, item.name])).toEqual([[ids[0], 'Changed again']]);
	}, 180_000);
});
