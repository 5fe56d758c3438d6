/**
 * Loan CRM Trigger: more watched deals than the status memory holds. The documented degradation:
 * the longest-untouched are forgotten (with a warning); a forgotten deal that is touched while in a
 * To status fires once with previousStatus null; nothing floods and nothing stops.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MAX_REMEMBERED_DEALS } from '../../nodes/shared/trigger/statusTransitions';
import { TestClock, runPoll } from '../../harness';
import { TIMELINE_START, useSandbox } from './helpers';

const env = useSandbox({ sizes: { deals: MAX_REMEMBERED_DEALS + 100 }, clock: TestClock.at(TIMELINE_START) });

function at(seconds: number): void {
	env.clock.set(TIMELINE_START + seconds * 1000);
}

async function poll(parameters: INodeParameters, staticData: IDataObject) {
	const result = await runPoll({ nodeType: 'loanCrmTrigger', parameters, credentials: env.store, staticData });
	return (result?.[0] ?? []).map((item) => item.json);
}

beforeEach(() => {
	env.sandbox.data.reset();
	at(0);
});

describe('Loan CRM Trigger status memory', () => {
	it(`above ${MAX_REMEMBERED_DEALS} watched deals: forgets the longest-untouched, which then fire once with previousStatus null`, async () => {
		const state: IDataObject = {};
		const parameters = { event: 'dealStatusChanged' };
		const warn = jest.spyOn(Container.get(Logger), 'warn');
		expect(await poll(parameters, state)).toEqual([]);
		// The baseline is spread over polls (100 requests each), newest change first, and ends when the
		// memory is full: the deals left unread are the longest-untouched.
		let polls = 1;
		while (state.baseline !== undefined) {
			expect(await poll(parameters, state)).toEqual([]);
			polls += 1;
		}
		expect(polls).toBe(6);
		expect(env.sandbox.apiRequests()).toHaveLength(MAX_REMEMBERED_DEALS / 100 + 1);
		expect(warn.mock.calls.map(([message]) => message)).toEqual([
			`Loan CRM Trigger "Loan CRM Trigger" remembers at most ${MAX_REMEMBERED_DEALS} deals and found more deals in the watched statuses than that and did not remember the longest-untouched; if one of them changes while in a To status it is emitted once with previousStatus null. Narrow the From or To statuses.`,
		]);
		warn.mockRestore();
		const known = state.known as { ids: number[]; codes: string; names: string[] };
		expect(known.ids).toHaveLength(MAX_REMEMBERED_DEALS);
		expect(known.codes).toHaveLength(MAX_REMEMBERED_DEALS);
		// About 7–12 bytes of static data per remembered deal (README).
		const bytes = JSON.stringify(state).length;
		expect(bytes / MAX_REMEMBERED_DEALS).toBeLessThan(12);

		// The 100 forgotten are the longest-untouched: none was changed later than the oldest remembered one.
		const remembered = new Set(known.ids.map(String));
		const forgotten = env.sandbox.data.idsOf('deals').filter((id) => !remembered.has(id));
		expect(forgotten).toHaveLength(100);
		const stampOf = (id: string | number) => Date.parse(env.sandbox.data.get('deals', id)?.attributes.updated ?? '');
		const oldestRemembered = stampOf(known.ids[0]);
		expect(forgotten.every((id) => stampOf(id) <= oldestRemembered)).toBe(true);

		at(2);
		const [forgottenDeal] = forgotten;
		const rememberedDeal = known.ids[500];
		env.sandbox.data.updateDeal(forgottenDeal, { name: 'Edited, status kept' });
		env.sandbox.data.updateDeal(rememberedDeal, { name: 'Edited, status kept' });
		const emitted = await poll(parameters, state);
		expect(emitted.map((item) => [item.id, item.previousStatus])).toEqual([[forgottenDeal, null]]);
		at(3);
		env.sandbox.data.updateDeal(forgottenDeal, { name: 'Edited again' });
		expect(await poll(parameters, state)).toEqual([]);
		expect((state.known as { ids: number[] }).ids).toHaveLength(MAX_REMEMBERED_DEALS);
	}, 180_000);
});
