/**
 * Bench jobs that run nodes in n8n-core's real WorkflowExecute through the test harness.
 * Each function runs inside a worker process (worker.ts); the sandbox is in another process.
 */
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CredentialStore, START_NODE_TYPE, defaultRegistry, runNode, runWorkflow, sandboxCredential } from '../../harness';
import { taskUpdates } from './floor';
import { HTTP_REQUEST_TYPE, registerHttpRequestNode } from '../../harness/http-request-node';
import { Control, ConnectionCounter, MemorySampler, maxRssBytes, measured } from './measure';
import type { RunSample } from './sample';
import { sampleFrom } from './sample';
import type { SandboxInfo } from './sandbox-process';

const CREDENTIAL_TYPE = 'loanCrmOAuth2Api';

function freshStore(sandbox: SandboxInfo): CredentialStore {
	const store = new CredentialStore();
	store.add(CREDENTIAL_TYPE, sandboxCredential(sandbox));
	return store;
}

function getManyParameters(extra: INodeParameters = {}): INodeParameters {
	return { resource: 'deal', operation: 'getMany', simplify: true, ...extra };
}

/**
 * Deals → Get Many, Return All, Simplify on: warm-up runs (Limit, same code path), then one
 * measured run with memory sampling. One measured run per process, so the process's peak RSS is
 * this run's.
 */
export async function nodeGetMany(sandbox: SandboxInfo, warmupRecords: number, warmups: number): Promise<RunSample> {
	const control = new Control(sandbox.controlUrl);
	const store = freshStore(sandbox);
	for (let i = 0; i < warmups; i++) {
		const warm = await runNode({ nodeType: 'loanCrmDeals', parameters: getManyParameters({ returnAll: false, limit: warmupRecords }), credentials: store });
		if (warm.error) throw new Error(`warm-up failed: ${warm.error.message}`);
	}
	const connections = new ConnectionCounter();
	const sampler = new MemorySampler();
	let start = process.memoryUsage();
	const { value: result, window } = await measured(control, connections, async () => {
		start = process.memoryUsage();
		sampler.start();
		const run = await runNode({ nodeType: 'loanCrmDeals', parameters: getManyParameters({ returnAll: true }), credentials: store });
		sampler.stop();
		return run;
	});
	const sample = sampleFrom(window, result.items.length);
	sample.peakRss = sampler.peakRss;
	sample.peakHeap = sampler.peakHeap;
	sample.maxRss = maxRssBytes();
	sample.startRss = start.rss;
	sample.startHeap = start.heapUsed;
	if (result.error) sample.error = result.error.message;
	return sample;
}

/** Return All through the node with a sort (page[number] paging for a non-id sort), repeated. */
export async function nodeReturnAllRuns(
	sandbox: SandboxInfo,
	options: { sort?: string; runs: number; warmups: number },
): Promise<RunSample[]> {
	const control = new Control(sandbox.controlUrl);
	const store = freshStore(sandbox);
	const parameters = getManyParameters({ returnAll: true, options: options.sort ? { sort: options.sort } : {} });
	const samples: RunSample[] = [];
	const connections = new ConnectionCounter();
	for (let i = 0; i < options.warmups + options.runs; i++) {
		const { value: result, window } = await measured(control, connections, () => runNode({ nodeType: 'loanCrmDeals', parameters, credentials: store }));
		if (i < options.warmups) continue;
		const sample = sampleFrom(window, result.items.length);
		if (result.error) sample.error = result.error.message;
		samples.push(sample);
	}
	return samples;
}

export type HttpRequestPaging = 'nextLink' | 'pageParameter';

/**
 * n8n's HTTP Request node paging through /jsonapi/deals in the same engine, with the same
 * credential (predefined credential type loanCrmOAuth2Api), Response Format JSON, and either
 * "Response Contains Next URL" = links.next or "Update a Parameter in Each Request"
 * page[number] = $pageCount + 1; complete when links.next is missing.
 */
export async function httpRequestReturnAllRuns(
	sandbox: SandboxInfo,
	options: { paging: HttpRequestPaging; runs: number; warmups: number },
): Promise<{ samples: RunSample[]; typeVersion: number }> {
	const registry = defaultRegistry();
	const typeVersion = registerHttpRequestNode(registry);
	const control = new Control(sandbox.controlUrl);
	const store = freshStore(sandbox);
	const credential = store.firstOfType(CREDENTIAL_TYPE);
	if (!credential) throw new Error('no credential');
	const pagination: INodeParameters =
		options.paging === 'nextLink'
			? {
					paginationMode: 'responseContainsNextURL',
					nextURL: '={{ $response.body.links.next }}',
					paginationCompleteWhen: 'other',
					completeExpression: '={{ !$response.body.links.next }}',
				}
			: {
					paginationMode: 'updateAParameterInEachRequest',
					parameters: { parameters: [{ type: 'qs', name: 'page[number]', value: '={{ $pageCount + 1 }}' }] },
					paginationCompleteWhen: 'other',
					completeExpression: '={{ !$response.body.links.next }}',
				};
	const nodes: INode[] = [
		{ id: 'start', name: 'Start', type: START_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: { items: '[{}]' } },
		{
			id: 'http',
			name: 'HTTP Request',
			type: HTTP_REQUEST_TYPE,
			typeVersion,
			position: [200, 0],
			credentials: { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } },
			parameters: {
				method: 'GET',
				url: `${sandbox.baseUrl}/jsonapi/deals`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: CREDENTIAL_TYPE,
				sendQuery: true,
				specifyQuery: 'keypair',
				queryParameters: { parameters: [{ name: 'page[size]', value: '100' }] },
				sendHeaders: true,
				specifyHeaders: 'keypair',
				headerParameters: {
					parameters: [
						{ name: 'Accept', value: 'application/vnd.api+json' },
						{ name: 'UserId', value: sandbox.userId },
					],
				},
				options: {
					response: { response: { responseFormat: 'json' } },
					pagination: { pagination },
				},
			},
		},
	];
	const connections = { Start: { main: [[{ node: 'HTTP Request', type: NodeConnectionTypes.Main, index: 0 }]] } };
	const samples: RunSample[] = [];
	const counter = new ConnectionCounter();
	for (let i = 0; i < options.warmups + options.runs; i++) {
		const { value: result, window } = await measured(control, counter, () =>
			runWorkflow({ nodes, connections }, { credentials: store, startNode: 'Start', registry }),
		);
		if (i < options.warmups) continue;
		const pages = result.output('HTTP Request');
		const records = pages.reduce((sum, item) => sum + (Array.isArray(item.json.data) ? item.json.data.length : 0), 0);
		const sample = sampleFrom(window, records);
		if (result.error) sample.error = result.error.message;
		samples.push(sample);
	}
	return { samples, typeVersion };
}

export interface TokenCase {
	items: number;
	credential: 'fresh' | 'stored';
	samples: RunSample[];
}

/**
 * Token requests per execution: Leads & Tasks → Lead → Get for each of N input items, on a fresh
 * credential (a new store each execution, no token saved yet) and on a stored one (a token saved
 * by an earlier execution).
 */
export async function tokenRuns(sandbox: SandboxInfo, itemCounts: number[], runs: number): Promise<TokenCase[]> {
	const control = new Control(sandbox.controlUrl);
	const leadIds = await control.ids('leads', Math.max(...itemCounts));
	const parameters = { resource: 'lead', operation: 'get', leadId: '={{ $json.id }}' };
	const stored = freshStore(sandbox);
	// Warm-up, which also saves a token in the stored credential.
	await runNode({ nodeType: 'loanCrmLeadsAndTasks', parameters, credentials: stored, input: leadIds.slice(0, 20).map((id) => ({ id })) });
	const cases: TokenCase[] = [];
	const connections = new ConnectionCounter();
	for (const items of itemCounts) {
		const input = Array.from({ length: items }, (_, i) => ({ id: leadIds[i % leadIds.length] }));
		for (const credential of ['fresh', 'stored'] as const) {
			const samples: RunSample[] = [];
			for (let run = 0; run < runs; run++) {
				const store = credential === 'fresh' ? freshStore(sandbox) : stored;
				const { value: result, window } = await measured(control, connections, () =>
					runNode({ nodeType: 'loanCrmLeadsAndTasks', parameters, credentials: store, input }),
				);
				const sample = sampleFrom(window, result.items.length);
				if (result.error) sample.error = result.error.message;
				samples.push(sample);
			}
			cases.push({ items, credential, samples });
		}
	}
	return cases;
}

/**
 * Leads & Tasks → Task → Update for N input items (ids and fields from expressions on each item),
 * on a fresh credential every execution, so the token request count covers the worst case.
 */
export async function nodeWrites(sandbox: SandboxInfo, n: number, runs: number, warmups: number): Promise<RunSample[]> {
	const control = new Control(sandbox.controlUrl);
	const updates = await taskUpdates(control, n);
	const parameters = {
		resource: 'task',
		operation: 'update',
		taskId: '={{ $json.taskId }}',
		updateFields: { progress: '={{ $json.progress }}', priority: '={{ $json.priority }}' },
	};
	const samples: RunSample[] = [];
	const connections = new ConnectionCounter();
	for (let i = 0; i < warmups + runs; i++) {
		const store = freshStore(sandbox);
		const { value: result, window } = await measured(control, connections, () =>
			runNode({ nodeType: 'loanCrmLeadsAndTasks', parameters, credentials: store, input: updates as unknown as IDataObject[] }),
		);
		if (i < warmups) continue;
		const sample = sampleFrom(window, result.items.length);
		if (result.error) sample.error = result.error.message;
		samples.push(sample);
	}
	await control.dataReset();
	return samples;
}
