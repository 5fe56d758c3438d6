import { Sandbox, startSandbox } from '../../sandbox';
import { Api, requestToken } from './testkit';

describe('sandbox network latency', () => {
	let sb: Sandbox;

	beforeAll(async () => {
		sb = await startSandbox({ sizes: { deals: 20, contacts: 10, incomes: 5, dealSecurities: 5 } });
	});
	afterAll(() => sb.close());
	beforeEach(() => {
		sb.setLatency(false);
		sb.clearLog();
	});

	it('is off by default: requests are handled as they arrive', async () => {
		const api = await Api.connect(sb);
		await api.get('/jsonapi/deals?page[size]=1');
		for (const request of sb.requests) expect(request.handledAt - request.receivedAt).toBeLessThan(20);
	});

	it('holds API and token requests for the configured time, each within its jitter', async () => {
		sb.setLatency({ ms: 60, jitterMs: 20 });
		const api = await Api.connect(sb);
		const started = Date.now();
		await Promise.all([1, 2, 3, 4].map(() => api.get('/jsonapi/deals?page[size]=1')));
		await requestToken(sb);
		const elapsed = Date.now() - started;
		const kinds = sb.requests.map((request) => request.kind);
		expect(kinds).toEqual(['token', 'api', 'api', 'api', 'api', 'token']);
		for (const request of sb.requests) {
			// Timers may fire a millisecond early; never by more.
			expect(request.handledAt - request.receivedAt).toBeGreaterThanOrEqual(39);
			expect(request.handledAt - request.receivedAt).toBeLessThanOrEqual(80 + 50);
		}
		// Requests in flight together wait together: 3 round trips (token, 4 parallel reads, token).
		expect(elapsed).toBeGreaterThanOrEqual(3 * 39);
	});

	it('calls beforeHandle with each request after the latency, before handling it', async () => {
		sb.setLatency({ ms: 10 });
		const api = await Api.connect(sb);
		const seen: string[] = [];
		sb.beforeHandle = (request) => {
			seen.push(`${request.kind} ${request.status}`);
			if (request.kind === 'api') sb.data.deleteDeal(sb.data.ids.dealWithoutNotes);
		};
		try {
			const reply = await api.get(`/jsonapi/deals?filter=equals(id,'${sb.data.ids.dealWithoutNotes}')`);
			expect(reply.json).toMatchObject({ data: [] });
		} finally {
			sb.beforeHandle = undefined;
			sb.data.reset();
		}
		expect(seen).toEqual(['api 0']);
	});

	it('refuses a jitter larger than the latency', () => {
		expect(() => sb.setLatency({ ms: 10, jitterMs: 11 })).toThrow('latency must be ms >= 0 with 0 <= jitterMs <= ms');
	});
});
