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
import type { MissingRecord } from './apiFailure';
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
}

/** What a request asks the error to explain if the service rejects it. */
export type Explain =
	/** A collection read of this type: a 400 for its filter or sort lists the fields and the syntax. */
	| { rejectedQuery: { type: ResourceTypeName } }
	/**
	 * A write: a 422 names the parameter each rejected field came from, with its known values; a 404
	 * for a relationship names the record that was not found (from `relationships`, as sent) and
	 * the parameter it came from.
	 */
	| { rejectedWrite: { fields: readonly WriteFieldHint[]; relationships?: Readonly<Record<string, RelationshipValue>> } };

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

/** A 422 for a write: the parameter each rejected field came from and, for a field with known values, those values. */
function rejectedWriteHint(node: INode, errors: ErrorObject[], fields: readonly WriteFieldHint[]): Hint | undefined {
	const hints: string[] = [];
	for (const entry of errors) {
		const name = /^\/data\/(?:attributes|relationships)\/([^/]+)/.exec(entry.source?.pointer ?? '')?.[1];
		const field = name === undefined ? undefined : fields.find((candidate) => candidate.name === name);
		if (field === undefined) continue;
		const label = `${field.label}"${toolArgument(node, field.parameterPath)}`;
		hints.push(field.values ? `Parameter "${label} takes one of: ${field.values.join(', ')}` : `Check parameter "${label}`);
	}
	return hints.length === 0 ? undefined : { addition: [...new Set(hints)].join('. ') };
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
	if (status !== 404 || explain === undefined || !('rejectedWrite' in explain)) return undefined;
	const name = relationshipOf404(errors);
	const sent = name === undefined ? undefined : explain.rejectedWrite.relationships?.[name];
	const identifiers = sent === undefined || sent === null ? [] : Array.isArray(sent) ? sent : [sent];
	if (identifiers.length === 0) return undefined;
	return { type: identifiers[0].type, ids: identifiers.map((identifier) => identifier.id) };
}

/** The hint `explain` asks for, when the answer is the status it is about. */
export function hintFor(node: INode, status: number | undefined, errors: ErrorObject[], explain: Explain | undefined): Hint | undefined {
	if (explain === undefined) return undefined;
	if ('rejectedQuery' in explain) return status === 400 ? rejectedQueryHint(node, errors, explain.rejectedQuery.type) : undefined;
	// A 422 names rejected fields; a 404 with a pointer names the relationship whose record is missing.
	return status === 422 || (status === 404 && relationshipOf404(errors) !== undefined) ? rejectedWriteHint(node, errors, explain.rejectedWrite.fields) : undefined;
}
