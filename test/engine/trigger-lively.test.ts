/**
 * What a published workflow sees in `npm run dev -- --lively`: the lively sandbox's steps
 * (sandbox/lively.ts) between trigger polls run through n8n-core's PollContext, on the service's
 * clock, a poll a minute and a step every ten seconds as in dev.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { TestClock, runPoll } from '../../harness';
import { SETTLE_AFTER_DEAL_STEPS, livelyData } from '../../sandbox';
import type { LivelyChange } from '../../sandbox';
import { TIMELINE_START, useSandbox } from './helpers';

const env = useSandbox({ sizes: { deals: 300 }, clock: TestClock.at(TIMELINE_START) });

beforeEach(() => {
	env.sandbox.data.reset();
	env.clock.set(TIMELINE_START);
});

async function poll(parameters: INodeParameters, staticData: IDataObject): Promise<IDataObject[]> {
	const result = await runPoll({ nodeType: 'loanCrmTrigger', parameters, credentials: env.store, staticData });
	return (result?.[0] ?? []).map((item) => item.json);
}

/** A minute of the lively sandbox: six steps, ten seconds apart. */
function aMinuteOf(lively: ReturnType<typeof livelyData>): LivelyChange[] {
	const changes: LivelyChange[] = [];
	for (let step = 0; step < 6; step += 1) {
		env.clock.advance(10_000);
		changes.push(...lively.step());
	}
	return changes;
}

describe('the trigger in a lively sandbox', () => {
	it('Deal Status Changed → Settled fires once per settlement, each with previousStatus PendingSettlement', async () => {
		const settled = { event: 'dealStatusChanged', toStatuses: ['Settled'] };
		const state: IDataObject = {};
		expect(await poll(settled, state)).toEqual([]);
		const lively = livelyData(env.sandbox.data);

		const emitted: IDataObject[] = [];
		const settlements: string[] = [];
		for (let minute = 0; minute < 4; minute += 1) {
			const changes = aMinuteOf(lively);
			settlements.push(...changes.flatMap((change) => (change.kind === 'dealSettled' ? [change.dealId] : [])));
			emitted.push(...(await poll(settled, state)));
		}
		// Two deal steps a minute; a deal settles two deal steps after entering PendingSettlement.
		expect(settlements).toHaveLength(8 - SETTLE_AFTER_DEAL_STEPS);
		expect(emitted.map((item) => [item.id, item.dealStatus, item.previousStatus])).toEqual(settlements.map((id) => [id, 'Settled', 'PendingSettlement']));
	});

	it('Contact Created sees every new contact once; Deal Updated sees the moves and the edits', async () => {
		const contactState: IDataObject = {};
		const dealState: IDataObject = {};
		expect(await poll({ event: 'contactCreated' }, contactState)).toEqual([]);
		expect(await poll({ event: 'dealUpdated' }, dealState)).toEqual([]);
		const lively = livelyData(env.sandbox.data);

		const changes = [...aMinuteOf(lively), ...aMinuteOf(lively)];
		const created = changes.flatMap((change) => (change.kind === 'contactCreated' ? [change.contactId] : []));
		expect(created).toHaveLength(4);
		expect((await poll({ event: 'contactCreated' }, contactState)).map((item) => item.id)).toEqual(created);

		const dealsChanged = new Set(changes.flatMap((change) => ('dealId' in change ? [change.dealId] : [])));
		expect(dealsChanged.size).toBeGreaterThanOrEqual(8);
		const updated = await poll({ event: 'dealUpdated' }, dealState);
		expect(new Set(updated.map((item) => item.id))).toEqual(dealsChanged);
	});
});
