/** Shared set-up of engine tests: a sandbox, a credential store bound to it, and shortcuts. */
import { readFileSync } from 'fs';
import { join } from 'path';

import type { IConnections, IDataObject, INode, INodeParameters } from 'n8n-workflow';

import type { RunResult } from '../../harness';
import { CredentialStore, REPO_ROOT, START_NODE_TYPE, TestClock, runNode, sandboxCredential, waitsPassByThemselves } from '../../harness';
import type { LoggedRequest, Sandbox, SandboxOptions } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { forgetRateBudgets } from '../../nodes/shared/requests/rateBudget';

export interface EngineContext {
	sandbox: Sandbox;
	store: CredentialStore;
	/**
	 * The file's one clock (harness/clock.ts): installed as the package's clock for the file (the
	 * credential, every run, the rate-limit budget, the triggers) and the sandbox's. Tests move it
	 * (`advance`, `set`); a wait on it (retry-after, a backoff, played latency, a delay fault) passes
	 * by itself as soon as everything waits (`waitsPassByThemselves`), never on the machine's clock.
	 */
	clock: TestClock;
	/** Runs the node at the version the editor gives a new node, or at `typeVersion` (1: a saved workflow's). */
	run(nodeType: string, parameters: INodeParameters, options?: { input?: IDataObject[]; continueOnFail?: boolean; typeVersion?: number }): Promise<RunResult>;
}

/**
 * Starts a sandbox for the test file on the file's one clock (`options.clock`, default a running
 * TestClock), installs that clock for the file, and gives each test a fresh log and faults.
 */
export function useSandbox(options: Omit<SandboxOptions, 'clock'> & { clock?: TestClock } = {}, credentialOverrides: Parameters<typeof sandboxCredential>[1] = {}): EngineContext {
	const clock = options.clock ?? TestClock.running();
	const context = { clock } as EngineContext;
	let restoreClock: (() => void) | undefined;
	beforeAll(async () => {
		restoreClock = clock.install();
		context.sandbox = await startSandbox({ ...options, clock });
		waitsPassByThemselves(clock, context.sandbox);
		context.store = new CredentialStore();
		context.store.add('loanCrmOAuth2Api', sandboxCredential(context.sandbox, credentialOverrides));
		context.run = async (nodeType, parameters, runOptions = {}) =>
			await runNode({ nodeType, parameters, credentials: context.store, input: runOptions.input, continueOnFail: runOptions.continueOnFail, typeVersion: runOptions.typeVersion });
	});
	beforeEach(() => {
		context.sandbox.clearFaults();
		context.sandbox.clearLog();
		// The credential's rate-limit budget lives as long as the process; each test starts afresh.
		forgetRateBudgets();
	});
	afterAll(async () => {
		await context.sandbox?.close();
		restoreClock?.();
	});
	return context;
}

/**
 * Where the trigger tests' timelines start (`useSandbox({ clock: TestClock.at(TIMELINE_START) })`,
 * then `clock.set(TIMELINE_START + seconds * 1000)`): a whole second, as the service stamps, after
 * every stamp of the seed (its last is 2026-11-15), the same on every machine and every day.
 */
export const TIMELINE_START = Date.UTC(2026, 10, 26, 0, 0, 0);

/** The JSON of the items a run produced. */
export function jsonOf(result: RunResult): IDataObject[] {
	return result.items.map((item) => item.json);
}

/** The query of a logged request with brackets decoded, in the order sent. */
export function decodedQuery(rawQuery: string): string {
	return rawQuery
		.split('&')
		.filter((part) => part !== '')
		.map((part) => decodeURIComponent(part))
		.join('&');
}

/** A request as JSON:API asks for it: the media type, the adviser's UserId, a bearer token; a body only with `withBody`. */
export function expectJsonApiHeaders(userId: string, request: LoggedRequest, withBody: boolean): void {
	expect(request.headers.accept).toBe('application/vnd.api+json');
	expect(request.headers.userid).toBe(userId);
	expect(request.headers.authorization).toMatch(/^Bearer /);
	if (withBody) expect(request.headers['content-type']).toBe('application/vnd.api+json');
	else expect(request.headers['content-type']).toBeUndefined();
}

/**
 * examples/web-form-to-contact.json as saved, ready for the harness: the Form Trigger becomes the
 * harness's start node under its own name, fed `submission`; the example's integration ID
 * placeholder becomes `integrationId` (one the sandbox knows). The Loan CRM nodes are the example's own.
 */
export function webFormExample(submission: IDataObject, integrationId: string): { nodes: INode[]; connections: IConnections } {
	const saved = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', 'web-form-to-contact.json'), 'utf8')) as { nodes: INode[]; connections: IConnections };
	const nodes = saved.nodes
		.filter((node) => node.type !== 'n8n-nodes-base.stickyNote')
		.map((node): INode => {
			if (node.name === 'On form submission') return { ...node, type: START_NODE_TYPE, typeVersion: 1, parameters: { items: JSON.stringify([submission]) } };
			if (node.name === 'Record the form on the deal') return { ...node, parameters: { ...node.parameters, integrationId } };
			return node;
		});
	return { nodes, connections: saved.connections };
}
