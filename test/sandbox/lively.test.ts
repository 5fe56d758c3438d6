/**
 * The lively mode of `npm run dev -- --lively` (sandbox/lively.ts), step by step without its timer:
 * what each step changes in the data, stamped with the service's clock, and the settlement rhythm.
 */
import type { LivelyChange, Sandbox } from '../../sandbox';
import { SETTLE_AFTER_DEAL_STEPS, SYSTEM_STATUS, describeChange, livelyData, startSandbox } from '../../sandbox';
import { TestClock } from '../../harness/clock';

describe('lively sandbox', () => {
	let sb: Sandbox;
	const clock = TestClock.at(Date.parse('2026-11-20T09:00:00Z'));

	beforeAll(async () => {
		sb = await startSandbox({ sizes: { deals: 300 }, clock });
	});
	afterAll(() => sb.close());
	beforeEach(() => {
		sb.data.reset();
		clock.set(Date.parse('2026-11-20T09:00:00Z'));
	});

	/** One step, ten seconds after the last one, as the timer runs them. */
	const stepAt = (lively: ReturnType<typeof livelyData>): LivelyChange[] => {
		clock.advance(10_000);
		return lively.step();
	};
	const stamp = () => new Date(clock.now()).toISOString().replace('.000Z', 'Z');

	it('a cycle of three steps: a deal into PendingSettlement, a new contact, a deal with another lender', () => {
		const lively = livelyData(sb.data);
		const contacts = sb.data.count('contacts');

		const [moved, ...otherMoves] = stepAt(lively);
		expect(otherMoves).toEqual([]);
		expect(moved.kind).toBe('dealPending');
		if (moved.kind !== 'dealPending') return;
		expect(['Lodged', 'ConditionallyApproved', 'UnconditionallyApproved']).toContain(moved.from);
		expect(sb.data.get('deals', moved.dealId)?.attributes).toEqual(expect.objectContaining({ dealStatus: 'PendingSettlement', updated: stamp() }));

		const [created, ...otherContacts] = stepAt(lively);
		expect(otherContacts).toEqual([]);
		expect(created.kind).toBe('contactCreated');
		if (created.kind !== 'contactCreated') return;
		expect(sb.data.count('contacts')).toBe(contacts + 1);
		expect(sb.data.get('contacts', created.contactId)?.attributes).toEqual(expect.objectContaining({ created: stamp(), updated: stamp(), email: expect.stringMatching(/^[a-z.]+\.\d+@example\.com$/) }));

		const [edited, ...otherEdits] = stepAt(lively);
		expect(otherEdits).toEqual([]);
		expect(edited.kind).toBe('dealEdited');
		if (edited.kind !== 'dealEdited') return;
		const before = sb.data.get('deals', edited.dealId);
		expect(before?.attributes).toEqual(expect.objectContaining({ lenderName: edited.lenderName, updated: stamp() }));
		expect(before?.attributes.dealStatus).not.toBe('PendingSettlement');
		expect(describeChange(edited)).toBe(`deal ${edited.dealId} (${edited.name}) lender → ${edited.lenderName}`);
	});

	it(`settles each deal ${SETTLE_AFTER_DEAL_STEPS} deal steps after it entered PendingSettlement, oldest first`, () => {
		const lively = livelyData(sb.data);
		const steps = Array.from({ length: 30 }, () => stepAt(lively));
		const all = steps.flat();
		const count = (kind: LivelyChange['kind']) => all.filter((change) => change.kind === kind).length;
		// 30 steps: 10 deal steps (each one move, a settlement from the third on), 10 contacts, 10 edits.
		expect([count('dealPending'), count('dealSettled'), count('contactCreated'), count('dealEdited')]).toEqual([10, 10 - SETTLE_AFTER_DEAL_STEPS, 10, 10]);
		const dealSteps = steps.filter((_, index) => index % 3 === 0);
		expect(dealSteps).toHaveLength(10);
		dealSteps.forEach((changes, index) => {
			const settled = changes.find((change) => change.kind === 'dealSettled');
			if (index < SETTLE_AFTER_DEAL_STEPS) {
				expect(settled).toBeUndefined();
				return;
			}
			// The deal that entered PendingSettlement SETTLE_AFTER_DEAL_STEPS deal steps earlier.
			const entered = dealSteps[index - SETTLE_AFTER_DEAL_STEPS].find((change) => change.kind === 'dealPending');
			expect(settled && 'dealId' in settled ? settled.dealId : undefined).toBe(entered && 'dealId' in entered ? entered.dealId : 'none');
		});
		const settledIds = all.flatMap((change) => (change.kind === 'dealSettled' ? [change.dealId] : []));
		expect(settledIds).toHaveLength(8);
		for (const id of settledIds) expect(sb.data.get('deals', id)?.attributes.dealStatus).toBe('Settled');
		expect(lively.pending()).toHaveLength(SETTLE_AFTER_DEAL_STEPS);
		for (const id of lively.pending()) expect(sb.data.get('deals', id)?.attributes.dealStatus).toBe('PendingSettlement');
	});

	it('moves deals forward in the pipeline only, and leaves alone a pending deal someone else moved', () => {
		const lively = livelyData(sb.data);
		const [first] = stepAt(lively);
		if (first.kind !== 'dealPending') throw new Error(`expected a move, got ${first.kind}`);
		expect(SYSTEM_STATUS.indexOf(first.from as (typeof SYSTEM_STATUS)[number])).toBeLessThan(SYSTEM_STATUS.indexOf('PendingSettlement'));
		// The broker withdraws the deal before it settles: the lively mode does not settle it.
		sb.data.updateDeal(first.dealId, { dealStatus: 'Withdrawn' });
		const laterDealSteps = Array.from({ length: 3 * SETTLE_AFTER_DEAL_STEPS }, () => stepAt(lively)).flat();
		expect(laterDealSteps.filter((change) => change.kind === 'dealSettled')).toEqual([]);
		expect(sb.data.get('deals', first.dealId)?.attributes.dealStatus).toBe('Withdrawn');
	});

	it('keeps dates coherent: a settlement is dated the day it settles; passed milestones are set, in pipeline order, never later than that day', () => {
		// A clock months after the seed's dates and one before some of them: both are kept coherent.
		for (const start of ['2027-06-01T09:00:00Z', '2026-11-20T09:00:00Z']) {
			sb.data.reset();
			clock.set(Date.parse(start));
			const lively = livelyData(sb.data);
			const all = Array.from({ length: 30 }, () => stepAt(lively)).flat();
			const today = () => new Date(clock.now()).toISOString().slice(0, 10);
			const moved = all.filter((change) => change.kind === 'dealSettled' || change.kind === 'dealPending');
			expect(moved.filter((change) => change.kind === 'dealSettled').length).toBeGreaterThan(5);
			for (const change of moved) {
				if (!('dealId' in change)) continue;
				const { dealStatus, dates } = sb.data.get('deals', change.dealId)?.attributes ?? {};
				if (dealStatus === undefined || dates === undefined) throw new Error(`deal ${change.dealId} is gone`);
				const chain = [dates.lodged, dates.conditionallyApproved, dates.approved, ...(dealStatus === 'Settled' ? [dates.settled] : [])];
				expect([change.dealId, chain.every((date) => typeof date === 'string' && date <= today())]).toEqual([change.dealId, true]);
				expect([change.dealId, [...chain].sort()]).toEqual([change.dealId, chain]);
				if (dealStatus === 'PendingSettlement') expect(dates.settled).toBeNull();
			}
			// Each settlement is dated the day of its step (the clock moves 10 s a step, within one day).
			for (const change of all) {
				if (change.kind === 'dealSettled') expect(sb.data.get('deals', change.dealId)?.attributes.dates.settled).toBe(today());
			}
		}
	});
});
