/**
 * What every action node of the package shares: group, versions, connections, credential and the
 * parameters derived from its operation catalogue. Each node file states the rest itself, where
 * n8n's lint rules look for it.
 */
import type { INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { Operation } from '../operation/operation';
import { NEWEST_VERSION, NODE_VERSIONS, SINCE } from '../service/versions';
import { CREDENTIAL_TYPE } from '../requests/runContext';
import type { CatalogueDefaults, CatalogueEntry } from '../service/catalogue';
import { CUSTOM_REQUEST } from '../service/catalogue';
import { buildProperties } from './descriptions';

type SharedPart = Omit<INodeTypeDescription, 'displayName' | 'name' | 'description' | 'icon' | 'defaults' | 'subtitle' | 'usableAsTool'>;

/** The part of an action node's description that is the same for every node but its operations. */
export function actionNodeBase(
	operations: readonly Operation[],
	resourceDescriptions: Record<string, string>,
	defaults: CatalogueDefaults,
): SharedPart {
	return {
		group: ['transform'],
		version: [...NODE_VERSIONS],
		// The editor gives a new node this version (n8n 1.123 to 2.41: resolveNodeVersion takes
		// defaultVersion, else the last of `version`). Stating it also keeps n8n from adding its own
		// "Custom API Call" entry to Resource and Operation: n8n adds it only to a node whose
		// defaultVersion is unset or equals `version` (load-nodes-and-credentials.js
		// injectCustomApiCallOptions, the same in 1.123.81, 2.30.0 and 2.41.0), which an array never
		// does. That entry only pointed to n8n's HTTP Request node beside our own Custom Request, two
		// entries nobody could tell apart; Custom Request's description now names both routes.
		defaultVersion: NEWEST_VERSION,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: buildProperties(operations, resourceDescriptions, defaults),
	};
}

/** An operation's canvas subtitle: its action without articles ("Create a deal note" → "Create deal note"). */
export function subtitleOf(entry: Pick<CatalogueEntry, 'action'>): string {
	return entry.action.replace(/\b(?:a|an|the) /g, '');
}

/**
 * The canvas subtitle under an action node's name, an n8n expression: from version 1.2 the chosen
 * operation in words ("Create deal note"); before, as it was ("create: dealNote"). `$nodeVersion`
 * is the node's own version in the editor's expressions (n8n 1.123 to 2.41).
 */
export function actionSubtitle(operations: readonly Operation[]): string {
	const words = Object.fromEntries([...operations, CUSTOM_REQUEST].map((entry) => [`${entry.resource}.${entry.operation}`, subtitleOf(entry)]));
	const before = '$parameter["operation"] + ": " + $parameter["resource"]';
	return `={{ $nodeVersion >= ${SINCE.plainWords} ? (${JSON.stringify(words)}[$parameter["resource"] + "." + $parameter["operation"]] ?? ${before}) : ${before} }}`;
}
