/**
 * What the editor resolves a node to, per version, variant (plain or the `…Tool` copy) and
 * operation: the parameters a new node starts with and the parameters it shows, with n8n's own
 * display logic (any n8n-workflow copy, n8nCopies.ts). The versions tests compare it across copies;
 * the node's compact snapshot pins it, a line each (compact.ts).
 */
import type { INode, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { loadPackageSource } from '../../harness';
import { toolDescriptionFor } from '../../harness/tools';
import { OPERATIONS as CONTACT_SPECS } from '../../nodes/LoanCrmContacts/operations';
import { OPERATIONS as DEAL_SPECS } from '../../nodes/LoanCrmDeals/operations';
import { OPERATIONS as TASK_SPECS } from '../../nodes/LoanCrmLeadsAndTasks/operations';
import { OPERATIONS as ASSET_SPECS } from '../../nodes/LoanCrmOrganisationsAndAssets/operations';
import type { Operation } from '../../nodes/shared/operation/operation';
import { resolveOperations } from '../../nodes/shared/operation/operation';
import { hasOperation } from '../../nodes/shared/service/versions';
import type { ShownProperty } from './compact';
import { resolvedLine } from './compact';
import type { NodeHelpersLike } from './n8nCopies';

const CONTACT_OPERATIONS = resolveOperations(CONTACT_SPECS);
const DEAL_OPERATIONS = resolveOperations(DEAL_SPECS);
const TASK_OPERATIONS = resolveOperations(TASK_SPECS);
const ASSET_OPERATIONS = resolveOperations(ASSET_SPECS);

export const source = loadPackageSource();
export const CATALOGUES: Record<string, readonly Operation[]> = {
	loanCrmDeals: DEAL_OPERATIONS,
	loanCrmContacts: CONTACT_OPERATIONS,
	loanCrmLeadsAndTasks: TASK_OPERATIONS,
	loanCrmOrganisationsAndAssets: ASSET_OPERATIONS,
};

/** The plain node's description and its tool copy's, as the editor receives them. */
export function variants(name: string): Record<'plain' | 'tool', INodeTypeDescription> {
	const description = source.nodes.find((node) => node.name === name)?.type.description as INodeTypeDescription;
	return { plain: description, tool: toolDescriptionFor(description) };
}

/** What a parameter the editor shows looks like, without its nested definitions. */
function shownProperty(property: INodeProperties): Record<string, unknown> {
	const options = property.options?.map((option) => ('value' in option ? option.value : option.name));
	return {
		name: property.name,
		displayName: property.displayName,
		type: property.type,
		...(property.description === undefined ? {} : { description: property.description }),
		...(options === undefined ? {} : { options }),
	};
}

/**
 * For each operation: the parameters a new node of `typeVersion` starts with (the editor's
 * getNodeParameters with defaults) and the parameters it shows.
 */
export function resolvedParameters(helpers: NodeHelpersLike, description: INodeTypeDescription, operations: readonly Operation[], typeVersion: number) {
	const node = { typeVersion, parameters: {} } as unknown as INode;
	return Object.fromEntries(
		// A node of this version has only the operations it lists (a row's `since`).
		operations.filter((spec) => hasOperation({ typeVersion }, spec)).map((spec) => {
			const parameters = helpers.getNodeParameters(description.properties, { resource: spec.resource, operation: spec.operation }, true, false, node, description) ?? {};
			const shown = description.properties.filter((property) => helpers.displayParameter(parameters, property, node, description)).map(shownProperty);
			return [`${spec.resource}.${spec.operation}`, { parameters, shown }];
		}),
	);
}

export function allResolved(helpers: NodeHelpersLike, typeVersion: number) {
	return Object.fromEntries(
		Object.entries(CATALOGUES).map(([name, operations]) => {
			const { plain, tool } = variants(name);
			return [name, { plain: resolvedParameters(helpers, plain, operations, typeVersion), tool: resolvedParameters(helpers, tool, operations, typeVersion) }];
		}),
	);
}

/** One node's operations resolved at `typeVersion`, plain and as a tool, a line each (compact.ts). */
export function resolvedLines(helpers: NodeHelpersLike, name: string, typeVersion: number): string[] {
	const { plain, tool } = variants(name);
	return (['plain', 'tool'] as const).flatMap((variant) =>
		Object.entries(resolvedParameters(helpers, variant === 'plain' ? plain : tool, CATALOGUES[name], typeVersion)).map(([op, { parameters, shown }]) =>
			resolvedLine(`@v${typeVersion} ${variant} ${op}`, parameters, shown as unknown as ShownProperty[]),
		),
	);
}
