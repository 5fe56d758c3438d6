/**
 * What an AI agent (or n8n's MCP Server Trigger) reads about each action node's tools: the tool
 * description per operation, the tool's own Limit default and its Output option.
 *
 * How n8n makes a tool of a node (read in the installed n8n 2.30.0 and 1.123.81 and in
 * n8n-workflow/n8n-core 2.41; 1.123 has the same code minus the expression resolver of
 * toolDescription; the MCP e2e runs on 2.30):
 * - `usableAsTool: true` makes the loader (cli createAiTools → convertNodeToAiTool) register a copy
 *   named `<name>Tool` with inputs [] and outputs [ai_tool]. `usableAsTool: { replacements }` only
 *   swaps top-level description fields (displayName, description, …), never per-operation texts.
 * - convertNodeToAiTool adds "Tool Description" (descriptionType auto|manual + toolDescription)
 *   only when the node has no `toolDescription` property of its own. The tool's description is
 *   NodeHelpers.getToolDescriptionForNode: descriptionType 'auto' or an empty toolDescription gives
 *   makeDescription = "<the operation's action> in <defaults.name>" ("Get many deals in Loan CRM
 *   Deals"); otherwise toolDescription. So each operation has its own toolDescription here, shown
 *   only on the tool (the `@tool` display option), whose default is the agent-grade text below;
 *   the Workflow fills defaults into node.parameters, so the text applies without anyone editing it.
 * - The tool's input schema is only the `$fromAI(key, description, type, default)` calls found in
 *   the parameters (n8n-core createNodeAsTool → getSchema); the editor's ✨ button writes
 *   `$fromAI('<Display_Name>', ``, '<type>')` with an empty description. A parameter's own
 *   description therefore reaches the agent through the tool description (which lists the fields,
 *   their types and known values) or the $fromAI description the workflow author writes (README).
 * - A call runs the node's execute() with the arguments as the one input item; the node's type ends
 *   in "Tool" (the test n8n's `@tool` display option uses), which is how isToolRun tells. The answer
 *   is JSON.stringify of every output item's json; a thrown error becomes "<message>\n\nDetails:
 *   <description>" (the MCP Server Trigger answers it as an isError result).
 */
import type { INodeProperties } from 'n8n-workflow';

import type { OperationSpec } from '../service/catalogue';
import { displayNameOf, pathParameters, writeFields } from '../service/catalogue';
import { queryableFields } from '../service/fields';
import type { AttributeSpec, RelationshipSpec, ResourceTypeSpec } from '../service/schema';
import { RESOURCE_TYPES } from '../service/schema';
import { sentence } from './fieldProperties';

/** Records a Get Many tool returns when the agent gives no Limit: enough to answer, cheap to read. */
export const AGENT_DEFAULT_LIMIT = 10;

function typeWords(attribute: AttributeSpec): string {
	switch (attribute.kind) {
		case 'enum':
			return `one of ${(attribute.values ?? []).join(', ')}`;
		case 'date':
			return 'date YYYY-MM-DD';
		case 'dateTime':
			return 'date-time, ISO 8601 UTC';
		case 'boolean':
			return 'true or false';
		case 'integer':
			return 'whole number';
		case 'number':
			return 'number';
		case 'object':
			return 'object';
		default:
			return 'text';
	}
}

/** `name (text)`, `dealStatus (one of NewLeads, …)`: what each field is, in the parameter's or attribute's name. */
function fieldList(attributes: Record<string, AttributeSpec>, names: string[]): string {
	return names.map((name) => `${name} (${typeWords(attributes[name])})`).join('; ');
}

const FILTER_SYNTAX =
	"Filter syntax is functions, not operators: equals(field,'value'), lessThan, lessOrEqual, greaterThan, greaterOrEqual, contains, startsWith, endsWith, any(field,'a','b'), not(…), and(…,…), or(…,…); every value in single quotes (a quote inside doubled: 'O''Connor'), dates as 'YYYY-MM-DD', null unquoted: equals(field,null).";

function exampleFilter(type: ResourceTypeSpec): string {
	const attributes = type.attributes;
	const enumField = Object.entries(attributes).find(([, attribute]) => attribute.kind === 'enum');
	const dateField = Object.entries(attributes)
		.sort(([a], [b]) => Number(b === 'updated') - Number(a === 'updated'))
		.find(([, attribute]) => attribute.kind === 'dateTime' || attribute.kind === 'date');
	const textField = Object.entries(attributes).find(([, attribute]) => attribute.kind === 'string');
	const terms: string[] = [];
	if (enumField) terms.push(`equals(${enumField[0]},'${enumField[1].example ?? enumField[1].values?.[enumField[1].values.length - 1] ?? ''}')`);
	if (dateField) terms.push(`greaterOrEqual(${dateField[0]},'2026-11-01')`);
	if (terms.length === 0 && textField) terms.push(`contains(${textField[0]},'Smith')`);
	if (terms.length === 0) return "equals(id,'123')";
	return terms.length === 1 ? terms[0] : `and(${terms.join(',')})`;
}

function readFieldsLine(type: ResourceTypeSpec): string {
	const attributes = type.attributes as Record<string, AttributeSpec>;
	const names = Object.keys(attributes);
	return `Each ${type.label} has id and ${fieldList(attributes, names)}.`;
}

function writeLines(spec: OperationSpec): string[] {
	const type = RESOURCE_TYPES[spec.type] as ResourceTypeSpec;
	const attributes = type.attributes;
	const { required, optional } = writeFields(spec);
	const describe = (field: ReturnType<typeof writeFields>['required'][number]) =>
		field.kind === 'attribute'
			? `${field.parameter} (${typeWords(attributes[field.name])})`
			: `${field.parameter} (${(field.relationship as RelationshipSpec).toMany ? 'comma-separated IDs' : 'ID'} of the ${field.relationship.description.charAt(0).toLowerCase()}${field.relationship.description.slice(1)})`;
	const lines: string[] = [];
	if (required.length > 0) lines.push(`Required: ${required.map(describe).join('; ')}.`);
	if (optional.length > 0) {
		lines.push(
			`${spec.shape === 'update' ? 'Fields it can change (only those given change)' : 'Optional fields'}: ${optional.map(describe).join('; ')}.`,
		);
	}
	return lines;
}

/** The description an agent reads for one operation's tool. */
export function toolDescriptionOf(spec: OperationSpec): string {
	const type = RESOURCE_TYPES[spec.type] as ResourceTypeSpec;
	const lines = [`${spec.action} in Loan CRM: ${sentence(spec.description.charAt(0).toLowerCase() + spec.description.slice(1))}`];
	const ids = pathParameters(spec);
	if (ids.length > 0) {
		lines.push(`Needs ${ids.map((name) => `${name} (${(spec.ids?.[name] ?? `ID of the ${displayNameOf(name).toLowerCase()}`).replace(/\.$/, '')}, a whole number)`).join(' and ')}.`);
	}
	switch (spec.shape) {
		case 'getMany': {
			const { attributes, paths } = queryableFields(type);
			lines.push(readFieldsLine(type));
			lines.push(
				`Filter and sort on: ${attributes.join(', ')}${paths.length > 0 ? `; through relationships: ${paths.join(', ')}` : ''}.`,
			);
			lines.push(`${FILTER_SYNTAX} Example: ${exampleFilter(type)}.`);
			lines.push("Sort: comma-separated fields, - for descending, e.g. -updated.");
			lines.push(`Returns at most ${AGENT_DEFAULT_LIMIT} records unless a Limit is given (Return All for every record); ask for fewer fields with Fields.`);
			break;
		}
		case 'getRelatedMany':
		case 'get':
		case 'getById':
			lines.push(readFieldsLine(type));
			break;
		case 'create':
		case 'update':
			lines.push(...writeLines(spec));
			lines.push('Returns the record as saved.');
			break;
		case 'delete':
			lines.push('Permanent: only call it when the user asked to delete this record.');
			break;
	}
	if (spec.shape !== 'delete') lines.push('Output is compact: empty (null) fields, empty lists and empty objects are left out.');
	return lines.join(' ');
}

/**
 * Parameters only the tool copy of a node shows (`@tool`): the description the agent reads, one per
 * operation so each gets its own; and how answers are shaped.
 */
export function agentProperties(operations: readonly OperationSpec[]): INodeProperties[] {
	const descriptions: INodeProperties[] = operations.map((spec) => ({
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 6 },
		default: toolDescriptionOf(spec),
		description:
			'What the AI agent reads about this tool: what it does, its fields and known values, the filter syntax. The default is written for agents; edit it to add your own rules.',
		displayOptions: { show: { '@tool': [true], resource: [spec.resource], operation: [spec.operation] } },
	}));
	return [
		...descriptions,
		{
			displayName: 'Output',
			name: 'agentOutput',
			type: 'options',
			options: [
				{
					name: 'Compact',
					value: 'compact',
					description: 'Leave out empty (null) fields, empty lists and empty objects: a fraction of the size for the model to read',
				},
				{ name: 'Full', value: 'full', description: 'Every field, as the node outputs it outside an agent' },
			],
			default: 'compact',
			description: 'What the AI agent receives',
			displayOptions: { show: { '@tool': [true] } },
		},
	];
}

/**
 * A Get Many's parameters with the tool's own Limit after the node's: the same parameter with a
 * smaller default, so one call stays affordable (50 deals are ~49,000 characters for a model to
 * read). The tool description states it.
 */
export function withAgentLimit(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		if (property.name !== 'limit') return [property];
		const show = { ...property.displayOptions?.show, '@tool': [true] };
		return [property, { ...property, default: AGENT_DEFAULT_LIMIT, displayOptions: { ...property.displayOptions, show } }];
	});
}
