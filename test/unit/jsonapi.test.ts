import { Jsona } from 'jsona';

import type { Document } from '../../nodes/shared/service/jsonapi';
import { buildQueryString, buildResourceDocument, flatten, rawResources, readErrors } from '../../nodes/shared/service/jsonapi';

const jsona = new Jsona();

/** jsona's additions that our output leaves out on purpose (see README "Output"). */
function withoutJsonaExtras(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(withoutJsonaExtras);
	if (value !== null && typeof value === 'object') {
		const result: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(value)) {
			if (key === 'relationshipNames' || key === 'links' || key === 'meta') continue;
			result[key] = withoutJsonaExtras(entry);
		}
		return result;
	}
	return value;
}

function sortKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(sortKeys);
	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(
			Object.keys(value)
				.sort()
				.map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
		);
	}
	return value;
}

const dealsDocument: Document = {
	data: [
		{
			type: 'deals',
			id: '1',
			attributes: { name: 'Smith purchase', totalLoanAmount: 650000, dates: { settled: '2026-10-01', lodged: null }, splits: [{ amount: 1 }] },
			relationships: {
				contacts: { data: [{ type: 'contacts', id: '5' }, { type: 'contacts', id: '6' }] },
				customStatus: { data: null },
				dealNotes: { data: [] },
				adviser: { links: { related: 'https://x/jsonapi/deals/1/adviser' } },
			},
			links: { self: 'https://x/jsonapi/deals/1' },
		},
		{
			type: 'deals',
			id: '2',
			attributes: { name: 'Jones refinance', totalLoanAmount: 420000 },
			relationships: { contacts: { data: [{ type: 'contacts', id: '5' }] }, customStatus: { data: { type: 'custom-statuses', id: '3' } } },
		},
	],
	included: [
		{ type: 'contacts', id: '5', attributes: { firstName: 'Jo', lastName: "O'Connor" }, relationships: { contactGroup: { data: { type: 'contact-groups', id: '9' } } } },
		{ type: 'custom-statuses', id: '3', attributes: { name: 'Waiting on valuation', sortOrder: 4 } },
	],
};

describe('flatten', () => {
	it('spreads attributes onto {id, type} and resolves relationships that carry data', () => {
		const items = flatten(dealsDocument);
		expect(items).toHaveLength(2);
		expect(items[0]).toEqual({
			id: '1',
			type: 'deals',
			name: 'Smith purchase',
			totalLoanAmount: 650000,
			dates: { settled: '2026-10-01', lodged: null },
			splits: [{ amount: 1 }],
			contacts: [
				{ id: '5', type: 'contacts', firstName: 'Jo', lastName: "O'Connor", contactGroup: { id: '9', type: 'contact-groups' } },
				{ id: '6', type: 'contacts' },
			],
			customStatus: null,
			dealNotes: [],
		});
		expect(items[0]).not.toHaveProperty('adviser');
		expect(items[1].customStatus).toEqual({ id: '3', type: 'custom-statuses', name: 'Waiting on valuation', sortOrder: 4 });
	});

	it('gives the same values as jsona on acyclic documents, apart from the documented extras', () => {
		const ours = flatten(dealsDocument);
		const theirs = jsona.deserialize(dealsDocument as never);
		expect(sortKeys(ours)).toEqual(sortKeys(withoutJsonaExtras(theirs)));
	});

	it('shares no object between items, even for the same included resource', () => {
		const [first, second] = flatten(dealsDocument);
		const contactOfFirst = (first.contacts as object[])[0];
		const contactOfSecond = (second.contacts as object[])[0];
		expect(contactOfFirst).toEqual(contactOfSecond);
		expect(contactOfFirst).not.toBe(contactOfSecond);
		// The same resource twice in data (a hostile server): still two independent items.
		const twice = JSON.parse('{"data":[{"type":"deals","id":"1","attributes":{"dates":{"settled":null}}}]}') as Document;
		(twice.data as object[]).push((twice.data as object[])[0]);
		const [a, b] = flatten(twice);
		expect(a).toEqual(b);
		expect(a.dates).not.toBe(b.dates);
	});

	it('cuts cycles to {id, type} where jsona produces a circular structure', () => {
		const cyclic: Document = {
			data: { type: 'deals', id: '1', relationships: { dealNotes: { data: [{ type: 'deal-notes', id: '2' }] } } },
			included: [
				{ type: 'deal-notes', id: '2', attributes: { title: 'n' }, relationships: { deal: { data: { type: 'deals', id: '1' } } } },
				{ type: 'deals', id: '1', attributes: { name: 'again' }, relationships: { dealNotes: { data: [{ type: 'deal-notes', id: '2' }] } } },
			],
		};
		expect(() => JSON.stringify(jsona.deserialize(cyclic as never))).toThrow(/circular/i);
		const items = flatten(cyclic);
		expect(() => JSON.stringify(items)).not.toThrow();
		expect(items).toEqual([
			{ id: '1', type: 'deals', dealNotes: [{ id: '2', type: 'deal-notes', title: 'n', deal: { id: '1', type: 'deals' } }] },
		]);
	});

	it('cuts a resource that includes itself', () => {
		const selfish: Document = {
			data: [{ type: 'contacts', id: '1', relationships: { contactGroup: { data: { type: 'contacts', id: '1' } } } }],
			included: [{ type: 'contacts', id: '1', attributes: { firstName: 'A' }, relationships: { contactGroup: { data: { type: 'contacts', id: '1' } } } }],
		};
		expect(flatten(selfish)).toEqual([{ id: '1', type: 'contacts', contactGroup: { id: '1', type: 'contacts' } }]);
	});

	it('keeps hostile attribute names as plain data without touching prototypes', () => {
		const hostile = JSON.parse(
			'{"data":[{"type":"contacts","id":"7","attributes":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"hasOwnProperty":"x","id":"999","type":"evil"},"relationships":{"__proto__":{"data":{"type":"contacts","id":"8"}}}}]}',
		) as Document;
		const [item] = flatten(hostile);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
		expect((item as Record<string, unknown>).polluted).toBeUndefined();
		expect(item.id).toBe('7');
		expect(item.type).toBe('contacts');
		expect(item.hasOwnProperty).toBe('x');
		// Plain values before nested objects.
		expect(Object.keys(item)).toEqual(['id', 'type', 'hasOwnProperty', '__proto__', 'constructor']);
		expect(JSON.parse(JSON.stringify(item))).toEqual(
			JSON.parse('{"id":"7","type":"contacts","__proto__":{"type":"contacts","id":"8"},"constructor":{"prototype":{"polluted":true}},"hasOwnProperty":"x"}'),
		);
		// jsona loses the attribute: it becomes the object's prototype.
		const fromJsona = jsona.deserialize(hostile as never) as Record<string, unknown>[];
		expect(Object.keys(fromJsona[0])).not.toContain('__proto__');
	});

	it('returns no items for data: null and one for a single resource', () => {
		expect(flatten({ data: null })).toEqual([]);
		expect(flatten({ data: { type: 'leads', id: '4', attributes: { dealStatus: 'NewLeads' } } })).toEqual([
			{ id: '4', type: 'leads', dealStatus: 'NewLeads' },
		]);
	});

	it('keeps raw resources as sent, as fresh copies', () => {
		const raw = rawResources(dealsDocument);
		expect(raw[0]).toEqual((dealsDocument.data as object[])[0]);
		expect(raw[0]).not.toBe((dealsDocument.data as object[])[0]);
	});
});

describe('request documents', () => {
	it('builds an update document with a string id and only the members set', () => {
		expect(
			buildResourceDocument({ type: 'tasks', id: '12', attributes: { progress: 'Completed' }, relationships: { assignee: { type: 'advisers', id: '3' } } }),
		).toEqual({
			data: { type: 'tasks', id: '12', attributes: { progress: 'Completed' }, relationships: { assignee: { data: { type: 'advisers', id: '3' } } } },
		});
		expect(buildResourceDocument({ type: 'contacts', attributes: {}, relationships: { contactGroup: { type: 'contact-groups', id: '4' } } })).toEqual({
			data: { type: 'contacts', relationships: { contactGroup: { data: { type: 'contact-groups', id: '4' } } } },
		});
		expect(buildResourceDocument({ type: 'tasks', id: '1', relationships: { contactGroups: [{ type: 'contact-groups', id: '1' }] } }).data).toEqual({
			type: 'tasks',
			id: '1',
			relationships: { contactGroups: { data: [{ type: 'contact-groups', id: '1' }] } },
		});
	});

	it('reads error documents and ignores anything else', () => {
		expect(readErrors({ errors: [{ status: 422, title: 'Input validation failed.', source: { pointer: '/data/attributes/email' } }] })).toEqual([
			{ status: '422', code: undefined, title: 'Input validation failed.', detail: undefined, source: { pointer: '/data/attributes/email', parameter: undefined, header: undefined } },
		]);
		expect(readErrors('<html>')).toEqual([]);
		expect(readErrors({ errors: 'nope' })).toEqual([]);
	});
});

describe('buildQueryString', () => {
	it('encodes brackets and leaves empty values out', () => {
		expect(buildQueryString({ filter: "equals(lastName,'O''Connor')", sort: '', include: undefined, pageSize: 7 })).toBe(
			"filter=equals(lastName%2C'O''Connor')&page%5Bsize%5D=7",
		);
		expect(buildQueryString({ fields: { deals: 'name,updated' }, pageNumber: 2, include: 'contacts' })).toBe(
			'include=contacts&fields%5Bdeals%5D=name%2Cupdated&page%5Bnumber%5D=2',
		);
		expect(buildQueryString({ filter: "equals(name,'a+b & c')" })).toBe("filter=equals(name%2C'a%2Bb%20%26%20c')");
		expect(buildQueryString({})).toBe('');
	});
});
