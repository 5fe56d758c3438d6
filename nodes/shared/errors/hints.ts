/**
 * Hints that let the caller correct itself, an AI agent as much as a person: a query the service
 * rejects lists the resource's fields and the filter syntax; a rejected value names the parameter as
 * the caller knows it (and its tool argument, when an agent fills it) and the values the package
 * knows for it.
 *
 * The hints are asked for when a request is made (`Explain`, carried by the request) and written
 * into the message when the error is built, so a message is complete when it is created.
 *
 * Unknown field names are left to the service (the resource tables do not hold every relationship
 * the service has, e.g. a contact's employments); its 400 is then completed with the fields we know.
 */
import type { INode } from 'n8n-workflow';

import { FILTER_FUNCTIONS, queryableFields } from '../service/fields';
import type { ErrorObject, RelationshipValue } from '../service/jsonapi';
import type { MissingRecord, ServiceWords } from './apiFailure';
import type { ResourceTypeName, ResourceTypeSpec } from '../service/schema';
import { RESOURCE_TYPES } from '../service/schema';

/** A write field as the user sees it, for the hint on a 422 that names it. */
export interface WriteFieldHint {
	/** Attribute or relationship name, as the service's error pointer names it. */
	name: string;
	/** The parameter's label in the node: "Progress" or "Update Fields → Progress". */
	label: string;
	/** Where the parameter sits in the node's parameters, for its tool argument. */
	parameterPath: string[];
	/** The values the package knows for the field, if it has a list. */
	values?: readonly string[];
	/** Every attribute the parameter sends, when more than its own (an Enquiry Source sends its category too). */
	names?: readonly string[];
}

/** What a request asks the error to explain if the service rejects it. */
export interface Explain {
	/** A collection read of this type: a 400 for its filter or sort lists the fields and the syntax. */
	rejectedQuery?: { type: ResourceTypeName };
	/**
	 * A write: a 422 names the parameter each rejected field came from (in place of the service's
	 * attribute name, in the service's own words too), with its known values; a 404 for a
	 * relationship names the record that was not found (from `relationships`, as sent) and the
	 * parameter it came from.
	 */
	rejectedWrite?: {
		fields: readonly WriteFieldHint[];
		relationships?: Readonly<Record<string, RelationshipValue>>;
		/**
		 * A pointer into an entry of a list the write sent (a fact find's `/data/attributes/incomes/2/frequency`)
		 * as the parameter the user changes (`Incomes → Salary 2 → Frequency`); undefined elsewhere.
		 */
		entryAt?: (pointer: string) => { label: string; path: readonly string[] } | undefined;
	};
	/**
	 * Where the request's UserId came from when not from the credential (Allocate To, Request
	 * Options → User ID): a 403 names that parameter.
	 */
	userIdFrom?: { label: string; path: readonly string[] };
}

/**
 * "a. b": two sentences joined with one full stop, whatever the first ends with (the service's
 * texts end with one; a message must not read "…lead.. Check …").
 */
export function joinSentences(first: string, second: string): string {
	return `${first.replace(/[\s.]+$/, '')}. ${second}`;
}

/**
 * A rejected write's attributes and relationships as the parameters the user changes
 * (`"Additional Fields → Title"`, with the tool argument when an agent fills it), also where the
 * service's own text names one by its API name ("Set externalIntegrationAllowCreate to true" →
 * `Set "Additional Fields → External Integration Allow Create" to true`). Names in camelCase only:
 * a plain word such as "email" or "title" reads as English in the service's sentences.
 */
export function serviceWords(node: INode, explain: Explain | undefined): ServiceWords | undefined {
	const fields = explain?.rejectedWrite?.fields;
	if (fields === undefined) return undefined;
	const byName = new Map<string, string>();
	for (const field of fields) {
		const quoted = `"${field.label}"${toolArgument(node, field.parameterPath)}`;
		for (const name of [field.name, ...(field.names ?? [])]) byName.set(name, quoted);
	}
	const camelCase = [...byName.keys()].filter((name) => /[a-z][A-Z]/.test(name)).sort((a, b) => b.length - a.length);
	const pattern = camelCase.length === 0 ? undefined : new RegExp(`\\b(${camelCase.join('|')})\\b`, 'g');
	const entryAt = explain?.rejectedWrite?.entryAt;
	return {
		parameterOf: (name) => byName.get(name),
		inParameters: (text) => (pattern === undefined ? text : text.replace(pattern, (name) => byName.get(name) ?? name)),
		parameterAt: (pointer) => {
			const parameter = entryAt?.(pointer);
			return parameter === undefined ? undefined : `"${parameter.label}"${toolArgument(node, parameter.path)}`;
		},
	};
}

/**
 * ` (tool argument "Filter")` when the parameter at `path` is filled by an agent through
 * `$fromAI('Filter', …)`: the name the agent knows it by. Empty otherwise. Every way a parameter
 * can hold it: a plain value (the editor's ✨ or an expression typed by hand, alone or inside a
 * larger expression), a resource locator's value (`{ __rl, mode, value }`, whatever its mode), and
 * a tool's own default (node version 1.1; n8n fills defaults into the node's parameters).
 */
export function toolArgument(node: INode, path: readonly string[]): string {
	let value: unknown = node.parameters;
	for (const key of path) value = value !== null && typeof value === 'object' ? (value as { [key: string]: unknown })[key] : undefined;
	if (value !== null && typeof value === 'object' && 'value' in value) value = (value as { value: unknown }).value;
	const key = typeof value === 'string' ? /\$fromAI\(\s*(['"`])([A-Za-z0-9_-]+)\1/.exec(value)?.[2] : undefined;
	return key === undefined ? '' : ` (tool argument "${key}")`;
}

/** "Fields of deals: id, created, …; through relationships: adviser.id". */
export function fieldsSentence(typeName: string, type: ResourceTypeSpec): string {
	const { attributes, paths } = queryableFields(type);
	return `Fields of ${typeName}: ${attributes.join(', ')}${paths.length > 0 ? `; through relationships: ${paths.join(', ')}` : ''}`;
}

/** What a hint adds: a sentence after the message, and optionally a description in place of the status's. */
export interface Hint {
	addition: string;
	description?: string;
}

/** A 400 for the filter or sort of a collection read: the parameter the caller set, the fields, the syntax. */
function rejectedQueryHint(node: INode, errors: ErrorObject[], typeName: ResourceTypeName): Hint | undefined {
	const parameters = new Set(errors.map((entry) => entry.source?.parameter));
	const label = parameters.has('sort')
		? `Options → Sort"${toolArgument(node, ['options', 'sort'])}`
		: parameters.has('filter')
			? `Options → Filter (or Conditions)"${toolArgument(node, ['options', 'filter'])}`
			: undefined;
	if (label === undefined) return undefined;
	const example = parameters.has('sort') ? 'Sort example: -updated,name.' : "Filter example: and(equals(field,'value'),greaterOrEqual(updated,'2026-11-01')).";
	return {
		addition: `Check parameter "${label}. ${fieldsSentence(typeName, RESOURCE_TYPES[typeName])}`,
		description: `${example} Filter functions: ${FILTER_FUNCTIONS.join(', ')}; every value in single quotes, dates as 'YYYY-MM-DD'.`,
	};
}

/**
 * A rejected write: for a 422 (its words name the parameter already) the known values of a field
 * that has a list; for a 404 of a relationship's record, the parameter to check.
 */
function rejectedWriteHint(node: INode, status: number | undefined, errors: ErrorObject[], fields: readonly WriteFieldHint[]): Hint | undefined {
	const hints: string[] = [];
	for (const entry of errors) {
		const name = /^\/data\/(?:attributes|relationships)\/([^/]+)/.exec(entry.source?.pointer ?? '')?.[1];
		const field = name === undefined ? undefined : fields.find((candidate) => candidate.name === name || candidate.names?.includes(name));
		if (field === undefined) continue;
		const label = `${field.label}"${toolArgument(node, field.parameterPath)}`;
		if (field.values) hints.push(`Parameter "${label} takes one of: ${field.values.join(', ')}`);
		else if (status !== 422) hints.push(`Check parameter "${label}`);
	}
	return hints.length === 0 ? undefined : { addition: [...new Set(hints)].join('. ') };
}

/** A 403 for a request whose UserId came from a parameter: that parameter, and what it must hold. */
function userIdHint(node: INode, parameter: { label: string; path: readonly string[] }): Hint {
	return {
		addition: `Check parameter "${parameter.label}"${toolArgument(node, parameter.path)}: it must be an adviser of your organisation, from its adviser list (an AdviserContactId)`,
		description:
			"Loan CRM takes the request's UserId only for an adviser of the organisation the credential belongs to. Choose the adviser From List (the organisation's advisers), or check the ID or e-mail given. New tokens do not fix this.",
	};
}

/** The relationship a 404 for a write is about, as the service's error pointer names it. */
function relationshipOf404(errors: ErrorObject[]): string | undefined {
	for (const entry of errors) {
		const name = /^\/data\/relationships\/([^/]+)/.exec(entry.source?.pointer ?? '')?.[1];
		if (name !== undefined) return name;
	}
	return undefined;
}

/**
 * A 404 for a write whose error points at a relationship: the record it was set to, as sent
 * (the service found no such record). Undefined when the error names no relationship that was sent.
 */
export function missingTarget(status: number | undefined, errors: ErrorObject[], explain: Explain | undefined): MissingRecord | undefined {
	if (status !== 404 || explain?.rejectedWrite === undefined) return undefined;
	const name = relationshipOf404(errors);
	const sent = name === undefined ? undefined : explain.rejectedWrite.relationships?.[name];
	const identifiers = sent === undefined || sent === null ? [] : Array.isArray(sent) ? sent : [sent];
	if (identifiers.length === 0) return undefined;
	return { type: identifiers[0].type, ids: identifiers.map((identifier) => identifier.id) };
}

/** The hint `explain` asks for, when the answer is the status it is about. */
export function hintFor(node: INode, status: number | undefined, errors: ErrorObject[], explain: Explain | undefined): Hint | undefined {
	if (explain === undefined) return undefined;
	if (status === 403 && explain.userIdFrom !== undefined) return userIdHint(node, explain.userIdFrom);
	if (explain.rejectedQuery !== undefined) return status === 400 ? rejectedQueryHint(node, errors, explain.rejectedQuery.type) : undefined;
	if (explain.rejectedWrite === undefined) return undefined;
	// A 422 names rejected fields; a 404 with a pointer names the relationship whose record is missing.
	return status === 422 || (status === 404 && relationshipOf404(errors) !== undefined) ? rejectedWriteHint(node, status, errors, explain.rejectedWrite.fields) : undefined;
}
