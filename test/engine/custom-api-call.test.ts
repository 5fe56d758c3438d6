/**
 * Custom API Call: n8n's own HTTP Request node (n8n-nodes-base, Authentication "Predefined
 * Credential Type" → Loan CRM OAuth2 API) in n8n-core's engine against the sandbox. The node signs
 * through n8n-core's legacy `requestWithAuthentication`, which asks the credential for a new token
 * after *any* failure and repeats the request when it gets one. Checked here: the one setting users
 * need (Response Format: JSON), the media types the credential adds, the token shared with the
 * package's nodes, and that only a rejected token is renewed (one check of the token, one new token,
 * one repeat) while every other failure is sent once. The real n8n versions are covered by
 * `npm run test:e2e` (scripts/e2e/custom-api-call.ts).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Registry } from '../../harness';
import { CredentialStore, HTTP_REQUEST_TYPE, TestClock, createRegistry, registerHttpRequestNode, runNode, sandboxCredential, waitsPassByThemselves } from '../../harness';
import type { LoggedRequest, Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { decodedQuery } from './helpers';

const TYPE = 'loanCrmOAuth2Api';

let sandbox: Sandbox;
let registry: Registry;
let typeVersion: number;
/** The one clock of the file (the credential's, the nodes' and the service's), moved past a token's lifetime instead of waited for. */
const clock = TestClock.running();
let restoreClock: () => void;

beforeAll(async () => {
	restoreClock = clock.install();
	sandbox = await startSandbox({ clock });
	waitsPassByThemselves(clock, sandbox);
	// n8n's HTTP Request node, from the n8n-nodes-base devDependency.
	registry = createRegistry();
	typeVersion = registerHttpRequestNode(registry);
});
afterAll(async () => {
	restoreClock();
	await sandbox.close();
});
beforeEach(() => {
	sandbox.clearLog();
	sandbox.clearFaults();
	sandbox.beforeHandle = undefined;
});
afterEach(() => sandbox.data.reset());

interface HttpOptions {
	/** Options → Response → Response Format: JSON (the README's one setting); default on. */
	json?: boolean;
	/** Body Content Type JSON, Specify Body: Using JSON. */
	body?: IDataObject;
	/** Body Content Type Raw with this Content Type. */
	raw?: { contentType: string; body: string };
	headers?: Record<string, string>;
	query?: Record<string, string>;
	timeoutMs?: number;
}

/** The HTTP Request node's parameters as the editor saves them for a Custom API Call. */
function http(method: string, path: string, options: HttpOptions = {}): INodeParameters {
	const nodeOptions: INodeParameters = {};
	if (options.json !== false) nodeOptions.response = { response: { responseFormat: 'json' } };
	if (options.timeoutMs !== undefined) nodeOptions.timeout = options.timeoutMs;
	const parameters: INodeParameters = {
		method,
		url: `${sandbox.baseUrl}/jsonapi${path}`,
		authentication: 'predefinedCredentialType',
		nodeCredentialType: TYPE,
		options: nodeOptions,
	};
	if (options.body) Object.assign(parameters, { sendBody: true, contentType: 'json', specifyBody: 'json', jsonBody: JSON.stringify(options.body) });
	if (options.raw) Object.assign(parameters, { sendBody: true, contentType: 'raw', rawContentType: options.raw.contentType, body: options.raw.body });
	if (options.headers) {
		Object.assign(parameters, { sendHeaders: true, specifyHeaders: 'keypair', headerParameters: { parameters: Object.entries(options.headers).map(([name, value]) => ({ name, value })) } });
	}
	if (options.query) {
		Object.assign(parameters, { sendQuery: true, specifyQuery: 'keypair', queryParameters: { parameters: Object.entries(options.query).map(([name, value]) => ({ name, value })) } });
	}
	return parameters;
}

function freshStore(): CredentialStore {
	return new CredentialStore([{ type: TYPE, data: sandboxCredential(sandbox) }]);
}

async function runHttp(store: CredentialStore, parameters: INodeParameters, options: { input?: IDataObject[]; continueOnFail?: boolean } = {}) {
	const credential = store.firstOfType(TYPE);
	if (!credential) throw new Error('no credential');
	return await runNode({
		nodeType: HTTP_REQUEST_TYPE,
		typeVersion,
		parameters,
		credentials: store,
		registry,
		input: options.input,
		continueOnFail: options.continueOnFail,
		node: { credentials: { [TYPE]: { id: credential.id, name: credential.name } } },
	});
}

/** A package node's read, which fetches (or reuses) the stored token. */
async function runPackageNode(store: CredentialStore) {
	return await runNode({ nodeType: 'loanCrmLeadsAndTasks', parameters: { resource: 'lead', operation: 'get', leadId: sandbox.data.ids.lead }, credentials: store, registry });
}

/** The credential's check whether the service still accepts a token (the Test button's request). */
function isTokenCheck(request: LoggedRequest): boolean {
	return request.kind === 'api' && request.method === 'GET' && request.path === '/jsonapi/deals' && decodedQuery(request.rawQuery) === 'page[size]=1';
}

/** Every request in order: `token`, `check <status>`, or `<METHOD> <path> <status>`. */
function sequence(): string[] {
	return sandbox.requests.map((request) => {
		if (request.kind === 'token') return 'token';
		if (isTokenCheck(request)) return `check ${request.status}`;
		return `${request.method} ${request.path} ${request.status}`;
	});
}

function noteDocument(title: string): IDataObject {
	return { data: { type: 'deal-notes', attributes: { title, detail: 'via the HTTP Request node' }, relationships: { deal: { data: { type: 'deals', id: sandbox.data.ids.dealWithoutNotes } } } } };
}

function notesTitled(title: string): number {
	return sandbox.data.list('deal-notes').filter((note) => note.attributes.title === title).length;
}

/** No issued token and not the client secret anywhere in what n8n kept of the run. */
function expectNoSecrets(value: unknown): void {
	const text = JSON.stringify(value);
	const tokens = sandbox.issuedTokens();
	expect(tokens.length).toBeGreaterThan(0);
	for (const token of tokens) expect(text).not.toContain(token);
	expect(text).not.toContain(sandbox.clientSecret);
}

describe('Custom API Call: what the HTTP Request node gets with the credential', () => {
	it('a GET of a collection comes back as the parsed document, with the token a package node stored', async () => {
		const store = freshStore();
		expect((await runPackageNode(store)).error).toBeUndefined();
		const packageToken = sandbox.apiRequests()[0].headers.authorization;
		sandbox.clearLog();

		const result = await runHttp(store, http('GET', '/deals', { query: { 'page[size]': '3', sort: '-id' } }));

		expect(result.error).toBeUndefined();
		expect(sequence()).toEqual(['GET /jsonapi/deals 200']);
		const [request] = sandbox.apiRequests();
		expect(request.headers.authorization).toBe(packageToken);
		expect(request.headers.userid).toBe(sandbox.userId);
		// The credential put the JSON:API type in front of the node's own Accept values.
		expect(request.headers.accept).toBe('application/vnd.api+json, application/json,text/*;q=0.99');
		expect(result.items).toHaveLength(1);
		const document = result.items[0].json as { data: Array<{ type: string; id: string }>; links: IDataObject };
		expect(document.data.map((deal) => deal.type)).toEqual(['deals', 'deals', 'deals']);
		expect(typeof document.links.next).toBe('string');
	});

	it("without Response Format JSON the answer is one string (n8n reads only application/json as JSON)", async () => {
		const result = await runHttp(freshStore(), http('GET', '/integrations', { json: false }));
		expect(result.error).toBeUndefined();
		expect(typeof result.items[0].json.data).toBe('string');
		expect(JSON.parse(String(result.items[0].json.data)).data).toHaveLength(4);
	});

	it('PATCH and POST with a JSON body go out as application/vnd.api+json and succeed', async () => {
		const store = freshStore();
		const note = sandbox.data.ids.dealNote;
		const patchBody = { data: { type: 'deal-notes', id: note, attributes: { title: 'Renamed by HTTP Request' } } };
		const patch = await runHttp(store, http('PATCH', `/deal-notes/${note}`, { body: patchBody }));
		expect(patch.error).toBeUndefined();
		const post = await runHttp(store, http('POST', '/deal-notes', { body: noteDocument('Created by HTTP Request') }));
		expect(post.error).toBeUndefined();

		expect(sequence()).toEqual(['token', `PATCH /jsonapi/deal-notes/${note} 200`, 'POST /jsonapi/deal-notes 201']);
		const [patched, posted] = sandbox.apiRequests();
		expect(patched.headers['content-type']).toBe('application/vnd.api+json');
		expect(patched.json).toEqual(patchBody);
		expect(posted.headers['content-type']).toBe('application/vnd.api+json');
		expect((patch.items[0].json.data as IDataObject).attributes).toEqual(expect.objectContaining({ title: 'Renamed by HTTP Request' }));
		expect((post.items[0].json.data as IDataObject).type).toBe('deal-notes');
		expect(notesTitled('Created by HTTP Request')).toBe(1);
	});

	it('media types the user chose are kept: Accept application/json gets the JSON:API type added; a Raw body keeps its Content-Type (415, sent once)', async () => {
		const store = freshStore();
		const accepted = await runHttp(store, http('GET', '/integrations', { headers: { Accept: 'application/json' } }));
		expect(accepted.error).toBeUndefined();
		expect(sandbox.apiRequests()[0].headers.accept).toBe('application/vnd.api+json, application/json');
		sandbox.clearLog();

		const raw = await runHttp(store, http('POST', '/deal-notes', { raw: { contentType: 'application/json', body: JSON.stringify(noteDocument('Raw')) } }));

		expect(raw.error?.description).toContain("Please specify 'application/vnd.api+json' instead of 'application/json' for the Content-Type header value.");
		expect(sequence()).toEqual(['POST /jsonapi/deal-notes 415', 'check 200']);
		expect(notesTitled('Raw')).toBe(0);
	});

	it("a UserId header set in the node overrides the credential's for that request", async () => {
		const result = await runHttp(freshStore(), http('GET', '/integrations', { headers: { UserId: '1002' } }));
		expect(result.error).toBeUndefined();
		expect(sandbox.apiRequests()[0].headers.userid).toBe('1002');
	});
});

describe('Custom API Call: only a rejected token is renewed; nothing else is repeated', () => {
	it("a POST answered 500: sent once, one check of the token, no new token, the service's detail in the error", async () => {
		const store = freshStore();
		await runPackageNode(store);
		sandbox.clearLog();
		sandbox.injectFault({ method: 'POST', path: '/jsonapi/deal-notes' }, { status: 500, body: { errors: [{ status: '500', title: 'Internal error', detail: 'The note store is unavailable.' }] } }, 1);

		const result = await runHttp(store, http('POST', '/deal-notes', { body: noteDocument('Fails with 500') }));

		expect(sequence()).toEqual(['POST /jsonapi/deal-notes 500', 'check 200']);
		expect((result.error as { httpCode?: string } | undefined)?.httpCode).toBe('500');
		expect(result.error?.description).toBe('The note store is unavailable.');
		expectNoSecrets(result.run);
	});

	it("a 403 and a 422 show the service's errors[].detail, are sent once and ask for no token; no token or secret in the error", async () => {
		const store = freshStore();
		await runPackageNode(store);
		sandbox.clearLog();
		sandbox.injectFault({ method: 'GET', path: '/jsonapi/integrations' }, { status: 403, body: { errors: [{ status: '403', title: 'Access is denied.', detail: 'The access token lacks the scope api.integrations.search.' }] } }, 1);
		const forbidden = await runHttp(store, http('GET', '/integrations'));
		sandbox.injectFault({ method: 'POST', path: '/jsonapi/deal-notes' }, { status: 422, body: { errors: [{ status: '422', title: 'Input validation failed.', detail: 'The Title field is required.', source: { pointer: '/data/attributes/title' } }] } }, 1);
		const invalid = await runHttp(store, http('POST', '/deal-notes', { body: noteDocument('') }));

		expect(forbidden.error?.description).toBe('The access token lacks the scope api.integrations.search.');
		expect(invalid.error?.description).toBe('The Title field is required.');
		expect(sequence()).toEqual(['GET /jsonapi/integrations 403', 'check 200', 'POST /jsonapi/deal-notes 422', 'check 200']);
		expectNoSecrets([forbidden.run, invalid.run]);
	});

	it('a GET answered 404, a POST that timed out and a POST whose connection dropped: each sent once, no new token', async () => {
		const store = freshStore();
		await runPackageNode(store);
		sandbox.clearLog();
		const missing = await runHttp(store, http('GET', '/leads/999999'));
		expect(missing.error?.description).toBe("Resource of type 'leads' with ID '999999' does not exist.");
		// A service that never answers, so the node's own timeout ends it: n8n's HTTP client times out
		// on the machine's clock (a socket timer of n8n's, no clock of ours), the one real wait here.
		sandbox.injectFault({ method: 'POST', path: '/jsonapi/deal-notes' }, { kind: 'custom', handle: () => undefined }, 1);
		const slow = await runHttp(store, http('POST', '/deal-notes', { body: noteDocument('Timed out'), timeoutMs: 300 }));
		expect(slow.error).toBeDefined();
		sandbox.injectFault({ method: 'POST', path: '/jsonapi/deal-notes' }, { kind: 'drop' }, 1);
		const dropped = await runHttp(store, http('POST', '/deal-notes', { body: noteDocument('Dropped') }));
		expect(dropped.error).toBeDefined();

		expect(sequence().filter((entry) => !entry.startsWith('check'))).toEqual([
			'GET /jsonapi/leads/999999 404',
			expect.stringMatching(/^POST \/jsonapi\/deal-notes /),
			'POST /jsonapi/deal-notes 0',
		]);
		expect(sandbox.tokenRequests()).toHaveLength(0);
		expect(sequence().filter((entry) => entry.startsWith('check'))).toEqual(['check 200', 'check 200', 'check 200']);
	});

	it('a GET whose token expired: 401, the check 401, one new token (stored), the GET repeated once', async () => {
		const store = freshStore();
		await runPackageNode(store);
		sandbox.clearLog();
		sandbox.expireAllTokens();

		const result = await runHttp(store, http('GET', '/integrations'));

		expect(result.error).toBeUndefined();
		expect(sequence()).toEqual(['GET /jsonapi/integrations 401', 'check 401', 'token', 'GET /jsonapi/integrations 200']);
		expect(store.firstOfType(TYPE)?.data.accessToken).toBe(sandbox.issuedTokens().at(-1));
		// The package's next run uses the renewed token.
		sandbox.clearLog();
		expect((await runPackageNode(store)).error).toBeUndefined();
		expect(sequence()).toEqual([`GET /jsonapi/leads/${sandbox.data.ids.lead} 200`]);
	});

	it('three POSTs at once after the token expired: one check, one new token, each POST repeated once: three records', async () => {
		const store = freshStore();
		await runPackageNode(store);
		sandbox.clearLog();
		sandbox.expireAllTokens();
		// The three 401s are answered together, so every POST fails before any check starts.
		sandbox.injectFault({ method: 'POST', path: '/jsonapi/deal-notes' }, { kind: 'delay', ms: 300 }, 3);

		const parameters = http('POST', '/deal-notes', { body: noteDocument('Item {{ $json.n }}') });
		parameters.jsonBody = `=${String(parameters.jsonBody)}`;
		const result = await runHttp(store, parameters, { input: [{ n: 1 }, { n: 2 }, { n: 3 }] });

		expect(result.error).toBeUndefined();
		const entries = sequence();
		expect(entries.filter((entry) => entry === 'POST /jsonapi/deal-notes 401')).toHaveLength(3);
		expect(entries.filter((entry) => entry.startsWith('check'))).toEqual(['check 401']);
		expect(entries.filter((entry) => entry === 'token')).toHaveLength(1);
		expect(entries.filter((entry) => entry === 'POST /jsonapi/deal-notes 201')).toHaveLength(3);
		expect([1, 2, 3].map((n) => notesTitled(`Item ${n}`))).toEqual([1, 1, 1]);
	});

	it("a token request that fails is made once (n8n's legacy path asks twice), with the credential's message; nothing reaches the API", async () => {
		sandbox.injectFault({ kind: 'token' }, { status: 503 }, Infinity);
		const result = await runHttp(freshStore(), http('GET', '/integrations'));
		expect(result.error?.message).toMatch(/^Loan CRM credential: the Access Token URL http:\/\/127\.0\.0\.1:\d+\/oauth2\/token (answered|refused the token request \()503/);
		expect(sequence()).toEqual(['token']);
	});

	it('a token near its expiry is renewed before the request: the HTTP Request node and the package never meet the 401', async () => {
		sandbox.tokenLifetimeSeconds = 2;
		try {
			const store = freshStore();
			await runPackageNode(store);
			expect(store.firstOfType(TYPE)?.data.accessTokenExpiresAt).toMatch(/^\d+$/);
			// Half of a 2-second lifetime left: due for renewal, not yet expired at the service.
			clock.advance(1100);
			sandbox.clearLog();
			const viaHttp = await runHttp(store, http('GET', '/integrations'));
			expect(viaHttp.error).toBeUndefined();
			expect(sequence()).toEqual(['token', 'GET /jsonapi/integrations 200']);

			clock.advance(1100);
			sandbox.clearLog();
			expect((await runPackageNode(store)).error).toBeUndefined();
			expect(sequence()).toEqual(['token', `GET /jsonapi/leads/${sandbox.data.ids.lead} 200`]);
		} finally {
			sandbox.tokenLifetimeSeconds = 3600;
		}
	});
});
