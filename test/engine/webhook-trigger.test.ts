/**
 * The Loan CRM Webhook Trigger in n8n-core's engine (harness/webhook.ts: n8n-core's WebhookContext,
 * the request and response as n8n 2.41's CLI hands them to a node, its answer and execution rules)
 * against the sandbox: what the caller is answered and when, what the node reads (only the
 * credential's Base URL, never the notification's `url`), what it emits and what it remembers.
 */
import { createServer } from 'http';
import type { AddressInfo } from 'net';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import type { WebhookTarget } from '../../harness';
import { CredentialStore, TestClock, runWebhook, runWebhookMethod, sandboxCredential, startWebhookCall } from '../../harness';
import { forgetWebhookMemories } from '../../nodes/shared/trigger/webhookMemory';
import { MAX_NOTIFICATION_BYTES } from '../../nodes/shared/trigger/webhookNotification';
import { TIMELINE_START, useSandbox } from './helpers';

const env = useSandbox({ clock: TestClock.at(TIMELINE_START) });

let counter = 0;

/** A Webhook Trigger node of its own (its own workflow, node and webhook ids, its own static data). */
function trigger(parameters: INodeParameters = {}, credentials: CredentialStore = env.store): WebhookTarget & { staticData: IDataObject } {
	counter += 1;
	return {
		nodeType: 'loanCrmWebhookTrigger',
		parameters,
		credentials,
		staticData: {},
		ids: { workflowId: `wf-webhook-${counter}`, nodeId: `node-${counter}`, webhookId: `hook-${counter}` },
	};
}

/** The service's notification, as the Postman collection shows it. */
function notification(type: string, id: string | number, url = `https://api.mycrm/jsonapi/${type}/${id}`): IDataObject {
	return { action: 'updated', resource: { type, id: typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id, url }, webhook: { name: 'Deals for n8n' } };
}

const reads = (path?: string) => env.sandbox.apiRequests().filter((request) => path === undefined || request.path === path);

/** A deal not in `statuses`, not used by an earlier test. */
const used = new Set<string>();
function freshDeal(except: string[] = ['Settled', 'Varied']): string {
	const deal = env.sandbox.data.list('deals').find((candidate) => !used.has(candidate.id) && !except.includes(String(candidate.attributes.dealStatus)));
	if (deal === undefined) throw new Error('no deal left');
	used.add(deal.id);
	return deal.id;
}

/** A deal the refusals name (they read nothing). */
const deal = () => env.sandbox.data.ids.settledDeal;

function tick(seconds = 1): void {
	env.clock.advance(seconds * 1000);
}

describe('Loan CRM Webhook Trigger: the answer', () => {
	it('answers 200 at once, before the record is read; the read follows and emits the item', async () => {
		const node = trigger({ dealEvent: 'dealUpdated' });
		const deal = freshDeal();
		env.sandbox.data.updateDeal(deal, { lenderName: 'ANZ' });
		env.sandbox.injectFault({ path: `/jsonapi/deals/${deal}`, kind: 'api' }, { kind: 'delay', ms: 30_000 });
		const startedAt = env.clock.now();
		const call = startWebhookCall(node, { body: notification('deals', deal) });
		const answer = await call.answered;
		const answeredAt = env.clock.now();
		const readAnsweredWhenAnswered = reads(`/jsonapi/deals/${deal}`).filter((request) => request.status !== 0).length;
		const result = await call.finished;
		expect({ status: answer.status, body: answer.json, answeredAfterMs: answeredAt - startedAt, readAnsweredWhenAnswered }).toEqual({
			status: 200,
			body: { status: 'received' },
			answeredAfterMs: 0,
			readAnsweredWhenAnswered: 0,
		});
		// The read was held 30 s on the clock; the item came after it.
		expect(env.clock.now() - startedAt).toBeGreaterThanOrEqual(30_000);
		expect(result.items?.map((item) => [item.json.id, item.json.lenderName])).toEqual([[deal, 'ANZ']]);
	});

	it('reads the record at the credential\'s Base URL, never the notification\'s url: a forged foreign host gets nothing, not even the token', async () => {
		const foreign: Array<{ url?: string; authorization?: string }> = [];
		const host = createServer((request, response) => {
			foreign.push({ url: request.url, authorization: request.headers.authorization });
			response.writeHead(200, { 'content-type': 'application/vnd.api+json' }).end('{"data":{"type":"deals","id":"1","attributes":{"name":"forged"}}}');
		});
		await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', () => resolve()));
		try {
			const foreignUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
			const deal = freshDeal();
			const result = await runWebhook(trigger({ dealEvent: 'dealUpdated' }), { body: notification('deals', deal, `${foreignUrl}/jsonapi/deals/${deal}`) });
			expect(foreign).toEqual([]);
			expect(reads().map((request) => `${request.method} ${request.path}`)).toEqual([`GET /jsonapi/deals/${deal}`]);
			const [read] = reads();
			expect({ accept: read.headers.accept, userId: read.headers.userid, bearer: /^Bearer \S+$/.test(read.headers.authorization ?? '') }).toEqual({ accept: 'application/vnd.api+json', userId: env.sandbox.userId, bearer: true });
			expect(result.items?.map((item) => item.json.id)).toEqual([deal]);
			expect(result.items?.[0].json.name).not.toBe('forged');
		} finally {
			host.close();
		}
	});

	it.each([
		['an unknown record type', () => notification('tasks', deal()), 400, /resource\.type/],
		['a fractional id', () => notification('deals', 10001.5), 400, /resource\.id/],
		['an id that is text', () => notification('deals', 'abc'), 400, /resource\.id/],
		['a zero id', () => notification('deals', 0), 400, /resource\.id/],
		['a negative id', () => notification('deals', -10001), 400, /resource\.id/],
		['an id above int32', () => notification('deals', 2147483648), 400, /resource\.id/],
		['no resource', () => ({ action: 'updated', webhook: { name: 'x' } }), 400, /resource/],
		['a JSON array', () => [notification('deals', deal())], 400, /JSON object/],
		['an action that is not text', () => ({ ...notification('deals', deal()), action: 7 }), 400, /action/],
	])('refuses %s with a 4xx, reads nothing and starts nothing', async (_what, body, status, message) => {
		const result = await runWebhook(trigger(), { body: body() });
		expect({ status: result.answer.status, started: result.items !== undefined, reads: reads().length, tokens: env.sandbox.tokenRequests().length }).toEqual({ status, started: false, reads: 0, tokens: 0 });
		expect(String((result.answer.json as { error?: string })?.error)).toMatch(message);
	});

	it('refuses a body that is not JSON (n8n answers 422 for JSON it cannot parse, the node 415 for another media type) and an oversized one (413)', async () => {
		const node = trigger();
		const broken = await runWebhook(node, { body: '{"action":"updated","resource":{"type":"deals",' });
		const text = await runWebhook(node, { body: 'deals 10003 changed', headers: { 'content-type': 'text/plain' } });
		const form = await runWebhook(node, { body: 'type=deals&id=10003', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
		const padded = { ...notification('deals', deal()), padding: 'x'.repeat(MAX_NOTIFICATION_BYTES) };
		const oversized = await runWebhook(node, { body: padded });
		expect([broken, text, form, oversized].map((result) => [result.answer.status, result.items !== undefined])).toEqual([
			[422, false],
			[415, false],
			[415, false],
			[413, false],
		]);
		expect(reads()).toEqual([]);
	});

	it('answers 200 and ignores a record type the node does not watch (no read, no execution)', async () => {
		const result = await runWebhook(trigger({ resources: ['deals'] }), { body: notification('contacts', env.sandbox.data.ids.contact) });
		expect({ status: result.answer.status, body: result.answer.json, started: result.items !== undefined, reads: reads().length }).toEqual({
			status: 200,
			body: { status: 'ignored', reason: 'this trigger does not watch contacts' },
			started: false,
			reads: 0,
		});
	});
});

describe('Loan CRM Webhook Trigger: the shared secret', () => {
	const SECRET = 'k3y-0f-the-team_2026-x';

	it('in a header: refuses a notification without it or with another (401, nothing read), takes one with it', async () => {
		const node = trigger({ dealEvent: 'dealUpdated', sharedSecret: 'header', headerName: 'X-Loan-CRM-Secret', secret: SECRET });
		const deal = freshDeal();
		const missing = await runWebhook(node, { body: notification('deals', deal) });
		const wrong = await runWebhook(node, { body: notification('deals', deal), headers: { 'x-loan-crm-secret': `${SECRET}!` } });
		const short = await runWebhook(node, { body: notification('deals', deal), headers: { 'x-loan-crm-secret': SECRET.slice(0, -1) } });
		expect([missing, wrong, short].map((result) => [result.answer.status, result.items !== undefined])).toEqual([
			[401, false],
			[401, false],
			[401, false],
		]);
		expect(reads()).toEqual([]);
		const right = await runWebhook(node, { body: notification('deals', deal), headers: { 'X-Loan-CRM-Secret': SECRET } });
		expect([right.answer.status, right.items?.map((item) => item.json.id)]).toEqual([200, [deal]]);
		expect(JSON.stringify(missing.answer.json)).not.toContain(SECRET.slice(0, 6));
	});

	it('in the path: the Production URL ends with it; another path is not registered (404, nothing read)', async () => {
		const node = trigger({ dealEvent: 'dealUpdated', sharedSecret: 'path', secret: SECRET });
		const { url } = await runWebhookMethod(node, 'create');
		expect(url).toBe(`http://localhost:5678/webhook/${node.ids?.webhookId}/notify/${SECRET}`);
		const deal = freshDeal();
		const wrong = await runWebhook(node, { path: `${node.ids?.webhookId}/notify/not-the-secret-at-all`, body: notification('deals', deal) });
		const none = await runWebhook(node, { path: `${node.ids?.webhookId}/notify`, body: notification('deals', deal) });
		expect([wrong.answer.status, none.answer.status, reads().length]).toEqual([404, 404, 0]);
		const right = await runWebhook(node, { path: `${node.ids?.webhookId}/notify/${SECRET}`, body: notification('deals', deal) });
		expect([right.answer.status, right.items?.map((item) => item.json.id)]).toEqual([200, [deal]]);
	});

	it.each([
		['a secret shorter than 16 characters', { sharedSecret: 'header', secret: 'short' }, 'Secret'],
		['a path secret with a slash', { sharedSecret: 'path', secret: 'abcdefgh/ijklmnopq' }, 'Secret'],
		['a header name with a space', { sharedSecret: 'header', headerName: 'X Secret', secret: SECRET }, 'Header Name'],
		['a To Status that is not a status', { toStatuses: 'Settled, Finished' }, 'To Status'],
		['no resource', { resources: [] }, 'Resources'],
	])('a wrong parameter (%s) fails the call before anything is answered: n8n answers 500 and records the error naming it', async (_what, parameters, label) => {
		const result = await runWebhook(trigger(parameters as INodeParameters), { body: notification('deals', deal()), headers: { 'x-loan-crm-secret': SECRET } });
		expect({ status: result.answer.status, started: result.items !== undefined, reads: reads().length }).toEqual({ status: 500, started: false, reads: 0 });
		expect(result.error?.message).toContain(label);
	});
});

describe('Loan CRM Webhook Trigger: records gone or forbidden', () => {
	it('a deleted deal starts nothing and is logged once, however often the service retries', async () => {
		const warn = jest.spyOn(Container.get(Logger), 'warn');
		try {
			const node = trigger({ dealEvent: 'dealUpdated' });
			const deal = freshDeal();
			env.sandbox.data.deleteDeal(deal);
			const results = [];
			for (let attempt = 0; attempt < 3; attempt++) results.push(await runWebhook(node, { body: notification('deals', deal) }));
			expect(results.map((result) => [result.answer.status, result.items !== undefined])).toEqual([
				[200, false],
				[200, false],
				[200, false],
			]);
			expect(reads(`/jsonapi/deals/${deal}`).map((request) => request.status)).toEqual([404, 404, 404]);
			const lines = warn.mock.calls.map(([message]) => String(message)).filter((message) => message.includes(`deals ${deal}`));
			expect(lines).toHaveLength(1);
			expect(lines[0]).toMatch(/no longer exists; nothing started/);
		} finally {
			warn.mockRestore();
		}
	});

	it('a record the credential may not read (403) starts nothing and is logged once', async () => {
		const client = env.sandbox.addClient({ scopes: ['api.contacts.read'] });
		const narrow = new CredentialStore();
		narrow.add('loanCrmOAuth2Api', sandboxCredential(env.sandbox, { ...client, scope: 'api.contacts.read' }));
		const warn = jest.spyOn(Container.get(Logger), 'warn');
		try {
			const node = trigger({ resources: ['deals', 'contacts'], dealEvent: 'dealUpdated' }, narrow);
			const deal = freshDeal();
			const first = await runWebhook(node, { body: notification('deals', deal) });
			const again = await runWebhook(node, { body: notification('deals', deal) });
			const contact = await runWebhook(node, { body: notification('contacts', env.sandbox.data.ids.contact) });
			expect([first.items, again.items, contact.items?.map((item) => item.json.id)]).toEqual([undefined, undefined, [env.sandbox.data.ids.contact]]);
			expect(reads().map((request) => `${request.path} ${request.status}`)).toEqual([`/jsonapi/deals/${deal} 403`, `/jsonapi/deals/${deal} 403`, `/jsonapi/contacts/${env.sandbox.data.ids.contact} 200`]);
			expect(warn.mock.calls.map(([message]) => String(message)).filter((message) => message.includes(`deals ${deal}`))).toEqual([expect.stringMatching(/may not be read with this credential \(403\)/)]);
		} finally {
			warn.mockRestore();
		}
	});
});

describe('Loan CRM Webhook Trigger: once per change', () => {
	it('Deal Updated: the service\'s retries of one change emit one item; the next change one more; an edit within the same second too', async () => {
		const node = trigger({ dealEvent: 'dealUpdated' });
		const deal = freshDeal();
		env.sandbox.data.updateDeal(deal, { lenderName: 'ANZ' });
		const emitted: unknown[] = [];
		const send = async () => {
			const result = await runWebhook(node, { body: notification('deals', deal) });
			emitted.push(...(result.items ?? []).map((item) => item.json.lenderName));
		};
		for (let retry = 0; retry < 3; retry++) await send();
		tick();
		env.sandbox.data.updateDeal(deal, { lenderName: 'Westpac' });
		await send();
		await send();
		// Same second, other content: the service stamps whole seconds; the content tells them apart.
		env.sandbox.data.updateDeal(deal, { lenderName: 'NAB' });
		await send();
		expect(emitted).toEqual(['ANZ', 'Westpac', 'NAB']);
		expect(reads(`/jsonapi/deals/${deal}`)).toHaveLength(6);
	});

	it('a retry that changes nothing leaves the static data as it is (n8n has nothing to save)', async () => {
		const node = trigger({ dealEvent: 'dealUpdated' });
		const deal = freshDeal();
		env.sandbox.data.updateDeal(deal, { lenderName: 'HSBC' });
		const first = await runWebhook(node, { body: notification('deals', deal) });
		const stored = JSON.stringify(node.staticData);
		// Frozen: a write would throw and fail the call.
		Object.freeze(node.staticData);
		const retries = await Promise.all([0, 1].map(async () => await runWebhook(node, { body: notification('deals', deal) })));
		expect([first.items?.length, ...retries.map((retry) => [retry.error, retry.items])]).toEqual([1, [undefined, undefined], [undefined, undefined]]);
		expect(JSON.stringify(node.staticData)).toBe(stored);
	});

	it('retries that arrive together share one read and emit one item', async () => {
		const node = trigger({ dealEvent: 'dealUpdated' });
		const deal = freshDeal();
		env.sandbox.data.updateDeal(deal, { lenderName: 'Macquarie' });
		// The first read is held on the clock, so the other two arrive while a read is on its way (a
		// read of their own follows) and the last while that one waits (it joins it).
		env.sandbox.injectFault({ path: `/jsonapi/deals/${deal}`, kind: 'api' }, { kind: 'delay', ms: 5_000 });
		const calls = [0, 1, 2].map(() => startWebhookCall(node, { body: notification('deals', deal) }));
		const results = await Promise.all(calls.map(async (call) => await call.finished));
		expect(results.map((result) => result.answer.status)).toEqual([200, 200, 200]);
		expect(results.flatMap((result) => result.items ?? []).map((item) => item.json.lenderName)).toEqual(['Macquarie']);
		expect(reads(`/jsonapi/deals/${deal}`)).toHaveLength(2);
	});

	it('n8n hands concurrent calls the same stored static data: the process memory still emits each change once, and the stored copy carries it across a restart', async () => {
		const node = trigger({ dealEvent: 'dealUpdated' });
		const deals = [freshDeal(), freshDeal(), freshDeal()];
		for (const deal of deals) env.sandbox.data.updateDeal(deal, { lenderName: 'Bendigo' });
		// Each call starts from the stored copy and stores its own when it ends: the last one wins.
		let stored: IDataObject = {};
		const call = async (deal: string) => {
			const staticData = deepCopy(stored);
			const result = await runWebhook({ ...node, staticData }, { body: notification('deals', deal) });
			stored = staticData;
			return result.items?.length ?? 0;
		};
		expect(await Promise.all([...deals, ...deals].map(call))).toEqual([1, 1, 1, 0, 0, 0]);
		forgetWebhookMemories();
		expect(await Promise.all(deals.map(call))).toEqual([0, 0, 0]);
		expect((stored.versions as string[]).map((entry) => entry.split('.')[0]).sort()).toEqual(deals.map((deal) => `d${deal}`).sort());
	});

	it('contacts, advisers and organisations: every change once, the record whole, with webhookName', async () => {
		const node = trigger({ resources: ['contacts', 'advisers', 'organisations'] });
		const { contact, adviser, organisation } = env.sandbox.data.ids;
		const items: IDataObject[] = [];
		for (const [type, id] of [['contacts', contact], ['advisers', adviser], ['organisations', organisation], ['contacts', contact]] as const) {
			const result = await runWebhook(node, { body: notification(type, id) });
			items.push(...(result.items ?? []).map((item) => item.json));
		}
		expect(items.map((item) => [item.type, item.id, item.webhookName])).toEqual([
			['contacts', contact, 'Deals for n8n'],
			['advisers', adviser, 'Deals for n8n'],
			['organisations', organisation, 'Deals for n8n'],
		]);
		const stored = env.sandbox.data.get('contacts', contact);
		expect(items[0]).toEqual(expect.objectContaining({ firstName: stored?.attributes.firstName, email: stored?.attributes.email, updated: stored?.attributes.updated }));
		expect(Object.keys(items[0]).at(-1)).toBe('webhookName');
	});
});

describe('Loan CRM Webhook Trigger: deal events', () => {
	it('Deal Status Changed → Settled: once per move into Settled with the status it left; edits, other moves and retries never', async () => {
		const node = trigger({ dealEvent: 'dealStatusChanged', toStatuses: ['Settled'] });
		const deal = freshDeal();
		const emitted: unknown[][] = [];
		const step = async (change: IDataObject) => {
			tick();
			env.sandbox.data.updateDeal(deal, change);
			for (let retry = 0; retry < 2; retry++) {
				const result = await runWebhook(node, { body: notification('deals', deal) });
				emitted.push(...(result.items ?? []).map((item) => [item.json.previousStatus, item.json.dealStatus, item.json.statusChangedAt === item.json.updated]));
			}
		};
		await step({ lenderName: 'ING' });
		await step({ dealStatus: 'PendingSettlement' });
		await step({ dealStatus: 'Settled' });
		await step({ lenderName: 'Suncorp' });
		await step({ dealStatus: 'Varied' });
		await step({ dealStatus: 'Settled' });
		expect(emitted).toEqual([
			['PendingSettlement', 'Settled', true],
			['Varied', 'Settled', true],
		]);
	});

	it('a deal the trigger has not seen, already in a To status, is handled as the Deals Trigger handles one: emitted once with previousStatus null; with From Status set, not at all', async () => {
		const settled = env.sandbox.data.list('deals').filter((candidate) => candidate.attributes.dealStatus === 'Settled' && !used.has(candidate.id))[0].id;
		used.add(settled);
		const anyFrom = trigger({ dealEvent: 'dealStatusChanged', toStatuses: ['Settled'] });
		const fromPending = trigger({ dealEvent: 'dealStatusChanged', toStatuses: ['Settled'], fromStatuses: ['PendingSettlement'] });
		const first = await runWebhook(anyFrom, { body: notification('deals', settled) });
		const second = await runWebhook(anyFrom, { body: notification('deals', settled) });
		const withFrom = await runWebhook(fromPending, { body: notification('deals', settled) });
		expect([first.items?.map((item) => [item.json.id, item.json.previousStatus]), second.items, withFrom.items]).toEqual([[[settled, null]], undefined, undefined]);
	});

	it('the item is the polling triggers\' newest shape (Simplify: the summary; off: every field) plus webhookName', async () => {
		const simple = trigger({ dealEvent: 'dealStatusChanged', toStatuses: [] });
		const full = trigger({ dealEvent: 'dealStatusChanged', toStatuses: [], simplify: false });
		const deal = freshDeal();
		const [summary] = (await runWebhook(simple, { body: notification('deals', deal) })).items ?? [];
		const [every] = (await runWebhook(full, { body: notification('deals', deal) })).items ?? [];
		expect(Object.keys(summary.json).slice(0, 7)).toEqual(['id', 'name', 'dealStatus', 'previousStatus', 'statusChangedAt', 'totalLoanAmount', 'lenderName']);
		expect(Object.keys(summary.json).at(-1)).toBe('webhookName');
		expect(summary.json.dates).toBeUndefined();
		expect(every.json).toEqual(expect.objectContaining({ id: deal, previousStatus: null, type: 'deals', webhookName: 'Deals for n8n' }));
		expect(typeof every.json.dates).toBe('object');
	});

	it('Deal Created: a deal created now is emitted once; its later edits and an old deal\'s edit are not', async () => {
		const node = trigger({ dealEvent: 'dealCreated' });
		const created = env.sandbox.data.createDeal({ name: 'Webhook new deal', dealStatus: 'NewLeads' });
		const old = freshDeal();
		env.sandbox.data.updateDeal(old, { lenderName: 'AMP' });
		const ids: unknown[] = [];
		const send = async (id: string) => ids.push(...((await runWebhook(node, { body: notification('deals', id) })).items ?? []).map((item) => item.json.id));
		await send(created.id);
		await send(created.id);
		tick(60);
		env.sandbox.data.updateDeal(created.id, { lenderName: 'AMP' });
		await send(created.id);
		await send(old);
		expect(ids).toEqual([created.id]);
	});
});

describe('Loan CRM Webhook Trigger: in the editor and on publishing', () => {
	it('"Listen for test event": the notification is emitted, and the memory is read, never written', async () => {
		const node = trigger({ dealEvent: 'dealUpdated' });
		const deal = freshDeal();
		const test = await runWebhook(node, { body: notification('deals', deal), mode: 'manual' });
		const testAgain = await runWebhook(node, { body: notification('deals', deal), mode: 'manual' });
		expect([test.items?.length, testAgain.items?.length, node.staticData]).toEqual([1, 1, {}]);
		const live = await runWebhook(node, { body: notification('deals', deal) });
		expect(live.items?.map((item) => item.json.id)).toEqual([deal]);
	});

	it('publishing registers nothing at Loan CRM: checkExists says no, create logs the Production URL and the records to ask for, delete removes nothing', async () => {
		const info = jest.spyOn(Container.get(Logger), 'info');
		try {
			const node = trigger({ resources: ['deals', 'contacts'] });
			const exists = await runWebhookMethod(node, 'checkExists');
			const created = await runWebhookMethod(node, 'create');
			const deleted = await runWebhookMethod(node, 'delete');
			expect([exists.result, created.result, deleted.result]).toEqual([false, true, true]);
			expect(env.sandbox.requests).toEqual([]);
			const url = `http://localhost:5678/webhook/${node.ids?.webhookId}/notify`;
			expect(created.url).toBe(url);
			expect(info.mock.calls.map(([message]) => String(message))).toEqual([
				`Loan CRM Webhook Trigger "Loan CRM Webhook Trigger": Loan CRM has no subscription API, so nothing was registered there. Ask Loan CRM's team to send webhooks for deals, contacts to ${url}.`,
			]);
		} finally {
			info.mockRestore();
		}
	});
});
