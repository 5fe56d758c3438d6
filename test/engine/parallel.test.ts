/**
 * Requests in Parallel: id ranges paged at once by Return All, and many input items handled at
 * once by the router, through n8n-core's engine against the sandbox.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { IdLayout, LoggedRequest } from '../../sandbox';
import { ID_LAYOUT_DESCRIPTIONS, idLayout } from '../../sandbox';
import { decodedQuery, jsonOf, useSandbox } from './helpers';

const TOTAL_DEALS = 1000;
const FIRST_DEAL = 10001;
const env = useSandbox({ sizes: { deals: TOTAL_DEALS } });

const getMany = (extra: Record<string, unknown> = {}) => ({ resource: 'deal', operation: 'getMany', ...extra });
const ids = () => env.sandbox.data.ids;

afterEach(() => {
	env.sandbox.setLatency(false);
	env.sandbox.beforeHandle = undefined;
	env.sandbox.data.reset();
});

/**
 * The most requests the sandbox was handling at once, as it counted them when each arrived (no
 * timings involved). Timing decides how close a run comes to its bound, never whether it passes it:
 * tests assert the bound and that requests did overlap (at least 2).
 */
function peakInFlight(requests: LoggedRequest[]): number {
	expect(requests.length).toBeGreaterThan(1);
	return Math.max(...requests.map((request) => 1 + request.inFlightAtArrival.length));
}

describe('Return All in id order, id ranges paged at once', () => {
	it('returns all 1,000 deals in id order with fewer requests than page after page, each a page-1 keyset request', async () => {
		env.sandbox.resetRateLimitSpent();
		const result = await env.run('loanCrmDeals', getMany({ returnAll: true }));
		expect(result.error).toBeUndefined();
		const items = jsonOf(result);
		expect(items.map((item) => Number(item.id))).toEqual(Array.from({ length: TOTAL_DEALS }, (_, index) => FIRST_DEAL + index));
		expect(result.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);

		const queries = env.sandbox.apiRequests().map((request) => decodedQuery(request.rawQuery));
		// First page as page after page asks for it, then the last page (the highest ids), then the
		// 800 ids between, read from both ends and split in the middle: 4 requests at once, each
		// the first page of a span of ids, lowest first or (sort=-id) highest first.
		expect(queries.slice(0, 2)).toEqual(['page[size]=100', "filter=greaterThan(id,'10100')&sort=-id&page[size]=100"]);
		expect(queries.slice(2, 6).sort()).toEqual(
			[
				"filter=and(greaterThan(id,'10100'),lessOrEqual(id,'10500'))&sort=-id&page[size]=100",
				"filter=and(greaterThan(id,'10100'),lessOrEqual(id,'10900'))&page[size]=100",
				"filter=and(greaterThan(id,'10100'),lessOrEqual(id,'10900'))&sort=-id&page[size]=100",
				"filter=and(greaterThan(id,'10500'),lessOrEqual(id,'10900'))&page[size]=100",
			].sort(),
		);
		const ranged = /^filter=and\(greaterThan\(id,'\d+'\),lessOrEqual\(id,'\d+'\)\)(&sort=-id)?&page\[size\]=100$/;
		expect(queries.slice(2).every((query) => ranged.test(query))).toBe(true);
		// Pages end where the ids are, so no request brings less than a page: 10 requests where page
		// after page sends 11, each at the rate-limit cost of a page-after-page keyset request.
		expect(queries).toHaveLength(10);
		expect(env.sandbox.apiRequests().every((request) => request.cost === 10 && request.query['page[number]'] === undefined)).toBe(true);
		expect(env.sandbox.rateLimitSpent()).toBe(100);
	});

	it('keeps up to 4 requests in flight over a 40 ms network, and 1 with Requests in Parallel = 1', async () => {
		env.sandbox.setLatency({ ms: 40 });
		const parallel = await env.run('loanCrmDeals', getMany({ returnAll: true }));
		expect(jsonOf(parallel)).toHaveLength(TOTAL_DEALS);
		expect(peakInFlight(env.sandbox.apiRequests())).toBeLessThanOrEqual(4);
		expect(peakInFlight(env.sandbox.apiRequests())).toBeGreaterThanOrEqual(2);
		env.sandbox.clearLog();
		const sequential = await env.run('loanCrmDeals', getMany({ returnAll: true, requestOptions: { requestsInParallel: 1 } }));
		expect(jsonOf(sequential)).toEqual(jsonOf(parallel));
		expect(peakInFlight(env.sandbox.apiRequests())).toBe(1);
	});

	it('sort -id: all deals in descending order, the ids between the first and the last page read from both ends', async () => {
		const result = await env.run('loanCrmDeals', getMany({ returnAll: true, options: { sort: '-id' } }));
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((item) => Number(item.id))).toEqual(Array.from({ length: TOTAL_DEALS }, (_, index) => FIRST_DEAL + TOTAL_DEALS - 1 - index));
		const queries = env.sandbox.apiRequests().map((request) => decodedQuery(request.rawQuery));
		expect(queries.slice(0, 2)).toEqual(['sort=-id&page[size]=100', "filter=lessThan(id,'10901')&sort=id&page[size]=100"]);
		// From the top down (the read's order) and from the bottom up (the opposite order).
		expect(queries).toContain("filter=and(lessThan(id,'10901'),greaterOrEqual(id,'10101'))&sort=-id&page[size]=100");
		expect(queries).toContain("filter=and(lessThan(id,'10901'),greaterOrEqual(id,'10101'))&sort=id&page[size]=100");
		const ranged = /^filter=and\(lessThan\(id,'\d+'\),greaterOrEqual\(id,'\d+'\)\)&sort=-?id&page\[size\]=100$/;
		expect(queries.slice(2).every((query) => ranged.test(query))).toBe(true);
		expect(queries).toHaveLength(10);
	});

	it('with a filter: the filter stays on every request and the result equals page after page', async () => {
		const options = { filter: "equals(dealStatus,'Settled')" };
		const parallel = await env.run('loanCrmDeals', getMany({ returnAll: true, options }));
		const queries = env.sandbox.apiRequests().map((request) => request.query.filter ?? '');
		expect(queries.length).toBeGreaterThan(2);
		expect(queries.every((filter) => filter.includes("equals(dealStatus,'Settled')"))).toBe(true);
		env.sandbox.clearLog();
		const sequential = await env.run('loanCrmDeals', getMany({ returnAll: true, options, requestOptions: { requestsInParallel: 1 } }));
		expect(jsonOf(parallel).length).toBeGreaterThan(0);
		expect(jsonOf(parallel)).toEqual(jsonOf(sequential));
	});

	it('a Limit stops requesting once it is certain: Limit 250 is 3 requests, none beyond the limit', async () => {
		const result = await env.run('loanCrmDeals', getMany({ limit: 250 }));
		expect(jsonOf(result).map((item) => Number(item.id))).toEqual(Array.from({ length: 250 }, (_, index) => FIRST_DEAL + index));
		const queries = env.sandbox.apiRequests().map((request) => decodedQuery(request.rawQuery));
		expect(queries[0]).toBe('page[size]=100');
		expect(queries.slice(1).sort()).toEqual([
			// 150 deals to go, 1 per id: up to id 10250, a page from below and the rest after it, at once.
			"filter=and(greaterThan(id,'10100'),lessOrEqual(id,'10250'))&page[size]=100",
			"filter=and(greaterThan(id,'10200'),lessOrEqual(id,'10250'))&page[size]=100",
		]);
	});

	it('a Limit beyond what the estimated ranges hold reads on after them until it is filled', async () => {
		// Ids 10101–10400 deleted: the first page promises 100 per 100 ids, the next 300 ids hold none.
		for (let id = 10101; id <= 10400; id++) env.sandbox.data.deleteDeal(id);
		const result = await env.run('loanCrmDeals', getMany({ limit: 350 }));
		const expected = [...Array.from({ length: 100 }, (_, index) => FIRST_DEAL + index), ...Array.from({ length: 250 }, (_, index) => 10401 + index)];
		expect(jsonOf(result).map((item) => Number(item.id))).toEqual(expected);
	});

	it('balances by what the data holds: the ids between are read from both ends, which meet where the deals are', async () => {
		// A sparse start (every 5th id up to 10500, as deletions leave it) makes the first page say
		// 1 deal per 5 ids; the 400 ids up to the last page hold 400.
		for (let id = FIRST_DEAL; id <= 10500; id++) if (id % 5 !== 0) env.sandbox.data.deleteDeal(id);
		env.sandbox.setLatency({ ms: 30 });
		const expectedIds = env.sandbox.data.idsOf('deals').map(Number);
		expect(expectedIds).toHaveLength(600);
		const result = await env.run('loanCrmDeals', getMany({ returnAll: true }));
		expect(jsonOf(result).map((item) => Number(item.id))).toEqual(expectedIds);
		const requests = env.sandbox.apiRequests();
		const queries = requests.map((request) => decodedQuery(request.rawQuery));
		expect(queries).toContain("filter=and(greaterThan(id,'10500'),lessOrEqual(id,'10900'))&page[size]=100");
		expect(queries).toContain("filter=and(greaterThan(id,'10500'),lessOrEqual(id,'10900'))&sort=-id&page[size]=100");
		expect(peakInFlight(requests)).toBeGreaterThanOrEqual(2);
		expect(peakInFlight(requests)).toBeLessThanOrEqual(4);
		// Nothing read twice: 6 pages of deals, as page after page reads them (plus its empty 7th).
		expect(requests.length).toBeLessThanOrEqual(7);
	});

	it('loses and repeats nothing while deals are created and deleted between its requests', async () => {
		env.sandbox.setLatency({ ms: 10, jitterMs: 10 });
		const before = new Set(env.sandbox.data.idsOf('deals'));
		const deleted = new Set<string>();
		const created = new Set<string>();
		let step = 0;
		env.sandbox.beforeHandle = (request) => {
			if (request.kind !== 'api') return;
			step += 1;
			// Delete one deal spread over the id space and create one (at the top) per request.
			const victim = String(FIRST_DEAL + ((step * 137) % TOTAL_DEALS));
			if (env.sandbox.data.deleteDeal(victim)) deleted.add(victim);
			created.add(env.sandbox.data.createDeal({ name: `Created ${step}` }).id);
		};
		const result = await env.run('loanCrmDeals', getMany({ returnAll: true }));
		expect(result.error).toBeUndefined();
		const returned = jsonOf(result).map((item) => String(item.id));
		expect(before.size).toBe(TOTAL_DEALS);
		expect(returned.length).toBeGreaterThanOrEqual(TOTAL_DEALS - deleted.size);
		expect(new Set(returned).size).toBe(returned.length);
		expect(returned.map(Number)).toEqual([...returned.map(Number)].sort((a, b) => a - b));
		// Every deal that existed throughout is there; nothing that never existed is.
		for (const id of before) if (!deleted.has(id)) expect(returned).toContain(id);
		for (const id of returned) expect(before.has(id) || created.has(id)).toBe(true);
		expect(deleted.size).toBeGreaterThan(5);
	});
});

describe('Return All over the id layouts of a multi-tenant service (the sandbox seeded with the layout)', () => {
	// The service (ids 1–300 and 9,001–13,750, here from 10001) and records crowded at the
	// top of the span; the other layouts are read by the unit tests (test/unit/keyRanges.test.ts).
	const layouts: IdLayout[] = ['oneLongGap', 'skewedTop'];
	for (const layout of layouts) {
		describe(ID_LAYOUT_DESCRIPTIONS[layout], () => {
			const layoutIds = idLayout(layout, 5050);
			const service = useSandbox({ dealIds: layoutIds });

			it('every deal once, in id order, as page after page returns them; within 10 % of its requests; 4 in flight at most; one token', async () => {
				service.sandbox.setLatency({ ms: 10 });
				try {
					const parallel = await service.run('loanCrmDeals', getMany({ returnAll: true }));
					expect(parallel.error).toBeUndefined();
					expect(jsonOf(parallel).map((item) => Number(item.id))).toEqual(layoutIds);
					const requests = service.sandbox.apiRequests();
					expect(peakInFlight(requests)).toBeGreaterThanOrEqual(2);
					expect(peakInFlight(requests)).toBeLessThanOrEqual(4);
					// Every request the first page of a span of ids, at the cost of a page-after-page keyset request.
					expect(requests.every((request) => request.cost === 10 && request.query['page[number]'] === undefined)).toBe(true);
					expect(service.sandbox.tokenRequests()).toHaveLength(1);

					service.sandbox.clearLog();
					const sequential = await service.run('loanCrmDeals', getMany({ returnAll: true, requestOptions: { requestsInParallel: 1 } }));
					expect(jsonOf(sequential)).toEqual(jsonOf(parallel));
					const pageAfterPage = service.sandbox.apiRequests().length;
					expect(pageAfterPage).toBe(51);
					expect(requests.length).toBeLessThanOrEqual(1.1 * pageAfterPage);
				} finally {
					service.sandbox.setLatency(false);
				}
			});
		});
	}
});

describe('many input items, requests at once', () => {
	it('keeps output order and pairing with 4 in flight, and Continue On Fail per item', async () => {
		env.sandbox.setLatency({ ms: 30, jitterMs: 20 });
		const input = Array.from({ length: 24 }, (_, index) => ({ id: index % 6 === 5 ? '999999' : String(FIRST_DEAL + index) }));
		const result = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: '={{ $json.id }}' }, { input, continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(24);
		result.items.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			if (index % 6 === 5) expect(item.json.error).toMatch(/^Loan CRM has no lead with ID 999999$/);
			else expect(item.json.id).toBe(String(FIRST_DEAL + index));
		});
		expect(peakInFlight(env.sandbox.apiRequests())).toBeLessThanOrEqual(4);
		expect(peakInFlight(env.sandbox.apiRequests())).toBeGreaterThanOrEqual(2);
	});

	it('items each paging id ranges at once still make Requests in Parallel in all: every request holds a slot of the run', async () => {
		env.sandbox.setLatency({ ms: 30, jitterMs: 10 });
		// Four items, each a Return All that plans up to Requests in Parallel id ranges at once: without
		// the run's slots that is up to 16 (or 4 × 2) requests in flight.
		const input = Array.from({ length: 4 }, () => ({}));
		for (const requestsInParallel of [4, 2]) {
			env.sandbox.clearLog();
			const result = await env.run('loanCrmDeals', getMany({ returnAll: true, requestOptions: { requestsInParallel } }), { input });
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toHaveLength(4 * TOTAL_DEALS);
			// Every item read every deal once, each paired to its item.
			for (let item = 0; item < 4; item++) {
				const ofItem = result.items.filter((output) => (output.pairedItem as { item: number }).item === item);
				expect(ofItem.map((output) => Number(output.json.id))).toEqual(Array.from({ length: TOTAL_DEALS }, (_, index) => FIRST_DEAL + index));
			}
			expect(peakInFlight(env.sandbox.apiRequests())).toBeLessThanOrEqual(requestsInParallel);
			expect(peakInFlight(env.sandbox.apiRequests())).toBeGreaterThanOrEqual(2);
		}
	});

	it('Requests in Parallel = 8 keeps up to 8 in flight; a value out of range is refused before any request', async () => {
		env.sandbox.setLatency({ ms: 30 });
		const input = Array.from({ length: 24 }, (_, index) => ({ id: String(FIRST_DEAL + index) }));
		const result = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: '={{ $json.id }}', requestOptions: { requestsInParallel: 8 } }, { input });
		expect(jsonOf(result).map((item) => item.id)).toEqual(input.map((item) => item.id));
		expect(peakInFlight(env.sandbox.apiRequests())).toBeLessThanOrEqual(8);
		expect(peakInFlight(env.sandbox.apiRequests())).toBeGreaterThanOrEqual(2);
		env.sandbox.clearLog();
		const refused = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: '={{ $json.id }}', requestOptions: { requestsInParallel: 0 } }, { input });
		expect(refused.error?.message).toBe('Parameter "Request Options → Requests in Parallel" must be a whole number from 1 (one request at a time) to 16; got 0');
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});

	it('applies writes to the same record in item order, others at once', async () => {
		env.sandbox.setLatency({ ms: 20, jitterMs: 15 });
		const progress = ['NotStarted', 'InProgress', 'OnHold', 'InProgress', 'Completed'];
		const input = [
			...progress.map((value) => ({ taskId: ids().task, progress: value })),
			{ taskId: ids().taskWithDeal, progress: 'OnHold' },
		];
		const result = await env.run(
			'loanCrmLeadsAndTasks',
			{ resource: 'task', operation: 'update', taskId: '={{ $json.taskId }}', updateFields: { progress: '={{ $json.progress }}' } },
			{ input },
		);
		expect(result.error).toBeUndefined();
		const sent = env.sandbox
			.apiRequests()
			.filter((request) => request.path === `/jsonapi/tasks/${ids().task}`)
			.map((request) => (request.json as { data: { attributes: { progress: string } } }).data.attributes.progress);
		expect(sent).toEqual(progress);
		expect(env.sandbox.data.get('tasks', ids().task)?.attributes.progress).toBe('Completed');
		// Each write was answered before the next one to the same task arrived (the sandbox's count).
		const same = env.sandbox.apiRequests().filter((request) => request.path === `/jsonapi/tasks/${ids().task}`);
		expect(same).toHaveLength(progress.length);
		for (let index = 1; index < same.length; index++) expect(same[index].inFlightAtArrival).not.toContain(same[index - 1].seq);
	});

	it('stops a later write to a record after an earlier write to it failed, without Continue On Fail', async () => {
		// Requests in Parallel 4: items 1 and 3 update the same task; 3 waits for 1, which fails.
		const input = [
			{ taskId: ids().taskWithDeal, progress: 'InProgress' },
			{ taskId: ids().task, progress: 'OnHold' },
			{ taskId: ids().taskWithDeal, progress: 'OnHold' },
			{ taskId: ids().task, progress: 'Completed' },
		];
		const parameters = { resource: 'task', operation: 'update', taskId: '={{ $json.taskId }}', updateFields: { progress: '={{ $json.progress }}' } };
		const writesTo = (taskId: string) =>
			env.sandbox
				.apiRequests()
				.filter((request) => request.method === 'PATCH' && request.path === `/jsonapi/tasks/${taskId}`)
				.map((request) => (request.json as { data: { attributes: { progress: string } } }).data.attributes.progress);

		env.sandbox.injectFault({ method: 'PATCH', path: `/jsonapi/tasks/${ids().task}` }, { status: 422 }, 1);
		const stopped = await env.run('loanCrmLeadsAndTasks', parameters, { input });
		expect(stopped.error?.message).toMatch(/^Loan CRM rejected the data \(422\)/);
		expect(writesTo(ids().task)).toEqual(['OnHold']);
		expect(env.sandbox.data.get('tasks', ids().task)?.attributes.progress).not.toBe('Completed');

		// With Continue On Fail the later write is the user's to keep: it is sent, after the first.
		env.sandbox.data.reset();
		env.sandbox.clearLog();
		env.sandbox.injectFault({ method: 'PATCH', path: `/jsonapi/tasks/${ids().task}` }, { status: 422 }, 1);
		const continued = await env.run('loanCrmLeadsAndTasks', parameters, { input, continueOnFail: true });
		expect(continued.items).toHaveLength(4);
		expect(writesTo(ids().task)).toEqual(['OnHold', 'Completed']);
		expect(jsonOf(continued)[1].error).toMatch(/^Loan CRM rejected the data \(422\)/);
		expect(jsonOf(continued)[3]).toMatchObject({ id: String(ids().task), progress: 'Completed' });
	});

	it('a 429 pauses every request of the run for retry-after, not just the one that met it', async () => {
		const input = Array.from({ length: 40 }, (_, index) => ({ id: String(FIRST_DEAL + index) }));
		env.sandbox.injectFault({ path: `/jsonapi/leads/${FIRST_DEAL + 10}` }, { status: 429, headers: { 'retry-after': '1' } });
		const result = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: '={{ $json.id }}' }, { input });
		expect(jsonOf(result).map((item) => item.id)).toEqual(input.map((item) => item.id));
		const requests = env.sandbox.apiRequests();
		expect(requests).toHaveLength(input.length + 1);
		const limited = requests.find((request) => request.status === 429) as LoggedRequest;
		// What the other 3 workers had on its way when the 429 came back may still arrive; nothing
		// else arrives until retry-after (1 s) has passed on the clock the node and the service share.
		const duringPause = requests.filter((request) => request.receivedAt > limited.handledAt && request.receivedAt < limited.handledAt + 1000);
		expect(duringPause.length).toBeLessThanOrEqual(3);
		const afterPause = requests.filter((request) => request.receivedAt >= limited.handledAt + 1000);
		expect(afterPause.length).toBeGreaterThan(20);
	});

	it('never repeats a write after a 503 or a dropped connection, with others in flight', async () => {
		const input = Array.from({ length: 8 }, () => ({ taskId: ids().task, progress: 'InProgress' }));
		input[3] = { taskId: ids().taskWithDeal, progress: 'OnHold' };
		env.sandbox.injectFault({ method: 'PATCH', path: `/jsonapi/tasks/${ids().taskWithDeal}` }, { status: 503 });
		env.sandbox.injectFault({ method: 'PATCH', path: `/jsonapi/tasks/${ids().task}` }, { kind: 'drop' });
		const result = await env.run(
			'loanCrmLeadsAndTasks',
			{ resource: 'task', operation: 'update', taskId: '={{ $json.taskId }}', updateFields: { progress: '={{ $json.progress }}' } },
			{ input, continueOnFail: true },
		);
		expect(result.items).toHaveLength(8);
		expect(result.items[3].json.error).toMatch(/503/);
		expect(result.items[0].json.error).toMatch(/not retried|not sent again|connection/i);
		const patches = env.sandbox.apiRequests().filter((request) => request.method === 'PATCH');
		// One request per item: the failed ones were not sent again.
		expect(patches).toHaveLength(8);
		expect(patches.filter((request) => request.path === `/jsonapi/tasks/${ids().taskWithDeal}`)).toHaveLength(1);
	});

	it('a fresh credential fetches one token for all the requests in flight', async () => {
		const { CredentialStore, sandboxCredential, runNode } = await import('../../harness');
		const store = new CredentialStore();
		store.add('loanCrmOAuth2Api', sandboxCredential(env.sandbox));
		const input = Array.from({ length: 20 }, (_, index) => ({ id: String(FIRST_DEAL + index) }));
		const result = await runNode({ nodeType: 'loanCrmLeadsAndTasks', parameters: { resource: 'lead', operation: 'get', leadId: '={{ $json.id }}' }, credentials: store, input });
		expect(jsonOf(result)).toHaveLength(20);
		expect(env.sandbox.tokenRequests()).toHaveLength(1);
	});

	it('a token that expires mid-run is renewed once for all the requests in flight that met the 401', async () => {
		env.sandbox.setLatency({ ms: 20, jitterMs: 10 });
		const input = Array.from({ length: 40 }, (_, index) => ({ id: String(FIRST_DEAL + index) }));
		// Warm: a token fetched and stored by this credential, so the run starts without a token request.
		const { CredentialStore, sandboxCredential, runNode } = await import('../../harness');
		const store = new CredentialStore();
		store.add('loanCrmOAuth2Api', sandboxCredential(env.sandbox));
		const run = (parameters: INodeParameters, input?: Array<Record<string, string>>) => runNode({ nodeType: 'loanCrmLeadsAndTasks', parameters, credentials: store, input });
		await run({ resource: 'lead', operation: 'get', leadId: ids().lead });
		env.sandbox.clearLog();
		let apiSeen = 0;
		env.sandbox.beforeHandle = (request) => {
			if (request.kind === 'api' && ++apiSeen === 10) env.sandbox.expireAllTokens();
		};
		const result = await run({ resource: 'lead', operation: 'get', leadId: '={{ $json.id }}', requestOptions: { requestsInParallel: 8 } }, input);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((item) => item.id)).toEqual(input.map((item) => item.id));
		const unauthorized = env.sandbox.apiRequests().filter((request) => request.status === 401);
		// Several requests in flight met the expired token …
		expect(unauthorized.length).toBeGreaterThan(1);
		// … and shared one new token.
		expect(env.sandbox.tokenRequests()).toHaveLength(1);
	});
});
