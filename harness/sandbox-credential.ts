/*
 * The loanCrmOAuth2Api data for a sandbox. A module of its own (no n8n-core import), so scripts that
 * only need the values, such as the real-n8n e2e run and `npm run dev`, can use it cheaply.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/** What the harness needs from a sandbox (structurally typed, so the harness does not import it). */
export interface SandboxLike {
	baseUrl: string;
	tokenUrl: string;
	clientId: string;
	clientSecret: string;
	userId: string;
}

export interface SandboxCredentialOverrides {
	authentication: 'header' | 'body';
	scope: string;
	userId: string;
	clientId: string;
	clientSecret: string;
	accessTokenUrl: string;
	baseUrl: string;
}

/** The loanCrmOAuth2Api data for a sandbox, as a user would enter it. */
export function sandboxCredential(
	sandbox: SandboxLike,
	overrides: Partial<SandboxCredentialOverrides> = {},
): ICredentialDataDecryptedObject {
	return {
		baseUrl: sandbox.baseUrl,
		accessTokenUrl: sandbox.tokenUrl,
		clientId: sandbox.clientId,
		clientSecret: sandbox.clientSecret,
		scope: 'api',
		authentication: 'header',
		userId: sandbox.userId,
		...overrides,
	};
}
