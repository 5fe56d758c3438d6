/**
 * Filter syntax a person or a model gets wrong, answered before any request: the service's filter
 * language has functions only, so `dealStatus = 'Settled'` is answered with the function to write
 * instead (`equals(dealStatus,'Settled')`), the functions, and the resource's fields.
 */
import type { INode } from 'n8n-workflow';

import { fieldsSentence } from '../errors/hints';
import type { ParameterName } from '../errors/factory';
import { invalidParameter } from '../errors/factory';
import { FILTER_FUNCTIONS } from '../service/fields';
import type { ResourceTypeSpec } from '../service/schema';

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
export function checkFilterSyntax(node: INode, parameter: ParameterName, typeName: string, type: ResourceTypeSpec, expression: string, itemIndex?: number): void {
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
	const problem = operator
		? `uses the operator ${operator.operator}; the service only understands functions: write ${suggestion} instead of ${got}`
		: `must start with a function such as ${suggestion}; got ${got}`;
	throw invalidParameter(
		node,
		parameter,
		`${problem}. Functions: ${FILTER_FUNCTIONS.join(', ')}; every value in single quotes. ${fieldsSentence(typeName, type)}.`,
		itemIndex,
	);
}
