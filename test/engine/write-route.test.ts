/**
 * The route of a write, followed call by call from the node's `execute` to the request and to an
 * error label (issue 39), recorded in n8n-core's engine by callRoute.ts (its header says how it
 * counts). The routes, with their visits, files and returns:
 *
 *   PRINT_ROUTE=1 npx jest test/engine/write-route.test.ts
 *
 * (before a change too: check out the older nodes/ with `git checkout <commit> -- nodes`, run it,
 * then `git checkout HEAD -- nodes`; the printing comes before any check). The checks are what the
 * route must keep: the router reaches an action only through its public entry, once per item, and
 * an item is read in one pass (the functions that read it run once).
 */
import type { INodeParameters } from 'n8n-workflow';

import { operationExamples } from '../../harness/operation-examples';
import type { CallEvent } from './callRoute';
import { callRecorder, describeRoute, routeOf, shortName } from './callRoute';
import { useSandbox } from './helpers';

const env = useSandbox();
const recorder = callRecorder();

afterEach(() => env.sandbox.data.reset());

const ROUTER = 'nodes/shared/execution/router.ts';
const ACTIONS = 'nodes/shared/execution/actions/';

/** Contact → Create as a new node has it: E-mail and First Name on top (node version 1.2), the rest under Additional Fields. */
const contactCreate = ({ email, firstName, ...additionalFields }: INodeParameters): INodeParameters => ({
	resource: 'contact',
	operation: 'create',
	ifAlreadyExists: 'returnExisting',
	...(email === undefined ? {} : { email }),
	...(firstName === undefined ? {} : { firstName }),
	additionalFields,
});
const isWrite = (event: CallEvent) => event.name === 'apiRequest' && /^(POST|PATCH|DELETE) /.test(event.detail ?? '');
const isErrorLabel = (event: CallEvent) => event.callee === 'nodes/shared/errors/factory.ts';

interface Case {
	name: string;
	run(): Promise<unknown>;
	/** Where the route ends: the write's request, or the error naming what went wrong. */
	until(event: CallEvent): boolean;
}

const CASES: Case[] = [
	{
		name: 'Contact → Create, If Already Exists → Return Existing, none there: the search, then the POST',
		run: async () => await env.run('loanCrmContacts', contactCreate({ firstName: 'Aroha', email: 'aroha.ngata@example.com' })),
		until: isWrite,
	},
	{
		name: 'the same, the POST answered 422: to the error that names the field',
		run: async () => {
			const errors = [{ status: '422', title: 'Input validation failed.', detail: 'The Email field is not valid.', source: { pointer: '/data/attributes/email' } }];
			env.sandbox.injectFault({ method: 'POST', path: '/jsonapi/contacts' }, { status: 422, body: { errors } }, 1);
			return await env.run('loanCrmContacts', contactCreate({ firstName: 'Aroha', email: 'aroha.ngata@example.com' }));
		},
		until: isErrorLabel,
	},
	{
		name: 'the same, Date Of Birth not a date: to the error that names the parameter',
		run: async () => await env.run('loanCrmContacts', contactCreate({ firstName: 'Aroha', email: 'aroha.ngata@example.com', dateOfBirth: 'not a date' })),
		until: isErrorLabel,
	},
	{
		name: 'Task → Update: the PATCH',
		run: async () => {
			const example = operationExamples(env.sandbox.data.ids)['loanCrmLeadsAndTasks/task.update'];
			return await env.run(example.node, example.parameters);
		},
		until: isWrite,
	},
];

async function recorded(run: () => Promise<unknown>): Promise<CallEvent[]> {
	// A first run of the node in this file, so that what happens once per process is not on the route.
	await env.run('loanCrmContacts', contactCreate({ firstName: 'Warm', email: 'warm.up@example.com' }));
	env.sandbox.data.reset();
	env.sandbox.clearLog();
	const stop = recorder.record();
	let events: CallEvent[] = [];
	try {
		await run();
	} finally {
		events = stop();
	}
	return events;
}

describe('the route of a write', () => {
	it.each(CASES.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
		const events = await recorded(entry.run);
		const route = routeOf(events, entry.until);
		if (process.env.PRINT_ROUTE === '1') {
			const calls = routeOf(events, entry.until, 'calls');
			process.stdout.write(`\n${entry.name}\n  steps: ${describeRoute(route)}\n  calls: ${describeRoute(calls)}\n`);
		}
		// It reaches its end: the request, or the error.
		expect(events.some(entry.until)).toBe(true);
		expect(route.steps[route.steps.length - 1]).toMatch(/^(transport|factory)( ↩)?$/);
		// The router reaches the action through its one entry, once (one input item), and nothing of
		// an action's own files: the item's ordering key comes from the same reading.
		const fromRouter = events.filter((event) => event.caller === ROUTER && event.callee.startsWith(ACTIONS));
		expect(fromRouter.map((event) => `${shortName(event.callee)}#${event.name}`)).toEqual(['index#prepareItem']);
		expect(events.filter((event) => event.caller === ROUTER).map((event) => shortName(event.callee))).not.toContain('common');
		// One pass: the item is prepared once, its path resolved once, its If Already Exists search
		// worked out at most once (a bad value stops the reading before it).
		const calls = (name: string) => events.filter((event) => event.name === name).length;
		expect({ prepare: calls('prepare'), resolvePath: calls('resolvePath') }).toEqual({ prepare: 1, resolvePath: 1 });
		expect(calls('takeMatch') + calls('matchOf')).toBeLessThanOrEqual(1);
		// Issue 39: followed call by call, a write returns to a file it has left at most twice: once to
		// write.ts when the item runs (read first, then run), and for a create that looks first once to
		// transport.ts for its second request. The item's match is read with it (match.ts); the search
		// is built and sent when it runs (matchExisting.ts, entered then only).
		expect(routeOf(events, entry.until, 'calls').returns).toBeLessThanOrEqual(2);
	});
});
