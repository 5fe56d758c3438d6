/**
 * A whole fact find checked before anything is sent, against the public API description's schema
 * as service/factFind.ts holds it: every list, entry and member, the values by their types (enums,
 * numbers, dates, lengths), and the links between entries — a link to a name no entry has, a link
 * to the wrong kind of entry (an income owned by an address), two entries of a list with one name.
 *
 * One check for both ways of giving a fact find. As JSON (the description's own shape, `lid`s and
 * `{ lid }` references) problems are named by their path, `incomes[2].frequency`; by manual mapping
 * the node's fixed collections are read into the same shape with each entry's name as its lid, and
 * problems are named as the editor shows them, `Incomes → Salary 2 → Frequency`. Every problem is
 * reported, not only the first.
 */
import type { IDataObject } from 'n8n-workflow';

import { displayNameOf } from '../service/catalogue';
import type { FactFindList, FactFindListName, FactFindMember } from '../service/factFind';
import { FACT_FIND_LISTS, LID, factFindList, generatedLid } from '../service/factFind';
import { describeValue, locatorValue, toCalendarDate, toUtcTimestamp } from './values';

/** How problems name where they are: the JSON's paths, or the editor's labels and entry names. */
export type FactFindStyle = 'json' | 'manual';

/** A type ID given by its name (`"incomeTypeId": "Base salary"`): looked up in the service's list before the request. */
export interface NamedType {
	list: FactFindListName;
	index: number;
	member: string;
	/** The list's resource type (`income-types`). */
	type: string;
	name: string;
	/** Where it is, in the problem's words. */
	where: string;
}

/** A person of the fact find, for telling the deal's contacts apart after the create. */
export interface FactFindPerson {
	/** What the user called the person: the entry's name (manual mapping) or its lid (JSON). */
	name: string | null;
	email?: string;
	firstName?: string;
	lastName?: string;
}

export interface CheckedFactFind {
	/** The document's attributes: each list that has entries, its values checked, its lids final. */
	attributes: Record<string, IDataObject[]>;
	people: FactFindPerson[];
	/** Type IDs given by name, for the look-up before the request. */
	named: NamedType[];
	/** A pointer of the service's 422 (`/data/attributes/incomes/2/frequency`) in this style's words, undefined outside the lists. */
	describe(pointer: string): string | undefined;
}

export type FactFindCheck = { ok: true; factFind: CheckedFactFind } | { ok: false; problems: string[] };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Nothing given: left out, as an empty form field is. */
const isEmpty = (value: unknown): boolean => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

function ordinal(index: number): string {
	const n = index + 1;
	const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
	return `${n}${suffix}`;
}

/** "an income", "a person". */
function withArticle(word: string): string {
	return `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;
}

/** A member's label in the editor: its own, or its name in words ("Employer Name"). */
export function memberLabel(name: string, member: FactFindMember): string {
	return member.label ?? displayNameOf(name);
}

/** A known enum value written another way ("fortnightly", "HALF_YEARLY") as the description spells it. */
function knownValue(values: readonly string[], text: string): string | undefined {
	const key = (value: string) => value.toLowerCase().replace(/[\s_-]+/g, '');
	return values.find((value) => key(value) === key(text));
}

/** How a place in the fact find is named in problems, in one style. */
class Places {
	constructor(
		private readonly style: FactFindStyle,
		private readonly names: ReadonlyMap<string, readonly (string | undefined)[]>,
	) {}

	list(list: FactFindList): string {
		return this.style === 'json' ? list.name : list.label;
	}

	entry(list: FactFindList, index: number): string {
		if (this.style === 'json') return `${list.name}[${index}]`;
		const name = this.names.get(list.name)?.[index];
		return `${list.label} → ${name === undefined ? `${ordinal(index)} ${list.singular}` : name}`;
	}

	member(list: FactFindList, index: number, name: string, position?: number): string {
		if (this.style === 'json') return `${this.entry(list, index)}.${name}${position === undefined ? '' : `[${position}]`}`;
		const member = list.members[name];
		const label = name === LID ? 'Entry Name' : member === undefined ? name : memberLabel(name, member);
		return `${this.entry(list, index)} → ${label}`;
	}
}

/** The value to send for a member, or a problem (its text after "where: "). */
type Checked = { value: unknown } | { problem: string } | { named: string };

function checkMember(member: FactFindMember, given: unknown, timeZone: string): Checked {
	const value = locatorValue(given);
	const got = describeValue(value);
	switch (member.kind) {
		case 'string': {
			const text = typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
			if (text === undefined) return { problem: `${got} is not text` };
			if (member.maxLength !== undefined && text.length > member.maxLength) return { problem: `is ${text.length} characters long, more than the ${member.maxLength} Loan CRM takes` };
			return { value: text };
		}
		case 'enum': {
			const known = typeof value === 'string' ? knownValue(member.values ?? [], value.trim()) : undefined;
			return known === undefined ? { problem: `${got} is not one of ${(member.values ?? []).join(', ')}` } : { value: known };
		}
		case 'number':
		case 'integer': {
			const number =
				typeof value === 'number'
					? value
					: typeof value === 'string' && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(value.trim().replace(/,(?=\d{3}\b)/g, ''))
						? Number(value.trim().replace(/,(?=\d{3}\b)/g, ''))
						: Number.NaN;
			if (Number.isFinite(number) && (member.kind === 'number' || Number.isInteger(number))) return { value: number };
			// A type picked by its name ("Base salary"): looked up before the request.
			if (member.picked !== undefined && typeof value === 'string' && !/^[-+\d.,\s]+$/.test(value)) return { named: value.trim() };
			if (Number.isFinite(number)) return { problem: `${got} is not a whole number` };
			return { problem: member.picked === undefined ? `${got} is not a number` : `${got} is not an ID (a whole number) or a name from Loan CRM's list` };
		}
		case 'boolean':
			if (typeof value === 'boolean') return { value };
			if (typeof value === 'string' && ['true', 'false'].includes(value.trim().toLowerCase())) return { value: value.trim().toLowerCase() === 'true' };
			return { problem: `${got} is not true or false` };
		case 'date': {
			const date = toCalendarDate(value, timeZone);
			return date === undefined ? { problem: `${got} is not a date (YYYY-MM-DD)` } : { value: date };
		}
		case 'dateTime': {
			const timestamp = toUtcTimestamp(value, timeZone);
			return timestamp === undefined ? { problem: `${got} is not a date and time (ISO 8601, e.g. 2026-11-21T09:30:00Z)` } : { value: timestamp };
		}
		default:
			return { problem: `${got} cannot be sent` };
	}
}

/** A `{ lid }` reference's lid, or undefined when it is not one. */
function referenceLid(value: unknown): string | undefined {
	if (!isObject(value) || Object.keys(value).some((key) => key !== LID)) return undefined;
	const lid = value[LID];
	return typeof lid === 'string' && lid.trim() !== '' ? lid.trim() : undefined;
}

/** A reference waiting for every lid to be known. */
interface PendingReference {
	list: FactFindList;
	index: number;
	member: string;
	target: FactFindList;
	/** The positions of a to-many reference, undefined for a to-one. */
	lids: Array<{ lid: string; position?: number }>;
	toMany: boolean;
}

/**
 * Checks a fact find given as the description's shape (JSON mode), or as manual mapping reads it
 * (each entry's name as its `lid`). Returns every problem, or the fact find as it is sent: manual
 * mapping's names replaced by generated lids (`person-1`), JSON's lids as given.
 */
export function checkFactFind(input: unknown, style: FactFindStyle, timeZone: string): FactFindCheck {
	const problems: string[] = [];
	let value = input;
	if (typeof value === 'string') {
		const text = value.trim();
		if (text === '') value = {};
		else {
			try {
				value = JSON.parse(text) as unknown;
			} catch (error) {
				return { ok: false, problems: [`is not valid JSON: ${(error as Error).message}`] };
			}
		}
	}
	if (!isObject(value)) return { ok: false, problems: [`must be an object with the lists ${FACT_FIND_LISTS.map((list) => list.name).join(', ')}; got ${describeValue(value)}`] };

	// First pass: every entry's lid, so that names in problems and references can be resolved.
	const raw = new Map<FactFindListName, unknown[]>();
	const lids = new Map<string, Array<string | undefined>>();
	for (const [key, given] of Object.entries(value)) {
		const list = factFindList(key);
		if (list === undefined) {
			problems.push(
				`${key}: is not a list of a fact find (${FACT_FIND_LISTS.map((entry) => entry.name).join(', ')}); the lead's own parts (note, UTM, source, reference) are the node's other parameters`,
			);
			continue;
		}
		if (isEmpty(given)) continue;
		if (!Array.isArray(given)) {
			problems.push(`${list.name}: must be a list of ${list.singular} entries; got ${describeValue(given)}`);
			continue;
		}
		raw.set(list.name, given);
		lids.set(
			list.name,
			given.map((entry) => {
				const lid = isObject(entry) ? entry[LID] : undefined;
				return typeof lid === 'string' && lid.trim() !== '' ? lid.trim() : undefined;
			}),
		);
	}
	const places = new Places(style, lids);

	const attributes: Record<string, IDataObject[]> = {};
	const named: NamedType[] = [];
	const pending: PendingReference[] = [];
	for (const list of FACT_FIND_LISTS) {
		const entries = raw.get(list.name);
		if (entries === undefined) continue;
		const sent: IDataObject[] = [];
		const seen = new Map<string, number>();
		entries.forEach((entry, index) => {
			if (!isObject(entry)) {
				problems.push(`${places.entry(list, index)}: must be an object (one ${list.singular}); got ${describeValue(entry)}`);
				return;
			}
			const out: IDataObject = {};
			const lid = entry[LID];
			if (!isEmpty(lid)) {
				if (typeof lid !== 'string') problems.push(`${places.member(list, index, LID)}: ${describeValue(lid)} is not text`);
				else {
					const name = lid.trim();
					const earlier = seen.get(name);
					if (earlier !== undefined) {
						problems.push(
							style === 'json'
								? `${places.member(list, index, LID)}: "${name}" is the lid of ${list.name}[${earlier}] too; each ${list.singular} needs its own`
								: `${list.label} → ${ordinal(index)} ${list.singular}: the ${ordinal(earlier)} ${list.singular} is named "${name}" too; give each ${list.singular} its own name`,
						);
					} else seen.set(name, index);
					out[LID] = name;
				}
			}
			for (const [name, given] of Object.entries(entry)) {
				if (name === LID) continue;
				const member = list.members[name];
				if (member === undefined) {
					problems.push(`${places.member(list, index, name)}: is not a field of ${withArticle(list.singular)}; its fields are ${[LID, ...Object.keys(list.members)].join(', ')}`);
					continue;
				}
				if (isEmpty(given) || (Array.isArray(given) && given.length === 0 && member.refersTo === undefined)) continue;
				if (member.refersTo !== undefined) {
					const target = factFindList(member.refersTo) as FactFindList;
					if (member.kind === 'list') {
						if (!Array.isArray(given)) {
							problems.push(`${places.member(list, index, name)}: must be a list of references to ${target.name}, [{"lid": "…"}]; got ${describeValue(given)}`);
							continue;
						}
						if (given.length === 0) continue;
						const references: Array<{ lid: string; position?: number }> = [];
						given.forEach((reference, position) => {
							const found = referenceLid(reference);
							if (found === undefined) problems.push(`${places.member(list, index, name, position)}: must be {"lid": "…"}, a reference to one of ${target.name}; got ${describeValue(reference)}`);
							else references.push({ lid: found, position });
						});
						pending.push({ list, index, member: name, target, lids: references, toMany: true });
					} else {
						const found = referenceLid(given);
						if (found === undefined) problems.push(`${places.member(list, index, name)}: must be {"lid": "…"}, a reference to one of ${target.name}; got ${describeValue(given)}`);
						else pending.push({ list, index, member: name, target, lids: [{ lid: found }], toMany: false });
					}
					continue;
				}
				const checked = checkMember(member, given, timeZone);
				if ('problem' in checked) problems.push(`${places.member(list, index, name)}: ${checked.problem}`);
				else if ('named' in checked) named.push({ list: list.name, index, member: name, type: member.picked as string, name: checked.named, where: places.member(list, index, name) });
				else out[name] = checked.value as IDataObject[string];
			}
			sent.push(out);
		});
		attributes[list.name] = sent;
	}

	// References: to an entry of their list, by its lid; else the wrong kind of entry, or none.
	const lidIndex = (list: FactFindListName, lid: string) => lids.get(list)?.indexOf(lid) ?? -1;
	for (const reference of pending) {
		const resolved: Array<{ lid: string }> = [];
		for (const { lid, position } of reference.lids) {
			const where = places.member(reference.list, reference.index, reference.member, position);
			if (lidIndex(reference.target.name, lid) >= 0) {
				resolved.push({ lid });
				continue;
			}
			const other = FACT_FIND_LISTS.find((candidate) => lidIndex(candidate.name, lid) >= 0);
			const kind = other === undefined ? undefined : style === 'json' ? `${other.name}[${lidIndex(other.name, lid)}]` : `under ${other.label}`;
			if (other !== undefined) problems.push(`${where}: "${lid}" is ${withArticle(other.singular)} (${kind}), not ${withArticle(reference.target.singular)}`);
			else problems.push(style === 'json' ? `${where}: no entry of ${reference.target.name} has the lid "${lid}"` : `${where}: no ${reference.target.singular} is named "${lid}" under ${reference.target.label}`);
		}
		const entry = attributes[reference.list.name]?.[reference.index];
		if (entry !== undefined && resolved.length > 0) entry[reference.member] = reference.toMany ? resolved : resolved[0];
	}
	if ((attributes.contacts ?? []).length === 0) {
		problems.push(style === 'json' ? 'contacts: a fact find needs at least one person' : 'People: a fact find needs at least one person');
	}
	if (problems.length > 0) return { ok: false, problems };

	// Manual mapping: each name becomes a lid of its own kind, `person-1`, and its references with it.
	if (style === 'manual') renameLids(attributes);
	const people = (attributes.contacts ?? []).map((contact, index): FactFindPerson => {
		const text = (member: string) => (typeof contact[member] === 'string' ? (contact[member] as string) : undefined);
		return { name: lids.get('contacts')?.[index] ?? null, email: text('email'), firstName: text('firstName'), lastName: text('lastName') };
	});
	return {
		ok: true,
		factFind: {
			attributes,
			people,
			named,
			describe: (pointer) => {
				const match = /^\/data\/attributes\/([a-z]+)(?:\/(\d+)(?:\/([A-Za-z]+)(?:\/(\d+))?)?)?/.exec(pointer);
				const list = match === null ? undefined : factFindList(match[1]);
				if (match === null || list === undefined) return undefined;
				if (match[2] === undefined) return places.list(list);
				const index = Number(match[2]);
				if (match[3] === undefined) return places.entry(list, index);
				return places.member(list, index, match[3], match[4] === undefined ? undefined : Number(match[4]));
			},
		},
	};
}

/** Manual mapping's names as lids of their own: every entry `person-1`, `income-2`, references the same. */
function renameLids(attributes: Record<string, IDataObject[]>): void {
	const renamed = new Map<string, Map<string, string>>();
	for (const list of FACT_FIND_LISTS) {
		const map = new Map<string, string>();
		(attributes[list.name] ?? []).forEach((entry, index) => {
			const lid = generatedLid(list, index);
			if (typeof entry[LID] === 'string') map.set(entry[LID], lid);
			entry[LID] = lid;
		});
		renamed.set(list.name, map);
	}
	for (const list of FACT_FIND_LISTS) {
		for (const entry of attributes[list.name] ?? []) {
			for (const [name, member] of Object.entries(list.members)) {
				if (member.refersTo === undefined || entry[name] === undefined) continue;
				const map = renamed.get(member.refersTo);
				const rename = (reference: IDataObject) => ({ [LID]: map?.get(String(reference[LID])) ?? String(reference[LID]) });
				entry[name] = Array.isArray(entry[name]) ? (entry[name] as IDataObject[]).map(rename) : rename(entry[name] as IDataObject);
			}
		}
	}
}
