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
import type { CustomMethod } from '../../input/customRequest';
import { METHODS_WITH_BODY, customBody, customMethod, customPath, customQuery } from '../../input/customRequest';
import { userIdOverride } from '../requestOptions';
import type { ActionContext, ActionResult } from './common';
import { collectionLimit, customRecordShape, readOutput } from './common';

/** The checked method and path of an item's request. */
function target(context: ActionContext, itemIndex: number): { method: CustomMethod; path: string } {
	const node = context.getNode();
	const method = customMethod(node, context.getNodeParameter('method', itemIndex, 'GET'), itemIndex);
	return { method, path: customPath(node, context.getNodeParameter('path', itemIndex, ''), itemIndex) };
}

/**
 * Items that change the same record must reach the service in item order (router.ts): a PATCH or
 * DELETE of one path. Undefined for reads and creates, and for an item whose input is invalid (it
 * fails on its own and sends nothing).
 */
export function customRecordKey(context: ActionContext, itemIndex: number): string | undefined {
	try {
		const { method, path } = target(context, itemIndex);
		return method === 'PATCH' || method === 'DELETE' ? path : undefined;
	} catch {
		return undefined;
	}
}

export async function execute(this: ActionContext, _spec: CustomRequestSpec, itemIndex: number): Promise<ActionResult> {
	const node = this.getNode();
	const { method, path } = target(this, itemIndex);
	const extra = customQuery(node, this.getNodeParameter('queryParameters', itemIndex, {}), itemIndex);
	const body = METHODS_WITH_BODY.includes(method) ? customBody(node, this.getNodeParameter('jsonBody', itemIndex, ''), method, path, itemIndex) : undefined;
	const limit = method === 'GET' ? collectionLimit(this, itemIndex, false) : undefined;
	const items = (document: Document): IDataObject[] => readOutput(document, customRecordShape(this, itemIndex, extra));
	const userId = userIdOverride(this, itemIndex);

	const response = await apiRequest.call(this, { method, path, query: { extra }, body, itemIndex, userId });
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
	await paginate.call(this, {
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
}
