import type { Operation } from '../../operation/operation';
import { apiRequest } from '../../requests/transport';
import { userIdOverride } from '../requestOptions';
import type { ActionContext, ActionResult } from './common';
import { resolvePath } from './common';

export async function execute(this: ActionContext, spec: Operation, itemIndex: number): Promise<ActionResult> {
	const { path, ids } = resolvePath(this, spec, itemIndex);
	await apiRequest.call(this, { method: 'DELETE', path, itemIndex, userId: userIdOverride(this, itemIndex) });
	return [{ id: Object.values(ids).pop() ?? '', deleted: true }];
}
