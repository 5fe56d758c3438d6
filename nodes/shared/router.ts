/**
 * The item loop of every action node, written once: find the operation in the node's catalogue,
 * run its shape's action per input item, pair each output item to its input, and honour
 * Continue On Fail.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { ACTIONS } from './actions';
import { agentOutputShaper } from './agent';
import type { OperationSpec } from './catalogue';

function errorItem(error: unknown): IDataObject {
	const failure = error as { message?: unknown; description?: unknown; httpCode?: unknown };
	const json: IDataObject = { error: typeof failure.message === 'string' ? failure.message : String(error) };
	if (typeof failure.description === 'string' && failure.description !== '') json.description = failure.description;
	if (typeof failure.httpCode === 'string' && failure.httpCode !== '') json.httpCode = failure.httpCode;
	return json;
}

/**
 * The error to stop the run with. Its message is left as it is, whichever item failed, so that an
 * Error Workflow can match on it; the failed input item travels with it as `itemIndex`.
 */
function stoppingError(node: INode, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(node, error instanceof Error ? error : String(error), { itemIndex });
}

export async function route(
	this: IExecuteFunctions,
	operations: readonly OperationSpec[],
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const spec = operations.find((entry) => entry.resource === resource && entry.operation === operation);
	if (spec === undefined) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not known for resource "${resource}"`);
	}
	const action = ACTIONS[spec.shape];
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const results = await action.call(this, spec, itemIndex);
			const shape = agentOutputShaper(this, itemIndex);
			for (const json of results) output.push({ json: shape(json), pairedItem: { item: itemIndex } });
		} catch (error) {
			if (this.continueOnFail()) {
				output.push({ json: errorItem(error), pairedItem: { item: itemIndex } });
				continue;
			}
			throw stoppingError(this.getNode(), error, itemIndex);
		}
	}
	return [output];
}
