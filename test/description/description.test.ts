/**
 * Pinned UI: each node's description (as n8n's loader gives it to the editor, with its codex) and
 * the credential's are compared with the snapshots committed in test/description/snapshots/, so
 * every change a user would see — a parameter, a label, a default, an option's order — shows up in
 * review as a diff of those files.
 *
 * After an intended change: `npx jest test/description -u`, then commit the updated files.
 */
import { existsSync, readFileSync, writeFileSync } from 'fs';
import { join, resolve } from 'path';

import { loadPackageSource } from '../../harness';

const SNAPSHOTS = resolve(__dirname, 'snapshots');
const UPDATE_COMMAND = 'npx jest test/description -u';

/** Whether jest runs with -u / --updateSnapshot. */
function updating(): boolean {
	const state = expect.getState() as { snapshotState?: { _updateSnapshot?: string } };
	return state.snapshotState?._updateSnapshot === 'all';
}

function methodNames(instance: object): string[] {
	return Object.getOwnPropertyNames(Object.getPrototypeOf(instance)).filter((name) => name !== 'constructor').sort();
}

function serialize(value: unknown): string {
	return `${JSON.stringify(value, (_key, member: unknown) => (typeof member === 'function' ? `[function ${(member as { name: string }).name}]` : member), '\t')}\n`;
}

/** Where two JSON values differ, as `path: before → after`, at most `max` of them. */
function differences(before: unknown, after: unknown, path = '', found: string[] = [], max = 30): string[] {
	if (found.length >= max) return found;
	const show = (value: unknown) => (value === undefined ? '(absent)' : JSON.stringify(value)?.slice(0, 120));
	if (before !== null && after !== null && typeof before === 'object' && typeof after === 'object' && Array.isArray(before) === Array.isArray(after)) {
		const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
		for (const key of keys) {
			const element = (before as Record<string, unknown>)[key] as { name?: unknown } | undefined;
			const named = Array.isArray(before) && typeof element?.name === 'string' ? ` ${element.name}` : '';
			const label = Array.isArray(before) ? `${path}[${key}${named}]` : `${path}.${key}`;
			differences((before as Record<string, unknown>)[key], (after as Record<string, unknown>)[key], label, found, max);
		}
		if (found.length === 0 && JSON.stringify(before) !== JSON.stringify(after)) found.push(`${path || '(root)'}: key order changed`);
		return found;
	}
	if (JSON.stringify(before) !== JSON.stringify(after)) found.push(`${path || '(root)'}: ${show(before)} → ${show(after)}`);
	return found;
}

function checkSnapshot(name: string, actual: unknown): void {
	const file = join(SNAPSHOTS, `${name}.json`);
	const text = serialize(actual);
	if (updating()) {
		writeFileSync(file, text);
		return;
	}
	if (!existsSync(file)) {
		throw new Error(`No description snapshot ${file}. Create it with \`${UPDATE_COMMAND}\` and commit it.`);
	}
	const committed = readFileSync(file, 'utf8');
	if (committed === text) return;
	const changes = differences(JSON.parse(committed), JSON.parse(text));
	throw new Error(
		[
			`The ${name} description users see differs from the committed snapshot test/description/snapshots/${name}.json:`,
			...changes.map((change) => `  ${change}`),
			'',
			`If the change is intended, update the snapshot with \`${UPDATE_COMMAND}\` and commit the file with your change.`,
		].join('\n'),
	);
}

const source = loadPackageSource();

describe('description snapshots', () => {
	it('covers every node and credential the package lists', () => {
		expect(source.missing).toEqual([]);
		expect(source.nodes.map((node) => node.name).sort()).toEqual([
			'loanCrmContacts',
			'loanCrmContactsTrigger',
			'loanCrmDeals',
			'loanCrmDealsTrigger',
			'loanCrmLeadsAndTasks',
			'loanCrmOrganisationsAndAssets',
			'loanCrmTrigger',
		]);
		expect(source.credentials.map((credential) => credential.name)).toEqual(['loanCrmOAuth2Api']);
	});

	it.each(source.nodes.map((node) => [node.name, node] as const))('node %s', (name, node) => {
		const codexFile = node.sourcePath.replace(/\.ts$/, '.json');
		checkSnapshot(name, {
			description: node.type.description,
			methods: 'methods' in node.type && node.type.methods ? node.type.methods : undefined,
			codex: existsSync(codexFile) ? JSON.parse(readFileSync(codexFile, 'utf8')) : undefined,
		});
	});

	it.each(source.credentials.map((credential) => [credential.name, credential] as const))('credential %s', (name, credential) => {
		checkSnapshot(name, { ...credential.type, methods: methodNames(credential.type) });
	});

	it('reports a difference by its path and names the update command', () => {
		const changes = differences({ properties: [{ name: 'a', default: 'x' }] }, { properties: [{ name: 'a', default: '' }] });
		expect(changes).toEqual(['.properties[0 a].default: "x" → ""']);
	});
});
