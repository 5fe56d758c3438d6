/**
 * Custom Request (every action node: Resource "Custom Request", Operation "Send"), run in n8n-core's
 * engine against the sandbox: the requests the service received and the items n8n produced, for a
 * collection (Limit, Return All), a single resource, the three writes, failures that must not be
 * repeated, a renewed token, bad input (nothing sent), and n8n's own "Custom API Call" entry saved
 * in a workflow.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { LoggedRequest } from '../../sandbox';
import { decodedQuery, expectJsonApiHeaders, jsonOf, useSandbox } from './helpers';

const env = useSandbox();
const ids = () => env.sandbox.data.ids;

afterEach(() => env.sandbox.data.reset());

function custom(parameters: INodeParameters): INodeParameters {
	return { resource: 'customRequest', operation: 'send', ...parameters };
}

function query(parameters: Record<string, string>): INodeParameters {
	return { parameters: Object.entries(parameters).map(([name, value]) => ({ name, value })) };
}

function noteDocument(title: string, deal: string): IDataObject {
	return { data: { type: 'deal-notes', attributes: { title, detail: 'from a Custom Request' }, relationships: { deal: { data: { type: 'deals', id: deal } } } } };
}

function described(request: LoggedRequest): string {
	return `${request.method} ${request.path}${request.rawQuery === '' ? '' : `?${decodedQuery(request.rawQuery)}`} ${request.status}`;
}


describe('Custom Request: reads', () => {
	it('a collection with Limit: the first page as the service pages it, then page numbers of that size', async () => {
		const result = await env.run('loanCrmDeals', custom({ method: 'GET', path: '/deals', queryParameters: query({ sort: '-id', 'fields[deals]': 'name,dealStatus' }), limit: 130 }));
		expect(result.error).toBeUndefined();
		expect(env.sandbox.apiRequests().map(described)).toEqual([
			'GET /jsonapi/deals?sort=-id&fields[deals]=name,dealStatus 200',
			'GET /jsonapi/deals?sort=-id&fields[deals]=name,dealStatus&page[size]=100&page[number]=2 200',
		]);
		for (const request of env.sandbox.apiRequests()) expectJsonApiHeaders(env.sandbox.userId, request, false);
		const items = jsonOf(result);
		const expectedIds = env.sandbox.data.idsOf('deals').map(Number).sort((a, b) => b - a).slice(0, 130).map(String);
		expect(items.map((item) => item.id)).toEqual(expectedIds);
		expect(Object.keys(items[0]).sort()).toEqual(['dealStatus', 'id', 'name', 'type']);
		expect(result.items.map((item) => item.pairedItem)).toEqual(items.map(() => ({ item: 0 })));
	});

	it('Return All reads every record the filter matches; a small collection is one request', async () => {
		const settled = env.sandbox.data.list('deals').filter((deal) => deal.attributes.dealStatus === 'Settled').map((deal) => deal.id);
		expect(settled.length).toBeGreaterThan(0);
		const result = await env.run('loanCrmDeals', custom({ method: 'GET', path: 'deals', queryParameters: query({ filter: "equals(dealStatus,'Settled')" }), returnAll: true }));
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((item) => item.id)).toEqual(settled);
		expect(env.sandbox.apiRequests()).toHaveLength(Math.ceil(settled.length / 100) + (settled.length % 100 === 0 ? 1 : 0));

		env.sandbox.clearLog();
		const integrations = await env.run('loanCrmContacts', custom({ method: 'GET', path: '/jsonapi/integrations', returnAll: true }));
		expect(env.sandbox.apiRequests().map(described)).toEqual(['GET /jsonapi/integrations 200']);
		expect(jsonOf(integrations).map((item) => [item.id, item.name])).toEqual([
			['11', 'MyIntegrationSource'],
			['12', 'Salesforce'],
			['13', 'HubSpot CRM'],
			['14', 'Broker Portal'],
		]);
	});

	it("Simplify (version 1.1): deals as Deal → Get Many's summary rows, other types whole; version 1 flattens every field", async () => {
		const settled = "equals(dealStatus,'Settled')";
		const customRows = jsonOf(await env.run('loanCrmDeals', custom({ method: 'GET', path: '/deals', queryParameters: query({ filter: settled }), limit: 5 })));
		const typedRows = jsonOf(await env.run('loanCrmDeals', { resource: 'deal', operation: 'getMany', limit: 5, options: { filter: settled } }));
		expect(customRows).toHaveLength(5);
		expect(customRows).toEqual(typedRows);
		expect(Object.keys(customRows[0])).toEqual(Object.keys(typedRows[0]));
		expect(customRows[0]).not.toHaveProperty('dates');

		const version1 = jsonOf(await env.run('loanCrmDeals', custom({ method: 'GET', path: '/deals', queryParameters: query({ filter: settled }), limit: 5 }), { typeVersion: 1 }));
		expect(version1.map((item) => item.id)).toEqual(customRows.map((item) => item.id));
		expect(version1[0]).toEqual(expect.objectContaining({ type: 'deals', dates: expect.any(Object), opportunity: expect.any(Object) }));

		const contacts = jsonOf(await env.run('loanCrmContacts', custom({ method: 'GET', path: '/contacts', limit: 2 })));
		const contactsV1 = jsonOf(await env.run('loanCrmContacts', custom({ method: 'GET', path: '/contacts', limit: 2 }), { typeVersion: 1 }));
		expect(contacts).toEqual(contactsV1);
		expect(contacts[0]).toEqual(expect.objectContaining({ type: 'contacts', firstName: expect.anything() }));
	});

	it('a single resource: one item, flattened with its included relationships; raw with Simplify off', async () => {
		const lead = ids().lead;
		const simplified = await env.run('loanCrmLeadsAndTasks', custom({ method: 'GET', path: `/leads/${lead}` }));
		expect(simplified.error).toBeUndefined();
		expect(env.sandbox.apiRequests().map(described)).toEqual([`GET /jsonapi/leads/${lead} 200`]);
		expect(jsonOf(simplified)).toEqual([expect.objectContaining({ id: lead, type: 'leads' })]);
		expect(jsonOf(simplified)[0].attributes).toBeUndefined();

		const raw = await env.run('loanCrmLeadsAndTasks', custom({ method: 'GET', path: `/leads/${lead}`, simplify: false }));
		expect(jsonOf(raw)).toEqual([expect.objectContaining({ id: lead, type: 'leads', attributes: expect.any(Object) })]);
	});

	it("a 404 or 400 carries the service's detail; nothing is repeated", async () => {
		const missing = await env.run('loanCrmLeadsAndTasks', custom({ method: 'GET', path: '/leads/999999' }));
		// One wording for a missing record, whichever way it was asked for; the service's words in the description.
		expect(missing.error?.message).toBe('Loan CRM has no lead with ID 999999');
		expect(missing.error?.description).toContain("Resource of type 'leads' with ID '999999' does not exist.");
		env.sandbox.clearLog();
		const badFilter = await env.run('loanCrmDeals', custom({ method: 'GET', path: '/deals', queryParameters: query({ filter: 'equals(nope' }) }));
		expect(badFilter.error?.message).toMatch(/^Loan CRM rejected the request \(400\): query parameter "filter": The specified filter is invalid\./);
		expect(env.sandbox.apiRequests()).toHaveLength(1);
	});
});

describe('Custom Request: writes', () => {
	it('POST: the JSON:API document as given, once; the created record as the item', async () => {
		const deal = ids().dealWithoutNotes;
		const body = noteDocument('Call back', deal);
		const result = await env.run('loanCrmDeals', custom({ method: 'POST', path: '/deal-notes', jsonBody: JSON.stringify(body) }));
		expect(result.error).toBeUndefined();
		const [request] = env.sandbox.apiRequests();
		expect(env.sandbox.apiRequests().map(described)).toEqual(['POST /jsonapi/deal-notes 201']);
		expectJsonApiHeaders(env.sandbox.userId, request, true);
		expect(request.json).toEqual(body);
		const [item] = jsonOf(result);
		expect(item).toEqual(expect.objectContaining({ type: 'deal-notes', title: 'Call back', detail: 'from a Custom Request' }));
		const stored = env.sandbox.data.get('deal-notes', String(item.id));
		expect([stored?.attributes.title, stored?.relationships.deal]).toEqual(['Call back', { type: 'deals', id: deal }]);
	});

	it('PATCH: the body as given (an expression may give an object); DELETE: 204 becomes one item saying what happened', async () => {
		const note = ids().dealNote;
		const patch = await env.run('loanCrmDeals', custom({ method: 'PATCH', path: `/deal-notes/${note}`, jsonBody: { data: { type: 'deal-notes', id: note, attributes: { title: 'Renamed' } } } }));
		expect(patch.error).toBeUndefined();
		expect(jsonOf(patch)).toEqual([expect.objectContaining({ id: note, type: 'deal-notes', title: 'Renamed' })]);
		expect(env.sandbox.apiRequests()[0].json).toEqual({ data: { type: 'deal-notes', id: note, attributes: { title: 'Renamed' } } });

		env.sandbox.clearLog();
		const removed = await env.run('loanCrmDeals', custom({ method: 'DELETE', path: `/deal-notes/${note}` }));
		expect(removed.error).toBeUndefined();
		expect(env.sandbox.apiRequests().map(described)).toEqual([`DELETE /jsonapi/deal-notes/${note} 204`]);
		expectJsonApiHeaders(env.sandbox.userId, env.sandbox.apiRequests()[0], false);
		expect(jsonOf(removed)).toEqual([{ method: 'DELETE', path: `/jsonapi/deal-notes/${note}`, status: 204 }]);
		expect(env.sandbox.data.get('deal-notes', note)).toBeUndefined();
	});

	it('a POST answered 500 or 503 is sent once, never repeated, and asks for no token', async () => {
		const body = JSON.stringify(noteDocument('Fails', ids().dealWithNotes));
		env.sandbox.injectFault({ method: 'POST', path: '/jsonapi/deal-notes' }, { status: 500 }, 1);
		const serverError = await env.run('loanCrmDeals', custom({ method: 'POST', path: '/deal-notes', jsonBody: body }));
		expect(serverError.error?.message).toMatch(/^Loan CRM failed to process POST \/jsonapi\/deal-notes \(500\)/);
		env.sandbox.injectFault({ method: 'POST', path: '/jsonapi/deal-notes' }, { status: 503 }, 1);
		const unavailable = await env.run('loanCrmDeals', custom({ method: 'POST', path: '/deal-notes', jsonBody: body }));
		expect(unavailable.error?.description).toMatch(/was not repeated automatically/);
		expect(env.sandbox.apiRequests().map(described)).toEqual(['POST /jsonapi/deal-notes 500', 'POST /jsonapi/deal-notes 503']);
		expect(env.sandbox.tokenRequests()).toHaveLength(0);
	});

	it('a POST whose token expired: 401, one new token, the POST repeated once, one record; no check of the token', async () => {
		const deal = ids().dealWithoutNotes;
		await env.run('loanCrmDeals', custom({ method: 'GET', path: '/integrations' }));
		env.sandbox.clearLog();
		env.sandbox.expireAllTokens();
		const result = await env.run('loanCrmDeals', custom({ method: 'POST', path: '/deal-notes', jsonBody: JSON.stringify(noteDocument('After expiry', deal)) }));
		expect(result.error).toBeUndefined();
		expect(env.sandbox.requests.map((request) => (request.kind === 'token' ? 'token' : described(request)))).toEqual([
			'POST /jsonapi/deal-notes 401',
			'token',
			'POST /jsonapi/deal-notes 201',
		]);
		expect(env.sandbox.data.list('deal-notes').filter((note) => note.attributes.title === 'After expiry')).toHaveLength(1);
	});
});

describe('Custom Request: input checked before anything is sent', () => {
	it.each([
		['a host', { path: 'https://elsewhere.example/jsonapi/deals' }, /^Parameter "Path" must be a path below \/jsonapi/],
		['a protocol-relative host', { path: '//elsewhere.example/deals' }, /^Parameter "Path" must be a path below/],
		['..', { path: '/deals/../oauth2/token' }, /^Parameter "Path" must be a path below/],
		['an escaped ..', { path: '/deals/%2e%2e/x' }, /^Parameter "Path" must be a path below/],
		['a query in the path', { path: '/deals?page[size]=1' }, /put query parameters under Query Parameters/],
		['an empty path', { path: ' ' }, /^Parameter "Path" must be a path below/],
		['page[number]', { path: '/deals', queryParameters: query({ 'page[number]': '2' }) }, /^Parameter "Query Parameters" cannot set page\[number\]: the node pages by itself/],
		['a body that is not JSON', { method: 'POST', path: '/deal-notes', jsonBody: '{"data": ' }, /^Parameter "JSON Body" is not valid JSON/],
		['a body without data', { method: 'POST', path: '/deal-notes', jsonBody: '{"type": "deal-notes"}' }, /^Parameter "JSON Body" must be a JSON:API document with "data"/],
		['the untouched template (no type)', { method: 'POST', path: '/deal-notes', jsonBody: '{"data": {"type": "", "attributes": {}}}' }, /^Parameter "JSON Body" needs "type"/],
		['a numeric id', { method: 'PATCH', path: '/deal-notes/3000001', jsonBody: '{"data": {"type": "deal-notes", "id": 3000001}}' }, /^Parameter "JSON Body" has "id": "3000001"; IDs are strings/],
		['a PATCH of another record', { method: 'PATCH', path: '/deal-notes/3000001', jsonBody: '{"data": {"type": "deal-notes", "id": "3000002"}}' }, /"data\.id" is "3000002" but the Path ends in "3000001"/],
		['an unknown method', { method: 'PUT', path: '/deals' }, /^Parameter "Method" must be one of DELETE, GET, PATCH, POST/],
	])('%s', async (_label, parameters, message) => {
		const result = await env.run('loanCrmDeals', custom(parameters as INodeParameters));
		expect(result.error?.message).toMatch(message);
		expect(env.sandbox.requests).toHaveLength(0);
	});

	it('with Continue On Fail every item gets its own answer, in item order', async () => {
		const result = await env.run('loanCrmDeals', custom({ method: 'GET', path: '={{ $json.path }}' }), {
			input: [{ path: '/integrations' }, { path: '../secret' }, { path: `/leads/${ids().lead}` }],
			continueOnFail: true,
		});
		expect(result.items.map((item) => item.pairedItem)).toEqual([0, 0, 0, 0, 1, 2].map((item) => ({ item })));
		expect(result.items[4].json.error).toMatch(/^Parameter "Path" must be a path below/);
		expect(env.sandbox.apiRequests().map((request) => request.path).sort()).toEqual(['/jsonapi/integrations', `/jsonapi/leads/${ids().lead}`]);
	});
});

describe("n8n's Custom API Call entry", () => {
	it.each([
		['Resource', { resource: '__CUSTOM_API_CALL__', operation: '__CUSTOM_API_CALL__' }],
		['Operation', { resource: 'deal', operation: '__CUSTOM_API_CALL__' }],
	])('saved as the %s: a message pointing to the HTTP Request node and Custom Request; nothing sent', async (_where, parameters) => {
		const result = await env.run('loanCrmDeals', parameters);
		expect(result.error?.message).toBe("Custom API Call runs in n8n's HTTP Request node, not in this node");
		expect(result.error?.description).toMatch(/Predefined Credential Type.*Loan CRM OAuth2 API.*Custom Request/);
		expect(env.sandbox.requests).toHaveLength(0);
	});
});
