/**
 * A network failure in words. Never the raw code (ECONNREFUSED & co): n8n replaces any error message
 * containing one with its own generic text, which would hide what failed and where.
 */
const WORDS: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ENOTFOUND: 'host not found',
	EAI_AGAIN: 'host name lookup failed',
	ETIMEDOUT: 'timed out',
	ECONNABORTED: 'timed out',
	ECONNRESET: 'connection closed',
	EPIPE: 'connection closed',
	UND_ERR_SOCKET: 'connection closed',
	EHOSTUNREACH: 'host unreachable',
	ENETUNREACH: 'network unreachable',
	CERT_HAS_EXPIRED: 'TLS certificate expired',
	DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
	UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
};

export function networkErrorCode(error: unknown): string | undefined {
	for (const candidate of [error, (error as { cause?: unknown })?.cause]) {
		const code = (candidate as { code?: unknown })?.code;
		if (typeof code === 'string' && code !== '') return code;
	}
	const message = String((error as { message?: unknown })?.message ?? '');
	if (/timeout/i.test(message)) return 'ETIMEDOUT';
	if (/socket hang up|terminated/i.test(message)) return 'ECONNRESET';
	return undefined;
}

export function networkProblem(code: string | undefined): string {
	return (code && WORDS[code]) ?? 'no answer';
}
