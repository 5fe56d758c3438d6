import type { Operation } from '../../operation/operation';
import { apiRequest } from '../../requests/transport';
import { readActingAdviser } from '../adviser';
import type { ActionContext, PreparedItem } from './common';
import { readOutput, recordShape, resolvePath } from './common';

/** One resource, or a to-one related resource; `data: null` gives no item. */
export function prepare(context: ActionContext, operation: Operation, itemIndex: number): PreparedItem {
	const { path } = resolvePath(context, operation, itemIndex);
	const adviser = readActingAdviser(context, itemIndex);
	const shape = recordShape(context, itemIndex);
	return {
		run: async () => {
			const userId = await adviser.userId();
			const response = await apiRequest.call(context, { method: 'GET', path, itemIndex, userId });
			return readOutput(response.body ?? {}, shape);
		},
	};
}
