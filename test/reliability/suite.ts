/**
 * The fault matrix: token endpoint failures, API auth, transient faults, hostile responses, hostile
 * input, nothing lost, and no secret in any output, error or console line. Defined once and run
 * twice: with the sandbox's rate limit off and on.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunResult } from '../../harness';
import { CredentialStore, TestClock, runNode, sandboxCredential, waitsPassByThemselves } from '../../harness';
import type { RateLimitConfig, Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { forgetRateBudgets } from '../../nodes/shared/requests/rateBudget';

type Category = 'token endpoint' | 'api auth' | 'transient' | 'hostile responses' | 'hostile input' | 'nothing lost' | 'secrets';

export function defineReliabilitySuite(rateLimit: false | RateLimitConfig): void {
	let sandbox: Sandbox;
	/** The one clock of the nodes, the credential and the service: retry-after and backoffs pass on it. */
	const clock = TestClock.running();
	const counts = new Map<Category, number>();
	/** Everything a user or a log could ever see, checked for secrets at the end. */
	const seen: string[] = [];
	const consoleLines: string[] = [];
	const restore: Array<() => void> = [];

	function count(category: Category): void {
		counts.set(category, (counts.get(category) ?? 0) + 1);
	}

	function freshStore(overrides: Parameters<typeof sandboxCredential>[1] = {}): CredentialStore {
		const store = new CredentialStore();
		store.add('loanCrmOAuth2Api', sandboxCredential(sandbox, overrides));
		return store;
	}

	async function run(
		category: Category,
		nodeType: string,
		parameters: INodeParameters,
		options: { store?: CredentialStore; input?: IDataObject[]; continueOnFail?: boolean } = {},
	): Promise<RunResult> {
		count(category);
		const result = await runNode({
			nodeType,
			parameters,
			credentials: options.store ?? freshStore(),
			input: options.input,
			continueOnFail: options.continueOnFail,
		});
		seen.push(JSON.stringify(result.items), JSON.stringify(result.error ?? null));
		if (result.error) seen.push(String(result.error.message), String(result.error.description ?? ''));
		return result;
	}

	const listDeals = { resource: 'deal', operation: 'getMany', limit: 3 };
	const ids = () => sandbox.data.ids;

	beforeAll(async () => {
		restore.push(clock.install());
		sandbox = await startSandbox({ rateLimit, clock });
		waitsPassByThemselves(clock, sandbox);
		for (const stream of [process.stdout, process.stderr] as const) {
			const original = stream.write.bind(stream);
			stream.write = ((chunk: unknown, ...rest: unknown[]) => {
				consoleLines.push(String(chunk));
				return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
			}) as typeof stream.write;
			restore.push(() => (stream.write = original));
		}
		for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
			const spy = jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
				consoleLines.push(args.map(String).join(' '));
			});
			restore.push(() => spy.mockRestore());
		}
	});

	beforeEach(() => {
		sandbox.clearFaults();
		sandbox.clearLog();
		// The credential's rate-limit budget lives as long as the process; each case starts afresh.
		forgetRateBudgets();
	});

	afterAll(async () => {
		for (const undo of restore) undo();
		const secrets = [sandbox.clientSecret, ...sandbox.issuedTokens()];
		const everything = [...seen, ...consoleLines].join('\n');
		const leaks = secrets.filter((secret) => everything.includes(secret));
		await sandbox.close();
		const table = [...counts.entries()].map(([category, n]) => `  ${category.padEnd(18)} ${n}`).join('\n');
		process.stdout.write(
			`\nReliability fault cases (rate limit ${rateLimit ? 'on' : 'off'}):\n${table}\n  total              ${[...counts.values()].reduce((a, b) => a + b, 0)}\n` +
				`  secrets checked: ${secrets.length} (client secret + every issued token) in ${everything.length} characters of output, errors and console\n`,
		);
		expect(leaks).toEqual([]);
	});

	describe('token endpoint', () => {
		it('connection refused: names the Access Token URL', async () => {
			const result = await run('token endpoint', 'loanCrmDeals', listDeals, { store: freshStore({ accessTokenUrl: 'http://127.0.0.1:9/token' }) });
			expect(result.error?.message).toMatch(/^Loan CRM credential: could not reach the Access Token URL http:\/\/127\.0\.0\.1:9\/token \(connection refused\)/);
			expect(sandbox.apiRequests()).toHaveLength(0);
		});

		it('a broken token endpoint is asked once per execution, not once per item', async () => {
			sandbox.injectFault({ kind: 'token' }, { status: 500 }, Infinity);
			const input = Array.from({ length: 6 }, () => ({}));
			const result = await run('token endpoint', 'loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: ids().lead }, { input, continueOnFail: true });
			expect(sandbox.tokenRequests()).toHaveLength(1);
			expect(sandbox.apiRequests()).toHaveLength(0);
			expect(result.items).toHaveLength(6);
			for (const item of result.items) expect(item.json.error).toMatch(/Access Token URL .* refused the token request \(500 server_error\)/);
		});

		it('500: says the token URL answered 500', async () => {
			sandbox.injectFault({ kind: 'token' }, { status: 500, body: { message: 'boom' } });
			const result = await run('token endpoint', 'loanCrmDeals', listDeals);
			expect(result.error?.message).toMatch(/Access Token URL .* answered 500/);
			expect(sandbox.apiRequests()).toHaveLength(0);
		});

		// The one real wait of the matrix: the credential's token request times out after 10 s on the
		// machine's clock (n8n's HTTP client's own timer, which no clock of ours moves), so it runs in
		// one of the two suites only: the rate limit does not meter the token endpoint.
		if (rateLimit === false) {
			it('slow past the timeout: fails instead of hanging', async () => {
				// The token endpoint never answers; the credential gives up after 10 s. "timed out" is the
				// proof that it did not wait for it.
				sandbox.injectFault({ kind: 'token' }, { kind: 'custom', handle: () => undefined });
				const result = await run('token endpoint', 'loanCrmDeals', listDeals);
				expect(result.error?.message).toMatch(/could not reach the Access Token URL .* \(timed out\)/);
				expect(sandbox.apiRequests()).toHaveLength(0);
			}, 30_000);
		}

		it('wrong secret: 401 invalid_client, without the secret in the message', async () => {
			const result = await run('token endpoint', 'loanCrmDeals', listDeals, { store: freshStore({ clientSecret: 'Wrong-Secret-4711' }) });
			expect(result.error?.message).toMatch(/rejected the client \(401 invalid_client\)\. Check the Client ID, the Client Secret/);
			expect(JSON.stringify(result.error)).not.toContain('Wrong-Secret-4711');
		});

		it('no access_token in the answer', async () => {
			sandbox.injectFault({ kind: 'token' }, { status: 200, body: { token_type: 'Bearer', expires_in: 3600 } });
			const result = await run('token endpoint', 'loanCrmDeals', listDeals);
			expect(result.error?.message).toMatch(/token response from .* has no access_token/);
		});

		it('not JSON', async () => {
			sandbox.injectFault({ kind: 'token' }, { kind: 'html', status: 200 });
			const result = await run('token endpoint', 'loanCrmDeals', listDeals);
			expect(result.error?.message).toMatch(/answered 200 without a JSON token response/);
		});
	});

	describe('api auth', () => {
		it('401 once: exactly one new token, and the request succeeds', async () => {
			const store = freshStore();
			await run('api auth', 'loanCrmDeals', listDeals, { store });
			sandbox.clearLog();
			sandbox.expireAllTokens();
			const result = await run('api auth', 'loanCrmDeals', listDeals, { store });
			expect(result.error).toBeUndefined();
			expect(sandbox.tokenRequests()).toHaveLength(1);
			expect(sandbox.apiRequests().map((request) => request.status)).toEqual([401, 200]);
		});

		it('401 always: fails after one refresh, at most two token requests for the whole execution', async () => {
			sandbox.injectFault({ kind: 'api' }, { status: 401 }, Infinity);
			const input = Array.from({ length: 5 }, () => ({}));
			const result = await run('api auth', 'loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: ids().lead }, { input, continueOnFail: true });
			expect(sandbox.tokenRequests().length).toBeLessThanOrEqual(2);
			expect(sandbox.apiRequests()).toHaveLength(2);
			expect(result.items).toHaveLength(5);
			for (const item of result.items) expect(item.json.error).toMatch(/rejected the access token \(401\), also after one fresh token/);
		});

		it('403 and 423: no token request at all, their own messages', async () => {
			const store = freshStore();
			await run('api auth', 'loanCrmDeals', listDeals, { store });
			for (const [status, pattern] of [
				[403, /refused access \(403\)/],
				[423, /not enabled \(423\)/],
			] as const) {
				sandbox.clearLog();
				sandbox.injectFault({ kind: 'api' }, { status, body: { errors: [{ status: String(status), title: 'No.' }] } });
				const result = await run('api auth', 'loanCrmDeals', listDeals, { store });
				expect(result.error?.message).toMatch(pattern);
				expect(result.error?.description).toMatch(/new tokens do not fix this/i);
				expect(sandbox.tokenRequests()).toHaveLength(0);
				expect(sandbox.apiRequests()).toHaveLength(1);
			}
		});

		it('a write without rights (UserId not an adviser) is a 403 naming the User ID', async () => {
			const result = await run('api auth', 'loanCrmContacts', { resource: 'contactCategory', operation: 'update', contactCategoryId: ids().contactCategory, name: 'X' }, { store: freshStore({ userId: '5' }) });
			expect(result.error?.message).toMatch(/refused access \(403\)/);
			expect(result.error?.description).toMatch(/User ID/);
		});
	});

	describe('transient faults', () => {
		it('429 asking for a wait beyond When Rate Limited: a clear error at once, saying so, the request not sent again', async () => {
			sandbox.injectFault({ kind: 'api' }, { status: 429, headers: { 'retry-after': '3600' } }, Infinity);
			const result = await run('transient', 'loanCrmDeals', listDeals);
			expect(result.error?.message).toBe('Loan CRM rate limit: the wait is longer than When Rate Limited allows');
			expect(result.error?.description).toMatch(/^The service asked to wait 3600 seconds \(retry-after of a 429\)\. This node waits at most 10 minute\(s\) \(/);
			expect(sandbox.apiRequests()).toHaveLength(1);
		});

		it('429 on a write waits and repeats it: the service refused it before doing anything', async () => {
			sandbox.injectFault({ method: 'PATCH' }, { status: 429, headers: { 'retry-after': '1' } });
			const result = await run('transient', 'loanCrmLeadsAndTasks', { resource: 'task', operation: 'update', taskId: ids().task, updateFields: { progress: 'OnHold' } });
			expect(result.error).toBeUndefined();
			expect(sandbox.apiRequests().map((request) => request.status)).toEqual([429, 200]);
		});

		it.each([
			['POST', 'loanCrmDeals', () => ({ resource: 'dealExternalReference', operation: 'create', externalReference: 'R-1', integrationId: ids().otherIntegration, dealId: ids().dealWithoutCustomStatus })],
			['PATCH', 'loanCrmLeadsAndTasks', () => ({ resource: 'task', operation: 'update', taskId: ids().task, updateFields: { progress: 'Completed' } })],
			['DELETE', 'loanCrmDeals', () => ({ resource: 'dealNote', operation: 'delete', dealNoteId: ids().dealNote })],
		])('503 and a dropped connection on %s: sent exactly once, the error says it may or may not have happened', async (method, nodeType, parameters) => {
			for (const fault of [{ status: 503 }, { kind: 'drop' as const }]) {
				sandbox.clearLog();
				sandbox.injectFault({ method, kind: 'api' }, fault);
				const result = await run('transient', nodeType, parameters());
				expect(sandbox.apiRequests()).toHaveLength(1);
				expect(result.error?.description).toMatch(/sent once and was not repeated automatically.*may or may not have happened/);
			}
		});

		it('503 and dropped connections on GET are retried with backoff, then fail clearly', async () => {
			sandbox.injectFault({ kind: 'api' }, { kind: 'drop' }, Infinity);
			const result = await run('transient', 'loanCrmDeals', listDeals);
			expect(result.error?.message).toMatch(/^Could not reach Loan CRM \(connection closed\) for GET \/jsonapi\/deals/);
			expect(result.error?.description).toMatch(/failed 4 time/);
			expect(sandbox.apiRequests()).toHaveLength(4);
		});
	});

	describe('hostile responses', () => {
		const respond = (status: number, body: string, contentType = 'application/vnd.api+json') => ({
			kind: 'custom' as const,
			handle: (_req: unknown, res: import('http').ServerResponse) => {
				res.writeHead(status, { 'content-type': contentType });
				res.end(body);
			},
		});

		it('malformed JSON on a 200', async () => {
			sandbox.injectFault({ kind: 'api' }, { kind: 'malformedJson' });
			const result = await run('hostile responses', 'loanCrmDeals', listDeals);
			expect(result.error?.message).toMatch(/^Loan CRM answered 200 for GET \/jsonapi\/deals: non-JSON answer: /);
		});

		it('an HTML error page', async () => {
			sandbox.injectFault({ kind: 'api' }, { kind: 'html', status: 500 });
			const result = await run('hostile responses', 'loanCrmDeals', listDeals);
			expect(result.error?.message).toMatch(/\(500\): non-JSON answer: <!doctype html>|\(500\): non-JSON answer: <html/i);
		});

		it('data of the wrong kind: a single resource where a collection belongs', async () => {
			sandbox.injectFault({ kind: 'api' }, respond(200, JSON.stringify({ data: { type: 'deals', id: '1', attributes: {} } })));
			const result = await run('hostile responses', 'loanCrmDeals', listDeals);
			expect(result.error?.message).toMatch(/a single resource where a collection was expected/);
		});

		it('a JSON array or string instead of a document', async () => {
			sandbox.injectFault({ kind: 'api' }, respond(200, '[1,2,3]'));
			const result = await run('hostile responses', 'loanCrmDeals', listDeals);
			expect(result.error?.message).toMatch(/Loan CRM answered 200/);
		});

		it('a server that ignores the keyset filter and repeats a page forever', async () => {
			const page = JSON.stringify({
				data: Array.from({ length: 100 }, (_, index) => ({ type: 'deals', id: String(index + 1), attributes: {} })),
				links: { next: 'http://127.0.0.1/next' },
			});
			sandbox.injectFault({ kind: 'api' }, respond(200, page), Infinity);
			const result = await run('hostile responses', 'loanCrmDeals', { resource: 'deal', operation: 'getMany', returnAll: true });
			expect(result.error?.message).toMatch(/returned the same page again/);
			expect(sandbox.apiRequests()).toHaveLength(2);
		});

		it('links.next pointing at a foreign host is never requested', async () => {
			sandbox.linkHost = 'https://evil.example';
			try {
				const result = await run('hostile responses', 'loanCrmDeals', { resource: 'deal', operation: 'getMany', limit: 150 });
				expect(result.error).toBeUndefined();
				expect(result.items).toHaveLength(150);
				expect(sandbox.apiRequests().length).toBeGreaterThanOrEqual(2);
				expect(sandbox.apiRequests().every((request) => request.headers.host?.startsWith('127.0.0.1'))).toBe(true);
			} finally {
				sandbox.linkHost = undefined;
			}
		});

		it('an included cycle and hostile attribute names: plain, acyclic items and no prototype pollution', async () => {
			const body = JSON.stringify({
				data: [{ type: 'deals', id: '1', attributes: { name: 'a' }, relationships: { contacts: { data: [{ type: 'contacts', id: '2' }] } } }],
				included: [
					{ type: 'contacts', id: '2', attributes: { constructor: { prototype: { polluted: 'yes' } } }, relationships: { deals: { data: [{ type: 'deals', id: '1' }] } } },
					{ type: 'deals', id: '1', attributes: { name: 'a' }, relationships: { contacts: { data: [{ type: 'contacts', id: '2' }] } } },
				],
			}).replace('"name":"a"}', '"name":"a","__proto__":{"polluted":"yes"}}');
			sandbox.injectFault({ kind: 'api' }, respond(200, body));
			const result = await run('hostile responses', 'loanCrmDeals', listDeals);
			expect(result.error).toBeUndefined();
			expect(() => JSON.stringify(result.items)).not.toThrow();
			const [item] = result.items.map((entry) => entry.json);
			expect((item.contacts as IDataObject[])[0].deals).toEqual([{ id: '1', type: 'deals' }]);
			expect(({} as IDataObject).polluted).toBeUndefined();
			expect((item as IDataObject).polluted).toBeUndefined();
		});

		it('a 10 MB page is read without trouble', async () => {
			const big = 'x'.repeat(100_000);
			const body = JSON.stringify({ data: Array.from({ length: 100 }, (_, index) => ({ type: 'deals', id: String(index + 1), attributes: { name: big } })) });
			expect(body.length).toBeGreaterThan(10_000_000);
			sandbox.injectFault({ kind: 'api' }, respond(200, body));
			const result = await run('hostile responses', 'loanCrmDeals', { resource: 'deal', operation: 'getMany', limit: 100 });
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(100);
			expect((result.items[99].json.name as string).length).toBe(100_000);
		});
	});

	describe('hostile input', () => {
		it.each([['abc'], ['0'], ['-7'], ['2147483648'], [' 12 34 '], ['={{ { "id": 5 } }}'], ['={{ [1,2] }}'], ['4.2']])('dealNoteId %j is stopped before any request', async (value) => {
			const result = await run('hostile input', 'loanCrmDeals', { resource: 'dealNote', operation: 'delete', dealNoteId: value });
			expect(result.error?.message).toMatch(/^Parameter "Deal Note ID" must be a record ID \(a whole number\); got /);
			expect(sandbox.requests).toHaveLength(0);
		});

		it.each([["O'Connor"], ["a,b)"], ["x'),or(equals(id,'1'"], ["'"], ['(('], ["'; drop"]])('filter value %j stays inside its literal', async (value) => {
			const result = await run('hostile input', 'loanCrmContacts', {
				resource: 'contact',
				operation: 'getMany',
				limit: 5,
				options: { conditions: { condition: [{ field: 'lastName', operator: 'equals', value }] } },
			});
			expect(result.error).toBeUndefined();
			const [request] = sandbox.apiRequests();
			expect(request.status).toBe(200);
			expect(request.query.filter).toBe(`equals(lastName,'${value.replace(/'/g, "''")}')`);
			const matching = sandbox.data.list('contacts').filter((contact) => contact.attributes.lastName === value);
			expect(result.items).toHaveLength(Math.min(5, matching.length));
		});

		it('an enum value outside the list is sent as given and the service decides', async () => {
			const result = await run('hostile input', 'loanCrmLeadsAndTasks', { resource: 'task', operation: 'update', taskId: ids().task, updateFields: { progress: '={{ "Abandoned" }}' } });
			expect((sandbox.apiRequests()[0].json as { data: { attributes: IDataObject } }).data.attributes.progress).toBe('Abandoned');
			// The parameter the user changes, not the service's attribute name (issue 42).
			expect(result.error?.message).toMatch(/rejected the data \(422\): "Update Fields → Progress": /);
		});

		it.each([
			[{ interestRate: '={{ { "rate": 1 } }}' }, /"Update Fields → Interest Rate" must be a number; got an object/],
			[{ capitaliseLmi: '={{ "maybe" }}' }, /"Update Fields → Capitalise LMI" must be true or false/],
			[{ fixedRateBeginDate: '={{ "next week" }}' }, /"Update Fields → Fixed Rate Begin Date" must be a date \(YYYY-MM-DD\)/],
			[{ rateTermYears: '={{ 1.5 }}' }, /"Update Fields → Rate Term Years" must be a whole number/],
		])('wrong types from expressions are stopped before sending: %j', async (updateFields, message) => {
			const result = await run('hostile input', 'loanCrmDeals', { resource: 'dealStructure', operation: 'update', dealStructureId: ids().dealStructure, updateFields });
			expect(result.error?.message).toMatch(message);
			expect(sandbox.apiRequests()).toHaveLength(0);
		});
	});

	describe('nothing lost', () => {
		const input = Array.from({ length: 50 }, (_, index) => ({ index, leadId: index % 5 === 4 ? '999999' : '' }));
		const parameters = { resource: 'lead', operation: 'get', leadId: `={{ $json.leadId || "${'LEAD'}" }}` };

		it('Continue On Fail: 50 items in, 50 out, in order and paired, every fifth carrying its error', async () => {
			const result = await run('nothing lost', 'loanCrmLeadsAndTasks', { ...parameters, leadId: parameters.leadId.replace('LEAD', ids().lead) }, { input, continueOnFail: true });
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(50);
			result.items.forEach((item, index) => {
				expect(item.pairedItem).toEqual({ item: index });
				if (index % 5 === 4) expect(item.json.error).toMatch(/^Loan CRM has no lead with ID 999999$/);
				else expect(item.json.id).toBe(ids().lead);
			});
		});

		it('without it, one request at a time: the run stops at the first failure, its item index travelling as itemIndex', async () => {
			const sequential = { ...parameters, leadId: parameters.leadId.replace('LEAD', ids().lead), requestOptions: { requestsInParallel: 1 } };
			const result = await run('nothing lost', 'loanCrmLeadsAndTasks', sequential, { input });
			expect(result.error?.message).toBe('Loan CRM has no lead with ID 999999');
			expect(result.error?.context.itemIndex).toBe(4);
			expect(sandbox.apiRequests()).toHaveLength(5);
		});
	});

	describe('secrets', () => {
		it('the credential data never reaches an item, even with Simplify off', async () => {
			const result = await run('secrets', 'loanCrmDeals', { ...listDeals, simplify: false });
			expect(result.error).toBeUndefined();
			const text = JSON.stringify(result.items);
			expect(text).not.toContain(sandbox.clientSecret);
		});
	});
}
