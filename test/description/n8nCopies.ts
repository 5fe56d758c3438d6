/**
 * Every n8n-workflow copy at hand, for checks that run n8n's own display logic on the descriptions:
 * the devDependency (n8n 2.41), the e2e cache's n8n installs (2.30, 2.41, and 1.123 once installed
 * there), and any folder listed in N8N_WORKFLOW_COPIES (colon-separated), e.g. an unpacked
 * n8n-workflow 1.120 (n8n 1.123).
 */
import { existsSync, readFileSync, readdirSync } from 'fs';
import { homedir } from 'os';
import { join } from 'path';

import * as installedWorkflow from 'n8n-workflow';

export type NodeHelpersLike = Pick<typeof installedWorkflow.NodeHelpers, 'displayParameter' | 'getNodeParameters' | 'makeNodeName'>;

export function workflowCopies(): Array<{ label: string; helpers: NodeHelpersLike }> {
	const copies: Array<{ label: string; helpers: NodeHelpersLike }> = [
		{ label: `n8n-workflow ${String((require('n8n-workflow/package.json') as { version: string }).version)} (devDependency)`, helpers: installedWorkflow.NodeHelpers },
	];
	const cache = process.env.LOAN_CRM_E2E_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'n8n-nodes-loan-crm-e2e');
	const folders = existsSync(cache)
		? readdirSync(cache)
				.filter((name) => /^n8n-\d+\.\d+\.\d+$/.test(name))
				.map((name) => join(cache, name, 'node_modules', 'n8n-workflow'))
		: [];
	folders.push(...(process.env.N8N_WORKFLOW_COPIES ?? '').split(':').filter((folder) => folder !== ''));
	for (const folder of folders) {
		if (!existsSync(join(folder, 'package.json'))) continue;
		const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string };
		let module: typeof installedWorkflow;
		try {
			module = require(folder) as typeof installedWorkflow;
		} catch {
			// An install still under way in the shared cache; the devDependency is always checked.
			continue;
		}
		copies.push({ label: `n8n-workflow ${version} (${folder})`, helpers: module.NodeHelpers });
	}
	return copies;
}
