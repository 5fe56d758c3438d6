import { ParseError } from '../../sandbox/errors';
import { parseFilter, tokenize } from '../../sandbox/filter';
import { Sandbox, StoredResource, startSandbox } from '../../sandbox';
import { Api, firstError, ids } from './testkit';

function parseFailure(text: string, type = 'deals'): { message: string; position: number; detail: string } {
	try {
		parseFilter(text, type);
	} catch (error) {
		if (error instanceof ParseError) return { message: error.message, position: error.position, detail: error.detailFor(text) };
		throw error;
	}
	throw new Error(`'${text}' parsed`);
}

describe('filter parser', () => {
	it('parses every function of the grammar', () => {
		for (const text of [
			"equals(name,'x')",
			"lessThan(totalLoanAmount,'500000')",
			"lessOrEqual(created,'2025-01-01')",
			"greaterThan(id,'10')",
			"greaterOrEqual(updated,'2026-11-01T10:00:00+10:00')",
			"contains(name,'x')",
			"startsWith(lenderName,'West')",
			"endsWith(name,'Liam')",
			"any(dealStatus,'Settled','Lodged')",
			'has(dealNotes)',
			"has(dealNotes,equals(title,'Initial call'))",
			"not(equals(lenderName,null))",
			"and(equals(dealType,'Residential'),or(equals(id,'1'),equals(id,'2'),equals(id,'3')))",
			"equals(customStatus.name,'Docs requested')",
			'equals(created,updated)',
			"greaterThan(count(dealNotes),'1')",
			"equals(adviser.organisation.name,'x')",
		]) {
			expect(() => parseFilter(text, 'deals')).not.toThrow();
		}
	});

	it('reads doubled quotes inside literals', () => {
		const node = parseFilter("equals(name,'O''Connor, Liam')", 'deals');
		expect(node).toMatchObject({ kind: 'compare', right: { kind: 'literal', value: "O'Connor, Liam" } });
		expect(tokenize("'a''b'''")).toEqual([{ kind: 'quoted', value: "a'b'", pos: 1 }]);
	});

	it('reports errors with 1-based positions', () => {
		expect(parseFailure("equals(name, 'x')")).toMatchObject({ message: 'Unexpected whitespace.', position: 13 });
		expect(parseFailure("equals(nam,'x')")).toMatchObject({ message: "Field 'nam' does not exist on resource type 'deals'.", position: 8 });
		expect(parseFailure("equals(name,'x'")).toMatchObject({ message: ') expected.', position: 16 });
		expect(parseFailure("and(equals(id,'1'))")).toMatchObject({ message: ', expected.', position: 19 });
		expect(parseFailure("foo(id,'1')")).toMatchObject({ message: 'Filter function expected.', position: 1 });
		expect(parseFailure("equals(name,'x')x")).toMatchObject({ message: 'End of expression expected.', position: 17 });
		expect(parseFailure("equals(name,'x")).toMatchObject({ message: "' expected.", position: 15 });
		expect(parseFailure("equals(customStatus.nope,'x')")).toMatchObject({ position: 21 });
		expect(parseFailure('has(adviser)').message).toContain('not a to-many relationship');
		expect(parseFailure("equals(dealNotes.title,'x')").message).toContain('to-many');
		expect(parseFailure("equals(dates,'x')").message).toBe("Filtering on attribute 'dates' is not allowed.");
		expect(parseFailure("any(dealStatus)").message).toBe(', expected.');
	});

	it('converts literals by attribute type', () => {
		expect(parseFailure("equals(totalLoanAmount,'lots')").message).toBe("Failed to convert 'lots' of type 'String' to type 'Decimal'.");
		expect(parseFailure("equals(updated,'yesterday')").message).toContain("to type 'DateTimeOffset'");
		expect(parseFailure("equals(dealStatus,'Funded')").message).toContain("to type 'SystemStatus'");
		expect(parseFailure("equals(id,'1.5')").message).toContain("to type 'Int32'");
		expect(parseFailure("equals(hasMarketingConsent,'yes')", 'contacts').message).toContain("to type 'Boolean'");
		expect(parseFailure("equals(dateOfBirth,'1990-02-30')", 'contacts').message).toContain("to type 'DateOnly'");
	});

	it('allows text functions on string attributes only', () => {
		expect(parseFailure("contains(totalLoanAmount,'1')").message).toBe("Attribute of type 'String' expected.");
		expect(parseFailure("startsWith(dealStatus,'New')").message).toBe("Attribute of type 'String' expected.");
		expect(parseFailure("contains(name,null)").message).toBe('Value between quotes expected.');
	});

	it('formats the detail with the position and a caret', () => {
		expect(parseFailure("equals(nam,'x')").detail).toBe(
			"Field 'nam' does not exist on resource type 'deals'. Failed at position 8: equals(^nam,'x')",
		);
	});
});

describe('filter over HTTP', () => {
	let sb: Sandbox;
	let api: Api;
	let deals: StoredResource<import('../../sandbox').DealAttributes>[];

	beforeAll(async () => {
		sb = await startSandbox({ sizes: { deals: 250, contacts: 60, incomes: 30, dealSecurities: 30 } });
		api = await Api.connect(sb);
		deals = sb.data.list('deals');
	});
	afterAll(() => sb.close());

	const all = async (path: string): Promise<string[]> => {
		const out: string[] = [];
		let url: string | undefined = path;
		while (url) {
			const reply = await api.get(url);
			if (reply.status !== 200) throw new Error(`${url}: ${reply.status} ${reply.text}`);
			out.push(...ids(reply));
			url = reply.json.links.next;
		}
		return out;
	};
	const expected = (predicate: (d: StoredResource<import('../../sandbox').DealAttributes>) => boolean) =>
		deals.filter(predicate).map((d) => d.id);
	const f = (expr: string) => `/jsonapi/deals?filter=${encodeURIComponent(expr)}`;

	it("matches literals with doubled quotes ('O''Connor')", async () => {
		expect(await all(f("equals(name,'O''Connor, Liam')"))).toEqual([sb.data.ids.dealWithApostrophe]);
		expect(await all(`/jsonapi/deals?filter=equals(name,'O''Connor,%20Liam')`)).toEqual([sb.data.ids.dealWithApostrophe]);
		const contacts = await api.get(`/jsonapi/contacts?filter=${encodeURIComponent("equals(lastName,'O''Brien')")}`);
		expect(ids(contacts)).toContain(sb.data.ids.contactWithApostrophe);
	});

	it('compares with bare null', async () => {
		const withoutLender = expected((d) => d.attributes.lenderName === null);
		expect(withoutLender.length).toBeGreaterThan(0);
		expect(await all(f('equals(lenderName,null)'))).toEqual(withoutLender);
		expect(await all(f('not(equals(lenderName,null))'))).toEqual(expected((d) => d.attributes.lenderName !== null));
	});

	it('supports any, and, or, not', async () => {
		expect(await all(f("any(dealStatus,'Settled','Withdrawn')"))).toEqual(
			expected((d) => ['Settled', 'Withdrawn'].includes(d.attributes.dealStatus)),
		);
		expect(await all(f("and(equals(dealType,'Residential'),greaterThan(totalLoanAmount,'1000000'))"))).toEqual(
			expected((d) => d.attributes.dealType === 'Residential' && (d.attributes.totalLoanAmount ?? 0) > 1_000_000),
		);
		expect(await all(f("or(equals(id,'10003'),equals(id,'10001'),equals(id,'10250'))"))).toEqual(['10001', '10003', '10250']);
		expect(await all(f("not(equals(dealStatus,'Settled'))"))).toEqual(expected((d) => d.attributes.dealStatus !== 'Settled'));
	});

	it('follows dotted to-one paths', async () => {
		const byStatusName = await all(f("equals(customStatus.name,'Awaiting valuation')"));
		expect(byStatusName).toEqual(expected((d) => d.attributes.customStatusName === 'Awaiting valuation'));
		expect(byStatusName).toContain(sb.data.ids.dealWithCustomStatus);
		const refs = await api.get(
			`/jsonapi/deal-external-references?filter=${encodeURIComponent("and(equals(integration.name,'MyIntegrationSource'),equals(externalReference,'ABC1234'))")}&include=deal`,
		);
		expect(ids(refs)).toEqual([sb.data.ids.dealExternalReference]);
		expect(refs.json.included.map((r: { id: string }) => r.id)).toEqual([sb.data.ids.dealWithNotes]);
		const byDealName = await api.get(`/jsonapi/deal-external-references?filter=${encodeURIComponent("equals(deal.name,'Nguyen, Thi & Andrew')")}`);
		expect(ids(byDealName)).toEqual([sb.data.ids.dealExternalReference]);
	});

	it('supports has() with and without a nested filter, and count()', async () => {
		const withNotes = await all(f('has(dealNotes)'));
		expect(withNotes).toContain(sb.data.ids.dealWithNotes);
		expect(withNotes).not.toContain(sb.data.ids.dealWithoutNotes);
		expect(await all(f("has(dealNotes,equals(title,'Initial call'))"))).toContain(sb.data.ids.dealWithNotes);
		const threeNotes = await all(f("greaterOrEqual(count(dealNotes),'3')"));
		expect(threeNotes).toContain(sb.data.ids.dealWithNotes);
		expect(await all(f('not(has(dealNotes))'))).toEqual(expected((d) => !withNotes.includes(d.id)));
	});

	it('compares timestamps as instants, with date-only literals on timestamps', async () => {
		const since = Date.parse('2026-11-01T00:00:00Z');
		const recent = await all(f("greaterOrEqual(updated,'2026-11-01')"));
		expect(recent.length).toBeGreaterThan(0);
		expect(recent).toEqual(expected((d) => Date.parse(d.attributes.updated) >= since));
		const offset = await all(f("greaterOrEqual(updated,'2026-11-01T10:00:00+10:00')"));
		expect(offset).toEqual(recent);
		const millis = deals.find((d) => /\.\d{3}Z$/.test(d.attributes.updated)) as StoredResource<import('../../sandbox').DealAttributes>;
		expect(await all(f(`equals(updated,'${millis.attributes.updated}')`))).toContain(millis.id);
		expect(await all(f(`lessThan(created,updated)`))).toEqual(expected((d) => Date.parse(d.attributes.created) < Date.parse(d.attributes.updated)));
	});

	it('compares numbers numerically and booleans and dates by type', async () => {
		expect(await all(f("lessThan(totalLoanAmount,'100000')"))).toEqual(
			expected((d) => d.attributes.totalLoanAmount !== null && d.attributes.totalLoanAmount < 100_000),
		);
		const contacts = sb.data.list('contacts');
		const consenting = await api.get(`/jsonapi/contacts?filter=${encodeURIComponent("equals(hasMarketingConsent,'true')")}`);
		expect(ids(consenting)).toEqual(contacts.filter((c) => c.attributes.hasMarketingConsent === true).map((c) => c.id));
		const older = await api.get(`/jsonapi/contacts?filter=${encodeURIComponent("lessThan(dateOfBirth,'1970-01-01')")}`);
		expect(ids(older)).toEqual(contacts.filter((c) => (c.attributes.dateOfBirth ?? '9999') < '1970-01-01').map((c) => c.id));
	});

	it('compares text case-insensitively and enums by value', async () => {
		expect(await all(f("contains(name,'nguyen')"))).toEqual(expected((d) => (d.attributes.name ?? '').toLowerCase().includes('nguyen')));
		expect(await all(f("startsWith(name,'O''c')"))).toContain(sb.data.ids.dealWithApostrophe);
		expect(await all(f("equals(dealStatus,'settled')"))).toEqual(expected((d) => d.attributes.dealStatus === 'Settled'));
	});

	it('OR-s repeated filter parameters', async () => {
		const reply = await api.get("/jsonapi/deals?filter=equals(id,'10002')&filter=equals(id,'10005')");
		expect(ids(reply)).toEqual(['10002', '10005']);
		expect(sb.requests[sb.requests.length - 1].query.filter).toBe("equals(id,'10002')\nequals(id,'10005')");
	});

	it('answers 400 with source.parameter filter and the position for bad filters', async () => {
		const unknown = await api.get("/jsonapi/deals?filter=equals(nope,'1')");
		expect(unknown.status).toBe(400);
		expect(firstError(unknown)).toMatchObject({
			status: '400',
			title: 'The specified filter is invalid.',
			source: { parameter: 'filter' },
			detail: "Field 'nope' does not exist on resource type 'deals'. Failed at position 8: equals(^nope,'1')",
		});
		const spaced = await api.get("/jsonapi/deals?filter=equals(name,+'x')");
		expect(spaced.status).toBe(400);
		expect(firstError(spaced).detail).toMatch(/^Unexpected whitespace\. Failed at position 13: /);
		const syntax = await api.get('/jsonapi/deals?filter=equals(name');
		expect(firstError(syntax).detail).toMatch(/, expected\. Failed at position 12: equals\(name\^$/);
		const textOnNumber = await api.get("/jsonapi/deals?filter=contains(totalLoanAmount,'1')");
		expect(textOnNumber.status).toBe(400);
	});
});
