/**
 * The endpoints the sandbox serves from the service's public API description (outside the 20
 * operations of the seed), for the README's Custom API Call / Custom Request examples, and the
 * token lifetime changed at run time.
 */
import { PUBLIC_DESCRIPTION_ENDPOINTS } from '../../sandbox';
import type { Sandbox } from '../../sandbox';
import { Api, firstError, ids, requestToken, withSmallSandbox } from './testkit';

describe('sandbox: endpoints from the public API description', () => {
	let sb: Sandbox;
	let api: Api;

	withSmallSandbox((started) => ({ sb, api } = started));

	it('lists exactly GET /integrations, POST /deal-notes, POST /leads, the brokerage lists, and a fact find with its records and type lists, each with its scope', () => {
		expect(PUBLIC_DESCRIPTION_ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.path} ${endpoint.scope}`)).toEqual([
			'GET /integrations api.integrations.search',
			'POST /deal-notes api.deal-notes.create',
			'POST /leads api.leads.create',
			'GET /advisers api.advisers.search',
			'GET /advisers/{id} api.advisers.read',
			'GET /adviser-details api.adviser-details.search',
			'GET /adviser-details/{id} api.adviser-details.read',
			'GET /enquiry-sources api.enquiry-sources.search',
			'GET /enquiry-sources/{id} api.enquiry-sources.read',
			'GET /referrers api.referrers.search',
			'GET /referrers/{id} api.referrers.read',
			'POST /structured-leads api.structured-leads.create',
			'GET /structured-leads/{id} api.structured-leads.read',
			'GET /deals/{id}/contacts api.deals.read',
			'GET /contacts/{id}/contactAddress api.contacts.read',
			'GET /incomes/{id} api.incomes.read',
			'GET /incomes/{id}/ownership api.incomes.read',
			'GET /assets api.assets.search',
			'GET /assets/{id} api.assets.read',
			'GET /assets/{id}/ownership api.assets.read',
			'GET /liabilities api.liabilities.search',
			'GET /liabilities/{id} api.liabilities.read',
			'GET /liabilities/{id}/ownership api.liabilities.read',
			'GET /expenses api.expenses.search',
			'GET /expenses/{id} api.expenses.read',
			'GET /expenses/{id}/ownership api.expenses.read',
			'GET /income-types api.income-types.search',
			'GET /income-types/{id} api.income-types.read',
			'GET /income-categories api.income-categories.search',
			'GET /income-categories/{id} api.income-categories.read',
			'GET /income-categories/{id}/incomeTypes api.income-categories.read',
			'GET /asset-types api.asset-types.search',
			'GET /asset-types/{id} api.asset-types.read',
			'GET /asset-sub-types api.asset-sub-types.search',
			'GET /asset-sub-types/{id} api.asset-sub-types.read',
			'GET /asset-categories api.asset-categories.search',
			'GET /asset-categories/{id} api.asset-categories.read',
			'GET /liability-types api.liability-types.search',
			'GET /liability-types/{id} api.liability-types.read',
			'GET /liability-types/{id}/liabilitySubTypes api.liability-types.read',
			'GET /liability-categories api.liability-categories.search',
			'GET /liability-categories/{id} api.liability-categories.read',
			'GET /liability-categories/{id}/liabilityTypes api.liability-categories.read',
			'GET /expense-types api.expense-types.search',
			'GET /expense-types/{id} api.expense-types.read',
			'GET /expense-categories api.expense-categories.search',
			'GET /expense-categories/{id} api.expense-categories.read',
			'GET /expense-categories/{id}/expenseTypes api.expense-categories.read',
			'GET /property-types api.property-types.search',
			'GET /property-types/{id} api.property-types.read',
		]);
	});

	it('GET /integrations lists the four integrations as a collection, filterable by name', async () => {
		const all = await api.get('/jsonapi/integrations');
		expect(all.status).toBe(200);
		expect(all.headers.get('content-type')).toBe('application/vnd.api+json');
		expect(ids(all)).toEqual(['11', '12', '13', '14']);
		expect(all.json.data[0]).toMatchObject({ type: 'integrations', id: '11', attributes: { name: 'MyIntegrationSource' } });
		const one = await api.get(`/jsonapi/integrations?filter=${encodeURIComponent("equals(name,'HubSpot CRM')")}`);
		expect(ids(one)).toEqual(['13']);
	});

	it('POST /deal-notes creates a note on the deal, written by the acting adviser: 201 with Location', async () => {
		const deal = sb.data.ids.dealWithoutNotes;
		const reply = await api.post('/jsonapi/deal-notes', {
			data: { type: 'deal-notes', attributes: { title: 'Call back', detail: 'Asked for a callback' }, relationships: { deal: { data: { type: 'deals', id: deal } } } },
		});
		expect(reply.status).toBe(201);
		const id = reply.json.data.id as string;
		expect(reply.headers.get('location')).toBe(`${sb.baseUrl}/jsonapi/deal-notes/${id}`);
		expect(reply.json.data.attributes).toMatchObject({ title: 'Call back', detail: 'Asked for a callback' });
		expect(typeof reply.json.data.attributes.writtenBy).toBe('string');
		const notes = await api.get(`/jsonapi/deals/${deal}/dealNotes`);
		expect(ids(notes)).toEqual([id]);
	});

	it('POST /deal-notes needs the deal, and the JSON:API media types like every endpoint', async () => {
		const withoutDeal = await api.post('/jsonapi/deal-notes', { data: { type: 'deal-notes', attributes: { title: 'x' } } });
		expect(withoutDeal.status).toBe(422);
		expect(firstError(withoutDeal).source?.pointer).toBe('/data/relationships/deal');
		const plainJson = await api.call('POST', '/jsonapi/deal-notes', {
			body: { data: { type: 'deal-notes', relationships: { deal: { data: { type: 'deals', id: sb.data.ids.dealWithNotes } } } } },
			headers: { 'content-type': 'application/json' },
		});
		expect(plainJson.status).toBe(415);
		const wrongAccept = await api.get('/jsonapi/integrations', { headers: { accept: 'application/json' } });
		expect(wrongAccept.status).toBe(406);
	});

	it('tokens issued after a change of tokenLifetimeSeconds carry the new expires_in; earlier ones keep theirs', async () => {
		const before = await requestToken(sb);
		sb.tokenLifetimeSeconds = 5;
		try {
			const after = await requestToken(sb);
			expect(before.json.expires_in).toBe(3600);
			expect(after.json.expires_in).toBe(5);
			expect(sb.tokenLifetimeSeconds).toBe(5);
		} finally {
			sb.tokenLifetimeSeconds = 3600;
		}
	});
});
