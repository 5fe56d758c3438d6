import { BASE_COST, Sandbox, requestCost, startSandbox } from '../../sandbox';
import { TestClock } from '../../harness/clock';
import { Api, firstError } from './testkit';

/** The sandbox's time: the bucket refills only when a test moves it. */
const clock = TestClock.stopped();

describe('sandbox rate limit', () => {
	let sb: Sandbox;
	let api: Api;

	beforeAll(async () => {
		sb = await startSandbox({ clock, sizes: { deals: 40, contacts: 20, incomes: 10, dealSecurities: 10 } });
		api = await Api.connect(sb);
	});
	afterAll(() => sb.close());
	beforeEach(() => {
		sb.setRateLimit(false);
		sb.resetRateLimitSpent();
		sb.data.reset();
	});

	it('computes costs: base by kind, ×2 for page > 1, ×2 for non-id sorts, ×2 per include level', () => {
		expect(BASE_COST).toEqual({ collection: 10, single: 5, 'related-single': 5, 'related-collection': 5, create: 5, update: 5, delete: 1 });
		expect(requestCost(10, {})).toBe(10);
		expect(requestCost(10, { pageNumber: 2 })).toBe(20);
		expect(requestCost(10, { sortKeys: ['-id'] })).toBe(10);
		expect(requestCost(10, { sortKeys: ['id', '-updated'] })).toBe(20);
		expect(requestCost(10, { includePaths: ['customStatus'] })).toBe(20);
		expect(requestCost(10, { includePaths: ['customStatus', 'dealNotes.deal'] })).toBe(40);
		expect(requestCost(5, { pageNumber: 3, sortKeys: ['name'], includePaths: ['a.b.c'] })).toBe(5 * 2 * 2 * 8);
	});

	it('counts the cost of every API request even when the limiter is off, and logs it', async () => {
		const ids = sb.data.ids;
		const steps: Array<[() => Promise<unknown>, number]> = [
			[() => api.get('/jsonapi/deals'), 10],
			[() => api.get('/jsonapi/deals?page[number]=2'), 20],
			[() => api.get('/jsonapi/deals?sort=-updated'), 20],
			[() => api.get('/jsonapi/deals?include=dealNotes.deal'), 40],
			[() => api.get(`/jsonapi/leads/${ids.lead}`), 5],
			[() => api.get(`/jsonapi/deals/${ids.dealWithNotes}/dealNotes`), 5],
			[() => api.patch(`/jsonapi/deal-notes/${ids.dealNote}`, { data: { type: 'deal-notes', id: ids.dealNote, attributes: { title: 'x' } } }), 5],
			[() => api.delete(`/jsonapi/deal-notes/${ids.dealNote}`), 1],
		];
		let total = 0;
		for (const [step, cost] of steps) {
			sb.clearLog();
			const reply = (await step()) as { headers: Headers };
			total += cost;
			expect(sb.apiRequests()[0].cost).toBe(cost);
			expect(reply.headers.get('x-ratelimit-cost')).toBeNull();
		}
		expect(sb.rateLimitSpent()).toBe(total);
		sb.resetRateLimitSpent();
		expect(sb.rateLimitSpent()).toBe(0);
	});

	it('sends x-ratelimit headers and answers 429 with retry-after when the bucket is empty', async () => {
		sb.setRateLimit({ capacity: 30, refillPerSecond: 5 });
		const first = await api.get('/jsonapi/deals?page[size]=1');
		expect(first.status).toBe(200);
		expect(first.headers.get('x-ratelimit-limit')).toBe('30');
		expect(first.headers.get('x-ratelimit-cost')).toBe('10');
		expect(Number(first.headers.get('x-ratelimit-remaining'))).toBe(20);
		await api.get('/jsonapi/deals?page[size]=1');
		await api.get('/jsonapi/deals?page[size]=1');
		const limited = await api.get('/jsonapi/deals?page[size]=1');
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
		expect(Number(limited.headers.get('retry-after'))).toBe(2);
		expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
		expect(limited.headers.get('x-ratelimit-cost')).toBe('10');
		expect(firstError(limited)).toMatchObject({ status: '429', title: 'Too Many Requests' });
		expect(sb.apiRequests().slice(-1)[0]).toMatchObject({ status: 429 });
		expect(sb.rateLimitSpent()).toBe(30);
	});

	it('refills over time and carries the headers on error answers too', async () => {
		sb.setRateLimit({ capacity: 10, refillPerSecond: 100 });
		const notFound = await api.get('/jsonapi/leads/1');
		expect(notFound.status).toBe(404);
		expect(notFound.headers.get('x-ratelimit-cost')).toBe('5');
		// 5 tokens left, a search costs 10: refused until the bucket has refilled 5 (50 ms at 100/s).
		const refused = await api.get('/jsonapi/deals?page[size]=1');
		expect([refused.status, refused.headers.get('x-ratelimit-remaining')]).toEqual([429, '5']);
		clock.advance(40);
		expect((await api.get('/jsonapi/deals?page[size]=1')).status).toBe(429);
		clock.advance(20);
		expect((await api.get('/jsonapi/deals?page[size]=1')).status).toBe(200);
	});

	it('works from the rateLimit option and can be switched off', async () => {
		const limited = await startSandbox({ rateLimit: { capacity: 5, refillPerSecond: 0.01 }, sizes: { deals: 5, contacts: 5, incomes: 1, dealSecurities: 1 } });
		try {
			const client = await Api.connect(limited);
			expect((await client.get('/jsonapi/leads/10001')).status).toBe(200);
			const refused = await client.get('/jsonapi/leads/10001');
			expect(refused.status).toBe(429);
			expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
			limited.setRateLimit(false);
			const free = await client.get('/jsonapi/leads/10001');
			expect(free.status).toBe(200);
			expect(free.headers.get('x-ratelimit-limit')).toBeNull();
		} finally {
			await limited.close();
		}
	});
});
