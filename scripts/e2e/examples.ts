/**
 * Checks on examples/*.json beyond "n8n import:workflow accepted it": after the import, each example
 * is in the database with all its nodes and connections, every node type and typeVersion exists in
 * the installed n8n (n8n-nodes-base's published node descriptions) or in the packed package, and
 * every top-level parameter is one the node declares (a typo would otherwise import silently and
 * be dropped by the editor).
 */
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { PACKAGE } from './cases';
import type { N8nInstall } from './install';
import { REPO_ROOT } from './n8n';

interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters?: Record<string, unknown>;
}

interface ExampleWorkflow {
	id?: string;
	name: string;
	nodes: ExampleNode[];
	connections: Record<string, unknown>;
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
		const example = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', file), 'utf8')) as ExampleWorkflow;
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
