import { TestClock } from '../../harness/clock';
import { Sandbox, startSandbox } from '../../sandbox';
import { Api, firstError, requestToken, toReply } from './testkit';

describe('sandbox faults and request log', () => {
	let sb: Sandbox;
	let api: Api;
	const clock = TestClock.stopped();

	beforeAll(async () => {
		sb = await startSandbox({ sizes: { deals: 20, contacts: 10, incomes: 5, dealSecurities: 5 }, clock });
		api = await Api.connect(sb);
	});
	afterAll(() => sb.close());
	beforeEach(() => {
		sb.clearFaults();
		sb.clearLog();
	});

	const deals = '/jsonapi/deals?page[size]=1';

	it('answers the next matching request with an injected status, then behaves normally', async () => {
		sb.injectFault({ path: '/jsonapi/deals' }, { status: 503 });
		const failed = await api.get(deals);
		expect(failed.status).toBe(503);
		expect(firstError(failed).status).toBe('503');
		expect((await api.get(deals)).status).toBe(200);
		expect(sb.apiRequests().map((r) => [r.status, r.fault])).toEqual([
			[503, 'status:503'],
			[200, undefined],
		]);
	});

	it('sends injected headers and bodies (429 with retry-after, 423 with an error document)', async () => {
		sb.injectFault({ method: 'GET' }, { status: 429, headers: { 'retry-after': '1' } });
		const limited = await api.get(deals);
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toBe('1');
		const locked = { errors: [{ id: '1', status: '423', code: 'feature_not_enabled', title: 'Locked', detail: 'Beta feature not enabled.' }] };
		sb.injectFault({ method: 'PATCH' }, { status: 423, body: locked });
		const reply = await api.patch(`/jsonapi/deal-notes/${sb.data.ids.dealNote}`, { data: { type: 'deal-notes', id: sb.data.ids.dealNote, attributes: { title: 'x' } } });
		expect(reply.status).toBe(423);
		expect(reply.json).toEqual(locked);
		expect(reply.headers.get('content-type')).toBe('application/vnd.api+json');
	});

	it('writes the standard 500 error document by default', async () => {
		sb.injectFault({}, { status: 500 });
		const reply = await api.get(deals);
		expect(reply.status).toBe(500);
		expect(firstError(reply).title).toBe('An unhandled error occurred while processing this request.');
	});

	it('applies faults before authentication', async () => {
		sb.injectFault({ kind: 'api' }, { status: 503 });
		expect((await api.get(deals, { token: null })).status).toBe(503);
		expect((await api.get(deals, { token: null })).status).toBe(401);
	});

	it('drops the connection without an answer', async () => {
		sb.injectFault({ path: /\/deals$/ }, { kind: 'drop' });
		await expect(fetch(`${sb.baseUrl}${deals}`, { headers: { authorization: `Bearer ${api.bearer}` } })).rejects.toThrow();
		expect(sb.apiRequests()[0]).toMatchObject({ status: 0, fault: 'drop' });
		expect((await api.get(deals)).status).toBe(200);
	});

	it('answers 200 with truncated JSON', async () => {
		sb.injectFault({}, { kind: 'malformedJson' });
		const res = await fetch(`${sb.baseUrl}${deals}`, { headers: { authorization: `Bearer ${api.bearer}` } });
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/vnd.api+json');
		await expect(res.json()).rejects.toThrow();
	});

	it('answers with an HTML error page (502 by default)', async () => {
		sb.injectFault({}, { kind: 'html' });
		const gateway = await api.get(deals);
		expect(gateway.status).toBe(502);
		expect(gateway.headers.get('content-type')).toMatch(/^text\/html/);
		expect(gateway.text).toContain('<html>');
		sb.injectFault({}, { kind: 'html', status: 504 });
		expect((await api.get(deals)).status).toBe(504);
		expect(sb.apiRequests().map((r) => r.fault)).toEqual(['html', 'html']);
	});

	it('delays on its clock and then answers normally', async () => {
		sb.injectFault({}, { kind: 'delay', ms: 150 });
		const replied = api.get(deals);
		while (sb.heldRequests() === 0) await new Promise((resolve) => setImmediate(resolve));
		clock.advance(149);
		expect(sb.heldRequests()).toBe(1);
		clock.advance(1);
		const reply = await replied;
		expect(sb.heldRequests()).toBe(0);
		expect(reply.status).toBe(200);
		expect(sb.apiRequests()[0]).toMatchObject({ fault: 'delay', status: 200 });
	});

	it('hands the request to a custom handler', async () => {
		sb.injectFault({}, {
			kind: 'custom',
			handle: (_req, res, body) => {
				res.writeHead(418, { 'content-type': 'text/plain' });
				res.end(`teapot:${body.length}`);
			},
		});
		const reply = await api.post('/jsonapi/contacts', { data: { type: 'contacts' } });
		expect(reply.status).toBe(418);
		expect(reply.text).toBe('teapot:28');
		expect(sb.apiRequests()[0]).toMatchObject({ fault: 'custom', status: 418 });
	});

	it('counts times (Infinity until cleared) and matches method, path and kind', async () => {
		sb.injectFault({ method: 'get', path: '/jsonapi/deals' }, { status: 503 }, 2);
		expect((await api.get(`/jsonapi/leads/${sb.data.ids.lead}`)).status).toBe(200);
		expect((await api.get(deals)).status).toBe(503);
		expect((await api.get(deals)).status).toBe(503);
		expect((await api.get(deals)).status).toBe(200);
		sb.injectFault({ kind: 'token' }, { status: 503 }, Infinity);
		for (let i = 0; i < 3; i++) {
			const reply = await requestToken(sb);
			expect(reply.status).toBe(503);
			expect(reply.json.error).toBe('temporarily_unavailable');
		}
		expect((await api.get(deals)).status).toBe(200);
		sb.clearFaults();
		expect((await requestToken(sb)).status).toBe(200);
	});

	it('logs every request in order with method, path, raw and decoded query, headers, body, json, status, kind and cost', async () => {
		const body = { data: { type: 'deal-notes', id: sb.data.ids.dealNote, attributes: { title: 'Log me' } } };
		await api.get("/jsonapi/deals?filter=equals(name,'O''Connor%2C+Liam')&filter=has(dealNotes)&page%5Bsize%5D=2");
		await api.patch(`/jsonapi/deal-notes/${sb.data.ids.dealNote}`, body);
		await fetch(`${sb.baseUrl}/jsonapi/deals`).then(toReply);
		const [get, patch, unauthenticated] = sb.requests;
		expect(get).toMatchObject({
			method: 'GET',
			path: '/jsonapi/deals',
			// fetch percent-encodes the quotes; the log keeps the query exactly as received
			rawQuery: 'filter=equals(name,%27O%27%27Connor%2C+Liam%27)&filter=has(dealNotes)&page%5Bsize%5D=2',
			query: { filter: "equals(name,'O''Connor, Liam')\nhas(dealNotes)", 'page[size]': '2' },
			body: '',
			status: 200,
			kind: 'api',
			cost: 10,
		});
		expect(get.headers.authorization).toBe(`Bearer ${api.bearer}`);
		expect(get.headers.userid).toBe(sb.userId);
		expect(get.json).toBeUndefined();
		expect(patch).toMatchObject({ method: 'PATCH', body: JSON.stringify(body), json: body, status: 200, cost: 5 });
		expect(patch.headers['content-type']).toBe('application/vnd.api+json');
		expect(unauthenticated).toMatchObject({ status: 401, kind: 'api' });
		expect(unauthenticated.cost).toBeUndefined();
		expect(sb.apiRequests()).toHaveLength(3);
		expect(sb.tokenRequests()).toHaveLength(0);
		sb.clearLog();
		expect(sb.requests).toHaveLength(0);
	});
});
