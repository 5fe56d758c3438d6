/**
 * Checking what users type (or expressions produce) before anything is sent: ids, attribute values
 * by their type in the resource tables, dates in the service's formats.
 */
import type { INode } from 'n8n-workflow';

import type { ParameterName } from '../errors/factory';
import { invalidParameter } from '../errors/factory';
import type { AttributeSpec } from '../service/schema';
import { has } from '../service/versions';

export const MAX_ID = 2147483647;

export function describeValue(value: unknown): string {
	if (value === null) return 'null';
	if (value === undefined) return 'nothing';
	if (typeof value === 'string') return `"${value.length > 60 ? `${value.slice(0, 60)}…` : value}"`;
	if (typeof value === 'object') return Array.isArray(value) ? 'a list' : 'an object';
	return `${typeof value} ${String(value)}`;
}

/**
 * The value inside a resource locator (`{ __rl, mode, value }`), or the value itself. Parameters
 * that became locators keep reading what older workflows saved there: a plain string, a number or
 * an expression's result.
 */
export function locatorValue(value: unknown): unknown {
	if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'mode' in value && 'value' in value) {
		return (value as { value: unknown }).value;
	}
	return value;
}

/**
 * What an ID must be, in the words of the node's version: from 1.2 "a record ID (a whole number)",
 * before it "a whole number from 1 to 2147483647" (the rule is the same: 1 to MAX_ID).
 */
export function idRuleWords(node: Pick<INode, 'typeVersion'>, list = false): string {
	if (has(node, 'plainWords')) return list ? 'record IDs (whole numbers), separated by commas' : 'a record ID (a whole number)';
	return list ? `whole numbers from 1 to ${MAX_ID}, separated by commas` : `a whole number from 1 to ${MAX_ID}`;
}

/** A path id: a whole number from 1 to 2147483647, surrounding spaces trimmed; a locator's value is read. */
export function parseId(node: INode, parameter: ParameterName, input: unknown, itemIndex?: number): string {
	const value = locatorValue(input);
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
	if (text === undefined || !/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_ID) {
		throw invalidParameter(node, parameter, `must be ${idRuleWords(node)}; got ${describeValue(value)}`, itemIndex);
	}
	return String(Number(text));
}

/**
 * A comma-separated list of ids, each checked like a path id; empty entries between commas are
 * ignored, but text must hold at least one id (an expression may give a list, also an empty one).
 * A locator's value is read.
 */
export function parseIdList(node: INode, parameter: ParameterName, input: unknown, itemIndex?: number): string[] {
	const value = locatorValue(input);
	const parts = Array.isArray(value)
		? value
		: typeof value === 'number'
			? [value]
			: typeof value === 'string'
				? value.split(',').filter((part) => part.trim() !== '')
				: [value];
	if (typeof value === 'string' && parts.length === 0) {
		throw invalidParameter(node, parameter, `must be ${idRuleWords(node, true)}; got ${describeValue(value)}`, itemIndex);
	}
	return parts.map((part) => parseId(node, parameter, part, itemIndex));
}

/**
 * A record chosen with a resource locator that has a By Name mode (operation/locatorTypes.ts): its
 * ID (From List, By ID, or a plain value saved before the locator had modes), or a name to look up
 * before the request (execution/lookups.ts).
 */
export type Picked = { by: 'id'; id: string } | { by: 'name'; name: string };

/** The mode of a saved resource locator, or undefined for a plain value. */
function locatorMode(value: unknown): unknown {
	return value !== null && typeof value === 'object' && !Array.isArray(value) && 'mode' in value ? (value as { mode: unknown }).mode : undefined;
}

/**
 * A picked record, checked: By Name any text but empty (looked up later); otherwise an ID, a whole
 * number, or any text when the service types the type's IDs as text (`textId`).
 */
export function parsePick(node: INode, parameter: ParameterName, input: unknown, textId: boolean, itemIndex?: number): Picked {
	const value = locatorValue(input);
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
	if (locatorMode(input) === 'name') {
		if (text === undefined || text === '') throw invalidParameter(node, parameter, `must be a name or an e-mail address to look up; got ${describeValue(value)}`, itemIndex);
		// A number given as the name (an agent that knows the ID) is the ID.
		if (/^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= MAX_ID) return { by: 'id', id: String(Number(text)) };
		return { by: 'name', name: text };
	}
	if (!textId) return { by: 'id', id: parseId(node, parameter, input, itemIndex) };
	if (text === undefined || text === '') throw invalidParameter(node, parameter, `must be an ID from the list; got ${describeValue(value)}`, itemIndex);
	return { by: 'id', id: text };
}

/** How a parameter's value is checked: an ID, comma-separated IDs, a picked record, or an attribute by its type. */
export type ValueCheck = { kind: 'id' } | { kind: 'idList' } | { kind: 'pick'; textId?: true } | { kind: 'attribute'; attribute: AttributeSpec };

/** The value to send for a parameter, checked as `check` says; the error names `parameter`. */
export function checkValue(node: INode, parameter: ParameterName, check: ValueCheck, value: unknown, timeZone: string, itemIndex?: number): unknown {
	if (check.kind === 'id') return parseId(node, parameter, value, itemIndex);
	if (check.kind === 'idList') return parseIdList(node, parameter, value, itemIndex);
	if (check.kind === 'pick') return parsePick(node, parameter, value, check.textId === true, itemIndex);
	return coerceAttribute(node, parameter, check.attribute, value, timeZone, itemIndex);
}

function pad(value: number, length = 2): string {
	return String(value).padStart(length, '0');
}

/** Offset of a time zone from UTC at an instant, in milliseconds. */
function zoneOffsetMs(instant: number, timeZone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(instant));
	const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value ?? 0);
	const wallClock = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
	return wallClock - Math.floor(instant / 1000) * 1000;
}

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
const ISO_WITHOUT_ZONE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?$/;

function dateLikeToText(value: unknown): string | undefined {
	if (typeof value === 'string') return value.trim();
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
	if (value !== null && typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		const iso = (value as { toISO: () => unknown }).toISO();
		return typeof iso === 'string' ? iso : undefined;
	}
	return undefined;
}

/**
 * An instant as ISO 8601 UTC. Date-times without a zone (what n8n's date picker gives) are read in
 * the workflow's time zone.
 */
export function toUtcTimestamp(value: unknown, timeZone: string): string | undefined {
	const text = dateLikeToText(value);
	if (text === undefined || text === '') return undefined;
	if (ISO_WITH_ZONE.test(text)) {
		const parsed = Date.parse(text);
		return Number.isNaN(parsed) ? undefined : new Date(parsed).toISOString();
	}
	const local = ISO_WITHOUT_ZONE.exec(text);
	if (!local) return undefined;
	const wall = Date.parse(`${local[1]}T${local[2] ?? '00:00:00'}Z`);
	if (Number.isNaN(wall)) return undefined;
	let instant = wall - zoneOffsetMs(wall, timeZone);
	const corrected = wall - zoneOffsetMs(instant, timeZone);
	if (corrected !== instant) instant = corrected;
	return new Date(instant).toISOString();
}

/** A calendar date as YYYY-MM-DD; the date part of a date-time is taken as written. */
export function toCalendarDate(value: unknown, timeZone: string): string | undefined {
	const text = dateLikeToText(value);
	if (text === undefined || text === '') return undefined;
	const local = ISO_WITHOUT_ZONE.exec(text);
	if (local) return Number.isNaN(Date.parse(`${local[1]}T00:00:00Z`)) ? undefined : local[1];
	if (ISO_WITH_ZONE.test(text)) {
		const instant = Date.parse(text);
		if (Number.isNaN(instant)) return undefined;
		const shifted = new Date(instant + zoneOffsetMs(instant, timeZone));
		return `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
	}
	return undefined;
}

function knownSpelling(values: readonly string[] | undefined, text: string): string {
	const key = (value: string) => value.toLowerCase().replace(/[\s_-]+/g, '');
	return values?.find((value) => key(value) === key(text)) ?? text;
}

/**
 * The value to send for an attribute, checked against its type. Enum values outside the known list
 * are sent as given: the service has the final word on them.
 */
export function coerceAttribute(
	node: INode,
	parameter: ParameterName,
	spec: AttributeSpec,
	value: unknown,
	timeZone: string,
	itemIndex?: number,
): unknown {
	const fail = (expected: string) =>
		invalidParameter(node, parameter, `must be ${expected}; got ${describeValue(value)}`, itemIndex);
	switch (spec.kind) {
		case 'string': {
			const text = typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
			if (text === undefined) throw fail('text');
			// The service's limit, checked here so the item fails before any request (UTF-16 units, as .NET counts).
			if (spec.maxLength !== undefined && text.length > spec.maxLength) {
				throw invalidParameter(node, parameter, `must be at most ${spec.maxLength} characters; got ${text.length}`, itemIndex);
			}
			return text;
		}
		case 'enum':
			// A known value written another way ("in progress", "IN_PROGRESS") is sent as the service spells it.
			if (typeof value === 'string' && value.trim() !== '') return knownSpelling(spec.values, value.trim());
			throw fail(`one of ${(spec.values ?? []).join(', ')}`);
		case 'number':
		case 'integer': {
			const number =
				typeof value === 'number'
					? value
					: typeof value === 'string' && value.trim() !== '' && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(value.trim())
						? Number(value.trim())
						: Number.NaN;
			if (!Number.isFinite(number)) throw fail(spec.kind === 'integer' ? 'a whole number' : 'a number');
			if (spec.kind === 'integer' && !Number.isInteger(number)) throw fail('a whole number');
			return number;
		}
		case 'boolean':
			if (typeof value === 'boolean') return value;
			if (value === 'true' || value === 'false') return value === 'true';
			throw fail('true or false');
		case 'date': {
			const date = toCalendarDate(value, timeZone);
			if (date === undefined) throw fail('a date (YYYY-MM-DD)');
			return date;
		}
		case 'dateTime': {
			const timestamp = toUtcTimestamp(value, timeZone);
			if (timestamp === undefined) throw fail('a date and time (ISO 8601, e.g. 2026-11-21T09:30:00Z)');
			return timestamp;
		}
		case 'object':
			if (value !== null && typeof value === 'object') return value;
			throw fail('an object');
		case 'list':
			if (Array.isArray(value)) return value;
			throw fail('a list');
	}
}
