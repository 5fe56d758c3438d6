/**
 * examples/*.json as the scripts read them: the e2e imports them and runs the web forms, the demo
 * runs their Loan CRM nodes, `npm run dev` imports them (scripts/dev-examples.ts). Then the e2e's
 * checks on them beyond "n8n import:workflow accepted it": after the import, each example is in the
 * database with all its nodes and connections, every node type and typeVersion exists in the
 * installed n8n (n8n-nodes-base's published node descriptions) or in the packed package, and every
 * top-level parameter is one the node declares (a typo would otherwise import silently and be
 * dropped by the editor).
 */
import { existsSync, readFileSync, readdirSync } from 'fs';
import { join } from 'path';

import type { IConnections, INode, INodeParameters, INodeTypeDescription } from 'n8n-workflow';

import type { N8nInstall } from './install';
import { REPO_ROOT } from './n8n';
import type { CredentialRef } from './workflows';
import { CREDENTIAL_TYPE, PACKAGE } from './workflows';

export const EXAMPLES_DIR = join(REPO_ROOT, 'examples');

export interface ExampleWorkflow {
	id?: string;
	name: string;
	nodes: INode[];
	connections: IConnections;
	[key: string]: unknown;
}

/** The example files (`*.json`), sorted. */
export function exampleFiles(dir = EXAMPLES_DIR): string[] {
	return readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
}

export function readExample(file: string, dir = EXAMPLES_DIR): ExampleWorkflow {
	return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ExampleWorkflow;
}

export function isLoanCrmNode(node: { type: string }): boolean {
	return node.type.startsWith(`${PACKAGE}.`);
}

export const FORM_TRIGGER_TYPE = 'n8n-nodes-base.formTrigger';

/** The Loan CRM Webhook Trigger's type (examples/deal-settled-instant.json). */
export const LOAN_CRM_WEBHOOK_TRIGGER_TYPE = `${PACKAGE}.loanCrmWebhookTrigger`;

/** The examples' triggers served at a webhook id of their own (adaptExample's `webhookId`). */
const WEBHOOK_TRIGGER_TYPES: readonly string[] = [FORM_TRIGGER_TYPE, LOAN_CRM_WEBHOOK_TRIGGER_TYPE];

/**
 * An example made ready to run here: only the nodes `keep` accepts and the connections among them,
 * `set` merged into the parameters of the nodes it names, `credential` on every Loan CRM node (the
 * files carry none: users pick their own) and `webhookId` on its webhook trigger (the Form Trigger,
 * the Loan CRM Webhook Trigger).
 */
export function adaptExample(
	file: string,
	options: { keep?: (node: INode) => boolean; set?: Record<string, INodeParameters>; credential?: CredentialRef; webhookId?: string; dir?: string } = {},
): ExampleWorkflow {
	const example = readExample(file, options.dir);
	const keep = options.keep;
	const nodes = keep === undefined ? example.nodes : example.nodes.filter(keep);
	const kept = new Set(nodes.map((node) => node.name));
	let connections = example.connections;
	if (keep !== undefined) {
		connections = {};
		for (const [from, outputs] of Object.entries(example.connections)) {
			const byType = Object.entries(outputs)
				.map(([type, lists]) => [type, lists.map((targets) => (targets ?? []).filter((target) => kept.has(target.node)))] as const)
				.filter(([, lists]) => lists.some((targets) => targets.length > 0));
			if (kept.has(from) && byType.length > 0) connections[from] = Object.fromEntries(byType);
		}
	}
	return {
		...example,
		nodes: nodes.map((node): INode => {
			const set = options.set?.[node.name];
			const adapted: INode = set === undefined ? node : { ...node, parameters: { ...node.parameters, ...set } };
			const served = options.webhookId !== undefined && WEBHOOK_TRIGGER_TYPES.includes(node.type) ? { ...adapted, webhookId: options.webhookId } : adapted;
			if (options.credential !== undefined && isLoanCrmNode(node)) return { ...served, credentials: { [CREDENTIAL_TYPE]: { id: options.credential.id, name: options.credential.name } } };
			return served;
		}),
		connections,
	};
}

interface KnownType {
	versions: number[];
	parameters: Set<string>;
	polling: boolean;
}

/** Parameters n8n adds to every node of a kind, which node descriptions do not list. */
const IMPLICIT_PARAMETERS = { polling: ['pollTimes'] };

function baseNodeTypes(install: N8nInstall): Map<string, KnownType> {
	const file = join(install.n8nDir, 'node_modules', 'n8n-nodes-base', 'dist', 'types', 'nodes.json');
	const known = new Map<string, KnownType>();
	if (!existsSync(file)) return known;
	for (const description of JSON.parse(readFileSync(file, 'utf8')) as INodeTypeDescription[]) {
		const type = `n8n-nodes-base.${description.name}`;
		const entry = known.get(type) ?? { versions: [], parameters: new Set<string>(), polling: false };
		entry.versions.push(...(Array.isArray(description.version) ? description.version : [description.version]));
		for (const property of description.properties) entry.parameters.add(property.name);
		entry.polling ||= description.polling === true;
		known.set(type, entry);
	}
	return known;
}

/** The packed package's node descriptions, loaded from its dist files. */
function packageNodeTypes(): Map<string, KnownType> {
	const known = new Map<string, KnownType>();
	const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } };
	for (const file of manifest.n8n.nodes) {
		const exports = require(join(REPO_ROOT, file)) as Record<string, new () => { description: INodeTypeDescription }>;
		for (const NodeClass of Object.values(exports)) {
			const { description } = new NodeClass();
			known.set(`${PACKAGE}.${description.name}`, {
				versions: Array.isArray(description.version) ? description.version : [description.version],
				parameters: new Set(description.properties.map((property) => property.name)),
				polling: description.polling === true,
			});
		}
	}
	return known;
}

export function validateExamples(
	install: N8nInstall,
	files: string[],
	exported: Array<Record<string, unknown>>,
	pack: { name: string },
): string[] {
	const problems: string[] = [];
	if (files.length === 0) return ['no examples/*.json found'];
	if (pack.name !== PACKAGE) problems.push(`packed package is ${pack.name}, expected ${PACKAGE}`);
	const known = new Map([...baseNodeTypes(install), ...packageNodeTypes()]);
	if (![...known.keys()].some((type) => type.startsWith('n8n-nodes-base.'))) problems.push('n8n-nodes-base node descriptions not found in the n8n install');
	for (const file of files) {
		const example = readExample(file);
		const stored = exported.find((workflow) => (example.id ? workflow.id === example.id : workflow.name === example.name)) as ExampleWorkflow | undefined;
		if (!stored) {
			problems.push(`${file}: "${example.name}" is not in n8n after the import`);
			continue;
		}
		const storedNames = new Set(stored.nodes.map((node) => node.name));
		for (const node of example.nodes) if (!storedNames.has(node.name)) problems.push(`${file}: node "${node.name}" lost in the import`);
		if (JSON.stringify(Object.keys(stored.connections).sort()) !== JSON.stringify(Object.keys(example.connections).sort())) {
			problems.push(`${file}: connections changed in the import`);
		}
		for (const node of example.nodes) {
			const type = known.get(node.type);
			if (!type) {
				problems.push(`${file}: node "${node.name}" has type ${node.type}, unknown to n8n ${install.n8nDir.split('-').pop()} and to ${PACKAGE}`);
				continue;
			}
			if (!type.versions.includes(node.typeVersion)) problems.push(`${file}: node "${node.name}" ${node.type} has no typeVersion ${node.typeVersion} (has ${type.versions.join(', ')})`);
			for (const parameter of Object.keys(node.parameters ?? {})) {
				if (type.parameters.has(parameter)) continue;
				if (type.polling && IMPLICIT_PARAMETERS.polling.includes(parameter)) continue;
				problems.push(`${file}: node "${node.name}" (${node.type}) has no parameter "${parameter}"`);
			}
		}
	}
	return problems;
}
