/*
 * Where the Loan CRM credential's access tokens come from, shared within one n8n process, and what
 * the process knows about the tokens it has seen.
 *
 * n8n calls `preAuthentication` once per request that failed, with no lock: 50 executions on a
 * worker (or parallel item requests) that find the stored token expired would each fetch their own.
 * Here they share one fetch. Entries are keyed by a fingerprint (SHA-256) of every value the user
 * entered, so a token only ever goes to a caller with exactly the values it was fetched with; the
 * secret is never a key or kept here in clear.
 *
 * A caller gets, in this order:
 *   1. the most recently fetched token, if the caller holds a token for the same values that is
 *      older than it and different from it (that older token is what the service just rejected),
 *      and it is not itself due for renewal;
 *   2. the token of a fetch for the same values already under way;
 *   3. a token of its own fetch, which later callers then share.
 * A token the caller holds is never handed back, so a token the service just rejected is never
 * reused; a failed fetch is shared by the callers waiting for it and then forgotten.
 *
 * Besides, by a digest of the token (never the token itself):
 *   - tokens the service rejected (401), so no request is signed with them again and no check is
 *     spent on them (`rememberRejectedToken`, `isRejectedToken`);
 *   - the check whether the service still accepts a token, shared by the callers that failed with
 *     it at about the same time (`tokenStillAccepted`).
 */
import { createHash } from 'crypto';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { serviceBaseUrl } from './baseUrl';
import { packageClock } from './clock';

/** A token fetched from the Access Token URL. */
export interface FetchedToken {
	accessToken: string;
	/** When the token request was sent (ms since the epoch). */
	fetchedAt: number;
	/** When the service said the token expires (ms since the epoch), if it said. */
	expiresAt?: number;
}

/** What the caller already holds, from the stored credential. */
export interface HeldToken {
	accessToken: string;
	/** The fingerprint stored with the token; '' for a token stored before fingerprints existed. */
	fingerprint: string;
	/** When it was fetched; 0 when unknown. */
	fetchedAt: number;
	/** When the service said it expires; undefined when it did not say (or the token predates this field). */
	expiresAt?: number;
}

/**
 * How long before its expiry a token is renewed: a minute, so a request signed with it cannot meet
 * the expiry on its way (a slow write included), or half the token's lifetime for short-lived
 * tokens, so a token is always used for a while.
 */
export const RENEW_BEFORE_EXPIRY_MS = 60_000;

/** Whether a token should be renewed before it signs another request (its expiry is near or past). */
export function renewalDue(token: { fetchedAt: number; expiresAt?: number }, now = packageClock().now()): boolean {
	if (token.expiresAt === undefined) return false;
	const lifetime = Math.max(0, token.expiresAt - token.fetchedAt);
	return now >= token.expiresAt - Math.min(RENEW_BEFORE_EXPIRY_MS, lifetime / 2);
}

interface Entry {
	latest?: FetchedToken;
	inFlight?: { startedAt: number; token: Promise<FetchedToken> };
	/** Tokens fetched before this time are not accepted (a credential test started then). */
	notBefore: number;
}

const entries = new Map<string, Entry>();

/**
 * The fingerprint of the values a token is fetched with: a SHA-256 digest of every value the user
 * entered, normalised as they are used. Stored with the token, so an edit of any of them is seen.
 */
export function credentialFingerprint(credentials: ICredentialDataDecryptedObject): string {
	const text = (name: string) => String(credentials[name] ?? '').trim();
	const values = [
		'loanCrmOAuth2Api/1',
		serviceBaseUrl(credentials.baseUrl),
		text('accessTokenUrl'),
		String(credentials.clientId ?? ''),
		String(credentials.clientSecret ?? ''),
		normalisedScope(credentials.scope),
		credentials.authentication === 'body' ? 'body' : 'header',
		text('userId'),
	];
	return createHash('sha256').update(JSON.stringify(values)).digest('hex');
}

/** The scope as sent to the token URL: space-separated, whatever separators were typed. */
export function normalisedScope(scope: unknown): string {
	return String(scope ?? '')
		.split(/[\s,]+/)
		.filter((part) => part !== '')
		.join(' ');
}

/** A stored time (ms since the epoch, stored as text): the number, or undefined when absent or unreadable. */
function storedTime(value: unknown): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const time = Number(value);
	return Number.isFinite(time) && time > 0 ? time : undefined;
}

/** The token the stored credential holds, as `preAuthentication` receives it. */
export function heldToken(credentials: ICredentialDataDecryptedObject): HeldToken {
	return {
		accessToken: typeof credentials.accessToken === 'string' ? credentials.accessToken : '',
		fingerprint: typeof credentials.accessTokenFingerprint === 'string' ? credentials.accessTokenFingerprint : '',
		fetchedAt: storedTime(credentials.accessTokenFetchedAt) ?? 0,
		expiresAt: storedTime(credentials.accessTokenExpiresAt),
	};
}

/**
 * The fields `preAuthentication` stores with a token. Times are stored as text: n8n 1.x's credential
 * service calls `.startsWith` on every password-typed value when it lists credentials, and a number
 * there breaks the editor's start ("Init Problem … startsWith is not a function").
 */
export function storedTokenFields(fingerprint: string, token: FetchedToken): ICredentialDataDecryptedObject {
	return {
		accessToken: token.accessToken,
		accessTokenFingerprint: fingerprint,
		accessTokenFetchedAt: String(token.fetchedAt),
		accessTokenExpiresAt: token.expiresAt === undefined ? '' : String(token.expiresAt),
	};
}

/** From now on, no token fetched before `since` is handed out for these values (a credential test). */
export function requireTokenFetchedSince(fingerprint: string, since: number): void {
	const entry = entryFor(fingerprint);
	entry.notBefore = Math.max(entry.notBefore, since);
}

/** Callers of `sharedAccessToken` waiting for a token fetch now. */
let waitingForToken = 0;

/**
 * How many requests of this process wait for a token being fetched: they have nothing else to do
 * until it comes (a test clock moves only once the fetch itself waits: harness/clock.ts
 * `waitsPassByThemselves`).
 */
export function requestsWaitingForToken(): number {
	return waitingForToken;
}

/**
 * A token for the values with this fingerprint, other than the one the caller holds, fetching
 * one with `fetchToken` only when no shareable one exists.
 */
export async function sharedAccessToken(
	fingerprint: string,
	held: HeldToken,
	fetchToken: () => Promise<{ accessToken: string; expiresInSeconds?: number }>,
): Promise<FetchedToken> {
	waitingForToken += 1;
	try {
		return await sharedOrFetched(fingerprint, held, fetchToken);
	} finally {
		waitingForToken -= 1;
	}
}

async function sharedOrFetched(
	fingerprint: string,
	held: HeldToken,
	fetchToken: () => Promise<{ accessToken: string; expiresInSeconds?: number }>,
): Promise<FetchedToken> {
	forgetExpired();
	const entry = entryFor(fingerprint);
	const now = packageClock().now();
	const { latest, inFlight } = entry;
	const holdsTokenForTheseValues = held.accessToken !== '' && held.fingerprint === fingerprint;
	if (
		latest !== undefined &&
		holdsTokenForTheseValues &&
		latest.accessToken !== held.accessToken &&
		latest.fetchedAt > held.fetchedAt &&
		latest.fetchedAt >= entry.notBefore &&
		!renewalDue(latest, now)
	) {
		return latest;
	}
	if (inFlight !== undefined && inFlight.startedAt >= entry.notBefore) return await inFlight.token;

	const startedAt = now;
	const token = fetchToken().then(({ accessToken, expiresInSeconds }): FetchedToken => {
		const fetched: FetchedToken = { accessToken, fetchedAt: startedAt };
		if (expiresInSeconds !== undefined && expiresInSeconds > 0) fetched.expiresAt = startedAt + expiresInSeconds * 1000;
		if (entry.latest === undefined || entry.latest.fetchedAt <= startedAt) entry.latest = fetched;
		return fetched;
	});
	const flight = { startedAt, token };
	entry.inFlight = flight;
	try {
		return await token;
	} finally {
		if (entry.inFlight === flight) entry.inFlight = undefined;
	}
}

function entryFor(fingerprint: string): Entry {
	let entry = entries.get(fingerprint);
	if (entry === undefined) {
		entry = { notBefore: 0 };
		entries.set(fingerprint, entry);
	}
	return entry;
}

function hasExpired(token: FetchedToken, now: number): boolean {
	return token.expiresAt !== undefined && now >= token.expiresAt;
}

/** Drops tokens past their expiry, so the process holds no more tokens than are still usable. */
function forgetExpired(): void {
	const now = packageClock().now();
	for (const [fingerprint, entry] of entries) {
		if (entry.latest !== undefined && hasExpired(entry.latest, now)) entry.latest = undefined;
		if (entry.latest === undefined && entry.inFlight === undefined && entry.notBefore < now) entries.delete(fingerprint);
	}
}

// ---------------------------------------------------------------------------------------------
// What the process knows about tokens it has seen, keyed by a digest of the token.

/** How long what is known of a token (rejected, or accepted by a check) is kept when its expiry is not known. */
const TOKEN_FACT_MEMORY_MS = 60 * 60_000;

/** Tokens the service answered 401, with when they can be forgotten (their expiry). */
const rejected = new Map<string, number>();

/** Checks under way or done: when each started and what it found (true: the service accepts the token). */
const checks = new Map<string, Array<{ startedAt: number; accepted: Promise<boolean> }>>();

function tokenDigest(token: string): string {
	return createHash('sha256').update(token).digest('hex');
}

function forgetOldTokenFacts(now: number): void {
	for (const [digest, until] of rejected) if (now >= until) rejected.delete(digest);
	for (const [digest, list] of checks) {
		const recent = list.filter((check) => now - check.startedAt < TOKEN_FACT_MEMORY_MS);
		if (recent.length === 0) checks.delete(digest);
		else checks.set(digest, recent);
	}
}

/** The service answered 401 to a request signed with this token: it is not used again. */
export function rememberRejectedToken(token: string, expiresAt?: number): void {
	if (token === '') return;
	const now = packageClock().now();
	forgetOldTokenFacts(now);
	rejected.set(tokenDigest(token), expiresAt !== undefined && expiresAt > now ? expiresAt : now + TOKEN_FACT_MEMORY_MS);
}

/** Whether the service has rejected this token (401) in this process. */
export function isRejectedToken(token: string): boolean {
	if (token === '') return false;
	const until = rejected.get(tokenDigest(token));
	return until !== undefined && packageClock().now() < until;
}

/**
 * Whether the service still accepts a token that signed a request at `signedAt` which then failed:
 * `check()` asks the service once. A check that started after `signedAt` answers for every request
 * signed before it (a token the service accepts now was accepted then), so callers that failed at
 * about the same time share one; a token found rejected is remembered.
 */
export async function tokenStillAccepted(token: string, signedAt: number, check: () => Promise<boolean>): Promise<boolean> {
	if (isRejectedToken(token)) return false;
	const now = packageClock().now();
	forgetOldTokenFacts(now);
	const digest = tokenDigest(token);
	const list = checks.get(digest) ?? [];
	const usable = list.filter((entry) => entry.startedAt >= signedAt).pop();
	if (usable !== undefined) return await usable.accepted;
	// No answer at all says nothing against the token: treated as accepted, so nothing is repeated.
	const accepted = check().catch(() => true).then((answer) => {
		if (!answer) rememberRejectedToken(token);
		return answer;
	});
	list.push({ startedAt: now, accepted });
	checks.set(digest, list);
	return await accepted;
}
