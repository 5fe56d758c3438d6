/**
 * Fact Find → Create's fact find, read once per item (in the write's one pass, actions/write.ts):
 * from the node's fixed collections (manual mapping, each entry's name as its lid) or from its JSON
 * parameter, and checked whole (input/factFind.ts) before any request. Before the create, type IDs
 * given by name are looked up in the service's lists (lookups.ts, once per run per name); after it,
 * the deal's contacts are read and told apart by the names the fact find gave its people.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ParameterName } from '../errors/factory';
import { invalidParameter, operationError } from '../errors/factory';
import type { CheckedFactFind, FactFindPerson } from '../input/factFind';
import { checkFactFind } from '../input/factFind';
import { locatorValue } from '../input/values';
import type { FactFindCollection, FactFindMode, FactFindParameters } from '../operation/operation';
import { FACT_FIND_MODES } from '../operation/operation';
import { LOCATORS } from '../operation/locatorTypes';
import { apiRequest } from '../requests/transport';
import { LID } from '../service/factFind';
import { flatten } from '../service/jsonapi';
import { lookUp } from './lookups';

/** An item's fact find, checked: what it sends, and how its places are named in messages. */
export interface ItemFactFind extends CheckedFactFind {
	mode: FactFindMode;
	/** A place (`incomes[2].frequency`, `Incomes → Salary 2 → Frequency`) as a parameter messages name. */
	parameterAt(where: string): ParameterName & object;
}

const isEmpty = (value: unknown): boolean => value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

/** An entry of a fixed collection in the description's shape: its name as its lid, links as `{ lid }`. */
function manualEntry(collection: FactFindCollection, entry: unknown): unknown {
	if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return entry;
	const { [collection.entryName]: name, [collection.additionalFields]: more, ...main } = entry as IDataObject;
	const shaped: Record<string, unknown> = {};
	if (typeof name === 'string' && name.trim() !== '') shaped[LID] = name.trim();
	const values = { ...main, ...(more !== null && typeof more === 'object' && !Array.isArray(more) ? (more as IDataObject) : {}) };
	for (const [member, given] of Object.entries(values)) {
		const value = locatorValue(given);
		if (isEmpty(value)) continue;
		const spec = collection.list.members[member];
		if (spec?.refersTo === undefined) {
			shaped[member] = value;
			continue;
		}
		// Names picked (or given by expression: a name, or a list of them).
		const names = (Array.isArray(value) ? value : [value]).map((entryName) => (typeof entryName === 'string' ? { [LID]: entryName.trim() } : entryName));
		shaped[member] = spec.kind === 'list' ? names : names[0];
	}
	return shaped;
}

/** The item's fact find as the description shapes it, from the node's fixed collections. */
function manualFactFind(context: IExecuteFunctions, input: FactFindParameters, itemIndex: number): IDataObject {
	const shaped: IDataObject = {};
	for (const collection of input.collections) {
		const value = context.getNodeParameter(collection.parameter, itemIndex, {}) as IDataObject | null;
		const entries = value?.[collection.entryKey];
		if (Array.isArray(entries) && entries.length > 0) shaped[collection.list.name] = entries.map((entry) => manualEntry(collection, entry)) as IDataObject[];
	}
	return shaped;
}

/**
 * The item's fact find, read and checked: every problem (a link to a name no entry has, a value
 * that is not a number, …) fails the item before any request, each naming its entry and field.
 */
export function readFactFind(context: IExecuteFunctions, input: FactFindParameters, itemIndex: number): ItemFactFind {
	const node = context.getNode();
	const mode = context.getNodeParameter(input.mode.name, itemIndex, input.mode.default) as unknown;
	if (!(FACT_FIND_MODES as readonly unknown[]).includes(mode)) {
		throw invalidParameter(node, { label: input.mode.label, path: [input.mode.name] }, `must be one of ${FACT_FIND_MODES.join(', ')}; got ${JSON.stringify(mode)}`, itemIndex);
	}
	const style = mode as FactFindMode;
	const given = style === 'json' ? (context.getNodeParameter(input.json.path[0], itemIndex, '{}') as unknown) : manualFactFind(context, input, itemIndex);
	const checked = checkFactFind(given, style, context.getTimezone());
	const parameterAt = (where: string): ParameterName & object =>
		style === 'json' ? { label: `${input.json.label} → ${where}`, path: input.json.path } : { label: where, path: [input.collections.find((collection) => where.startsWith(`${collection.list.label} `))?.parameter ?? input.json.path[0]] };
	// A type given by name needs a list that looks names up (a liability sub-type is listed per type only).
	const problems = checked.ok
		? checked.factFind.named
				.filter((named) => LOCATORS[named.type]?.byName === undefined)
				.map((named) => `${named.where}: "${named.name}" is not an ID (a whole number); Loan CRM lists these per liability type, so give the ID`)
		: checked.problems;
	if (!checked.ok || problems.length > 0) throw operationError(node, 'factFindInvalid', { problems, ...(style === 'json' ? { parameter: input.json } : {}) }, { itemIndex });
	return { ...checked.factFind, mode: style, parameterAt };
}

/**
 * Type IDs given by name (`"incomeTypeId": "Base salary"`, a type By Name) looked up in the
 * service's list, once per run for each name, acting as the node's adviser; the IDs go into the
 * entries. A name the list does not have fails the item, naming where it is; nothing is created.
 */
export async function lookUpNamedTypes(context: IExecuteFunctions, factFind: ItemFactFind, itemIndex: number, userId: string | undefined): Promise<void> {
	for (const named of factFind.named) {
		const record = await lookUp(context, named.type, { by: 'name', name: named.name }, factFind.parameterAt(named.where), itemIndex, userId);
		const entry = factFind.attributes[named.list]?.[named.index];
		if (entry !== undefined) entry[named.member] = Number(record.value);
	}
}

const same = (a: unknown, b: unknown) => typeof a === 'string' && typeof b === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

/** The fact find's person a contact is: the same e-mail, else the same first and last name; each person once. */
function personOf(contact: IDataObject, people: readonly FactFindPerson[], taken: Set<number>): number | undefined {
	const byEmail = people.findIndex((person, index) => !taken.has(index) && person.email !== undefined && same(person.email, contact.email));
	if (byEmail >= 0) return byEmail;
	const byName = people.findIndex((person, index) => !taken.has(index) && person.firstName !== undefined && same(person.firstName, contact.firstName) && same(person.lastName ?? '', contact.lastName ?? ''));
	return byName >= 0 ? byName : undefined;
}

/**
 * How far before or after its deal's `created` a contact's `created` may be and still be one the
 * fact find created: the service creates the people and the deal in one request (the same instant
 * in the sandbox; seconds apart at most on a slow day). A contact Loan CRM matched is older.
 */
export const CREATED_WITH_DEAL_MS = 60_000;

/** `created` when the contact came into being with its deal (its `created` beside the deal's), `matched` when it is older; null when either stamp is missing. */
function contactOutcome(contact: IDataObject, dealCreated: number): 'created' | 'matched' | null {
	const created = typeof contact.created === 'string' ? Date.parse(contact.created) : Number.NaN;
	if (Number.isNaN(created) || Number.isNaN(dealCreated)) return null;
	return created >= dealCreated - CREATED_WITH_DEAL_MS ? 'created' : 'matched';
}

/**
 * The deal with its contacts (`GET /deals/{id}?include=contacts`, one request), each contact with
 * the name the fact find gave its person (`entryName`: the entry's name, or its lid in JSON) and
 * whether Loan CRM created it with the deal or matched an existing one (`outcome`, from the two
 * records' `created` stamps: both the service's clock), the fact find's people first in their order.
 * The record, created or found, gets them as `contacts`. The fact find is in Loan CRM by then: when
 * this read fails, the item says so (`contactsError`) rather than failing, so that nobody sends the
 * fact find again.
 */
export async function withDealContacts(context: IExecuteFunctions, record: IDataObject, people: readonly FactFindPerson[], itemIndex: number, userId: string | undefined): Promise<IDataObject> {
	const dealId = record.id;
	if (typeof dealId !== 'string' && typeof dealId !== 'number') return record;
	try {
		const response = await apiRequest.call(context, {
			method: 'GET',
			path: `/deals/${String(dealId)}`,
			// An included relationship is listed in its type's fieldset too (the server drops it otherwise).
			query: { include: 'contacts', fields: { deals: 'created,contacts', contacts: 'firstName,lastName,email,created' } },
			itemIndex,
			userId,
		});
		const [deal] = flatten(response.body ?? {});
		const dealCreated = typeof deal?.created === 'string' ? Date.parse(deal.created) : Number.NaN;
		const related = Array.isArray(deal?.contacts) ? (deal.contacts as IDataObject[]) : [];
		const taken = new Set<number>();
		const contacts = related.map((contact) => {
			const index = personOf(contact, people, taken);
			if (index !== undefined) taken.add(index);
			return {
				index: index ?? people.length,
				contact: {
					entryName: index === undefined ? null : people[index].name,
					id: contact.id,
					outcome: contactOutcome(contact, dealCreated),
					firstName: contact.firstName ?? null,
					lastName: contact.lastName ?? null,
					email: contact.email ?? null,
				},
			};
		});
		contacts.sort((a, b) => a.index - b.index);
		return { ...record, contacts: contacts.map((entry) => entry.contact) };
	} catch (error) {
		return { ...record, contacts: null, contactsError: `The fact find is in Loan CRM (deal ${String(dealId)}), but reading its contacts failed: ${(error as Error).message}` };
	}
}
