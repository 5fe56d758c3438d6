import {
	DEAL_TYPE,
	GENDER,
	SYSTEM_STATUS,
	Sandbox,
	TASK_PRIORITY,
	TASK_PROGRESS,
	startSandbox,
} from '../../sandbox';
import { TestClock } from '../../harness/clock';
import { Api, ids } from './testkit';

describe('sandbox data', () => {
	let sb: Sandbox;
	let api: Api;
	const clock = TestClock.at(Date.parse('2026-11-21T00:00:00Z'));

	beforeAll(async () => {
		// Tokens for a day of the clock: the tests move it by hours.
		sb = await startSandbox({ clock, tokenLifetimeSeconds: 86_400 });
		api = await Api.connect(sb);
	});
	afterAll(() => sb.close());
	afterEach(() => sb.data.reset());

	it('has the default sizes and data for every resource type of the seed', () => {
		expect(sb.data.count('deals')).toBe(250);
		expect(sb.data.count('contacts')).toBe(120);
		expect(sb.data.count('incomes')).toBe(150);
		expect(sb.data.count('deal-securities')).toBe(150);
		for (const type of [
			'deals', 'deal-structures', 'deal-securities', 'deal-external-references', 'integrations', 'deal-notes', 'custom-statuses',
			'contacts', 'contact-groups', 'contact-external-references', 'contact-categories', 'incomes', 'organisations',
			'organisation-addresses', 'assets', 'financial-address', 'leads', 'tasks', 'advisers',
		]) {
			expect([type, sb.data.count(type) > 0]).toEqual([type, true]);
		}
	});

	it('uses the enumerations of api-facts.md', () => {
		const deals = sb.data.list('deals');
		expect(new Set(deals.map((d) => d.attributes.dealStatus))).toEqual(new Set(SYSTEM_STATUS));
		expect(deals.every((d) => (DEAL_TYPE as readonly string[]).includes(d.attributes.dealType ?? ''))).toBe(true);
		const tasks = sb.data.list('tasks');
		expect(tasks.length).toBeGreaterThan(0);
		expect(sb.data.list('contacts').length).toBeGreaterThan(0);
		expect(tasks.every((t) => (TASK_PROGRESS as readonly string[]).includes(t.attributes.progress as string))).toBe(true);
		expect(tasks.every((t) => (TASK_PRIORITY as readonly string[]).includes(t.attributes.priority as string))).toBe(true);
		expect(tasks.every((t) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/.test(t.attributes.dueDate as string))).toBe(true);
		expect(sb.data.list('contacts').every((c) => (GENDER as readonly string[]).includes(c.attributes.gender ?? ''))).toBe(true);
	});

	it('gives deals consistent dates, opportunity and splits', () => {
		expect(sb.data.list('deals').length).toBeGreaterThan(0);
		for (const deal of sb.data.list('deals')) {
			const a = deal.attributes;
			expect(Object.keys(a.dates).sort()).toEqual(
				['approved', 'conditionallyApproved', 'estimatedSettled', 'financeClause', 'lodged', 'notProceeding', 'preApproved', 'preApprovedExpiry', 'settled'],
			);
			expect(Object.keys(a.opportunity).sort()).toEqual(['loanPurpose', 'proposedLoanAmount', 'securityAmount', 'summaryNotes']);
			const structures = deal.relationships.dealStructures as Array<{ id: string }>;
			expect(a.splits).toHaveLength(structures.length);
			if (structures.length) expect(a.splits.reduce((sum, s) => sum + (s.amount ?? 0), 0)).toBe(a.totalLoanAmount);
			if (a.dealStatus === 'Settled') expect(a.dates.settled).toMatch(/^\d{4}-\d{2}-\d{2}$/);
			expect(Date.parse(a.updated)).toBeGreaterThanOrEqual(Date.parse(a.created));
			expect(deal.attributes).not.toHaveProperty('auRationale');
		}
	});

	it('offers well-known fixtures', () => {
		const { ids: f } = sb.data;
		const withNotes = sb.data.get('deals', f.dealWithNotes);
		expect((withNotes?.relationships.dealNotes as unknown[]).length).toBe(3);
		expect(withNotes?.attributes.customStatusName).toBe('Awaiting valuation');
		expect(withNotes?.relationships.customStatus).toEqual({ type: 'custom-statuses', id: '22' });
		expect(sb.data.get('deals', f.dealWithoutCustomStatus)?.relationships.customStatus).toBeNull();
		expect(sb.data.get('deal-structures', f.dealStructure)?.relationships.deal).toEqual({ type: 'deals', id: f.dealWithNotes });
		expect(sb.data.get('deal-structures', f.lockedDealStructure)?.relationships.deal).toEqual({ type: 'deals', id: f.settledDeal });
		expect(sb.data.get('deal-notes', f.dealNote)?.relationships.deal).toEqual({ type: 'deals', id: f.dealWithNotes });
		expect(sb.data.get('deal-external-references', f.dealExternalReference)?.attributes.externalReference).toBe('ABC1234');
		expect(sb.data.get('contact-external-references', f.contactExternalReference)?.relationships.contact).toEqual({ type: 'contacts', id: f.contact });
		expect(sb.data.get('organisations', f.organisation)?.relationships.addresses).toHaveLength(2);
		expect(sb.data.get('organisations', f.organisationWithoutAddresses)?.relationships.addresses).toEqual([]);
		expect(sb.data.get('assets', f.asset)?.relationships.addresses).toHaveLength(1);
		expect(sb.data.get('assets', f.assetWithoutAddresses)?.relationships.addresses).toEqual([]);
		expect(sb.data.get('leads', f.lead)?.attributes).toEqual({ customStatusName: 'Awaiting valuation', dealStatus: 'InProgress' });
		expect(sb.data.get('tasks', f.task)?.relationships).toMatchObject({ residentialDeal: null, contactGroups: [{ type: 'contact-groups', id: f.contactGroup }] });
		expect(sb.data.get('integrations', f.integration)?.attributes.name).toBe('MyIntegrationSource');
		expect(sb.data.get('advisers', f.adviser)?.attributes).toMatchObject({ status: 'Active', email: 'sarah.mitchell@harbourcityloans.com.au' });
		expect(sb.data.get('advisers', f.adviser)?.relationships.adviserDetails).toEqual({ type: 'adviser-details', id: f.adviserContactId });
		expect(sb.data.get('adviser-details', f.adviserContactId)?.attributes).toMatchObject({ firstName: 'Sarah', lastName: 'Mitchell' });
		expect(sb.userId).toBe(f.adviserContactId);
		expect(f.adviserContactId).toBe('1001');
		for (const value of Object.values(f)) {
			for (const id of [value].flat()) expect(id).toMatch(/^\d+$/);
		}
	});

	it('is deterministic for a seed', async () => {
		const again = await startSandbox();
		try {
			expect(again.data.get('deals', 10137)).toEqual(sb.data.get('deals', 10137));
			expect(again.data.get('deal-structures', 2000100)).toEqual(sb.data.get('deal-structures', 2000100));
			expect(again.data.list('contacts')).toEqual(sb.data.list('contacts'));
		} finally {
			await again.close();
		}
	});

	it('creates and updates deals stamped with the sandbox clock', async () => {
		clock.set(Date.parse('2026-11-21T03:00:00Z'));
		const created = sb.data.createDeal({ name: 'Helper, Test', dealStatus: 'Lodged', customStatusId: 23 });
		expect(created.id).toBe('10251');
		expect(created.attributes).toMatchObject({ created: '2026-11-21T03:00:00Z', updated: '2026-11-21T03:00:00Z', dealStatus: 'Lodged', customStatusName: 'Client reviewing', splits: [] });
		clock.set(Date.parse('2026-11-21T03:00:05.250Z'));
		const updated = sb.data.updateDeal(created.id, { dealStatus: 'Settled', lenderName: 'ING' });
		expect(updated.attributes).toMatchObject({ created: '2026-11-21T03:00:00Z', updated: '2026-11-21T03:00:05.250Z', dealStatus: 'Settled', lenderName: 'ING' });
		clock.advance(1000);
		expect(sb.data.now().toISOString()).toBe('2026-11-21T03:00:06.250Z');
		const reply = await api.get(`/jsonapi/deals?filter=${encodeURIComponent("greaterThan(updated,'2026-11-21T03:00:05Z')")}&sort=-updated`);
		expect(ids(reply)).toEqual([created.id]);
		const explicit = sb.data.updateDeal(sb.data.ids.dealWithNotes, { updated: '2026-11-20T00:00:00Z', customStatusId: null });
		expect(explicit.attributes).toMatchObject({ updated: '2026-11-20T00:00:00Z', customStatusName: null });
		expect(() => sb.data.updateDeal(1, {})).toThrow();
	});

	it('creates and updates contacts stamped with the sandbox clock', async () => {
		clock.set(Date.parse('2026-11-21T04:00:00.5Z'));
		const contact = sb.data.createContact({ firstName: 'Test', lastName: 'Helper', contactGroupId: sb.data.ids.contactGroup });
		expect(contact.attributes).toMatchObject({ firstName: 'Test', created: '2026-11-21T04:00:00.500Z', updated: '2026-11-21T04:00:00.500Z', isPrimary: false });
		expect(contact.relationships.contactGroup).toEqual({ type: 'contact-groups', id: sb.data.ids.contactGroup });
		clock.set(Date.parse('2026-11-21T05:00:00Z'));
		const updated = sb.data.updateContact(contact.id, { email: 'test.helper@example.com' });
		expect(updated.attributes).toMatchObject({ email: 'test.helper@example.com', created: '2026-11-21T04:00:00.500Z', updated: '2026-11-21T05:00:00Z' });
		const reply = await api.get(`/jsonapi/contacts?filter=${encodeURIComponent("equals(email,'test.helper@example.com')")}`);
		expect(ids(reply)).toEqual([contact.id]);
		const group = sb.data.get('contact-groups', sb.data.ids.contactGroup);
		expect(group?.relationships.contacts).toContainEqual({ type: 'contacts', id: contact.id });
	});

	it('returns copies that do not change the store, and reset() undoes changes', () => {
		const deal = sb.data.get('deals', sb.data.ids.dealWithNotes);
		if (!deal) throw new Error('missing');
		deal.attributes.name = 'changed';
		expect(sb.data.get('deals', sb.data.ids.dealWithNotes)?.attributes.name).not.toBe('changed');
		sb.data.createDeal();
		sb.data.updateDeal(sb.data.ids.dealWithNotes, { name: 'Renamed' });
		sb.data.reset();
		expect(sb.data.count('deals')).toBe(250);
		expect(sb.data.get('deals', sb.data.ids.dealWithNotes)?.attributes.name).toBe('Nguyen, Thi & Andrew');
		expect(sb.data.get('deals', 99)).toBeUndefined();
		expect(sb.data.types()).toEqual(expect.arrayContaining(['deals', 'leads', 'financial-address']));
	});
});

// How fast it starts and serves a keyset page at this size (against 1,000 deals) is a ratio in
// `npm run bench` (section 8), not a bound here.
describe('sandbox at 100 000 deals', () => {
	let sb: Sandbox;
	let api: Api;

	beforeAll(async () => {
		sb = await startSandbox({ sizes: { deals: 100_000 } });
		api = await Api.connect(sb);
	});
	afterAll(() => sb.close());

	it('holds 100,000 deals', () => {
		expect(sb.data.count('deals')).toBe(100_000);
	});

	it('serves keyset pages from deep in the ids, and the last short page', async () => {
		let last = '60000';
		for (let i = 0; i < 20; i++) {
			const reply = await api.get(`/jsonapi/deals?sort=id&filter=greaterThan(id,'${last}')`);
			expect(reply.json.data).toHaveLength(100);
			expect(Number(reply.json.data[0].id)).toBe(Number(last) + 1);
			last = reply.json.data[99].id;
		}
		const tail = await api.get("/jsonapi/deals?sort=id&filter=greaterThan(id,'109950')");
		expect(tail.json.data).toHaveLength(50);
		expect(tail.json.data[49].id).toBe('110000');
	});

	it('serves deep page numbers and generic filters', async () => {
		const deep = await api.get('/jsonapi/deals?page[number]=1000');
		expect(ids(deep)[0]).toBe('109901');
		const recent = await api.get(`/jsonapi/deals?filter=${encodeURIComponent("greaterOrEqual(updated,'2026-11-14')")}&sort=-updated&page[size]=5`);
		expect(recent.status).toBe(200);
		expect(recent.json.data.length).toBeGreaterThan(0);
	});
});
