/**
 * Custom Request: one request to any endpoint below /jsonapi, through the same transport as every
 * operation (token, UserId, media types, the repeats it allows: a write is never sent twice after an
 * uncertain failure) and, for a collection, the same paging routine (Return All or Limit, page by
 * page number: the node cannot know whether an unknown endpoint takes the filter keyset paging
 * needs). Whether a GET answers a collection is only known from the answer, so the first request
 * carries no page parameters (the service's default page size) and paging goes on from there.
 */
import type { IDataObject } from 'n8n-workflow';

import type { CustomRequestSpec } from '../../service/catalogue';
import type { Document } from '../../service/jsonapi';
import { paginate } from '../../paging/pagination';
import { apiRequest } from '../../requests/transport';
import { METHODS_WITH_BODY, customBody, customMethod, customPath, customQuery } from '../../input/customRequest';
import { readActingAdviser } from '../adviser';
import type { ActionContext, ActionResult, PreparedItem } from './common';
import { collectionLimit, customRecordShape, readOutput, recordKey } from './common';

/**
 * The item's request, read and checked once: method, path, query, body, Limit, the record shape and
 * the adviser. Writes to the same record (a PATCH or DELETE of one path) keep item order (router.ts);
 * reads and creates need none.
 */
export function prepare(context: ActionContext, _spec: CustomRequestSpec, itemIndex: number): PreparedItem {
	const node = context.getNode();
	const method = customMethod(node, context.getNodeParameter('method', itemIndex, 'GET'), itemIndex);
	const path = customPath(node, context.getNodeParameter('path', itemIndex, ''), itemIndex);
	const extra = customQuery(node, context.getNodeParameter('queryParameters', itemIndex, {}), itemIndex);
	const body = METHODS_WITH_BODY.includes(method) ? customBody(node, context.getNodeParameter('jsonBody', itemIndex, ''), method, path, itemIndex) : undefined;
	const limit = method === 'GET' ? collectionLimit(context, itemIndex, false) : undefined;
	const shape = customRecordShape(context, itemIndex, extra);
	const adviser = readActingAdviser(context, itemIndex);
	const items = (document: Document): IDataObject[] => readOutput(document, shape);
	return {
		orderingKey: method === 'PATCH' || method === 'DELETE' ? recordKey(path) : undefined,
		run: async () => {
			const userId = await adviser.userId();
			const explain = adviser.from === undefined ? undefined : { userIdFrom: adviser.from };
			const response = await apiRequest.call(context, { method, path, query: { extra }, body, itemIndex, userId, explain });
			const document = response.body;
			if (document === undefined || !('data' in document)) {
				// 204, or an answer without primary data: what happened, so the item still says something.
				const answer: IDataObject = { method, path: `/jsonapi${path}`, status: response.status };
				if (response.headers.location !== undefined) answer.location = response.headers.location;
				if (document?.meta !== undefined) answer.meta = document.meta as IDataObject;
				return [answer];
			}
			if (method !== 'GET' || !Array.isArray(document.data)) return items(document);
			const results: ActionResult = [];
			await paginate.call(context, {
				path,
				query: { extra },
				limit,
				itemIndex,
				userId,
				supportsFilter: false,
				firstPage: document,
				onPage: (page) => {
					results.push(...items(page));
				},
			});
			return results;
		},
	};
}
