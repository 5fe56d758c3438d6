/**
 * Section 6 of the bench: the same work over a played network (the sandbox holds every request
 * for its latency), where waiting for answers, not CPU, decides the time. Runs in a worker process.
 *
 * - Return All of N deals through the node one page at a time, through the node with id ranges in
 *   parallel, and through n8n's HTTP Request node with its own pagination (links.next).
 * - N task updates and N lead reads from N input items through the node at Requests in Parallel
 *   1, 4 and 8, and through the HTTP Request node with its batching option (P items per batch,
 *   one round trip between batches).
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

/** A latency run: the sample plus what was returned, checked for lost and repeated records. */
export interface LatencySample extends RunSample {
	lost: number;
	duplicated: number;
}

export type LatencyClient = { kind: 'node'; parallel: number } | { kind: 'httpRequest'; batchSize?: number; batchIntervalMs?: number };

function storeFor(sandbox: SandboxInfo): CredentialStore {
	const store = new CredentialStore();
	store.add(CREDENTIAL_TYPE, sandboxCredential(sandbox));
	return store;
}

function checked(sample: RunSample, expected: string[], returned: string[]): LatencySample {
	const seen = new Set<string>();
	let duplicated = 0;
	for (const id of returned) {
		if (seen.has(id)) duplicated += 1;
		seen.add(id);
	}
	const lost = expected.filter((id) => !seen.has(id)).length;
	return { ...sample, lost, duplicated };
}

function httpRequestNode(sandbox: SandboxInfo, store: CredentialStore, typeVersion: number, parameters: INodeParameters): INode {
	const credential = store.firstOfType(CREDENTIAL_TYPE);
	if (!credential) throw new Error('no credential');
	return {
		id: 'http',
		name: 'HTTP Request',
		type: HTTP_REQUEST_TYPE,
		typeVersion,
		position: [200, 0],
		credentials: { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } },
		parameters: {
			authentication: 'predefinedCredentialType',
			nodeCredentialType: CREDENTIAL_TYPE,
			sendHeaders: true,
			specifyHeaders: 'keypair',
			headerParameters: {
				parameters: [
					{ name: 'Accept', value: 'application/vnd.api+json' },
					{ name: 'UserId', value: sandbox.userId },
				],
			},
			...parameters,
		},
	};
}

async function runHttpRequest(node: INode, input: IDataObject[], store: CredentialStore, registry: ReturnType<typeof defaultRegistry>) {
	const nodes: INode[] = [{ id: 'start', name: 'Start', type: START_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: { items: JSON.stringify(input) } }, node];
	const connections = { Start: { main: [[{ node: 'HTTP Request', type: NodeConnectionTypes.Main, index: 0 }]] } };
	return await runWorkflow({ nodes, connections }, { credentials: store, startNode: 'Start', registry });
}

/** Return All of every deal, one measured run in this process (after a small warm-up). */
export async function latencyReturnAll(sandbox: SandboxInfo, client: LatencyClient): Promise<LatencySample> {
	const control = new Control(sandbox.controlUrl);
	const expected = await control.ids('deals', sandbox.deals);
	const store = storeFor(sandbox);
	const connections = new ConnectionCounter();
	const sampler = new MemorySampler();
	if (client.kind === 'node') {
		const parameters = (extra: INodeParameters): INodeParameters => ({
			resource: 'deal',
			operation: 'getMany',
			requestOptions: { requestsInParallel: client.parallel },
			...extra,
		});
		// Warm-up (same code path, token saved): 1,000 deals.
		await runNode({ nodeType: 'loanCrmDeals', parameters: parameters({ limit: 1000 }), credentials: store });
		const { value: result, window } = await measured(control, connections, async () => {
			sampler.start();
			const run = await runNode({ nodeType: 'loanCrmDeals', parameters: parameters({ returnAll: true }), credentials: store });
			sampler.stop();
			return run;
		});
		const sample = sampleFrom(window, result.items.length);
		sample.peakRss = sampler.peakRss;
		sample.maxRss = maxRssBytes();
		if (result.error) sample.error = result.error.message;
		return checked(sample, expected, result.items.map((item) => String(item.json.id)));
	}
	const registry = defaultRegistry();
	const typeVersion = registerHttpRequestNode(registry);
	const node = httpRequestNode(sandbox, store, typeVersion, {
		method: 'GET',
		url: `${sandbox.baseUrl}/jsonapi/deals`,
		sendQuery: true,
		specifyQuery: 'keypair',
		queryParameters: { parameters: [{ name: 'page[size]', value: '100' }] },
		options: {
			response: { response: { responseFormat: 'json' } },
			pagination: {
				pagination: {
					paginationMode: 'responseContainsNextURL',
					nextURL: '={{ $response.body.links.next }}',
					paginationCompleteWhen: 'other',
					completeExpression: '={{ !$response.body.links.next }}',
				},
			},
		},
	});
	// Warm-up: one page.
	const warm = { ...node, parameters: { ...node.parameters, options: { response: { response: { responseFormat: 'json' } } } } };
	await runHttpRequest(warm, [{}], store, registry);
	const { value: result, window } = await measured(control, connections, async () => {
		sampler.start();
		const run = await runHttpRequest(node, [{}], store, registry);
		sampler.stop();
		return run;
	});
	const returned = result
		.output('HTTP Request')
		.flatMap((item) => (Array.isArray(item.json.data) ? (item.json.data as IDataObject[]).map((resource) => String(resource.id)) : []));
	const sample = sampleFrom(window, returned.length);
	sample.peakRss = sampler.peakRss;
	sample.maxRss = maxRssBytes();
	if (result.error) sample.error = result.error.message;
	return checked(sample, expected, returned);
}

export type ItemOperation = 'taskUpdate' | 'leadRead';

/** N input items, one request each: task updates or lead reads; a fresh credential (1 token request). */
export async function latencyItems(sandbox: SandboxInfo, operation: ItemOperation, items: number, client: LatencyClient): Promise<LatencySample> {
	const control = new Control(sandbox.controlUrl);
	const input: IDataObject[] =
		operation === 'taskUpdate'
			? ((await taskUpdates(control, items)) as unknown as IDataObject[])
			: (await control.ids('leads', items)).map((id) => ({ leadId: id }));
	const expected = input.map((item) => String(item.taskId ?? item.leadId));
	const connections = new ConnectionCounter();
	const store = storeFor(sandbox);
	let returned: string[];
	let sample: RunSample;
	if (client.kind === 'node') {
		const parameters: INodeParameters =
			operation === 'taskUpdate'
				? { resource: 'task', operation: 'update', taskId: '={{ $json.taskId }}', updateFields: { progress: '={{ $json.progress }}', priority: '={{ $json.priority }}' } }
				: { resource: 'lead', operation: 'get', leadId: '={{ $json.leadId }}' };
		parameters.requestOptions = { requestsInParallel: client.parallel };
		const { value: result, window } = await measured(control, connections, () => runNode({ nodeType: 'loanCrmLeadsAndTasks', parameters, credentials: store, input }));
		sample = sampleFrom(window, result.items.length);
		if (result.error) sample.error = result.error.message;
		returned = result.items.map((item) => String(item.json.id));
	} else {
		const registry = defaultRegistry();
		const typeVersion = registerHttpRequestNode(registry);
		const batching = { batch: { batchSize: client.batchSize ?? 1, batchInterval: client.batchIntervalMs ?? 0 } };
		const parameters: INodeParameters =
			operation === 'taskUpdate'
				? {
						method: 'PATCH',
						url: `=${sandbox.baseUrl}/jsonapi/tasks/{{ $json.taskId }}`,
						sendBody: true,
						contentType: 'raw',
						rawContentType: 'application/vnd.api+json',
						body: '={{ JSON.stringify({ data: { type: "tasks", id: $json.taskId, attributes: { progress: $json.progress, priority: $json.priority } } }) }}',
						options: { batching, response: { response: { responseFormat: 'json' } } },
					}
				: { method: 'GET', url: `=${sandbox.baseUrl}/jsonapi/leads/{{ $json.leadId }}`, options: { batching, response: { response: { responseFormat: 'json' } } } };
		const node = httpRequestNode(sandbox, store, typeVersion, parameters);
		const { value: result, window } = await measured(control, connections, () => runHttpRequest(node, input, store, registry));
		const output = result.output('HTTP Request');
		sample = sampleFrom(window, output.length);
		if (result.error) sample.error = result.error.message;
		returned = output.map((item) => String((item.json.data as IDataObject | undefined)?.id));
		if (operation === 'taskUpdate') {
			// The HTTP Request node hands back a PATCH's application/vnd.api+json answer as a file, not
			// as JSON: count the items the sandbox answered with 2xx instead (each sent once).
			const answered = Object.entries(sample.statuses).reduce((sum, [status, n]) => sum + (status.startsWith('2') ? n : 0), 0);
			returned = answered === items ? expected.slice() : returned;
		}
	}
	if (operation === 'taskUpdate') await control.dataReset();
	// Per item: lost = an input item without its record in its output item; duplicated = requests
	// beyond one per item (a write sent twice would show here).
	const lost = expected.filter((id, index) => returned[index] !== id).length;
	return { ...sample, lost, duplicated: Math.max(0, sample.api - items) };
}
