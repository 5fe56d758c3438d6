/**
 * The time the credential reads (ms since the epoch) for token lifetimes and what it remembers of
 * tokens: the machine's clock in n8n. Tests move it instead of waiting for a token to expire
 * (harness/clock.ts `useCredentialClock`), which keeps `npm test` free of real sleeps.
 */
export const credentialClock: { now: () => number } = { now: () => Date.now() };
