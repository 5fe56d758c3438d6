import type { Operation } from '../../operation/operation';
import type { Shape } from '../../service/catalogue';
import type { ActionContext, ActionResult } from './common';
import { execute as remove } from './delete';
import { execute as get } from './get';
import { execute as getById } from './getById';
import { execute as getMany } from './getMany';
import { execute as write } from './write';

export type Action = (this: ActionContext, operation: Operation, itemIndex: number) => Promise<ActionResult>;

export const ACTIONS: Record<Shape, Action> = {
	getMany,
	// A related collection is a collection without query options: one action for both.
	getRelatedMany: getMany,
	get,
	getById,
	create: write,
	update: write,
	delete: remove,
};
