/**
 * The Loan CRM Webhook Trigger: instant events from the service's own webhooks (beyond the seed:
 * the public README's "Real-time Updates via Webhooks" and the Postman collection's notifications).
 *
 * A notification says which record changed; the service is the truth. Each one is handled so:
 *
 *   1. its parameters are read and checked (a wrong one fails the call before anything is answered,
 *      so n8n records a failed execution naming it);
 *   2. the request is checked (webhookNotification.ts: shared secret 401, size 413, media type 415,
 *      the notification 400) and refused with a 4xx, starting nothing; a type the node does not
 *      watch is answered 200 and ignored (the service's team may send more than the node wants);
 *   3. it is answered 200 at once, through n8n's response object (then the call returns
 *      `noWebhookResponse`, which n8n 1.123, 2.30 and 2.41 all honour), so the service never waits
 *      for the read nor retries because of it;
 *   4. the record is read, `GET /jsonapi/<type>/<id>` on the credential's Base URL — never the
 *      notification's `url` — through the credential's gate (webhookReads.ts: a read in flight per
 *      record, Requests in Parallel per credential, the rate budget) with the transport's retries;
 *   5. the record is compared with what the node remembers (webhookMemory.ts) and emitted once per
 *      change, in the polling triggers' newest item shape (output.ts), with `webhookName`.
 *
 * A record that no longer exists (404) or that the credential may not read (403) starts nothing and
 * is logged once; another failure of the read (after the transport's retries) starts nothing and is
 * logged as an error, since the service, answered already, will not send it again.
 *
 * In the editor ("Listen for test event") the same happens on n8n's test URL, but the memory is
 * only read, never written: a test does not use up a production change.
 *
 * The service has no subscription API, so the lifecycle methods register nothing: they say, in n8n's
 * log, which URL and which records to ask the service's team for.
 */
import type { IDataObject, IHookFunctions, INodeProperties, IWebhookDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { invalidParameter } from '../errors/factory';
import { applyPollRateLimitWait } from '../execution/requestOptions';
import { rateLimitWaitProperty } from '../description/rateLimitWait';
import { runContextOf } from '../requests/runContext';
import type { ApiResponse } from '../requests/transport';
import { apiRequest } from '../requests/transport';
import { flatten } from '../service/jsonapi';
import type { NodeVersion } from '../service/versions';
import { VERSION_KEYS } from '../service/versions';
import { TRIGGER_EVENTS, eventOptions, fromStatusProperty, simplifyProperty, toStatusProperty } from './events';
import { fingerprint, serviceClockOf, timestampOf } from './changeFeed';
import { triggerItem } from './output';
import { statusList } from './poll';
import type { TransitionSelection } from './statusTransitions';
import { moves, transitionItem, watchedStatuses } from './statusTransitions';
import type { WebhookMemory, WebhookState } from './webhookMemory';
import { isNewer, recordKey, storeMemory, versionOf, webhookMemory } from './webhookMemory';
import type { Notification, NotificationRequest, SharedSecret, WebhookResource } from './webhookNotification';
import { WEBHOOK_RESOURCES, readNotification } from './webhookNotification';
import { readThroughGate } from './webhookReads';

/**
 * The polling triggers' version whose words the Webhook Trigger speaks: it has one version (1),
 * added with their version 1.2, so its option's label is 1.2's ("Rate Limit Wait (Minutes)", its
 * unit shown) and its items are theirs at 1.2 (the summary rows of 1.1, output.ts). Pinned, not the
 * newest, so that a later polling version does not change a saved Webhook Trigger.
 */
const POLLING_WORDS: { typeVersion: NodeVersion } = { typeVersion: VERSION_KEYS.v1_2 };

/** The deal events the Webhook Trigger offers: the Deals Trigger's. */
export const WEBHOOK_DEAL_EVENTS: readonly string[] = ['dealCreated', 'dealStatusChanged', 'dealUpdated'];

/**
 * Deal Created: the service notifies every change as "updated", creations included, so a deal is
 * new when the read shows it created at most this long before the service's clock (its `Date`
 * header): long enough for the service's retries and a read that waited for the rate budget (When
 * Rate Limited, 10 minutes by default), short enough that an old deal's edit never passes for one.
 * Each deal is emitted as created once.
 */
export const DEAL_CREATED_WITHIN_MS = 60 * 60_000;

/** Where the notifications arrive, below n8n's webhook URL of the node; a path secret follows it. */
export const NOTIFICATION_PATH = 'notify';

/** A shared secret's shortest length, and what a path secret may contain (one URL segment as typed). */
const MIN_SECRET_LENGTH = 16;
const PATH_SECRET = /^[A-Za-z0-9_-]+$/;
const HEADER_NAME = /^[A-Za-z0-9-]+$/;

/** The webhook n8n serves for the node: POST <webhook URL>/<webhook id>/notify[/<path secret>]. */
export function notificationWebhook(): IWebhookDescription {
	return {
		name: 'default',
		httpMethod: 'POST',
		// The node answers itself (at once, after checking the request); n8n's mode is then unused.
		responseMode: 'onReceived',
		path: `={{ $parameter["sharedSecret"] === "path" ? "${NOTIFICATION_PATH}/" + $parameter["secret"] : "${NOTIFICATION_PATH}" }}`,
	};
}

const RESOURCE_OPTIONS: Array<{ name: string; value: WebhookResource; description: string }> = [
	{ name: 'Deals', value: 'deals', description: 'A deal was created or changed (the Deal Event below says which changes start the workflow)' },
	{ name: 'Contacts', value: 'contacts', description: 'A contact was created or changed' },
	{ name: 'Advisers', value: 'advisers', description: 'An adviser of the organisation was created or changed' },
	{ name: 'Organisations', value: 'organisations', description: 'An organisation was created or changed' },
];

/** The Webhook Trigger's parameters. */
export function webhookTriggerProperties(): INodeProperties[] {
	const forDeals = { resources: ['deals'] };
	const statusChanged = { ...forDeals, dealEvent: ['dealStatusChanged'] };
	return [
		{
			displayName:
				"Loan CRM sends notifications only to addresses its team has set up; nothing is registered automatically. Send this node's Production URL (Webhook URLs above) to Loan CRM's team (Ask LMG) and ask for webhooks for the records chosen under Resources. Publish the workflow first.",
			name: 'setupNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Resources',
			name: 'resources',
			type: 'multiOptions',
			options: RESOURCE_OPTIONS,
			default: ['deals'],
			required: true,
			description: 'Which records start the workflow when Loan CRM notifies a change. Ask Loan CRM\'s team for webhooks for the same records.',
		},
		{
			displayName: 'Deal Event',
			name: 'dealEvent',
			type: 'options',
			noDataExpression: true,
			options: eventOptions(WEBHOOK_DEAL_EVENTS),
			default: 'dealStatusChanged',
			description: 'Which deal changes start the workflow; contacts, advisers and organisations start it on every change',
			displayOptions: { show: forDeals },
		},
		toStatusProperty(statusChanged, ['Settled']),
		fromStatusProperty(statusChanged),
		simplifyProperty({ show: forDeals }),
		{
			displayName: 'Shared Secret',
			name: 'sharedSecret',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'None', value: 'none', description: 'Accept any notification (each is only a hint: the node reads the record from Loan CRM itself)' },
				{ name: 'In a Header', value: 'header', description: "Loan CRM's team sends the secret in a header of every notification" },
				{ name: 'In the Path', value: 'path', description: 'The secret is the last part of the Production URL you send to Loan CRM\'s team' },
			],
			default: 'none',
			description: 'A secret you choose and give to Loan CRM\'s team with the URL; notifications without it are refused (401, or 404 in the path)',
		},
		{
			displayName: 'Header Name',
			name: 'headerName',
			type: 'string',
			default: 'X-Loan-CRM-Secret',
			description: 'The header Loan CRM\'s team puts the secret in',
			displayOptions: { show: { sharedSecret: ['header'] } },
		},
		{
			displayName: 'Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: `At least ${MIN_SECRET_LENGTH} characters; in the path only letters, digits, - and _`,
			displayOptions: { show: { sharedSecret: ['header', 'path'] } },
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [rateLimitWaitProperty(POLLING_WORDS.typeVersion)],
		},
	];
}

interface WebhookSettings {
	resources: WebhookResource[];
	dealEvent: string;
	/** Deal Status Changed only. */
	selection?: TransitionSelection;
	simplify: boolean;
	secret?: SharedSecret;
}

/** The node's parameters, each checked and named in the error when wrong. */
function readSettings(context: IWebhookFunctions): WebhookSettings {
	const node = context.getNode();
	const resourcesValue = context.getNodeParameter('resources', ['deals']) as unknown;
	const resources = (Array.isArray(resourcesValue) ? resourcesValue : typeof resourcesValue === 'string' ? resourcesValue.split(',') : [])
		.map((entry) => String(entry).trim())
		.filter((entry) => entry !== '');
	const unknown = resources.find((entry) => !(WEBHOOK_RESOURCES as readonly string[]).includes(entry));
	if (resources.length === 0 || unknown !== undefined) {
		throw invalidParameter(node, 'Resources', `must name one or more of ${WEBHOOK_RESOURCES.join(', ')}${unknown === undefined ? '' : `; got "${unknown.slice(0, 60)}"`}`);
	}
	const dealEvent = context.getNodeParameter('dealEvent', 'dealStatusChanged') as string;
	if (!WEBHOOK_DEAL_EVENTS.includes(dealEvent)) throw invalidParameter(node, 'Deal Event', `has "${String(dealEvent).slice(0, 60)}", which is not an event of this trigger`);
	const watchesDeals = resources.includes('deals');
	const selection =
		watchesDeals && dealEvent === 'dealStatusChanged'
			? { to: statusList(context, 'toStatuses', 'To Status'), from: statusList(context, 'fromStatuses', 'From Status') }
			: undefined;
	const simplify = context.getNodeParameter('simplify', true) as unknown;
	if (typeof simplify !== 'boolean') throw invalidParameter(node, 'Simplify', `must be true or false; got ${JSON.stringify(simplify)}`);
	const location = context.getNodeParameter('sharedSecret', 'none') as string;
	let secret: SharedSecret | undefined;
	if (location === 'header' || location === 'path') {
		const value = String(context.getNodeParameter('secret', '') ?? '');
		if (value.length < MIN_SECRET_LENGTH) throw invalidParameter(node, 'Secret', `must have at least ${MIN_SECRET_LENGTH} characters`);
		if (location === 'path') {
			if (!PATH_SECRET.test(value)) throw invalidParameter(node, 'Secret', 'is part of the URL: use only letters, digits, - and _');
			secret = { in: 'path', value };
		} else {
			const header = String(context.getNodeParameter('headerName', 'X-Loan-CRM-Secret') ?? '').trim();
			if (!HEADER_NAME.test(header)) throw invalidParameter(node, 'Header Name', 'must be a header name: letters, digits and -');
			secret = { in: 'header', header: header.toLowerCase(), value };
		}
	} else if (location !== 'none') {
		throw invalidParameter(node, 'Shared Secret', `has "${String(location).slice(0, 60)}"; use none, header or path`);
	}
	applyPollRateLimitWait(context, context.getNodeParameter('options', {}) as IDataObject, POLLING_WORDS);
	return { resources: resources as WebhookResource[], dealEvent, selection, simplify, secret };
}

/** The request as n8n hands it to the node (n8n's request object: headers, parsed and raw body). */
function notificationRequest(context: IWebhookFunctions): NotificationRequest {
	const request = context.getRequestObject() as unknown as {
		headers: NotificationRequest['headers'];
		body?: unknown;
		rawBody?: Uint8Array;
		contentType?: string;
		path?: string;
		originalUrl?: string;
		url?: string;
	};
	const contentType = request.contentType ?? (Array.isArray(request.headers['content-type']) ? request.headers['content-type'][0] : request.headers['content-type']);
	return {
		contentType,
		rawBody: request.rawBody instanceof Uint8Array ? request.rawBody : undefined,
		body: request.body,
		headers: request.headers,
		path: (request.originalUrl ?? request.url ?? request.path ?? '').split('?')[0],
	};
}

/** Answers the notification now (JSON), unless something already did. */
function answer(context: IWebhookFunctions, status: number, body: IDataObject): void {
	const response = context.getResponseObject() as unknown as { headersSent?: boolean; writeHead: (status: number, headers: Record<string, string>) => void; end: (text: string) => void };
	if (response.headersSent === true) return;
	response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
	response.end(JSON.stringify(body));
}

/** Warnings already logged: a record gone or forbidden is logged once per trigger node, not per retry. */
const loggedOnce = new Set<string>();
const MAX_LOGGED_ONCE = 10_000;

function logOnce(key: string, log: () => void): void {
	if (loggedOnce.has(key)) return;
	if (loggedOnce.size >= MAX_LOGGED_ONCE) loggedOnce.delete(loggedOnce.values().next().value as string);
	loggedOnce.add(key);
	log();
}

type ReadOutcome = { record: IDataObject; serviceNowMs: number | undefined } | { failure: unknown };

/** Reads the notified record through the credential's gate (webhookReads.ts). */
async function readRecord(context: IWebhookFunctions, notification: Notification): Promise<ReadOutcome> {
	const outcome = await runContextOf(context).connectionSettings();
	const credentialKey = 'settings' in outcome ? outcome.settings.budgetKey : 'unusable credential';
	return await readThroughGate<ReadOutcome>(credentialKey, recordKey(notification.type, notification.id), async () => {
		try {
			const response: ApiResponse = await apiRequest.call(context, { method: 'GET', path: `/${notification.type}/${notification.id}` });
			const [record] = flatten(response.body ?? {});
			if (record === undefined || String(record.id) !== String(notification.id)) return { failure: new Error(`the answer holds no ${notification.type} record ${notification.id}`) };
			return { record, serviceNowMs: serviceClockOf(response) };
		} catch (failure) {
			return { failure };
		}
	});
}

/** What a read record means for this node: the item to emit, if any; the memory is updated unless `dryRun`. */
function judge(
	settings: WebhookSettings,
	memory: WebhookMemory,
	notification: Notification,
	read: { record: IDataObject; serviceNowMs: number | undefined },
	dryRun: boolean,
): { item?: IDataObject; forgotten: number } {
	const { record } = read;
	const key = recordKey(notification.type, notification.id);
	if (notification.type === 'deals' && settings.selection !== undefined) {
		const current = record.dealStatus;
		if (typeof current !== 'string') return { forgotten: 0 };
		const previous = memory.statuses.get(notification.id);
		const forgotten = dryRun ? 0 : memory.rememberStatus(notification.id, current, watchedStatuses(settings.selection));
		if (!moves(settings.selection, previous, current)) return { forgotten };
		return { item: transitionItem(record, previous ?? null, record.updated), forgotten };
	}
	const version = versionOf(record);
	const remembered = memory.versions.get(key);
	if (notification.type === 'deals' && settings.dealEvent === 'dealCreated') {
		if (!dryRun) memory.rememberVersion(key, remembered ?? version);
		if (remembered !== undefined && !dryRun) return { forgotten: 0 };
		const created = timestampOf(record, 'created');
		const now = read.serviceNowMs ?? timestampOf(record, 'updated');
		const isNew = created !== undefined && now !== undefined && now - created <= DEAL_CREATED_WITHIN_MS;
		return isNew ? { item: record, forgotten: 0 } : { forgotten: 0 };
	}
	if (!isNewer(version, remembered) && !dryRun) return { forgotten: 0 };
	if (!dryRun) memory.rememberVersion(key, version);
	return { item: record, forgotten: 0 };
}

/** The node's `webhook`: one notification (see the file header). */
export async function handleNotification(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const settings = readSettings(context);
	const node = context.getNode();
	const trigger = `Loan CRM Webhook Trigger "${node.name}"`;
	const verdict = readNotification(notificationRequest(context), settings.secret);
	if ('refusal' in verdict) {
		context.logger.debug(`${trigger}: refused a notification (${verdict.refusal.status}): ${verdict.refusal.message}`);
		answer(context, verdict.refusal.status, { error: verdict.refusal.message });
		return { noWebhookResponse: true };
	}
	const { notification } = verdict;
	if (!settings.resources.includes(notification.type)) {
		answer(context, 200, { status: 'ignored', reason: `this trigger does not watch ${notification.type}` });
		return { noWebhookResponse: true };
	}
	answer(context, 200, { status: 'received' });

	const read = await readRecord(context, notification);
	const nodeKey = `${String(context.getWorkflow().id)}:${node.id}`;
	if ('failure' in read) {
		const status = String((read.failure as { httpCode?: unknown })?.httpCode ?? '');
		const message = read.failure instanceof Error ? read.failure.message : String(read.failure);
		if (status === '404' || status === '403') {
			const why = status === '404' ? 'no longer exists' : 'may not be read with this credential (403)';
			logOnce(`${nodeKey}|${notification.type}:${notification.id}|${status}`, () =>
				context.logger.warn(`${trigger}: Loan CRM notified a change of ${notification.type} ${notification.id}, which ${why}; nothing started. ${message}`),
			);
		} else {
			context.logger.error(`${trigger}: could not read ${notification.type} ${notification.id} after Loan CRM's notification; nothing started, and Loan CRM will not send it again. ${message}`);
		}
		return { noWebhookResponse: true };
	}

	const dryRun = context.getMode() === 'manual';
	const settingsKey = fingerprint({ resources: [...settings.resources].sort(), dealEvent: settings.dealEvent, to: settings.selection?.to ?? [], from: settings.selection?.from ?? [] });
	const staticData = context.getWorkflowStaticData('node');
	const memory = webhookMemory(nodeKey, settingsKey, staticData as WebhookState, !dryRun);
	const { item, forgotten } = judge(settings, memory, notification, read, dryRun);
	if (forgotten !== 0) context.logger.warn(`${trigger} remembers the status of at most 50000 deals and forgot ${forgotten} in the watched statuses; if one of them changes while in a To status it is emitted once with previousStatus null.`);
	if (!dryRun) storeMemory(staticData, memory);
	if (item === undefined) {
		context.logger.debug(`${trigger}: ${notification.type} ${notification.id} shows no change to emit (a repeat, or not the event)`);
		return { noWebhookResponse: true };
	}
	const shaped = { ...triggerItem(item, { version1: false, simplify: settings.simplify }), webhookName: notification.webhookName };
	return { noWebhookResponse: true, workflowData: [context.helpers.returnJsonArray([shaped])] };
}

/** The resources the node asks the service's team for, as words. */
function resourceWords(context: IHookFunctions): string {
	const value = context.getNodeParameter('resources', ['deals']) as unknown;
	const resources = Array.isArray(value) ? value.map(String) : [String(value)];
	return resources.join(', ');
}

/**
 * The lifecycle n8n runs when the workflow is published (and at every start): the service has no
 * subscription API, so nothing can be checked or registered there. `checkExists` says no (n8n then
 * calls `create`), `create` registers nothing and logs the URL and records to ask the service's team
 * for, `delete` has nothing to remove (the service's team stops the notifications; until then they
 * are answered 404 by n8n).
 */
export const webhookLifecycle = {
	async checkExists(this: IHookFunctions): Promise<boolean> {
		return false;
	},
	async create(this: IHookFunctions): Promise<boolean> {
		const url = this.getNodeWebhookUrl('default');
		const line = `Loan CRM Webhook Trigger "${this.getNode().name}": Loan CRM has no subscription API, so nothing was registered there. Ask Loan CRM's team to send webhooks for ${resourceWords(this)} to ${url ?? "this node's Production URL"}.`;
		if (this.getActivationMode() === 'manual') this.logger.debug(line);
		else this.logger.info(line);
		return true;
	},
	async delete(this: IHookFunctions): Promise<boolean> {
		this.logger.debug(`Loan CRM Webhook Trigger "${this.getNode().name}": nothing to remove at Loan CRM; ask its team to stop the webhooks if the workflow stays unpublished.`);
		return true;
	},
};

/** The deal events' names, for the canvas subtitle. */
export function dealEventSubtitle(): string {
	const chain = WEBHOOK_DEAL_EVENTS.map((value) => `$parameter["dealEvent"] === ${JSON.stringify(value)} ? ${JSON.stringify(TRIGGER_EVENTS[value].name)} : `).join('');
	return `={{ ($parameter["resources"] || []).join(", ") + (($parameter["resources"] || []).includes("deals") ? " · " + (${chain}$parameter["dealEvent"]) : "") }}`;
}
