/**
 * Sorted reads of a large table: the sandbox keeps each sort's order (an index, as the real
 * service's database has) until the next write, and starts a keyset read by binary search. What it
 * answers must be exactly the contract's order — null first ascending, text without case, ties by
 * id — worked out here from the records themselves, and must follow writes at once.
 */
import type { Sandbox, StoredResource } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { TestClock } from '../../harness/clock';
import { Api, ids } from './testkit';

let sb: Sandbox;
let api: Api;
const clock = TestClock.at(Date.parse('2026-11-20T10:00:00Z'));

beforeAll(async () => {
	// Tokens for a day of the clock: a test moves it by hours.
	sb = await startSandbox({ sizes: { deals: 600 }, clock, tokenLifetimeSeconds: 86_400 });
	api = await Api.connect(sb);
	for (const id of sb.data.idsOf('deals').slice(0, 150)) sb.data.updateDeal(id, { name: `Same second ${id}` });
});
afterAll(() => sb.close());

type Deal = StoredResource<object>;

/** The contract's order of `deals` by `attribute` then id (both descending with `descending`). */
function expectedOrder(attribute: string, descending: boolean, keep: (deal: Deal) => boolean = () => true): string[] {
	const value = (deal: Deal): number | string | null => {
		const raw = (deal.attributes as Record<string, unknown>)[attribute];
		if (raw === null || raw === undefined) return null;
		return attribute === 'updated' ? Date.parse(String(raw)) : String(raw).toLowerCase();
	};
	const compare = (a: Deal, b: Deal): number => {
		const [x, y] = [value(a), value(b)];
		const byValue = x === y ? 0 : x === null ? -1 : y === null ? 1 : x < y ? -1 : 1;
		return byValue || Number(a.id) - Number(b.id);
	};
	const ordered = (sb.data.list('deals') as Deal[]).filter(keep).sort(compare);
	return (descending ? ordered.reverse() : ordered).map((deal) => deal.id);
}

async function readAll(query: string): Promise<string[]> {
	const out: string[] = [];
	for (let number = 1; number < 100; number++) {
		const reply = await api.get(`/jsonapi/deals?${query}&page%5Bsize%5D=100&page%5Bnumber%5D=${number}`);
		expect(reply.status).toBe(200);
		out.push(...ids(reply));
		if (ids(reply).length < 100) return out;
	}
	throw new Error('no end');
}

describe('sorted reads', () => {
	it.each([
		['updated,id', 'updated', false],
		['-updated,-id', 'updated', true],
		['lenderName,id', 'lenderName', false],
		['-lenderName,-id', 'lenderName', true],
	] as const)('sort=%s gives the contract order', async (sort, attribute, descending) => {
		const expected = expectedOrder(attribute, descending);
		expect(expected).toHaveLength(600);
		expect(await readAll(`sort=${sort}`)).toEqual(expected);
	});

	it('a keyset filter starts where it says, with other conditions still applied', async () => {
		const order = expectedOrder('updated', false);
		const pivot = sb.data.get('deals', order[300]) as Deal;
		const stamp = String((pivot.attributes as { updated: string }).updated);
		const after = `or(greaterThan(updated,'${stamp}'),and(equals(updated,'${stamp}'),greaterThan(id,'${pivot.id}')))`;
		expect(await readAll(`sort=updated,id&filter=${encodeURIComponent(after)}`)).toEqual(order.slice(301));
		const settledAfter = `and(${after},equals(dealStatus,'Settled'))`;
		const settled = new Set(order.slice(301).filter((id) => sb.data.get('deals', id)?.attributes.dealStatus === 'Settled'));
		expect(settled.size).toBeGreaterThan(0);
		expect(await readAll(`sort=updated,id&filter=${encodeURIComponent(settledAfter)}`)).toEqual(order.slice(301).filter((id) => settled.has(id)));

		const descending = expectedOrder('updated', true);
		const top = sb.data.get('deals', descending[120]) as Deal;
		const topStamp = String((top.attributes as { updated: string }).updated);
		const before = `or(lessThan(updated,'${topStamp}'),and(equals(updated,'${topStamp}'),lessThan(id,'${top.id}')),equals(updated,null))`;
		expect(await readAll(`sort=-updated,-id&filter=${encodeURIComponent(before)}`)).toEqual(descending.slice(121));
	});

	it('follows a write at once (the kept order is dropped)', async () => {
		await readAll('sort=updated,id');
		const [first] = expectedOrder('updated', false);
		clock.set(Date.parse('2026-11-21T00:00:00Z'));
		sb.data.updateDeal(first, { name: 'Moved to the end' });
		const read = await readAll('sort=updated,id');
		expect(read[read.length - 1]).toBe(first);
		expect(read).toEqual(expectedOrder('updated', false));
	});
});
