/**
 * A brokerage in the sandbox, as the service's public API description has it (not the seed): the
 * organisation's advisers (`advisers`: the adviser family, with its status; `adviser-details`: the
 * names, whose id is the AdviserContactId the UserId header takes), the enquiry sources and the
 * referrers a lead's source comes from, searchable with the service's filter syntax; a lead
 * allocated to the adviser of its request's UserId; a UserId outside the organisation refused
 * with 403; unknown source and referrer ids refused with 422 pointing at the attribute.
 */
import type { Sandbox } from '../../sandbox';
import { Api, firstError, ids, withSmallSandbox } from './testkit';

const leadDocument = (attributes: Record<string, unknown>) => ({ data: { type: 'leads', attributes } });
const filter = (expression: string) => `filter=${encodeURIComponent(expression)}`;

describe('sandbox: a brokerage (public API description)', () => {
	let sb: Sandbox;
	let api: Api;

	withSmallSandbox((started) => ({ sb, api } = started));

	it('adviser-details are the AdviserContactIds: names and e-mail, the adviser family and its status through `adviser`', async () => {
		const reply = await api.get(`/jsonapi/adviser-details?include=adviser&${encodeURIComponent('fields[adviser-details]')}=firstName,lastName,email,adviser&${encodeURIComponent('fields[advisers]')}=status&sort=-id`);
		expect(reply.status).toBe(200);
		expect(ids(reply)).toEqual([...sb.data.ids.adviserContactIds].reverse());
		expect(sb.data.ids.adviserContactIds).toContain(sb.userId);
		const sarah = reply.json.data.find((entry: { id: string }) => entry.id === sb.userId);
		expect(sarah).toMatchObject({
			type: 'adviser-details',
			attributes: { firstName: 'Sarah', lastName: 'Mitchell', email: 'sarah.mitchell@harbourcityloans.com.au' },
			relationships: { adviser: { data: { type: 'advisers', id: sb.data.ids.adviser } } },
		});
		const statuses = reply.json.included.map((adviser: { id: string; attributes: { status: string } }) => [adviser.id, adviser.attributes.status]);
		expect(statuses).toContainEqual([sb.data.ids.adviser, 'Active']);
		// More than one adviser, some inactive.
		expect(statuses.filter(([, status]: string[]) => status === 'Inactive').length).toBeGreaterThanOrEqual(2);
		expect(statuses.filter(([, status]: string[]) => status === 'Active').length).toBeGreaterThanOrEqual(3);
	});

	it('advisers carry e-mail and status, no name, and point back at their details; their ids are not the AdviserContactIds', async () => {
		const reply = await api.get('/jsonapi/advisers');
		const adviserIds = ids(reply);
		expect(adviserIds).toContain(sb.data.ids.adviser);
		for (const id of adviserIds) expect(sb.data.ids.adviserContactIds).not.toContain(id);
		const first = reply.json.data[0];
		expect(first.attributes).toEqual(expect.objectContaining({ email: expect.any(String), status: 'Active' }));
		expect(first.attributes).not.toHaveProperty('firstName');
		const details = await api.get(`/jsonapi/advisers/${sb.data.ids.adviser}?include=adviserDetails`);
		expect(details.json.included).toEqual([expect.objectContaining({ type: 'adviser-details', id: sb.userId })]);
	});

	it('lists are searched with the filter syntax: contains, or, and, equals on e-mail (case does not matter)', async () => {
		const byName = await api.get(`/jsonapi/adviser-details?${filter("or(contains(firstName,'aish'),contains(lastName,'aish'))")}`);
		expect(byName.json.data.map((entry: { attributes: { firstName: string } }) => entry.attributes.firstName)).toEqual(['Aisha']);
		const byEmail = await api.get(`/jsonapi/adviser-details?${filter("equals(email,'SARAH.MITCHELL@harbourcityloans.com.au')")}`);
		expect(ids(byEmail)).toEqual([sb.userId]);
		const sources = await api.get(`/jsonapi/enquiry-sources?${filter("and(equals(sourceCategoryName,'Online'),contains(sourceName,'form'))")}`);
		expect(sources.json.data).toEqual([
			expect.objectContaining({ type: 'enquiry-source', attributes: { sourceCategoryId: 2, sourceCategoryName: 'Online', sourceId: 21, sourceName: 'Website enquiry form' } }),
		]);
		const other = await api.get(`/jsonapi/enquiry-sources?${filter("equals(sourceName,'Other')")}`);
		expect(other.json.data.map((entry: { attributes: { sourceCategoryName: string } }) => entry.attributes.sourceCategoryName)).toEqual(['Self Generated', 'Marketing']);
		const referrers = await api.get(`/jsonapi/referrers?${filter("or(contains(referrerName,'cooper'),contains(referrerOrganisationName,'cooper'))")}`);
		expect(referrers.json.data.map((entry: { attributes: unknown }) => entry.attributes)).toEqual([
			{ referrerOrganisationName: 'Ray White Parramatta', referrerName: 'Jane Cooper' },
			{ referrerOrganisationName: 'Cooper Financial Planning', referrerName: 'Jane Cooper' },
		]);
	});

	it('a lead goes to the adviser of its UserId; an inactive adviser is accepted as the description says nothing else', async () => {
		const aisha = (await api.get(`/jsonapi/adviser-details?${filter("equals(firstName,'Aisha')")}&include=adviser`)).json.data[0];
		const created = await api.post('/jsonapi/leads', leadDocument({ email: 'routed@example.com' }), { userId: aisha.id });
		expect(created.status).toBe(201);
		expect(sb.data.get('deals', created.json.data.id)?.relationships.adviser).toEqual({ type: 'advisers', id: aisha.relationships.adviser.data.id });
		const grace = (await api.get(`/jsonapi/adviser-details?${filter("equals(firstName,'Grace')")}`)).json.data[0];
		expect((await api.post('/jsonapi/leads', leadDocument({ email: 'inactive@example.com' }), { userId: grace.id })).status).toBe(201);
	});

	it('a UserId outside the organisation (not one of its adviser contact ids, e.g. an adviser family id) is refused with 403', async () => {
		const deals = sb.data.count('deals');
		for (const userId of ['999999', sb.data.ids.adviser]) {
			const reply = await api.post('/jsonapi/leads', leadDocument({ email: 'nobody@example.com' }), { userId });
			expect(reply.status).toBe(403);
			expect(firstError(reply)).toMatchObject({ status: '403', source: { header: 'UserId' } });
		}
		expect(sb.data.count('deals')).toBe(deals);
	});

	it('the source and referrer ids of the lists are taken; unknown ones are refused with 422 pointing at the attribute, nothing written', async () => {
		const ok = await api.post('/jsonapi/leads', leadDocument({ email: 'sourced@example.com', sourceId: 21, sourceCategoryId: 2, sourceReferrerId: '301', sourceAdditionalDetails: 'Spring campaign' }));
		expect(ok.status).toBe(201);
		const deals = sb.data.count('deals');
		const refused = [
			[{ sourceId: 99, sourceCategoryId: 2 }, '/data/attributes/sourceId'],
			[{ sourceId: 21, sourceCategoryId: 3 }, '/data/attributes/sourceCategoryId'],
			[{ sourceCategoryId: 77 }, '/data/attributes/sourceCategoryId'],
			[{ sourceReferrerId: '999' }, '/data/attributes/sourceReferrerId'],
			[{ sourceReferrerId: 'abc' }, '/data/attributes/sourceReferrerId'],
			[{ sourceId: '21' }, '/data/attributes/sourceId'],
		] as const;
		for (const [attributes, pointer] of refused) {
			const reply = await api.post('/jsonapi/leads', leadDocument({ email: 'sourced@example.com', ...attributes }));
			expect([attributes, reply.status, firstError(reply).source?.pointer]).toEqual([attributes, 422, pointer]);
		}
		expect(sb.data.count('deals')).toBe(deals);
	});
});
