/**
 * The request core proven on Deals → Get Many: query strings, headers, paging, output shape,
 * retries and error messages, all through n8n-core's engine against the sandbox.
 */
import { decodedQuery, jsonOf, useSandbox } from './helpers';

const TOTAL_DEALS = 1000;
const env = useSandbox({ sizes: { deals: TOTAL_DEALS } });

const getMany = (extra: Record<string, unknown> = {}) => ({ resource: 'deal', operation: 'getMany', ...extra });

describe('Deals → Get Many', () => {
	it('returns all 1,000 deals with keyset paging in ceil(1000/100)+1 requests, one page at a time', async () => {
		const result = await env.run('loanCrmDeals', getMany({ returnAll: true, requestOptions: { requestsInParallel: 1 } }));
		expect(result.error).toBeUndefined();
		const items = jsonOf(result);
		expect(items).toHaveLength(TOTAL_DEALS);
		expect(new Set(items.map((item) => item.id)).size).toBe(TOTAL_DEALS);
		expect(() => JSON.stringify(result.items)).not.toThrow();

		const requests = env.sandbox.apiRequests();
		expect(requests).toHaveLength(11);
		expect(requests.every((request) => request.method === 'GET' && request.path === '/jsonapi/deals')).toBe(true);
		expect(decodedQuery(requests[0].rawQuery)).toBe('page[size]=100');
		const ids = items.map((item) => Number(item.id));
		for (let page = 1; page < requests.length; page++) {
			expect(decodedQuery(requests[page].rawQuery)).toBe(`filter=greaterThan(id,'${ids[page * 100 - 1]}')&page[size]=100`);
			expect(requests[page].query['page[number]']).toBeUndefined();
		}
		// Every item paired to the single input item.
		expect(result.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('sends the media type, UserId and a bearer token on every request, with one token request', async () => {
		await env.run('loanCrmDeals', getMany({ limit: 3 }));
		const [request] = env.sandbox.apiRequests();
		expect(request.headers.accept).toBe('application/vnd.api+json');
		expect(request.headers.userid).toBe(env.sandbox.userId);
		expect(request.headers.authorization).toMatch(/^Bearer \S+$/);
		expect(env.sandbox.issuedTokens()).toContain(request.headers.authorization.slice('Bearer '.length));
		expect(request.headers['content-type']).toBeUndefined();
		// The stored token of the previous test is reused: no token request at all.
		expect(env.sandbox.tokenRequests()).toHaveLength(0);
	});

	it('limit 7 gives exactly 7 items from one request of page[size]=7', async () => {
		const result = await env.run('loanCrmDeals', getMany({ returnAll: false, limit: 7 }));
		expect(jsonOf(result)).toHaveLength(7);
		const requests = env.sandbox.apiRequests();
		expect(requests).toHaveLength(1);
		expect(decodedQuery(requests[0].rawQuery)).toBe('page[size]=7');
	});

	it('limit 250 pages with shrinking page size and stops at the limit, one page at a time', async () => {
		const result = await env.run('loanCrmDeals', getMany({ limit: 250, requestOptions: { requestsInParallel: 1 } }));
		expect(jsonOf(result)).toHaveLength(250);
		const sizes = env.sandbox.apiRequests().map((request) => request.query['page[size]']);
		expect(sizes).toEqual(['100', '100', '50']);
	});

	it('sends filter, sort and include exactly, paging by page number for a non-id sort', async () => {
		const result = await env.run(
			'loanCrmDeals',
			getMany({
				returnAll: true,
				options: { filter: "equals(dealStatus,'Settled')", sort: '-totalLoanAmount', include: 'customStatus' },
			}),
		);
		expect(result.error).toBeUndefined();
		const items = jsonOf(result);
		const settled = env.sandbox.data.list('deals').filter((deal) => deal.attributes.dealStatus === 'Settled');
		expect(settled.length).toBeGreaterThan(0);
		expect(items).toHaveLength(settled.length);
		expect(items.every((item) => item.dealStatus === 'Settled')).toBe(true);
		const amounts = items.map((item) => item.totalLoanAmount as number);
		expect([...amounts].sort((a, b) => b - a)).toEqual(amounts);
		const requests = env.sandbox.apiRequests();
		expect(decodedQuery(requests[0].rawQuery)).toBe("filter=equals(dealStatus,'Settled')&sort=-totalLoanAmount&include=customStatus&page[size]=100");
		if (requests.length > 1) expect(requests[1].query['page[number]']).toBe('2');
		// Included custom statuses are resolved onto the items; deals without one carry null.
		const withStatus = items.find((item) => item.customStatus !== null);
		expect(withStatus?.customStatus).toEqual(expect.objectContaining({ type: 'custom-statuses', name: expect.any(String) }));
	});

	it('combines the condition builder with the raw filter and quotes hostile values', async () => {
		const result = await env.run(
			'loanCrmDeals',
			getMany({
				limit: 5,
				options: {
					filter: "not(equals(dealStatus,'Cancelled'))",
					conditions: { condition: [{ field: 'name', operator: 'contains', value: "O'Connor), or(x" }] },
				},
			}),
		);
		expect(result.error).toBeUndefined();
		const [request] = env.sandbox.apiRequests();
		expect(request.status).toBe(200);
		expect(request.query.filter).toBe("and(not(equals(dealStatus,'Cancelled')),contains(name,'O''Connor), or(x'))");
	});

	it('keeps the raw resource when Simplify is off (version 1)', async () => {
		const result = await env.run('loanCrmDeals', getMany({ limit: 1, simplify: false, options: { include: 'customStatus' } }), { typeVersion: 1 });
		const [item] = jsonOf(result);
		expect(Object.keys(item)).toEqual(expect.arrayContaining(['type', 'id', 'attributes', 'relationships']));
		expect(item.type).toBe('deals');
	});

	it('never follows links.next to another host', async () => {
		env.sandbox.linkHost = 'internal-proxy.invalid:8443';
		try {
			const result = await env.run('loanCrmDeals', getMany({ limit: 300 }));
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toHaveLength(300);
			expect(env.sandbox.apiRequests()).toHaveLength(3);
		} finally {
			env.sandbox.linkHost = undefined;
		}
	});

	it('stops with a clear error when the server repeats the same page', async () => {
		const page = {
			data: Array.from({ length: 100 }, (_, index) => ({ type: 'deals', id: String(index + 1), attributes: { name: `Deal ${index + 1}` } })),
			links: { next: 'http://127.0.0.1/jsonapi/deals?page%5Bnumber%5D=2' },
		};
		env.sandbox.injectFault({ path: '/jsonapi/deals' }, { status: 200, body: page, headers: { 'content-type': 'application/vnd.api+json' } }, Infinity);
		const result = await env.run('loanCrmDeals', getMany({ returnAll: true, options: { sort: 'name' } }));
		expect(result.error?.message).toMatch(/returned the same page again/);
		expect(env.sandbox.apiRequests()).toHaveLength(2);
	});

	it('validates options before sending anything', async () => {
		const result = await env.run('loanCrmDeals', getMany({ limit: 5, options: { filter: "equals(name,'unterminated)" } }));
		expect(result.error?.message).toMatch(/Parameter "Options → Filter" has a quoted value that is not closed/);
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});
});

describe('errors and retries on Deals → Get Many', () => {
	it('400: names the query parameter and what is wrong', async () => {
		const result = await env.run('loanCrmDeals', getMany({ limit: 5, options: { filter: "equals(noSuchField,'x')" } }));
		expect(result.error?.message).toMatch(/^Loan CRM rejected the request \(400\): query parameter "filter": /);
		expect(result.error?.message).toMatch(/noSuchField/);
		expect(result.error?.description).toMatch(/Filter/);
	});

	it('403: says the scope or UserId lacks rights, and fetches no new token', async () => {
		env.sandbox.injectFault({ path: '/jsonapi/deals' }, { status: 403, body: { errors: [{ status: '403', title: 'Forbidden', detail: 'Scope api.deals.search is required.' }] } });
		const result = await env.run('loanCrmDeals', getMany({ limit: 5 }));
		expect(result.error?.message).toBe('Loan CRM refused access (403): Forbidden Scope api.deals.search is required.');
		expect(result.error?.description).toMatch(/New tokens do not fix this/);
		expect(env.sandbox.tokenRequests()).toHaveLength(0);
		expect(env.sandbox.apiRequests()).toHaveLength(1);
	});

	it('404, 409, 422, 423: each gives its own message', async () => {
		const cases: Array<[number, object, RegExp]> = [
			[404, { errors: [{ status: '404', title: 'The requested resource does not exist.' }] }, /^Loan CRM has no deals \(404\)/],
			[409, { errors: [{ status: '409', title: 'Conflict', detail: 'Busy.' }] }, /^Loan CRM reported a conflict \(409\): Conflict Busy\./],
			[422, { errors: [{ status: '422', title: 'Input validation failed.', detail: 'Too long.', source: { pointer: '/data/attributes/name' } }] }, /\(422\): field "name": Input validation failed\. Too long\./],
			[423, { errors: [{ status: '423', code: 'feature_not_enabled', title: 'Locked' }] }, /not enabled \(423\)/],
		];
		for (const [status, body, message] of cases) {
			env.sandbox.clearLog();
			env.sandbox.injectFault({ path: '/jsonapi/deals' }, { status, body });
			const result = await env.run('loanCrmDeals', getMany({ limit: 5 }));
			expect(result.error?.message).toMatch(message);
			expect(env.sandbox.apiRequests()).toHaveLength(1);
			expect(env.sandbox.tokenRequests()).toHaveLength(0);
		}
	});

	it('429: waits for retry-after in seconds, then succeeds', async () => {
		env.sandbox.injectFault({ path: '/jsonapi/deals' }, { status: 429, headers: { 'retry-after': '1' } });
		const result = await env.run('loanCrmDeals', getMany({ limit: 2 }));
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toHaveLength(2);
		const [limited, repeated] = env.sandbox.apiRequests();
		expect([limited.status, repeated.status]).toEqual([429, 200]);
		expect(env.sandbox.apiRequests()).toHaveLength(2);
		// Repeated once the second had passed on the clock the node and the service share.
		expect(repeated.receivedAt - limited.handledAt).toBeGreaterThanOrEqual(1000);
	});

	it('429: waits for retry-after given as an HTTP date', async () => {
		const when = new Date(env.clock.now() + 2000).toUTCString();
		env.sandbox.injectFault({ path: '/jsonapi/deals' }, { status: 429, headers: { 'retry-after': when } });
		const result = await env.run('loanCrmDeals', getMany({ limit: 2 }));
		expect(result.error).toBeUndefined();
		const [limited, repeated] = env.sandbox.apiRequests();
		expect([limited.status, repeated.status]).toEqual([429, 200]);
		expect(env.sandbox.apiRequests()).toHaveLength(2);
		// Not before the date (whole seconds, so 1 to 2 seconds after the 429).
		expect(repeated.receivedAt).toBeGreaterThanOrEqual(Date.parse(when));
	});

	it('429 with a retry-after beyond When Rate Limited (default 10 minutes) fails at once, saying how long and what to do', async () => {
		env.sandbox.injectFault({ path: '/jsonapi/deals' }, { status: 429, headers: { 'retry-after': '3600' } });
		const result = await env.run('loanCrmDeals', getMany({ limit: 2 }));
		expect(result.error?.message).toBe('Loan CRM rate limit: the wait is longer than When Rate Limited allows');
		expect(result.error?.description).toMatch(
			/^The service asked to wait 3600 seconds \(retry-after of a 429\)\. This node waits at most 10 minute\(s\) \("Request Options → Rate Limit Wait \(Minutes\)"\)\. The service refused it with 429, so it was not processed; it was not sent again\. Raise that option/,
		);
		expect(env.sandbox.apiRequests()).toHaveLength(1);
	});

	it('When Rate Limited 0 fails at once at a 429, however short its retry-after; a bad value fails before any request', async () => {
		env.sandbox.injectFault({ path: '/jsonapi/deals' }, { status: 429, headers: { 'retry-after': '1' } });
		const result = await env.run('loanCrmDeals', getMany({ limit: 2, requestOptions: { rateLimitWaitMinutes: 0 } }));
		expect(result.error?.message).toBe('Loan CRM rate limit: the wait is longer than When Rate Limited allows');
		expect(result.error?.description).toMatch(/^The service asked to wait 1 seconds \(retry-after of a 429\)\. This node is set not to wait/);
		expect(env.sandbox.apiRequests()).toHaveLength(1);

		const invalid = await env.run('loanCrmDeals', getMany({ limit: 2, requestOptions: { rateLimitWaitMinutes: -1 } }));
		expect(invalid.error?.message).toBe('Parameter "Request Options → Rate Limit Wait (Minutes)" must be a number of minutes from 0 (fail at once) to 1440; got -1');
		expect(env.sandbox.apiRequests()).toHaveLength(1);
	});

	it('503 and a dropped connection on GET are retried and succeed', async () => {
		env.sandbox.injectFault({ path: '/jsonapi/deals' }, { status: 503 });
		env.sandbox.injectFault({ path: '/jsonapi/deals' }, { kind: 'drop' });
		const result = await env.run('loanCrmDeals', getMany({ limit: 2 }));
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toHaveLength(2);
		expect(env.sandbox.apiRequests()).toHaveLength(3);
	});

	it('a non-JSON error page is reported with its status and an excerpt', async () => {
		env.sandbox.injectFault({ path: '/jsonapi/deals' }, { kind: 'html', status: 500 });
		const result = await env.run('loanCrmDeals', getMany({ limit: 2 }));
		expect(result.error?.message).toMatch(/\(500\): non-JSON answer: .*html/i);
		expect(env.sandbox.apiRequests()).toHaveLength(1);
	});
});
