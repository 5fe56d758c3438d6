import { ENDPOINTS, SCOPE_TABLE, Sandbox, scopeSatisfied, startSandbox } from '../../sandbox';
import { Api, firstError, toReply } from './testkit';

describe('sandbox access control and content negotiation', () => {
	let sb: Sandbox;
	let api: Api;

	beforeAll(async () => {
		sb = await startSandbox({ sizes: { deals: 30, contacts: 20, incomes: 10, dealSecurities: 10 } });
		api = await Api.connect(sb);
	});
	afterAll(() => sb.close());

	describe('401', () => {
		it('answers 401 with no body when the bearer token is missing', async () => {
			const reply = await api.get('/jsonapi/deals', { token: null });
			expect(reply.status).toBe(401);
			expect(reply.text).toBe('');
			expect(reply.headers.get('www-authenticate')).toBe('Bearer');
		});

		it('answers 401 with no body for an unknown token or another scheme', async () => {
			const unknown = await api.get('/jsonapi/deals', { token: 'not-a-token' });
			expect(unknown.status).toBe(401);
			expect(unknown.text).toBe('');
			const basicScheme = await api.get('/jsonapi/deals', { token: null, headers: { authorization: 'Basic abc' } });
			expect(basicScheme.status).toBe(401);
			expect(basicScheme.text).toBe('');
		});
	});

	describe('scopes', () => {
		it('exports the required scope of each of the 20 endpoints', () => {
			expect(ENDPOINTS).toHaveLength(20);
			expect(SCOPE_TABLE).toEqual({
				'GET /jsonapi/deals': 'api.deals.search',
				'GET /jsonapi/deal-structures/{id}/deal': 'api.deal-structures.read',
				'PATCH /jsonapi/deal-structures/{id}': 'api.deal-structures.update',
				'GET /jsonapi/deal-securities': 'api.deal-securities.search',
				'GET /jsonapi/deal-external-references': 'api.deal-external-references.search',
				'POST /jsonapi/deal-external-references': 'api.deal-external-references.create',
				'GET /jsonapi/deals/{id}/dealNotes': 'api.deals.read',
				'GET /jsonapi/deals/{id}/customStatus': 'api.deals.read',
				'PATCH /jsonapi/deal-notes/{id}': 'api.deal-notes.update',
				'DELETE /jsonapi/deal-notes/{id}': 'api.deal-notes.delete',
				'GET /jsonapi/contacts': 'api.contacts.search',
				'POST /jsonapi/contacts': 'api.contacts.create',
				'GET /jsonapi/contact-external-references/{id}/contact': 'api.contact-external-references.read',
				'PATCH /jsonapi/contact-external-references/{id}': 'api.contact-external-references.update',
				'PATCH /jsonapi/contact-categories/{id}': 'api.contact-categories.update',
				'GET /jsonapi/incomes': 'api.incomes.search',
				'GET /jsonapi/organisations/{id}/addresses': 'api.organisations.read',
				'GET /jsonapi/assets/{id}/addresses': 'api.assets.read',
				'GET /jsonapi/leads/{id}': 'api.leads.read',
				'PATCH /jsonapi/tasks/{id}': 'api.tasks.update',
			});
		});

		it('accepts the exact scope, api, api.<resource-type> or api.<action>', () => {
			const deals = { type: 'deals', action: 'search' as const };
			expect(scopeSatisfied(['api.deals.search'], deals)).toBe(true);
			expect(scopeSatisfied(['api'], deals)).toBe(true);
			expect(scopeSatisfied(['api.deals'], deals)).toBe(true);
			expect(scopeSatisfied(['api.search'], deals)).toBe(true);
			expect(scopeSatisfied(['api.deals.read', 'api.read', 'api.contacts'], deals)).toBe(false);
			const del = { type: 'deal-notes', action: 'delete' as const };
			expect(scopeSatisfied(['api.deal-notes.update'], del)).toBe(true);
			expect(scopeSatisfied(['api.deal-notes.delete'], del)).toBe(true);
			expect(scopeSatisfied(['api.deal-notes.read'], del)).toBe(false);
		});

		it('lets a token with only the listed scope through every endpoint, and refuses an unrelated scope with 403', async () => {
			for (const endpoint of ENDPOINTS) {
				const path = `/jsonapi${endpoint.path.replace('{id}', '2147483647')}`;
				const body = endpoint.method === 'POST' || endpoint.method === 'PATCH' ? '{}' : undefined;
				const allowed = await Api.connect(sb, endpoint.scope);
				const ok = await allowed.call(endpoint.method, path, { body });
				expect([endpoint.method, path, ok.status]).not.toEqual([endpoint.method, path, 403]);
				const other = await Api.connect(sb, endpoint.type === 'incomes' ? 'api.deals.search' : 'api.incomes.search');
				const refused = await other.call(endpoint.method, path, { body });
				expect([endpoint.method, path, refused.status]).toEqual([endpoint.method, path, 403]);
				expect(firstError(refused)).toMatchObject({ status: '403' });
				expect(firstError(refused).detail).toContain(endpoint.scope);
			}
		});

		it('uses the first path segment for related endpoints', async () => {
			const structures = await Api.connect(sb, 'api.deal-structures.read');
			expect((await structures.get(`/jsonapi/deal-structures/${sb.data.ids.dealStructure}/deal`)).status).toBe(200);
			const deals = await Api.connect(sb, 'api.deals.read');
			expect((await deals.get(`/jsonapi/deal-structures/${sb.data.ids.dealStructure}/deal`)).status).toBe(403);
			expect((await deals.get(`/jsonapi/deals/${sb.data.ids.dealWithNotes}/dealNotes`)).status).toBe(200);
		});
	});

	describe('UserId', () => {
		const patchNote = (userId: string | null) =>
			api.patch(
				`/jsonapi/deal-notes/${sb.data.ids.dealNote}`,
				{ data: { type: 'deal-notes', id: sb.data.ids.dealNote, attributes: { title: 'x' } } },
				{ userId },
			);

		it('needs a known adviser contact id on writes (403 otherwise)', async () => {
			const missing = await patchNote(null);
			expect(missing.status).toBe(403);
			expect(firstError(missing).source).toEqual({ header: 'UserId' });
			const unknown = await patchNote('999');
			expect(unknown.status).toBe(403);
			expect(firstError(unknown).detail).toContain("'999'");
			expect((await patchNote(sb.data.ids.adviserContactIds[1])).status).toBe(200);
		});

		it('does not need UserId on reads', async () => {
			expect((await api.get('/jsonapi/deals?page[size]=1', { userId: null })).status).toBe(200);
		});
	});

	describe('406 and 415', () => {
		it('answers 406 when Accept does not allow application/vnd.api+json', async () => {
			const reply = await api.get('/jsonapi/deals', { headers: { accept: 'application/json' } });
			expect(reply.status).toBe(406);
			expect(reply.headers.get('content-type')).toBe('application/vnd.api+json');
			expect(firstError(reply)).toMatchObject({ status: '406', title: expect.stringContaining('Accept') });
			const withParam = await api.get('/jsonapi/deals', { headers: { accept: 'application/vnd.api+json; charset=utf-8' } });
			expect(withParam.status).toBe(406);
		});

		it('accepts */*, a list containing the media type, or no Accept header', async () => {
			expect((await api.get('/jsonapi/deals?page[size]=1', { headers: { accept: '*/*' } })).status).toBe(200);
			expect((await api.get('/jsonapi/deals?page[size]=1', { headers: { accept: 'application/json, application/vnd.api+json' } })).status).toBe(200);
			const none = await fetch(`${sb.baseUrl}/jsonapi/deals?page[size]=1`, { headers: { authorization: `Bearer ${api.bearer}` } });
			expect(none.status).toBe(200);
		});

		it('answers 415 unless a body is sent with exactly application/vnd.api+json', async () => {
			const path = `/jsonapi/deal-notes/${sb.data.ids.dealNote}`;
			const body = { data: { type: 'deal-notes', id: sb.data.ids.dealNote, attributes: { title: 'x' } } };
			for (const contentType of ['application/json', 'application/vnd.api+json; charset=utf-8', 'text/plain']) {
				const reply = await api.patch(path, body, { headers: { 'content-type': contentType } });
				expect([contentType, reply.status]).toEqual([contentType, 415]);
				expect(firstError(reply).source).toEqual({ header: 'Content-Type' });
			}
			const noType = await fetch(`${sb.baseUrl}${path}`, {
				method: 'PATCH',
				headers: { authorization: `Bearer ${api.bearer}`, UserId: sb.userId },
				body: new Blob([JSON.stringify(body)]),
			}).then(toReply);
			expect(noType.status).toBe(415);
			expect((await api.patch(path, body)).status).toBe(200);
		});
	});

	describe('routing and path ids', () => {
		it('answers 404 for endpoints outside the contract and 405 for other methods on known paths', async () => {
			// A single deal is served (the public description's Deals_GetById); a single deal security is not.
			expect((await api.get('/jsonapi/deal-securities/5000001')).status).toBe(404);
			expect((await api.get('/jsonapi/unknown-things')).status).toBe(404);
			expect((await api.get('/jsonapi/deals/10001/relationships/dealNotes')).status).toBe(404);
			const put = await api.call('PUT', '/jsonapi/deals', { body: '{}' });
			expect(put.status).toBe(405);
			expect(put.headers.get('allow')).toBe('GET');
			const getNote = await api.get(`/jsonapi/deal-notes/${sb.data.ids.dealNote}`);
			expect(getNote.status).toBe(405);
			expect(getNote.headers.get('allow')).toBe('PATCH, DELETE');
		});

		it('answers 400 for a malformed or out-of-range id and 404 for a well-formed unknown id', async () => {
			for (const bad of ['abc', '1.5', '2147483648', '99999999999']) {
				const reply = await api.get(`/jsonapi/leads/${bad}`);
				expect([bad, reply.status]).toEqual([bad, 400]);
				expect(firstError(reply).source).toEqual({ parameter: 'id' });
			}
			for (const unknown of ['0', '-5', '2147483647', '9']) {
				const reply = await api.get(`/jsonapi/leads/${unknown}`);
				expect([unknown, reply.status]).toEqual([unknown, 404]);
				expect(firstError(reply)).toMatchObject({ status: '404', title: 'The requested resource does not exist.' });
			}
		});

		it('answers 404 for an unknown parent of a related endpoint', async () => {
			for (const path of [
				'/jsonapi/deals/1/dealNotes',
				'/jsonapi/deals/1/customStatus',
				'/jsonapi/deal-structures/1/deal',
				'/jsonapi/contact-external-references/1/contact',
				'/jsonapi/organisations/1/addresses',
				'/jsonapi/assets/1/addresses',
			]) {
				expect([path, (await api.get(path)).status]).toEqual([path, 404]);
			}
		});

		it('writes error documents with a guid id, a string status and the JSON:API media type', async () => {
			const reply = await api.get('/jsonapi/leads/1');
			expect(reply.headers.get('content-type')).toBe('application/vnd.api+json');
			const error = firstError(reply);
			expect(error.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
			expect(error.status).toBe('404');
		});
	});
});
