import { Sandbox, startSandbox } from '../../sandbox';
import { TestClock } from '../../harness/clock';
import { Api, basic, requestToken, toReply } from './testkit';

describe('sandbox token endpoint', () => {
	let sb: Sandbox;

	beforeAll(async () => {
		sb = await startSandbox({ sizes: { deals: 20, contacts: 10, incomes: 5, dealSecurities: 5 } });
	});
	afterAll(() => sb.close());

	const post = (body: string, headers: Record<string, string> = {}) =>
		fetch(sb.tokenUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers },
			body,
		}).then(toReply);

	it('issues a bearer token with HTTP Basic client authentication; scope defaults to api', async () => {
		const reply = await requestToken(sb);
		expect(reply.status).toBe(200);
		expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
		expect(reply.headers.get('cache-control')).toBe('no-store');
		expect(reply.json).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: 'api' });
		expect(reply.json.access_token.length).toBeGreaterThanOrEqual(32);
		expect(reply.json).not.toHaveProperty('refresh_token');
		expect(sb.issuedTokens()).toContain(reply.json.access_token);
	});

	it('issues a token with client_id/client_secret in the form body and grants the requested scopes', async () => {
		const reply = await requestToken(sb, { mode: 'body', scope: 'api.deals.search api.contacts.read' });
		expect(reply.status).toBe(200);
		expect(reply.json.scope).toBe('api.deals.search api.contacts.read');
	});

	it('issues a different opaque token each time', async () => {
		const a = await requestToken(sb);
		const b = await requestToken(sb);
		expect(a.json.access_token).not.toBe(b.json.access_token);
	});

	it('rejects two client authentication methods in one request with 400 invalid_request', async () => {
		const form = `grant_type=client_credentials&client_id=${sb.clientId}&client_secret=${sb.clientSecret}`;
		const reply = await post(form, { authorization: basic(sb.clientId, sb.clientSecret) });
		expect(reply.status).toBe(400);
		expect(reply.json.error).toBe('invalid_request');
		expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
	});

	it('rejects a request without client authentication with 401 invalid_client', async () => {
		const reply = await post('grant_type=client_credentials');
		expect(reply.status).toBe(401);
		expect(reply.json.error).toBe('invalid_client');
	});

	it('rejects a wrong secret or an unknown client with 401 invalid_client', async () => {
		const wrongBasic = await requestToken(sb, { clientSecret: 'nope' });
		expect(wrongBasic.status).toBe(401);
		expect(wrongBasic.json).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
		expect(wrongBasic.headers.get('www-authenticate')).toMatch(/^Basic/);
		const wrongBody = await requestToken(sb, { mode: 'body', clientId: 'someone-else' });
		expect(wrongBody.status).toBe(401);
		expect(wrongBody.json.error).toBe('invalid_client');
	});

	it('rejects other grant types with 400 unsupported_grant_type and a missing grant_type with invalid_request', async () => {
		const auth = { authorization: basic(sb.clientId, sb.clientSecret) };
		const password = await post('grant_type=password&username=a&password=b', auth);
		expect(password.status).toBe(400);
		expect(password.json.error).toBe('unsupported_grant_type');
		const missing = await post('scope=api', auth);
		expect(missing.status).toBe(400);
		expect(missing.json.error).toBe('invalid_request');
	});

	it('needs POST with a form body', async () => {
		const get = await fetch(sb.tokenUrl).then(toReply);
		expect(get.status).toBe(405);
		const json = await fetch(sb.tokenUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: basic(sb.clientId, sb.clientSecret) },
			body: JSON.stringify({ grant_type: 'client_credentials' }),
		}).then(toReply);
		expect(json.status).toBe(400);
		expect(json.json.error).toBe('invalid_request');
	});

	it('refuses scopes a client may not request with 400 invalid_scope', async () => {
		const limited = sb.addClient({ scopes: ['api.deals.search'] });
		const ok = await requestToken(sb, { ...limited, scope: 'api.deals.search' });
		expect(ok.status).toBe(200);
		const refused = await requestToken(sb, { ...limited, scope: 'api.deals.search api.contacts.search' });
		expect(refused.status).toBe(400);
		expect(refused.json.error).toBe('invalid_scope');
		const malformed = await requestToken(sb, { scope: 'openid' });
		expect(malformed.status).toBe(400);
		expect(malformed.json.error).toBe('invalid_scope');
	});

	it('honours the client authentication a client was issued with', async () => {
		const headerOnly = sb.addClient({ clientAuth: 'header' });
		expect((await requestToken(sb, { ...headerOnly })).status).toBe(200);
		expect((await requestToken(sb, { ...headerOnly, mode: 'body' })).status).toBe(401);
		const bodyOnly = sb.addClient({ clientAuth: 'body' });
		expect((await requestToken(sb, { ...bodyOnly, mode: 'body' })).status).toBe(200);
		const refused = await requestToken(sb, { ...bodyOnly });
		expect(refused.status).toBe(401);
		expect(refused.json.error).toBe('invalid_client');
	});

	it('applies the clientAuth option to the ready client', async () => {
		const bodyOnly = await startSandbox({ clientAuth: 'body', sizes: { deals: 5, contacts: 5, incomes: 1, dealSecurities: 1 } });
		try {
			expect((await requestToken(bodyOnly, { mode: 'body' })).status).toBe(200);
			expect((await requestToken(bodyOnly, { mode: 'header' })).status).toBe(401);
		} finally {
			await bodyOnly.close();
		}
	});

	it('accepts a token until expireAllTokens, then answers 401; a new token works again', async () => {
		const api = await Api.connect(sb);
		expect((await api.get('/jsonapi/leads/10001')).status).toBe(200);
		sb.expireAllTokens();
		const expired = await api.get('/jsonapi/leads/10001');
		expect(expired.status).toBe(401);
		expect(expired.text).toBe('');
		api.bearer = (await requestToken(sb)).json.access_token;
		expect((await api.get('/jsonapi/leads/10001')).status).toBe(200);
	});

	it('expires tokens after tokenLifetimeSeconds of its clock', async () => {
		const clock = TestClock.stopped();
		const short = await startSandbox({ tokenLifetimeSeconds: 1, clock, sizes: { deals: 5, contacts: 5, incomes: 1, dealSecurities: 1 } });
		try {
			const reply = await requestToken(short);
			expect(reply.json.expires_in).toBe(1);
			const api = new Api(short, reply.json.access_token);
			clock.advance(999);
			expect((await api.get('/jsonapi/leads/10001')).status).toBe(200);
			clock.advance(1);
			const expired = await api.get('/jsonapi/leads/10001');
			expect(expired.status).toBe(401);
			expect(expired.headers.get('www-authenticate')).toMatch(/invalid_token/);
		} finally {
			await short.close();
		}
	});

	it('revokes a single token', async () => {
		const a = await Api.connect(sb);
		const b = await Api.connect(sb);
		sb.revokeToken(a.bearer);
		expect((await a.get('/jsonapi/leads/10001')).status).toBe(401);
		expect((await b.get('/jsonapi/leads/10001')).status).toBe(200);
	});

	it('logs token requests with kind token and the decoded form', async () => {
		sb.clearLog();
		await requestToken(sb, { mode: 'body', scope: 'api' });
		const [logged] = sb.tokenRequests();
		expect(logged).toMatchObject({ method: 'POST', path: '/oauth2/token', kind: 'token', status: 200 });
		expect(logged.json).toMatchObject({ grant_type: 'client_credentials', client_id: sb.clientId, scope: 'api' });
		expect(sb.apiRequests()).toHaveLength(0);
	});
});
