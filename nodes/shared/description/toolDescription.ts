/**
 * What an AI agent (or n8n's MCP Server Trigger) reads about each action node's tools: the tool
 * description per operation and version, and version 1's Output option.
 *
 * How n8n makes a tool of a node (read in n8n 1.123.81, 2.30.0 and 2.41.0; 1.123 has the same code
 * minus the expression resolver of toolDescription):
 * - `usableAsTool: true` makes the loader (cli createAiTools → convertNodeToAiTool) register a copy
 *   named `<name>Tool` with inputs [] and outputs [ai_tool]. `usableAsTool: { replacements }` only
 *   swaps top-level description fields (displayName, description, …), never per-operation texts.
 * - convertNodeToAiTool adds "Tool Description" (descriptionType auto|manual + toolDescription)
 *   only when the node has no `toolDescription` property of its own. The tool's description is
 *   NodeHelpers.getToolDescriptionForNode: descriptionType 'auto' or an empty toolDescription gives
 *   makeDescription = "<the operation's action> in <defaults.name>"; otherwise toolDescription. So
 *   each operation has its own toolDescription here, shown only on the tool (the `@tool` display
 *   option), whose default is the agent-grade text below; the Workflow fills defaults into
 *   node.parameters, so the text applies without anyone editing it.
 * - The tool's name is its node's name with other characters than letters, digits, _ and - as _;
 *   the editor names a new tool node "<action> in <defaults.name>", hence `defaults.name` is
 *   "Loan CRM" ("Get many deals in Loan CRM": at most 52 characters, under the 64 models accept).
 * - The tool's input schema is only the `$fromAI(key, description, type, default)` calls found in
 *   the parameters (n8n-core createNodeAsTool → getSchema). Version 1.1 ships them as defaults
 *   (toolArguments.ts); in version 1 the workflow's author wires them (README). Each argument's own
 *   description is in the schema; the tool description names the arguments and says what comes back.
 * - A call runs the node's execute() with the arguments as the one input item; the node's type ends
 *   in "Tool" (the test n8n's `@tool` display option uses), which is how isToolRun tells. The answer
 *   is JSON.stringify of every output item's json; a thrown error becomes "<message>\n\nDetails:
 *   <description>" (the MCP Server Trigger answers it as an isError result).
 */
import type { INodeProperties } from 'n8n-workflow';

import type { Operation, WriteField } from '../operation/operation';
import { operationAt } from '../operation/operation';
import { IF_EXISTS_DISPLAY_NAME, IF_EXISTS_PARAMETER, MATCH_COUNT_FIELD, NOT_SEARCHED_FIELD, OUTCOME_FIELD, displayNameOf } from '../service/catalogue';
import { queryableFields } from '../service/fields';
import type { AttributeSpec, RelationshipSpec, ResourceTypeSpec } from '../service/schema';
import { LID } from '../service/factFind';
import { RESOURCE_TYPES } from '../service/schema';
import { summaryColumns } from '../service/summary';
import { AGENT_LIMIT_CEILING } from '../requests/policy';
import { sentence } from './fieldProperties';
import type { ToolArgument } from './toolArguments';
import { AGENT_DEFAULT_LIMIT, toolArgumentKey, toolArguments } from './toolArguments';
import { exampleFilter, fieldList, typeWords } from './typeWords';
import { versionCondition } from './versions';
import type { NodeVersion } from '../service/versions';
import { NODE_VERSIONS, SINCE, hasOperation } from '../service/versions';

const FILTER_SYNTAX =
	"Filter syntax is functions, not operators: equals(field,'value'), lessThan, lessOrEqual, greaterThan, greaterOrEqual, contains, startsWith, endsWith, any(field,'a','b'), not(…), and(…,…), or(…,…); every value in single quotes (a quote inside doubled: 'O''Connor'), dates as 'YYYY-MM-DD', null unquoted: equals(field,null).";

const COMPACT = 'Empty (null) fields, empty lists and empty objects are left out of answers.';

/** A sentence's start inside another sentence: "The deal" → "the deal"; "ID of" stays. */
function lowerFirst(text: string): string {
	return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

/** "Filter and sort on: …": the fields the service can filter and sort a collection on. */
function queryableLine(type: ResourceTypeSpec): string {
	const { attributes, paths } = queryableFields(type);
	return `Filter and sort on: ${attributes.join(', ')}${paths.length > 0 ? `; through relationships: ${paths.join(', ')}` : ''}.`;
}

// --- version 1: the text saved workflows' tools read (their author wires the arguments) ----------

/** The attributes a read returns: all but the write-only ones (a lead's person and source). */
function readableNames(attributes: Record<string, AttributeSpec>): string[] {
	return Object.keys(attributes).filter((name) => attributes[name].writeOnly !== true);
}

function readFieldsLine(type: ResourceTypeSpec): string {
	const attributes = type.attributes as Record<string, AttributeSpec>;
	return `Each ${type.label} has id and ${fieldList(attributes, readableNames(attributes))}.`;
}

function relationshipWords(relationship: RelationshipSpec): string {
	const what = lowerFirst(relationship.description);
	return relationship.toMany ? `comma-separated IDs of the ${what}, whole numbers` : `ID of the ${what}, a whole number`;
}

/**
 * Version 1's field lines. Fields picked from a list (a lead's Enquiry Source and Referrer) came
 * after version 1.1: version 1 tools keep the description their workflows were saved with.
 */
function writeLines(spec: Operation): string[] {
	const fields = spec.fields.filter((field) => field.kind !== 'attribute' || field.attribute.picked === undefined);
	const required = fields.filter((field) => field.required);
	const optional = fields.filter((field) => !field.required);
	const describe = (field: WriteField) =>
		field.kind === 'attribute' ? `${field.parameter} (${typeWords(field.attribute, 'write')})` : `${field.parameter} (${relationshipWords(field.relationship)})`;
	const lines: string[] = [];
	if (required.length > 0) lines.push(`Required: ${required.map(describe).join('; ')}.`);
	if (optional.length > 0) {
		lines.push(
			`${spec.shape === 'update' ? 'Fields it can change (only those given change)' : 'Optional fields'}: ${optional.map(describe).join('; ')}.`,
		);
	}
	return lines;
}

/**
 * A create that can look for the record first: what the If Already Exists setting does, in the
 * words (argument and value names) an agent passes: in version 1 the parameter's name, for a
 * workflow that lets the agent choose; in version 1.1 the tool argument wired by default.
 */
function ifExistsLine(spec: Operation, argumentName: string): string | undefined {
	if (spec.ifAlreadyExists === undefined) return undefined;
	const label = RESOURCE_TYPES[spec.type].label;
	const line =
		`When a ${label} with the same ${spec.ifAlreadyExists.words} already exists (case does not matter), ${argumentName} decides: ` +
		`createAnother (default) creates one more; returnExisting creates only if none exists, else returns the existing ${label} unchanged (the oldest, with ${MATCH_COUNT_FIELD}); ` +
		`stopWithError creates only if none exists, else fails naming its ID. Except with createAnother, the result has ${OUTCOME_FIELD}: created or found.`;
	const optional = spec.ifAlreadyExists.fields.filter((field) => !field.required);
	if (spec.version < SINCE.oneCreateShape || optional.length === 0) return line;
	return `${line} Without ${optional.map((field) => field.label.toLowerCase()).join(' or ')} it cannot look: it creates, and the result has ${NOT_SEARCHED_FIELD}.`;
}

/**
 * What a write returns, for a tool of `spec`'s version: the record as saved; from 1.2 a create names
 * the records it required (a note's dealId), and one whose existing record is found through another
 * type gives the same fields created or found (its readable record).
 */
function returnsLine(spec: Operation): string {
	// A fact find's item also lists the deal's contacts, by the names the fact find gave them (execution/factFind.ts).
	const contacts = spec.factFindInput === undefined ? '' : `, and contacts: the deal's contacts, each with the ${LID} it had in the fact find (entryName), id, outcome (created with the deal, or matched: a contact Loan CRM already had), firstName, lastName and email`;
	if (spec.shape !== 'create' || spec.version < SINCE.oneCreateShape) {
		return spec.factFindInput === undefined ? 'Returns the record as saved.' : `Returns the lead: id and dealId (the deal's ID), dealStatus${contacts}.`;
	}
	const type = RESOURCE_TYPES[spec.type] as ResourceTypeSpec;
	if (spec.matchLookup !== undefined) {
		const attributes = type.attributes as Record<string, AttributeSpec>;
		const fields = ['id', ...(spec.idAlias === undefined ? [] : [spec.idAlias]), ...readableNames(attributes)];
		return `Returns the ${type.label} with ${fields.join(', ')}, the same whether created or found${contacts}.`;
	}
	const named = spec.fields.filter((field) => field.required && field.kind === 'relationship' && field.relationship.toMany !== true).map((field) => field.parameter);
	return named.length === 0 ? 'Returns the record as saved.' : `Returns the record as saved, with ${named.join(' and ')}.`;
}

/** The description a version 1 tool reads for one operation. */
export function toolDescriptionV1(spec: Operation): string {
	const type = RESOURCE_TYPES[spec.type] as ResourceTypeSpec;
	const lines = [`${spec.action} in Loan CRM: ${sentence(lowerFirst(spec.description))}`];
	const ids = spec.idParameters.filter((id) => id.inPath);
	if (ids.length > 0) {
		lines.push(`Needs ${ids.map((id) => `${id.name} (${lowerFirst(id.described ?? `ID of the ${displayNameOf(id.name).toLowerCase()}`).replace(/\.$/, '')}, a whole number)`).join(' and ')}.`);
	}
	switch (spec.shape) {
		case 'getMany':
			lines.push(readFieldsLine(type));
			lines.push(queryableLine(type));
			lines.push(`${FILTER_SYNTAX} Example: ${exampleFilter(type)}.`);
			lines.push('Sort: comma-separated fields, - for descending, e.g. -updated.');
			lines.push(`Returns at most ${AGENT_DEFAULT_LIMIT} records unless a Limit is given (Return All for every record); ask for fewer fields with Fields.`);
			break;
		case 'getRelatedMany':
		case 'get':
		case 'getById':
			lines.push(readFieldsLine(type));
			break;
		case 'create':
		case 'update':
			lines.push(...writeLines(spec));
			lines.push('Returns the record as saved.');
			lines.push(...[ifExistsLine(spec, IF_EXISTS_PARAMETER)].filter((line): line is string => line !== undefined));
			break;
		case 'delete':
			lines.push('Permanent: only call it when the user asked to delete this record.');
			break;
	}
	if (spec.shape !== 'delete') lines.push('Output is compact: empty (null) fields, empty lists and empty objects are left out.');
	return lines.join(' ');
}

// --- version 1.1: the arguments come with the tool ------------------------------------------------

/** `a, b (date YYYY-MM-DD, each); c (text)`: consecutive fields of one type named together. */
function groupedFields(fields: Array<{ name: string; words: string }>): string {
	const groups: Array<{ names: string[]; words: string }> = [];
	for (const field of fields) {
		const last = groups[groups.length - 1];
		if (last !== undefined && last.words === field.words) last.names.push(field.name);
		else groups.push({ names: [field.name], words: field.words });
	}
	return groups.map((group) => (group.names.length === 1 ? `${group.names[0]} (${group.words})` : `${group.names.join(', ')} (${group.words}, each)`)).join('; ');
}

/** What each record comes with: the summary for types that have one, else every field. */
function returnedFields(type: ResourceTypeSpec): string {
	const columns = summaryColumns(type);
	const attributes = type.attributes as Record<string, AttributeSpec>;
	const fields =
		columns === undefined
			? readableNames(attributes).map((name) => ({ name, words: typeWords(attributes[name], 'read') }))
			: columns.map((column) => ({ name: column.key, words: typeWords(column.attribute, 'read') }));
	return `id and ${groupedFields(fields)}`;
}

/** What the Fields argument chooses from: every attribute as the service names it. */
function everyFieldLine(type: ResourceTypeSpec): string {
	const attributes = type.attributes as Record<string, AttributeSpec>;
	const what = summaryColumns(type) === undefined ? 'only the fields named, to save reading' : 'other fields';
	return `Fields gives ${what}, as the service names them (nested ones stay nested), or * for every field: ${fieldList(attributes, readableNames(attributes))}.`;
}

/** "Required arguments: Task_ID (a whole number). Optional arguments, …: Title (text); …" */
function argumentsLines(spec: Operation): string[] {
	const list = toolArguments(spec);
	const named = (entries: ToolArgument[]) => entries.map((entry) => `${entry.key} (${entry.words})`).join('; ');
	const required = list.filter((entry) => entry.default === undefined);
	const optional = list.filter((entry) => entry.default !== undefined);
	const lines: string[] = [];
	if (required.length > 0) lines.push(`Required arguments: ${named(required)}.`);
	if (optional.length > 0) {
		const which =
			spec.shape === 'update'
				? 'Optional arguments, only those given change (numbers and true/false as text)'
				: spec.shape === 'create'
					? 'Optional arguments (numbers and true/false as text)'
					: 'Optional arguments';
		lines.push(`${which}: ${named(optional)}.`);
	}
	return lines;
}

/** The description a tool of version 1.1 or later reads for one operation (`spec`: its form there): its arguments, what comes back. */
export function toolDescriptionOf(spec: Operation): string {
	const type = RESOURCE_TYPES[spec.type] as ResourceTypeSpec;
	const lines = [`${spec.action} in Loan CRM: ${sentence(lowerFirst(spec.agentDescription ?? spec.description))}`];
	lines.push(...argumentsLines(spec));
	switch (spec.shape) {
		case 'getMany':
			lines.push(`Returns at most Limit records (up to ${AGENT_LIMIT_CEILING}; above that the tool asks for a narrower filter), each with ${returnedFields(type)}.`);
			lines.push(everyFieldLine(type));
			lines.push(queryableLine(type));
			lines.push(`${FILTER_SYNTAX} Example: ${exampleFilter(type)}.`);
			lines.push('Sort: comma-separated fields, - for descending, e.g. -updated.');
			break;
		case 'getById':
			lines.push(`Returns the ${type.label} with ${returnedFields(type)}.`);
			lines.push(everyFieldLine(type));
			break;
		case 'getRelatedMany':
			lines.push(`Returns every ${type.label}, each with ${returnedFields(type)}.`);
			break;
		case 'get':
			lines.push(`Returns the ${type.label} with ${returnedFields(type)}.`);
			if (summaryColumns(type) !== undefined) lines.push(`Its other fields come from "Get a ${type.label}" with its id and Fields *.`);
			break;
		case 'create':
		case 'update':
			lines.push(returnsLine(spec));
			lines.push(...[ifExistsLine(spec, toolArgumentKey(IF_EXISTS_DISPLAY_NAME))].filter((line): line is string => line !== undefined));
			break;
		case 'delete':
			lines.push('Permanent: only call it when the user asked to delete this record.');
			break;
	}
	if (spec.shape !== 'delete') lines.push(COMPACT);
	return lines.join(' ');
}

/** An operation's tool description in a node version (`spec`: its form in that version, operation/operation.ts `operationAt`). */
export function toolDescriptionFor(spec: Operation, version: NodeVersion): string {
	return version < SINCE.summaries ? toolDescriptionV1(spec) : toolDescriptionOf(spec);
}

/**
 * Parameters only the tool copy of a node shows (`@tool`): the description the agent reads, one per
 * operation and run of versions with the same text, so each gets its own; and, in version 1, how
 * answers are shaped.
 */
export function agentProperties(operations: readonly Operation[]): INodeProperties[] {
	const description = (spec: Operation, versions: NodeVersion[], text: string): INodeProperties => ({
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 6 },
		default: text,
		description:
			versions[0] < SINCE.summaries
				? 'What the AI agent reads about this tool: what it does, its fields and known values, the filter syntax. The default is written for agents; edit it to add your own rules.'
				: "What the AI agent reads about this tool: what it does, its arguments, what it returns, the filter syntax. Each argument's own description is on its parameter. The default is written for agents; edit it to add your own rules.",
		displayOptions: {
			show: { '@tool': [true], '@version': versionCondition(versions) ?? [{ _cnd: { gte: NODE_VERSIONS[0] } }], resource: [spec.resource], operation: [spec.operation] },
		},
	});
	// Per operation, the versions that read the same text; listed by their first version, then in catalogue order.
	const copies = operations.flatMap((operation, order) => {
		const runs: Array<{ versions: NodeVersion[]; text: string }> = [];
		// An operation newer than version 1 (a catalogue row's `since`) has no tool in the versions before it.
		for (const version of NODE_VERSIONS.filter((candidate) => hasOperation({ typeVersion: candidate }, operation))) {
			const text = toolDescriptionFor(operationAt(operation, version), version);
			const same = runs.find((run) => run.text === text);
			if (same) same.versions.push(version);
			else runs.push({ versions: [version], text });
		}
		return runs.map((run) => ({ first: NODE_VERSIONS.indexOf(run.versions[0]), order, property: description(operation, run.versions, run.text) }));
	});
	copies.sort((a, b) => a.first - b.first || a.order - b.order);
	return [
		...copies.map((copy) => copy.property),
		{
			displayName: 'Output',
			name: 'agentOutput',
			type: 'options',
			options: [
				{
					name: 'Compact',
					value: 'compact',
					description: 'What Simplify gives, without empty (null) fields, empty lists and empty objects: a fraction of the size for the model to read',
				},
				{ name: 'Full', value: 'full', description: 'Exactly what Simplify gives, as the node outputs it outside an agent' },
			],
			default: 'compact',
			description: 'What the AI agent receives. Simplify (below) chooses the fields; this only drops empty ones. Node version 1.1 always drops them.',
			displayOptions: { show: { '@tool': [true], '@version': [1] } },
		},
	];
}
