import type { OperationSpec } from '../catalogue';
import { paginate } from '../pagination';
import type { ActionContext, ActionResult } from './common';
import { readOutput, resolvePath, userIdOverride } from './common';

/** Every resource of a related collection, e.g. a deal's notes, as separate items. */
export async function execute(this: ActionContext, spec: OperationSpec, itemIndex: number): Promise<ActionResult> {
	const { path } = resolvePath(this, spec, itemIndex);
	const results: ActionResult = [];
	await paginate.call(this, {
		path,
		itemIndex,
		userId: userIdOverride(this, itemIndex),
		supportsFilter: false,
		onPage: (document) => {
			for (const item of readOutput(this, document, itemIndex)) results.push(item);
		},
	});
	return results;
}
