/**
 * Errors the caller can correct itself from, an AI agent as much as a person: a filter written with
 * operators is answered with the function it should have been; a query the service rejects lists
 * the resource's fields; a rejected value names the parameter as the caller knows it and the values
 * the package knows for it.
 *
 * Unknown field names are left to the service (the resource tables do not hold every relationship
 * the service has, e.g. a contact's employments); its 400 is then completed with the fields we know.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { OperationSpec, WriteField } from './service/catalogue';
import { queryableFields } from './service/fields';
import { writeFields } from './service/catalogue';
import { writeFieldProperty } from './description/fieldProperties';
import type { ErrorObject } from './service/jsonapi';
import type { AttributeSpec, ResourceTypeSpec } from './service/schema';
import { RESOURCE_TYPES } from './service/schema';
import { invalidParameter } from './input/values';

const FUNCTIONS = 'equals, lessThan, lessOrEqual, greaterThan, greaterOrEqual, contains, startsWith, endsWith, any, has, not, and, or';

/** The operators people and models write, as the service's functions. */
const OPERATOR_FUNCTIONS: Record<string, (field: string, value: string) => string> = {
	'=': (field, value) => `equals(${field},${value})`,
	'==': (field, value) => `equals(${field},${value})`,
	'!=': (field, value) => `not(equals(${field},${value}))`,
	'<>': (field, value) => `not(equals(${field},${value}))`,
	'<': (field, value) => `lessThan(${field},${value})`,
	'<=': (field, value) => `lessOrEqual(${field},${value})`,
	'>': (field, value) => `greaterThan(${field},${value})`,
	'>=': (field, value) => `greaterOrEqual(${field},${value})`,
};

/**
 * ` (tool argument "filter")` when the parameter at `path` is filled by the agent through
 * `$fromAI('filter', …)`: the name the agent knows it by. Empty otherwise.
 */
export function toolArgument(node: INode, path: string[]): string {
	let value: unknown = node.parameters;
	for (const key of path) value = value !== null && typeof value === 'object' ? (value as { [key: string]: unknown })[key] : undefined;
	const key = typeof value === 'string' ? /\$fromAI\(\s*(['"`])([A-Za-z0-9_-]+)\1/.exec(value)?.[2] : undefined;
	return key === undefined ? '' : ` (tool argument "${key}")`;
}

/** "Fields of deals: id, created, …; through relationships: adviser.id, customStatus.name". */
export function fieldsSentence(typeName: string, type: ResourceTypeSpec): string {
	const { attributes, paths } = queryableFields(type);
	return `Fields of ${typeName}: ${attributes.join(', ')}${paths.length > 0 ? `; through relationships: ${paths.join(', ')}` : ''}`;
}

/** Outside quoted literals: the first comparison operator and where it is. */
function findOperator(expression: string): { operator: string; index: number } | undefined {
	let inQuote = false;
	for (let index = 0; index < expression.length; index++) {
		const char = expression[index];
		if (char === "'") {
			inQuote = !inQuote;
			continue;
		}
		if (inQuote) continue;
		const two = expression.slice(index, index + 2);
		if (two in OPERATOR_FUNCTIONS) return { operator: two, index };
		if (char in OPERATOR_FUNCTIONS) return { operator: char, index };
	}
	return undefined;
}

/**
 * A raw filter (whitespace already removed outside quotes) must be a function call; operators such
 * as `dealStatus = 'Settled'` are answered with the function to write instead, before any request.
 */
export function checkFilterSyntax(node: INode, parameter: string, typeName: string, type: ResourceTypeSpec, expression: string, itemIndex?: number): void {
	const operator = findOperator(expression);
	const startsWithFunction = /^[A-Za-z]+\(/.test(expression);
	if (operator === undefined && startsWithFunction) return;
	let suggestion = `equals(field,'value')`;
	if (operator) {
		const field = expression.slice(0, operator.index).replace(/^[(]+/, '');
		let value = expression.slice(operator.index + operator.operator.length).replace(/[)]+$/, '');
		if (/^"(.*)"$/.test(value)) value = `'${value.slice(1, -1)}'`;
		if (!/^'.*'$/.test(value) && value !== 'null') value = `'${value}'`;
		if (/^[A-Za-z][A-Za-z0-9.]*$/.test(field)) suggestion = OPERATOR_FUNCTIONS[operator.operator](field, value);
	}
	const got = expression.length > 80 ? `${expression.slice(0, 80)}…` : expression;
	const argument = toolArgument(node, ['options', 'filter']).trimStart();
	const prefix = argument === '' ? '' : `${argument} `;
	const problem = operator
		? `${prefix}uses the operator ${operator.operator}; the service only understands functions: write ${suggestion} instead of ${got}`
		: `${prefix}must start with a function such as ${suggestion}; got ${got}`;
	throw invalidParameter(
		node,
		parameter,
		`${problem}. Functions: ${FUNCTIONS}; every value in single quotes. ${fieldsSentence(typeName, type)}.`,
		itemIndex,
	);
}

function errorObjectsOf(error: NodeApiError): ErrorObject[] {
	const response = (error as unknown as { errorResponse?: JsonObject }).errorResponse;
	const errors = response?.errors;
	return Array.isArray(errors) ? (errors as unknown as ErrorObject[]) : [];
}

function amend(error: NodeApiError, addition: string, description?: string): NodeApiError {
	error.message = `${error.message}. ${addition}`;
	if (description !== undefined) error.description = description;
	return error;
}

/**
 * A 400 for the filter or sort of a collection read, completed with the resource's fields, the
 * syntax and the parameter the caller set.
 */
export function explainRejectedQuery(error: unknown, typeName: string, type: ResourceTypeSpec): unknown {
	if (!(error instanceof NodeApiError) || error.httpCode !== '400') return error;
	const parameters = new Set(errorObjectsOf(error).map((entry) => entry.source?.parameter));
	const label = parameters.has('sort')
		? `Options → Sort"${toolArgument(error.node, ['options', 'sort'])}`
		: parameters.has('filter')
			? `Options → Filter (or Conditions)"${toolArgument(error.node, ['options', 'filter'])}`
			: undefined;
	if (label === undefined) return error;
	const example = parameters.has('sort') ? 'Sort example: -updated,name.' : "Filter example: and(equals(field,'value'),greaterOrEqual(updated,'2026-11-01')).";
	return amend(
		error,
		`Check parameter "${label}. ${fieldsSentence(typeName, type)}`,
		`${example} Filter functions: ${FUNCTIONS}; every value in single quotes, dates as 'YYYY-MM-DD'.`,
	);
}

/** The label a write field's parameter has in the node: "Progress" or "Update Fields → Progress". */
export function writeFieldLabel(spec: OperationSpec, field: WriteField, required: boolean): string {
	// The label the user sees on the field (locators read "Deal", not "Deal ID").
	const label = writeFieldProperty(field, RESOURCE_TYPES[spec.type]).displayName;
	if (required) return label;
	return `${spec.shape === 'create' ? 'Additional Fields' : 'Update Fields'} → ${label}`;
}

/**
 * A 422 for a write, completed with the parameter each rejected field came from and, for a field
 * with known values, those values.
 */
export function explainRejectedValue(error: unknown, spec: OperationSpec): unknown {
	if (!(error instanceof NodeApiError) || error.httpCode !== '422') return error;
	const { required, optional } = writeFields(spec);
	const attributes = (RESOURCE_TYPES[spec.type] as ResourceTypeSpec).attributes as Record<string, AttributeSpec>;
	const hints: string[] = [];
	for (const entry of errorObjectsOf(error)) {
		const name = /^\/data\/(?:attributes|relationships)\/([^/]+)/.exec(entry.source?.pointer ?? '')?.[1];
		if (name === undefined) continue;
		const isRequired = required.some((field) => field.name === name);
		const field = [...required, ...optional].find((candidate) => candidate.name === name);
		if (field === undefined) continue;
		const path = isRequired ? [field.parameter] : [spec.shape === 'create' ? 'additionalFields' : 'updateFields', field.parameter];
		const label = `${writeFieldLabel(spec, field, isRequired)}"${toolArgument(error.node, path)}`;
		const values = field.kind === 'attribute' ? attributes[name]?.values : undefined;
		hints.push(values ? `Parameter "${label} takes one of: ${values.join(', ')}` : `Check parameter "${label}`);
	}
	return hints.length === 0 ? error : amend(error, [...new Set(hints)].join('. '));
}
