import { TestClock } from '../../harness/clock';
import { Sandbox, offsetClock, startSandbox } from '../../sandbox';
import { Api } from './testkit';

describe('sandbox clock', () => {
	let ahead: Sandbox;
	let behind: Sandbox;

	beforeAll(async () => {
		// What `npm run sandbox -- --clock-offset 300` (and -300) start with.
		ahead = await startSandbox({ sizes: { deals: 5, contacts: 5 }, clock: offsetClock(300) });
		behind = await startSandbox({ sizes: { deals: 5, contacts: 5 }, clock: offsetClock(-300) });
	});
	afterAll(async () => {
		await ahead.close();
		await behind.close();
	});

	it.each([
		['ahead of', 300],
		['behind', -300],
	])("runs %s the machine's clock by the offset: Date header and stamps", async (_direction, offset) => {
		const sandbox = offset > 0 ? ahead : behind;
		const api = await Api.connect(sandbox);
		const before = Date.now();
		const reply = await api.get('/jsonapi/deals?page[size]=1');
		const after = Date.now();
		const date = Date.parse(reply.headers.get('date') as string);
		expect(reply.headers.get('date')).toMatch(/^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$/);
		// HTTP-date drops the milliseconds.
		expect(date).toBeGreaterThanOrEqual(Math.floor((before + offset * 1000) / 1000) * 1000);
		expect(date).toBeLessThanOrEqual(after + offset * 1000);
		const beforeStamp = Date.now();
		const deal = sandbox.data.createDeal({ name: 'Stamped' });
		const afterStamp = Date.now();
		const stamp = Date.parse(deal.attributes.updated);
		expect(stamp).toBeGreaterThanOrEqual(Math.floor((beforeStamp + offset * 1000) / 1000) * 1000);
		expect(stamp).toBeLessThanOrEqual(afterStamp + offset * 1000);
	});

	it('reads one clock for everything: the Date header (also on errors), stamps, the log and token expiry', async () => {
		const clock = TestClock.at(Date.parse('2026-11-22T10:11:12.345Z'));
		const sandbox = await startSandbox({ sizes: { deals: 5, contacts: 5 }, tokenLifetimeSeconds: 60, clock });
		try {
			const api = await Api.connect(sandbox);
			const reply = await api.get('/jsonapi/deals?page[size]=1');
			expect(reply.headers.get('date')).toBe('Sun, 22 Nov 2026 10:11:12 GMT');
			const missing = await api.get('/jsonapi/nothing-here');
			expect(missing.status).toBe(404);
			expect(missing.headers.get('date')).toBe('Sun, 22 Nov 2026 10:11:12 GMT');
			expect(sandbox.apiRequests().map((request) => [request.receivedAt, request.handledAt])).toEqual([
				[clock.now(), clock.now()],
				[clock.now(), clock.now()],
			]);
			clock.advance(59_999);
			expect(sandbox.data.createDeal({ name: 'Stamped' }).attributes.created).toBe('2026-11-22T10:12:12.344Z');
			expect((await api.get('/jsonapi/deals?page[size]=1')).status).toBe(200);
			// The token was issued at 10:11:12.345 for 60 s of this clock.
			clock.advance(1);
			expect((await api.get('/jsonapi/deals?page[size]=1')).status).toBe(401);
		} finally {
			await sandbox.close();
		}
	});
});
