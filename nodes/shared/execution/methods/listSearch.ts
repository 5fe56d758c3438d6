/**
 * The From List searches of the resource locators (description/locators.ts), shared by every
 * action node. Each call is one small, cheap request: a page of LIST_PAGE_SIZE, only the
 * attributes the label needs, newest first and paged by id (`lessThan(id,…)`), which the service
 * charges least for.
 */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { displayNameOf } from '../../service/catalogue';
import type { Resource } from '../../service/jsonapi';
import { primaryResources } from '../../service/jsonapi';
import type { ListSearchMethod } from '../../operation/locatorTypes';
import { combineFilters, quoteLiteral } from '../../input/query';
import { LIST_SEARCH_RATE_LIMIT_WAIT_SECONDS } from '../../requests/policy';
import { runContextOf } from '../../requests/runContext';
import { apiRequest } from '../../requests/transport';
import { MAX_ID, locatorValue } from '../../input/values';

/** Results per request; the editor asks for the next page when the user scrolls. */
export const LIST_PAGE_SIZE = 25;

interface SearchableList {
	type: string;
	/** Text attributes each typed word is looked for in. */
	searchFields: readonly string[];
	/** Of those, the names: a word typed without its apostrophe is also looked for with one there. */
	nameFields: readonly string[];
	/** The sparse fieldset: what the label needs. */
	labelFields: readonly string[];
	label(attributes: IDataObject, id: string): string;
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

const LISTS: Record<ListSearchMethod, SearchableList> = {
	searchDeals: {
		type: 'deals',
		searchFields: ['name'],
		nameFields: ['name'],
		labelFields: ['name', 'dealStatus'],
		// "Walker, Rahul — Settled — #10201"
		label: (attributes, id) => {
			const status = text(attributes.dealStatus);
			return [text(attributes.name) ?? '(no name)', status && displayNameOf(status), `#${id}`].filter(Boolean).join(' — ');
		},
	},
	searchContacts: {
		type: 'contacts',
		searchFields: ['firstName', 'lastName', 'preferredName', 'email'],
		nameFields: ['firstName', 'lastName', 'preferredName'],
		labelFields: ['firstName', 'lastName', 'email'],
		// "Walker, Rahul — rahul.walker@example.com — #6000001"
		label: (attributes, id) => {
			const name = [text(attributes.lastName), text(attributes.firstName)].filter(Boolean).join(', ');
			return [name === '' ? '(no name)' : name, text(attributes.email), `#${id}`].filter(Boolean).join(' — ');
		},
	},
};

/** Apostrophes as phones and word processors type them (U+2019, U+2018, U+02BC), read as the ' names are stored with. */
const APOSTROPHE_LOOKALIKES = /[\u2018\u2019\u02BC]/g;

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
export function searchFilter(searchFields: readonly string[], typed: string | undefined, nameFields: readonly string[] = []): string | undefined {
	const words = (typed ?? '')
		.replace(APOSTROPHE_LOOKALIKES, "'")
		.split(/[\s,]+/)
		.map((word) => word.replace(/^#/, ''))
		.filter((word) => word !== '');
	return combineFilters(
		words.map((word, index) => {
			const matches = searchFields.map((field) => `contains(${field},${quoteLiteral(word)})`);
			const variant = index < MAX_WORDS_WITH_APOSTROPHE_VARIANT ? apostropheVariant(word) : undefined;
			if (variant !== undefined) matches.push(...nameFields.map((field) => `contains(${field},${quoteLiteral(variant)})`));
			if (/^\d+$/.test(word) && Number(word) >= 1 && Number(word) <= MAX_ID) matches.push(`equals(id,${quoteLiteral(String(Number(word)))})`);
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
	// The token is the last ID of the previous page; pages continue below it.
	const after = paginationToken !== undefined && /^\d+$/.test(paginationToken) ? `lessThan(id,${quoteLiteral(paginationToken)})` : undefined;
	// Someone is typing: a search waits a minute for the rate-limit budget at most, not a workflow's 10.
	const run = runContextOf(context);
	run.rateLimitWaitMs = LIST_SEARCH_RATE_LIMIT_WAIT_SECONDS * 1000;
	run.rateLimitWaitOption = 'From List searches in the editor; not an option';
	const response = await apiRequest.call(context, {
		method: 'GET',
		path: `/${list.type}`,
		query: {
			filter: combineFilters([searchFilter(list.searchFields, typed, list.nameFields), after]),
			sort: '-id',
			fields: { [list.type]: list.labelFields.join(',') },
			pageSize: LIST_PAGE_SIZE,
		},
		userId: userIdOf(context),
	});
	const document = response.body ?? {};
	const resources: Resource[] = primaryResources(document);
	const results: INodeListSearchItems[] = resources.map((resource) => ({
		name: list.label(resource.attributes ?? {}, String(resource.id)),
		value: String(resource.id),
	}));
	const hasMore = resources.length === LIST_PAGE_SIZE && typeof document.links?.next === 'string' && document.links.next !== '';
	return { results, paginationToken: hasMore ? String(resources[resources.length - 1].id) : undefined };
}

export async function searchDeals(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchList(this, LISTS.searchDeals, filter, paginationToken);
}

export async function searchContacts(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchList(this, LISTS.searchContacts, filter, paginationToken);
}

/** `methods.listSearch` of every action node. */
export const listSearch = { searchDeals, searchContacts } satisfies Record<ListSearchMethod, unknown>;
