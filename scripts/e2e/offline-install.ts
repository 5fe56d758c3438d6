/**
 * The README's offline install, in the real n8n: a fresh home folder, the documented commands
 * (scripts/release/offline-install.ts: `npm install --offline --legacy-peer-deps <tarball>` in
 * `~/.n8n/nodes`) run by a shell with HOME pointing there and the npm registry set to an address
 * that answers nothing, then n8n with that folder as its user folder imports a credential and a
 * workflow and runs a Loan CRM node against the sandbox. The Dockerfile runs the same commands.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import type { Sandbox } from '../../sandbox';
import { offlineInstallScript } from '../release/offline-install';
import { nodeItems } from './check-helpers';
import type { N8nInstall } from './install';
import { N8nInstance } from './n8n';
import { run, tail } from './util';
import { E2E_CREDENTIAL, PACKAGE, WORKFLOW_IDS, tokenWorkflow } from './workflows';

/** Runs the scenario; returns the problems found (empty when it passed) and what n8n printed. */
export async function checkOfflineInstall(install: N8nInstall, tarball: string, sandbox: Sandbox): Promise<{ problems: string[]; context: string }> {
	const home = mkdtempSync(join(tmpdir(), 'loan-crm-offline-home-'));
	const problems: string[] = [];
	let context = '';
	try {
		const script = offlineInstallScript(tarball);
		const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
		const installed = await run('sh', ['-c', script], {
			cwd: tmpdir(),
			env: { ...npmEnv, HOME: home, npm_config_registry: 'http://127.0.0.1:9/', npm_config_cache: join(home, '.npm') },
			allowFailure: true,
			timeoutMs: 120_000,
		});
		context += `$ ${script}\n${tail(installed.stdout + installed.stderr, 15)}\n`;
		if (installed.code !== 0) return { problems: [`the documented install exited ${installed.code}`], context };

		const packageJson = join(home, '.n8n', 'nodes', 'node_modules', PACKAGE, 'package.json');
		if (!existsSync(packageJson)) return { problems: [`${packageJson} missing after the install`], context };
		const installedPackage = JSON.parse(readFileSync(packageJson, 'utf8')) as { n8n?: { nodes?: string[] } };
		for (const file of installedPackage.n8n?.nodes ?? []) {
			if (!existsSync(join(home, '.n8n', 'nodes', 'node_modules', PACKAGE, file))) problems.push(`installed package lacks ${file}`);
		}
		if (existsSync(join(home, '.n8n', 'nodes', 'node_modules', 'n8n-workflow'))) problems.push('n8n-workflow was installed next to the package (it must come from n8n)');

		const n8n = await new N8nInstance(install, home).init();
		await n8n.importSandboxCredentials(sandbox, E2E_CREDENTIAL);
		await n8n.importWorkflows([tokenWorkflow(sandbox.data.ids.lead, E2E_CREDENTIAL)]);
		sandbox.clearLog();
		const executed = await n8n.execute(WORKFLOW_IDS.token);
		context += tail(executed.stdout + executed.stderr, 20);
		if (!executed.ok) problems.push(`n8n execute exited ${executed.code}`);
		const items = nodeItems(executed.run, 'Get lead') ?? [];
		if (items[0]?.json.id !== sandbox.data.ids.lead) problems.push(`Get lead gave ${JSON.stringify(items.map((item) => item.json)).slice(0, 300)}, expected lead ${sandbox.data.ids.lead}`);
		const paths = sandbox.apiRequests().map((request) => `${request.method} ${request.path} ${request.status}`);
		if (JSON.stringify(paths) !== JSON.stringify([`GET /jsonapi/leads/${sandbox.data.ids.lead} 200`])) problems.push(`the sandbox received ${JSON.stringify(paths)}`);
		return { problems, context };
	} finally {
		rmSync(home, { recursive: true, force: true });
	}
}
