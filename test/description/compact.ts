/**
 * The compact form of the description snapshots: one line per parameter, so a changed default,
 * option value, name or display condition is one readable line in a diff.
 *
 *   path | "Display Name" | type | default=… | options=[values] | show/hide conditions | other keys #hash
 *
 * `path` is the parameter's name, behind its collection's for a nested one (`options.filter`,
 * `conditions.condition.field`). Options of an options parameter are its values in order; a
 * collection's own entries follow it on their own lines. The hash (8 hex digits of a SHA-1) is
 * taken over everything the line does not spell out (descriptions, placeholders, hints, option
 * labels, a locator's modes, key order), so a change there still fails the pin and points at the
 * parameter it is in.
 */
import { createHash } from 'crypto';

/** A parameter as plain data (INodeProperties, a fixed collection's group or an option). */
export type Property = { [key: string]: unknown };

const SPELLED_OUT = new Set(['name', 'displayName', 'type', 'default', 'displayOptions', 'required', 'noDataExpression', 'typeOptions']);

export function shortHash(value: unknown): string {
	return createHash('sha1').update(JSON.stringify(value) ?? 'undefined').digest('hex').slice(0, 8);
}

function json(value: unknown): string {
	return JSON.stringify(value, (_key, member: unknown) => (typeof member === 'function' ? `[function ${(member as { name: string }).name}]` : member)) ?? '-';
}

/** The entries of a collection (parameters) or a fixed collection (groups of parameters), if any. */
function nestedOf(property: Property): Property[] | undefined {
	if (property.type !== 'collection' && property.type !== 'fixedCollection') return undefined;
	return Array.isArray(property.options) ? (property.options as Property[]) : undefined;
}

/** One line for a parameter (or a fixed collection's group), then one per nested entry. */
export function parameterLines(properties: readonly object[], prefix = ''): string[] {
	const lines: string[] = [];
	for (const property of properties as Property[]) {
		const path = `${prefix}${String(property.name)}`;
		const nested = nestedOf(property);
		// A fixed collection's group: its parameters are under `values`.
		const group = property.type === undefined && Array.isArray(property.values) ? (property.values as Property[]) : undefined;
		const choices = !nested && Array.isArray(property.options) ? (property.options as Property[]).map((option) => option.value ?? option.name) : undefined;
		const modes = Array.isArray(property.modes) ? (property.modes as Property[]).map((mode) => mode.name) : undefined;
		const cells = [path, json(property.displayName), String(property.type ?? 'group')];
		if ('default' in property) cells.push(`default=${json(property.default)}`);
		if (choices) cells.push(`options=${json(choices)}`);
		if (nested) cells.push(`entries=${json(nested.map((entry) => entry.name))}`);
		if (modes) cells.push(`modes=${json(modes)}`);
		if (property.displayOptions !== undefined) cells.push(json(property.displayOptions));
		for (const key of ['required', 'noDataExpression', 'typeOptions']) if (key in property) cells.push(`${key}=${json(property[key])}`);
		// What the line does not spell out, nested entries aside (they have their own lines).
		const rest = Object.fromEntries(
			Object.entries(property).map(([key, value]) => [key, SPELLED_OUT.has(key) ? '·' : (key === 'options' && nested) || (key === 'values' && group) ? '(lines below)' : value]),
		);
		lines.push(`${cells.join(' | ')} #${shortHash(rest)}`);
		if (nested) lines.push(...parameterLines(nested, `${path}.`));
		if (group) lines.push(...parameterLines(group, `${path}.`));
	}
	return lines;
}

/** A description (node or credential): `@key: value` for each key but the parameters, then a line per parameter. */
export function descriptionLines(description: object, extra: Record<string, unknown> = {}): string[] {
	const { properties, ...rest } = description as { properties?: Property[] };
	return [...Object.entries({ ...rest, ...extra }).map(([key, value]) => `@${key}: ${json(value)}`), ...parameterLines(properties ?? [])];
}

/** What the editor shows of a parameter, as the version pins list it: its name, a collection's entries in brackets. */
export interface ShownProperty {
	name: string;
	type: string;
	options?: unknown[];
}

/**
 * One line for what a node of one version (plain or tool) resolves to for one operation, after the
 * parameter lines (`@v1 plain deal.getMany | …`): the values a new node starts with, the parameters
 * it shows (with a hash over their labels, descriptions and options).
 */
export function resolvedLine(label: string, parameters: unknown, shown: readonly ShownProperty[]): string {
	const names = shown.map((property) => (property.type === 'collection' || property.type === 'fixedCollection' ? `${property.name}(${(property.options ?? []).join(',')})` : property.name));
	return `${label} | ${json(parameters)} | ${names.join(', ')} #${shortHash(shown)}`;
}
