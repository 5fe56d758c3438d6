/**
 * Pinned UI: each node's description (as n8n's loader gives it to the editor, with its codex) and
 * the credential's are compared with the snapshots committed in test/description/snapshots/, one
 * line per parameter (compact.ts), so every change a user would see — a parameter, a label, a
 * default, an option's order — shows up in review as a changed line of those files
 * (pins.test.ts shows that a changed name, default, option value or display condition does).
 *
 * After an intended change: `npx jest test/description -u`, then commit the updated files.
 */
import { existsSync, readFileSync } from 'fs';

import { NodeHelpers } from 'n8n-workflow';

import { loadPackageSource } from '../../harness';
import { NODE_VERSIONS } from '../../nodes/shared/service/versions';
import { descriptionLines } from './compact';
import { CATALOGUES, resolvedLines } from './resolved';
import { checkTextSnapshot, lineDifferences, methodNames } from './snapshot';

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
			'loanCrmWebhookTrigger',
		]);
		expect(source.credentials.map((credential) => credential.name)).toEqual(['loanCrmOAuth2Api']);
	});

	it.each(source.nodes.map((node) => [node.name, node] as const))('node %s', (name, node) => {
		const codexFile = node.sourcePath.replace(/\.ts$/, '.json');
		// An action node's parameters, then what each version resolves to per operation (versions.test.ts).
		const resolved = name in CATALOGUES ? NODE_VERSIONS.flatMap((version) => resolvedLines(NodeHelpers, name, version)) : [];
		checkTextSnapshot(name, [
			...descriptionLines(node.type.description, {
				methods: 'methods' in node.type && node.type.methods ? node.type.methods : undefined,
				codex: existsSync(codexFile) ? JSON.parse(readFileSync(codexFile, 'utf8')) : undefined,
			}),
			...resolved,
		]);
	});

	it.each(source.credentials.map((credential) => [credential.name, credential] as const))('credential %s', (name, credential) => {
		checkTextSnapshot(name, descriptionLines(credential.type, { methods: methodNames(credential.type) }));
	});

	it('reports a difference as the lines that changed', () => {
		const changes = lineDifferences('a | "A" | string | default="x"\nb | "B" | boolean | default=false', 'a | "A" | string | default=""\nb | "B" | boolean | default=false');
		expect(changes).toEqual(['- a | "A" | string | default="x"', '+ a | "A" | string | default=""']);
	});
});
