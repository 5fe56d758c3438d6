import type { IDataObject } from 'n8n-workflow';

import type { OperationSpec } from '../catalogue';
import { paginate } from '../pagination';
import { requestsInParallel } from '../parallel';
import { queryFromOptions } from '../query';
import { RESOURCE_TYPES } from '../schema';
import { invalidParameter } from '../values';
import type { ActionContext, ActionResult } from './common';
import { readOutput, resolvePath, userIdOverride } from './common';

/** A searchable collection: filter, sort, include, fields, Return All or Limit. */
export async function execute(this: ActionContext, spec: OperationSpec, itemIndex: number): Promise<ActionResult> {
	const node = this.getNode();
	const { path } = resolvePath(this, spec, itemIndex);
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	let limit: number | undefined;
	if (!returnAll) {
		const value = this.getNodeParameter('limit', itemIndex, 50) as unknown;
		if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
			throw invalidParameter(node, 'Limit', `must be a whole number of at least 1; got ${JSON.stringify(value)}`, itemIndex);
		}
		limit = value;
	}
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const query = queryFromOptions(node, spec.type, RESOURCE_TYPES[spec.type], options, this.getTimezone(), itemIndex);
	const results: ActionResult = [];
	await paginate.call(this, {
		path,
		query,
		limit,
		itemIndex,
		userId: userIdOverride(this, itemIndex),
		supportsFilter: true,
		parallel: requestsInParallel(this),
		onPage: (document) => {
			for (const item of readOutput(this, document, itemIndex)) results.push(item);
		},
	});
	return results;
}
