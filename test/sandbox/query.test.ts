import { Sandbox, startSandbox } from '../../sandbox';
import { Api, firstError, ids } from './testkit';

describe('sandbox sort, include, fields and query string rules', () => {
	let sb: Sandbox;
	let api: Api;

	beforeAll(async () => {
		sb = await startSandbox({ sizes: { deals: 150, contacts: 40, incomes: 20, dealSecurities: 20 } });
		api = await Api.connect(sb);
	});
	afterAll(() => sb.close());

	describe('sort', () => {
		it('defaults to id ascending and supports -id', async () => {
			expect(ids(await api.get('/jsonapi/deals?page[size]=3'))).toEqual(['10001', '10002', '10003']);
			expect(ids(await api.get('/jsonapi/deals?page[size]=2&sort=-id'))).toEqual(['10150', '10149']);
		});

		it('sorts by attributes, descending with -, null first when ascending, ties by id', async () => {
			const reply = await api.get('/jsonapi/deals?sort=-totalLoanAmount');
			const amounts = reply.json.data.map((d: { attributes: { totalLoanAmount: number | null } }) => d.attributes.totalLoanAmount);
			const nonNull = amounts.filter((a: number | null) => a !== null);
			expect(nonNull).toEqual([...nonNull].sort((a: number, b: number) => b - a));
			const ascending = await api.get('/jsonapi/deals?sort=totalLoanAmount&page[size]=1');
			expect(ascending.json.data[0].attributes.totalLoanAmount).toBeNull();
			const byUpdated = await api.get('/jsonapi/deals?sort=-updated&page[size]=20');
			const stamps = byUpdated.json.data.map((d: { attributes: { updated: string } }) => Date.parse(d.attributes.updated));
			expect(stamps).toEqual([...stamps].sort((a: number, b: number) => b - a));
			const multi = await api.get('/jsonapi/deals?sort=dealStatus,-id&page[size]=100');
			const rows = multi.json.data.map((d: { id: string; attributes: { dealStatus: string } }) => [d.attributes.dealStatus.toLowerCase(), Number(d.id)]);
			for (let i = 1; i < rows.length; i++) {
				const [s0, id0] = rows[i - 1];
				const [s1, id1] = rows[i];
				expect(s0 < s1 || (s0 === s1 && id0 > id1)).toBe(true);
			}
		});

		it('sorts through to-one paths', async () => {
			const reply = await api.get('/jsonapi/deals?sort=customStatus.sortOrder,id&filter=not(equals(customStatusName,null))');
			const names = reply.json.data.map((d: { attributes: { customStatusName: string } }) => d.attributes.customStatusName);
			const order = ['First contact', 'Client reviewing', 'Docs requested', 'Waiting on payslips', 'Awaiting valuation', 'Credit assessment', 'Loan docs issued', 'Settlement booked'];
			const ranks = names.map((n: string) => order.indexOf(n));
			expect(ranks).toEqual([...ranks].sort((a: number, b: number) => a - b));
			expect(names[0]).toBe('First contact');
		});

		it('rejects unknown or unsortable fields with 400', async () => {
			const unknown = await api.get('/jsonapi/deals?sort=nope');
			expect(unknown.status).toBe(400);
			expect(firstError(unknown)).toMatchObject({ title: 'The specified sort is invalid.', source: { parameter: 'sort' } });
			expect(firstError(unknown).detail).toBe("Field 'nope' does not exist on resource type 'deals'. Failed at position 1: ^nope");
			const object = await api.get('/jsonapi/deals?sort=-dates');
			expect(firstError(object).detail).toMatch(/^Sorting on attribute 'dates' is not allowed\. Failed at position 2/);
			expect((await api.get('/jsonapi/deals?sort=id,')).status).toBe(400);
		});
	});

	describe('include', () => {
		it('adds data to included relationships only, and deduplicates included resources', async () => {
			const reply = await api.get('/jsonapi/deals?include=customStatus&page[size]=100');
			const withStatus = reply.json.data.filter((d: { relationships: { customStatus: { data: unknown } } }) => d.relationships.customStatus.data !== null);
			expect(withStatus.length).toBeGreaterThan(10);
			for (const deal of reply.json.data) {
				expect(deal.relationships.customStatus).toHaveProperty('data');
				expect(deal.relationships.adviser).not.toHaveProperty('data');
				expect(deal.relationships.adviser.links).toEqual({
					self: `${sb.baseUrl}/jsonapi/deals/${deal.id}/relationships/adviser`,
					related: `${sb.baseUrl}/jsonapi/deals/${deal.id}/adviser`,
				});
			}
			const included = reply.json.included as Array<{ type: string; id: string }>;
			const keys = included.map((r) => `${r.type}:${r.id}`);
			expect(new Set(keys).size).toBe(keys.length);
			const referenced = new Set(withStatus.map((d: { relationships: { customStatus: { data: { id: string } } } }) => d.relationships.customStatus.data.id));
			expect(new Set(included.map((r) => r.id))).toEqual(referenced);
			expect(included.every((r) => r.type === 'custom-statuses')).toBe(true);
		});

		it('renders null and [] data for included empty relationships and omits included when nothing is found', async () => {
			const reply = await api.get(`/jsonapi/deals?filter=equals(id,'${sb.data.ids.dealWithoutCustomStatus}')&include=customStatus,dealNotes`);
			expect(reply.json.data[0].relationships.customStatus.data).toBeNull();
			expect(reply.json.data[0].relationships.dealNotes.data).toEqual([]);
			expect(reply.json).not.toHaveProperty('included');
		});

		it('follows nested paths and does not repeat primary resources in included', async () => {
			const reply = await api.get(`/jsonapi/deals?filter=equals(id,'${sb.data.ids.dealWithNotes}')&include=dealNotes.deal,adviser.organisation`);
			const included = reply.json.included as Array<{ type: string; id: string; relationships?: Record<string, { data?: unknown }> }>;
			expect(included.filter((r) => r.type === 'deal-notes')).toHaveLength(3);
			expect(included.some((r) => r.type === 'deals')).toBe(false);
			const note = included.find((r) => r.type === 'deal-notes');
			expect(note?.relationships?.deal.data).toEqual({ type: 'deals', id: sb.data.ids.dealWithNotes });
			expect(included.map((r) => r.type)).toEqual(expect.arrayContaining(['advisers', 'organisations']));
			const securities = await api.get(`/jsonapi/deals?filter=has(loanSecurities)&include=loanSecurities,externalReferences.integration&page[size]=1`);
			expect(ids(securities)).toEqual([sb.data.ids.dealWithNotes]);
			const types = securities.json.included.map((r: { type: string; id: string }) => `${r.type}:${r.id}`);
			expect(types).toEqual(expect.arrayContaining([`deal-securities:${sb.data.ids.dealSecurity}`, `deal-external-references:${sb.data.ids.dealExternalReference}`, `integrations:${sb.data.ids.integration}`]));
		});

		it('includes on single and related endpoints', async () => {
			const reply = await api.get(`/jsonapi/deal-structures/${sb.data.ids.dealStructure}/deal?include=customStatus`);
			expect(reply.json.data.relationships.customStatus.data).toEqual({ type: 'custom-statuses', id: expect.any(String) });
			expect(reply.json.included).toHaveLength(1);
			const contact = await api.get(`/jsonapi/contact-external-references/${sb.data.ids.contactExternalReference}/contact?include=contactGroup`);
			expect(contact.json.data.id).toBe(sb.data.ids.contact);
			expect(contact.json.included[0].type).toBe('contact-groups');
		});

		it('rejects unknown relationships with 400 and the position', async () => {
			const reply = await api.get('/jsonapi/deals?include=customStatus,dealNotes.nope');
			expect(reply.status).toBe(400);
			expect(firstError(reply)).toMatchObject({
				title: 'The specified include is invalid.',
				source: { parameter: 'include' },
				detail: "Relationship 'nope' does not exist on resource type 'deal-notes'. Failed at position 24: customStatus,dealNotes.^nope",
			});
			expect((await api.get(`/jsonapi/leads/${sb.data.ids.lead}?include=deal`)).status).toBe(400);
		});
	});

	describe('fields', () => {
		it('limits attributes and relationships per resource type', async () => {
			const reply = await api.get('/jsonapi/deals?fields[deals]=name,updated&page[size]=2');
			expect(Object.keys(reply.json.data[0].attributes)).toEqual(['updated', 'name']);
			expect(reply.json.data[0]).not.toHaveProperty('relationships');
		});

		it('attaches included resources only when the relationship is in the fieldset', async () => {
			const listed = await api.get(`/jsonapi/deals?fields[deals]=name,customStatus&fields[custom-statuses]=name&include=customStatus&filter=equals(id,'${sb.data.ids.dealWithCustomStatus}')`);
			expect(listed.json.data[0].relationships.customStatus.data).toBeTruthy();
			expect(listed.json.included[0].attributes).toEqual({ name: expect.any(String) });
			const unlisted = await api.get(`/jsonapi/deals?fields[deals]=name&include=customStatus&filter=equals(id,'${sb.data.ids.dealWithCustomStatus}')`);
			expect(unlisted.json).not.toHaveProperty('included');
		});

		it('rejects unknown types and fields', async () => {
			const type = await api.get('/jsonapi/deals?fields[nope]=name');
			expect(firstError(type)).toMatchObject({ title: 'The specified fieldset is invalid.', source: { parameter: 'fields[nope]' } });
			const field = await api.get('/jsonapi/deals?fields[deals]=name,nope');
			expect(firstError(field).detail).toMatch(/^Field 'nope' does not exist on resource type 'deals'\. Failed at position 6/);
		});
	});

	describe('parameter rules', () => {
		it('rejects empty filter, sort, include and page values with "Missing query string parameter value."', async () => {
			for (const param of ['filter', 'sort', 'include', 'page[size]', 'page[number]']) {
				const reply = await api.get(`/jsonapi/deals?${param}=`);
				expect([param, reply.status]).toEqual([param, 400]);
				expect(firstError(reply)).toMatchObject({ title: 'Missing query string parameter value.', source: { parameter: param } });
			}
		});

		it('rejects unknown parameters with 400', async () => {
			const reply = await api.get('/jsonapi/deals?limit=10');
			expect(reply.status).toBe(400);
			expect(firstError(reply)).toMatchObject({ title: 'Unknown query string parameter.', source: { parameter: 'limit' } });
			expect((await api.get("/jsonapi/deals?filter[name]=equals(name,'x')")).status).toBe(400);
		});

		it('accepts only include and fields on single and related single endpoints, plus page on related collections', async () => {
			const single = await api.get(`/jsonapi/leads/${sb.data.ids.lead}?filter=equals(id,'1')`);
			expect(single.status).toBe(400);
			expect(firstError(single).detail).toContain('can only be used on a collection');
			expect((await api.get(`/jsonapi/leads/${sb.data.ids.lead}?fields[leads]=dealStatus`)).json.data.attributes).toEqual({
				dealStatus: expect.any(String),
			});
			expect((await api.get(`/jsonapi/deals/${sb.data.ids.dealWithNotes}/customStatus?page[size]=1`)).status).toBe(400);
			expect((await api.get(`/jsonapi/deals/${sb.data.ids.dealWithNotes}/dealNotes?sort=-id`)).status).toBe(400);
			expect((await api.get(`/jsonapi/deals/${sb.data.ids.dealWithNotes}/dealNotes?filter=equals(id,'1')`)).status).toBe(400);
			expect((await api.get(`/jsonapi/deals/${sb.data.ids.dealWithNotes}/dealNotes?include=deal&fields[deal-notes]=title,deal`)).status).toBe(200);
		});

		it('rejects query parameters on DELETE and filter/sort/page on writes', async () => {
			expect((await api.delete(`/jsonapi/deal-notes/${sb.data.ids.dealNote}?include=deal`)).status).toBe(400);
			const patch = await api.patch(`/jsonapi/contact-categories/${sb.data.ids.contactCategory}?sort=id`, {
				data: { type: 'contact-categories', id: sb.data.ids.contactCategory, attributes: { name: 'VIP' } },
			});
			expect(patch.status).toBe(400);
		});

		it('joins repeated non-filter parameters with commas, as ASP.NET does', async () => {
			const reply = await api.get(`/jsonapi/deals?include=customStatus&include=adviser&filter=equals(id,'${sb.data.ids.dealWithNotes}')`);
			expect(reply.json.data[0].relationships.customStatus).toHaveProperty('data');
			expect(reply.json.data[0].relationships.adviser).toHaveProperty('data');
			expect((await api.get('/jsonapi/deals?page[size]=10&page[size]=20')).status).toBe(400);
		});

		it('rejects badly percent-encoded query strings', async () => {
			expect((await api.get('/jsonapi/deals?filter=%E0%A4%A')).status).toBe(400);
		});
	});
});
