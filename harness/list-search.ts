/*
 * A resource locator's From List search as the editor runs it: n8n 2.41.3's
 * DynamicNodeParametersService.getResourceLocatorResults builds a one-node workflow ("Temp-Node")
 * from the node's current parameters and credentials and calls `methods.listSearch[method]` on a
 * LoadOptionsContext with (filter, paginationToken).
 */
import './env';

import { LoadOptionsContext } from 'n8n-core';
import type { INode, INodeListSearchResult, INodeParameters, INodePropertyOptions, INodeType } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { createAdditionalData } from './additional-data';
import { CredentialStore } from './credentials';
import type { Registry } from './registry';
import { defaultRegistry } from './registry';
import { DEFAULT_CREDENTIAL_TYPE } from './run';

export async function runListSearch(opts: {
	/** Package node name, e.g. 'loanCrmDeals', or a full type. */
	nodeType: string;
	method: string;
	/** The node's parameters as the editor holds them. */
	parameters?: INodeParameters;
	credentials: CredentialStore;
	filter?: string;
	paginationToken?: string;
	/** The locator parameter's path, e.g. `parameters.dealId`. */
	path?: string;
	registry?: Registry;
}): Promise<INodeListSearchResult> {
	const registry = opts.registry ?? defaultRegistry();
	const type = registry.nodeTypes.resolve(opts.nodeType);
	const nodeType = registry.nodeTypes.getByName(type) as INodeType;
	const method = nodeType.methods?.listSearch?.[opts.method];
	if (method === undefined) throw new Error(`${type} has no listSearch method ${opts.method}`);
	const record = opts.credentials.firstOfType(DEFAULT_CREDENTIAL_TYPE);
	const parameters = opts.parameters ?? {};
	const node: INode = {
		parameters,
		id: 'uuid-1234',
		name: 'Temp-Node',
		type,
		typeVersion: 1,
		position: [0, 0],
		...(record ? { credentials: { [DEFAULT_CREDENTIAL_TYPE]: { id: record.id, name: record.name } } } : {}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: registry.nodeTypes });
	const additionalData = createAdditionalData(opts.credentials, { currentNodeParameters: parameters });
	const context = new LoadOptionsContext(workflow, workflow.getNode('Temp-Node') as INode, additionalData, opts.path ?? 'parameters');
	await workflow.expression.acquireIsolate();
	try {
		return await method.call(context, opts.filter, opts.paginationToken);
	} finally {
		await workflow.expression.releaseIsolate();
	}
}

/**
 * A parameter's options as the editor loads them (`typeOptions.loadOptionsMethod`): n8n 2.41.3's
 * DynamicNodeParametersService.getOptionsViaMethodName builds the same one-node workflow and calls
 * `methods.loadOptions[method]` on a LoadOptionsContext whose current node parameters are the ones
 * being edited (`getCurrentNodeParameter`).
 */
export async function runLoadOptions(opts: {
	nodeType: string;
	method: string;
	parameters: INodeParameters;
	credentials: CredentialStore;
	/** The parameter's path, e.g. `parameters.incomes.income[0].ownership`. */
	path?: string;
	registry?: Registry;
}): Promise<INodePropertyOptions[]> {
	const registry = opts.registry ?? defaultRegistry();
	const type = registry.nodeTypes.resolve(opts.nodeType);
	const nodeType = registry.nodeTypes.getByName(type) as INodeType;
	const method = nodeType.methods?.loadOptions?.[opts.method];
	if (method === undefined) throw new Error(`${type} has no loadOptions method ${opts.method}`);
	const node: INode = { parameters: opts.parameters, id: 'uuid-1234', name: 'Temp-Node', type, typeVersion: 1.1, position: [0, 0] };
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: registry.nodeTypes });
	const additionalData = createAdditionalData(opts.credentials, { currentNodeParameters: opts.parameters });
	const context = new LoadOptionsContext(workflow, workflow.getNode('Temp-Node') as INode, additionalData, opts.path ?? 'parameters');
	return await method.call(context);
}
