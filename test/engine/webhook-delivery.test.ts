/**
 * The service's webhooks end to end in the engine: the sandbox notifies (sandbox/webhooks.ts, as the
 * service's team sets them up) over HTTP to a webhook host serving the node as n8n does
 * (harness/webhook.ts startWebhookHost), and the node, examples/deal-settled-instant.json's trigger
 * as saved, reads the deal and emits it. What `npm run dev -- --lively` does with the example.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import type { INode, INodeParameters } from 'n8n-workflow';

import type { WebhookHost, WebhookTarget } from '../../harness';
import { REPO_ROOT, TestClock, startWebhookHost } from '../../harness';
import { livelyData } from '../../sandbox';
import { TIMELINE_START, useSandbox } from './helpers';

const env = useSandbox({ clock: TestClock.at(TIMELINE_START) });

/** The example's trigger node as a user imports it. */
function exampleTrigger(): INode {
	const example = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', 'deal-settled-instant.json'), 'utf8')) as { nodes: INode[] };
	return example.nodes.find((node) => node.type === 'n8n-nodes-loan-crm.loanCrmWebhookTrigger') as INode;
}

describe('the sandbox\'s webhooks to the Webhook Trigger (examples/deal-settled-instant.json)', () => {
	let host: WebhookHost;
	let target: WebhookTarget;

	beforeAll(async () => {
		const node = exampleTrigger();
		target = {
			nodeType: 'loanCrmWebhookTrigger',
			parameters: node.parameters as INodeParameters,
			credentials: env.store,
			staticData: {},
			name: node.name,
			ids: { workflowId: 'wf-instant', nodeId: node.id, webhookId: node.webhookId as string },
		};
		host = await startWebhookHost([target]);
	});
	afterAll(async () => await host.close());

	const settle = async () => {
		await env.sandbox.webhooks.idle();
		await host.idle();
	};

	it('a deal settled in the sandbox reaches the workflow once, with the status it left; its retried notification and later edits start nothing', async () => {
		const subscription = env.sandbox.webhooks.subscribe({ url: host.urlOf(target), types: ['deals'], name: 'Deals to n8n' });
		try {
			expect(host.urlOf(target)).toBe(`${host.baseUrl}${target.ids?.webhookId}/notify`);
			const deal = env.sandbox.data.list('deals').find((candidate) => candidate.attributes.dealStatus === 'PendingSettlement');
			if (deal === undefined) throw new Error('no deal in PendingSettlement');
			// Seen in PendingSettlement first (the notification of an edit), then settled.
			env.sandbox.data.updateDeal(deal.id, { lenderName: 'CBA' });
			await settle();
			env.clock.advance(1000);
			env.sandbox.data.updateDeal(deal.id, { dealStatus: 'Settled' });
			await settle();
			// The service retries the same notification (its answer was lost, say).
			env.sandbox.webhooks.notify(subscription, 'deals', Number(deal.id));
			await settle();
			env.clock.advance(1000);
			env.sandbox.data.updateDeal(deal.id, { lenderName: 'Westpac' });
			await settle();
			const emitted = host.calls.flatMap((call) => call.items ?? []).map((item) => [item.json.id, item.json.previousStatus, item.json.dealStatus, item.json.webhookName]);
			expect(emitted).toEqual([[deal.id, 'PendingSettlement', 'Settled', 'Deals to n8n']]);
			expect(host.calls.map((call) => call.answer.status)).toEqual([200, 200, 200, 200]);
			expect(env.sandbox.webhooks.deliveries.map((delivery) => delivery.attempts.map((attempt) => attempt.status))).toEqual([[200], [200], [200], [200]]);
			expect(env.sandbox.apiRequests().map((request) => `${request.method} ${request.path}`)).toEqual(Array(4).fill(`GET /jsonapi/deals/${deal.id}`));
		} finally {
			env.sandbox.webhooks.unsubscribe(subscription.id);
		}
	});

	it('the lively sandbox (npm run dev -- --lively) notifies each step: each settlement reaches the workflow once with previousStatus PendingSettlement; an edited deal settled before the trigger saw it, once with previousStatus null', async () => {
		const subscription = env.sandbox.webhooks.subscribe({ url: host.urlOf(target), types: ['deals', 'contacts'], name: 'npm run dev' });
		try {
			const before = host.calls.length;
			const lively = livelyData(env.sandbox.data);
			const settled: string[] = [];
			const editedWhileSettled: string[] = [];
			for (let step = 0; step < 15; step++) {
				env.clock.advance(10_000);
				for (const change of lively.step()) {
					if (change.kind === 'dealSettled') settled.push(change.dealId);
					if (change.kind === 'dealEdited' && env.sandbox.data.get('deals', change.dealId)?.attributes.dealStatus === 'Settled') editedWhileSettled.push(change.dealId);
				}
				await settle();
			}
			const calls = host.calls.slice(before);
			const emitted = calls.flatMap((call) => call.items ?? []).map((item) => [String(item.json.id), item.json.previousStatus, item.json.dealStatus]);
			expect(settled.length).toBeGreaterThanOrEqual(3);
			expect(emitted.filter(([, previous]) => previous !== null)).toEqual(settled.map((id) => [id, 'PendingSettlement', 'Settled']));
			// The Deals Trigger's rule for a deal it has not seen (README, Instant events with webhooks).
			expect(emitted.filter(([, previous]) => previous === null)).toEqual(editedWhileSettled.map((id) => [id, null, 'Settled']));
			expect(new Set(emitted.map(([id]) => id)).size).toBe(emitted.length);
			// Contacts are notified too, and ignored: the example watches deals only.
			expect(calls.filter((call) => (call.answer.json as { status?: string })?.status === 'ignored').length).toBeGreaterThan(0);
		} finally {
			env.sandbox.webhooks.unsubscribe(subscription.id);
		}
	});
});
