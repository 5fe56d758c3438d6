/**
 * Played latency, on the sandbox's clock: a test clock that moves by itself once every request sent
 * waits on it, so nothing here waits on the machine's clock and each request is held exactly its
 * latency.
 */
import { TestClock } from '../../harness/clock';
import { Sandbox, startSandbox } from '../../sandbox';
import { Api, requestToken, waitsPassByThemselves } from './testkit';

describe('sandbox network latency', () => {
	let sb: Sandbox;
	const clock = TestClock.stopped();

	beforeAll(async () => {
		sb = await startSandbox({ sizes: { deals: 20, contacts: 10, incomes: 5, dealSecurities: 5 }, clock });
		waitsPassByThemselves(clock, sb);
	});
	afterAll(() => sb.close());
	beforeEach(() => {
		sb.setLatency(false);
		sb.clearLog();
	});

	it('is off by default: requests are handled as they arrive, with no latency played', async () => {
		const api = await Api.connect(sb);
		await api.get('/jsonapi/deals?page[size]=1');
		expect(sb.requests.map((request) => [request.kind, request.latencyMs])).toEqual([
			['token', 0],
			['api', 0],
		]);
	});

	it('holds API and token requests for the configured time, each within its jitter, concurrent ones together', async () => {
		sb.setLatency({ ms: 60, jitterMs: 20 });
		const api = await Api.connect(sb);
		await Promise.all([1, 2, 3, 4].map(() => api.get('/jsonapi/deals?page[size]=1')));
		await requestToken(sb);
		const kinds = sb.requests.map((request) => request.kind);
		expect(kinds).toEqual(['token', 'api', 'api', 'api', 'api', 'token']);
		for (const request of sb.requests) {
			expect(request.latencyMs).toBeGreaterThanOrEqual(40);
			expect(request.latencyMs).toBeLessThanOrEqual(80);
			// Held exactly its latency on the sandbox's clock.
			expect(request.handledAt - request.receivedAt).toBeCloseTo(request.latencyMs, 3);
		}
		// The four reads were in flight together (counted by the sandbox as each arrived), the token
		// requests alone.
		const reads = sb.requests.filter((request) => request.kind === 'api');
		expect(Math.max(...reads.map((request) => 1 + request.inFlightAtArrival.length))).toBeGreaterThanOrEqual(2);
		expect(Math.max(...reads.map((request) => 1 + request.inFlightAtArrival.length))).toBeLessThanOrEqual(4);
		const [first, , , , , last] = sb.requests;
		expect([first.inFlightAtArrival, last.inFlightAtArrival]).toEqual([[], []]);
	});

	it('counts what it is answering when a request arrives, and forgets a request once answered', async () => {
		sb.setLatency({ ms: 30 });
		const api = await Api.connect(sb);
		await Promise.all([1, 2, 3].map(() => api.get('/jsonapi/deals?page[size]=1')));
		await api.get('/jsonapi/deals?page[size]=1');
		const [token, a, b, c, after] = sb.requests;
		expect(sb.requests).toHaveLength(5);
		expect(token.inFlightAtArrival).toEqual([]);
		// Each of the three concurrent reads lists only earlier ones still unanswered …
		for (const read of [a, b, c]) expect(read.inFlightAtArrival.every((seq) => [a.seq, b.seq, c.seq].includes(seq) && seq < read.seq)).toBe(true);
		// … and a read sent after all of them were answered lists none.
		expect(after.inFlightAtArrival).toEqual([]);
		expect(new Set(sb.requests.map((request) => request.seq)).size).toBe(5);
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
