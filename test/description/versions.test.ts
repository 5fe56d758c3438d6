/**
 * Node versions as the editor resolves them, with n8n's own display logic from every n8n-workflow
 * copy at hand (n8nCopies.ts): the parameters a node of each version shows and the values it starts
 * with, plain and as an AI agent's tool (the `…Tool` copy n8n makes).
 *
 * Every version's resolved parameters are pinned, one line per variant and operation, in the node's
 * snapshot snapshots/<node>.txt (description.test.ts): version 1 (what workflows saved before 1.1
 * run; its lines taken before version 1.1 existed), 1.1 (taken before 1.2 existed), then 1.2. A
 * change to what a saved workflow sees shows up as a changed `@v1` or `@v1.1` line of that file. From
 * version 1.1 a tool's arguments come filled by the model; the newest version is what the editor
 * gives a new node, and new nodes are named as n8n names them.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { toolArguments } from '../../nodes/shared/description/toolArguments';
import { operationAt } from '../../nodes/shared/operation/operation';
import { NEWEST_VERSION, NODE_VERSIONS, hasOperation } from '../../nodes/shared/service/versions';
import { workflowCopies } from './n8nCopies';
import { CATALOGUES, allResolved, resolvedLines, resolvedParameters, source, variants } from './resolved';

const copies = workflowCopies();

describe('version 1: what saved workflows see', () => {
	it.each(Object.keys(CATALOGUES))('%s resolves to the parameters and values pinned in its snapshot, plain and as a tool', (name) => {
		const pinned = new Set(readFileSync(join(__dirname, 'snapshots', `${name}.txt`), 'utf8').split('\n'));
		const lines = resolvedLines(copies[0].helpers, name, 1);
		// Operations added after version 1 (`since`) are not version 1's.
		expect(lines.length).toBe(2 * CATALOGUES[name].filter((spec) => hasOperation({ typeVersion: 1 }, spec)).length);
		expect(lines.filter((line) => !pinned.has(line))).toEqual([]);
	});

	it.each(copies.slice(1).map((copy) => [copy.label, copy.helpers] as const))('resolves the same with %s', (_label, helpers) => {
		expect(allResolved(helpers, 1)).toEqual(allResolved(copies[0].helpers, 1));
	});
});

/** The versions whose tools come with their arguments wired: 1.1 and every later one. */
const TOOL_VERSIONS = NODE_VERSIONS.filter((version) => version >= 1.1);

describe('version 1.1 and later', () => {
	it('the newest version is what the editor gives a new node: defaultVersion states it, so n8n adds no Custom API Call entry', () => {
		// n8n 1.123 to 2.41 (load-nodes-and-credentials.js injectCustomApiCallOptions) add the entry
		// only when `defaultVersion` is unset or equals `version`, which an array never does; the editor
		// gives a new node `defaultVersion` (resolveNodeVersion), else the last version.
		for (const name of ['loanCrmDeals', 'loanCrmContacts', 'loanCrmLeadsAndTasks', 'loanCrmOrganisationsAndAssets']) {
			const description = source.nodes.find((node) => node.name === name)?.type.description as INodeTypeDescription;
			expect({ name, defaultVersion: description.defaultVersion, version: description.version }).toEqual({ name, defaultVersion: NEWEST_VERSION, version: [...NODE_VERSIONS] });
			expect(NEWEST_VERSION).toBe(Math.max(...NODE_VERSIONS));
		}
	});

	/** Every `$fromAI` key in a resolved value, with where it is. */
	function fromAIKeys(value: unknown, path: string[] = []): Array<{ path: string; key: string }> {
		if (typeof value === 'string') {
			const key = /\$fromAI\('([^']+)'/.exec(value)?.[1];
			return key === undefined ? [] : [{ path: path.join('.'), key }];
		}
		if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([name, member]) => fromAIKeys(member, name === 'value' && '__rl' in value ? path : [...path, name]));
		return [];
	}

	it.each(copies.flatMap((copy) => TOOL_VERSIONS.map((version) => [version, copy.label, copy.helpers] as const)))(
		'version %s: a tool starts with every argument its description names filled by the model, a plain node with none (%s)',
		(version, _label, helpers) => {
			let wired = 0;
			for (const [name, operations] of Object.entries(CATALOGUES)) {
				const { plain, tool } = variants(name);
				const resolvedTool = resolvedParameters(helpers, tool, operations, version);
				const resolvedPlain = resolvedParameters(helpers, plain, operations, version);
				// A node of this version has only the operations it lists (a row's `since`: Fact Find → Create from 1.2).
				for (const spec of operations.filter((candidate) => hasOperation({ typeVersion: version }, candidate))) {
					const op = `${spec.resource}.${spec.operation}`;
					// The arguments of the operation as this version has it (Contact → Create's E-mail on top from 1.2).
					const expected = toolArguments(operationAt(spec, version)).map((entry) => ({ path: entry.path.join('.'), key: entry.key }));
					expect({ name, op, wired: fromAIKeys(resolvedTool[op].parameters).sort((a, b) => a.path.localeCompare(b.path)) }).toEqual({
						name,
						op,
						wired: expected.sort((a, b) => a.path.localeCompare(b.path)),
					});
					expect({ name, op, wired: fromAIKeys(resolvedPlain[op].parameters) }).toEqual({ name, op, wired: [] });
					wired += expected.length;
				}
			}
			// 92 + If_Already_Exists on the three creates of 1.1 that can match an existing record + Lead →
			// Create's 10 agentFields and Allocate_To + Deal Note → Create's 3 = 109; from 1.2 also Fact Find →
			// Create's Fact_Find_JSON, Note_Title, Note_Details, Allocate_To and If_Already_Exists.
			expect({ version, wired }).toEqual({ version, wired: version >= 1.2 ? 114 : 109 });
		},
	);

	it.each(copies.flatMap((copy) => TOOL_VERSIONS.map((version) => [version, copy.label, copy.helpers] as const)))('version %s resolves the same with %s', (version, _label, helpers) => {
		expect(allResolved(helpers, version)).toEqual(allResolved(copies[0].helpers, version));
	});

	it('shows Simplify only where it changes the output (records with a summary; from 1.2 a lead created or found), and the Output option on no tool', () => {
		const shown = (resolved: ReturnType<typeof allResolved>, variant: 'plain' | 'tool', name: string) =>
			Object.entries(resolved[name][variant]).map(([op, entry]) => [op, entry.shown.map((property) => property.name as string)] as const);
		const withSimplify = (version: number) => {
			const resolved = allResolved(copies[0].helpers, version);
			return Object.keys(CATALOGUES).flatMap((name) => shown(resolved, 'plain', name).filter(([, names]) => names.includes('simplify')).map(([op]) => `${name} ${op}`));
		};
		expect(withSimplify(1.1)).toEqual(['loanCrmDeals deal.getMany', 'loanCrmDeals deal.get', 'loanCrmDeals dealStructure.getDeal']);
		// From 1.2 a create found through another type (a lead, a fact find: the deal) has one shape either way.
		expect(withSimplify(NEWEST_VERSION)).toEqual(['loanCrmDeals deal.getMany', 'loanCrmDeals deal.get', 'loanCrmDeals dealStructure.getDeal', 'loanCrmLeadsAndTasks lead.create', 'loanCrmLeadsAndTasks structuredLead.create']);
		for (const version of TOOL_VERSIONS) {
			const resolved = allResolved(copies[0].helpers, version);
			const toolOptions = Object.keys(CATALOGUES).flatMap((name) => shown(resolved, 'tool', name).flatMap(([, names]) => names.filter((entry) => entry === 'agentOutput')));
			expect(toolOptions).toEqual([]);
		}
	});
});

describe('names a new node gets', () => {
	it.each(copies.filter((copy) => copy.helpers.makeNodeName !== undefined).map((copy) => [copy.label, copy.helpers] as const))(
		'a tool "<action> in Loan CRM" (at most 64 characters as a tool name), a plain node its action (%s)',
		(_label, helpers) => {
			let checked = 0;
			for (const [name, operations] of Object.entries(CATALOGUES)) {
				const { plain, tool } = variants(name);
				const resolvedTool = resolvedParameters(helpers, tool, operations, NEWEST_VERSION);
				const resolvedPlain = resolvedParameters(helpers, plain, operations, NEWEST_VERSION);
				for (const spec of operations) {
					const op = `${spec.resource}.${spec.operation}`;
					const toolName = helpers.makeNodeName(resolvedTool[op].parameters, tool);
					expect(toolName).toBe(`${spec.action} in Loan CRM`);
					expect(toolName.replace(/[^a-zA-Z0-9_-]+/g, '_').length).toBeLessThanOrEqual(64);
					expect(helpers.makeNodeName(resolvedPlain[op].parameters, plain)).toBe(spec.action);
					checked += 1;
				}
			}
			expect(checked).toBe(28);
		},
	);
});
