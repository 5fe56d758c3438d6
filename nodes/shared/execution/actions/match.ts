/**
 * Create → If Already Exists, as the item is read (its one pass): what it matches by — the values
 * its create will send for the match fields — and its ordering key. The search itself is built and
 * sent when the item runs (matchExisting.ts).
 */
import type { Operation, WriteField } from '../../operation/operation';
import type { IfExists } from '../../service/catalogue';
import type { WriteValues } from './common';

/** One match field and the value the item's create would send for it. */
export interface MatchTerm {
	field: WriteField;
	/** Attribute text (trimmed) or the related record's id. */
	value: string;
}

/**
 * The item's match, from the values its create will send. Matched text is trimmed in `values`
 * itself (the record created holds what was searched for); text that is empty once trimmed is
 * left out, like an empty field. Undefined when a match value is missing (a contact without an
 * e-mail): the item is then created without a search.
 */
function takeMatch(operation: Operation, values: WriteValues): MatchTerm[] | undefined {
	const terms: MatchTerm[] = [];
	let complete = true;
	for (const field of operation.ifAlreadyExists?.fields ?? []) {
		if (field.kind === 'attribute') {
			const value = values.attributes[field.name];
			if (typeof value === 'string') {
				const trimmed = value.trim();
				if (trimmed === '') delete values.attributes[field.name];
				else values.attributes[field.name] = trimmed;
			}
			const sent = values.attributes[field.name];
			if (sent === undefined || sent === null) complete = false;
			else terms.push({ field, value: String(sent) });
			continue;
		}
		const related = values.relationships[field.name];
		if (related === undefined || related === null || Array.isArray(related)) complete = false;
		else terms.push({ field, value: related.id });
	}
	return complete ? terms : undefined;
}

/** Equal for two items whose matches the service finds each other by: text with case folded, ids as they are. */
function matchKey(terms: readonly MatchTerm[]): string {
	return JSON.stringify(terms.map((term) => (term.field.kind === 'attribute' ? term.value.toLowerCase() : term.value)));
}

/** What an item that looks first matches by, and the key the router orders such items by. */
export interface ItemMatch {
	/** Equal for two creates that would find each other's record: the router runs them in item order. */
	orderingKey: string;
	terms: MatchTerm[];
}

/**
 * The item's match, from the values its create will send (their matched text trimmed, see
 * `takeMatch`). Undefined when the item does not look first (Create Another) or lacks a match
 * value: it is created without a search.
 */
export function matchOf(operation: Operation, values: WriteValues, ifExists: IfExists): ItemMatch | undefined {
	if (ifExists === 'createAnother' || operation.ifAlreadyExists === undefined) return undefined;
	const terms = takeMatch(operation, values);
	if (terms === undefined) return undefined;
	return { orderingKey: `match ${operation.path} ${matchKey(terms)}`, terms };
}

/**
 * The match fields an item left empty (after `matchOf` trimmed them), so it could not look first:
 * "External Reference", "Email". Empty when it has every one.
 */
export function missingMatch(operation: Operation, values: WriteValues): string[] {
	return (operation.ifAlreadyExists?.fields ?? [])
		.filter((field) => (field.kind === 'attribute' ? values.attributes[field.name] : values.relationships[field.name]) == null)
		.map((field) => field.label);
}
