/**
 * Create → If Already Exists: a create whose catalogue entry has `matchExistingBy` can look for the
 * record first, so a web form sent twice, a re-run after a failure or two items with one e-mail
 * leave one record.
 *
 * - The match is the service's own comparison: `equals(field,'value')` for each match field, a
 *   to-one relationship by its id (`equals(deal.id,'…')`), all of them at once (`and(…)`). Text
 *   compares as the service compares it (SQL Server's default collation: upper and lower case are
 *   equal). Spaces around matched text are removed, in the search and in the record created, so a
 *   stray space from a form neither hides a match nor reaches the CRM.
 * - One search per item: the collection filtered by the match, sorted by id, one page of the most the
 *   service sends (100). The same answer says how many match and holds the oldest record in full,
 *   flattened exactly like a created one. Stop With Error needs only ids: a sparse fieldset.
 * - Items whose matches are equal as the service compares them share an ordering key (match.ts,
 *   worked out when the item is read); the router runs them in item order, so a later one finds
 *   what an earlier one created. Nothing orders separate executions: between one's search and its
 *   create, another can create the same record.
 *
 * The item's match is read in its one pass (match.ts); the search is built and sent here when the
 * item runs.
 */
import type { IDataObject } from 'n8n-workflow';

import { apiError } from '../../errors/factory';
import { combineFilters, quoteLiteral } from '../../input/query';
import { MAX_PAGE_SIZE } from '../../paging/pagination';
import { apiRequest } from '../../requests/transport';
import type { Operation } from '../../operation/operation';
import type { IfExists, MatchLookup } from '../../service/catalogue';
import { MATCH_COUNT_FIELD, NOT_SEARCHED_FIELD, OUTCOME_FIELD } from '../../service/catalogue';
import type { QueryParameters } from '../../service/jsonapi';
import { flatten } from '../../service/jsonapi';
import { RESOURCE_TYPES } from '../../service/schema';
import type { ActionContext } from './common';
import type { ItemMatch, MatchTerm } from './match';

/** The filter the service finds the matching records by (through `lookup`, the fields it names). */
function matchFilter(terms: readonly MatchTerm[], lookup?: MatchLookup): string | undefined {
	const filterPath = (term: MatchTerm) => lookup?.filterBy[term.field.name] ?? (term.field.kind === 'attribute' ? term.field.name : `${term.field.name}.id`);
	return combineFilters(terms.map((term) => `equals(${filterPath(term)},${quoteLiteral(term.value)})`));
}

/**
 * The item's search, from its match (match.ts): the collection filtered by it, sorted by id, one page
 * of the most the service sends. Stop With Error reads only the ids: each record as its matched
 * attributes. Through a lookup (a lead: the deal external reference, its deal included) the search
 * is another collection's.
 */
function searchOf(operation: Operation, match: ItemMatch, ifExists: IfExists): { path: string; query: QueryParameters } {
	const attributes = match.terms.filter((term) => term.field.kind === 'attribute').map((term) => term.field.name);
	const lookup = operation.matchLookup;
	const idsOnly = ifExists === 'stopWithError' && attributes.length > 0 && lookup === undefined;
	return {
		path: lookup?.path ?? operation.path,
		query: {
			filter: matchFilter(match.terms, lookup),
			sort: 'id',
			fields: idsOnly ? { [operation.type]: attributes.join(',') } : undefined,
			include: lookup?.record,
			pageSize: MAX_PAGE_SIZE,
		},
	};
}

/**
 * The one search before a create, and what it decides: undefined when no record matches (the item
 * is created); else Return Existing's output item (the oldest match, marked for an IF node) or Stop
 * With Error's error naming it.
 */
export async function lookFirst(
	this: ActionContext,
	operation: Operation,
	match: ItemMatch,
	ifExists: IfExists,
	itemIndex: number,
	userId: string | undefined,
): Promise<IDataObject | undefined> {
	const lookup = operation.matchLookup;
	const search = searchOf(operation, match, ifExists);
	const response = await apiRequest.call(this, { method: 'GET', path: search.path, query: search.query, itemIndex, userId });
	const matches = flatten(response.body ?? {});
	if (matches.length === 0) return undefined;
	// Asked sorted by id; the lowest id is taken whatever order the answer came in.
	const oldestMatch = matches.reduce((lowest, candidate) => (Number(candidate.id) < Number(lowest.id) ? candidate : lowest));
	const oldest = lookup === undefined ? oldestMatch : lookedUpRecord(oldestMatch, lookup);
	if (oldest === undefined) return undefined;
	if (ifExists === 'stopWithError') {
		const details = {
			label: RESOURCE_TYPES[operation.type].label,
			match: operation.ifAlreadyExists?.words ?? '',
			id: String(oldest.id),
			count: matches.length,
			atLeast: matches.length >= MAX_PAGE_SIZE,
			path: search.path,
		};
		throw apiError(this.getNode(), 'alreadyExists', details, { itemIndex });
	}
	return withOutcome(oldest, 'found', matches.length);
}

/** The record a lookup's match points to (its included to-one relationship), or undefined when it points nowhere. */
function lookedUpRecord(match: IDataObject, lookup: MatchLookup): IDataObject | undefined {
	const related = match[lookup.record];
	if (related === null || typeof related !== 'object' || Array.isArray(related)) return undefined;
	const record = related as IDataObject;
	return record.id === undefined || record.id === null ? undefined : record;
}

/** A record created by a create that looked first (nothing matched), marked for an IF node. */
export function createdOutcome(record: IDataObject): IDataObject {
	return withOutcome(record, 'created', 0);
}

/**
 * From node version 1.2, a record created by a create asked to look first that could not (a match
 * field empty, `missing`): `outcome` created, `matchCount` null (nothing was counted) and
 * `notSearched` saying which field was empty, so the item does not read as if it had searched.
 */
export function notSearchedOutcome(record: IDataObject, missing: readonly string[]): IDataObject {
	const words = missing.length === 1 ? `${missing[0]} is empty` : `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]} are empty`;
	return withOutcome(record, 'created', null, { [NOT_SEARCHED_FIELD]: `${words}: Loan CRM was not searched` });
}

/**
 * The one place an item of a create that looked first gets its marks: `outcome` (created / found)
 * and `matchCount` as its first two columns, so runs that created and runs that found tell apart at
 * a glance in Table view (and an IF node reads them); `notSearched` after them when it could not look.
 */
function withOutcome(record: IDataObject, outcome: 'created' | 'found', matchCount: number | null, extra: IDataObject = {}): IDataObject {
	const item: IDataObject = { [OUTCOME_FIELD]: outcome, [MATCH_COUNT_FIELD]: matchCount, ...extra };
	for (const [key, value] of Object.entries(record)) if (!(key in item)) item[key] = value;
	return item;
}
