import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../operation/operation';
import { paginate } from '../../paging/pagination';
import { queryFromOptions } from '../../input/query';
import { RESOURCE_TYPES } from '../../service/schema';
import { readActingAdviser } from '../adviser';
import type { ActionContext, ActionResult, PreparedItem } from './common';
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
export function prepare(context: ActionContext, operation: Operation, itemIndex: number): PreparedItem {
	const node = context.getNode();
	const related = operation.shape === 'getRelatedMany';
	const { path, ids } = resolvePath(context, operation, itemIndex);
	const limit = collectionLimit(context, itemIndex, related);
	const { options, fieldsChosen } = related ? { options: {}, fieldsChosen: false } : readOptions(context, itemIndex);
	const query = related ? undefined : queryFromOptions(node, operation.type, RESOURCE_TYPES[operation.type], options, context.getTimezone(), itemIndex);
	const parent = related ? Object.entries(ids).pop() : undefined;
	const shape = recordShape(context, itemIndex, fieldsChosen);
	const adviser = readActingAdviser(context, itemIndex);
	return {
		run: async () => {
			const userId = await adviser.userId();
			const results: ActionResult = [];
			await paginate.call(context, {
				path,
				query,
				limit,
				itemIndex,
				userId,
				supportsFilter: !related,
				idRangesAtOnce: true,
				explain: { rejectedQuery: { type: operation.type } },
				onPage: (document) => {
					for (const item of readOutput(document, shape)) {
						results.push(parent !== undefined && shape !== 'raw' ? withParentId(item, parent[0], parent[1]) : item);
					}
				},
			});
			return results;
		},
	};
}
