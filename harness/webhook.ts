/*
 * Webhook nodes in n8n-core's engine, as n8n 2.41's CLI serves them:
 *
 *   - `runWebhook`: one HTTP call to a node's webhook. What the CLI does around the node is mirrored
 *     here (packages/cli/src/webhooks/live-webhooks.ts, test-webhooks.ts, webhook-helpers.ts
 *     `executeWebhook`, webhook.service.ts `runWebhook`, middlewares/body-parser.ts): the path is
 *     looked up among the node's webhooks (the description's `path` evaluated by n8n's expression
 *     engine, `NodeHelpers.getNodeWebhookPath`; another path or method: 404 "not registered"); the
 *     body is read raw and, for `application/json`, parsed (n8n answers a body it cannot parse 422
 *     "Failed to parse request body" before the node runs); the node's `webhook` runs with n8n-core's
 *     `WebhookContext` (request and response in additionalData); then, as `executeWebhook` does:
 *     `noWebhookResponse` leaves the answer to the node, no `workflowData` answers "Webhook call
 *     received", `workflowData` starts an execution (answered "Workflow was started" unless the node
 *     answered) and a thrown error answers 500 and records a failed execution. In mode 'webhook' the
 *     node's static data is the caller's object (saved after every call, as live webhooks do); in
 *     'manual' (a test webhook) a copy.
 *   - `runWebhookMethod`: the lifecycle n8n runs on publishing (`checkExists`, `create`, `delete`)
 *     with n8n-core's `HookContext`.
 *   - `startWebhookHost`: an HTTP server that serves nodes' webhooks at /webhook/<path> the same way,
 *     for the sandbox's webhook deliveries; it records every call and what it emitted.
 *
 * The response object is a small stand-in for Express's (writeHead, setHeader, status, json, send,
 * end, headersSent) whose `answered` settles when the node (or n8n) answers: a test sees the answer
 * before the call finishes, as the service does.
 */
import './env';

import { randomUUID } from 'crypto';
import type { IncomingMessage, Server, ServerResponse } from 'http';
import { createServer } from 'http';
import type { AddressInfo } from 'net';

import { HookContext, WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers, Workflow, deepCopy } from 'n8n-workflow';

import { createAdditionalData } from './additional-data';
import { CredentialStore } from './credentials';
import type { Registry } from './registry';
import { defaultRegistry } from './registry';
import { DEFAULT_CREDENTIAL_TYPE } from './run';
import type { CredentialsInput } from './run';

/** The answer the caller got. */
export interface WebhookAnswer {
	status: number;
	headers: Record<string, string>;
	/** The body as text, and parsed when it is JSON. */
	text: string;
	json?: unknown;
}

export interface WebhookRunResult {
	answer: WebhookAnswer;
	/** The items the call started an execution with (`workflowData[0]`), undefined when it started none. */
	items?: INodeExecutionData[];
	/** The node's error, when its `webhook` threw (n8n then records a failed execution). */
	error?: Error;
}

/** A webhook node as n8n registers it: its type, parameters and ids, and its static data. */
export interface WebhookTarget {
	/** Package node name, e.g. 'loanCrmWebhookTrigger', or a full type. */
	nodeType: string;
	parameters: INodeParameters;
	credentials?: CredentialsInput;
	/** The node's static data; kept across calls like an active workflow's (mutated in place). */
	staticData?: IDataObject;
	/** The workflow's and node's ids and the node's webhook id, kept across calls as n8n keeps them. */
	ids?: { workflowId: string; nodeId: string; webhookId: string };
	registry?: Registry;
	/** The node's name on the canvas. */
	name?: string;
}

/** One HTTP request to a webhook. */
export interface WebhookCall {
	method?: string;
	/** Below /webhook/ (or /webhook-test/); default: the node's own path. */
	path?: string;
	headers?: Record<string, string>;
	/** A string or bytes as sent; anything else is sent as JSON. */
	body?: unknown;
	/** 'webhook' (a published workflow, default) or 'manual' (n8n's test URL). */
	mode?: 'webhook' | 'manual';
}

function toStore(credentials: CredentialsInput | undefined): CredentialStore {
	if (credentials instanceof CredentialStore) return credentials;
	const store = new CredentialStore();
	if (credentials !== undefined) store.add(DEFAULT_CREDENTIAL_TYPE, credentials);
	return store;
}

/** What n8n's Express response offers a node, writing into `answered`. */
class CapturedResponse {
	statusCode = 200;
	headersSent = false;
	private readonly headers: Record<string, string> = {};
	private settle: (answer: WebhookAnswer) => void = () => undefined;
	readonly answered: Promise<WebhookAnswer> = new Promise((resolve) => (this.settle = resolve));

	setHeader(name: string, value: string | number | string[]): this {
		this.headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
		return this;
	}

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	writeHead(code: number, headers: Record<string, string | number> = {}): this {
		this.statusCode = code;
		for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
		this.headersSent = true;
		return this;
	}

	json(body: unknown): this {
		this.setHeader('content-type', 'application/json; charset=utf-8');
		return this.end(JSON.stringify(body));
	}

	send(body: unknown): this {
		return typeof body === 'string' ? this.end(body) : this.json(body);
	}

	end(text?: string | Uint8Array): this {
		this.headersSent = true;
		const body = text === undefined ? '' : typeof text === 'string' ? text : new TextDecoder().decode(text);
		let json: unknown;
		try {
			json = body === '' ? undefined : JSON.parse(body);
		} catch {
			json = undefined;
		}
		this.settle({ status: this.statusCode, headers: { ...this.headers }, text: body, json });
		return this;
	}
}

interface Prepared {
	workflow: Workflow;
	node: INode;
	webhookData: IWebhookData;
	store: CredentialStore;
	registry: Registry;
}

/** The workflow n8n builds for a webhook call, and the node's webhook as n8n registered it. */
function prepare(target: WebhookTarget, mode: WorkflowExecuteMode): Prepared {
	const registry = target.registry ?? defaultRegistry();
	const type = registry.nodeTypes.resolve(target.nodeType);
	const nodeType = registry.nodeTypes.getByName(type);
	const description = 'nodeVersions' in nodeType ? nodeType.nodeVersions[nodeType.currentVersion].description : nodeType.description;
	const typeVersion = Array.isArray(description.version) ? Math.max(...description.version) : description.version;
	const store = toStore(target.credentials);
	const ids = target.ids ?? { workflowId: randomUUID(), nodeId: randomUUID(), webhookId: randomUUID() };
	const name = target.name ?? description.defaults.name ?? description.displayName;
	const node: INode = { id: ids.nodeId, name, type, typeVersion, position: [0, 0], parameters: target.parameters, webhookId: ids.webhookId };
	const credentialType = description.credentials?.[0]?.name;
	const record = credentialType === undefined ? undefined : store.firstOfType(credentialType);
	if (credentialType !== undefined && record !== undefined) node.credentials = { [credentialType]: { id: record.id, name: record.name } };
	const callerState = target.staticData ?? {};
	const workflow = new Workflow({
		id: ids.workflowId,
		name: 'Harness workflow',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes: registry.nodeTypes,
		// Live webhooks save the node's static data after each call; a test webhook's is not saved.
		staticData: { [`node:${name}`]: mode === 'manual' ? deepCopy(callerState) : callerState },
		settings: { executionOrder: 'v1' },
	});
	const webhookDescription = (description.webhooks ?? [])[0] as IWebhookDescription | undefined;
	if (webhookDescription === undefined) throw new Error(`${type} has no webhook`);
	const additionalData = createAdditionalData(store, { workflowId: ids.workflowId, mode });
	const evaluated = workflow.expression.getSimpleParameterValue(workflow.getNode(name) as INode, webhookDescription.path, mode, {}) as string;
	const path = NodeHelpers.getNodeWebhookPath(ids.workflowId, node, String(evaluated).replace(/^\/+|\/+$/g, ''), false, false);
	const webhookData: IWebhookData = {
		httpMethod: webhookDescription.httpMethod as IWebhookData['httpMethod'],
		node: name,
		path,
		webhookDescription,
		workflowId: ids.workflowId,
		workflowExecuteAdditionalData: additionalData,
		webhookId: ids.webhookId,
		isTest: mode === 'manual',
	};
	return { workflow, node: workflow.getNode(name) as INode, webhookData, store, registry };
}

/** The path n8n serves the node's webhook at (below /webhook/), its parameters evaluated (give `ids` for a stable one). */
export function webhookPath(target: WebhookTarget): string {
	return prepare(target, 'webhook').webhookData.path;
}

function bodyBytes(body: unknown): Buffer {
	if (body === undefined) return Buffer.alloc(0);
	if (typeof body === 'string') return Buffer.from(body, 'utf8');
	if (body instanceof Uint8Array) return Buffer.from(body);
	return Buffer.from(JSON.stringify(body), 'utf8');
}

/**
 * One call of the target's webhook, as n8n's CLI runs it (see the file header). Resolves when the
 * call has finished; `answer` is what the caller got, whenever it was sent.
 */
export async function runWebhook(target: WebhookTarget, call: WebhookCall = {}): Promise<WebhookRunResult & { answered: Promise<WebhookAnswer> }> {
	const started = startWebhookCall(target, call);
	const result = await started.finished;
	return { ...result, answered: started.answered };
}

/** Starts a call; `answered` settles when the caller has its answer, `finished` when the call is over. */
export function startWebhookCall(target: WebhookTarget, call: WebhookCall = {}): { answered: Promise<WebhookAnswer>; finished: Promise<WebhookRunResult> } {
	const mode: WorkflowExecuteMode = call.mode === 'manual' ? 'manual' : 'webhook';
	const response = new CapturedResponse();
	const finished = (async (): Promise<WebhookRunResult> => {
		const prepared = prepare(target, mode);
		const method = (call.method ?? 'POST').toUpperCase();
		const path = (call.path ?? prepared.webhookData.path).replace(/^\/+|\/+$/g, '');
		if (path !== prepared.webhookData.path || method !== prepared.webhookData.httpMethod) {
			// WebhookNotFoundError, as n8n answers an unregistered webhook.
			response.status(404).json({ code: 404, message: `The requested webhook "${method} ${path}" is not registered.` });
			return { answer: await response.answered };
		}
		const headers: Record<string, string> = { 'content-type': 'application/json', ...Object.fromEntries(Object.entries(call.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])) };
		const rawBody = bodyBytes(call.body);
		headers['content-length'] = String(rawBody.byteLength);
		const [mediaType, ...parameters] = headers['content-type'].split(';').map((part) => part.trim());
		const charset = parameters.find((part) => part.toLowerCase().startsWith('charset='))?.slice(8) ?? 'utf-8';
		const url = `/${mode === 'manual' ? 'webhook-test' : 'webhook'}/${path}`;
		const request: IDataObject & { rawBody: Buffer } = { method, headers, url, originalUrl: url, path: url, params: {}, query: {}, rawBody, contentType: mediaType.toLowerCase(), encoding: charset };
		// middlewares/body-parser.ts parseBody (a version 1 node: every content type is read).
		if (rawBody.length > 0 && request.contentType === 'application/json') {
			try {
				request.body = JSON.parse(rawBody.toString('utf8')) as IDataObject;
			} catch (error) {
				response.status(422).json({ code: 422, message: 'Failed to parse request body', hint: (error as Error).message });
				return { answer: await response.answered };
			}
		} else if (rawBody.length > 0 && request.contentType === 'text/plain') {
			request.body = rawBody.toString('utf8');
		}
		const additionalData = { ...prepared.webhookData.workflowExecuteAdditionalData, httpRequest: request as never, httpResponse: response as never };
		const nodeType = prepared.registry.nodeTypes.getByNameAndVersion(prepared.node.type, prepared.node.typeVersion);
		const context = new WebhookContext(prepared.workflow, prepared.node, additionalData, mode, prepared.webhookData, [], null);
		await prepared.workflow.expression.acquireIsolate();
		let result: IWebhookResponseData;
		try {
			result = await (nodeType.webhook as (this: WebhookContext) => Promise<IWebhookResponseData>).call(context);
		} catch (error) {
			if (!response.headersSent) response.status(500).json({ code: 500, message: 'Error in workflow' });
			return { answer: await response.answered, error: error as Error };
		} finally {
			await prepared.workflow.expression.releaseIsolate();
		}
		if (result.workflowData === undefined) {
			if (result.noWebhookResponse !== true && !response.headersSent) response.status(200).json(result.webhookResponse ?? { message: 'Webhook call received' });
			return { answer: await response.answered };
		}
		if (result.noWebhookResponse !== true && !response.headersSent) response.status(200).json({ message: 'Workflow was started' });
		return { answer: await response.answered, items: result.workflowData[0] ?? [] };
	})();
	return { answered: response.answered, finished };
}

/** Runs one of the node's webhook lifecycle methods as n8n does on publishing, with n8n-core's HookContext. */
export async function runWebhookMethod(
	target: WebhookTarget,
	method: 'checkExists' | 'create' | 'delete',
	activation: WorkflowActivateMode = 'activate',
): Promise<{ result: boolean | undefined; url: string }> {
	const mode: WorkflowExecuteMode = activation === 'manual' ? 'manual' : 'webhook';
	const prepared = prepare(target, mode);
	const nodeType = prepared.registry.nodeTypes.getByNameAndVersion(prepared.node.type, prepared.node.typeVersion);
	const context = new HookContext(prepared.workflow, prepared.node, prepared.webhookData.workflowExecuteAdditionalData, mode, activation, prepared.webhookData);
	const fn = nodeType.webhookMethods?.[prepared.webhookData.webhookDescription.name]?.[method];
	const result = fn === undefined ? undefined : await fn.call(context);
	return { result, url: context.getNodeWebhookUrl('default') ?? '' };
}

/** A call the host served: where, what the caller got, and what it emitted. */
export interface HostedCall {
	path: string;
	answer: WebhookAnswer;
	items?: INodeExecutionData[];
	error?: Error;
}

export interface WebhookHost {
	/** 'http://127.0.0.1:<port>/webhook/' — a node's URL is this plus its path. */
	baseUrl: string;
	/** The full URL of a target's webhook. */
	urlOf(target: WebhookTarget): string;
	/** Every call, in the order they finished. */
	calls: HostedCall[];
	/** Calls still running (the node answered, or not yet, and is still working). */
	running(): number;
	/** Resolves when no call is running. */
	idle(): Promise<void>;
	close(): Promise<void>;
}

/** An HTTP server serving `targets`' webhooks at /webhook/<path>, as n8n does (see the file header). */
export async function startWebhookHost(targets: WebhookTarget[]): Promise<WebhookHost> {
	for (const target of targets) target.ids ??= { workflowId: randomUUID(), nodeId: randomUUID(), webhookId: randomUUID() };
	const calls: HostedCall[] = [];
	const inFlight = new Set<Promise<unknown>>();
	const read = async (request: IncomingMessage): Promise<Buffer> => {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		return Buffer.concat(chunks);
	};
	const paths = targets.map((target) => prepare(target, 'webhook').webhookData.path);
	const serve = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
		const path = (request.url ?? '').split('?')[0].replace(/^\/webhook\//, '').replace(/\/+$/, '');
		const body = await read(request);
		// Another path of a node's webhook id (a wrong path secret) reaches that node's lookup, which answers 404.
		const target = targets[paths.indexOf(path)] ?? targets.find((candidate) => path.split('/')[0] === candidate.ids?.webhookId);
		if (target === undefined) {
			response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 404, message: 'The requested webhook is not registered.' }));
			calls.push({ path, answer: { status: 404, headers: {}, text: '' } });
			return;
		}
		const headers = Object.fromEntries(Object.entries(request.headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])));
		const started = startWebhookCall(target, { method: request.method, path, headers, body });
		void started.answered.then((answer) => {
			response.writeHead(answer.status, answer.headers);
			response.end(answer.text);
		});
		const result = await started.finished;
		calls.push({ path, answer: result.answer, items: result.items, error: result.error });
	};
	const server: Server = createServer((request, response) => {
		const work = serve(request, response).catch((error: unknown) => {
			if (!response.headersSent) response.writeHead(500).end(String(error));
		});
		inFlight.add(work);
		void work.finally(() => inFlight.delete(work));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/`;
	return {
		baseUrl,
		urlOf: (target) => `${baseUrl}${paths[targets.indexOf(target)] ?? prepare(target, 'webhook').webhookData.path}`,
		calls,
		running: () => inFlight.size,
		idle: async () => {
			while (inFlight.size > 0) await Promise.all([...inFlight]);
		},
		close: async () => {
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			});
		},
	};
}
