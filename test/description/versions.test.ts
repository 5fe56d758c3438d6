/**
 * Node versions as the editor resolves them, with n8n's own display logic from every n8n-workflow
 * copy at hand (n8nCopies.ts): the parameters a node of each version shows and the values it starts
 * with, plain and as an AI agent's tool (the `…Tool` copy n8n makes).
 *
 * Version 1 is what saved workflows run: its resolved parameters are pinned in
 * snapshots/resolved-parameters.txt (one line per node, variant and operation; version 1 taken
 * before version 1.1 existed, version 1.1 below it), so a change to what a saved workflow sees
 * shows up as a changed line of that file. Version 1.1 is what new nodes get: a tool's
 * arguments come filled by the model, and new nodes are named as n8n names them.
 */
import type { INode, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { loadPackageSource } from '../../harness';
import { toolDescriptionFor } from '../../harness/tools';
import { OPERATIONS as CONTACT_SPECS } from '../../nodes/LoanCrmContacts/operations';
import { OPERATIONS as DEAL_SPECS } from '../../nodes/LoanCrmDeals/operations';
import { OPERATIONS as TASK_SPECS } from '../../nodes/LoanCrmLeadsAndTasks/operations';
import { OPERATIONS as ASSET_SPECS } from '../../nodes/LoanCrmOrganisationsAndAssets/operations';
import { toolArguments } from '../../nodes/shared/description/toolArguments';
import type { Operation } from '../../nodes/shared/operation/operation';
import { resolveOperations } from '../../nodes/shared/operation/operation';
import type { NodeHelpersLike } from './n8nCopies';
import { workflowCopies } from './n8nCopies';
import { resolvedLine } from './compact';
import type { ShownProperty } from './compact';
import { checkTextSnapshot } from './snapshot';

const CONTACT_OPERATIONS = resolveOperations(CONTACT_SPECS);
const DEAL_OPERATIONS = resolveOperations(DEAL_SPECS);
const TASK_OPERATIONS = resolveOperations(TASK_SPECS);
const ASSET_OPERATIONS = resolveOperations(ASSET_SPECS);

const source = loadPackageSource();
const CATALOGUES: Record<string, readonly Operation[]> = {
	loanCrmDeals: DEAL_OPERATIONS,
	loanCrmContacts: CONTACT_OPERATIONS,
	loanCrmLeadsAndTasks: TASK_OPERATIONS,
	loanCrmOrganisationsAndAssets: ASSET_OPERATIONS,
};

/** The plain node's description and its tool copy's, as the editor receives them. */
function variants(name: string): Record<'plain' | 'tool', INodeTypeDescription> {
	const description = source.nodes.find((node) => node.name === name)?.type.description as INodeTypeDescription;
	return { plain: description, tool: toolDescriptionFor(description) };
}

/** What a parameter the editor shows looks like, without its nested definitions. */
function shownProperty(property: INodeProperties): Record<string, unknown> {
	const options = property.options?.map((option) => ('value' in option ? option.value : option.name));
	return {
		name: property.name,
		displayName: property.displayName,
		type: property.type,
		...(property.description === undefined ? {} : { description: property.description }),
		...(options === undefined ? {} : { options }),
	};
}

/**
 * For each operation: the parameters a new node of `typeVersion` starts with (the editor's
 * getNodeParameters with defaults) and the parameters it shows.
 */
function resolvedParameters(helpers: NodeHelpersLike, description: INodeTypeDescription, operations: readonly Operation[], typeVersion: number) {
	const node = { typeVersion, parameters: {} } as unknown as INode;
	return Object.fromEntries(
		operations.map((spec) => {
			const parameters = helpers.getNodeParameters(description.properties, { resource: spec.resource, operation: spec.operation }, true, false, node, description) ?? {};
			const shown = description.properties.filter((property) => helpers.displayParameter(parameters, property, node, description)).map(shownProperty);
			return [`${spec.resource}.${spec.operation}`, { parameters, shown }];
		}),
	);
}

function allResolved(helpers: NodeHelpersLike, typeVersion: number) {
	return Object.fromEntries(
		Object.entries(CATALOGUES).map(([name, operations]) => {
			const { plain, tool } = variants(name);
			return [name, { plain: resolvedParameters(helpers, plain, operations, typeVersion), tool: resolvedParameters(helpers, tool, operations, typeVersion) }];
		}),
	);
}

const copies = workflowCopies();

/** Every node, variant and operation resolved at `typeVersion`, a line each (compact.ts). */
function resolvedLines(typeVersion: number): string[] {
	const resolved = allResolved(copies[0].helpers, typeVersion);
	return Object.entries(resolved).flatMap(([name, byVariant]) =>
		(['plain', 'tool'] as const).flatMap((variant) =>
			Object.entries(byVariant[variant]).map(([op, { parameters, shown }]) => resolvedLine(`${name} ${variant} v${typeVersion} ${op}`, parameters, shown as unknown as ShownProperty[])),
		),
	);
}

describe('version 1: what saved workflows see', () => {
	it('resolves to the pinned parameters and values, plain and as a tool', () => {
		checkTextSnapshot('resolved-parameters', [...resolvedLines(1), ...resolvedLines(1.1)]);
	});

	it.each(copies.slice(1).map((copy) => [copy.label, copy.helpers] as const))('resolves the same with %s', (_label, helpers) => {
		expect(allResolved(helpers, 1)).toEqual(allResolved(copies[0].helpers, 1));
	});
});

describe('version 1.1: new nodes', () => {
	it("is what the editor gives a new node, with no defaultVersion, so n8n adds its Custom API Call entry", () => {
		// n8n 1.123 to 2.41 (load-nodes-and-credentials.js injectCustomApiCallOptions) add the entry
		// only when `defaultVersion` is unset or equals `version`; the editor then takes the last version.
		for (const name of ['loanCrmDeals', 'loanCrmContacts', 'loanCrmLeadsAndTasks', 'loanCrmOrganisationsAndAssets']) {
			const description = source.nodes.find((node) => node.name === name)?.type.description as INodeTypeDescription;
			expect({ name, defaultVersion: description.defaultVersion, version: description.version }).toEqual({ name, defaultVersion: undefined, version: [1, 1.1] });
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

	it.each(copies.map((copy) => [copy.label, copy.helpers] as const))(
		'a tool starts with every argument its description names filled by the model, a plain node with none (%s)',
		(_label, helpers) => {
			let wired = 0;
			for (const [name, operations] of Object.entries(CATALOGUES)) {
				const { plain, tool } = variants(name);
				const resolvedTool = resolvedParameters(helpers, tool, operations, 1.1);
				const resolvedPlain = resolvedParameters(helpers, plain, operations, 1.1);
				for (const spec of operations) {
					const op = `${spec.resource}.${spec.operation}`;
					const expected = toolArguments(spec).map((entry) => ({ path: entry.path.join('.'), key: entry.key }));
					expect({ name, op, wired: fromAIKeys(resolvedTool[op].parameters).sort((a, b) => a.path.localeCompare(b.path)) }).toEqual({
						name,
						op,
						wired: expected.sort((a, b) => a.path.localeCompare(b.path)),
					});
					expect({ name, op, wired: fromAIKeys(resolvedPlain[op].parameters) }).toEqual({ name, op, wired: [] });
					wired += expected.length;
				}
			}
			expect(wired).toBe(94); // 92 + If_Already_Exists on the two creates that can match an existing record
		},
	);

	it.each(copies.map((copy) => [copy.label, copy.helpers] as const))('resolves the same with %s', (_label, helpers) => {
		expect(allResolved(helpers, 1.1)).toEqual(allResolved(copies[0].helpers, 1.1));
	});

	it('shows Simplify only where it changes the output (records with a summary), and the Output option on no tool', () => {
		const shown = (resolved: ReturnType<typeof allResolved>, variant: 'plain' | 'tool', name: string) =>
			Object.entries(resolved[name][variant]).map(([op, entry]) => [op, entry.shown.map((property) => property.name as string)] as const);
		const v1_1 = allResolved(copies[0].helpers, 1.1);
		const withSimplify = Object.keys(CATALOGUES).flatMap((name) => shown(v1_1, 'plain', name).filter(([, names]) => names.includes('simplify')).map(([op]) => `${name} ${op}`));
		expect(withSimplify).toEqual(['loanCrmDeals deal.getMany', 'loanCrmDeals deal.get', 'loanCrmDeals dealStructure.getDeal']);
		const toolOptions = Object.keys(CATALOGUES).flatMap((name) => shown(v1_1, 'tool', name).flatMap(([, names]) => names.filter((entry) => entry === 'agentOutput')));
		expect(toolOptions).toEqual([]);
	});
});

describe('names a new node gets', () => {
	it.each(copies.filter((copy) => copy.helpers.makeNodeName !== undefined).map((copy) => [copy.label, copy.helpers] as const))(
		'a tool "<action> in Loan CRM" (at most 64 characters as a tool name), a plain node its action (%s)',
		(_label, helpers) => {
			let checked = 0;
			for (const [name, operations] of Object.entries(CATALOGUES)) {
				const { plain, tool } = variants(name);
				const resolvedTool = resolvedParameters(helpers, tool, operations, 1.1);
				const resolvedPlain = resolvedParameters(helpers, plain, operations, 1.1);
				for (const spec of operations) {
					const op = `${spec.resource}.${spec.operation}`;
					const toolName = helpers.makeNodeName(resolvedTool[op].parameters, tool);
					expect(toolName).toBe(`${spec.action} in Loan CRM`);
					expect(toolName.replace(/[^a-zA-Z0-9_-]+/g, '_').length).toBeLessThanOrEqual(64);
					expect(helpers.makeNodeName(resolvedPlain[op].parameters, plain)).toBe(spec.action);
					checked += 1;
				}
			}
			expect(checked).toBe(25);
		},
	);
});
