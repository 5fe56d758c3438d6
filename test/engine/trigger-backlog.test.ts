/**
 * Loan CRM Trigger against a backlog larger than one poll: bounded polls that drain it in change
 * order, each record version once — across page and poll boundaries within one second, with
 * records changing again while it drains, with late stamps, with a Filter on Deal Status Changed,
 * and with a poll cut off part-way. Counts only (requests, items), through n8n-core's PollContext.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { readBudget } from '../../nodes/shared/trigger/changeFeed';
import { PollAbandoned, TestClock, runPoll } from '../../harness';
import type { LoggedRequest } from '../../sandbox';
import { decodedQuery, TIMELINE_START, useSandbox } from './helpers';

// Room for the largest backlog here (3,000 changes) and deals beyond it (the 5,001st is a late one).
const env = useSandbox({ sizes: { deals: 6000 }, clock: TestClock.at(TIMELINE_START) });

/** Whole seconds, as the service stamps. */
function at(seconds: number): void {
	env.clock.set(TIMELINE_START + seconds * 1000);
}
function stampAt(seconds: number): string {
	return new Date(TIMELINE_START + seconds * 1000).toISOString().replace('.000Z', 'Z');
}

async function poll(parameters: INodeParameters, staticData: IDataObject, abandonWhen?: Promise<unknown>, ids?: { workflowId: string; nodeId: string }) {
	const result = await runPoll({ nodeType: 'loanCrmDealsTrigger', parameters, credentials: env.store, staticData, abandonWhen, ids });
	return (result?.[0] ?? []).map((item) => item.json);
}

/**
 * Polls (the clock `stepSeconds` further each time) until the backlog is drained (a poll emits
 * nothing and keeps no drain cursor); what each poll emitted and sent.
 */
async function drain(parameters: INodeParameters, state: IDataObject, fromSecond: number, stepSeconds = 1, maxPolls = 50) {
	const polls: Array<{ items: IDataObject[]; requests: LoggedRequest[] }> = [];
	for (let index = 0; index < maxPolls; index++) {
		at(fromSecond + index * stepSeconds);
		env.sandbox.clearLog();
		const items = await poll(parameters, state);
		polls.push({ items, requests: env.sandbox.apiRequests() });
		if (items.length === 0 && state.drain === undefined) return polls;
	}
	throw new Error(`not drained in ${maxPolls} polls`);
}

/** `count` deal ids in a scrambled (not id) order, so change order and id order differ. */
function scrambledIds(count: number, skip = 0): string[] {
	const ids = env.sandbox.data.idsOf('deals').slice(skip, skip + count);
	// 7919 is prime and does not divide `count`, so this is a permutation.
	return ids.map((_id, index) => ids[(index * 7919) % count]);
}

/** Changes the deals in this order, `stepMs` apart from `fromSecond`, each with a new name. */
function changeInOrder(order: string[], fromSecond: number, stepMs: number, label = 'Imported'): void {
	order.forEach((id, index) => {
		env.clock.set(TIMELINE_START + fromSecond * 1000 + index * stepMs);
		env.sandbox.data.updateDeal(id, { name: `${label} ${index}` });
	});
}

beforeEach(() => {
	env.sandbox.data.reset();
	at(0);
});

describe('a backlog larger than one poll', () => {
	it('3,000 changes drain over 4 polls of at most 1,000 records and 21 requests, in change order, each once', async () => {
		// Three full polls show what ten would: the first, the ones that continue a drain, the end.
		const state: IDataObject = {};
		await poll({ event: 'dealUpdated' }, state);
		const order = scrambledIds(3000);
		changeInOrder(order, 1, 3);
		// The first poll comes long after the import: the backlog is older than the safety window.
		const polls = await drain({ event: 'dealUpdated' }, state, 1000);

		expect(polls.map((entry) => entry.items.length)).toEqual([1000, 1000, 1000, 0]);
		expect(polls.flatMap((entry) => entry.items.map((item) => item.id))).toEqual(order);
		expect(readBudget(1000)).toBe(21);
		// The first poll: one id-order request (full), then ten pages in change order; each later one
		// continues after the last record it went through: ten pages, no re-read; the last finds the end.
		expect(polls.map((entry) => entry.requests.length)).toEqual([11, 10, 10, 1]);
		for (const { requests } of polls.slice(1)) {
			for (const request of requests) expect(request.query.sort).toBe('updated,id');
			expect(requests[0].query.filter).toMatch(/^or\(greaterThan\(updated,'[^']+'\),and\(equals\(updated,'[^']+'\),greaterThan\(id,'\d+'\)\)\)$/);
		}
		// Drained: the state carries no drain cursor, and a quiet poll is one id-order request again.
		expect(state.drain).toBeUndefined();
		at(1100);
		env.sandbox.clearLog();
		expect(await poll({ event: 'dealUpdated' }, state)).toEqual([]);
		expect(env.sandbox.apiRequests().map((request) => [request.query.sort, request.cost])).toEqual([[undefined, 10]]);
	}, 240_000);

	it('records stamped in the same second, across a page boundary and a poll boundary, each once in (stamp, id) order', async () => {
		const state: IDataObject = {};
		const parameters = { event: 'dealUpdated', options: { maxRecordsPerPoll: 150 } };
		await poll(parameters, state);
		at(3);
		const sameSecond = scrambledIds(250, 500);
		for (const id of sameSecond) env.sandbox.data.updateDeal(id, { name: `Same second ${id}` });
		const polls = await drain(parameters, state, 300);
		expect(polls.map((entry) => entry.items.length)).toEqual([150, 100, 0]);
		const byId = [...sameSecond].sort((a, b) => Number(a) - Number(b));
		expect(polls.flatMap((entry) => entry.items.map((item) => item.id))).toEqual(byId);
		expect(polls.flatMap((entry) => entry.items.map((item) => item.updated))).toEqual(byId.map(() => stampAt(3)));
		// The page boundary fell inside the second: the next page asked for the same stamp, later ids.
		expect(decodedQuery(polls[0].requests[2].rawQuery)).toContain(`or(greaterThan(updated,'${stampAt(3)}'),and(equals(updated,'${stampAt(3)}'),greaterThan(id,'${byId[99]}')))`);
		// So did the poll boundary: the next poll began after the 150th of that second.
		expect(polls[1].requests[0].query.filter).toBe(`or(greaterThan(updated,'${stampAt(3)}'),and(equals(updated,'${stampAt(3)}'),greaterThan(id,'${byId[149]}')))`);
	}, 120_000);

	it('a record changed again while the backlog drains is emitted at its new place: every version once', async () => {
		const state: IDataObject = {};
		await poll({ event: 'dealUpdated' }, state);
		const order = scrambledIds(3000);
		changeInOrder(order, 1, 3);
		at(1000);
		const first = await poll({ event: 'dealUpdated' }, state);
		expect(first.map((item) => item.id)).toEqual(order.slice(0, 1000));
		// One deal already emitted and one still waiting in the backlog change again.
		const [emittedBefore, waiting] = [order[10], order[2500]];
		at(1001);
		env.sandbox.data.updateDeal(emittedBefore, { name: 'Changed again after it was emitted' });
		at(1002);
		env.sandbox.data.updateDeal(waiting, { name: 'Changed again while waiting' });
		const rest = (await drain({ event: 'dealUpdated' }, state, 1003)).flatMap((entry) => entry.items);
		const expected = [...order.slice(1000).filter((id) => id !== waiting), emittedBefore, waiting];
		expect(rest.map((item) => item.id)).toEqual(expected);
		expect(rest.filter((item) => item.id === waiting).map((item) => item.name)).toEqual(['Changed again while waiting']);
		expect(rest.filter((item) => item.id === emittedBefore).map((item) => item.name)).toEqual(['Changed again after it was emitted']);
	}, 120_000);

	it('a backlog younger than the safety window: re-read for late stamps, which are caught, once', async () => {
		const state: IDataObject = {};
		await poll({ event: 'dealUpdated' }, state);
		const order = scrambledIds(2500);
		changeInOrder(order, 1, 1);
		at(5);
		const first = await poll({ event: 'dealUpdated' }, state);
		expect(first).toHaveLength(1000);
		// Stamped behind the drain cursor, inside the window, visible only now.
		const [late] = scrambledIds(1, 5000);
		env.sandbox.data.updateDeal(late, { name: 'Late stamp', updated: stampAt(1) });
		// A poll a minute: the re-reading stops once the clock is a window past the backlog.
		const polls = await drain({ event: 'dealUpdated' }, state, 65, 60);
		const all = [...first, ...polls.flatMap((entry) => entry.items)].map((item) => item.id);
		expect(all).toHaveLength(2501);
		expect(new Set(all).size).toBe(2501);
		expect(new Set(all)).toEqual(new Set([...order, late]));
		for (const { requests } of polls) expect(requests.length).toBeLessThanOrEqual(readBudget(1000));
		// The next poll re-read from the window's start (the first 1,000, skipped) and found the late one first.
		expect(polls[0].items[0].id).toBe(late);
	}, 120_000);

	it('Deal Status Changed with a Filter during a drain: at most N moves a poll, one filter check each, only matching moves, once', async () => {
		const state: IDataObject = {};
		const parameters = {
			event: 'dealStatusChanged',
			toStatuses: ['Settled'],
			filter: "equals(lenderName,'E2E Bank')",
			options: { maxRecordsPerPoll: 100 },
		};
		// Baseline (all Settled deals, over as many polls as it takes).
		do await poll(parameters, state);
		while (state.baseline !== undefined);
		const candidates = env.sandbox.data
			.list('deals')
			.filter((deal) => deal.attributes.dealStatus !== 'Settled')
			.slice(0, 350)
			.map((deal) => deal.id);
		expect(candidates).toHaveLength(350);
		candidates.forEach((id, index) => {
			env.clock.set(TIMELINE_START + 1000 + index * 5);
			env.sandbox.data.updateDeal(id, { dealStatus: 'Settled', lenderName: index % 2 === 0 ? 'E2E Bank' : 'Other Bank' });
		});
		const polls = await drain(parameters, state, 1000);
		const checks = polls.map((entry) => entry.requests.filter((request) => (request.query.filter ?? '').startsWith('and(any(id,')).length);
		expect(polls.length).toBeGreaterThanOrEqual(4);
		for (const [index, { requests }] of polls.entries()) {
			expect(requests.length - checks[index]).toBeLessThanOrEqual(readBudget(100));
			expect(checks[index]).toBeLessThanOrEqual(1);
		}
		const emitted = polls.flatMap((entry) => entry.items);
		expect(emitted.map((item) => item.id)).toEqual(candidates.filter((_id, index) => index % 2 === 0));
		// Not Settled at activation, so not remembered (the baseline reads the watched statuses).
		for (const item of emitted) expect(item).toEqual(expect.objectContaining({ dealStatus: 'Settled', lenderName: 'E2E Bank', previousStatus: null }));
	}, 120_000);
});

describe("n8n's durable poll cursors", () => {
	it('a poll that starts from the state its predecessor started from (that commit not landed yet) emits nothing and sends nothing', async () => {
		const ids = { workflowId: 'wf-durable-commit', nodeId: 'node-durable-commit' };
		const parameters = { event: 'dealUpdated', options: { maxRecordsPerPoll: 100 } };
		const committed: IDataObject = {};
		await poll(parameters, committed, undefined, ids);
		const order = scrambledIds(250);
		changeInOrder(order, 1, 3);
		at(1000);
		const beforeCommit = JSON.parse(JSON.stringify(committed)) as IDataObject;
		expect((await poll(parameters, committed, undefined, ids)).map((item) => item.id)).toEqual(order.slice(0, 100));
		// n8n commits that state with the execution of its items, after the poll returned. The next
		// poll, started before the commit, gets the state as it was:
		const stale = JSON.parse(JSON.stringify(beforeCommit)) as IDataObject;
		at(1001);
		env.sandbox.clearLog();
		expect(await poll(parameters, stale, undefined, ids)).toEqual([]);
		expect(env.sandbox.apiRequests()).toEqual([]);
		expect(stale).toEqual(beforeCommit);
		// Once committed, polls go on from there: each change once.
		const rest = await drain(parameters, committed, 1002);
		expect([...order.slice(0, 100), ...rest.flatMap((entry) => entry.items.map((item) => item.id))]).toEqual(order);
		// Another trigger node (other ids) is not held back by this one.
		expect(await poll(parameters, JSON.parse(JSON.stringify(beforeCommit)) as IDataObject)).toHaveLength(100);
	}, 120_000);

	it("a predecessor whose items n8n dropped (its state never committed) holds polls back for a minute of the clock, then they emit its changes", async () => {
		const ids = { workflowId: 'wf-durable-dropped', nodeId: 'node-durable-dropped' };
		const parameters = { event: 'dealUpdated', options: { maxRecordsPerPoll: 100 } };
		const committed: IDataObject = {};
		await poll(parameters, committed, undefined, ids);
		const order = scrambledIds(50);
		changeInOrder(order, 1, 3);
		at(1000);
		const neverCommitted = JSON.stringify(committed);
		expect((await poll(parameters, committed, undefined, ids)).map((item) => item.id)).toEqual(order);
		// n8n lost that execution: its state never lands, and every later poll starts from the old one.
		at(1059);
		expect(await poll(parameters, JSON.parse(neverCommitted) as IDataObject, undefined, ids)).toEqual([]);
		// A minute after it emitted (COMMIT_GRACE_MS, on the one clock), its changes are emitted again.
		at(1060);
		expect((await poll(parameters, JSON.parse(neverCommitted) as IDataObject, undefined, ids)).map((item) => item.id)).toEqual(order);
	}, 120_000);
});

describe("n8n's late polls after a restart", () => {
	it('two polls started together from the same state: one reads and emits, the other sends nothing; each change once', async () => {
		const ids = { workflowId: 'wf-concurrent-polls', nodeId: 'node-concurrent-polls' };
		const parameters = { event: 'dealUpdated', options: { maxRecordsPerPoll: 100 } };
		const committed: IDataObject = {};
		await poll(parameters, committed, undefined, ids);
		const order = scrambledIds(150);
		changeInOrder(order, 1, 3);
		at(1000);
		const before = JSON.parse(JSON.stringify(committed)) as IDataObject;
		env.sandbox.clearLog();
		// Both start from the state as n8n stored it, before either has returned.
		const [first, second] = await Promise.all([poll(parameters, committed, undefined, ids), poll(parameters, JSON.parse(JSON.stringify(before)) as IDataObject, undefined, ids)]);
		const emitted = [...first, ...second].map((item) => item.id);
		expect(emitted).toEqual(order.slice(0, 100));
		expect([first.length, second.length].sort()).toEqual([0, 100]);
		// Only one of them read: its requests are the only ones (a poll of 100 changes is at most 3).
		expect(env.sandbox.apiRequests().length).toBeLessThanOrEqual(3);
		const rest = await drain(parameters, committed, 1200);
		expect([...emitted, ...rest.flatMap((entry) => entry.items.map((item) => item.id))]).toEqual(order);
	}, 120_000);
});

describe('a poll cut off part-way', () => {
	/** Holds the `n`-th deals request of the next poll unanswered; `release` answers it with a 500. */
	function holdRequest(n: number) {
		let held: (() => void) | undefined;
		const arrived = new Promise<void>((resolve) => {
			env.sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { kind: 'delay', ms: 0 }, n - 1);
			env.sandbox.injectFault(
				{ method: 'GET', path: '/jsonapi/deals' },
				{
					kind: 'custom',
					handle: (_request, response) => {
						held = () => response.writeHead(500, { 'content-type': 'application/vnd.api+json' }).end('{"errors":[{"status":"500","title":"held"}]}');
						resolve();
					},
				},
			);
		});
		return { arrived, release: () => held?.() };
	}

	it('leaves the previous state; the next poll emits what the cut one would have, once', async () => {
		const state: IDataObject = {};
		await poll({ event: 'dealUpdated' }, state);
		const order = scrambledIds(2500);
		changeInOrder(order, 1, 3);
		at(1000);
		expect((await poll({ event: 'dealUpdated' }, state)).map((item) => item.id)).toEqual(order.slice(0, 1000));

		const before = JSON.parse(JSON.stringify(state)) as IDataObject;
		at(1001);
		env.sandbox.clearLog();
		const hold = holdRequest(4);
		const cut = await poll({ event: 'dealUpdated' }, state, hold.arrived).catch((error: unknown) => error);
		expect(cut).toBeInstanceOf(PollAbandoned);
		expect(env.sandbox.apiRequests().filter((request) => request.status === 200)).toHaveLength(3);
		expect(state).toEqual(before);
		// The abandoned poll runs on until its request fails; it never reaches the state.
		hold.release();
		await (cut as PollAbandoned).settled;
		expect(state).toEqual(before);

		env.sandbox.clearFaults();
		const rest = await drain({ event: 'dealUpdated' }, state, 1002);
		expect(rest[0].items.map((item) => item.id)).toEqual(order.slice(1000, 2000));
		expect(rest.flatMap((entry) => entry.items.map((item) => item.id))).toEqual(order.slice(1000));
	}, 120_000);
});
