/**
 * The service's lists a record is picked from, once each: which collection, what is searched, what
 * a person reads in the editor's list, and which number a pick is known by. The editor's From List
 * (methods/listSearch.ts) and the look-up of a name before a request (lookups.ts) read the same
 * pages, so a name found one way is found the other.
 *
 * Advisers are one list shown two ways: the organisation's adviser-details with their adviser
 * (`include=adviser`; the status is on the adviser), known by the adviser-details id — the
 * AdviserContactId the UserId header takes (Allocate To, Request Options → User ID) — or by the
 * adviser's own id, the adviser family id a task's assignee takes.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ListSearchMethod } from '../operation/locatorTypes';
import { displayNameOf } from '../service/catalogue';
import type { Document, Resource } from '../service/jsonapi';
import { includedResource, indexIncluded, primaryResources } from '../service/jsonapi';
import { combineFilters, quoteLiteral } from '../input/query';

/** A record of a list page, with what its label and value need. */
export interface ListRecord {
	id: string;
	attributes: IDataObject;
	/** The id of a to-one relationship, when the page carries its data. */
	relatedId(name: string): string | undefined;
	/** The attributes of a to-one relationship's record, when the page included it. */
	related(name: string): IDataObject | undefined;
}

export interface SearchableList {
	/** The collection, below /jsonapi. */
	path: string;
	/** Its resource type (the enquiry sources' is singular: `enquiry-source`). */
	type: string;
	/** Text attributes each typed word is looked for in. */
	searchFields: readonly string[];
	/** Of those, the names: a word typed without its apostrophe is also looked for with one there. */
	nameFields: readonly string[];
	/** A typed whole number also finds the record whose value this is (`id`, `adviser.id`, `sourceId`). */
	numberField?: string;
	/** Related records the label needs, and every type's sparse fieldset. */
	include?: string;
	fields: Readonly<Record<string, string>>;
	/**
	 * How the list pages: newest first by id (`lessThan(id,…)`, the cheapest), or by page number for
	 * types whose ids the service types as text, in the service's order.
	 */
	paging: 'keyset' | 'pages';
	/** What a person reads: "Mitchell, Sarah — sarah@… — Active — #1001". */
	label(record: ListRecord): string;
	/** What the pick is known by (From List's value, By ID's number). */
	value(record: ListRecord): string;
	/**
	 * By Name: the filter for a name as the list shows it (or an adviser's e-mail), and whether a
	 * record found has exactly that name (of several found, the one that has it is the pick).
	 */
	byName?: { filter(name: string): string; exactly(record: ListRecord, name: string): boolean };
}

/** Apostrophes as phones and word processors type them (U+2019, U+2018, U+02BC). */
const APOSTROPHE_LOOKALIKES = /[\u2018\u2019\u02BC]/g;

/** Text with its apostrophes as names are stored with them ("O’Connor" → "O'Connor"). */
export function plainApostrophes(text: string): string {
	return text.replace(APOSTROPHE_LOOKALIKES, "'");
}

/** Text compared as the service compares it: upper and lower case alike, spaces around trimmed. */
function same(a: unknown, b: string): boolean {
	return typeof a === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** "A › B" (or "A > B") into its parts. */
function categoryParts(name: string): string[] {
	return name.split(/\s*[›>]\s*/).filter((part) => part !== '');
}

/** "Name — Organisation" (an em or en dash, or a hyphen, between spaces) into its parts. */
function organisationParts(name: string): string[] {
	return name.split(/\s+[—–-]\s+/).filter((part) => part !== '');
}

/**
 * An adviser By Name or E-mail: an e-mail is matched whole; a name word by word in the names (so
 * "Sarah Mitchell" and "Mitchell, Sarah" both find her), exactly that name winning over others that
 * contain it ("Sam" over "Samantha").
 */
const ADVISER_BY_NAME: NonNullable<SearchableList['byName']> = {
	filter: (name) =>
		name.includes('@')
			? `equals(email,${quoteLiteral(name)})`
			: (combineFilters(
					name
						.split(/[\s,]+/)
						.filter((word) => word !== '')
						.map((word) => `or(${['firstName', 'lastName', 'preferredName'].map((field) => `contains(${field},${quoteLiteral(word)})`).join(',')})`),
				) ?? ''),
	exactly: (record, name) => {
		if (name.includes('@')) return same(record.attributes.email, name);
		const { firstName, lastName, preferredName } = record.attributes;
		const forms = [firstName, preferredName].flatMap((first) => [`${String(first)} ${String(lastName)}`, `${String(lastName)}, ${String(first)}`]);
		return forms.some((form) => same(form, name.replace(/\s+/g, ' ')));
	},
};

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** "Last, First" (or the preferred name for the first), "(no name)" when there is none. */
function personName(attributes: IDataObject): string {
	const first = text(attributes.preferredName) ?? text(attributes.firstName);
	const name = [text(attributes.lastName), first].filter(Boolean).join(', ');
	return name === '' ? '(no name)' : name;
}

/** "Mitchell, Sarah — sarah.mitchell@… — Inactive — #1001": name, e-mail, status, the number the pick takes. */
function adviserLabel(record: ListRecord, value: string): string {
	return [personName(record.attributes), text(record.attributes.email), text(record.related('adviser')?.status), `#${value}`].filter(Boolean).join(' — ');
}

/** The adviser-details with their adviser, for the name, the e-mail and the status. */
const ADVISERS_PAGE = {
	path: '/adviser-details',
	type: 'adviser-details',
	searchFields: ['firstName', 'lastName', 'preferredName', 'email'],
	nameFields: ['firstName', 'lastName', 'preferredName'],
	include: 'adviser',
	// With an include, the relationship is named in the fieldset too (the service's README).
	fields: { 'adviser-details': 'firstName,lastName,preferredName,email,adviser', advisers: 'status' },
	paging: 'keyset',
} as const;

/** The family id of an adviser-details record's adviser (empty when the page did not carry it). */
const familyId = (record: ListRecord) => record.relatedId('adviser') ?? '';

/**
 * A list of the service's types a fact find's type IDs come from (`GET /jsonapi/income-types`, …),
 * each type with its category where the description relates one (`incomeCategory`, its
 * `description`) or names it (a property type's `propertyZoningType`): "Employment › Base salary — #1".
 * Known by the type's id; By Name takes "Category › Type", or the type alone.
 */
function typeList(path: string, type: string, category?: { relationship: string; type: string } | { attribute: string }): SearchableList {
	const categoryOf = (record: ListRecord): string | undefined =>
		category === undefined ? undefined : 'attribute' in category ? text(record.attributes[category.attribute]) : text(record.related(category.relationship)?.description);
	const shown = (record: ListRecord) => [categoryOf(record), text(record.attributes.name) ?? '(no name)'].filter(Boolean).join(' › ');
	const categoryField = category === undefined ? undefined : 'attribute' in category ? category.attribute : `${category.relationship}.description`;
	return {
		path,
		type,
		searchFields: categoryField === undefined ? ['name'] : ['name', categoryField],
		nameFields: [],
		numberField: 'id',
		...(category !== undefined && 'relationship' in category ? { include: category.relationship } : {}),
		fields:
			category === undefined
				? { [type]: 'name' }
				: 'attribute' in category
					? { [type]: `name,${category.attribute}` }
					: { [type]: `name,${category.relationship}`, [category.type]: 'description' },
		paging: 'pages',
		label: (record) => `${shown(record)} — #${record.id}`,
		value: (record) => record.id,
		byName: {
			filter: (name) => {
				const parts = categoryParts(name);
				const byType = `equals(name,${quoteLiteral(parts[parts.length - 1] ?? name)})`;
				return parts.length > 1 && categoryField !== undefined ? `and(equals(${categoryField},${quoteLiteral(parts.slice(0, -1).join(' › '))}),${byType})` : byType;
			},
			exactly: (record, name) => {
				const parts = categoryParts(name);
				return parts.length > 1 ? same(shown(record), parts.join(' › ')) : same(record.attributes.name, name);
			},
		},
	};
}

export const LISTS: Record<ListSearchMethod, SearchableList> = {
	searchDeals: {
		path: '/deals',
		type: 'deals',
		searchFields: ['name'],
		nameFields: ['name'],
		numberField: 'id',
		fields: { deals: 'name,dealStatus' },
		paging: 'keyset',
		// "Walker, Rahul — Settled — #10201"
		label: (record) => {
			const status = text(record.attributes.dealStatus);
			return [text(record.attributes.name) ?? '(no name)', status && displayNameOf(status), `#${record.id}`].filter(Boolean).join(' — ');
		},
		value: (record) => record.id,
	},
	searchContacts: {
		path: '/contacts',
		type: 'contacts',
		searchFields: ['firstName', 'lastName', 'preferredName', 'email'],
		nameFields: ['firstName', 'lastName', 'preferredName'],
		numberField: 'id',
		fields: { contacts: 'firstName,lastName,email' },
		paging: 'keyset',
		// "Walker, Rahul — rahul.walker@example.com — #6000001"
		label: (record) => {
			const name = [text(record.attributes.lastName), text(record.attributes.firstName)].filter(Boolean).join(', ');
			return [name === '' ? '(no name)' : name, text(record.attributes.email), `#${record.id}`].filter(Boolean).join(' — ');
		},
		value: (record) => record.id,
	},
	// Known by the AdviserContactId: what the UserId header takes.
	searchAdvisers: {
		...ADVISERS_PAGE,
		numberField: 'id',
		label: (record) => adviserLabel(record, record.id),
		value: (record) => record.id,
		byName: ADVISER_BY_NAME,
	},
	// The same list, known by the adviser family id: what a task's assignee takes.
	searchAdviserFamilies: {
		...ADVISERS_PAGE,
		numberField: 'adviser.id',
		label: (record) => adviserLabel(record, familyId(record)),
		value: familyId,
		byName: ADVISER_BY_NAME,
	},
	searchEnquirySources: {
		path: '/enquiry-sources',
		type: 'enquiry-source',
		searchFields: ['sourceName', 'sourceCategoryName'],
		nameFields: [],
		numberField: 'sourceId',
		fields: { 'enquiry-source': 'sourceCategoryId,sourceCategoryName,sourceId,sourceName' },
		paging: 'pages',
		// "Online › Website enquiry form — #21"
		label: (record) => `${sourceName(record.attributes)} — #${String(record.attributes.sourceId)}`,
		value: (record) => String(record.attributes.sourceId),
		// "Online › Website enquiry form", or "Website enquiry form" alone.
		byName: {
			filter: (name) => {
				const parts = categoryParts(name);
				const source = `equals(sourceName,${quoteLiteral(parts[parts.length - 1] ?? name)})`;
				return parts.length > 1 ? `and(equals(sourceCategoryName,${quoteLiteral(parts.slice(0, -1).join(' › '))}),${source})` : source;
			},
			exactly: (record, name) => same(sourceName(record.attributes), categoryParts(name).join(' › ')),
		},
	},
	searchReferrers: {
		path: '/referrers',
		type: 'referrers',
		searchFields: ['referrerName', 'referrerOrganisationName'],
		nameFields: ['referrerName'],
		fields: { referrers: 'referrerName,referrerOrganisationName' },
		paging: 'pages',
		// "Jane Cooper — Ray White Parramatta — #301": referrers are named as the service writes them.
		label: (record) => [referrerName(record.attributes), `#${record.id}`].join(' — '),
		value: (record) => record.id,
		// "Jane Cooper", or "Jane Cooper — Ray White Parramatta".
		byName: {
			filter: (name) => {
				const [person, organisation] = organisationParts(name);
				const byPerson = `equals(referrerName,${quoteLiteral(person ?? name)})`;
				return organisation === undefined ? byPerson : `and(${byPerson},equals(referrerOrganisationName,${quoteLiteral(organisation)}))`;
			},
			exactly: (record, name) => same(referrerName(record.attributes), organisationParts(name).join(' — ')),
		},
	},
	// A fact find's type IDs (service/factFind.ts), each from the service's own list.
	searchIncomeTypes: typeList('/income-types', 'income-types', { relationship: 'incomeCategory', type: 'income-categories' }),
	searchAssetTypes: typeList('/asset-types', 'asset-types'),
	searchAssetSubTypes: typeList('/asset-sub-types', 'asset-sub-types'),
	searchLiabilityTypes: typeList('/liability-types', 'liability-types', { relationship: 'liabilityCategory', type: 'liability-categories' }),
	// The sub-types of one liability type: `{liabilityTypeId}` is the entry's Liability Type (methods/listSearch.ts).
	searchLiabilitySubTypes: { ...typeList('/liability-types/{liabilityTypeId}/liabilitySubTypes', 'liability-sub-types'), byName: undefined },
	searchExpenseTypes: typeList('/expense-types', 'expense-types', { relationship: 'expenseCategory', type: 'expense-categories' }),
	searchPropertyTypes: typeList('/property-types', 'property-types', { attribute: 'propertyZoningType' }),
};

/** "Category › Source", as the enquiry source list shows it and By Name takes it. */
export function sourceName(attributes: IDataObject): string {
	return [text(attributes.sourceCategoryName), text(attributes.sourceName) ?? '(no name)'].filter(Boolean).join(' › ');
}

/** "Name — Organisation", as the referrer list shows it and By Name takes it. */
export function referrerName(attributes: IDataObject): string {
	return [text(attributes.referrerName) ?? '(no name)', text(attributes.referrerOrganisationName)].filter(Boolean).join(' — ');
}

/** A list page's records, each with its included relationships at hand. */
export function listRecords(document: Document): ListRecord[] {
	const included = indexIncluded(document);
	return primaryResources(document).map((resource: Resource) => {
		const identifier = (name: string) => {
			const data = resource.relationships?.[name]?.data;
			return data !== null && data !== undefined && !Array.isArray(data) ? data : undefined;
		};
		return {
			id: String(resource.id),
			attributes: resource.attributes ?? {},
			relatedId: (name) => {
				const data = identifier(name);
				return data === undefined ? undefined : String(data.id);
			},
			related: (name) => {
				const data = identifier(name);
				return data === undefined ? undefined : includedResource(included, data)?.attributes;
			},
		};
	});
}
