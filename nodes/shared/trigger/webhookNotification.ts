/**
 * What the Webhook Trigger accepts from the service, checked before it answers: a notification is a
 * hint (which record changed), never an instruction. The service's webhooks (set up by its team on
 * request; beyond the seed: the public README's "Real-time Updates via Webhooks" and the Postman
 * collection's notifications for deals, contacts, advisers and organisations) `POST`
 *
 *   {"action":"updated","resource":{"type":"deals","id":1123,"url":"https://…/jsonapi/deals/1123"},"webhook":{"name":"…"}}
 *
 * unsigned. So only `resource.type` (one of the four documented types) and `resource.id` (a whole
 * number from 1 to 2147483647) are taken from it; `resource.url` is never read, let alone requested:
 * the trigger builds the address from the type and id on the credential's Base URL
 * (webhookTrigger.ts), so a forged notification can neither send the token to another host nor make
 * the node read one. Pure: no n8n context, no request.
 */

/** The record types the service documents notifications for, as `resource.type` names them. */
export const WEBHOOK_RESOURCES = ['deals', 'contacts', 'advisers', 'organisations'] as const;
export type WebhookResource = (typeof WEBHOOK_RESOURCES)[number];

/**
 * The largest notification accepted (bytes of the body as received). The documented one is about
 * 200 bytes; 16 KiB leaves room for a long webhook name and fields the service may add, and refuses
 * anything that is plainly not a notification before it is looked at.
 */
export const MAX_NOTIFICATION_BYTES = 16 * 1024;

/** The largest record id the service has (its ids are int32). */
const MAX_ID = 2_147_483_647;

/** The most characters of the webhook's name an item carries. */
const MAX_NAME_LENGTH = 200;

/** A notification as received: what n8n hands the node of the HTTP request. */
export interface NotificationRequest {
	/** The request's media type (lower case, without parameters), if any. */
	contentType?: string;
	/** The body's bytes as received, when n8n read them (it does for every POST to this node). */
	rawBody?: Uint8Array;
	/** The body as n8n parsed it (an object for JSON). */
	body: unknown;
	/** Header names in lower case. */
	headers: Record<string, string | string[] | undefined>;
	/** The request's path (the last segment is a path secret, when one is set). */
	path?: string;
}

/** Where the shared secret travels, when the user set one. */
export type SharedSecret = { in: 'header'; header: string; value: string } | { in: 'path'; value: string };

export interface Notification {
	/** `action` as sent ("updated" is the only one documented). */
	action: string;
	type: WebhookResource;
	id: number;
	/** `webhook.name`: the name the service's team gave the subscription, or null. */
	webhookName: string | null;
}

/** A notification refused with a 4xx, and why (the answer's text: no secret, no record data). */
export interface Refusal {
	status: 400 | 401 | 413 | 415;
	message: string;
}

export type NotificationVerdict = { notification: Notification } | { refusal: Refusal };

const refuse = (status: Refusal['status'], message: string): { refusal: Refusal } => ({ refusal: { status, message } });

/** Whether two texts are equal, in a time that does not depend on where they differ (the secret's check). */
export function sameSecret(given: string, expected: string): boolean {
	let difference = given.length ^ expected.length;
	for (let index = 0; index < Math.max(given.length, expected.length); index++) {
		difference |= (given.charCodeAt(index) || 0) ^ (expected.charCodeAt(index) || 0);
	}
	return difference === 0;
}

function headerValue(headers: NotificationRequest['headers'], name: string): string | undefined {
	const value = headers[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

function isJsonMediaType(contentType: string | undefined): boolean {
	const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
	return type === 'application/json' || type.endsWith('+json');
}

/** The body as an object: what n8n parsed, else the raw bytes parsed here. */
function bodyObject(request: NotificationRequest): Record<string, unknown> | undefined {
	const parse = (value: unknown) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);
	const parsed = parse(request.body);
	if (parsed !== undefined && (Object.keys(parsed).length > 0 || request.rawBody === undefined)) return parsed;
	if (request.rawBody === undefined) return undefined;
	try {
		return parse(JSON.parse(new TextDecoder().decode(request.rawBody)));
	} catch {
		return undefined;
	}
}

/** `resource.id` as a record id: a whole number from 1 to 2147483647 (a JSON number, or digits). */
function recordId(value: unknown): number | undefined {
	const id = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d{1,10}\s*$/.test(value) ? Number(value) : NaN;
	return Number.isInteger(id) && id >= 1 && id <= MAX_ID ? id : undefined;
}

/**
 * Checks a request in the order a refusal costs least: the shared secret (401: nothing else is
 * looked at), the size (413), the media type (415), then the notification itself (400).
 */
export function readNotification(request: NotificationRequest, secret?: SharedSecret): NotificationVerdict {
	if (secret !== undefined) {
		const given = secret.in === 'header' ? headerValue(request.headers, secret.header) : (request.path ?? '').replace(/\/+$/, '').split('/').pop();
		if (given === undefined || !sameSecret(given, secret.value)) return refuse(401, 'The shared secret is missing or wrong.');
	}
	const size = request.rawBody?.byteLength ?? new TextEncoder().encode(JSON.stringify(request.body ?? null)).byteLength;
	if (size > MAX_NOTIFICATION_BYTES) return refuse(413, `A notification is at most ${MAX_NOTIFICATION_BYTES} bytes; this one has ${size}.`);
	if (!isJsonMediaType(request.contentType)) return refuse(415, 'A notification is JSON (Content-Type: application/json).');
	const body = bodyObject(request);
	if (body === undefined) return refuse(400, 'The body is not a JSON object.');
	const resource = body.resource;
	if (resource === null || typeof resource !== 'object' || Array.isArray(resource)) return refuse(400, 'The notification has no "resource" object.');
	const { type, id } = resource as Record<string, unknown>;
	if (typeof type !== 'string' || !(WEBHOOK_RESOURCES as readonly string[]).includes(type)) {
		return refuse(400, `"resource.type" must be one of ${WEBHOOK_RESOURCES.join(', ')}.`);
	}
	const recordIdValue = recordId(id);
	if (recordIdValue === undefined) return refuse(400, '"resource.id" must be a whole number from 1 to 2147483647.');
	const action = body.action ?? 'updated';
	if (typeof action !== 'string') return refuse(400, '"action" must be text.');
	const webhook = body.webhook;
	const name = webhook !== null && typeof webhook === 'object' ? (webhook as Record<string, unknown>).name : undefined;
	return {
		notification: {
			action,
			type: type as WebhookResource,
			id: recordIdValue,
			webhookName: typeof name === 'string' ? name.slice(0, MAX_NAME_LENGTH) : null,
		},
	};
}
