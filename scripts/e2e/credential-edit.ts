/**
 * The credential dialog in the real n8n, over the REST API the editor uses, with a token already
 * stored by earlier executions:
 *   1. open the saved credential (GET /credentials/:id?includeData=true: password fields blanked)
 *      and press Test with what the dialog holds → a new token from the token URL, one deal listed
 *      with it;
 *   2. run a node (manual run of the token workflow) → it uses the token the Test stored;
 *   3. change the Client Secret to a wrong one, Save (PATCH) and Test → the test fails with the
 *      credential's message, without using the still-valid stored token;
 *   4. run the node again → the execution fails with the credential's message; no API request;
 *   5. put the right secret back (so the instance is left as found).
 */
import { CREDENTIAL_BLANKING_VALUE } from 'n8n-workflow';

import type { LoggedRequest, Sandbox } from '../../sandbox';
import type { RecordCheck } from './check-helpers';
import { same } from './check-helpers';
import { N8nRest } from './n8n';
import type { CredentialRef } from './workflows';
import { CREDENTIAL_TYPE } from './workflows';

interface TestAnswer {
	status?: string;
	message?: string;
}

const WRONG_SECRET = 'rotated-with-a-typo-0815';

/**
 * What the dialog and the run sent, in order. The poll triggers run every 5 seconds on another
 * credential meanwhile; their reads (GET /deals or /contacts with a filter — the Test lists one
 * deal without one) are not part of this check and are left out.
 */
function isTriggerPoll(request: LoggedRequest): boolean {
	return request.kind !== 'token' && ['/jsonapi/deals', '/jsonapi/contacts'].includes(request.path) && request.query.filter !== undefined;
}

function sequence(sandbox: Sandbox): string[] {
	return sandbox.requests
		.filter((request: LoggedRequest) => !isTriggerPoll(request))
		.map((request: LoggedRequest) => `${request.kind === 'token' ? 'token' : `${request.method} ${request.path}`} ${request.status}`);
}

export async function checkCredentialEdit(
	port: number,
	sandbox: Sandbox,
	credential: CredentialRef,
	workflow: { id: string; trigger: string },
	record: RecordCheck,
): Promise<void> {
	const rest = await N8nRest.signedIn(port);
	const loaded = await rest.request('GET', `/credentials/${credential.id}?includeData=true`);
	const dialog = ((loaded.json as { data?: { data?: Record<string, unknown> } } | undefined)?.data?.data ?? {}) as { [key: string]: unknown };
	const test = async (data: { [key: string]: unknown }) => {
		const response = await rest.request('POST', '/credentials/test', { credentials: { id: credential.id, name: credential.name, type: CREDENTIAL_TYPE, data } });
		return { response, answer: (response.json as { data?: TestAnswer } | undefined)?.data };
	};

	// 1. Test with a valid token stored.
	sandbox.clearLog();
	const first = await test(dialog);
	const testToken = sandbox.issuedTokens().at(-1);
	const firstSequence = sequence(sandbox);
	const listed = sandbox.apiRequests().find((request) => !isTriggerPoll(request));
	record('credential dialog: Test asks the token URL even while a token is stored, and lists one deal with the new token', [
		...(loaded.status === 200 ? [] : [`GET /rest/credentials/${credential.id}?includeData=true answered ${loaded.status}`]),
		...(dialog.accessToken === CREDENTIAL_BLANKING_VALUE ? [] : [`the dialog data holds no (blanked) stored token: accessToken ${JSON.stringify(dialog.accessToken)}`]),
		...(first.answer?.status === 'OK' ? [] : [`Test answered ${first.response.status} ${first.response.text.slice(0, 300)}`]),
		...same('requests', firstSequence, ['token 200', 'GET /jsonapi/deals 200']),
		...(listed?.headers.authorization === `Bearer ${testToken}` ? [] : ['the deal was not listed with the token the Test fetched']),
		...(listed !== undefined && Object.keys(listed.headers).some((name) => name.startsWith('x-loan-crm')) ? ['the test marker header reached the service'] : []),
	]);

	// 2. A run after the Test uses the token the Test stored.
	sandbox.clearLog();
	const good = await rest.runToEnd(workflow.id, workflow.trigger);
	const goodSequence = sequence(sandbox);
	record('credential dialog: the next run uses the token the Test stored', [
		...(good.problem ? [good.problem] : []),
		...(good.status === 'success' ? [] : [`execution status ${JSON.stringify(good.status)}`]),
		...(goodSequence.length === 1 && /^GET \S+ 200$/.test(goodSequence[0]) ? [] : [`requests ${JSON.stringify(goodSequence)}, expected one GET answered 200`]),
		...(sandbox.apiRequests().find((request) => !isTriggerPoll(request))?.headers.authorization === `Bearer ${testToken}` ? [] : ['the run did not use the token the Test fetched']),
	], good.text.slice(0, 1500));

	// 3. Secret changed to a wrong one: Save, then Test.
	const edited = { ...dialog, clientSecret: WRONG_SECRET };
	const saved = await rest.request('PATCH', `/credentials/${credential.id}`, { name: credential.name, type: CREDENTIAL_TYPE, data: edited });
	sandbox.clearLog();
	const bad = await test(edited);
	const badSequence = sequence(sandbox);
	record('credential dialog: after the secret is changed to a wrong one, Test fails with the credential message', [
		...(saved.status === 200 ? [] : [`PATCH /rest/credentials/${credential.id} answered ${saved.status}: ${saved.text.slice(0, 300)}`]),
		...(bad.answer?.status === 'Error' ? [] : [`Test answered ${bad.response.status} ${bad.response.text.slice(0, 300)}`]),
		...(/rejected the client \(401 invalid_client\)/.test(bad.answer?.message ?? '') ? [] : [`message ${JSON.stringify(bad.answer?.message)} does not say the client was rejected`]),
		...(bad.response.text.includes(WRONG_SECRET) ? ['the answer contains the secret'] : []),
		...same('requests', badSequence, ['token 401']),
	]);

	// 4. A run with the wrong secret saved fails with the credential's message instead of using the old token.
	sandbox.clearLog();
	const failed = await rest.runToEnd(workflow.id, workflow.trigger);
	const failedSequence = sequence(sandbox);
	record('credential dialog: a run after that fails with the credential message instead of using the stored token', [
		...(failed.problem ? [failed.problem] : []),
		...(failed.status === 'error' ? [] : [`execution status ${JSON.stringify(failed.status)}, expected "error"`]),
		...(/rejected the client \(401 invalid_client\)/.test(failed.text) ? [] : ['the execution does not carry the message "rejected the client (401 invalid_client)"']),
		...(failed.text.includes(WRONG_SECRET) ? ['the execution data contains the secret'] : []),
		...same('requests (no API request with the old token)', failedSequence, ['token 401']),
	], failed.text.slice(0, 1500));

	// 5. Leave the credential as found.
	const restored = await rest.request('PATCH', `/credentials/${credential.id}`, { name: credential.name, type: CREDENTIAL_TYPE, data: { ...dialog, clientSecret: sandbox.clientSecret } });
	if (restored.status !== 200) record('credential dialog: the right secret restored', [`PATCH answered ${restored.status}`]);
}
