/**
 * Custom API Call in the real n8n: n8n's HTTP Request node (the version n8n adds by default) with
 * Authentication "Predefined Credential Type" → Loan CRM OAuth2 API, and the package's own Custom
 * Request, in one `n8n execute` of one chain of nodes. The sandbox's request log is the evidence:
 *
 * - reads and writes through the HTTP Request node with Response Format JSON only (the README's
 *   one setting): the token a package-node execution stored, the JSON:API media types, the UserId;
 * - a POST answered 500 and a Raw POST answered 415: each sent once, one check of the token, no new
 *   token; a GET and a POST whose token the service rejected: the check, one new token, one repeat;
 * - Custom Request: a read, a write, a POST answered 500 (sent once, no check, no token) and a POST
 *   whose token was rejected (one new token, one repeat, no check);
 * - a token near its expiry renewed before the request (the service never answers 401).
 *
 * Tokens are rejected by the sandbox as the marked request arrives (`beforeHandle`), so the chain
 * needs no second execution. With `n8n start`: the editor's credential types list the credential
 * for the HTTP Request node, the node types carry our Custom Request and not n8n's Custom API Call
 * option (the action nodes state their defaultVersion, so n8n adds none), and the credential
 * list the editor loads at start answers with a token stored (n8n 1.x failed there before tokens
 * were stored with text times).
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import type { LoggedRequest, Sandbox } from '../../sandbox';
import type { RecordCheck } from './check-helpers';
import { nodeItems, same } from './check-helpers';
import type { N8nInstance } from './n8n';
import { N8nRest } from './n8n';
import type { CredentialRef, WorkflowFile } from './workflows';
import { CREDENTIAL_TYPE, MANUAL, PACKAGE, chain, loanCrmNode, manualTrigger, workflowFile } from './workflows';

export const CUSTOM_API_CALL_WORKFLOW_ID = 'lcE2eCustomCall1';
/** The lifetime of the token fetched after the last rejection, and how long the chain then waits: past half of it. */
const SHORT_LIFETIME_SECONDS = 10;
const WAIT_SECONDS = 6;

/** Titles and paths that mark a request of the chain in the sandbox's log. */
const MARK = {
	post: 'E2E Custom API Call note',
	postAfterRejection: 'E2E Custom API Call note after a rejected token',
	customPost: 'E2E Custom Request note',
	customPostAfterRejection: 'E2E Custom Request note after a rejected token',
	/** Both 500s go to this path (a fault injected twice); nothing else in the chain posts there. */
	failingPath: '/jsonapi/deal-external-references',
	/** The GET whose token the sandbox rejects as it arrives. */
	rejectedGetPath: '/jsonapi/deal-securities',
	/** The GET after the wait, whose token is due for renewal. */
	afterWaitPath: '/jsonapi/contacts',
} as const;

/** The HTTP Request node's default version in the n8n installed in `n8nDir` (what a new node gets in the editor). */
export function httpRequestNodeVersion(n8nDir: string): number {
	const file = join(n8nDir, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js');
	const match = /defaultVersion:\s*([\d.]+)/.exec(readFileSync(file, 'utf8'));
	if (!match) throw new Error(`no defaultVersion in ${file}`);
	return Number(match[1]);
}

interface HttpOptions {
	body?: IDataObject;
	raw?: { contentType: string; body: string };
	headers?: Record<string, string>;
	query?: Record<string, string>;
}

/**
 * A Custom API Call as the README sets it up: n8n's HTTP Request node (version `httpVersion`) with
 * Authentication Predefined Credential Type → Loan CRM OAuth2 API and Response Format JSON, nothing
 * else but what `options` adds.
 */
export function customApiCallNode(name: string, method: string, url: string, httpVersion: number, credential: CredentialRef, options: HttpOptions = {}): INode {
	const parameters: INodeParameters = {
		method,
		url,
		authentication: 'predefinedCredentialType',
		nodeCredentialType: CREDENTIAL_TYPE,
		options: { response: { response: { responseFormat: 'json' } } },
	};
	if (options.body) Object.assign(parameters, { sendBody: true, contentType: 'json', specifyBody: 'json', jsonBody: JSON.stringify(options.body) });
	if (options.raw) Object.assign(parameters, { sendBody: true, contentType: 'raw', rawContentType: options.raw.contentType, body: options.raw.body });
	if (options.headers) Object.assign(parameters, { sendHeaders: true, specifyHeaders: 'keypair', headerParameters: { parameters: Object.entries(options.headers).map(([n, value]) => ({ name: n, value })) } });
	if (options.query) Object.assign(parameters, { sendQuery: true, specifyQuery: 'keypair', queryParameters: { parameters: Object.entries(options.query).map(([n, value]) => ({ name: n, value })) } });
	return { id: '', name, type: 'n8n-nodes-base.httpRequest', typeVersion: httpVersion, position: [0, 0], parameters, credentials: { [CREDENTIAL_TYPE]: credential } };
}

export function customApiCallWorkflow(sandbox: Sandbox, credential: CredentialRef, httpVersion: number): WorkflowFile {
	const ids = sandbox.data.ids;
	const base = `${sandbox.baseUrl}/jsonapi`;
	// A note of the fixture deal that the operations workflow neither changes nor deletes.
	const noteId = sandbox.data.list('deal-notes').find((note) => note.id !== ids.dealNote)?.id ?? ids.dealNote;
	const note = (title: string, deal: string) => ({ data: { type: 'deal-notes', attributes: { title, detail: 'e2e' }, relationships: { deal: { data: { type: 'deals', id: deal } } } } });
	const reference = { data: { type: 'deal-external-references', attributes: { externalReference: 'E2E-500' }, relationships: { deal: { data: { type: 'deals', id: ids.dealWithoutNotes } }, integration: { data: { type: 'integrations', id: ids.otherIntegration } } } } };
	const http = (name: string, method: string, url: string, options: HttpOptions = {}) => customApiCallNode(name, method, url, httpVersion, credential, options);
	const custom = (name: string, parameters: INodeParameters): INode => loanCrmNode(name, 'loanCrmDeals', { resource: 'customRequest', operation: 'send', ...parameters }, { id: '', credential });
	const steps: INode[] = [
		http('HTTP: GET deals', 'GET', `${base}/deals`, { query: { 'page[size]': '3', sort: '-id' } }),
		http('HTTP: PATCH note', 'PATCH', `${base}/deal-notes/${noteId}`, { body: { data: { type: 'deal-notes', id: noteId, attributes: { title: 'E2E patched by HTTP Request' } } } }),
		http('HTTP: POST note', 'POST', `${base}/deal-notes`, { body: note(MARK.post, ids.dealWithoutNotes) }),
		http('HTTP: POST answered 500', 'POST', `${sandbox.baseUrl}${MARK.failingPath}`, { body: reference }),
		http('HTTP: Raw POST application/json', 'POST', `${base}/deal-notes`, { raw: { contentType: 'application/json', body: JSON.stringify(note('E2E raw', ids.dealWithoutNotes)) } }),
		http('HTTP: GET as adviser 1002', 'GET', `${base}/integrations`, { headers: { UserId: '1002' } }),
		http('HTTP: GET, token rejected', 'GET', `${sandbox.baseUrl}${MARK.rejectedGetPath}`, { query: { 'page[size]': '2' } }),
		http('HTTP: POST, token rejected', 'POST', `${base}/deal-notes`, { body: note(MARK.postAfterRejection, ids.dealWithoutNotes) }),
		custom('Custom Request: GET integrations', { method: 'GET', path: '/integrations', returnAll: true }),
		custom('Custom Request: POST note', { method: 'POST', path: '/deal-notes', jsonBody: JSON.stringify(note(MARK.customPost, ids.dealWithoutNotes)) }),
		custom('Custom Request: POST answered 500', { method: 'POST', path: MARK.failingPath.replace('/jsonapi', ''), jsonBody: JSON.stringify(reference) }),
		custom('Custom Request: POST, token rejected', { method: 'POST', path: '/deal-notes', jsonBody: JSON.stringify(note(MARK.customPostAfterRejection, ids.dealWithoutNotes)) }),
		{ id: '', name: 'Wait past half the token lifetime', type: 'n8n-nodes-base.wait', typeVersion: 1.1, position: [0, 0], parameters: { resume: 'timeInterval', amount: WAIT_SECONDS, unit: 'seconds' } },
		http('HTTP: GET, token due', 'GET', `${sandbox.baseUrl}${MARK.afterWaitPath}`, { query: { 'page[size]': '1' } }),
	];
	// One item through the chain, whatever a node outputs. Every node passes an error on as an
	// item, so one unexpected failure shows up in the checks and does not hide the later ones.
	const nodes = steps.map((node, index): INode => ({ ...node, id: `custom-call-${index + 1}`, position: [250 * (index + 1), 0], executeOnce: true, onError: 'continueRegularOutput' }));
	return workflowFile(CUSTOM_API_CALL_WORKFLOW_ID, 'E2E: Custom API Call and Custom Request', [manualTrigger(), ...nodes], chain(MANUAL, ...nodes.map((node) => node.name)));
}

function isTokenCheck(request: LoggedRequest): boolean {
	return request.method === 'GET' && request.path === '/jsonapi/deals' && decodeURIComponent(request.rawQuery) === 'page[size]=1';
}

function titleOf(request: LoggedRequest): string | undefined {
	try {
		return (JSON.parse(request.body) as { data?: { attributes?: { title?: string } } }).data?.attributes?.title;
	} catch {
		return undefined;
	}
}

/** `token`, `check <status>` or `<METHOD> <path> <status>`, in arrival order. */
function describe(request: LoggedRequest): string {
	if (request.kind === 'token') return 'token';
	if (isTokenCheck(request)) return `check ${request.status}`;
	return `${request.method} ${request.path} ${request.status}`;
}

/** The requests from `first` (matched) to the next node's, as described. */
function slice(log: LoggedRequest[], from: (request: LoggedRequest) => boolean, to?: (request: LoggedRequest) => boolean): string[] {
	const start = log.findIndex(from);
	if (start < 0) return [];
	const rest = log.slice(start + 1);
	const end = to === undefined ? -1 : rest.findIndex(to);
	return [log[start], ...(end < 0 ? rest : rest.slice(0, end))].map(describe);
}

/**
 * One `n8n execute` of the chain, after a package-node execution stored the credential's token.
 * The sandbox rejects the token of three marked requests as they arrive and shortens the lifetime
 * of the tokens issued after the last of them.
 */
export async function checkCustomApiCall(n8n: N8nInstance, sandbox: Sandbox, record: RecordCheck): Promise<void> {
	// The token the credential's last package-node execution (the errors workflow) used.
	const storedToken = /^Bearer (\S+)$/.exec(sandbox.apiRequests().at(-1)?.headers.authorization ?? '')?.[1];
	const rejectOnce = new Set<string>([MARK.rejectedGetPath, MARK.postAfterRejection, MARK.customPostAfterRejection]);
	sandbox.clearLog();
	sandbox.injectFault({ method: 'POST', path: MARK.failingPath, kind: 'api' }, { status: 500, body: { errors: [{ status: '500', title: 'Internal error', detail: 'E2E: the reference store failed.' }] } }, 2);
	sandbox.beforeHandle = (request) => {
		const mark = request.path === MARK.rejectedGetPath ? request.path : request.method === 'POST' ? titleOf(request) : undefined;
		if (mark === undefined || !rejectOnce.delete(mark)) return;
		const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
		if (token !== undefined) sandbox.revokeToken(token);
		if (mark === MARK.customPostAfterRejection) sandbox.tokenLifetimeSeconds = SHORT_LIFETIME_SECONDS;
	};
	let result: Awaited<ReturnType<N8nInstance['execute']>>;
	try {
		result = await n8n.execute(CUSTOM_API_CALL_WORKFLOW_ID);
	} finally {
		sandbox.beforeHandle = undefined;
		sandbox.clearFaults();
		sandbox.tokenLifetimeSeconds = 3600;
	}
	const output = result.stdout + result.stderr;
	const log = sandbox.requests.slice();
	const run = result.run;
	const context = `requests: ${log.map(describe).join(', ')}\nn8n execute output (tail): ${output.slice(-3000)}`;
	const items = (name: string) => nodeItems(run, name)?.map((item) => item.json) ?? [];
	const api = log.filter((request) => request.kind === 'api');
	const find = (predicate: (request: LoggedRequest) => boolean) => api.find(predicate);
	const ranBefore = run !== undefined ? [] : [`n8n execute printed no run (exit ${result.code})`];

	// --- reads and writes with Response Format JSON only -----------------------------------------
	const get = find((request) => request.path === '/jsonapi/deals' && request.query.sort === '-id');
	const patch = find((request) => request.method === 'PATCH');
	const post = find((request) => titleOf(request) === MARK.post);
	const document = items('HTTP: GET deals')[0] as { data?: unknown[] } | undefined;
	record('custom api call: the HTTP Request node reads and writes with Response Format JSON only, with the token a package node stored', [
		...ranBefore,
		...(get === undefined ? ['no GET /jsonapi/deals reached the sandbox'] : [...same('GET status', get.status, 200), ...same('GET Authorization', get.headers.authorization, `Bearer ${storedToken}`)]),
		...(get !== undefined && !(get.headers.accept ?? '').startsWith('application/vnd.api+json') ? [`GET Accept ${JSON.stringify(get.headers.accept)}`] : []),
		...same('GET answer parsed as a document with 3 deals', Array.isArray(document?.data) ? document?.data.length : typeof document?.data, 3),
		...(patch === undefined ? ['no PATCH reached the sandbox'] : [...same('PATCH status', patch.status, 200), ...same('PATCH Content-Type', patch.headers['content-type'], 'application/vnd.api+json')]),
		...(post === undefined ? ['no POST of the note reached the sandbox'] : [...same('POST status', post.status, 201), ...same('POST Content-Type', post.headers['content-type'], 'application/vnd.api+json')]),
		...same('notes created by the POST', sandbox.data.list('deal-notes').filter((note) => note.attributes.title === MARK.post).length, 1),
		...same('UserId of every request but the override', api.filter((request) => !isOverride(request)).map((request) => request.headers.userid).filter((id) => id !== sandbox.userId), []),
		...same('UserId of the request with the header UserId 1002', find(isOverride)?.headers.userid, '1002'),
		...same('token requests before the first rejected token', log.slice(0, log.findIndex((request) => request.path === MARK.rejectedGetPath)).filter((request) => request.kind === 'token').length, 0),
	], context);

	// --- failures that are not the token's: sent once, no new token ------------------------------
	const failingPosts = api.filter((request) => request.method === 'POST' && request.path === MARK.failingPath);
	const httpFailure = items('HTTP: POST answered 500')[0];
	record('custom api call: a POST answered 500 and a Raw POST answered 415 are each sent once, with one check of the token and no new token', [
		...same('HTTP Request POST answered 500', slice(log, (request) => request === failingPosts[0], (request) => !isTokenCheck(request)), [`POST ${MARK.failingPath} 500`, 'check 200']),
		...same('Raw POST with Content-Type application/json', slice(log, (request) => titleOf(request) === 'E2E raw', (request) => !isTokenCheck(request)), ['POST /jsonapi/deal-notes 415', 'check 200']),
		...(JSON.stringify(httpFailure ?? {}).includes('E2E: the reference store failed.') ? [] : [`the error item does not carry the service's detail: ${String(JSON.stringify(httpFailure)).slice(0, 300)}`]),
	], context);

	// --- rejected tokens: one check, one new token, one repeat ------------------------------------
	record('custom api call: a GET and a POST whose token the service rejected: the check, one new token, one repeat (one record)', [
		...same('GET', slice(log, (request) => request.path === MARK.rejectedGetPath, (request) => request.path === '/jsonapi/deal-notes'), [
			`GET ${MARK.rejectedGetPath} 401`,
			'check 401',
			'token',
			`GET ${MARK.rejectedGetPath} 200`,
		]),
		...same('POST', slice(log, (request) => titleOf(request) === MARK.postAfterRejection, (request) => request.path === '/jsonapi/integrations'), [
			'POST /jsonapi/deal-notes 401',
			'check 401',
			'token',
			'POST /jsonapi/deal-notes 201',
		]),
		...same('notes created by that POST', sandbox.data.list('deal-notes').filter((note) => note.attributes.title === MARK.postAfterRejection).length, 1),
	], context);

	// --- the package's Custom Request -----------------------------------------------------------
	const integrations = items('Custom Request: GET integrations');
	record('custom request: a read, a write, a POST answered 500 sent once (no check, no token), a rejected token renewed once (no check)', [
		...same('integrations read', integrations.map((item) => item.name), ['MyIntegrationSource', 'Salesforce', 'HubSpot CRM', 'Broker Portal']),
		...same('POST', slice(log, (request) => titleOf(request) === MARK.customPost), ['POST /jsonapi/deal-notes 201', `POST ${MARK.failingPath} 500`, 'POST /jsonapi/deal-notes 401', 'token', 'POST /jsonapi/deal-notes 201', 'token', `GET ${MARK.afterWaitPath} 200`]),
		...same('notes created', [MARK.customPost, MARK.customPostAfterRejection].map((title) => sandbox.data.list('deal-notes').filter((note) => note.attributes.title === title).length), [1, 1]),
		...(String(items('Custom Request: POST answered 500')[0]?.error ?? '').startsWith(`Loan CRM failed to process POST ${MARK.failingPath} (500)`) ? [] : [`error item ${String(JSON.stringify(items('Custom Request: POST answered 500')[0])).slice(0, 300)}`]),
	], context);

	// --- renewal before expiry ---------------------------------------------------------------------
	record(`custom api call: a token ${WAIT_SECONDS} s into a ${SHORT_LIFETIME_SECONDS} s lifetime is renewed before the request (no 401)`, [
		...same('requests of the last node', slice(log, (request) => request.kind === 'token' && log.indexOf(request) > log.findIndex((r) => titleOf(r) === MARK.customPostAfterRejection && r.status === 201)), ['token', `GET ${MARK.afterWaitPath} 200`]),
		...same('answer', (items('HTTP: GET, token due')[0] as { data?: unknown[] } | undefined)?.data?.length, 1),
	], context);

	// --- nothing leaks ----------------------------------------------------------------------------
	const leaks = [...sandbox.issuedTokens().filter((token) => output.includes(token)).map(() => 'an access token'), ...(output.includes(sandbox.clientSecret) ? ['the client secret'] : [])];
	record('custom api call: no token or secret in what n8n printed', [...new Set(leaks)].map((leak) => `${leak} appears in the output`));
}

function isOverride(request: LoggedRequest): boolean {
	return request.path === '/jsonapi/integrations' && request.headers.userid === '1002';
}

/**
 * With `n8n start`: what the editor loads. `/types/credentials.json` lists the credential with an
 * `authenticate` key (the HTTP Request node's Predefined Credential Type list keeps only those) and
 * without the flags that hide it; `/types/nodes.json` gives the action nodes' Resource lists Custom
 * Request and not n8n's Custom API Call (our defaultVersion keeps n8n from adding it: one custom entry,
 * which says what it is for); the credential list with data (loaded at the editor's start)
 * answers while a token is stored.
 */
export async function checkCustomApiCallEditor(port: number, credential: CredentialRef, record: RecordCheck): Promise<void> {
	const problems: string[] = [];
	const rest = await N8nRest.signedIn(port);
	// n8n 2.41 serves the editor's type files to a signed-in user only.
	const types = async (file: string): Promise<Array<{ name: string; [key: string]: unknown }>> => {
		const response = await rest.getWithSession(`/types/${file}`);
		if (response.status !== 200) {
			problems.push(`/types/${file} answered ${response.status}`);
			return [];
		}
		return JSON.parse(response.text) as Array<{ name: string; [key: string]: unknown }>;
	};
	const credentialType = (await types('credentials.json')).find((entry) => entry.name === CREDENTIAL_TYPE);
	if (credentialType === undefined) problems.push(`/types/credentials.json has no ${CREDENTIAL_TYPE}`);
	else {
		if (credentialType.authenticate === undefined) problems.push('its entry has no authenticate key: the HTTP Request node would not list it');
		for (const flag of ['hidden', 'genericAuth', 'restrictToSupportedNodes']) if (credentialType[flag] === true) problems.push(`its entry sets ${flag}`);
		if ((credentialType.httpRequestNode as { name?: string } | undefined)?.name !== 'Loan CRM') problems.push(`httpRequestNode ${JSON.stringify(credentialType.httpRequestNode)}`);
	}
	const nodes = await types('nodes.json');
	for (const name of ['loanCrmDeals', 'loanCrmContacts', 'loanCrmLeadsAndTasks', 'loanCrmOrganisationsAndAssets']) {
		// A node of several versions lists them all (version: [1, 1.1, 1.2]); each has Custom Request, and
		// n8n's Custom API Call in none of its lists (Resource, every Operation).
		const node = nodes.find((entry) => entry.name === `${PACKAGE}.${name}` && ([] as unknown[]).concat(entry.version).includes(1)) as { properties?: Array<{ name: string; options?: Array<{ value?: unknown }> }> } | undefined;
		const lists = node?.properties?.filter((property) => property.name === 'resource' || property.name === 'operation') ?? [];
		const values = lists.flatMap((property) => property.options?.map((option) => option.value) ?? []);
		if (values.includes('__CUSTOM_API_CALL__')) problems.push(`${name}: n8n's Custom API Call option is in its Resource or Operation list`);
		if (!lists.find((property) => property.name === 'resource')?.options?.some((option) => option.value === 'customRequest')) problems.push(`${name}: no Custom Request resource`);
	}
	record("editor: the HTTP Request node's Predefined Credential Type list can offer Loan CRM OAuth2 API; the action nodes list Custom Request, not n8n's Custom API Call", problems);

	const list = await rest.request('GET', '/credentials?includeScopes=true&includeData=true');
	const entry = ((list.json as { data?: Array<{ id: string; data?: IDataObject }> } | undefined)?.data ?? []).find((item) => item.id === credential.id);
	record('editor: the credential list the editor loads at start answers while a token is stored', [
		...same('GET /rest/credentials?includeScopes=true&includeData=true status', list.status, 200),
		...(list.status === 200 && entry === undefined ? [`credential ${credential.id} is not listed`] : []),
	], list.text.slice(0, 500));
}
