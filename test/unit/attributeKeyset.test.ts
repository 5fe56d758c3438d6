/**
 * The pagination routine's keyset on (attribute, id): the filter for "the records after this one"
 * must give, page after page, exactly the service's own order — ties on the attribute, nulls (first
 * ascending, last descending) and stamps included. Checked against the sandbox, whose filter and
 * sort follow the service's contract (never nodes/).
 */
import { attributeThenIdAfter } from '../../nodes/shared/paging/pagination';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { Api } from '../sandbox/testkit';
import { TestClock } from '../../harness/clock';

let sandbox: Sandbox;
let api: Api;
const clock = TestClock.at(Date.parse('2026-11-20T10:00:00Z'));

beforeAll(async () => {
	sandbox = await startSandbox({ sizes: { deals: 400 }, clock });
	api = await Api.connect(sandbox);
	// Ties: 60 deals stamped in one second, 40 in the next.
	const ids = sandbox.data.idsOf('deals');
	for (const id of ids.slice(0, 60)) sandbox.data.updateDeal(id, { name: `Tie ${id}` });
	clock.advance(1000);
	for (const id of ids.slice(100, 140)) sandbox.data.updateDeal(id, { name: `Tie ${id}` });
});

afterAll(async () => {
	await sandbox.close();
});

async function page(query: Record<string, string>): Promise<Array<{ id: string; attributes: Record<string, unknown> }>> {
	const reply = await api.call('GET', `/jsonapi/deals?${new URLSearchParams(query).toString()}`);
	expect(reply.status).toBe(200);
	return reply.json.data;
}

/** Every deal, read `size` at a time by the keyset filter, in the order `sort`. */
async function readByKeyset(attribute: string, direction: 'ascending' | 'descending', size: number): Promise<string[]> {
	const sort = direction === 'ascending' ? `${attribute},id` : `-${attribute},-id`;
	const read: string[] = [];
	let last: { id: string; attributes: Record<string, unknown> } | undefined;
	for (let requests = 0; requests < 1000; requests++) {
		const query: Record<string, string> = { sort, 'page[size]': String(size), [`fields[deals]`]: attribute };
		if (last !== undefined) query.filter = attributeThenIdAfter(attribute, direction, last.attributes[attribute], last.id);
		const records = await page(query);
		read.push(...records.map((record) => record.id));
		if (records.length < size) return read;
		last = records[records.length - 1];
	}
	throw new Error('no end');
}

async function allInOrder(sort: string): Promise<string[]> {
	const ids: string[] = [];
	for (let number = 1; ; number++) {
		const records = await page({ sort, 'page[size]': '100', 'page[number]': String(number), 'fields[deals]': 'updated' });
		ids.push(...records.map((record) => record.id));
		if (records.length < 100) return ids;
	}
}

describe('keyset on (attribute, id)', () => {
	it.each([
		['updated', 'ascending', 7],
		['updated', 'descending', 13],
		['lenderName', 'ascending', 9],
		['lenderName', 'descending', 11],
	] as const)('%s %s, pages of %i: the service order, nothing skipped or repeated', async (attribute, direction, size) => {
		const expected = await allInOrder(direction === 'ascending' ? `${attribute},id` : `-${attribute},-id`);
		expect(expected).toHaveLength(400);
		const read = await readByKeyset(attribute, direction, size);
		expect(read).toEqual(expected);
	});

	it('the data has what the cases are about: null lenders, and ties on a stamp across page boundaries', async () => {
		const lenders = await page({ filter: 'equals(lenderName,null)', 'page[size]': '100' });
		expect(lenders.length).toBeGreaterThan(0);
		const tied = await page({ filter: "equals(updated,'2026-11-20T10:00:00Z')", 'page[size]': '100' });
		expect(tied).toHaveLength(60);
	});

	it('writes literals as the service wrote them, quotes doubled', () => {
		expect(attributeThenIdAfter('name', 'ascending', "O'Connor", '7')).toBe("or(greaterThan(name,'O''Connor'),and(equals(name,'O''Connor'),greaterThan(id,'7')))");
		expect(attributeThenIdAfter('updated', 'ascending', '2026-11-20T10:00:00.1234567Z', '7')).toContain("equals(updated,'2026-11-20T10:00:00.1234567Z')");
		expect(attributeThenIdAfter('name', 'descending', null, '7')).toBe("and(equals(name,null),lessThan(id,'7'))");
	});
});
