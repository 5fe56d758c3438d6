import type { IDataObject } from 'n8n-workflow';

import type { OperationSpec } from '../../service/catalogue';
import { paginate } from '../../paging/pagination';
import { queryFromOptions } from '../../input/query';
import { RESOURCE_TYPES } from '../../service/schema';
import { requestsInParallel, userIdOverride } from '../requestOptions';
import type { ActionContext, ActionResult } from './common';
import { collectionLimit, readOutput, resolvePath } from './common';

/** `{ id, type, dealId, ... }`: the parent's ID right after the item's own. */
function withParentId(item: IDataObject, name: string, value: string): IDataObject {
	const { id, type, ...rest } = item;
	return { id, type, [name]: value, ...rest };
}

/**
 * A collection, with Return All or Limit: a searchable one (`/deals`: filter, sort, include, fields)
 * or a related one (`/deals/{dealId}/dealNotes`: no query options), whose simplified items carry
 * the parent's ID under the path parameter's name, so items from many parents stay attributable.
 */
export async function execute(this: ActionContext, spec: OperationSpec, itemIndex: number): Promise<ActionResult> {
	const node = this.getNode();
	const related = spec.shape === 'getRelatedMany';
	const { path, ids } = resolvePath(this, spec, itemIndex);
	const limit = collectionLimit(this, itemIndex, related);
	const query = related
		? undefined
		: queryFromOptions(node, spec.type, RESOURCE_TYPES[spec.type], this.getNodeParameter('options', itemIndex, {}) as IDataObject, this.getTimezone(), itemIndex);
	const parent = related ? Object.entries(ids).pop() : undefined;
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const results: ActionResult = [];
	await paginate.call(this, {
		path,
		query,
		limit,
		itemIndex,
		userId: userIdOverride(this, itemIndex),
		supportsFilter: !related,
		parallel: requestsInParallel(this),
		explain: { rejectedQuery: { type: spec.type } },
		onPage: (document) => {
			for (const item of readOutput(this, document, itemIndex)) {
				results.push(parent !== undefined && simplify ? withParentId(item, parent[0], parent[1]) : item);
			}
		},
	});
	return results;
}
