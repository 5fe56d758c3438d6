/**
 * A token that expired between executions costs exactly one new token and one repeat of the
 * request, whether n8n honours `ignoreHttpStatusErrors.except` (n8n 2.x) or not (n8n 1.x).
 *
 * The engine here is n8n-core 2.41. n8n 1.x's request helper is reproduced by the one line that
 * differs: n8n-core 1.122's convertN8nRequestToAxios reads `ignoreHttpStatusErrors` as a boolean
 * (`if (n8nRequest.ignoreHttpStatusErrors) validateStatus = () => true`), so a `{ ignore, except }`
 * object answers every status, 401 included. The real n8n 1.123.81 is covered by `npm run test:e2e`.
 */
import { OutboundHttp } from '@n8n/backend-network';
import type { IHttpRequestOptions } from 'n8n-workflow';

import { CredentialStore, runNode, sandboxCredential } from '../../harness';
import { useSandbox } from './helpers';

type Requests = ReturnType<OutboundHttp['requests']>;

/** Makes n8n-core's HTTP requests read `ignoreHttpStatusErrors` the way n8n 1.x does. */
function emulateN8n1StatusHandling(): jest.SpyInstance {
	const original = OutboundHttp.prototype.requests;
	return jest.spyOn(OutboundHttp.prototype, 'requests').mockImplementation(function (this: OutboundHttp, ...args: Parameters<OutboundHttp['requests']>): Requests {
		const requests = original.apply(this, args);
		return {
			...requests,
			request: async (options: IHttpRequestOptions) =>
				await requests.request({ ...options, ignoreHttpStatusErrors: Boolean(options.ignoreHttpStatusErrors) }),
		} as Requests;
	});
}

const listDeals = { resource: 'deal', operation: 'getMany', limit: 3 };

describe.each([
	['n8n 2.x (honours except)', false],
	['n8n 1.x (ignores except)', true],
])('token renewal on %s', (_label, n8n1) => {
	// On the file's one clock: the slow token endpoint below is slow on it, not on the machine's.
	const env = useSandbox();
	let spy: jest.SpyInstance | undefined;

	beforeEach(() => {
		if (n8n1) spy = emulateN8n1StatusHandling();
	});
	afterEach(() => {
		spy?.mockRestore();
		spy = undefined;
	});

	function freshStore(): CredentialStore {
		const store = new CredentialStore();
		store.add('loanCrmOAuth2Api', sandboxCredential(env.sandbox));
		return store;
	}

	const statuses = () => env.sandbox.apiRequests().map((request) => request.status);

	if (n8n1) {
		it('the emulation answers a 401 that n8n 2.x would throw (as n8n 1.x does)', async () => {
			const store = freshStore();
			await runNode({ nodeType: 'loanCrmDeals', parameters: listDeals, credentials: store });
			env.sandbox.expireAllTokens();
			const requests = new OutboundHttp(...([undefined, { enabled: false }, undefined] as unknown as ConstructorParameters<typeof OutboundHttp>)).requests();
			const answer = (await requests.request({
				url: `${env.sandbox.baseUrl}/jsonapi/deals`,
				headers: { Authorization: 'Bearer expired-token', Accept: 'application/vnd.api+json' },
				returnFullResponse: true,
				ignoreHttpStatusErrors: { ignore: true, except: [401] },
			})) as { statusCode: number };
			expect(answer.statusCode).toBe(401);
		});
	}

	it('an expired token: 401, one new token, the request repeated once; the new token is stored', async () => {
		const store = freshStore();
		await runNode({ nodeType: 'loanCrmDeals', parameters: listDeals, credentials: store });
		env.sandbox.clearLog();
		env.sandbox.expireAllTokens();
		const result = await runNode({ nodeType: 'loanCrmDeals', parameters: listDeals, credentials: store });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		expect(env.sandbox.requests.map((request) => `${request.kind === 'token' ? 'token' : request.method} ${request.status}`)).toEqual(['GET 401', 'token 200', 'GET 200']);
		const renewed = env.sandbox.apiRequests()[1].headers.authorization;
		expect(renewed).not.toBe(env.sandbox.apiRequests()[0].headers.authorization);

		// The next execution uses the stored new token: no token request, no 401.
		env.sandbox.clearLog();
		const next = await runNode({ nodeType: 'loanCrmDeals', parameters: listDeals, credentials: store });
		expect(next.error).toBeUndefined();
		expect(env.sandbox.tokenRequests()).toHaveLength(0);
		expect(statuses()).toEqual([200]);
		expect(env.sandbox.apiRequests()[0].headers.authorization).toBe(renewed);
	});

	it('five items after the expiry: one 401 and one new token for the whole execution', async () => {
		const store = freshStore();
		await runNode({ nodeType: 'loanCrmDeals', parameters: listDeals, credentials: store });
		env.sandbox.clearLog();
		env.sandbox.expireAllTokens();
		const input = Array.from({ length: 5 }, () => ({}));
		const result = await runNode({ nodeType: 'loanCrmLeadsAndTasks', parameters: { resource: 'lead', operation: 'get', leadId: env.sandbox.data.ids.lead }, credentials: store, input });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(5);
		expect(env.sandbox.tokenRequests()).toHaveLength(1);
		expect(statuses()).toEqual([401, 200, 200, 200, 200, 200]);
	});

	it('twenty executions at once after the expiry: one new token between them, each request repeated once', async () => {
		const store = freshStore();
		await runNode({ nodeType: 'loanCrmDeals', parameters: listDeals, credentials: store });
		env.sandbox.clearLog();
		env.sandbox.expireAllTokens();
		// A slow token endpoint, so every execution meets its 401 while the one renewal is under way
		// (the clock moves only once every request waits for that token).
		env.sandbox.injectFault({ kind: 'token' }, { kind: 'delay', ms: 300 }, 1);
		const runs = await Promise.all(Array.from({ length: 20 }, async () => await runNode({ nodeType: 'loanCrmDeals', parameters: listDeals, credentials: store })));
		expect(runs.map((run) => run.error)).toEqual(runs.map(() => undefined));
		expect(runs.map((run) => run.items.length)).toEqual(runs.map(() => 3));
		expect(env.sandbox.tokenRequests()).toHaveLength(1);
		expect(statuses().filter((status) => status === 401)).toHaveLength(20);
		expect(statuses().filter((status) => status === 200)).toHaveLength(20);
	});

	it('a token the API keeps rejecting: two API requests in all, the 401 named in every item', async () => {
		env.sandbox.injectFault({ kind: 'api' }, { status: 401 }, Infinity);
		const input = Array.from({ length: 3 }, () => ({}));
		const result = await runNode({
			nodeType: 'loanCrmLeadsAndTasks',
			parameters: { resource: 'lead', operation: 'get', leadId: env.sandbox.data.ids.lead },
			credentials: freshStore(),
			input,
			continueOnFail: true,
		});
		expect(statuses()).toEqual([401, 401]);
		expect(env.sandbox.tokenRequests()).toHaveLength(2);
		expect(result.items).toHaveLength(3);
		for (const item of result.items) expect(item.json.error).toMatch(/rejected the access token \(401\), also after one fresh token/);
	});

	it("errors keep their HTTP status and the service's detail", async () => {
		const missing = await runNode({ nodeType: 'loanCrmLeadsAndTasks', parameters: { resource: 'lead', operation: 'get', leadId: '999999' }, credentials: freshStore() });
		expect(missing.error?.message).toBe('Loan CRM has no lead with ID 999999');
		env.sandbox.clearLog();
		env.sandbox.injectFault({ kind: 'api' }, { status: 422, body: { errors: [{ status: '422', title: 'Invalid field value.', detail: 'The dealStatus "Bogus" is not allowed.' }] } });
		const invalid = await runNode({ nodeType: 'loanCrmDeals', parameters: listDeals, credentials: freshStore() });
		expect(`${invalid.error?.message} ${invalid.error?.description}`).toMatch(/422/);
		expect(`${invalid.error?.message} ${invalid.error?.description}`).toContain('The dealStatus "Bogus" is not allowed.');
		expect(statuses()).toEqual([422]);
	});
});
