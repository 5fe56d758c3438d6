/**
 * Query options of collection reads: the raw filter, the no-code condition builder, sort, include
 * and sparse fieldsets, each checked before a request is sent.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import type { ParameterName } from '../errors/factory';
import { invalidParameter } from '../errors/factory';
import { valuesInListOrder } from '../service/fields';
import type { QueryParameters } from '../service/jsonapi';
import type { AttributeKind, ResourceTypeSpec } from '../service/schema';
import { checkFilterSyntax } from './filterSyntax';
import { toCalendarDate, toUtcTimestamp } from './values';

export const FILTER_OPERATORS = [
	{ name: 'Contains', value: 'contains', fn: 'contains' },
	{ name: 'Ends With', value: 'endsWith', fn: 'endsWith' },
	{ name: 'Equals', value: 'equals', fn: 'equals' },
	{ name: 'Greater Than', value: 'greaterThan', fn: 'greaterThan' },
	{ name: 'Greater Than or Equal', value: 'greaterOrEqual', fn: 'greaterOrEqual' },
	{ name: 'Is Empty (Null)', value: 'isNull', fn: 'equals' },
	{ name: 'Is Not Empty (Not Null)', value: 'isNotNull', fn: 'equals' },
	{ name: 'Is One Of', value: 'any', fn: 'any' },
	{ name: 'Less Than', value: 'lessThan', fn: 'lessThan' },
	{ name: 'Less Than or Equal', value: 'lessOrEqual', fn: 'lessOrEqual' },
	{ name: 'Not Equals', value: 'notEquals', fn: 'equals' },
	{ name: 'Starts With', value: 'startsWith', fn: 'startsWith' },
] as const;

type OperatorValue = (typeof FILTER_OPERATORS)[number]['value'];

const FIELD_PATH = /^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$/;

/** A literal in the service's syntax: single quotes, a quote inside doubled (`'O''Connor'`). */
export function quoteLiteral(value: string): string {
	return `'${value.replace(/'/g, "''")}'`;
}

/**
 * Removes whitespace outside quoted literals (the service rejects it) and checks that quotes and
 * parentheses are balanced, so a typo is reported by parameter name instead of by the service.
 */
export function normalizeFilterExpression(node: INode, parameter: ParameterName, expression: string, itemIndex?: number): string {
	let result = '';
	let inQuote = false;
	let depth = 0;
	for (let index = 0; index < expression.length; index++) {
		const char = expression[index];
		if (inQuote) {
			result += char;
			if (char === "'") {
				if (expression[index + 1] === "'") {
					result += "'";
					index++;
				} else {
					inQuote = false;
				}
			}
			continue;
		}
		if (/\s/.test(char)) continue;
		if (char === "'") inQuote = true;
		if (char === '(') depth++;
		if (char === ')') {
			depth--;
			if (depth < 0) throw invalidParameter(node, parameter, `has a ")" without a matching "(" at position ${index + 1}`, itemIndex);
		}
		result += char;
	}
	if (inQuote) throw invalidParameter(node, parameter, "has a quoted value that is not closed with ' (write a quote inside a value as '')", itemIndex);
	if (depth !== 0) throw invalidParameter(node, parameter, `has ${depth} "(" without a matching ")"`, itemIndex);
	return result;
}

function kindOfField(type: ResourceTypeSpec, field: string): AttributeKind | 'id' | undefined {
	if (field === 'id' || field.endsWith('.id')) return 'id';
	return type.attributes[field]?.kind;
}

/** A condition's value as the service compares it for a field of this kind (the literal's text, unquoted). */
function filterValue(
	node: INode,
	parameter: string,
	kind: AttributeKind | 'id' | undefined,
	value: unknown,
	timeZone: string,
	itemIndex?: number,
): string {
	if (Array.isArray(value)) {
		throw invalidParameter(node, parameter, `has ${value.length} values; choose one, or use the operator "Is One Of"`, itemIndex);
	}
	if (kind === 'date') {
		const date = toCalendarDate(value, timeZone);
		if (date === undefined) throw invalidParameter(node, parameter, 'must be a date (YYYY-MM-DD) for this field', itemIndex);
		return date;
	}
	if (kind === 'dateTime') {
		const text = typeof value === 'string' ? value.trim() : value;
		// A plain date compares against the start of that day, as the service reads it.
		if (typeof text === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
		const timestamp = toUtcTimestamp(text, timeZone);
		if (timestamp === undefined) throw invalidParameter(node, parameter, 'must be a date or a date and time for this field', itemIndex);
		return timestamp;
	}
	if (kind === 'boolean') {
		const text = String(value).trim().toLowerCase();
		if (text !== 'true' && text !== 'false') throw invalidParameter(node, parameter, 'must be true or false for this field', itemIndex);
		return text;
	}
	if (kind === 'number' || kind === 'integer' || kind === 'id') {
		const text = String(value).trim();
		if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(text)) throw invalidParameter(node, parameter, 'must be a number for this field', itemIndex);
		return text;
	}
	if (value !== null && typeof value === 'object') throw invalidParameter(node, parameter, 'must be text, not an object', itemIndex);
	return String(value ?? '');
}

export interface FilterCondition {
	field?: string;
	operator?: OperatorValue;
	value?: unknown;
}

function isEmptyValue(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

/**
 * One expression from the builder's conditions, all of which must hold. `label` is the Conditions
 * parameter as the user sees it, for messages.
 */
export function buildConditionFilter(
	node: INode,
	type: ResourceTypeSpec,
	conditions: FilterCondition[],
	timeZone: string,
	itemIndex?: number,
	label = 'Options → Conditions',
): string | undefined {
	const terms = conditions.map((condition, position) => {
		const conditionLabel = `${label} → Condition ${position + 1}`;
		const field = String(condition.field ?? '').trim();
		if (!FIELD_PATH.test(field)) {
			throw invalidParameter(node, `${conditionLabel} → Field`, `must be a field name such as lastName or integration.name; got "${field.slice(0, 60)}"`, itemIndex);
		}
		const operator = FILTER_OPERATORS.find((entry) => entry.value === condition.operator);
		if (!operator) throw invalidParameter(node, `${conditionLabel} → Operator`, `is not a known operator: "${String(condition.operator)}"`, itemIndex);
		const kind = kindOfField(type, field);
		// Fields with known values show a "Values" dropdown for Is One Of, a "Value" box otherwise.
		const listed = operator.value === 'any' && (kind === 'enum' || kind === 'boolean');
		const valueParameter = `${conditionLabel} → ${listed ? 'Values' : 'Value'}`;
		// A dropdown left on no choice would otherwise filter on '' and silently match nothing.
		if (kind === 'enum' && operator.value !== 'isNull' && operator.value !== 'isNotNull' && isEmptyValue(condition.value)) {
			const attribute = type.attributes[field];
			const choices = valuesInListOrder(attribute.values ?? [], attribute.ordered);
			throw invalidParameter(node, valueParameter, `needs a value: choose one of ${choices.join(', ')}`, itemIndex);
		}
		switch (operator.value) {
			case 'isNull':
				return `equals(${field},null)`;
			case 'isNotNull':
				return `not(equals(${field},null))`;
			case 'notEquals':
				return `not(equals(${field},${quoteLiteral(filterValue(node, valueParameter, kind, condition.value, timeZone, itemIndex))}))`;
			case 'any': {
				// A list from the dropdown, or comma-separated text (as typed, and as saved before the dropdown).
				const values = (Array.isArray(condition.value) ? condition.value.map((part) => String(part)) : String(condition.value ?? '').split(','))
					.map((part) => part.trim())
					.filter((part) => part !== '');
				if (values.length === 0) throw invalidParameter(node, valueParameter, 'needs at least one value (comma-separated)', itemIndex);
				return anyOf(field, values.map((part) => filterValue(node, valueParameter, kind, part, timeZone, itemIndex)));
			}
			case 'contains':
			case 'startsWith':
			case 'endsWith':
				if (kind !== undefined && kind !== 'string' && kind !== 'enum') {
					throw invalidParameter(node, `${conditionLabel} → Operator`, `"${operator.name}" works on text fields only; ${field} is not text`, itemIndex);
				}
				return `${operator.fn}(${field},${quoteLiteral(filterValue(node, valueParameter, kind, condition.value, timeZone, itemIndex))})`;
			default:
				return `${operator.fn}(${field},${quoteLiteral(filterValue(node, valueParameter, kind, condition.value, timeZone, itemIndex))})`;
		}
	});
	return combineFilters(terms);
}

/** `any(field,'a','b')`: the field has one of the values, each written as a literal. */
export function anyOf(field: string, values: readonly string[]): string {
	return `any(${field},${values.map(quoteLiteral).join(',')})`;
}

/** `and(...)` of the non-empty terms; a single term stands alone. */
export function combineFilters(terms: Array<string | undefined>): string | undefined {
	const present = terms.filter((term): term is string => term !== undefined && term !== '');
	if (present.length === 0) return undefined;
	return present.length === 1 ? present[0] : `and(${present.join(',')})`;
}

function parseKeyList(node: INode, parameter: ParameterName, value: unknown, pattern: RegExp, example: string, itemIndex?: number): string[] {
	if (value === undefined || value === null || value === '') return [];
	if (typeof value !== 'string') throw invalidParameter(node, parameter, `must be text such as ${example}`, itemIndex);
	const keys = value
		.split(',')
		.map((key) => key.trim())
		.filter((key) => key !== '');
	for (const key of keys) {
		if (!pattern.test(key)) throw invalidParameter(node, parameter, `has "${key.slice(0, 60)}", which is not valid; use ${example}`, itemIndex);
	}
	return keys;
}

/** Where the filter and the conditions are in the node's panel, for messages. */
export interface QueryLabels {
	filter: ParameterName;
	conditions: string;
}

/** An option of a collection read's Options, as messages name it (with its tool argument, if any). */
const option = (displayName: string, name: string): ParameterName => ({ label: `Options → ${displayName}`, path: ['options', name] });

const OPTIONS_LABELS: QueryLabels = { filter: option('Filter', 'filter'), conditions: 'Options → Conditions' };

/** The query of a collection read from its Options collection. */
export function queryFromOptions(
	node: INode,
	typeName: string,
	type: ResourceTypeSpec,
	options: IDataObject,
	timeZone: string,
	itemIndex?: number,
	labels: QueryLabels = OPTIONS_LABELS,
): Omit<QueryParameters, 'pageSize' | 'pageNumber'> {
	const raw = typeof options.filter === 'string' && options.filter.trim() !== ''
		? normalizeFilterExpression(node, labels.filter, options.filter, itemIndex)
		: undefined;
	if (raw !== undefined) checkFilterSyntax(node, labels.filter, typeName, type, raw, itemIndex);
	if (options.filter !== undefined && typeof options.filter !== 'string') {
		throw invalidParameter(node, labels.filter, "must be text such as equals(lastName,'Smith')", itemIndex);
	}
	const conditionList = ((options.conditions as IDataObject | undefined)?.condition ?? []) as FilterCondition[];
	const built = buildConditionFilter(node, type, conditionList, timeZone, itemIndex, labels.conditions);
	const sort = parseKeyList(node, option('Sort', 'sort'), options.sort, /^-?[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$/, 'lastName,-updated', itemIndex);
	const include = parseKeyList(node, option('Include', 'include'), options.include, FIELD_PATH, 'contacts,customStatus', itemIndex);
	const fieldList = parseKeyList(node, option('Fields', 'fields'), options.fields, /^[A-Za-z][A-Za-z0-9]*$/, 'name,updated', itemIndex);
	// The service attaches included resources only when their relationship is in the fieldset.
	const topLevelIncludes = include.map((path) => path.split('.')[0]);
	const fields = fieldList.length > 0 ? [...new Set([...fieldList, ...topLevelIncludes])] : [];
	return {
		filter: combineFilters([raw, built]),
		sort: sort.length > 0 ? sort.join(',') : undefined,
		include: include.length > 0 ? include.join(',') : undefined,
		fields: fields.length > 0 ? { [typeName]: fields.join(',') } : undefined,
	};
}
