/**
 * Checks that fail in the real n8n for a known reason in the package, not in this suite. Listed
 * here they are reported as KNOWN ISSUE and do not fail the run; LOAN_CRM_E2E_STRICT=1 makes them
 * fail. A listed check that passes fails the run ("remove it from known-issues.ts"), so the list
 * cannot go stale once the package is fixed.
 *
 * Keys are check names as printed by the run; a key ending in '*' matches by prefix.
 */

/*
 * History: until commit f2623ed, n8n <= 2.33 (including the 2.30.0 used here) made every HTTP error
 * read as "Could not reach Loan CRM (no answer)": n8n-workflow's ExecutionBaseError declared a
 * `cause` class field that reset the native cause, so transport.ts found no response on the
 * NodeApiError. The 'errors/…' checks and the failing-request check were listed here until then.
 */
export const KNOWN_ISSUES: Record<string, string> = {};

export function knownIssue(checkName: string): string | undefined {
	for (const [key, reason] of Object.entries(KNOWN_ISSUES)) {
		if (key.endsWith('*') ? checkName.startsWith(key.slice(0, -1)) : key === checkName) return reason;
	}
	return undefined;
}
