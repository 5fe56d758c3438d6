import { Sandbox, startSandbox } from '../../sandbox';
import { Api } from './testkit';

describe('sandbox clock', () => {
	let ahead: Sandbox;
	let behind: Sandbox;

	beforeAll(async () => {
		ahead = await startSandbox({ sizes: { deals: 5, contacts: 5 }, clockOffsetSeconds: 300 });
		behind = await startSandbox({ sizes: { deals: 5, contacts: 5 }, clockOffsetSeconds: -300 });
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

	it('sends the clock set with setNow as the Date header, also on errors', async () => {
		const api = await Api.connect(ahead);
		ahead.data.setNow(new Date('2026-11-22T10:11:12.345Z'));
		try {
			expect((await api.get('/jsonapi/deals?page[size]=1')).headers.get('date')).toBe('Sun, 22 Nov 2026 10:11:12 GMT');
			const missing = await api.get('/jsonapi/nothing-here');
			expect(missing.status).toBe(404);
			expect(missing.headers.get('date')).toBe('Sun, 22 Nov 2026 10:11:12 GMT');
		} finally {
			ahead.data.setNow(() => new Date(Date.now() + 300_000));
		}
	});
});
