import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../operation/operation';
import { paginate } from '../../paging/pagination';
import { queryFromOptions } from '../../input/query';
import { RESOURCE_TYPES } from '../../service/schema';
import { userIdOverride } from '../requestOptions';
import type { ActionContext, ActionResult } from './common';
import { collectionLimit, readOptions, readOutput, recordShape, resolvePath } from './common';

/** `{ id, type, dealId, ... }`: the parent's ID right after the item's own (and its type, if it has one). */
function withParentId(item: IDataObject, name: string, value: string): IDataObject {
	const { id, type, ...rest } = item;
	return type === undefined ? { id, [name]: value, ...rest } : { id, type, [name]: value, ...rest };
}

/**
 * A collection, with Return All or Limit: a searchable one (`/deals`: filter, sort, include, fields)
 * or a related one (`/deals/{dealId}/dealNotes`: no query options), whose flattened items carry
 * the parent's ID under the path parameter's name, so items from many parents stay attributable.
 */
export async function execute(this: ActionContext, spec: Operation, itemIndex: number): Promise<ActionResult> {
	const node = this.getNode();
	const related = spec.shape === 'getRelatedMany';
	const { path, ids } = resolvePath(this, spec, itemIndex);
	const limit = collectionLimit(this, itemIndex, related);
	const { options, fieldsChosen } = related ? { options: {}, fieldsChosen: false } : readOptions(this, itemIndex);
	const query = related ? undefined : queryFromOptions(node, spec.type, RESOURCE_TYPES[spec.type], options, this.getTimezone(), itemIndex);
	const parent = related ? Object.entries(ids).pop() : undefined;
	const shape = recordShape(this, itemIndex, fieldsChosen);
	const results: ActionResult = [];
	await paginate.call(this, {
		path,
		query,
		limit,
		itemIndex,
		userId: userIdOverride(this, itemIndex),
		supportsFilter: !related,
		idRangesAtOnce: true,
		explain: { rejectedQuery: { type: spec.type } },
		onPage: (document) => {
			for (const item of readOutput(document, shape)) {
				results.push(parent !== undefined && shape !== 'raw' ? withParentId(item, parent[0], parent[1]) : item);
			}
		},
	});
	return results;
}
