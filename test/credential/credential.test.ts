/*
 * The loanCrmOAuth2Api credential through n8n-core's engine, against the sandbox service:
 * a test-only node (harness/fixtures/LoanCrmTestRequest.node.ts) makes each request through
 * `httpRequestWithAuthentication`, so n8n's preAuthentication / authenticate / 401-retry path runs
 * exactly as it would for the package's nodes; `testCredential` runs n8n's credential test.
 */
import { createServer } from 'net';

import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import type { RunResult } from '../../harness';
import { CredentialStore, TestClock, editAndTestCredential, nodeTypes, runNode, sandboxCredential, testCredential } from '../../harness';
import { loadPackageSource } from '../../harness/package-source';
import type { LoggedRequest, Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';

const TYPE = 'loanCrmOAuth2Api';

/** Every message an n8n user or log could see, collected to check for leaked secrets. */
const seenMessages: string[] = [];

function remember(result: RunResult | { message: string }): void {
	if ('items' in result) {
		const error = result.error as (IDataObject & { message?: string }) | undefined;
		if (error) {
			seenMessages.push(String(error.message ?? ''), String(error.description ?? ''));
			seenMessages.push(...((error.messages as string[] | undefined) ?? []));
			// The whole error as n8n stores it in the execution.
			seenMessages.push(JSON.stringify(error));
		}
		for (const item of result.items) {
			if (typeof item.json.error === 'string') seenMessages.push(item.json.error);
		}
	} else {
		seenMessages.push(result.message);
	}
}

function storeFor(data: ICredentialDataDecryptedObject): CredentialStore {
	return new CredentialStore([{ type: TYPE, data }]);
}

async function request(
	credentials: CredentialStore | ICredentialDataDecryptedObject,
	opts: { path?: string; method?: string; headers?: Record<string, string>; input?: IDataObject[]; continueOnFail?: boolean } = {},
): Promise<RunResult> {
	const result = await runNode({
		nodeType: 'loanCrmTestRequest',
		parameters: {
			method: opts.method ?? 'GET',
			path: opts.path ?? '/deals?page[size]=1',
			headers: JSON.stringify(opts.headers ?? {}),
		},
		credentials,
		input: opts.input,
		continueOnFail: opts.continueOnFail,
	});
	remember(result);
	return result;
}

function basic(id: string, secret: string): string {
	return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
	return await new Promise((resolvePort, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolvePort(port));
		});
	});
}

function kinds(requests: LoggedRequest[]): string[] {
	return requests.map((r) => `${r.kind} ${r.status}`);
}

describe('loanCrmOAuth2Api credential in the n8n engine', () => {
	let sb: Sandbox;
	/** The credential's and the service's one clock. */
	const clock = TestClock.running();
	let restoreClock: () => void;

	beforeAll(async () => {
		restoreClock = clock.install();
		sb = await startSandbox({ clock });
	});

	afterAll(async () => {
		await sb.close();
		restoreClock();
	});

	beforeEach(() => sb.clearLog());

	/** Secrets of the extra clients registered below (checked for leaks at the end). */
	const extraSecrets: string[] = [];
	function newClient(options: Parameters<Sandbox['addClient']>[0]) {
		const client = sb.addClient(options);
		extraSecrets.push(client.clientSecret);
		return client;
	}

	describe('definition', () => {
		const credential = loadPackageSource().credentials.find((c) => c.name === TYPE)?.type;

		it('is loaded from the package.json list and is not an OAuth2 child type', () => {
			expect(credential).toBeDefined();
			expect(storeFor({}).getParentTypes(TYPE)).toEqual([]);
		});

		it('keeps the client secret in a password field and the token in a hidden, expirable password field', () => {
			const secret = credential?.properties.find((p) => p.name === 'clientSecret');
			expect(secret?.type).toBe('string');
			expect(secret?.typeOptions?.password).toBe(true);
			const token = credential?.properties.find((p) => p.name === 'accessToken');
			expect(token).toMatchObject({ type: 'hidden', typeOptions: { expirable: true, password: true } });
		});

		it('is usable by the test-only node', () => {
			expect(nodeTypes().resolve('loanCrmTestRequest')).toMatch(/\.loanCrmTestRequest$/);
		});
	});

	describe('token endpoint', () => {
		it('fetches one token and reuses it across 5 items and 2 executions', async () => {
			const store = storeFor(sandboxCredential(sb));
			const input = [{ i: 0 }, { i: 1 }, { i: 2 }, { i: 3 }, { i: 4 }];
			const before = clock.now();
			const first = await request(store, { input });
			const after = clock.now();
			expect(first.error).toBeUndefined();
			expect(first.items).toHaveLength(5);
			expect(first.items.map((item) => item.pairedItem)).toEqual(input.map((_, i) => ({ item: i })));
			const second = await request(store, { input });
			expect(second.error).toBeUndefined();
			expect(second.items).toHaveLength(5);

			expect(sb.tokenRequests()).toHaveLength(1);
			expect(sb.apiRequests()).toHaveLength(10);
			const token = sb.issuedTokens().at(-1);
			expect(new Set(sb.apiRequests().map((r) => r.headers.authorization))).toEqual(new Set([`Bearer ${token}`]));
			// n8n persisted the token once, into the hidden fields (with a digest of the values it was
			// fetched with, when, and when it expires: the service's expires_in), and kept everything
			// else. Times are text: n8n 1.x's credential list calls .startsWith on password-typed values.
			expect(store.updates).toBe(1);
			const stored = store.firstOfType(TYPE)?.data;
			expect(stored).toEqual({
				...sandboxCredential(sb),
				accessToken: token,
				accessTokenFingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
				accessTokenFetchedAt: expect.stringMatching(/^\d+$/),
				accessTokenExpiresAt: expect.stringMatching(/^\d+$/),
			});
			expect(Number(stored?.accessTokenFetchedAt)).toBeGreaterThanOrEqual(before);
			expect(Number(stored?.accessTokenFetchedAt)).toBeLessThanOrEqual(after);
			expect(Number(stored?.accessTokenExpiresAt) - Number(stored?.accessTokenFetchedAt)).toBe(3600 * 1000);
		});

		it("sends client id and secret only as HTTP Basic for 'header'", async () => {
			const result = await request(sandboxCredential(sb, { authentication: 'header', scope: 'api' }));
			expect(result.error).toBeUndefined();
			const [token] = sb.tokenRequests();
			expect(token.method).toBe('POST');
			expect(token.headers.authorization).toBe(basic(sb.clientId, sb.clientSecret));
			expect(token.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
			expect(token.headers.accept).toBe('application/json');
			expect(Object.fromEntries(new URLSearchParams(token.body))).toEqual({
				grant_type: 'client_credentials',
				scope: 'api',
			});
		});

		it('handles secrets with reserved characters in both client authentication methods', async () => {
			const client = newClient({ clientSecret: 'p+a%2Fs:s w&rd=' });
			for (const authentication of ['header', 'body'] as const) {
				const result = await testCredential(sandboxCredential(sb, { ...client, authentication }));
				remember(result);
				expect({ authentication, ...result }).toEqual({ authentication, status: 'OK', message: 'Connection successful!' });
			}
		});

		it("sends client id and secret only as form fields for 'body'", async () => {
			const result = await request(sandboxCredential(sb, { authentication: 'body' }));
			expect(result.error).toBeUndefined();
			const [token] = sb.tokenRequests();
			expect(token.headers.authorization).toBeUndefined();
			expect(token.headers.accept).toBe('application/json');
			expect(Object.fromEntries(new URLSearchParams(token.body))).toEqual({
				grant_type: 'client_credentials',
				scope: 'api',
				client_id: sb.clientId,
				client_secret: sb.clientSecret,
			});
		});

		it('sends the scope space-separated, whatever separators were typed', async () => {
			await request(sandboxCredential(sb, { scope: ' api.deals.search,api.tasks.update   api.contacts.search ' }), {
				continueOnFail: true,
			});
			const [token] = sb.tokenRequests();
			expect(new URLSearchParams(token.body).get('scope')).toBe(
				'api.deals.search api.tasks.update api.contacts.search',
			);
			expect(token.body).toContain('scope=api.deals.search+api.tasks.update+api.contacts.search');
		});
	});

	describe('API requests', () => {
		it('carry the Bearer token and the UserId header', async () => {
			const result = await request(sandboxCredential(sb));
			expect(result.error).toBeUndefined();
			const [api] = sb.apiRequests();
			expect(api.path).toBe('/jsonapi/deals');
			expect(api.headers.authorization).toBe(`Bearer ${sb.issuedTokens().at(-1)}`);
			expect(api.headers.userid).toBe(sb.userId);
			expect(api.headers.accept).toBe('application/vnd.api+json');
			expect(result.items[0].json.data).toBeDefined();
		});

		it('respect a UserId header set by the node (any case), sending one value only', async () => {
			const other = sb.data.ids.adviserContactIds.find((id) => id !== sb.userId) ?? '999999';
			await request(sandboxCredential(sb), { headers: { UserId: other }, continueOnFail: true });
			await request(sandboxCredential(sb), { headers: { userid: other }, continueOnFail: true });
			const [a, b] = sb.apiRequests();
			expect(a.headers.userid).toBe(other);
			expect(b.headers.userid).toBe(other);
		});

		it('trim the configured User ID', async () => {
			await request(sandboxCredential(sb, { userId: `  ${sb.userId} ` }));
			expect(sb.apiRequests()[0].headers.userid).toBe(sb.userId);
		});
	});

	describe('expired and rejected tokens', () => {
		it('after the token expires, a 401 leads to exactly one new token and the request succeeds', async () => {
			const store = storeFor(sandboxCredential(sb));
			expect((await request(store)).error).toBeUndefined();
			const oldToken = store.firstOfType(TYPE)?.data.accessToken;
			sb.expireAllTokens();
			sb.clearLog();

			const result = await request(store, { input: [{}, {}, {}] });
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(3);
			expect(kinds(sb.requests)).toEqual(['api 401', 'token 200', 'api 200', 'api 200', 'api 200']);
			const newToken = store.firstOfType(TYPE)?.data.accessToken;
			expect(newToken).not.toBe(oldToken);
			expect(sb.apiRequests().slice(1).map((r) => r.headers.authorization)).toEqual([
				`Bearer ${newToken}`,
				`Bearer ${newToken}`,
				`Bearer ${newToken}`,
			]);
			expect(store.updates).toBe(2);
		});

		it('a revoked token is replaced the same way', async () => {
			const store = storeFor(sandboxCredential(sb));
			await request(store);
			sb.revokeToken(String(store.firstOfType(TYPE)?.data.accessToken));
			sb.clearLog();
			const result = await request(store);
			expect(result.error).toBeUndefined();
			expect(kinds(sb.requests)).toEqual(['api 401', 'token 200', 'api 200']);
		});

		it('a persistent 401 fails after exactly one refresh', async () => {
			const own = await startSandbox();
			try {
				const store = storeFor(sandboxCredential(own));
				expect((await request(store)).error).toBeUndefined();
				own.injectFault(
					{ kind: 'api', path: /^\/jsonapi\/deals/ },
					{ status: 401, body: { errors: [{ status: '401', title: 'Unauthorized' }] } },
					Infinity,
				);
				own.clearLog();
				const result = await request(store);
				expect(kinds(own.requests)).toEqual(['api 401', 'token 200', 'api 401']);
				expect(result.items).toEqual([]);
				expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '401' });
				expect(result.error?.message).toMatch(/Authorization failed/);
			} finally {
				await own.close();
			}
		});
	});

	describe('editing the credential invalidates the stored token', () => {
		const edits: Array<[string, () => ICredentialDataDecryptedObject]> = [
			['Client Secret and Client ID (another client)', () => {
				const client = newClient({});
				return { clientId: client.clientId, clientSecret: client.clientSecret };
			}],
			['Access Token URL', () => ({ accessTokenUrl: `${sb.tokenUrl}?tenant=main` })],
			['Scope', () => ({ scope: 'api.deals.search' })],
		];

		it.each(edits)('after an edit of the %s the next run fetches a token with the new values before any API request', async (_field, edit) => {
			const store = new CredentialStore();
			const id = store.add(TYPE, sandboxCredential(sb)).id;
			expect((await request(store)).error).toBeUndefined();
			const oldToken = store.get(id)?.data.accessToken;
			const changed = edit();
			store.patch(id, changed);
			sb.clearLog();

			const result = await request(store);
			expect(result.error).toBeUndefined();
			// No request with the old token: the stored one is refused before anything is sent.
			expect(kinds(sb.requests)).toEqual(['token 200', 'api 200']);
			const [token] = sb.tokenRequests();
			const newValues = { ...sandboxCredential(sb), ...changed };
			expect(token.headers.authorization).toBe(basic(String(newValues.clientId), String(newValues.clientSecret)));
			expect(new URLSearchParams(token.body).get('scope')).toBe(newValues.scope);
			expect(token.rawQuery).toBe(changed.accessTokenUrl === undefined ? '' : 'tenant=main');
			const newToken = sb.issuedTokens().at(-1);
			expect(newToken).not.toBe(oldToken);
			expect(sb.apiRequests()[0].headers.authorization).toBe(`Bearer ${newToken}`);
			// …and stores it, so the run after that uses it without asking again.
			sb.clearLog();
			expect((await request(store)).error).toBeUndefined();
			expect(kinds(sb.requests)).toEqual(['api 200']);
		});

		it('after the Client Secret is rotated (same client) the next run fetches a token with the new secret', async () => {
			const client = newClient({});
			const store = new CredentialStore();
			const id = store.add(TYPE, sandboxCredential(sb, client)).id;
			expect((await request(store)).error).toBeUndefined();
			const rotated = newClient({ clientId: client.clientId });
			store.patch(id, { clientSecret: rotated.clientSecret });
			sb.clearLog();
			expect((await request(store)).error).toBeUndefined();
			expect(kinds(sb.requests)).toEqual(['token 200', 'api 200']);
			expect(sb.tokenRequests()[0].headers.authorization).toBe(basic(client.clientId, rotated.clientSecret));
		});

		it('a token stored by an earlier version of the package (no fingerprint) is replaced once', async () => {
			const current = storeFor(sandboxCredential(sb));
			expect((await request(current)).error).toBeUndefined();
			const validToken = String(current.firstOfType(TYPE)?.data.accessToken);
			const store = storeFor({ ...sandboxCredential(sb), accessToken: validToken });
			sb.clearLog();
			expect((await request(store)).error).toBeUndefined();
			expect(kinds(sb.requests)).toEqual(['token 200', 'api 200']);
			sb.clearLog();
			expect((await request(store)).error).toBeUndefined();
			expect(kinds(sb.requests)).toEqual(['api 200']);
		});

		it('a token stored with its time as a number (which n8n 1.x cannot list in the editor) is replaced once, and stored with text times', async () => {
			const current = storeFor(sandboxCredential(sb));
			expect((await request(current)).error).toBeUndefined();
			const stored = current.firstOfType(TYPE)?.data ?? {};
			const store = storeFor({ ...stored, accessTokenFetchedAt: Number(stored.accessTokenFetchedAt), accessTokenExpiresAt: '' });
			sb.clearLog();
			expect((await request(store)).error).toBeUndefined();
			expect(kinds(sb.requests)).toEqual(['token 200', 'api 200']);
			const renewed = store.firstOfType(TYPE)?.data;
			expect([typeof renewed?.accessTokenFetchedAt, typeof renewed?.accessTokenExpiresAt]).toEqual(['string', 'string']);
			sb.clearLog();
			expect((await request(store)).error).toBeUndefined();
			expect(kinds(sb.requests)).toEqual(['api 200']);
		});
	});

	describe('token failures inside a workflow', () => {
		it('a wrong secret fails the node with a message naming the fields to check', async () => {
			const result = await request(sandboxCredential(sb, { clientSecret: 'wrong-secret-value' }));
			expect(result.error?.message).toMatch(/Client ID, the Client Secret and the Client Authentication/);
			expect(sb.apiRequests()).toHaveLength(0);
			expect(sb.tokenRequests()).toHaveLength(1);
			expect(result.error?.message).not.toContain('wrong-secret-value');
		});
	});

	describe('credential test (the Test button)', () => {
		it('passes for good data, fetching a token and listing one deal', async () => {
			const store = new CredentialStore();
			const result = await testCredential(sandboxCredential(sb), { store });
			remember(result);
			expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
			expect(kinds(sb.requests)).toEqual(['token 200', 'api 200']);
			const [api] = sb.apiRequests();
			expect(api.path).toBe('/jsonapi/deals');
			expect(api.query['page[size]']).toBe('1');
			expect(api.headers.userid).toBe(sb.userId);
			// n8n saves the token fetched during the test into the stored credential.
			expect(store.firstOfType(TYPE)?.data.accessToken).toBe(sb.issuedTokens().at(-1));
		});

		it('passes with body client authentication', async () => {
			const result = await testCredential(sandboxCredential(sb, { authentication: 'body' }));
			remember(result);
			expect(result.status).toBe('OK');
		});

		// n8n means to force preAuthentication during a test, but its check compares the test node's
		// type 'noOp' with 'n8n-nodes-base.noOp' (and a `temp` parameter the node does not have), so
		// the data under test would keep the stored token. The test request carries its start time
		// and the credential accepts no token fetched before it.
		it('asks the token URL even when the dialog data holds a valid stored token, and lists a deal with the new token', async () => {
			const store = storeFor(sandboxCredential(sb));
			expect((await request(store)).error).toBeUndefined();
			const id = String(store.firstOfType(TYPE)?.id);
			const stored = String(store.firstOfType(TYPE)?.data.accessToken);
			sb.clearLog();
			const result = await editAndTestCredential(store, id, {});
			remember(result);
			expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
			expect(kinds(sb.requests)).toEqual(['token 200', 'api 200']);
			const fresh = sb.issuedTokens().at(-1);
			expect(fresh).not.toBe(stored);
			const [api] = sb.apiRequests();
			expect(api.headers.authorization).toBe(`Bearer ${fresh}`);
			expect(api.query['page[size]']).toBe('1');
			// The marker the credential reads never reaches the service.
			expect(Object.keys(api.headers).filter((name) => name.startsWith('x-loan-crm'))).toEqual([]);
		});

		it('test -> run -> the secret changed to a wrong one: the test fails, and a run fails with the credential message instead of using the old token', async () => {
			const store = new CredentialStore();
			const id = store.add(TYPE, sandboxCredential(sb)).id;
			const passed = await editAndTestCredential(store, id, {});
			remember(passed);
			expect(passed).toEqual({ status: 'OK', message: 'Connection successful!' });
			const ran = await request(store);
			expect(ran.error).toBeUndefined();
			expect(ran.items).toHaveLength(1);
			const validToken = String(store.get(id)?.data.accessToken);
			expect(validToken).toBe(sb.issuedTokens().at(-1));
			sb.clearLog();

			const wrongSecret = 'typo-in-the-rotated-secret';
			const failed = await editAndTestCredential(store, id, { clientSecret: wrongSecret });
			remember(failed);
			expect(failed.status).toBe('Error');
			expect(failed.message).toMatch(/^Loan CRM credential: the Access Token URL .* rejected the client \(401 invalid_client\)\. Check the Client ID, the Client Secret/);
			expect(failed.message).not.toContain(wrongSecret);
			expect(kinds(sb.requests)).toEqual(['token 401']);
			// Saved with the typo; the old token is still stored and still valid at the service.
			expect(store.get(id)?.data).toMatchObject({ clientSecret: wrongSecret, accessToken: validToken });
			sb.clearLog();

			const after = await request(store);
			expect(after.items).toEqual([]);
			expect(after.error?.message).toMatch(/^Loan CRM credential: the Access Token URL .* rejected the client \(401 invalid_client\)/);
			expect(JSON.stringify(after.error)).not.toContain(wrongSecret);
			expect(kinds(sb.requests)).toEqual(['token 401']);
			expect(sb.apiRequests()).toEqual([]);
		});

		it('a test of unsaved edits leaves the stored values in force: the next run fetches a token with them', async () => {
			const store = new CredentialStore();
			const id = store.add(TYPE, sandboxCredential(sb)).id;
			expect((await request(store)).error).toBeUndefined();
			const client = newClient({});
			const result = await editAndTestCredential(store, id, { clientId: client.clientId, clientSecret: client.clientSecret }, { save: false });
			remember(result);
			expect(result.status).toBe('OK');
			// n8n stored the token fetched for the dialog's values, next to the unchanged stored values.
			expect(store.get(id)?.data.clientId).toBe(sb.clientId);
			sb.clearLog();
			expect((await request(store)).error).toBeUndefined();
			expect(kinds(sb.requests)).toEqual(['token 200', 'api 200']);
			expect(sb.tokenRequests()[0].headers.authorization).toBe(basic(sb.clientId, sb.clientSecret));
		});

		it('names the secret (without echoing it) when the secret is wrong', async () => {
			const result = await testCredential(sandboxCredential(sb, { clientSecret: 'not-the-secret-123' }));
			remember(result);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/rejected the client \(401 invalid_client\)/);
			expect(result.message).toMatch(/Client Secret/);
			expect(result.message).not.toContain('not-the-secret-123');
		});

		// Network codes are put in words: n8n replaces a message containing ECONNREFUSED & co with its own text.
		it('names the Access Token URL when nothing listens there', async () => {
			const url = `http://127.0.0.1:${await closedPort()}/connect/token`;
			const result = await testCredential(sandboxCredential(sb, { accessTokenUrl: url }));
			remember(result);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/Access Token URL/);
		});

		it('reports an unreachable Access Token URL as an error (whatever the wording)', async () => {
			const url = `http://127.0.0.1:${await closedPort()}/connect/token`;
			const result = await testCredential(sandboxCredential(sb, { accessTokenUrl: url }));
			remember(result);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/Access Token URL|refused the connection/);
		});

		it('names the Access Token URL when the token endpoint drops the connection', async () => {
			sb.injectFault({ kind: 'token' }, { kind: 'drop' }, 1);
			const result = await testCredential(sandboxCredential(sb));
			remember(result);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/Access Token URL/);
		});

		it('reports a token endpoint that is down (503)', async () => {
			sb.injectFault({ kind: 'token' }, { status: 503 }, 1);
			const result = await testCredential(sandboxCredential(sb));
			remember(result);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/Access Token URL .* refused the token request \(503 temporarily_unavailable\)/);
		});

		it('reports a token URL that answers a page instead of a token', async () => {
			sb.injectFault({ kind: 'token' }, { kind: 'html', status: 200 }, 1);
			const result = await testCredential(sandboxCredential(sb));
			remember(result);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/answered 200 without a JSON token response/);
		});

		it('names the Access Token URL when it answers 404', async () => {
			const path = '/no/such/token';
			sb.injectFault({ path }, { status: 404, body: 'Not Found', headers: { 'content-type': 'text/plain' } }, 1);
			const result = await testCredential(sandboxCredential(sb, { accessTokenUrl: `${sb.baseUrl}${path}` }));
			remember(result);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/Access Token URL .* was not found \(404\)\. Check the Access Token URL\./);
		});

		// A 401 without an OAuth error (here a wrong path on the API host) points at the URL, not the client.
		it('names the Access Token URL when it is a wrong path on the API host (401 Bearer)', async () => {
			const result = await testCredential(sandboxCredential(sb, { accessTokenUrl: `${sb.baseUrl}/oauth2/tokens` }));
			remember(result);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/Check the Access Token URL/);
		});

		it('accepts a Base URL that includes /jsonapi, as the nodes do', async () => {
			const result = await testCredential(sandboxCredential(sb, { baseUrl: `${sb.baseUrl}/jsonapi/` }));
			remember(result);
			expect(result.status).toBe('OK');
		});

		it('explains a Base URL with a wrong path (404 after the token was issued)', async () => {
			const result = await testCredential(sandboxCredential(sb, { baseUrl: `${sb.baseUrl}/api` }));
			remember(result);
			expect(result).toEqual({
				status: 'Error',
				message:
					'The token was issued, but the Base URL does not lead to the service (404). Use the base address without /jsonapi.',
			});
			expect(kinds(sb.requests)).toEqual(['token 200', 'api 404']);
		});

		it('tolerates a trailing slash on the Base URL', async () => {
			const result = await testCredential(sandboxCredential(sb, { baseUrl: `${sb.baseUrl}/` }));
			remember(result);
			expect(result.status).toBe('OK');
		});

		it('reports an unreachable Base URL as n8n does (the network error code)', async () => {
			const result = await testCredential(sandboxCredential(sb, { baseUrl: `http://127.0.0.1:${await closedPort()}` }));
			remember(result);
			expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
		});

		it('explains a refused deal listing (403): the scope lacks the deals search', async () => {
			const client = newClient({ scopes: ['api.tasks.update'] });
			const result = await testCredential(sandboxCredential(sb, { ...client, scope: 'api.tasks.update' }));
			remember(result);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/refused \(403\).*scope includes api or api\.deals\.search/);
			expect(kinds(sb.requests)).toEqual(['token 200', 'api 403']);
		});

		it('points to the Scope field when the token endpoint refuses the scope', async () => {
			const client = newClient({ scopes: ['api.deals.search'] });
			const result = await testCredential(sandboxCredential(sb, { ...client, scope: 'api' }));
			remember(result);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/refused the requested scope \(400 invalid_scope\)\. Check the Scope field/);
		});

		it('points to Client Authentication when the client must use the other method', async () => {
			const bodyClient = newClient({ clientAuth: 'body' });
			const asHeader = await testCredential(sandboxCredential(sb, { ...bodyClient, authentication: 'header' }));
			remember(asHeader);
			expect(asHeader.status).toBe('Error');
			expect(asHeader.message).toMatch(/Client Authentication setting/);
			expect(asHeader.message).not.toContain(bodyClient.clientSecret);
			const asBody = await testCredential(sandboxCredential(sb, { ...bodyClient, authentication: 'body' }));
			remember(asBody);
			expect(asBody.status).toBe('OK');

			const headerClient = newClient({ clientAuth: 'header' });
			const headerAsBody = await testCredential(sandboxCredential(sb, { ...headerClient, authentication: 'body' }));
			remember(headerAsBody);
			expect(headerAsBody.status).toBe('Error');
			expect(headerAsBody.message).toMatch(/Client Authentication setting/);
		});
	});

	it('never shows the client secret or an issued token in a message', () => {
		expect(seenMessages.length).toBeGreaterThan(5);
		const secrets = [sb.clientSecret, ...extraSecrets, ...sb.issuedTokens()].filter((s) => s.length > 0);
		for (const message of seenMessages) {
			for (const secret of secrets) {
				expect({ message, leaks: message.includes(secret) }).toEqual({ message, leaks: false });
			}
		}
	});
});
