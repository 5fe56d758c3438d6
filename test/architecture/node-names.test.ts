/**
 * Every node type name is written out in its own node file (nodes/<Node>/<Node>.node.ts), so a
 * search for a name a workflow, an error ("Unrecognized node type: n8n-nodes-loan-crm.…") or the
 * nodes panel shows finds the file that defines it. A name built from parts (`loanCrm${watches}Trigger`)
 * is found by no search. An action node's AI-agent tool copy, which n8n makes and names
 * `<name>Tool`, is named in its file too.
 */
import { readFileSync } from 'fs';
import { relative } from 'path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { REPO_ROOT, loadPackageSource, readPackageJson } from '../../harness';

/** Whether `text` holds `name` as a whole string literal: 'name', "name" or `name` (no parts). */
export function spellsOut(text: string, name: string): boolean {
	return [`'${name}'`, `"${name}"`, `\`${name}\``].some((literal) => text.includes(literal));
}

const source = loadPackageSource();
const nodes = source.nodes.map((node) => ({
	name: node.name,
	file: relative(REPO_ROOT, node.sourcePath),
	usableAsTool: (node.type.description as INodeTypeDescription).usableAsTool !== undefined,
	text: readFileSync(node.sourcePath, 'utf8'),
}));

describe('node type names, written out where they are defined', () => {
	it('finds every node package.json lists', () => {
		expect(source.missing).toEqual([]);
		expect(nodes.map((node) => node.name).sort()).toEqual(
			['loanCrmContacts', 'loanCrmContactsTrigger', 'loanCrmDeals', 'loanCrmDealsTrigger', 'loanCrmLeadsAndTasks', 'loanCrmOrganisationsAndAssets', 'loanCrmTrigger', 'loanCrmWebhookTrigger'].sort(),
		);
		expect(nodes).toHaveLength(readPackageJson().n8n?.nodes?.length ?? 0);
	});

	it.each(nodes.map((node) => [node.name, node] as const))('%s is a string literal in its node file', (name, node) => {
		expect(node.file).toMatch(/^nodes\/([^/]+)\/\1\.node\.ts$/);
		expect({ file: node.file, spellsOut: spellsOut(node.text, name) }).toEqual({ file: node.file, spellsOut: true });
		if (node.usableAsTool) expect({ file: node.file, namesToolCopy: node.text.includes(`${name}Tool`) }).toEqual({ file: node.file, namesToolCopy: true });
	});

	it('would catch a name built from parts', () => {
		expect(spellsOut("name: 'loanCrmDealsTrigger',", 'loanCrmDealsTrigger')).toBe(true);
		expect(spellsOut('name: `loanCrm${spec.watches}Trigger`,', 'loanCrmDealsTrigger')).toBe(false);
		expect(spellsOut("name: 'loanCrm' + 'Deals',", 'loanCrmDeals')).toBe(false);
		// A longer name holding it is not it.
		expect(spellsOut("name: 'loanCrmDealsTrigger',", 'loanCrmDeals')).toBe(false);
	});
});
