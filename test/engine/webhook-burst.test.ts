/**
 * The Webhook Trigger's cost under a burst, in n8n-core's engine against the sandbox's rate limit
 * on the test clock: n8n starts one webhook call per notification, and the calls share the
 * credential's gate (nodes/shared/trigger/webhookReads.ts: Requests in Parallel per credential in
 * the process) and its rate-limit budget (requests/rateBudget.ts). Every figure is a count, or time
 * on the test clock.
 */
import type { IDataObject } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import type { WebhookAnswer, WebhookRunResult } from '../../harness';
import { TestClock, startWebhookCall } from '../../harness';
import { WEBHOOK_READS_IN_PARALLEL } from '../../nodes/shared/trigger/webhookReads';
import { TIMELINE_START, useSandbox } from './helpers';

const env = useSandbox({ clock: TestClock.at(TIMELINE_START), sizes: { deals: 450 } });

/** The sandbox's bucket: 600 tokens, refilled at 2 a second (the CLI's --rate-limit). A single read costs 5. */
const BUCKET = { capacity: 600, refillPerSecond: 2 };
const READ_COST = 5;

function notification(id: string): IDataObject {
	return { action: 'updated', resource: { type: 'deals', id: Number(id), url: `https://api.mycrm/jsonapi/deals/${id}` }, webhook: { name: 'Burst' } };
}

/**
 * Sends every notification of `ids` at the same instant, each to its own webhook call that starts
 * from the stored static data and stores its own when it ends (as n8n does), and waits for all.
 */
async function burst(ids: string[], node: number): Promise<{ answers: WebhookAnswer[]; results: WebhookRunResult[]; answeredAt: number[]; startedAt: number }> {
	let stored: IDataObject = {};
	const startedAt = env.clock.now();
	const answeredAt: number[] = [];
	const calls = ids.map((id) => {
		const staticData = deepCopy(stored);
		const call = startWebhookCall(
			{ nodeType: 'loanCrmWebhookTrigger', parameters: { dealEvent: 'dealUpdated' }, credentials: env.store, staticData, ids: { workflowId: `wf-burst-${node}`, nodeId: 'burst', webhookId: `burst-${node}` } },
			{ body: notification(id) },
		);
		void call.answered.then(() => answeredAt.push(env.clock.now() - startedAt));
		void call.finished.then(() => (stored = staticData));
		return call;
	});
	const answers = await Promise.all(calls.map(async (call) => await call.answered));
	const results = await Promise.all(calls.map(async (call) => await call.finished));
	return { answers, results, answeredAt, startedAt };
}

describe('Loan CRM Webhook Trigger: a burst of notifications', () => {
	// A 50 ms round trip on the test clock, so that reads sent together are on their way together.
	beforeEach(() => {
		env.sandbox.setRateLimit(BUCKET);
		env.sandbox.setLatency({ ms: 50, jitterMs: 0 });
	});
	afterEach(() => {
		env.sandbox.setRateLimit(false);
		env.sandbox.setLatency(false);
	});

	it('200 notifications for 200 deals at once: each deal read once, at most Requests in Parallel reads on their way, paced to the budget (no 429), 200 items, every call answered 200 at once', async () => {
		const ids = env.sandbox.data.idsOf('deals').slice(0, 200);
		for (const id of ids) env.sandbox.data.updateDeal(id, { lenderName: 'Burst Bank' });
		env.clock.advance(1000);
		const { answers, results, answeredAt, startedAt } = await burst(ids, 1);
		const gets = env.sandbox.apiRequests().filter((request) => request.method === 'GET');
		const emitted = results.flatMap((result) => result.items ?? []).map((item) => String(item.json.id));
		const lastRead = Math.max(...gets.map((request) => request.handledAt));
		// The bucket covers 600 / 5 = 120 reads at once; the other 80 wait for its refill.
		const refillFloorMs = ((ids.length * READ_COST - BUCKET.capacity) / BUCKET.refillPerSecond) * 1000;
		expect({
			answers: answers.filter((answer) => answer.status === 200).length,
			answeredLaterThanAtOnce: answeredAt.filter((ms) => ms > 0).length,
			reads: gets.length,
			dealsRead: new Set(gets.map((request) => request.path)).size,
			notAnswered200: gets.filter((request) => request.status !== 200).length,
			mostOnTheirWay: Math.max(...gets.map((request) => request.inFlightAtArrival.length + 1)),
			tokens: env.sandbox.tokenRequests().length,
			emitted: emitted.length,
			distinct: new Set(emitted).size,
		}).toEqual({ answers: 200, answeredLaterThanAtOnce: 0, reads: 200, dealsRead: 200, notAnswered200: 0, mostOnTheirWay: WEBHOOK_READS_IN_PARALLEL, tokens: 1, emitted: 200, distinct: 200 });
		expect(new Set(emitted)).toEqual(new Set(ids));
		// Paced: never faster than the budget allows, and not much slower.
		expect(lastRead - startedAt).toBeGreaterThanOrEqual(refillFloorMs - 3_000);
		expect(lastRead - startedAt).toBeLessThanOrEqual(refillFloorMs * 1.25);
		expect(env.sandbox.rateLimitSpent()).toBe(ids.length * READ_COST);
		if (process.env.PRINT_BURST) console.log(`burst: last read ${(lastRead - startedAt) / 1000} s after the notifications (refill floor ${refillFloorMs / 1000} s)`);
	});

	it('the same burst with every notification sent twice (the service retrying): still one item per deal, a read per deal and at most one more for those already on their way', async () => {
		const ids = env.sandbox.data.idsOf('deals').slice(200, 400);
		for (const id of ids) env.sandbox.data.updateDeal(id, { lenderName: 'Retry Bank' });
		env.clock.advance(1000);
		const { results } = await burst([...ids, ...ids], 2);
		const gets = env.sandbox.apiRequests().filter((request) => request.method === 'GET');
		const emitted = results.flatMap((result) => result.items ?? []).map((item) => String(item.json.id));
		const perDeal = new Map<string, number>();
		for (const request of gets) perDeal.set(request.path, (perDeal.get(request.path) ?? 0) + 1);
		expect({
			emitted: emitted.length,
			distinct: new Set(emitted).size,
			dealsRead: perDeal.size,
			readTwice: [...perDeal.values()].filter((count) => count === 2).length,
			readMore: [...perDeal.values()].filter((count) => count > 2).length,
			notAnswered200: gets.filter((request) => request.status !== 200).length,
		}).toEqual({ emitted: 200, distinct: 200, dealsRead: 200, readTwice: WEBHOOK_READS_IN_PARALLEL, readMore: 0, notAnswered200: 0 });
	});
});
