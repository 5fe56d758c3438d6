import { Sandbox, startSandbox } from '../../sandbox';
import { Api, firstError, ids } from './testkit';

describe('sandbox paging and links', () => {
	let sb: Sandbox;
	let api: Api;

	beforeAll(async () => {
		sb = await startSandbox({ sizes: { deals: 250, contacts: 40, incomes: 20, dealSecurities: 20 } });
		api = await Api.connect(sb);
	});
	afterAll(() => sb.close());
	afterEach(() => {
		sb.countTotals = false;
		sb.linkHost = undefined;
	});

	const origin = () => sb.baseUrl;

	it('serves 100 resources by default with self, first and next links and no meta.total', async () => {
		const reply = await api.get('/jsonapi/deals');
		expect(reply.status).toBe(200);
		expect(reply.json.jsonapi).toEqual({ version: '1.1' });
		expect(reply.json.data).toHaveLength(100);
		expect(ids(reply)[0]).toBe('10001');
		expect(reply.json.links).toEqual({
			self: `${origin()}/jsonapi/deals`,
			first: `${origin()}/jsonapi/deals`,
			next: `${origin()}/jsonapi/deals?page%5Bnumber%5D=2`,
		});
		expect(reply.json).not.toHaveProperty('meta');
	});

	it('percent-encodes brackets, keeps other parameters and leaves out page 1 and the default size', async () => {
		const reply = await api.get('/jsonapi/deals?sort=-id&page[size]=100&page[number]=2');
		expect(reply.json.links.self).toBe(`${origin()}/jsonapi/deals?sort=-id&page[size]=100&page[number]=2`);
		expect(reply.json.links.first).toBe(`${origin()}/jsonapi/deals?sort=-id`);
		expect(reply.json.links.prev).toBe(`${origin()}/jsonapi/deals?sort=-id`);
		expect(reply.json.links.next).toBe(`${origin()}/jsonapi/deals?sort=-id&page%5Bnumber%5D=3`);
		const sized = await api.get("/jsonapi/deals?filter=greaterThan(id,'10010')&page[size]=5&page[number]=3");
		expect(sized.json.links.next).toBe(
			`${origin()}/jsonapi/deals?filter=greaterThan%28id%2C%2710010%27%29&page%5Bnumber%5D=4&page%5Bsize%5D=5`,
		);
		expect(sized.json.links.prev).toBe(`${origin()}/jsonapi/deals?filter=greaterThan%28id%2C%2710010%27%29&page%5Bnumber%5D=2&page%5Bsize%5D=5`);
		expect(ids(sized)).toEqual(['10021', '10022', '10023', '10024', '10025']);
	});

	it('links a full last page to an empty page, and answers 200 with data [] past the end', async () => {
		const last = await api.get('/jsonapi/deals?page[size]=50&page[number]=5');
		expect(last.json.data).toHaveLength(50);
		expect(last.json.links.next).toBe(`${origin()}/jsonapi/deals?page%5Bnumber%5D=6&page%5Bsize%5D=50`);
		const empty = await api.get(last.json.links.next);
		expect(empty.status).toBe(200);
		expect(empty.json.data).toEqual([]);
		expect(empty.json.links).not.toHaveProperty('next');
		expect(empty.json.links.prev).toBe(`${origin()}/jsonapi/deals?page%5Bnumber%5D=5&page%5Bsize%5D=50`);
		const far = await api.get('/jsonapi/deals?page[number]=1000');
		expect(far.status).toBe(200);
		expect(far.json.data).toEqual([]);
	});

	it('has no next link on a partial page', async () => {
		const reply = await api.get('/jsonapi/deals?page[number]=3');
		expect(reply.json.data).toHaveLength(50);
		expect(reply.json.links).not.toHaveProperty('next');
	});

	it('walks every deal once by following next links as given', async () => {
		const seen: string[] = [];
		let url: string | undefined = '/jsonapi/deals?page[size]=40';
		while (url) {
			const reply = await api.get(url);
			seen.push(...ids(reply));
			url = reply.json.links.next;
		}
		expect(seen).toHaveLength(250);
		expect(new Set(seen).size).toBe(250);
		expect(seen).toEqual([...seen].sort((a, b) => Number(a) - Number(b)));
	});

	it('adds meta.total and links.last when countTotals is on, and next only when more exist', async () => {
		sb.countTotals = true;
		const first = await api.get('/jsonapi/deals?page[size]=50');
		expect(first.json.meta).toEqual({ total: 250 });
		expect(first.json.links.last).toBe(`${origin()}/jsonapi/deals?page%5Bnumber%5D=5&page%5Bsize%5D=50`);
		const last = await api.get('/jsonapi/deals?page[size]=50&page[number]=5');
		expect(last.json.data).toHaveLength(50);
		expect(last.json.links).not.toHaveProperty('next');
		const filtered = await api.get("/jsonapi/deals?filter=lessOrEqual(id,'10010')");
		expect(filtered.json.meta.total).toBe(10);
		expect(filtered.json.links.last).toBe(`${origin()}/jsonapi/deals?filter=lessOrEqual%28id%2C%2710010%27%29`);
	});

	it('works with the countTotals option at start', async () => {
		const counted = await startSandbox({ countTotals: true, sizes: { deals: 12, contacts: 5, incomes: 1, dealSecurities: 1 } });
		try {
			const reply = await (await Api.connect(counted)).get('/jsonapi/deals?page[size]=5');
			expect(reply.json.meta.total).toBe(12);
			expect(reply.json.links.last).toContain('page%5Bnumber%5D=3');
		} finally {
			await counted.close();
		}
	});

	it('builds absolute links from the Host header, or from linkHost when set', async () => {
		sb.linkHost = 'crm-internal.local:8080';
		const reply = await api.get('/jsonapi/deals?page[size]=1');
		expect(reply.json.links.next).toBe('http://crm-internal.local:8080/jsonapi/deals?page%5Bnumber%5D=2&page%5Bsize%5D=1');
		expect(reply.json.data[0].links.self).toBe('http://crm-internal.local:8080/jsonapi/deals/10001');
		sb.linkHost = 'https://proxy.example.com';
		const proxied = await api.get('/jsonapi/deals?page[size]=1');
		expect(proxied.json.links.self).toBe('https://proxy.example.com/jsonapi/deals?page[size]=1');
	});

	it('rejects page sizes above 100 or below 1 and page numbers below 1 with 400', async () => {
		const cases: Array<[string, string, string]> = [
			['page[size]=101', 'page[size]', 'higher than 100'],
			['page[size]=0', 'page[size]', 'negative or zero'],
			['page[size]=-1', 'page[size]', 'negative or zero'],
			['page[number]=0', 'page[number]', 'negative or zero'],
			['page[number]=-3', 'page[number]', 'negative or zero'],
			['page[size]=ten', 'page[size]', 'integer'],
		];
		for (const [query, parameter, text] of cases) {
			const reply = await api.get(`/jsonapi/deals?${query}`);
			expect([query, reply.status]).toEqual([query, 400]);
			const error = firstError(reply);
			expect(error.title).toBe('The specified pagination is invalid.');
			expect(error.source).toEqual({ parameter });
			expect(error.detail).toContain(text);
			expect(error.detail).toMatch(/Failed at position \d+: /);
		}
		expect((await api.get('/jsonapi/deals?page[size]=100')).status).toBe(200);
		expect((await api.get('/jsonapi/deals?page%5Bsize%5D=5')).json.data).toHaveLength(5);
	});

	it('pages related collections too', async () => {
		const dealId = sb.data.ids.dealWithNotes;
		const first = await api.get(`/jsonapi/deals/${dealId}/dealNotes?page[size]=2`);
		expect(first.json.data).toHaveLength(2);
		expect(first.json.links.next).toBe(`${origin()}/jsonapi/deals/${dealId}/dealNotes?page%5Bnumber%5D=2&page%5Bsize%5D=2`);
		const second = await api.get(first.json.links.next);
		expect(second.json.data).toHaveLength(1);
		expect(second.json.links).not.toHaveProperty('next');
		const empty = await api.get(`/jsonapi/deals/${sb.data.ids.dealWithoutNotes}/dealNotes`);
		expect(empty.json.data).toEqual([]);
		const noAddresses = await api.get(`/jsonapi/organisations/${sb.data.ids.organisationWithoutAddresses}/addresses`);
		expect(noAddresses.json.data).toEqual([]);
	});

	it('supports keyset paging with ids compared as numbers', async () => {
		const reply = await api.get("/jsonapi/deals?sort=id&filter=greaterThan(id,'999')&page[size]=3");
		expect(ids(reply)).toEqual(['10001', '10002', '10003']);
		const next = await api.get("/jsonapi/deals?sort=id&filter=greaterThan(id,'10248')");
		expect(ids(next)).toEqual(['10249', '10250']);
		const descending = await api.get("/jsonapi/deals?sort=-id&filter=lessThan(id,'10004')");
		expect(ids(descending)).toEqual(['10003', '10002', '10001']);
	});
});
