/**
 * The example workflows (examples/*.json) use each node's newest version, as a node added in the
 * editor has it, and only parameters that version shows: an example a user imports reads like a
 * workflow they would build today (Settings says "Latest version"), and shows what the newest
 * version gives (the Deals Trigger's one-row summary, a lead's one shape).
 *
 * - A Loan CRM node: the version the editor gives a new node (its `defaultVersion`).
 * - One of n8n's own nodes: its newest version in n8n-nodes-base (the devDependency, n8n 2.41), or
 *   the version `OLDER_ON_PURPOSE` states with the reason. A test fails when an example's node is
 *   older than that (or newer: it would not import on every n8n the README lists).
 * - Every parameter and collection entry an example sets is one the node shows at that version
 *   (n8n's own display rules), so nothing is left over from an older version (a contact's Email under
 *   Additional Fields, which version 1.2 shows on top).
 */
import { readFileSync, readdirSync } from 'fs';
import { join, resolve } from 'path';

import type { INode, INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { loadPackageSource, n8nNodesBaseDir } from '../../harness';

const EXAMPLES = resolve(__dirname, '..', '..', 'examples');
const source = loadPackageSource();

/**
 * n8n's nodes the examples keep below their newest version, and why. The examples import on every
 * n8n of the README's Compatibility table (the e2e imports each on 1.123.81, 2.30.0 and 2.41.0), so
 * a node is at most the newest version n8n 1.123.81 has, the oldest n8n the package supports.
 */
const OLDER_ON_PURPOSE: Record<string, { version: number; why: string }> = {
	'n8n-nodes-base.formTrigger': { version: 2.3, why: 'the newest Form Trigger of n8n 1.123.81 (2.4 and later are n8n 2.x only)' },
	'n8n-nodes-base.slack': { version: 2.4, why: 'the newest Slack node of n8n 1.123.81 (2.5 and later are n8n 2.x only)' },
	'n8n-nodes-base.set': { version: 3.4, why: 'the newest Edit Fields (Set) node of n8n 1.123.81 (3.5 is n8n 2.x only)' },
};

interface Example {
	file: string;
	nodes: INode[];
}

function examples(): Example[] {
	return readdirSync(EXAMPLES)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((file) => ({ file, nodes: (JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as { nodes: INode[] }).nodes }));
}

/** Every description of n8n's own nodes (n8n-nodes-base's dist/types/nodes.json), by type. */
function baseNodeTypes(): Map<string, INodeTypeDescription[]> {
	const types = new Map<string, INodeTypeDescription[]>();
	for (const type of JSON.parse(readFileSync(join(n8nNodesBaseDir(), 'node_modules', 'n8n-nodes-base', 'dist', 'types', 'nodes.json'), 'utf8')) as INodeTypeDescription[]) {
		const name = `n8n-nodes-base.${type.name}`;
		types.set(name, [...(types.get(name) ?? []), type]);
	}
	return types;
}

const versionsOf = (description: INodeTypeDescription): number[] => ([] as number[]).concat(description.version);

/** The package's node descriptions, by type: the version the editor gives a new node, and the description. */
function packageNodeTypes(): Map<string, INodeTypeDescription> {
	return new Map(source.nodes.map((node) => [`n8n-nodes-loan-crm.${node.name}`, node.type.description as INodeTypeDescription]));
}

describe('the examples use each node at its newest version', () => {
	const base = baseNodeTypes();
	const ours = packageNodeTypes();
	const all = examples();

	it('there are examples, each with Loan CRM nodes', () => {
		expect(all.map((example) => example.file)).toEqual(
			expect.arrayContaining(['deal-settled-instant.json', 'deal-settled-to-slack.json', 'fact-find-to-crm.json', 'lead-routing.json', 'web-form-to-contact.json', 'web-form-to-lead.json']),
		);
		for (const example of all) expect([example.file, example.nodes.some((node) => ours.has(node.type))]).toEqual([example.file, true]);
	});

	it.each(examples().map((example) => [example.file, example] as const))('%s: every node at the newest version (or the one OLDER_ON_PURPOSE states, and why)', (_file, example) => {
		for (const node of example.nodes) {
			const own = ours.get(node.type);
			if (own !== undefined) {
				const newest = own.defaultVersion ?? Math.max(...versionsOf(own));
				expect({ node: node.name, typeVersion: node.typeVersion }).toEqual({ node: node.name, typeVersion: newest });
				continue;
			}
			const descriptions = base.get(node.type);
			expect({ node: node.name, known: descriptions !== undefined }).toEqual({ node: node.name, known: true });
			const newest = Math.max(...(descriptions ?? []).flatMap(versionsOf));
			const onPurpose = OLDER_ON_PURPOSE[node.type];
			const expected = onPurpose !== undefined && onPurpose.version < newest ? onPurpose.version : newest;
			expect({ node: node.name, typeVersion: node.typeVersion, why: onPurpose?.why }).toEqual({ node: node.name, typeVersion: expected, why: onPurpose?.why });
		}
	});

	/**
	 * The Webhook Trigger is the exception: it has one version (1), so its newest is the only one; it
	 * came with the polling triggers' version 1.2 and gives their newest items (nodes/shared/trigger/webhookTrigger.ts).
	 */
	const ONE_VERSION = ['n8n-nodes-loan-crm.loanCrmWebhookTrigger'];

	it('the Loan CRM nodes the examples use come in several versions, so the check above can tell (but the one-version Webhook Trigger)', () => {
		const used = new Set(all.flatMap((example) => example.nodes.map((node) => node.type)).filter((type) => ours.has(type)));
		expect([...used].sort()).toEqual([
			'n8n-nodes-loan-crm.loanCrmContacts',
			'n8n-nodes-loan-crm.loanCrmDeals',
			'n8n-nodes-loan-crm.loanCrmDealsTrigger',
			'n8n-nodes-loan-crm.loanCrmLeadsAndTasks',
			'n8n-nodes-loan-crm.loanCrmWebhookTrigger',
		]);
		for (const type of used) expect({ type, several: versionsOf(ours.get(type) as INodeTypeDescription).length > 2 }).toEqual({ type, several: !ONE_VERSION.includes(type) });
	});

	it.each(examples().map((example) => [example.file, example] as const))('%s: every parameter a Loan CRM node sets is one its version shows', (_file, example) => {
		for (const node of example.nodes) {
			const description = ours.get(node.type);
			if (description === undefined) continue;
			const shown = NodeHelpers.getNodeParameters(description.properties, node.parameters, true, false, node, description) ?? {};
			for (const [name, value] of Object.entries(node.parameters)) {
				expect({ node: node.name, name, shown: name in shown }).toEqual({ node: node.name, name, shown: true });
				const collection = shown[name];
				if (value !== null && typeof value === 'object' && !Array.isArray(value) && !('__rl' in value) && collection !== null && typeof collection === 'object') {
					for (const entry of Object.keys(value)) {
						expect({ node: node.name, entry: `${name}.${entry}`, shown: entry in (collection as INodeParameters) }).toEqual({ node: node.name, entry: `${name}.${entry}`, shown: true });
					}
				}
			}
		}
	});
});
