/**
 * The n8n-workflow copies whose display logic the description tests run (NodeHelpers), one per n8n
 * version the e2e suite proves (scripts/e2e/install.ts N8N_VERSIONS): a fixed set, installed by
 * `npm ci` from the lockfile as devDependencies, so every machine checks the same three.
 *
 *   n8n-workflow        2.41.0   (n8n 2.41.0; the copy n8n-core runs with)
 *   n8n-workflow-v2-30  2.30.0   (n8n 2.30.0)
 *   n8n-workflow-v1-120 1.120.31 (n8n 1.123.81)
 */
import * as installedWorkflow from 'n8n-workflow';

export type NodeHelpersLike = Pick<typeof installedWorkflow.NodeHelpers, 'displayParameter' | 'getNodeParameters' | 'makeNodeName'>;

/** Package name → the n8n version that ships it. The first is the one the engine runs with. */
export const WORKFLOW_COPIES = [
	{ packageName: 'n8n-workflow', n8n: '2.41.0', workflow: '2.41.0' },
	{ packageName: 'n8n-workflow-v2-30', n8n: '2.30.0', workflow: '2.30.0' },
	{ packageName: 'n8n-workflow-v1-120', n8n: '1.123.81', workflow: '1.120.31' },
] as const;

export function workflowCopies(): Array<{ label: string; helpers: NodeHelpersLike }> {
	return WORKFLOW_COPIES.map(({ packageName, n8n, workflow }) => {
		const { version } = require(`${packageName}/package.json`) as { version: string };
		if (version !== workflow) throw new Error(`${packageName} is ${version}, expected ${workflow} (run npm ci)`);
		const module = (packageName === 'n8n-workflow' ? installedWorkflow : require(packageName)) as typeof installedWorkflow;
		return { label: `n8n-workflow ${version} (n8n ${n8n})`, helpers: module.NodeHelpers };
	});
}
