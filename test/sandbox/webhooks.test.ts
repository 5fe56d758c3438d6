/**
 * The sandbox's webhooks (sandbox/webhooks.ts), as the service's team configures them: an address,
 * record types and a name; every create and update of those records notified in the service's
 * payload, retried a few times on a non-2xx answer (on the sandbox's clock); and the single-record
 * reads a notification's receiver makes.
 */
import { createServer } from 'http';
import type { AddressInfo } from 'net';
import type { Server } from 'http';

import { TestClock } from '../../harness/clock';
import { RETRY_DELAYS_MS, SERVED_ENDPOINTS, WEBHOOK_ADMIN_PATH, startSandbox } from '../../sandbox';
import type { Sandbox, WebhookDelivery } from '../../sandbox';
import { Api } from './testkit';

interface Received {
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

/** A receiver answering each notification with the next status of `statuses` (then 200). */
async function receiver(statuses: number[] = []): Promise<{ server: Server; url: string; received: Received[] }> {
	const received: Received[] = [];
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
			response.writeHead(statuses.shift() ?? 200).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/abc/notify`, received };
}

/** Lets the event loop turn until `done` (no timers: the sandbox's waits are on the test clock). */
async function until(done: () => boolean): Promise<void> {
	for (let turns = 0; !done(); turns++) {
		if (turns > 100_000) throw new Error('gave up waiting');
		await new Promise((resolve) => setImmediate(resolve));
	}
}

describe('sandbox: webhooks', () => {
	const clock = TestClock.at(Date.UTC(2026, 10, 26));
	let sb: Sandbox;
	let api: Api;
	const servers: Server[] = [];

	beforeAll(async () => {
		sb = await startSandbox({ sizes: { deals: 20, contacts: 10, incomes: 5, dealSecurities: 5 }, clock });
		api = await Api.connect(sb);
	});
	afterAll(async () => {
		for (const server of servers) server.close();
		await sb.close();
	});
	beforeEach(() => {
		for (const subscription of [...sb.webhooks.subscriptions]) sb.webhooks.unsubscribe(subscription.id);
		sb.webhooks.deliveries.length = 0;
		sb.data.reset();
	});

	async function subscribed(types: string[], statuses: number[] = [], headers: Record<string, string> = {}) {
		const target = await receiver(statuses);
		servers.push(target.server);
		const reply = await fetch(`${sb.baseUrl}${WEBHOOK_ADMIN_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: target.url, types, name: 'To n8n', headers }) });
		expect(reply.status).toBe(201);
		return { ...target, subscription: (await reply.json()) as { id: string; types: string[] } };
	}

	it('the admin endpoint adds, lists and removes subscriptions; it is not the API (not logged, no token)', async () => {
		const { subscription, url } = await subscribed(['deals', 'contacts']);
		expect(subscription).toEqual({ id: expect.stringMatching(/^webhook-\d+$/), url, types: ['deals', 'contacts'], name: 'To n8n', headers: {} });
		const listed = (await (await fetch(`${sb.baseUrl}${WEBHOOK_ADMIN_PATH}`)).json()) as { subscriptions: unknown[] };
		expect(listed.subscriptions).toEqual([subscription]);
		const bad = await fetch(`${sb.baseUrl}${WEBHOOK_ADMIN_PATH}`, { method: 'POST', body: JSON.stringify({ url, types: ['tasks'] }) });
		expect([bad.status, ((await bad.json()) as { error: string }).error]).toEqual([400, expect.stringContaining('webhook types are deals, contacts, advisers, organisations')]);
		const removed = await fetch(`${sb.baseUrl}${WEBHOOK_ADMIN_PATH}/${subscription.id}`, { method: 'DELETE' });
		const again = await fetch(`${sb.baseUrl}${WEBHOOK_ADMIN_PATH}/${subscription.id}`, { method: 'DELETE' });
		expect([removed.status, again.status, sb.webhooks.subscriptions]).toEqual([204, 404, []]);
		expect(sb.requests.filter((request) => request.path.startsWith(WEBHOOK_ADMIN_PATH))).toEqual([]);
	});

	it('notifies every create and update of the subscribed types in the service\'s payload (POST, JSON, the headers asked for), and nothing else', async () => {
		const { received } = await subscribed(['deals', 'contacts'], [], { 'X-Loan-CRM-Secret': 'the-shared-secret-1' });
		const deal = sb.data.ids.dealWithoutNotes;
		sb.data.updateDeal(deal, { lenderName: 'ANZ' });
		const created = await api.post('/jsonapi/contacts', { data: { type: 'contacts', attributes: { firstName: 'Ada', lastName: 'Hook' } } });
		expect(created.status).toBe(201);
		const contact = created.json.data.id as string;
		await api.patch(`/jsonapi/deal-notes/${sb.data.ids.dealNote}`, { data: { type: 'deal-notes', id: sb.data.ids.dealNote, attributes: { title: 'Not a webhook type' } } });
		await until(() => sb.webhooks.pending === 0 && received.length >= 2);
		const bodies = received.map((entry) => JSON.parse(entry.body) as unknown);
		expect(bodies).toEqual([
			{ action: 'updated', resource: { type: 'deals', id: Number(deal), url: `${sb.baseUrl}/jsonapi/deals/${deal}` }, webhook: { name: 'To n8n' } },
			{ action: 'updated', resource: { type: 'contacts', id: Number(contact), url: `${sb.baseUrl}/jsonapi/contacts/${contact}` }, webhook: { name: 'To n8n' } },
		]);
		expect(received.map((entry) => [entry.headers['content-type'], entry.headers['x-loan-crm-secret']])).toEqual([
			['application/json', 'the-shared-secret-1'],
			['application/json', 'the-shared-secret-1'],
		]);
		expect(sb.webhooks.deliveries.map((delivery) => [delivery.type, delivery.delivered, delivery.attempts.map((attempt) => attempt.status)])).toEqual([
			['deals', true, [200]],
			['contacts', true, [200]],
		]);
	});

	it('retries a notification not answered 2xx after 1, 5 and 15 seconds of the sandbox\'s clock, then gives it up', async () => {
		const { received } = await subscribed(['deals'], [503, 404, 500, 502]);
		const deal = sb.data.ids.settledDeal;
		const start = clock.now();
		sb.data.updateDeal(deal, { lenderName: 'NAB' });
		const delivery = sb.webhooks.deliveries[0] as WebhookDelivery;
		for (const [index, delay] of RETRY_DELAYS_MS.entries()) {
			await until(() => delivery.attempts.length === index + 1 && clock.sleeping > 0);
			clock.advance(delay);
		}
		await until(() => delivery.done);
		expect(delivery.attempts.map((attempt) => [attempt.status, attempt.at - start])).toEqual([
			[503, 0],
			[404, 1_000],
			[500, 6_000],
			[502, 21_000],
		]);
		expect([delivery.delivered, received.length, new Set(received.map((entry) => entry.body)).size]).toEqual([false, 4, 1]);
	});

	it('a notification answered 2xx on a retry is delivered; a refused connection counts as a failed attempt', async () => {
		const { subscription } = await subscribed(['deals'], [500]);
		sb.data.updateDeal(sb.data.ids.lead, { lenderName: 'ING' });
		const delivery = sb.webhooks.deliveries[0] as WebhookDelivery;
		await until(() => delivery.attempts.length === 1 && clock.sleeping > 0);
		clock.advance(RETRY_DELAYS_MS[0]);
		await until(() => delivery.done);
		expect([delivery.delivered, delivery.attempts.map((attempt) => attempt.status)]).toEqual([true, [500, 200]]);
		sb.webhooks.unsubscribe(subscription.id);
		const closed = await receiver();
		closed.server.close();
		const gone = sb.webhooks.subscribe({ url: closed.url, types: ['deals'] });
		const refused = sb.webhooks.notify(gone, 'deals', Number(sb.data.ids.lead));
		await until(() => refused.attempts.length === 1);
		expect(refused.attempts[0].status).toBe(0);
		sb.webhooks.unsubscribe(gone.id);
	});

	it('serves the record a notification names: GET /jsonapi/<type>/{id} for deals, contacts, advisers and organisations (404 when gone)', async () => {
		// Each served once, whichever table of sandbox/schema.ts has it (the brokerage's advisers list has the adviser's).
		const records = ['deals', 'contacts', 'advisers', 'organisations'].map((type) => `GET /${type}/{id}`);
		expect(
			SERVED_ENDPOINTS.filter((endpoint) => records.includes(`${endpoint.method} ${endpoint.path}`)).map((endpoint) => `${endpoint.method} ${endpoint.path} ${endpoint.scope}`).sort(),
		).toEqual(['GET /advisers/{id} api.advisers.read', 'GET /contacts/{id} api.contacts.read', 'GET /deals/{id} api.deals.read', 'GET /organisations/{id} api.organisations.read']);
		const { ids } = sb.data;
		for (const [type, id] of [['deals', ids.settledDeal], ['contacts', ids.contact], ['advisers', ids.adviser], ['organisations', ids.organisation]]) {
			const reply = await api.get(`/jsonapi/${type}/${id}`);
			expect([reply.status, reply.json.data.type, reply.json.data.id]).toEqual([200, type, id]);
		}
		sb.data.deleteDeal(ids.dealWithoutNotes);
		expect((await api.get(`/jsonapi/deals/${ids.dealWithoutNotes}`)).status).toBe(404);
		const contactsOnly = await Api.connect(sb, 'api.contacts.read');
		expect((await contactsOnly.get(`/jsonapi/deals/${ids.settledDeal}`)).status).toBe(403);
	});
});
