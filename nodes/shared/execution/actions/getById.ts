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
import { userIdOverride } from '../requestOptions';
import type { ActionContext, ActionResult } from './common';
import { readOptions, readOutput, recordShape, resolvePath } from './common';

export async function execute(this: ActionContext, spec: Operation, itemIndex: number): Promise<ActionResult> {
	const node = this.getNode();
	const idParameter = spec.idParameter;
	if (idParameter === undefined) throw new Error(`${spec.key}: a getById operation needs idParameter`);
	const { path, ids } = resolvePath(this, spec, itemIndex);
	const id = ids[idParameter];
	const { options, fieldsChosen } = readOptions(this, itemIndex);
	const type = RESOURCE_TYPES[spec.type];
	const { include, fields } = queryFromOptions(node, spec.type, type, { include: options.include, fields: options.fields }, this.getTimezone(), itemIndex);
	const response = await apiRequest.call(this, {
		method: 'GET',
		path,
		query: { filter: `equals(id,${quoteLiteral(id)})`, include, fields, pageSize: 1 },
		itemIndex,
		userId: userIdOverride(this, itemIndex),
	});
	const document = response.body ?? {};
	if (primaryResources(document).length === 0) {
		throw apiError(node, 'recordNotFound', { type: spec.type, id, path }, { itemIndex });
	}
	return readOutput(document, recordShape(this, itemIndex, fieldsChosen));
}
