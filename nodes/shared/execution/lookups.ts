/**
 * A picked record (input/values.ts `Picked`) looked up in its list (lists.ts) before the request
 * that needs it: a name or an adviser's e-mail given By Name (from a form, a Switch, an expression or
 * an AI agent), or an enquiry source given by its number, whose category the lead also needs. One
 * request per distinct value in a run, however many items give it (the run's look-ups are shared,
 * requests/runContext.ts). Nothing found, or several records where one was meant, fails the item
 * naming its parameter, before the request that needed it: nothing is written for it.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { ParameterName } from '../errors/factory';
import { operationError } from '../errors/factory';
import type { Picked } from '../input/values';
import { quoteLiteral } from '../input/query';
import { LOCATORS } from '../operation/locatorTypes';
import { runContextOf } from '../requests/runContext';
import { apiRequest } from '../requests/transport';
import { typeLabel } from '../service/schema';
import type { ListRecord, SearchableList } from './lists';
import { LISTS, listRecords, plainApostrophes } from './lists';

/** How many records a look-up reads: enough to tell one from several and to name a few of them. */
const LOOKUP_PAGE_SIZE = 10;

/** The list a type is picked from. */
function listOf(type: string): SearchableList {
	const locator = LOCATORS[type];
	if (locator === undefined) throw new Error(`no list to pick a ${type} from`);
	return LISTS[locator.searchListMethod];
}

/** What the picked record is, as its list shows it and as the request needs it. */
export interface PickedRecord extends ListRecord {
	/** What the pick is known by: the number the request sends (an adviser's contact ID, a source's sourceId). */
	value: string;
}

/** The filter that finds a pick in its list: By Name as the list says, else by the number it is known by. */
function filterFor(list: SearchableList, picked: Picked): string {
	if (picked.by === 'name') {
		if (list.byName === undefined) throw new Error(`the list ${list.path} has no By Name`);
		return list.byName.filter(picked.name);
	}
	return `equals(${list.numberField ?? 'id'},${quoteLiteral(picked.id)})`;
}

/** The records of the list that match, read once per run for each type and value. */
async function matches(context: IExecuteFunctions, type: string, picked: Picked, itemIndex: number, userId: string | undefined): Promise<ListRecord[]> {
	const list = listOf(type);
	const key = `${type}\u0000${picked.by}\u0000${(picked.by === 'name' ? picked.name : picked.id).toLowerCase()}`;
	const run = runContextOf(context);
	let found = run.lookups.get(key) as Promise<ListRecord[]> | undefined;
	if (found === undefined) {
		found = apiRequest
			.call(context, {
				method: 'GET',
				path: list.path,
				query: { filter: filterFor(list, picked), ...(list.include === undefined ? {} : { include: list.include }), fields: { ...list.fields }, pageSize: LOOKUP_PAGE_SIZE },
				itemIndex,
				userId,
			})
			.then((response) => listRecords(response.body ?? {}));
		run.lookups.set(key, found);
		// A failed look-up (a 403, a 429 that waited too long) is not kept: the next item asks again.
		found.catch(() => run.lookups.delete(key));
	}
	return await found;
}

/**
 * The record `picked` names, looked up in the list of `type`; fails naming `parameter` when the
 * list has none, or several and none of them has exactly that name.
 */
export async function lookUp(
	context: IExecuteFunctions,
	type: string,
	given: Picked,
	parameter: ParameterName,
	itemIndex: number,
	userId: string | undefined,
): Promise<PickedRecord> {
	const list = listOf(type);
	// A name typed on a phone ("O’Sullivan") is looked up as stored ("O'Sullivan").
	const picked: Picked = given.by === 'name' ? { by: 'name', name: plainApostrophes(given.name) } : given;
	const found = await matches(context, type, picked, itemIndex, userId);
	const exact = picked.by === 'name' && list.byName !== undefined ? found.filter((record) => list.byName?.exactly(record, picked.name)) : [];
	const chosen = found.length === 1 ? found : exact.length === 1 ? exact : [];
	const what = typeLabel(type);
	const value = given.by === 'name' ? given.name : given.id;
	if (chosen.length === 1) return { ...chosen[0], value: list.value(chosen[0]) };
	if (found.length === 0) {
		const by = picked.by === 'id' ? 'id' : picked.name.includes('@') ? 'email' : 'name';
		throw operationError(context.getNode(), 'pickNotFound', { parameter, what, by, value }, { itemIndex });
	}
	const choices = found.slice(0, 5).map((record) => list.label(record));
	throw operationError(context.getNode(), 'pickAmbiguous', { parameter, what, value, choices, more: found.length > choices.length }, { itemIndex });
}
