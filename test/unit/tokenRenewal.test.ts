/** When a stored token is renewed before it signs a request (credentials/accessTokens.ts renewalDue). */
import { RENEW_BEFORE_EXPIRY_MS, renewalDue } from '../../credentials/accessTokens';

describe('renewalDue', () => {
	const hour = { fetchedAt: 0, expiresAt: 3_600_000 };

	it('renews an hour-long token a minute before it expires, not earlier', () => {
		expect(RENEW_BEFORE_EXPIRY_MS).toBe(60_000);
		expect(renewalDue(hour, 3_600_000 - 60_001)).toBe(false);
		expect(renewalDue(hour, 3_600_000 - 60_000)).toBe(true);
		expect(renewalDue(hour, 3_600_000 + 1)).toBe(true);
	});

	it('renews a token that lives under two minutes at half its lifetime, so it is used for a while', () => {
		const short = { fetchedAt: 1_000, expiresAt: 11_000 };
		expect(renewalDue(short, 5_999)).toBe(false);
		expect(renewalDue(short, 6_000)).toBe(true);
	});

	it('never renews a token whose expiry the service did not say', () => {
		expect(renewalDue({ fetchedAt: 0 }, Number.MAX_SAFE_INTEGER)).toBe(false);
	});
});
