/**
 * One record by its ID from a collection endpoint: `filter=equals(id,'N')` with `page[size]=1`,
 * Include and Fields as on Get Many. No record is an error (404), never an empty success.
 */
import { apiError } from '../../errors/factory';
import type { Operation } from '../../operation/operation';
import { primaryResources } from '../../service/jsonapi';
import { quoteLiteral, queryFromOptions } from '../../input/query';
import { RESOURCE_TYPES } from '../../service/schema';
import { apiRequest } from '../../requests/transport';
import { readActingAdviser } from '../adviser';
import type { ActionContext, PreparedItem } from './common';
import { readOptions, readOutput, recordShape, resolvePath } from './common';

export function prepare(context: ActionContext, operation: Operation, itemIndex: number): PreparedItem {
	const node = context.getNode();
	const idParameter = operation.idParameter;
	if (idParameter === undefined) throw new Error(`${operation.key}: a getById operation needs idParameter`);
	const { path, ids } = resolvePath(context, operation, itemIndex);
	const id = ids[idParameter];
	const { options, fieldsChosen } = readOptions(context, itemIndex);
	const type = RESOURCE_TYPES[operation.type];
	const { include, fields } = queryFromOptions(node, operation.type, type, { include: options.include, fields: options.fields }, context.getTimezone(), itemIndex);
	const adviser = readActingAdviser(context, itemIndex);
	const shape = recordShape(context, itemIndex, fieldsChosen);
	return {
		run: async () => {
			const userId = await adviser.userId();
			const response = await apiRequest.call(context, {
				method: 'GET',
				path,
				query: { filter: `equals(id,${quoteLiteral(id)})`, include, fields, pageSize: 1 },
				itemIndex,
				userId,
			});
			const document = response.body ?? {};
			if (primaryResources(document).length === 0) {
				throw apiError(node, 'recordNotFound', { type: operation.type, id, path }, { itemIndex });
			}
			return readOutput(document, shape);
		},
	};
}
