/**
 * The item loop of every action node, written once: find the operation in the node's catalogue,
 * have its shape's action read and check each input item once (actions/index.ts, `prepareItem`)
 * and run it (as many at once as Request Options → Requests in Parallel), pair each output item to
 * its input in input order, and honour Continue On Fail.
 *
 * The bound on requests in flight is not kept here: every request holds one of the run's request
 * slots (requests/runContext.ts, taken by requests/transport.ts), whichever item or read sends it.
 * The loop starts no more items than there are slots, so an item that fails stops the run before
 * later items are started.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { operationError, stoppingError } from '../errors/factory';
import type { ActionResult, PreparedItem } from './actions';
import { prepareItem } from './actions';
import type { Operation } from '../operation/operation';
import { operationAt } from '../operation/operation';
import type { CustomRequestSpec } from '../service/catalogue';
import { CUSTOM_REQUEST, N8N_CUSTOM_API_CALL } from '../service/catalogue';
import { hasOperation } from '../service/versions';
import { forEachIndex } from '../requests/parallel';
import { applyRequestOptions } from './requestOptions';
import { agentOutputShaper } from './toolOutput';

function errorItem(error: unknown): IDataObject {
	const failure = error as { message?: unknown; description?: unknown; httpCode?: unknown };
	const json: IDataObject = { error: typeof failure.message === 'string' ? failure.message : String(error) };
	if (typeof failure.description === 'string' && failure.description !== '') json.description = failure.description;
	if (typeof failure.httpCode === 'string' && failure.httpCode !== '') json.httpCode = failure.httpCode;
	return json;
}

/**
 * The item read and checked by its action, or, when a parameter is wrong, an item that fails with
 * that error when it runs: it sends nothing, and keeps its place (its own error, its item index,
 * Continue On Fail's pairing). It has no ordering key: it reaches no record.
 */
function prepareOrFail(context: IExecuteFunctions, entry: Operation | CustomRequestSpec, itemIndex: number): PreparedItem {
	try {
		return prepareItem(context, entry, itemIndex);
	} catch (error) {
		return { run: async () => await Promise.reject(error) };
	}
}

type Outcome = { results: ActionResult } | { error: unknown };

export async function route(
	this: IExecuteFunctions,
	operations: readonly Operation[],
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	// n8n's own entry in the Resource and Operation lists; as the Resource no Operation is shown.
	if (resource === N8N_CUSTOM_API_CALL) throw operationError(this.getNode(), 'customApiCall', undefined);
	const operation = this.getNodeParameter('operation', 0) as string;
	if (operation === N8N_CUSTOM_API_CALL) throw operationError(this.getNode(), 'customApiCall', undefined);
	// Every action node lists Custom Request after its own operations.
	const entries: ReadonlyArray<Operation | CustomRequestSpec> = [...operations, CUSTOM_REQUEST];
	// An operation newer than the node's version (a catalogue row's `since`) is not one of its operations.
	const found = entries.find((entry) => entry.resource === resource && entry.operation === operation && (entry.shape === 'custom' || hasOperation(this.getNode(), entry)));
	if (found === undefined) {
		throw operationError(this.getNode(), 'unknownOperation', { resource, operation });
	}
	// The operation as this node's version has it: where its parameters are, how they are labelled.
	const spec = found.shape === 'custom' ? found : operationAt(found, this.getNode().typeVersion);
	// Request Options' node settings, read once for the run, before any request.
	const run = applyRequestOptions(this);
	const continueOnFail = this.continueOnFail();
	const outcomes: Outcome[] = new Array<Outcome>(items.length);
	// Each item is read once, when its turn comes: forEachIndex asks for an item's key just before it
	// starts the item, so that is where the item is prepared. Items with the same key (writes to one
	// record, creates that look for one record first) reach the service in item order.
	const preparedItems: PreparedItem[] = new Array<PreparedItem>(items.length);
	const prepareForStart = (itemIndex: number): string | undefined => (preparedItems[itemIndex] = prepareOrFail(this, spec, itemIndex)).orderingKey;
	// Without Continue On Fail the first failing item ends the run: no later item is started.
	let firstFailure: number | undefined;
	await forEachIndex(
		items.length,
		run.requestsInParallel,
		async (itemIndex) => {
			try {
				outcomes[itemIndex] = { results: await preparedItems[itemIndex].run() };
			} catch (error) {
				outcomes[itemIndex] = { error };
				if (!continueOnFail && (firstFailure === undefined || itemIndex < firstFailure)) firstFailure = itemIndex;
			}
		},
		{ keyOf: prepareForStart, stopAfter: () => firstFailure },
	);
	if (firstFailure !== undefined) {
		throw stoppingError(this.getNode(), (outcomes[firstFailure] as { error: unknown }).error, firstFailure);
	}
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const outcome = outcomes[itemIndex];
		if ('error' in outcome) {
			output.push({ json: errorItem(outcome.error), pairedItem: { item: itemIndex } });
			continue;
		}
		const shape = agentOutputShaper(this, itemIndex);
		for (const json of outcome.results) output.push({ json: shape(json), pairedItem: { item: itemIndex } });
	}
	return [output];
}
