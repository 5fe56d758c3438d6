import type { Operation } from '../../operation/operation';
import { apiRequest } from '../../requests/transport';
import { userIdOverride } from '../requestOptions';
import type { ActionContext, ActionResult } from './common';
import { readOutput, recordShape, resolvePath } from './common';

/** One resource, or a to-one related resource; `data: null` gives no item. */
export async function execute(this: ActionContext, spec: Operation, itemIndex: number): Promise<ActionResult> {
	const { path } = resolvePath(this, spec, itemIndex);
	const response = await apiRequest.call(this, { method: 'GET', path, itemIndex, userId: userIdOverride(this, itemIndex) });
	return readOutput(response.body ?? {}, recordShape(this, itemIndex));
}
