/**
 * The Webhook Trigger's pure parts: what a notification may be (trigger/webhookNotification.ts) and
 * what the trigger remembers, within its bounds (trigger/webhookMemory.ts).
 */
import { MAX_REMEMBERED_DEALS } from '../../nodes/shared/trigger/statusTransitions';
import { MAX_VERSIONS, STORED_VERSIONS, WebhookMemory, isNewer, recordKey } from '../../nodes/shared/trigger/webhookMemory';
import type { NotificationRequest } from '../../nodes/shared/trigger/webhookNotification';
import { MAX_NOTIFICATION_BYTES, readNotification, sameSecret } from '../../nodes/shared/trigger/webhookNotification';

function request(body: unknown, extra: Partial<NotificationRequest> = {}): NotificationRequest {
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	return { contentType: 'application/json', rawBody: new TextEncoder().encode(text), body: typeof body === 'string' ? {} : body, headers: {}, path: '/webhook/abc/notify', ...extra };
}

const DEAL = { action: 'updated', resource: { type: 'deals', id: 1123, url: 'https://api.mycrm/jsonapi/deals/1123' }, webhook: { name: 'Example Deal Webhook' } };

describe('a notification', () => {
	it('takes only the type, the id and the webhook\'s name from the service\'s payload; the url is not kept', () => {
		expect(readNotification(request(DEAL))).toEqual({ notification: { action: 'updated', type: 'deals', id: 1123, webhookName: 'Example Deal Webhook' } });
		for (const type of ['contacts', 'advisers', 'organisations']) {
			expect(readNotification(request({ ...DEAL, resource: { ...DEAL.resource, type } }))).toEqual({ notification: expect.objectContaining({ type }) });
		}
	});

	it('accepts an id sent as digits, a JSON media type with a charset or +json, a body n8n left unparsed, no action or webhook name', () => {
		expect(readNotification(request({ resource: { type: 'deals', id: ' 42 ' } }))).toEqual({ notification: { action: 'updated', type: 'deals', id: 42, webhookName: null } });
		expect(readNotification(request(JSON.stringify(DEAL), { contentType: 'application/json; charset=utf-8' }))).toEqual({ notification: expect.objectContaining({ id: 1123 }) });
		expect(readNotification(request(JSON.stringify(DEAL), { contentType: 'application/vnd.mycrm+json' }))).toEqual({ notification: expect.objectContaining({ id: 1123 }) });
		expect(readNotification(request({ ...DEAL, webhook: { name: 'n'.repeat(500) } }))).toEqual({ notification: expect.objectContaining({ webhookName: 'n'.repeat(200) }) });
	});

	it('refuses, in order: a missing or wrong secret (401), too many bytes (413), another media type (415), anything but a notification (400)', () => {
		const secret = { in: 'header' as const, header: 'x-loan-crm-secret', value: 'a-secret-of-16-chars' };
		const oversized = { ...DEAL, padding: 'x'.repeat(MAX_NOTIFICATION_BYTES) };
		expect(readNotification(request(oversized, { contentType: 'text/plain' }), secret)).toEqual({ refusal: { status: 401, message: expect.any(String) } });
		expect(readNotification(request(oversized, { contentType: 'text/plain', headers: { 'x-loan-crm-secret': secret.value } }), secret)).toEqual({ refusal: { status: 413, message: expect.any(String) } });
		expect(readNotification(request(DEAL, { contentType: 'text/plain' }))).toEqual({ refusal: { status: 415, message: expect.any(String) } });
		expect(readNotification(request(DEAL, { contentType: undefined }))).toEqual({ refusal: { status: 415, message: expect.any(String) } });
		for (const body of ['not json', '[]', 'null', JSON.stringify({ resource: 'deals' }), JSON.stringify({ resource: { type: 'deals', id: 1e12 } })]) {
			expect({ body, verdict: readNotification(request(body)) }).toEqual({ body, verdict: { refusal: { status: 400, message: expect.any(String) } } });
		}
	});

	it('a path secret is the last segment of the request\'s path', () => {
		const secret = { in: 'path' as const, value: 'path-secret-0123456789' };
		expect(readNotification(request(DEAL, { path: `/webhook/abc/notify/${secret.value}` }), secret)).toEqual({ notification: expect.objectContaining({ id: 1123 }) });
		expect(readNotification(request(DEAL, { path: `/webhook/abc/notify/${secret.value}/` }), secret)).toEqual({ notification: expect.objectContaining({ id: 1123 }) });
		expect(readNotification(request(DEAL, { path: '/webhook/abc/notify' }), secret)).toEqual({ refusal: expect.objectContaining({ status: 401 }) });
	});

	it('compares secrets whole: equal texts only', () => {
		expect([sameSecret('abc', 'abc'), sameSecret('abc', 'abd'), sameSecret('ab', 'abc'), sameSecret('abcd', 'abc'), sameSecret('', 'abc')]).toEqual([true, false, false, false, false]);
	});
});

describe('what the Webhook Trigger remembers', () => {
	it('a version is a change after the remembered one when its stamp is later, or the same stamp with other content', () => {
		expect([
			isNewer({ at: 2000, content: 'a' }, undefined),
			isNewer({ at: 2000, content: 'a' }, { at: 1000, content: 'a' }),
			isNewer({ at: 1000, content: 'b' }, { at: 2000, content: 'a' }),
			isNewer({ at: 2000, content: 'b' }, { at: 2000, content: 'a' }),
			isNewer({ at: 2000, content: 'a' }, { at: 2000, content: 'a' }),
			isNewer({ content: 'b' }, { content: 'a' }),
			isNewer({ content: 'a' }, { content: 'a' }),
		]).toEqual([true, true, false, true, false, true, false]);
	});

	it(`keeps at most ${MAX_VERSIONS} versions, the longest-unnotified forgotten first; stores the newest ${STORED_VERSIONS} and every status; starts empty for other settings`, () => {
		const memory = new WebhookMemory('settings-a');
		for (let id = 1; id <= MAX_VERSIONS + 500; id++) memory.rememberVersion(recordKey('deals', id), { at: 1_700_000_000_000 + id * 1000, content: 'k3f9x1' });
		memory.rememberVersion(recordKey('deals', 600), { at: 1_800_000_000_000, content: 'newest' });
		expect(memory.versions.size).toBe(MAX_VERSIONS);
		expect([memory.versions.has('d1'), memory.versions.has('d500'), memory.versions.has('d501'), [...memory.versions.keys()].at(-1)]).toEqual([false, false, true, 'd600']);
		for (let id = 1; id <= 3; id++) memory.rememberStatus(id, id === 2 ? 'Settled' : 'Lodged', ['Settled']);
		const state = memory.toState();
		expect(state.versions).toHaveLength(STORED_VERSIONS);
		expect(state.versions?.at(-1)).toBe(`d600.${(1_800_000_000_000).toString(36)}.newest`);
		const restored = WebhookMemory.fromState('settings-a', JSON.parse(JSON.stringify(state)));
		expect([restored.versions.size, restored.versions.get('d600'), [...restored.statuses]]).toEqual([STORED_VERSIONS, { at: 1_800_000_000_000, content: 'newest' }, [[1, 'Lodged'], [2, 'Settled'], [3, 'Lodged']]]);
		expect(WebhookMemory.fromState('settings-b', state).versions.size).toBe(0);
		// About 20 bytes of static data per stored version.
		expect(JSON.stringify(state.versions).length / STORED_VERSIONS).toBeLessThan(25);
	});

	it(`remembers the status of at most ${MAX_REMEMBERED_DEALS} deals, forgetting deals outside the watched statuses first`, () => {
		const memory = new WebhookMemory('s');
		let forgotten = 0;
		for (let id = 1; id <= MAX_REMEMBERED_DEALS + 10; id++) forgotten += memory.rememberStatus(id, id <= 5 ? 'Settled' : 'Lodged', ['Settled']);
		expect([memory.statuses.size, forgotten, [1, 2, 3, 4, 5].every((id) => memory.statuses.get(id) === 'Settled'), memory.statuses.has(6)]).toEqual([MAX_REMEMBERED_DEALS, 0, true, false]);
	});
});
