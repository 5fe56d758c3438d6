import { existsSync } from 'fs';

import type { ICredentialType, IDataObject, INode, IHttpRequestOptions } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import {
	CredentialStore,
	CredentialTypes,
	HARNESS_PACKAGE,
	NOOP_TYPE,
	START_NODE_TYPE,
	createAdditionalData,
	loadPackageSource,
	nodeTypes,
	readPackageJson,
	runNode,
	runPoll,
	runWorkflow,
	sandboxCredential,
	sourcePathFor,
} from '../../harness';
import { credentialFingerprint } from '../../credentials/accessTokens';

const THROW = `${HARNESS_PACKAGE}.harnessThrow`;

function node(name: string, type: string, parameters: INode['parameters'] = {}, extra: Partial<INode> = {}): INode {
	return { id: name, name, type, typeVersion: 1, position: [0, 0], parameters, ...extra };
}

describe('node registry', () => {
	it('holds the harness nodes, NoOp and every package node whose source exists', () => {
		const types = nodeTypes();
		expect(types.has(START_NODE_TYPE)).toBe(true);
		expect(types.has(NOOP_TYPE)).toBe(true);
		expect(types.has(`${HARNESS_PACKAGE}.loanCrmTestRequest`)).toBe(true);
		const pkg = readPackageJson();
		expect(pkg.n8n?.nodes).toHaveLength(8); // four action nodes, four triggers (one hidden, for saved workflows; one on webhooks)
		for (const distPath of pkg.n8n?.nodes ?? []) {
			const source = sourcePathFor(distPath);
			const known = types.getKnownTypes() as Record<string, { sourcePath: string }>;
			const registered = types.list().some((type) => known[type]?.sourcePath === source);
			expect({ distPath, registered }).toEqual({ distPath, registered: existsSync(source) });
		}
	});

	it('maps package.json dist paths to sources and reports missing ones', () => {
		expect(sourcePathFor('dist/nodes/A/A.node.js')).toMatch(/\/nodes\/A\/A\.node\.ts$/);
		const source = loadPackageSource();
		expect(source.packageName).toBe('n8n-nodes-loan-crm');
		expect(source.credentials.map((c) => c.name)).toEqual(['loanCrmOAuth2Api']);
		const listed = [...(readPackageJson().n8n?.nodes ?? []), ...(readPackageJson().n8n?.credentials ?? [])];
		expect(source.nodes.length + source.credentials.length + source.missing.length).toBe(listed.length);
	});

	it("post-processes source nodes like n8n-core's loader (poll times on polling nodes)", () => {
		let polling = 0;
		for (const { type } of loadPackageSource().nodes) {
			const descriptions = 'nodeVersions' in type ? Object.values(type.nodeVersions).map((v) => v.description) : [type.description];
			for (const description of descriptions) {
				if (!description.polling) continue;
				polling += 1;
				expect(description.properties[0].name).toBe('pollTimes');
			}
		}
		// The trigger.
		expect(polling).toBe(3); // the three triggers
		const poll = nodeTypes().getByNameAndVersion(`${HARNESS_PACKAGE}.harnessPollTrigger`);
		expect(poll.description.properties[0].name).toBe('pollTimes');
	});

	it('resolves short names to the package first, then to harness nodes', () => {
		const types = nodeTypes();
		expect(types.resolve('loanCrmTestRequest')).toBe(`${HARNESS_PACKAGE}.loanCrmTestRequest`);
		expect(types.resolve('loanCrmDeals')).toBe('n8n-nodes-loan-crm.loanCrmDeals');
		expect(types.resolve('x.y')).toBe('x.y');
	});
});

describe('runWorkflow / runNode', () => {
	it('runs a workflow and passes items through', async () => {
		const result = await runWorkflow({
			nodes: [
				node('Start', START_NODE_TYPE, { items: JSON.stringify([{ a: 1 }, { a: 2 }]) }),
				node('Pass', NOOP_TYPE),
				node('Check', THROW),
			],
			connections: {
				Start: { main: [[{ node: 'Pass', type: 'main', index: 0 }]] },
				Pass: { main: [[{ node: 'Check', type: 'main', index: 0 }]] },
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.output('Start').map((i) => i.json)).toEqual([{ a: 1 }, { a: 2 }]);
		expect(result.output('Pass').map((i) => i.json)).toEqual([{ a: 1 }, { a: 2 }]);
		expect(result.output('Check').map((i) => i.json)).toEqual([
			{ a: 1, passed: true },
			{ a: 2, passed: true },
		]);
		expect(result.output('Check').map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(result.output('Nope')).toEqual([]);
		expect(result.run.status).toBe('success');
	});

	it('feeds input items to a single node and resolves expressions against them', async () => {
		const result = await runNode({
			nodeType: 'harnessThrow',
			parameters: { message: '={{ "bad " + $json.n }}' },
			input: [{ n: 1 }, { n: 2, fail: true }],
			continueOnFail: true,
		});
		expect(result.nodeName).toBe('Harness Throw');
		expect(result.items.map((i) => i.json)).toEqual([{ n: 1, passed: true }, { error: 'bad 2' }]);
	});

	it('surfaces a node error as the run error', async () => {
		const result = await runNode({
			nodeType: 'harnessThrow',
			parameters: { message: 'boom' },
			input: [{ fail: true }],
		});
		expect(result.items).toEqual([]);
		// The engine records errors as plain copies ({ ...error, message, stack }), like n8n stores them.
		expect(result.error).toMatchObject({ name: 'NodeOperationError', message: 'boom' });
		expect(result.run.status).toBe('error');
	});

	it('continueOnFail sets onError so n8n-core reports continueOnFail() = true', async () => {
		const result = await runNode({
			nodeType: 'harnessThrow',
			parameters: {},
			input: [{ fail: true }, { ok: 1 }],
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json)).toEqual([
			{ error: 'Item failed on purpose' },
			{ ok: 1, passed: true },
		]);
		const nodeDef = result.run.data.resultData.runData[result.nodeName];
		expect(nodeDef).toHaveLength(1);
	});

	it('binds the store credential to nodes that declare its type', async () => {
		const store = new CredentialStore([{ type: 'loanCrmOAuth2Api', data: { baseUrl: 'http://127.0.0.1:9' } }]);
		const result = await runWorkflow(
			{
				nodes: [node('Start', START_NODE_TYPE), node('Req', `${HARNESS_PACKAGE}.loanCrmTestRequest`)],
				connections: { Start: { main: [[{ node: 'Req', type: 'main', index: 0 }]] } },
			},
			{ credentials: store },
		);
		const req = result.workflow.getNode('Req');
		const record = store.firstOfType('loanCrmOAuth2Api');
		expect(req?.credentials).toEqual({ loanCrmOAuth2Api: { id: record?.id, name: record?.name } });
		// Port 9 is closed: the run fails, but through the credential (token URL empty).
		expect(result.error).toBeDefined();
	});

	it('reports workflow issues (missing required credential) like n8n', async () => {
		const result = await runNode({ nodeType: 'loanCrmTestRequest', parameters: {} });
		expect(result.error?.message).toMatch(/credentials|issues/i);
	});
});

describe('runPoll', () => {
	it('keeps the node static data in the caller object across trigger polls', async () => {
		const staticData: IDataObject = {};
		const first = await runPoll({ nodeType: 'harnessPollTrigger', parameters: { nullEvery: 3 }, staticData });
		const second = await runPoll({ nodeType: 'harnessPollTrigger', parameters: { nullEvery: 3 }, staticData });
		const third = await runPoll({ nodeType: 'harnessPollTrigger', parameters: { nullEvery: 3 }, staticData });
		expect(first?.[0].map((i) => i.json)).toEqual([{ count: 1, mode: 'trigger', activation: 'activate' }]);
		expect(second?.[0][0].json.count).toBe(2);
		expect(third).toBeNull();
		expect(JSON.parse(JSON.stringify(staticData))).toEqual({ count: 3 });
	});

	it('runs manual mode through WorkflowExecute and leaves static data alone', async () => {
		const staticData: IDataObject = { count: 7 };
		const result = await runPoll({
			nodeType: 'harnessPollTrigger',
			parameters: {},
			staticData,
			mode: 'manual',
		});
		expect(result?.[0].map((i) => i.json)).toEqual([{ sample: true, mode: 'manual', activation: 'manual' }]);
		expect(staticData).toEqual({ count: 7 });
	});
});

describe('CredentialStore (n8n CredentialsHelper logic)', () => {
	const data = sandboxCredential({
		baseUrl: 'http://127.0.0.1:1',
		tokenUrl: 'http://127.0.0.1:1/token',
		clientId: 'id',
		clientSecret: 'secret',
		userId: '42',
	});

	it('applies property defaults in getDecrypted, like n8n', async () => {
		const store = new CredentialStore();
		const record = store.add('loanCrmOAuth2Api', { baseUrl: 'x', accessTokenUrl: 'y', clientId: 'c', clientSecret: 's', userId: 'u' });
		const decrypted = await store.getDecrypted(
			createAdditionalData(store),
			{ id: record.id, name: record.name },
			'loanCrmOAuth2Api',
			'manual',
		);
		expect(decrypted).toMatchObject({ scope: 'api', authentication: 'header', accessToken: '', allowedHttpRequestDomains: 'all' });
		const raw = await store.getDecrypted(createAdditionalData(store), { id: record.id, name: record.name }, 'loanCrmOAuth2Api', 'manual', undefined, true);
		expect(raw.scope).toBeUndefined();
	});

	it('resolves credential expressions in getDecrypted', async () => {
		const store = new CredentialStore();
		const record = store.add('loanCrmOAuth2Api', { ...data, userId: '={{ "4" + "2" }}' });
		const decrypted = await store.getDecrypted(createAdditionalData(store), { id: record.id, name: record.name }, 'loanCrmOAuth2Api', 'manual');
		expect(decrypted.userId).toBe('42');
	});

	it('walks extends for parent types', () => {
		const types = new CredentialTypes();
		types.register({ name: 'oAuth2Api', displayName: 'O', properties: [] } as ICredentialType);
		types.register({ name: 'mid', displayName: 'M', extends: ['oAuth2Api'], properties: [] } as ICredentialType);
		types.register({ name: 'leaf', displayName: 'L', extends: ['mid'], properties: [] } as ICredentialType);
		const store = new CredentialStore([], types);
		expect(store.getParentTypes('leaf')).toEqual(['mid', 'oAuth2Api']);
		expect(new CredentialStore().getParentTypes('loanCrmOAuth2Api')).toEqual([]);
		expect(store.getCredentialsProperties('oAuth2Api').map((p) => p.name)).toEqual(['oauthTokenData']);
	});

	it('resolves a generic authenticate block with $credentials expressions', async () => {
		const types = new CredentialTypes();
		types.register({
			name: 'genericApi',
			displayName: 'G',
			properties: [{ displayName: 'Key', name: 'key', type: 'string', default: '' }],
			authenticate: {
				type: 'generic',
				properties: { headers: { 'X-Key': '={{$credentials.key}}', '={{"X-" + $credentials.key}}': 'v' } },
			},
		} as ICredentialType);
		const store = new CredentialStore([], types);
		const workflow = new Workflow({ nodes: [node('N', NOOP_TYPE)], connections: {}, active: false, nodeTypes: nodeTypes() });
		const options = await store.authenticate({ key: 'abc' }, 'genericApi', { url: 'http://x' } as IHttpRequestOptions, workflow, workflow.getNode('N') as INode);
		expect(options.headers).toEqual({ 'X-Key': 'abc', 'X-abc': 'v' });
	});

	it('applies the function-form authenticate of the package credential', async () => {
		const store = new CredentialStore();
		const values = { userId: ' 42 ' };
		const fetchedWith = { ...values, accessToken: 'T', accessTokenFingerprint: credentialFingerprint(values), accessTokenFetchedAt: '1' };
		const options = await store.authenticate(fetchedWith, 'loanCrmOAuth2Api', { url: 'http://x', headers: { a: 'b' } });
		expect(options.headers).toEqual({ a: 'b', Authorization: 'Bearer T', UserId: '42' });
		// A token fetched with other values is refused the way n8n renews tokens: as a 401.
		await expect(
			store.authenticate({ ...fetchedWith, userId: '43' }, 'loanCrmOAuth2Api', { url: 'http://x', headers: {} }),
		).rejects.toMatchObject({ response: { status: 401 } });
	});

	it('preAuthentication: runs only when the expirable field is empty or expired, persists it, keeps expression fields', async () => {
		const types = new CredentialTypes();
		let calls = 0;
		types.register({
			name: 'preAuthApi',
			displayName: 'P',
			properties: [
				{ displayName: 'Token', name: 'token', type: 'hidden', typeOptions: { expirable: true }, default: '' },
				{ displayName: 'Region', name: 'region', type: 'string', default: '' },
				{ displayName: 'Plain', name: 'plain', type: 'string', default: '' },
			],
			async preAuthentication() {
				calls++;
				return { token: `t${calls}`, region: 'overwritten', plain: 'overwritten' };
			},
		} as ICredentialType);
		const store = new CredentialStore([], types);
		const record = store.add('preAuthApi', { region: '={{ "eu" }}', plain: 'p' });
		const n = node('N', NOOP_TYPE, {}, { credentials: { preAuthApi: { id: record.id, name: record.name } } });
		const helpers = { helpers: { httpRequest: async () => ({}) } };

		const merged = await store.preAuthentication(helpers, { token: '', region: 'eu', plain: 'p' }, 'preAuthApi', n, false);
		expect(merged).toEqual({ token: 't1', region: 'overwritten', plain: 'overwritten' });
		expect(store.get(record.id)?.data).toEqual({ token: 't1', region: '={{ "eu" }}', plain: 'overwritten' });
		expect(store.updates).toBe(1);

		expect(await store.preAuthentication(helpers, { token: 't1' }, 'preAuthApi', n, false)).toBeUndefined();
		expect(calls).toBe(1);
		expect(await store.preAuthentication(helpers, { token: 't1' }, 'preAuthApi', n, true)).toMatchObject({ token: 't2' });
		expect(store.updates).toBe(2);

		// Without node credentials n8n neither persists nor returns the output.
		expect(await store.preAuthentication(helpers, { token: '' }, 'preAuthApi', node('M', NOOP_TYPE), false)).toBeUndefined();
		expect(calls).toBe(3);
	});

	it('stores OAuth token data and counts writes', async () => {
		const store = new CredentialStore();
		const record = store.add('loanCrmOAuth2Api', { clientId: 'a' });
		await store.updateCredentialsOauthTokenData({ id: record.id, name: record.name }, 'loanCrmOAuth2Api', { oauthTokenData: { access_token: 'x' } }, createAdditionalData(store));
		expect(store.get(record.id)?.data).toEqual({ clientId: 'a', oauthTokenData: { access_token: 'x' } });
		expect(store.updates).toBe(1);
		await expect(store.getDecrypted(createAdditionalData(store), { id: 'nope', name: 'x' }, 'loanCrmOAuth2Api', 'manual')).rejects.toThrow(/does not exist/);
		await expect(store.getDecrypted(createAdditionalData(store), { id: null, name: 'x' }, 'loanCrmOAuth2Api', 'manual')).rejects.toThrow(/no ID/);
	});
});
