/**
 * The service's webhooks, as its team configures them on request (not from the seed: the public
 * README's "Real-time Updates via Webhooks" and the main Postman collection's notifications, see
 * reference/api-facts.md §5). A subscription is what the customer asks the team for: an address,
 * the record types, a name. Every create and update of a record of those types is then `POST`ed to
 * the address as JSON:
 *
 *   {"action":"updated","resource":{"type":"deals","id":10003,"url":"<base URL>/jsonapi/deals/10003"},"webhook":{"name":"…"}}
 *
 * `action` is "updated" for creations too (no other value is documented); nothing signs it. A 2xx
 * answer delivers it; another answer or a failed connection is retried "a number of times over a
 * short period" — here `RETRY_DELAYS_MS` (1, 5 and 15 s, on the sandbox's clock) — before the
 * notification is given up. Deletions are not notified (not documented).
 *
 * Subscriptions are added in code (`sandbox.webhooks.subscribe`), over HTTP (the admin endpoint
 * `/sandbox/webhooks`: GET lists, POST `{url, types, name, headers?}` adds, DELETE
 * `/sandbox/webhooks/<id>` removes; no token, it is the service's team's console) or with
 * `npm run sandbox -- --webhook <url> [--webhook-types deals,contacts] [--webhook-name NAME]`.
 * `headers` stand for a shared secret the team was asked to send. Every notification is logged
 * (`deliveries`) with each attempt's status.
 */
import type { ServerResponse } from 'http';

import { sleepOn, type SandboxClock } from './clock';


/** The record types notifications are documented for. */
export const WEBHOOK_TYPES: readonly string[] = ['deals', 'contacts', 'advisers', 'organisations'];

/** Waits before the 2nd, 3rd and 4th attempt of a notification not answered 2xx. */
export const RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 15_000];

/** How long one attempt waits for its answer. */
const ATTEMPT_TIMEOUT_MS = 10_000;

export interface WebhookSubscription {
	id: string;
	url: string;
	types: string[];
	name: string;
	/** Sent with every notification (e.g. a shared secret the customer gave the team). */
	headers: Record<string, string>;
}

export interface DeliveryAttempt {
	/** The answer's status, or 0 when the connection failed. */
	status: number;
	/** The sandbox's clock when the answer (or the failure) came. */
	at: number;
}

export interface WebhookDelivery {
	subscription: string;
	type: string;
	id: number;
	/** The notification exactly as sent. */
	body: string;
	attempts: DeliveryAttempt[];
	/** Answered 2xx; false when every attempt failed (or still going: `done` false). */
	delivered: boolean;
	done: boolean;
}

/** What a test or the admin endpoint gives to subscribe. */
export interface SubscriptionInput {
	url: string;
	types?: string[];
	name?: string;
	headers?: Record<string, string>;
}

/** The sandbox's clock, which the retries wait on. */
type DeliveryClock = SandboxClock;

export class WebhookDeliveries {
	readonly subscriptions: WebhookSubscription[] = [];
	readonly deliveries: WebhookDelivery[] = [];
	private readonly running = new Set<Promise<void>>();
	private readonly timers = new Set<NodeJS.Timeout>();
	private counter = 0;
	private closed = false;

	constructor(
		private readonly clock: DeliveryClock,
		/** The service's base address (no /jsonapi), for `resource.url`. */
		private readonly baseUrl: () => string,
	) {}

	subscribe(input: SubscriptionInput): WebhookSubscription {
		if (typeof input.url !== 'string' || !/^https?:\/\//.test(input.url)) throw new Error('a webhook needs an http(s) url');
		const types = input.types ?? [...WEBHOOK_TYPES];
		const unknown = types.filter((type) => !WEBHOOK_TYPES.includes(type));
		if (types.length === 0 || unknown.length > 0) throw new Error(`webhook types are ${WEBHOOK_TYPES.join(', ')}; got ${JSON.stringify(types)}`);
		this.counter += 1;
		const subscription: WebhookSubscription = {
			id: `webhook-${this.counter}`,
			url: input.url,
			types: [...new Set(types)],
			name: input.name ?? `Sandbox webhook ${this.counter}`,
			headers: { ...(input.headers ?? {}) },
		};
		this.subscriptions.push(subscription);
		return subscription;
	}

	unsubscribe(id: string): boolean {
		const index = this.subscriptions.findIndex((subscription) => subscription.id === id);
		if (index < 0) return false;
		this.subscriptions.splice(index, 1);
		return true;
	}

	/** A record was created or updated: one notification to each subscription of its type. */
	changed(type: string, id: number): void {
		for (const subscription of this.subscriptions) if (subscription.types.includes(type)) this.notify(subscription, type, id);
	}

	/** The service's notification of `type` `id` for a subscription, as sent. */
	notification(subscription: WebhookSubscription, type: string, id: number): string {
		return JSON.stringify({ action: 'updated', resource: { type, id, url: `${this.baseUrl()}/jsonapi/${type}/${id}` }, webhook: { name: subscription.name } });
	}

	/** Sends (with retries) one notification now; resolves with its delivery when it is done. */
	notify(subscription: WebhookSubscription, type: string, id: number): WebhookDelivery {
		const delivery: WebhookDelivery = { subscription: subscription.id, type, id, body: this.notification(subscription, type, id), attempts: [], delivered: false, done: false };
		this.deliveries.push(delivery);
		const work = this.deliver(subscription, delivery);
		this.running.add(work);
		void work.finally(() => this.running.delete(work));
		return delivery;
	}

	/** Resolves when every notification sent so far is delivered or given up. */
	async idle(): Promise<void> {
		while (this.running.size > 0) await Promise.all([...this.running]);
	}

	/** Notifications being sent or waiting for a retry. */
	get pending(): number {
		return this.running.size;
	}

	close(): void {
		this.closed = true;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
	}

	private async deliver(subscription: WebhookSubscription, delivery: WebhookDelivery): Promise<void> {
		// After the write that caused it has returned, as the service notifies after its commit.
		await Promise.resolve();
		try {
			for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length && !this.closed; attempt++) {
				if (attempt > 0) await this.wait(RETRY_DELAYS_MS[attempt - 1]);
				if (this.closed) return;
				const status = await this.post(subscription, delivery.body);
				delivery.attempts.push({ status, at: this.clock.now() });
				if (status >= 200 && status < 300) {
					delivery.delivered = true;
					return;
				}
			}
		} finally {
			delivery.done = true;
		}
	}

	private async post(subscription: WebhookSubscription, body: string): Promise<number> {
		try {
			const response = await fetch(subscription.url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...subscription.headers },
				body,
				signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
			});
			await response.arrayBuffer().catch(() => undefined);
			return response.status;
		} catch {
			return 0;
		}
	}

	private async wait(ms: number): Promise<void> {
		await sleepOn(this.clock, ms, this.timers, { unref: true });
	}
}

/** Where the service's team's console for webhooks is served (see the file header). */
export const WEBHOOK_ADMIN_PATH = '/sandbox/webhooks';

function reply(res: ServerResponse, status: number, body: unknown): void {
	const text = JSON.stringify(body);
	res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
	res.end(text);
}

/** The admin endpoint: GET lists subscriptions (and the last deliveries), POST adds one, DELETE /<id> removes it. */
export function handleWebhookAdmin(webhooks: WebhookDeliveries, method: string, path: string, body: string, res: ServerResponse): void {
	const id = path.slice(WEBHOOK_ADMIN_PATH.length + 1);
	if (method === 'GET' && id === '') {
		reply(res, 200, { subscriptions: webhooks.subscriptions, deliveries: webhooks.deliveries.slice(-100) });
		return;
	}
	if (method === 'POST' && id === '') {
		let input: SubscriptionInput;
		try {
			input = JSON.parse(body) as SubscriptionInput;
			reply(res, 201, webhooks.subscribe(input));
		} catch (error) {
			reply(res, 400, { error: error instanceof Error ? error.message : String(error) });
		}
		return;
	}
	if (method === 'DELETE' && id !== '') {
		if (webhooks.unsubscribe(id)) res.writeHead(204).end();
		else reply(res, 404, { error: `no webhook ${id}` });
		return;
	}
	reply(res, 405, { error: `${method} ${path}: GET or POST ${WEBHOOK_ADMIN_PATH}, DELETE ${WEBHOOK_ADMIN_PATH}/<id>` });
}
