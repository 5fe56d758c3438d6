/**
 * What the sandbox seeds, pinned: per resource type, the number of records, the next id and a hash of
 * every record (its attributes, the computed ones included, and its relationships both ways), for the
 * default sizes, a tiny store, no records at all and a deal id layout with gaps; and the fixture ids.
 * The seed is data rows plus builders (sandbox/seed.ts); a change that alters any seeded record
 * changes a line here, and a new seeded type adds a line and leaves the others as they are (each type
 * draws from its own random stream).
 */
import { createHash } from 'crypto';

import { idLayout } from '../../sandbox/layouts';
import { TYPES } from '../../sandbox/schema';
import { DEFAULT_SIZES, seedStore } from '../../sandbox/seed';
import type { Sizes } from '../../sandbox/seed';

const hash = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 12);

/** `type: count records, next id, hash of the records`, one line per table the seed builds. */
function summary(seed: number, sizes: Sizes, dealIds?: readonly number[]): string[] {
	const { store, ids, adviserByContactId } = seedStore(seed, sizes, dealIds);
	const lines = [...store.tables.keys()].sort().map((type) => {
		const table = store.table(type);
		const records = table.ids().map((id) => {
			const rec = table.get(id);
			if (rec === undefined) throw new Error(`${type} ${id} is listed but not found`);
			const related = Object.keys(TYPES[type]?.rels ?? {}).map((rel) => [rel, store.related(type, rec, rel)]);
			return [id, store.attributes(type, rec), rec.rels, related];
		});
		return `${type}: ${records.length} records, next ${table.nextId()}, ${hash(records)}`;
	});
	return [...lines, `fixture ids ${hash(ids)}, advisers by UserId ${hash([...adviserByContactId])}`];
}

describe('the seeded store', () => {
	it('holds the same records for the default sizes', () => {
		expect(summary(20261121, DEFAULT_SIZES)).toEqual([
			'adviser-details: 9 records, next 1010, fe09b9440db7',
			'advisers: 9 records, next 510, 52a4117d873a',
			'asset-categories: 5 records, next 6, f214c0d9bfe7',
			'asset-sub-types: 6 records, next 7, 0b1985cb9b8c',
			'asset-types: 7 records, next 10, 90ecbf0bae12',
			'assets: 60 records, next 8000061, fe00099cceea',
			'contact-address: 0 records, next 6800001, 4f53cda18c2b',
			'contact-categories: 8 records, next 39, 4c974f439f70',
			'contact-external-references: 61 records, next 7000062, 227f9801a220',
			'contact-groups: 71 records, next 6500072, c80c1afd415a',
			'contacts: 120 records, next 6000121, d46d55aa550a',
			'custom-statuses: 8 records, next 29, b6499f254da9',
			'deal-external-references: 89 records, next 4000090, 01f3cff77d74',
			'deal-notes: 322 records, next 3000323, 76f3cb6f4afc',
			'deal-securities: 150 records, next 5000151, 51d17c4d786e',
			'deal-structures: 341 records, next 2000342, c2dfb8a38bc7',
			'deals: 250 records, next 10251, b9743e6b26e5',
			'employments: 0 records, next 6900001, 4f53cda18c2b',
			'enquiry-source: 14 records, next 215, 5e60b8911efa',
			'expense-categories: 3 records, next 4, 1bd2501e6045',
			'expense-types: 10 records, next 11, 959aee6537e5',
			'expenses: 0 records, next 8300001, 4f53cda18c2b',
			'financial-address: 25 records, next 8500026, bc419f607fed',
			'income-categories: 4 records, next 5, 03654af43c65',
			'income-types: 7 records, next 31, f7e89f84ade6',
			'incomes: 150 records, next 7500151, 5cb110d17d01',
			'integrations: 4 records, next 15, cb346a6e4011',
			'leads: 250 records, next 10251, 863e8b9637e6',
			'liabilities: 0 records, next 8200001, 4f53cda18c2b',
			'liability-categories: 3 records, next 4, 304069208015',
			'liability-sub-types: 6 records, next 7, ec72a65a73a5',
			'liability-types: 7 records, next 8, 7d7ce826d31d',
			'organisation-addresses: 6 records, next 9000007, aecf912d0105',
			'organisations: 5 records, next 46, 95d31895ebe5',
			'owners: 0 records, next 8400001, 4f53cda18c2b',
			'property-types: 6 records, next 7, 4d5f9d3bc13a',
			'referrers: 6 records, next 307, 1db0c9902f16',
			'structured-leads: 250 records, next 10251, 863e8b9637e6',
			'tasks: 40 records, next 9500041, 036e12c1dcf2',
			'fixture ids 19c901fd3ee9, advisers by UserId 24fa8c80b258',
		]);
	});

	it('holds the same records for a tiny store and for none', () => {
		expect(summary(7, { deals: 5, contacts: 3, incomes: 2, dealSecurities: 4 })).toEqual([
			'adviser-details: 9 records, next 1010, 1cf14a778e0c',
			'advisers: 9 records, next 510, bfa5696196cb',
			'asset-categories: 5 records, next 6, f214c0d9bfe7',
			'asset-sub-types: 6 records, next 7, 0b1985cb9b8c',
			'asset-types: 7 records, next 10, 90ecbf0bae12',
			'assets: 20 records, next 8000021, 7403c41c5ea4',
			'contact-address: 0 records, next 6800001, 4f53cda18c2b',
			'contact-categories: 8 records, next 39, 4c974f439f70',
			'contact-external-references: 1 records, next 7000002, 8346323702ef',
			'contact-groups: 2 records, next 6500003, 07a9675686ba',
			'contacts: 3 records, next 6000004, c41361ad29e9',
			'custom-statuses: 8 records, next 29, b6499f254da9',
			'deal-external-references: 2 records, next 4000003, b01286a58ed2',
			'deal-notes: 6 records, next 3000007, 67b342e72a36',
			'deal-securities: 4 records, next 5000005, f69f31cc48ec',
			'deal-structures: 5 records, next 2000006, 579e5e293887',
			'deals: 5 records, next 10006, eed5183270c3',
			'employments: 0 records, next 6900001, 4f53cda18c2b',
			'enquiry-source: 14 records, next 215, 5e60b8911efa',
			'expense-categories: 3 records, next 4, 1bd2501e6045',
			'expense-types: 10 records, next 11, 959aee6537e5',
			'expenses: 0 records, next 8300001, 4f53cda18c2b',
			'financial-address: 8 records, next 8500009, 5bbdf7974125',
			'income-categories: 4 records, next 5, 03654af43c65',
			'income-types: 7 records, next 31, f7e89f84ade6',
			'incomes: 2 records, next 7500003, 5390894f7a23',
			'integrations: 4 records, next 15, 9e8e9a77c190',
			'leads: 5 records, next 10006, 9d18a92e0e9f',
			'liabilities: 0 records, next 8200001, 4f53cda18c2b',
			'liability-categories: 3 records, next 4, 304069208015',
			'liability-sub-types: 6 records, next 7, ec72a65a73a5',
			'liability-types: 7 records, next 8, 7d7ce826d31d',
			'organisation-addresses: 6 records, next 9000007, d0cd0bebf56e',
			'organisations: 5 records, next 46, 80df54dc2b06',
			'owners: 0 records, next 8400001, 4f53cda18c2b',
			'property-types: 6 records, next 7, 4d5f9d3bc13a',
			'referrers: 6 records, next 307, 1db0c9902f16',
			'structured-leads: 5 records, next 10006, 9d18a92e0e9f',
			'tasks: 40 records, next 9500041, 2a83531b90c7',
			'fixture ids 19c901fd3ee9, advisers by UserId 24fa8c80b258',
		]);
		expect(summary(20261121, { deals: 0, contacts: 0, incomes: 0, dealSecurities: 0 })).toEqual([
			'adviser-details: 9 records, next 1010, fe09b9440db7',
			'advisers: 9 records, next 510, 587f136bf212',
			'asset-categories: 5 records, next 6, f214c0d9bfe7',
			'asset-sub-types: 6 records, next 7, 0b1985cb9b8c',
			'asset-types: 7 records, next 10, 90ecbf0bae12',
			'assets: 20 records, next 8000021, d5ee8229b404',
			'contact-address: 0 records, next 6800001, 4f53cda18c2b',
			'contact-categories: 8 records, next 39, 4c974f439f70',
			'contact-external-references: 0 records, next 7000001, 4f53cda18c2b',
			'contact-groups: 0 records, next 6500001, 4f53cda18c2b',
			'contacts: 0 records, next 6000001, 4f53cda18c2b',
			'custom-statuses: 8 records, next 29, b6499f254da9',
			'deal-external-references: 0 records, next 4000001, 4f53cda18c2b',
			'deal-notes: 0 records, next 3000001, 4f53cda18c2b',
			'deal-securities: 0 records, next 5000001, 4f53cda18c2b',
			'deal-structures: 0 records, next 2000001, 4f53cda18c2b',
			'deals: 0 records, next 10001, 4f53cda18c2b',
			'employments: 0 records, next 6900001, 4f53cda18c2b',
			'enquiry-source: 14 records, next 215, 5e60b8911efa',
			'expense-categories: 3 records, next 4, 1bd2501e6045',
			'expense-types: 10 records, next 11, 959aee6537e5',
			'expenses: 0 records, next 8300001, 4f53cda18c2b',
			'financial-address: 8 records, next 8500009, 3092577b6d86',
			'income-categories: 4 records, next 5, 03654af43c65',
			'income-types: 7 records, next 31, f7e89f84ade6',
			'incomes: 0 records, next 7500001, 4f53cda18c2b',
			'integrations: 4 records, next 15, 513839c4c859',
			'leads: 0 records, next 10001, 4f53cda18c2b',
			'liabilities: 0 records, next 8200001, 4f53cda18c2b',
			'liability-categories: 3 records, next 4, 304069208015',
			'liability-sub-types: 6 records, next 7, ec72a65a73a5',
			'liability-types: 7 records, next 8, 7d7ce826d31d',
			'organisation-addresses: 6 records, next 9000007, aecf912d0105',
			'organisations: 5 records, next 46, 95d31895ebe5',
			'owners: 0 records, next 8400001, 4f53cda18c2b',
			'property-types: 6 records, next 7, 4d5f9d3bc13a',
			'referrers: 6 records, next 307, 1db0c9902f16',
			'structured-leads: 0 records, next 10001, 4f53cda18c2b',
			'tasks: 40 records, next 9500041, e8a8a0b63b0b',
			'fixture ids 2352d5e49506, advisers by UserId 24fa8c80b258',
		]);
	});

	it('holds the same records for a deal id layout with gaps', () => {
		expect(summary(20261121, DEFAULT_SIZES, idLayout('clusteredSparse', 500))).toEqual([
			'adviser-details: 9 records, next 1010, fe09b9440db7',
			'advisers: 9 records, next 510, 52a4117d873a',
			'asset-categories: 5 records, next 6, f214c0d9bfe7',
			'asset-sub-types: 6 records, next 7, 0b1985cb9b8c',
			'asset-types: 7 records, next 10, 90ecbf0bae12',
			'assets: 60 records, next 8000061, fe00099cceea',
			'contact-address: 0 records, next 6800001, 4f53cda18c2b',
			'contact-categories: 8 records, next 39, 4c974f439f70',
			'contact-external-references: 61 records, next 7000062, 227f9801a220',
			'contact-groups: 71 records, next 6500072, c80c1afd415a',
			'contacts: 120 records, next 6000121, d46d55aa550a',
			'custom-statuses: 8 records, next 29, b6499f254da9',
			'deal-external-references: 199 records, next 4002209, 2d62ef203507',
			'deal-notes: 651 records, next 3008202, 5d6137a78ca3',
			'deal-securities: 150 records, next 5000151, 0dc9c2257acf',
			'deal-structures: 662 records, next 2008441, b449cbf6cf24',
			'deals: 500 records, next 16310, 98a220eec7bd',
			'employments: 0 records, next 6900001, 4f53cda18c2b',
			'enquiry-source: 14 records, next 215, 5e60b8911efa',
			'expense-categories: 3 records, next 4, 1bd2501e6045',
			'expense-types: 10 records, next 11, 959aee6537e5',
			'expenses: 0 records, next 8300001, 4f53cda18c2b',
			'financial-address: 25 records, next 8500026, bc419f607fed',
			'income-categories: 4 records, next 5, 03654af43c65',
			'income-types: 7 records, next 31, f7e89f84ade6',
			'incomes: 150 records, next 7500151, 5cb110d17d01',
			'integrations: 4 records, next 15, 3ff35233eed3',
			'leads: 500 records, next 16310, 9e2b87058071',
			'liabilities: 0 records, next 8200001, 4f53cda18c2b',
			'liability-categories: 3 records, next 4, 304069208015',
			'liability-sub-types: 6 records, next 7, ec72a65a73a5',
			'liability-types: 7 records, next 8, 7d7ce826d31d',
			'organisation-addresses: 6 records, next 9000007, aecf912d0105',
			'organisations: 5 records, next 46, 95d31895ebe5',
			'owners: 0 records, next 8400001, 4f53cda18c2b',
			'property-types: 6 records, next 7, 4d5f9d3bc13a',
			'referrers: 6 records, next 307, 1db0c9902f16',
			'structured-leads: 500 records, next 16310, 9e2b87058071',
			'tasks: 40 records, next 9500041, 3220c587b7c4',
			'fixture ids 19c901fd3ee9, advisers by UserId 24fa8c80b258',
		]);
	});
});
