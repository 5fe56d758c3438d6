/**
 * What every action node of the package shares: group, versions, connections, credential and the
 * parameters derived from its operation catalogue. Each node file states the rest itself, where
 * n8n's lint rules look for it.
 */
import type { INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { Operation } from '../operation/operation';
import { NODE_VERSIONS } from '../operation/versions';
import { CREDENTIAL_TYPE } from '../requests/runContext';
import type { CatalogueDefaults } from '../service/catalogue';
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
		// No defaultVersion: the editor then gives new nodes the last version (1.1), and n8n adds its
		// Custom API Call entry to Resource and Operation only for a node whose defaultVersion is unset
		// or equals `version` (injectCustomApiCallOptions, n8n 1.123 to 2.41), never to an array.
		version: NODE_VERSIONS,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: buildProperties(operations, resourceDescriptions, defaults),
	};
}
