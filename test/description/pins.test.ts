/**
 * The compact snapshots pin what saved workflows depend on: every change, in memory, of a
 * parameter's name, default, option value or display condition, of every action node's parameters
 * (those version 1 shows and the rest), makes the node's snapshot text differ from the committed
 * file, so the pin fails for it.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { loadPackageSource } from '../../harness';
import type { Property } from './compact';
import { parameterLines } from './compact';

const source = loadPackageSource();
const ACTION_NODES = ['loanCrmDeals', 'loanCrmContacts', 'loanCrmLeadsAndTasks', 'loanCrmOrganisationsAndAssets'];

/** A value sure to differ from `value`, of the same kind where there is one. */
function changed(value: unknown): unknown {
	if (typeof value === 'string') return `${value}_changed`;
	if (typeof value === 'number') return value + 1;
	if (typeof value === 'boolean') return !value;
	if (Array.isArray(value)) return [...value, 'changed'];
	if (value !== null && typeof value === 'object') return { ...value, changed: true };
	return 'changed';
}

/** Every parameter and nested entry (collection entries, fixed collection groups and their values). */
function everyProperty(properties: readonly Property[]): Property[] {
	return properties.flatMap((property) => {
		const nested = property.type === 'collection' || property.type === 'fixedCollection' ? (property.options as Property[] | undefined) : undefined;
		const group = property.type === undefined ? (property.values as Property[] | undefined) : undefined;
		return [property, ...everyProperty(nested ?? []), ...everyProperty(group ?? [])];
	});
}

/** The in-memory changes to try on one parameter, each with the way to undo it. */
function mutations(property: Property): Array<{ what: string; apply: () => () => void }> {
	const set = (target: Record<string, unknown>, key: string, value: unknown) => () => {
		const had = key in target;
		const before = target[key];
		if (value === undefined) delete target[key];
		else target[key] = value;
		return () => {
			if (had) target[key] = before;
			else delete target[key];
		};
	};
	const list: Array<{ what: string; apply: () => () => void }> = [{ what: 'name', apply: set(property, 'name', changed(property.name)) }];
	if ('default' in property) list.push({ what: 'default', apply: set(property, 'default', changed(property.default)) });
	const isChoice = property.type === 'options' || property.type === 'multiOptions';
	if (isChoice) {
		// A choice loaded when the editor opens it (a fact find's links) has no options of its own.
		for (const option of (property.options ?? []) as Array<Record<string, unknown>>) list.push({ what: `option ${String(option.value)}`, apply: set(option, 'value', changed(option.value)) });
	}
	const display = property.displayOptions as Record<string, Record<string, unknown>> | undefined;
	for (const side of ['show', 'hide'] as const) {
		const conditions = display?.[side];
		if (conditions === undefined) continue;
		for (const key of Object.keys(conditions)) {
			list.push({ what: `${side}.${key} dropped`, apply: set(conditions, key, undefined) });
			list.push({ what: `${side}.${key} widened`, apply: set(conditions, key, changed(conditions[key])) });
		}
	}
	return list;
}

const mutationsTried: Record<string, number> = {};

describe('the compact snapshots pin what saved workflows depend on', () => {
	afterAll(() => {
		// Every action node was tried: thousands of changes in all.
		expect(Object.keys(mutationsTried).sort()).toEqual([...ACTION_NODES].sort());
	});

	it.each(ACTION_NODES)('%s: every changed name, default, option value and display condition fails the pin', (name) => {
		const node = source.nodes.find((entry) => entry.name === name);
		const description = node?.type.description as unknown as { properties: Property[] };
		const committed = readFileSync(join(__dirname, 'snapshots', `${name}.txt`), 'utf8').split('\n');
		// The parameter lines of the committed file, after the node's `@key:` lines.
		const pinned = committed.filter((line) => line !== '' && !line.startsWith('@')).join('\n');
		// The text is the parameters' blocks one after the other: a change shows in the block of the
		// top-level parameter it is in, the others staying as they are.
		const blocks = description.properties.map((property) => parameterLines([property]).join('\n'));
		expect(blocks.join('\n')).toBe(pinned);

		const unnoticed: string[] = [];
		let tried = 0;
		for (const [index, top] of description.properties.entries()) {
			for (const property of everyProperty([top])) {
				for (const mutation of mutations(property)) {
					const undo = mutation.apply();
					try {
						tried += 1;
						if (parameterLines([top]).join('\n') === blocks[index]) unnoticed.push(`${String(top.name)} → ${String(property.name)}: ${mutation.what}`);
					} finally {
						undo();
					}
				}
			}
		}
		expect(description.properties.map((property) => parameterLines([property]).join('\n')).join('\n')).toBe(pinned);
		expect(unnoticed).toEqual([]);
		expect(tried).toBeGreaterThan(100);
		mutationsTried[name] = tried;
	});
});
