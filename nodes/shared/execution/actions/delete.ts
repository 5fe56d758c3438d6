import type { Operation } from '../../operation/operation';
import { apiRequest } from '../../requests/transport';
import { readActingAdviser } from '../adviser';
import type { ActionContext, PreparedItem } from './common';
import { resolvePath } from './common';

/** The record at the path; deletes of one record keep item order. */
export function prepare(context: ActionContext, operation: Operation, itemIndex: number): PreparedItem {
	const { path, ids, recordKey } = resolvePath(context, operation, itemIndex);
	const adviser = readActingAdviser(context, itemIndex);
	return {
		orderingKey: recordKey,
		run: async () => {
			const userId = await adviser.userId();
			await apiRequest.call(context, { method: 'DELETE', path, itemIndex, userId, ...(adviser.from === undefined ? {} : { explain: { userIdFrom: adviser.from } }) });
			return [{ id: Object.values(ids).pop() ?? '', deleted: true }];
		},
	};
}
