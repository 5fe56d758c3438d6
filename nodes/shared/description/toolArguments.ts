/**
 * What an AI agent can send to a tool of node version 1.1 or later, out of the box: the parameters its
 * description promises, each filled by the model through a `$fromAI` default in n8n's own override
 * format, so a tool added from the agent's tool connector works with no change by its author.
 *
 * How n8n takes these up (read in n8n 1.123.81, 2.30.0 and 2.41.0 and tried in each): no version
 * wires a new tool's parameters by itself; but the Workflow fills every displayed parameter's
 * default into the node's parameters, and the tool's input schema is every `$fromAI` call found
 * there (n8n-core createNodeAsTool → getSchema), a 4th argument becoming the argument's default (so
 * it is optional). Top-level and locator defaults are read again at every run (the editor does not
 * save a value equal to its default); collection defaults (Options, Update Fields) are saved with
 * the node when it is added.
 *
 * Conventions, so the editor and these defaults agree:
 * - The marker `/*n8n-auto-generated-fromAI-override*\/` makes the editor show the parameter as
 *   "Defined automatically by the model", its description editable.
 * - The key is the editor's own for the parameter (its display name, other characters than
 *   letters, digits and - as _: `Task ID` → `Task_ID`): the ✨ button rebuilds the expression with
 *   that key when the description is edited, so the argument keeps its name. (It drops the 4th
 *   argument, making an optional argument required; the README says to add it back.)
 * - IDs are numbers and required; optional write fields are text with default '' (nothing is sent
 *   for ''), numbers and true/false included: n8n's zod 3 schema has no "not given" default for a
 *   number or a boolean, and the node reads "6.1" and "true" as it reads 6.1 and true.
 */
import type { IdParameter, Operation, WriteField } from '../operation/operation';
import { IF_EXISTS_DEFAULT, IF_EXISTS_DISPLAY_NAME, IF_EXISTS_PARAMETER, IF_EXISTS_VALUES } from '../service/catalogue';
import { RESOURCE_TYPES } from '../service/schema';
import { hasSummary } from '../service/summary';
import { factFindShapeWords } from './factFind';
import { sentence } from './fieldProperties';
import { exampleFilter, typeWords } from './typeWords';

/** Records a Get Many tool returns when the agent gives no Limit: enough to answer, cheap to read. */
export const AGENT_DEFAULT_LIMIT = 10;

export const FROM_AI_MARKER = '/*n8n-auto-generated-fromAI-override*/';

export interface ToolArgument {
	/** Where the parameter sits: `['limit']`, `['options', 'filter']`, `['updateFields', 'progress']`. */
	path: [string] | [string, string];
	/** The parameter's label in the editor, of which the key is made. */
	displayName: string;
	/** What the agent sends it as (the input schema's property name). */
	key: string;
	/** `json`: an object (a fact find), which the model sends whole. */
	type: 'string' | 'number' | 'boolean' | 'json';
	/** Used when the agent leaves the argument out; without one the argument is required. */
	default?: string | number;
	/** What it takes, in a few words, for the tool description: "a whole number", "one of …". */
	words: string;
	/** What the agent reads about it in the input schema. */
	description: string;
}

/** The editor's `$fromAI` key for a parameter (n8n's sanitizeFromAiParameterName of the display name). */
export function toolArgumentKey(displayName: string): string {
	return displayName.replace(/[^a-zA-Z0-9-]/g, '_').slice(0, 63);
}

/** The quote n8n's editor picks for a `$fromAI` description (getBestQuoteChar), and the text escaped for it. */
function quoted(text: string): string {
	const quote = text.includes('\n') || !text.includes('`') ? '`' : !text.includes('"') ? '"' : "'";
	return `${quote}${text.replace(/\\/g, '\\\\').split(quote).join(`\\${quote}`)}${quote}`;
}

/** The parameter value that lets the model fill the argument, in the editor's override format. */
export function fromAIExpression(argument: ToolArgument): string {
	const fallback = argument.default === undefined ? '' : `, ${typeof argument.default === 'number' ? argument.default : `'${argument.default}'`}`;
	return `={{ ${FROM_AI_MARKER} $fromAI('${argument.key}', ${quoted(argument.description)}, '${argument.type}'${fallback}) }}`;
}

interface ArgumentText {
	words: string;
	description: string;
}

function argument(path: ToolArgument['path'], displayName: string, type: ToolArgument['type'], text: ArgumentText, fallback?: string | number): ToolArgument {
	return { path, displayName, key: toolArgumentKey(displayName), type, ...text, ...(fallback === undefined ? {} : { default: fallback }) };
}

function idArgument(spec: Operation, id: IdParameter): ToolArgument {
	const what = id.described ?? `ID of the ${RESOURCE_TYPES[spec.type].label}`;
	return argument([id.name], id.label, 'number', { words: 'its ID, a whole number', description: `${sentence(what)} A whole number.` });
}

/** Fields: what Simplify gives without it, and how to ask for others. */
function fieldsArgument(spec: Operation): ToolArgument {
	const without = hasSummary(spec.type) ? 'the main fields' : 'every field';
	return argument(
		['options', 'fields'],
		'Fields',
		'string',
		{
			words: 'comma-separated fields to return, or * for every field, as below',
			description: `Comma-separated fields to return, as the tool description names them (e.g. name,updated), or * for every field. Empty gives ${without}.`,
		},
		'',
	);
}

/** What a required field is sent as: IDs and numbers as numbers, true/false as a boolean, the rest as text. */
function requiredType(field: WriteField): ToolArgument['type'] {
	if (field.kind === 'relationship') return field.relationship.toMany ? 'string' : 'number';
	if (field.attribute.kind === 'number' || field.attribute.kind === 'integer') return 'number';
	return field.attribute.kind === 'boolean' ? 'boolean' : 'string';
}

/** The write field's argument: required ones in their own type, optional ones as text ('' sends nothing). */
function writeArgument(spec: Operation, field: WriteField): ToolArgument {
	const words =
		field.kind === 'relationship' ? (field.relationship.toMany ? 'comma-separated IDs, whole numbers' : 'its ID, a whole number') : typeWords(field.attribute, 'write');
	const what = `${field.kind === 'relationship' ? field.relationship.description : field.attribute.description}: ${words}`;
	if (field.required) return argument(field.path, field.label, requiredType(field), { words, description: `${what}.` });
	const absent = spec.shape === 'create' ? 'leaves it out' : 'leaves it unchanged';
	const kind = field.kind === 'attribute' ? field.attribute.kind : undefined;
	const asText = kind === 'number' || kind === 'integer' || kind === 'boolean' ? ', written as text' : '';
	return argument(field.path, field.label, 'string', { words, description: `${what}${asText}. Empty ${absent}.` }, '');
}

/**
 * Allocate To, for a create that allocates its record: the model names the adviser (an e-mail
 * address, a name, or the contact ID), looked up when the tool runs; empty, the node's adviser.
 */
function allocationArgument(spec: Operation): ToolArgument[] {
	if (spec.allocation === undefined) return [];
	const label = RESOURCE_TYPES[spec.type].label;
	return [
		argument(
			[spec.allocation.name],
			spec.allocation.label,
			'string',
			{
				words: `the adviser the ${label} goes to, by e-mail address or name as in Loan CRM, or contact ID, empty for the usual adviser`,
				description: `The adviser of the organisation the ${label} goes to: their e-mail address, or their name, as in Loan CRM (or their contact ID). Empty gives the ${label} to the workflow's usual adviser.`,
			},
			'',
		),
	];
}

/** A fact find create: the whole household as one object, in the shape of the public API description. */
function factFindArgument(spec: Operation): ToolArgument[] {
	const input = spec.factFindInput;
	if (input === undefined) return [];
	return [
		argument(input.json.path, input.json.label, 'json', {
			words: "the household as one object: contacts, addresses, employments, incomes, assets, liabilities, expenses, as the argument's description says",
			description: factFindShapeWords(),
		}),
	];
}

/**
 * The arguments of an operation's tool (version 1.1 or later; `spec` its form there), in the order the tool description names them:
 * the IDs it needs; for a search Filter, Sort, Limit and Fields; for a get by ID Fields; for a write
 * the fields it can set. Return All, Include, Conditions and the Request Options stay the
 * workflow author's (a related collection, such as a deal's notes, returns every record).
 */
export function toolArguments(spec: Operation): ToolArgument[] {
	const ids = spec.idParameters.map((id) => idArgument(spec, id));
	switch (spec.shape) {
		case 'getMany':
			return [
				...ids,
				argument(
					['options', 'filter'],
					'Filter',
					'string',
					{ words: 'in the syntax below', description: `Filter in the service's function syntax (see the tool description), e.g. ${exampleFilter(RESOURCE_TYPES[spec.type])}. Empty for none.` },
					'',
				),
				argument(
					['options', 'sort'],
					'Sort',
					'string',
					{ words: 'comma-separated fields, - before a field for descending, e.g. -updated', description: 'Comma-separated fields to sort by, - before a field for descending, e.g. -updated. Empty sorts by ID.' },
					'',
				),
				argument(
					['limit'],
					'Limit',
					'number',
					{ words: `how many records at most, default ${AGENT_DEFAULT_LIMIT}`, description: `How many records to return at most (default ${AGENT_DEFAULT_LIMIT}); ask for more only when needed.` },
					AGENT_DEFAULT_LIMIT,
				),
				fieldsArgument(spec),
			];
		case 'getById':
			return [...ids, fieldsArgument(spec)];
		case 'create':
		case 'update': {
			const ifExists =
				spec.ifAlreadyExists !== undefined
					? [
							argument(
								[IF_EXISTS_PARAMETER],
								IF_EXISTS_DISPLAY_NAME,
								'string',
								{
									words: `one of ${IF_EXISTS_VALUES.join(', ')}, default ${IF_EXISTS_DEFAULT}`,
									description: `What to do when the record already exists: ${IF_EXISTS_VALUES.join(', ')} (default ${IF_EXISTS_DEFAULT}; returnExisting means "create unless it exists").`,
								},
								IF_EXISTS_DEFAULT,
							),
						]
					: [];
			// What the model fills; the rest stays the workflow author's (the row's `agentFields`).
			const forAgent = spec.fields.filter((field) => spec.agentFields === undefined || spec.agentFields.includes(field.name));
			return [...ids, ...factFindArgument(spec), ...forAgent.map((field) => writeArgument(spec, field)), ...allocationArgument(spec), ...ifExists];
		}
		default:
			return ids;
	}
}
