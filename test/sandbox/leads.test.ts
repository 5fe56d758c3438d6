/**
 * POST /jsonapi/leads and POST /jsonapi/deal-notes as the sandbox serves them from the service's
 * public API description (swagger `Lead_Post`, `DealNote_Post`, the Leads Postman collection), not
 * from the seed.
 */
import { startSandbox } from '../../sandbox';
import type { Sandbox } from '../../sandbox';
import { Api, firstError, ids, withSmallSandbox } from './testkit';

const leadDocument = (attributes: Record<string, unknown>) => ({ data: { type: 'leads', attributes } });

/** The Postman collection's "Add Lead" body. */
const POSTMAN_LEAD = {
	title: 'Mr',
	firstName: 'Fred',
	preferredName: null,
	lastName: 'Flintstone',
	email: 'fred@bedrock.com',
	mobile: '0412345678',
	dateOfBirth: '2000-07-29',
	gender: 'Male',
	hasMarketingConsent: true,
	isGuarantor: false,
	isDependant: false,
	isPrimary: true,
	streetAddress: '111 Eagle St',
	suburb: 'Brisbane',
	state: 'Queensland',
	postCode: '4000',
	country: 'Australia',
	addressType: 'Current',
	noteTitle: 'About the lead',
	noteDetails: 'This is why it happened',
	utmSource: 'facebook',
	utmMedium: 'social',
	utmCampaign: 'mycrm-fb',
	utmTerm: 'investment',
	utmContent: 'lm',
	sourceSystemUrl: 'https://www.loanmarket.com.au/brokers/direct/our-team/michael-atherton',
	externalReference: 'WEB-0001',
	externalIntegration: 'MyIntegrationSource',
};

describe('sandbox: POST /jsonapi/leads (public API description)', () => {
	let sb: Sandbox;
	let api: Api;

	withSmallSandbox((started) => ({ sb, api } = started));

	it("creates the Postman lead: 201 + Location, only dealStatus and customStatusName returned, the lead's id is a new NewLeads deal of the UserId adviser", async () => {
		const dealsBefore = sb.data.count('deals');
		const contactsBefore = sb.data.count('contacts');
		const other = sb.data.ids.adviserContactIds.find((id) => id !== sb.userId) as string;
		const reply = await api.post('/jsonapi/leads', leadDocument(POSTMAN_LEAD), { userId: other });
		expect(reply.status).toBe(201);
		const id = reply.json.data.id as string;
		expect(reply.headers.get('location')).toBe(`${sb.baseUrl}/jsonapi/leads/${id}`);
		expect(reply.json.data.type).toBe('leads');
		expect(Object.keys(reply.json.data.attributes).sort()).toEqual(['customStatusName', 'dealStatus']);
		expect(reply.json.data.attributes).toEqual({ customStatusName: null, dealStatus: 'NewLeads' });
		expect(sb.data.count('deals')).toBe(dealsBefore + 1);
		expect(sb.data.count('contacts')).toBe(contactsBefore + 1);
		const deal = await api.get(`/jsonapi/deals?filter=${encodeURIComponent(`equals(id,'${id}')`)}`);
		expect(ids(deal)).toEqual([id]);
		expect(deal.json.data[0].attributes).toMatchObject({ dealStatus: 'NewLeads', name: 'Flintstone, Fred' });
		const mine = await api.post('/jsonapi/leads', leadDocument({ email: 'mine@x.co' }));
		expect(sb.data.get('deals', mine.json.data.id)?.relationships.adviser).toEqual({ type: 'advisers', id: sb.data.ids.adviser });
		const theirs = sb.data.get('deals', id)?.relationships.adviser as { id: string } | null;
		expect(theirs?.id).toMatch(/^\d+$/);
		expect(theirs?.id).not.toBe(sb.data.ids.adviser);
		// GET /leads/{id} reads the same lead; the note and the external reference came with it.
		const lead = await api.get(`/jsonapi/leads/${id}`);
		expect(lead.json.data).toMatchObject({ id, type: 'leads', attributes: { dealStatus: 'NewLeads' } });
		const notes = await api.get(`/jsonapi/deals/${id}/dealNotes`);
		expect(notes.json.data.map((note: { attributes: unknown }) => note.attributes)).toMatchObject([{ title: 'About the lead', detail: 'This is why it happened' }]);
		const filter = "and(equals(integration.name,'MyIntegrationSource'),equals(externalReference,'WEB-0001'))";
		const refs = await api.get(`/jsonapi/deal-external-references?filter=${encodeURIComponent(filter)}&include=deal`);
		expect(refs.json.data).toHaveLength(1);
		expect(refs.json.data[0].relationships.deal.data).toEqual({ type: 'deals', id });
		expect(refs.json.included.map((resource: { type: string; id: string }) => `${resource.type} ${resource.id}`)).toEqual([`deals ${id}`]);
	});

	it('matches the contact per contactMatchExisting: Email by e-mail alone (any case), EmailMobile also by mobile; the default is Email', async () => {
		const existing = sb.data.createContact({ firstName: 'Wilma', lastName: 'Flintstone', email: 'wilma@bedrock.com', mobile: '+61400000001' });
		const contacts = sb.data.count('contacts');
		const byEmail = await api.post('/jsonapi/leads', leadDocument({ firstName: 'W', lastName: 'F', email: 'WILMA@bedrock.com', contactMatchExisting: 'Email' }));
		expect(byEmail.status).toBe(201);
		expect(sb.data.count('contacts')).toBe(contacts);
		const byDefault = await api.post('/jsonapi/leads', leadDocument({ email: 'wilma@bedrock.com' }));
		expect(byDefault.status).toBe(201);
		expect(sb.data.count('contacts')).toBe(contacts);
		const mobileDiffers = await api.post('/jsonapi/leads', leadDocument({ email: 'wilma@bedrock.com', mobile: '+61400000002', contactMatchExisting: 'EmailMobile' }));
		expect(mobileDiffers.status).toBe(201);
		expect(sb.data.count('contacts')).toBe(contacts + 1);
		const mobileSame = await api.post('/jsonapi/leads', leadDocument({ email: 'wilma@bedrock.com', mobile: '+61400000001', contactMatchExisting: 'EmailMobileName', firstName: 'wilma', lastName: 'FLINTSTONE' }));
		expect(mobileSame.status).toBe(201);
		expect(sb.data.count('contacts')).toBe(contacts + 1);
		const nameDiffers = await api.post('/jsonapi/leads', leadDocument({ email: 'wilma@bedrock.com', firstName: 'Pebbles', lastName: 'Flintstone', contactMatchExisting: 'EmailName' }));
		expect(nameDiffers.status).toBe(201);
		expect(sb.data.count('contacts')).toBe(contacts + 2);
		expect(existing.id).toBeDefined();
	});

	it('an unknown integration: 422 at externalIntegration unless externalIntegrationAllowCreate, then created; nothing written on the 422', async () => {
		const deals = sb.data.count('deals');
		const refused = await api.post('/jsonapi/leads', leadDocument({ email: 'a@b.co', externalReference: 'X-1', externalIntegration: 'Brand New Form' }));
		expect(refused.status).toBe(422);
		expect(firstError(refused).source?.pointer).toBe('/data/attributes/externalIntegration');
		expect(firstError(refused).detail).toContain("Integration 'Brand New Form' does not exist");
		expect(sb.data.count('deals')).toBe(deals);
		const integrations = sb.data.count('integrations');
		const allowed = await api.post('/jsonapi/leads', leadDocument({ email: 'a@b.co', externalReference: 'X-1', externalIntegration: 'Brand New Form', externalIntegrationAllowCreate: true }));
		expect(allowed.status).toBe(201);
		expect(sb.data.count('integrations')).toBe(integrations + 1);
		const named = await api.get(`/jsonapi/integrations?filter=${encodeURIComponent("equals(name,'Brand New Form')")}`);
		expect(named.json.data).toHaveLength(1);
		const withoutIntegration = await api.post('/jsonapi/leads', leadDocument({ email: 'a@b.co', externalReference: 'X-2' }));
		expect(withoutIntegration.status).toBe(422);
		expect(firstError(withoutIntegration).source?.pointer).toBe('/data/attributes/externalIntegration');
	});

	it('wrong enum values and over-long fields: 422 with source.pointer, as JsonApiDotNetCore answers', async () => {
		const cases: Array<[Record<string, unknown>, string]> = [
			[{ title: 'Sir' }, '/data/attributes/title'],
			[{ gender: 'male ' }, '/data/attributes/gender'],
			[{ maritalStatus: 'Engaged' }, '/data/attributes/maritalStatus'],
			[{ addressType: 'Home' }, '/data/attributes/addressType'],
			[{ contactMatchExisting: 'Mobile' }, '/data/attributes/contactMatchExisting'],
			[{ externalReference: 'x'.repeat(256), externalIntegration: 'MyIntegrationSource' }, '/data/attributes/externalReference'],
			[{ externalIntegration: 'x'.repeat(101) }, '/data/attributes/externalIntegration'],
			[{ hasMarketingConsent: 'yes' }, '/data/attributes/hasMarketingConsent'],
		];
		const deals = sb.data.count('deals');
		for (const [attributes, pointer] of cases) {
			const reply = await api.post('/jsonapi/leads', leadDocument({ email: 'e@x.co', ...attributes }));
			expect([reply.status, firstError(reply).source?.pointer]).toEqual([422, pointer]);
		}
		expect(sb.data.count('deals')).toBe(deals);
		const relationship = await api.post('/jsonapi/leads', { data: { type: 'leads', attributes: {}, relationships: { deal: { data: { type: 'deals', id: '1' } } } } });
		expect(relationship.status).toBe(422);
	});

	it('needs api.leads (or api.leads.create); a token for other scopes is refused with 403', async () => {
		const leadsOnly = await Api.connect(sb, 'api.leads');
		expect((await leadsOnly.post('/jsonapi/leads', leadDocument({ email: 'l@x.co' }))).status).toBe(201);
		const readOnly = await Api.connect(sb, 'api.read');
		expect((await readOnly.post('/jsonapi/leads', leadDocument({ email: 'l@x.co' }))).status).toBe(403);
	});

	it('a lead is a new deal to a reader of recently created deals (what the Deals Trigger polls)', async () => {
		const reply = await api.post('/jsonapi/leads', leadDocument({ email: 'n@x.co', firstName: 'New', lastName: 'Lead' }));
		const newest = await api.get('/jsonapi/deals?sort=-id&page[size]=1');
		expect(ids(newest)).toEqual([reply.json.data.id]);
		expect(newest.json.data[0].attributes.created).toBe(newest.json.data[0].attributes.updated);
	});
});

describe('sandbox: POST /jsonapi/deal-notes limits', () => {
	let sb: Sandbox;
	let api: Api;

	beforeAll(async () => {
		sb = await startSandbox({ sizes: { deals: 10, contacts: 5, incomes: 5, dealSecurities: 5 } });
		api = await Api.connect(sb);
	});
	afterAll(() => sb.close());

	it('title at most 2000 characters (422 at /data/attributes/title); writtenBy is read-only', async () => {
		const deal = { deal: { data: { type: 'deals', id: sb.data.ids.dealWithoutNotes } } };
		const long = await api.post('/jsonapi/deal-notes', { data: { type: 'deal-notes', attributes: { title: 'x'.repeat(2001) }, relationships: deal } });
		expect([long.status, firstError(long).source?.pointer]).toEqual([422, '/data/attributes/title']);
		const exact = await api.post('/jsonapi/deal-notes', { data: { type: 'deal-notes', attributes: { title: 'x'.repeat(2000) }, relationships: deal } });
		expect(exact.status).toBe(201);
		const writtenBy = await api.post('/jsonapi/deal-notes', { data: { type: 'deal-notes', attributes: { title: 't', writtenBy: 'me' }, relationships: deal } });
		expect([writtenBy.status, firstError(writtenBy).source?.pointer]).toEqual([422, '/data/attributes/writtenBy']);
	});
});
