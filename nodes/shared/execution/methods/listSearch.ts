/**
 * The From List searches of the resource locators (description/locators.ts), shared by every
 * action node: the lists of lists.ts. Each call is one small, cheap request: a page of
 * LIST_PAGE_SIZE, only the attributes the label needs, newest first and paged by id
 * (`lessThan(id,…)`), which the service charges least for; lists whose ids the service types as
 * text (enquiry sources, referrers) page by number in the service's order.
 */
import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import type { ListSearchMethod } from '../../operation/locatorTypes';
import { combineFilters, quoteLiteral } from '../../input/query';
import { LIST_SEARCH_RATE_LIMIT_WAIT_SECONDS } from '../../requests/policy';
import { runContextOf } from '../../requests/runContext';
import { apiRequest } from '../../requests/transport';
import { MAX_ID, locatorValue } from '../../input/values';
import { invalidParameter } from '../../errors/factory';
import { MAX_PAGE_SIZE } from '../../paging/pagination';
import type { SearchableList } from '../lists';
import { LISTS, listRecords, plainApostrophes } from '../lists';

/** Results per request; the editor asks for the next page when the user scrolls. */
export const LIST_PAGE_SIZE = 25;

/** Typed words that also get the variant with an apostrophe: enough for a name, and the URL stays short. */
export const MAX_WORDS_WITH_APOSTROPHE_VARIANT = 4;

/**
 * "oconnor" → "o'connor": surnames with an apostrophe nearly always have it after the first letter
 * (O'Connor, D'Souza, O'Brien; all of them in the sandbox's data), so a word of three or more letters
 * typed without one is also looked for with one there. Undefined for a word that has one, is shorter, or
 * is not only letters.
 */
export function apostropheVariant(word: string): string | undefined {
	return /^\p{L}{3,}$/u.test(word) ? `${word[0]}'${word.slice(1)}` : undefined;
}

/**
 * The filter for what the user typed: every word must appear in one of the search fields (so
 * "Rahul Walker" finds "Walker, Rahul"); a word that is a whole number also matches the ID.
 * Words are quoted for the filter syntax, so "O'Connor" is sent as 'O''Connor' (also when typed
 * with ’). A name typed without its apostrophe ("liam oconnor") finds it too: the word's variant
 * with an apostrophe after the first letter is matched in `nameFields`, for the first few words.
 * It costs nothing in rate-limit tokens (the service prices a search by its kind, page and sort,
 * not by its filter) and still one request; the filter grows by one `contains` per name field and
 * word (about 30 characters per word for deals, 95 for contacts).
 */
export function searchFilter(searchFields: readonly string[], typed: string | undefined, nameFields: readonly string[] = [], numberField: string | undefined = 'id'): string | undefined {
	const words = plainApostrophes(typed ?? '')
		.split(/[\s,]+/)
		.map((word) => word.replace(/^#/, ''))
		.filter((word) => word !== '');
	return combineFilters(
		words.map((word, index) => {
			const matches = searchFields.map((field) => `contains(${field},${quoteLiteral(word)})`);
			const variant = index < MAX_WORDS_WITH_APOSTROPHE_VARIANT ? apostropheVariant(word) : undefined;
			if (variant !== undefined) matches.push(...nameFields.map((field) => `contains(${field},${quoteLiteral(variant)})`));
			if (numberField !== undefined && /^\d+$/.test(word) && Number(word) >= 1 && Number(word) <= MAX_ID) matches.push(`equals(${numberField},${quoteLiteral(String(Number(word)))})`);
			return matches.length === 1 ? matches[0] : `or(${matches.join(',')})`;
		}),
	);
}

/** Request Options → User ID of the node being edited, when it is a plain ID (not an expression). */
function userIdOf(context: ILoadOptionsFunctions): string | undefined {
	const options = context.getCurrentNodeParameter('requestOptions') as { userId?: unknown } | undefined;
	const value = locatorValue(options?.userId);
	const userId = typeof value === 'string' ? value.trim() : undefined;
	return userId !== undefined && /^\d+$/.test(userId) ? userId : undefined;
}

async function searchList(
	context: ILoadOptionsFunctions,
	list: SearchableList,
	typed: string | undefined,
	paginationToken: string | undefined,
): Promise<INodeListSearchResult> {
	// Keyset: the token is the last ID of the previous page, and pages continue below it. By number:
	// the token is the next page's number.
	const token = paginationToken !== undefined && /^\d+$/.test(paginationToken) ? paginationToken : undefined;
	const keyset = list.paging === 'keyset';
	const after = keyset && token !== undefined ? `lessThan(id,${quoteLiteral(token)})` : undefined;
	const pageNumber = !keyset && token !== undefined ? Number(token) : undefined;
	// Someone is typing: a search waits a minute for the rate-limit budget at most, not a workflow's 10.
	const run = runContextOf(context);
	run.rateLimitWaitMs = LIST_SEARCH_RATE_LIMIT_WAIT_SECONDS * 1000;
	run.rateLimitWaitOption = 'From List searches in the editor; not an option';
	const response = await apiRequest.call(context, {
		method: 'GET',
		path: list.path,
		query: {
			filter: combineFilters([searchFilter(list.searchFields, typed, list.nameFields, list.numberField), after]),
			...(keyset ? { sort: '-id' } : {}),
			...(list.include === undefined ? {} : { include: list.include }),
			fields: { ...list.fields },
			pageSize: LIST_PAGE_SIZE,
			...(pageNumber === undefined ? {} : { pageNumber }),
		},
		userId: userIdOf(context),
	});
	const document = response.body ?? {};
	const records = listRecords(document);
	const results: INodeListSearchItems[] = records.map((record) => ({ name: list.label(record), value: list.value(record) }));
	const hasMore = records.length === LIST_PAGE_SIZE && typeof document.links?.next === 'string' && document.links.next !== '';
	if (!hasMore) return { results, paginationToken: undefined };
	return { results, paginationToken: keyset ? records[records.length - 1].id : String((pageNumber ?? 1) + 1) };
}

export async function searchDeals(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchList(this, LISTS.searchDeals, filter, paginationToken);
}

export async function searchContacts(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchList(this, LISTS.searchContacts, filter, paginationToken);
}

/** Advisers known by their contact ID (AdviserContactId): Allocate To, Request Options → User ID. */
export async function searchAdvisers(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchList(this, LISTS.searchAdvisers, filter, paginationToken);
}

/** The same advisers known by their adviser (family) ID: a task's assignee. */
export async function searchAdviserFamilies(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchList(this, LISTS.searchAdviserFamilies, filter, paginationToken);
}

export async function searchEnquirySources(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchList(this, LISTS.searchEnquirySources, filter, paginationToken);
}

export async function searchReferrers(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchList(this, LISTS.searchReferrers, filter, paginationToken);
}

export async function searchIncomeTypes(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchList(this, LISTS.searchIncomeTypes, filter, paginationToken);
}

export async function searchAssetTypes(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchList(this, LISTS.searchAssetTypes, filter, paginationToken);
}

export async function searchAssetSubTypes(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchList(this, LISTS.searchAssetSubTypes, filter, paginationToken);
}

export async function searchLiabilityTypes(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchList(this, LISTS.searchLiabilityTypes, filter, paginationToken);
}

/**
 * The sub-types of the Liability Type chosen in the same entry (`GET /liability-types/{id}/liabilitySubTypes`,
 * the only list of them the description has): one request for the type's sub-types (a related
 * collection, which takes no filter), narrowed to the words typed here.
 */
export async function searchLiabilitySubTypes(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const chosen = locatorValue(this.getCurrentNodeParameter('&liabilityTypeId'));
	const typeId = typeof chosen === 'number' ? String(chosen) : typeof chosen === 'string' ? chosen.trim() : '';
	if (!/^\d+$/.test(typeId)) {
		throw invalidParameter(this.getNode(), 'Liability Sub-Type', 'lists the sub-types of the Liability Type: choose the Liability Type first (From List or By ID)');
	}
	const list = LISTS.searchLiabilitySubTypes;
	const response = await apiRequest.call(this, {
		method: 'GET',
		path: list.path.replace('{liabilityTypeId}', typeId),
		query: { pageSize: MAX_PAGE_SIZE },
		userId: userIdOf(this),
	});
	const words = plainApostrophes(filter ?? '').toLowerCase().split(/\s+/).filter((word) => word !== '');
	const results = listRecords(response.body ?? {})
		.map((record) => ({ name: list.label(record), value: list.value(record) }))
		.filter((entry) => words.every((word) => entry.name.toLowerCase().includes(word)));
	return { results };
}

export async function searchExpenseTypes(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchList(this, LISTS.searchExpenseTypes, filter, paginationToken);
}

export async function searchPropertyTypes(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchList(this, LISTS.searchPropertyTypes, filter, paginationToken);
}

/** `methods.listSearch` of every action node. */
export const listSearch = {
	searchDeals,
	searchContacts,
	searchAdvisers,
	searchAdviserFamilies,
	searchEnquirySources,
	searchReferrers,
	searchIncomeTypes,
	searchAssetTypes,
	searchAssetSubTypes,
	searchLiabilityTypes,
	searchLiabilitySubTypes,
	searchExpenseTypes,
	searchPropertyTypes,
} satisfies Record<ListSearchMethod, unknown>;
