/*
 * Concurrent token renewals in one process share one token (credentials/accessTokens.ts), through
 * n8n-core's real httpRequestWithAuthentication and the harness's mirror of n8n's credentials
 * helper: many executions that see a 401 at once cause one token request, never more, and never
 * get a token fetched for other credential values or the token the service just rejected.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { RunResult } from '../../harness';
import { CredentialStore, TestClock, runNode, sandboxCredential, waitsPassByThemselves } from '../../harness';
import { testRequestsInFlight } from '../../harness/fixtures/LoanCrmTestRequest.node';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';

const TYPE = 'loanCrmOAuth2Api';
const EXECUTIONS = 20;

async function listOneDeal(store: CredentialStore): Promise<RunResult> {
	return await runNode({
		nodeType: 'loanCrmTestRequest',
		parameters: { method: 'GET', path: '/deals?page[size]=1', headers: '{}' },
		credentials: store,
	});
}

function storedToken(store: CredentialStore): string {
	return String(store.firstOfType(TYPE)?.data.accessToken ?? '');
}

function basic(clientId: string, secret: string): string {
	return `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
}

describe('concurrent token renewals share one token', () => {
	let sb: Sandbox;
	/**
	 * The one clock of the credential and the service. A slow endpoint below is slow on it: time
	 * moves once every request on its way waits (for the slow answer, or for a token being fetched).
	 */
	const clock = TestClock.running();
	let restoreClock: () => void;

	beforeAll(async () => {
		restoreClock = clock.install();
		sb = await startSandbox({ clock });
		waitsPassByThemselves(clock, sb, testRequestsInFlight);
	});

	afterAll(async () => {
		await sb.close();
		restoreClock();
	});

	beforeEach(() => {
		sb.clearFaults();
		sb.clearLog();
	});

	async function storeWithToken(data: ICredentialDataDecryptedObject = sandboxCredential(sb)): Promise<CredentialStore> {
		const store = new CredentialStore([{ type: TYPE, data }]);
		const first = await listOneDeal(store);
		expect(first.error).toBeUndefined();
		return store;
	}

	it(`${EXECUTIONS} executions started at once after the stored token expired make exactly 1 token request`, async () => {
		const store = await storeWithToken();
		const expired = storedToken(store);
		sb.expireAllTokens();
		sb.clearLog();
		// A slow token endpoint, so every execution meets its 401 while the one renewal is under way.
		sb.injectFault({ kind: 'token' }, { kind: 'delay', ms: 300 }, 1);

		const runs = await Promise.all(Array.from({ length: EXECUTIONS }, async () => await listOneDeal(store)));

		expect(runs.map((run) => run.error)).toEqual(runs.map(() => undefined));
		expect(runs.map((run) => run.items.length)).toEqual(runs.map(() => 1));
		expect(sb.tokenRequests()).toHaveLength(1);
		const renewed = sb.issuedTokens().at(-1);
		expect(renewed).not.toBe(expired);
		const api = sb.apiRequests();
		expect(api.filter((r) => r.status === 401).map((r) => r.headers.authorization)).toEqual(runs.map(() => `Bearer ${expired}`));
		expect(api.filter((r) => r.status === 200).map((r) => r.headers.authorization)).toEqual(runs.map(() => `Bearer ${renewed}`));
		expect(api).toHaveLength(2 * EXECUTIONS);
		expect(storedToken(store)).toBe(renewed);
	});

	it('an execution whose stale token predates the renewal reuses the renewed token', async () => {
		const store = await storeWithToken();
		const expired = storedToken(store);
		sb.expireAllTokens();
		sb.clearLog();
		// Both executions read the expired token; one answer is held back until the other has renewed it.
		sb.injectFault({ kind: 'api' }, { kind: 'delay', ms: 500 }, 1);

		const runs = await Promise.all([listOneDeal(store), listOneDeal(store)]);

		expect(runs.map((run) => run.error)).toEqual([undefined, undefined]);
		expect(sb.tokenRequests()).toHaveLength(1);
		const renewed = sb.issuedTokens().at(-1);
		const api = sb.apiRequests();
		expect(api.map((r) => [r.status, r.headers.authorization])).toEqual(
			expect.arrayContaining([
				[401, `Bearer ${expired}`],
				[401, `Bearer ${expired}`],
				[200, `Bearer ${renewed}`],
				[200, `Bearer ${renewed}`],
			]),
		);
		expect(api).toHaveLength(4);
	});

	it('never reuses the token the service just rejected: a revoked renewed token is replaced by a new one', async () => {
		const store = await storeWithToken();
		sb.expireAllTokens();
		expect((await listOneDeal(store)).error).toBeUndefined();
		const renewed = storedToken(store);
		sb.revokeToken(renewed);
		sb.clearLog();

		const runs = await Promise.all([listOneDeal(store), listOneDeal(store), listOneDeal(store)]);

		expect(runs.map((run) => run.error)).toEqual([undefined, undefined, undefined]);
		expect(sb.tokenRequests()).toHaveLength(1);
		const replacement = sb.issuedTokens().at(-1);
		expect(replacement).not.toBe(renewed);
		expect(sb.apiRequests().filter((r) => r.status === 200).map((r) => r.headers.authorization)).toEqual([
			`Bearer ${replacement}`,
			`Bearer ${replacement}`,
			`Bearer ${replacement}`,
		]);
	});

	it('never hands a token to a credential with other values: two clients renewing at once fetch one token each', async () => {
		const other = sb.addClient();
		const storeA = await storeWithToken();
		const storeB = await storeWithToken(sandboxCredential(sb, other));
		sb.expireAllTokens();
		sb.clearLog();
		sb.injectFault({ kind: 'token' }, { kind: 'delay', ms: 300 }, 2);

		const runs = await Promise.all([listOneDeal(storeA), listOneDeal(storeB), listOneDeal(storeA), listOneDeal(storeB)]);

		expect(runs.map((run) => run.error)).toEqual([undefined, undefined, undefined, undefined]);
		expect(sb.tokenRequests().map((r) => r.headers.authorization).sort()).toEqual(
			[basic(sb.clientId, sb.clientSecret), basic(other.clientId, other.clientSecret)].sort(),
		);
		const tokenA = storedToken(storeA);
		const tokenB = storedToken(storeB);
		expect(tokenA).not.toBe(tokenB);
		expect(new Set(sb.issuedTokens().slice(-2))).toEqual(new Set([tokenA, tokenB]));
		expect(sb.apiRequests().filter((r) => r.status === 200).map((r) => r.headers.authorization).sort()).toEqual(
			[`Bearer ${tokenA}`, `Bearer ${tokenA}`, `Bearer ${tokenB}`, `Bearer ${tokenB}`].sort(),
		);
	});

	it('the same client with another scope is other values: it gets a token of its own', async () => {
		const storeA = await storeWithToken();
		const storeB = await storeWithToken(sandboxCredential(sb, { scope: 'api.deals.search' }));
		sb.expireAllTokens();
		sb.clearLog();
		sb.injectFault({ kind: 'token' }, { kind: 'delay', ms: 300 }, 2);

		const runs = await Promise.all([listOneDeal(storeA), listOneDeal(storeB)]);

		expect(runs.map((run) => run.error)).toEqual([undefined, undefined]);
		expect(sb.tokenRequests().map((r) => new URLSearchParams(r.body).get('scope')).sort()).toEqual(['api', 'api.deals.search']);
		expect(storedToken(storeA)).not.toBe(storedToken(storeB));
	});

	it('executions waiting for a renewal that fails all fail with the credential message, after 1 token request', async () => {
		const store = await storeWithToken();
		sb.expireAllTokens();
		sb.clearLog();
		// A slow token endpoint that is down.
		sb.injectFault({ kind: 'token' }, { kind: 'delay', ms: 300, then: { status: 503, body: { error: 'temporarily_unavailable' } } }, 1);

		const runs = await Promise.all(Array.from({ length: 5 }, async () => await listOneDeal(store)));

		expect(sb.tokenRequests()).toHaveLength(1);
		for (const run of runs) {
			expect(run.error?.message).toMatch(/^Loan CRM credential: the Access Token URL .* refused the token request \(503/);
		}
		// The failure is not remembered: the next execution asks again and succeeds.
		sb.clearLog();
		expect((await listOneDeal(store)).error).toBeUndefined();
		expect(sb.tokenRequests()).toHaveLength(1);
	});
});

describe('a shared token past its expires_in', () => {
	it('is not handed to a stale caller: the caller renews before sending and gets a new token, not one the service would reject', async () => {
		// One clock for the credential and the service, moved instead of waited for.
		const clock = TestClock.stopped();
		const restoreClock = clock.install();
		const own = await startSandbox({ tokenLifetimeSeconds: 1, clock });
		try {
			const storeA = new CredentialStore([{ type: TYPE, data: sandboxCredential(own) }]);
			expect((await listOneDeal(storeA)).error).toBeUndefined();
			clock.advance(300);
			// Another credential record with the same values fetches a newer token, which becomes the shared one.
			const storeB = new CredentialStore([{ type: TYPE, data: sandboxCredential(own) }]);
			expect((await listOneDeal(storeB)).error).toBeUndefined();
			const newerButExpired = storedToken(storeB);
			clock.advance(1100);
			own.clearLog();

			const result = await listOneDeal(storeA);

			expect(result.error).toBeUndefined();
			// Its own token is past its stored expiry: renewed before the request, so the service never answers 401.
			expect(own.requests.map((r) => `${r.kind} ${r.status}`)).toEqual(['token 200', 'api 200']);
			expect(storedToken(storeA)).not.toBe(newerButExpired);
			expect(storedToken(storeA)).toBe(own.issuedTokens().at(-1));
		} finally {
			restoreClock();
			await own.close();
		}
	});
});
