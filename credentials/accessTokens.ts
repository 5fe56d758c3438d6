/*
 * Where the Loan CRM credential's access tokens come from, shared within one n8n process.
 *
 * n8n calls `preAuthentication` once per request that met a 401, with no lock: 50 executions on a
 * worker (or parallel item requests) that find the stored token expired would each fetch their own.
 * Here they share one fetch. Entries are keyed by a fingerprint (SHA-256) of every value the user
 * entered, so a token only ever goes to a caller with exactly the values it was fetched with; the
 * secret is never a key or kept here in clear.
 *
 * A caller gets, in this order:
 *   1. the most recently fetched token, if the caller holds a token for the same values that is
 *      older than it and different from it (that older token is what the service just rejected);
 *   2. the token of a fetch for the same values already under way;
 *   3. a token of its own fetch, which later callers then share.
 * A token the caller holds is never handed back, so a token the service just rejected is never
 * reused; a failed fetch is shared by the callers waiting for it and then forgotten.
 */
import { createHash } from 'crypto';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { serviceBaseUrl } from './baseUrl';

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

/** The token the stored credential holds, as `preAuthentication` receives it. */
export function heldToken(credentials: ICredentialDataDecryptedObject): HeldToken {
	const fetchedAt = Number(credentials.accessTokenFetchedAt);
	return {
		accessToken: typeof credentials.accessToken === 'string' ? credentials.accessToken : '',
		fingerprint: typeof credentials.accessTokenFingerprint === 'string' ? credentials.accessTokenFingerprint : '',
		fetchedAt: Number.isFinite(fetchedAt) ? fetchedAt : 0,
	};
}

/** From now on, no token fetched before `since` is handed out for these values (a credential test). */
export function requireTokenFetchedSince(fingerprint: string, since: number): void {
	const entry = entryFor(fingerprint);
	entry.notBefore = Math.max(entry.notBefore, since);
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
	forgetExpired();
	const entry = entryFor(fingerprint);
	const now = Date.now();
	const { latest, inFlight } = entry;
	const holdsTokenForTheseValues = held.accessToken !== '' && held.fingerprint === fingerprint;
	if (
		latest !== undefined &&
		holdsTokenForTheseValues &&
		latest.accessToken !== held.accessToken &&
		latest.fetchedAt > held.fetchedAt &&
		latest.fetchedAt >= entry.notBefore &&
		!hasExpired(latest, now)
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
	const now = Date.now();
	for (const [fingerprint, entry] of entries) {
		if (entry.latest !== undefined && hasExpired(entry.latest, now)) entry.latest = undefined;
		if (entry.latest === undefined && entry.inFlight === undefined && entry.notBefore < now) entries.delete(fingerprint);
	}
}
