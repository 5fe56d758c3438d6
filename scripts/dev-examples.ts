/**
 * The example workflows as `npm run dev` imports them: ready to publish against the sandbox.
 *
 * - Every Loan CRM node gets the sandbox credential (the files carry none: users pick their own).
 * - A node that needs a credential the dev set-up cannot have (e.g. Slack) is imported disabled, so
 *   the workflow can be published at once (n8n refuses to publish a workflow with a node missing
 *   its credential); the workflow's first sticky note says which and how to enable it. What a node
 *   needs is read from the installed n8n's own node types with n8n's display rules, so the Form
 *   Trigger (a credential only with Basic Auth) stays enabled.
 *
 * The files in examples/ stay as users import them.
 */
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';

import type { INode, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import type { ExampleWorkflow } from './e2e/examples';
import { LOAN_CRM_WEBHOOK_TRIGGER_TYPE, adaptExample, exampleFiles, isLoanCrmNode, readExample } from './e2e/examples';

/** The sandbox credential `npm run dev` imports, which the examples' Loan CRM nodes are given. */
export const DEV_CREDENTIAL = { id: 'loanCrmSandbox01', name: 'Loan CRM sandbox' } as const;

export interface PreparedExamples {
	workflows: ExampleWorkflow[];
	/** "<workflow>: <node>" for each node imported disabled. */
	disabled: string[];
}

/** Node types of the n8n packages installed with n8n (their dist/types/nodes.json). */
function installedNodeTypes(n8nDir: string): Map<string, INodeTypeDescription[]> {
	const types = new Map<string, INodeTypeDescription[]>();
	for (const [prefix, folder] of [
		['n8n-nodes-base', 'n8n-nodes-base'],
		['@n8n/n8n-nodes-langchain', '@n8n/n8n-nodes-langchain'],
	]) {
		const file = join(n8nDir, 'node_modules', folder, 'dist', 'types', 'nodes.json');
		if (!existsSync(file)) continue;
		for (const type of JSON.parse(readFileSync(file, 'utf8')) as INodeTypeDescription[]) {
			const name = `${prefix}.${type.name}`;
			types.set(name, [...(types.get(name) ?? []), type]);
		}
	}
	return types;
}

/** The credentials the node needs for its parameters (n8n's own display rules), none if its type is unknown. */
function requiredCredentials(node: INode, types: Map<string, INodeTypeDescription[]>): string[] {
	const type = types.get(node.type)?.find((candidate) => (Array.isArray(candidate.version) ? candidate.version : [candidate.version]).includes(node.typeVersion));
	if (type === undefined) return [];
	const parameters = NodeHelpers.getNodeParameters(type.properties, node.parameters, true, false, node, type) ?? {};
	return (type.credentials ?? []).filter((credential) => credential.required === true && NodeHelpers.displayParameter(parameters, credential, node, type)).map((credential) => credential.name);
}

export function prepareExamples(examplesDir: string, n8nDir: string, credential: { id: string; name: string }): PreparedExamples {
	const types = installedNodeTypes(n8nDir);
	const workflows: ExampleWorkflow[] = [];
	const disabled: string[] = [];
	for (const file of exampleFiles(examplesDir)) {
		const workflow = adaptExample(file, { dir: examplesDir, credential });
		const switchedOff: string[] = [];
		for (const node of workflow.nodes) {
			if (isLoanCrmNode(node)) continue;
			const missing = requiredCredentials(node, types).filter((name) => node.credentials?.[name] === undefined);
			if (missing.length > 0 && node.disabled !== true) {
				node.disabled = true;
				switchedOff.push(node.name);
			}
		}
		if (switchedOff.length > 0) {
			disabled.push(...switchedOff.map((name) => `${workflow.name}: ${name}`));
			const note = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.stickyNote');
			if (note !== undefined) {
				const names = switchedOff.map((name) => `*${name}*`).join(', ');
				// Room for the added paragraph, above the nodes.
				const extra = 120;
				note.position = [note.position[0], note.position[1] - extra];
				note.parameters = {
					...note.parameters,
					height: Number(note.parameters.height ?? 300) + extra,
					content: `${String(note.parameters.content ?? '')}\n\n**In \`npm run dev\`:** ${names} ${switchedOff.length === 1 ? 'is' : 'are'} imported disabled (no credential for it here), so you can publish right away and watch the executions. Enable it and pick a credential to use it for real.`,
				};
			}
		}
		workflows.push(workflow);
	}
	return { workflows, disabled };
}

/** An example's Loan CRM Webhook Trigger: where n8n serves it and the records it watches. */
export interface ExampleWebhook {
	workflow: string;
	/** Below n8n's /webhook/ (the example's webhook id; the examples use no shared secret). */
	path: string;
	resources: string[];
}

/** The examples' Loan CRM Webhook Triggers, for `npm run dev` to point the sandbox's webhooks at. */
export function exampleWebhooks(examplesDir: string): ExampleWebhook[] {
	return exampleFiles(examplesDir).flatMap((file) => {
		const example = readExample(file, examplesDir);
		return example.nodes
			.filter((node) => node.type === LOAN_CRM_WEBHOOK_TRIGGER_TYPE && node.webhookId !== undefined)
			.map((node) => ({ workflow: example.name, path: `${node.webhookId as string}/notify`, resources: (node.parameters.resources as string[] | undefined) ?? ['deals'] }));
	});
}
