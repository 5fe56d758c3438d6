/**
 * Deal id layouts (sandbox/layouts.ts) and the sandbox seeded with one (`dealIds`): the ids a
 * multi-tenant service shows one adviser, with gaps, served like any other deals.
 */
import { ID_LAYOUTS, Sandbox, idLayout, startSandbox } from '../../sandbox';
import { Api, ids } from './testkit';

describe('id layouts', () => {
	it('give ascending whole-number ids from 10001 up, as many as asked for, the same every time', () => {
		expect(ID_LAYOUTS).toHaveLength(6);
		for (const layout of ID_LAYOUTS) {
			const layoutIds = idLayout(layout, 5050);
			expect([layout, layoutIds.length]).toEqual([layout, 5050]);
			expect(layoutIds[0]).toBeGreaterThanOrEqual(10001);
			expect(layoutIds.every((id, index) => Number.isInteger(id) && (index === 0 || id > layoutIds[index - 1]))).toBe(true);
			expect(idLayout(layout, 5050)).toEqual(layoutIds);
		}
		// The service, shifted to the sandbox's first deal id: 1–300 and 9,001–13,750.
		const gap = idLayout('oneLongGap', 5050);
		expect([gap[0], gap[299], gap[300], gap[5049]]).toEqual([10001, 10300, 19001, 23750]);
		// 90 % of the records in the top 10 % of the span.
		const skewed = idLayout('skewedTop', 5050);
		const cut = skewed[0] + 0.9 * (skewed[skewed.length - 1] - skewed[0]);
		expect(skewed.filter((id) => id >= cut).length / skewed.length).toBeGreaterThanOrEqual(0.89);
	});
});

describe('the sandbox with a deal id layout', () => {
	let sb: Sandbox;
	let api: Api;
	const layoutIds = idLayout('oneLongGap', 500);

	beforeAll(async () => {
		sb = await startSandbox({ dealIds: layoutIds });
		api = await Api.connect(sb);
	});
	afterAll(() => sb.close());
	afterEach(() => sb.data.reset());

	it('holds exactly those deals (and leads), in id order, across the gap', async () => {
		expect(sb.data.idsOf('deals').map(Number)).toEqual(layoutIds);
		expect(sb.data.count('leads')).toBe(500);
		const across = await api.get("/jsonapi/deals?filter=greaterThan(id,'10028')&page[size]=4");
		expect(ids(across)).toEqual(['10029', '10030', '19001', '19002']);
		const top = await api.get("/jsonapi/deals?filter=and(greaterThan(id,'10001'),lessOrEqual(id,'19000'))&sort=-id&page[size]=2");
		expect(ids(top)).toEqual(['10030', '10029']);
	});

	it('answers 404 for a deal in a gap, and keeps no notes of it', async () => {
		expect((await api.get('/jsonapi/deals/10031/dealNotes')).status).toBe(404);
		expect((await api.get('/jsonapi/deals/19001/dealNotes')).status).toBe(200);
		const notes = sb.data.list('deal-notes');
		expect(notes.length).toBeGreaterThan(0);
		const live = new Set(layoutIds);
		expect(notes.every((note) => live.has(Number((note.relationships.deal as { id: string } | null)?.id)))).toBe(true);
	});

	it('keeps the layout across a data reset; a new deal is created above it', async () => {
		const created = sb.data.createDeal({ name: 'New' });
		expect(Number(created.id)).toBe(layoutIds[layoutIds.length - 1] + 1);
		sb.data.reset();
		expect(sb.data.idsOf('deals').map(Number)).toEqual(layoutIds);
	});

	it('refuses ids that are not ascending from 10001 up', async () => {
		await expect(startSandbox({ dealIds: [10005, 10003] })).rejects.toThrow('dealIds must be ascending whole numbers from 10001 up');
		await expect(startSandbox({ dealIds: [42] })).rejects.toThrow('dealIds must be ascending whole numbers from 10001 up');
	});
});
