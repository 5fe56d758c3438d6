/**
 * The actions' one public entry: the router hands each input item to `prepareItem`, which reads and
 * checks the item's parameters once, through its operation's shape, and gives back what the router
 * needs (the item's ordering key) and what sends it (`run`).
 */
import type { Operation } from '../../operation/operation';
import type { CustomRequestSpec, Shape } from '../../service/catalogue';
import type { ActionContext, Prepare, PreparedItem } from './common';
import { prepare as customRequest } from './customRequest';
import { prepare as remove } from './delete';
import { prepare as get } from './get';
import { prepare as getById } from './getById';
import { prepare as getMany } from './getMany';
import { prepare as write } from './write';

export type { ActionResult, PreparedItem } from './common';

/** Each request shape's `prepare`. */
export const ACTIONS: Record<Shape, Prepare<Operation>> = {
	getMany,
	// A related collection is a collection without query options: one action for both.
	getRelatedMany: getMany,
	get,
	getById,
	create: write,
	update: write,
	delete: remove,
};

/** The item read and checked for its operation (or Custom Request); throws on a bad parameter, before any request. */
export function prepareItem(context: ActionContext, entry: Operation | CustomRequestSpec, itemIndex: number): PreparedItem {
	return entry.shape === 'custom' ? customRequest(context, entry, itemIndex) : ACTIONS[entry.shape](context, entry, itemIndex);
}
