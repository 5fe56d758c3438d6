/**
 * The one pagination routine for every collection read.
 *
 * The next request is always computed here, never taken from `links.next`: the service builds its
 * links from the host it saw, which behind a proxy can be an internal address. `links.next` only
 * says "there is more".
 */
import type { IHttpRequestMethods } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Document, QueryParameters, Resource } from './jsonapi';
import { primaryResources } from './jsonapi';
import type { ApiResponse, RequestContext } from './transport';
import { apiRequest } from './transport';

/** The service's default and maximum page size. */
export const MAX_PAGE_SIZE = 100;

/** A hard stop far beyond any real collection, so a misbehaving server can never loop forever. */
const MAX_PAGES = 100_000;

export interface PaginateOptions {
	path: string;
	query?: Omit<QueryParameters, 'pageSize' | 'pageNumber'>;
	/** Undefined: every resource. */
	limit?: number;
	itemIndex?: number;
	/** Acts as this adviser instead of the credential's User ID. */
	userId?: string;
	/** Whether the endpoint takes `filter` (related-collection endpoints do not). */
	supportsFilter: boolean;
	/** Called with each page's document, primary data trimmed to the limit. */
	onPage: (document: Document) => void | Promise<void>;
	/** Called with every answer, empty pages included (the trigger reads the service's clock from it). */
	onResponse?: (response: ApiResponse) => void;
}

type KeysetDirection = 'ascending' | 'descending';

/**
 * Keyset paging (`greaterThan(id,'<last id>')`, page 1 every time) is used where the order is by
 * id: it avoids the service's rate-limit multiplier for `page[number]` > 1 and cannot skip or repeat
 * records that are added while paging.
 */
function keysetDirection(sort: string | undefined, supportsFilter: boolean): KeysetDirection | undefined {
	if (!supportsFilter) return undefined;
	const keys = (sort ?? '').split(',').filter((key) => key !== '');
	if (keys.length === 0 || (keys.length === 1 && keys[0] === 'id')) return 'ascending';
	if (keys.length === 1 && keys[0] === '-id') return 'descending';
	return undefined;
}

function keysetFilter(userFilter: string | undefined, direction: KeysetDirection, lastId: string): string {
	const condition = `${direction === 'ascending' ? 'greaterThan' : 'lessThan'}(id,'${lastId.replace(/'/g, "''")}')`;
	return userFilter ? `and(${userFilter},${condition})` : condition;
}

function idsOf(resources: Resource[]): string[] {
	return resources.map((resource) => String(resource.id));
}

function repeatedPageError(context: RequestContext, path: string, itemIndex: number | undefined): NodeApiError {
	return new NodeApiError(
		context.getNode(),
		{ message: 'repeated page' },
		{
			message: `Loan CRM returned the same page again while paging through /jsonapi${path}`,
			description:
				'The service ignored the paging parameters, so the node stopped instead of looping. Narrow the request with a filter or a limit, or report it to Loan CRM.',
			itemIndex,
		},
	);
}

export async function paginate(this: RequestContext, options: PaginateOptions): Promise<number> {
	const query = options.query ?? {};
	const direction = keysetDirection(query.sort, options.supportsFilter);
	const method: IHttpRequestMethods = 'GET';
	let delivered = 0;
	let pageNumber = 1;
	let lastId: string | undefined;
	let previousIds: string | undefined;
	// Offsets of page[number] paging depend on a constant page size.
	const fixedPageSize = Math.min(options.limit ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);

	for (let page = 0; page < MAX_PAGES; page++) {
		const remaining = options.limit === undefined ? Infinity : options.limit - delivered;
		if (remaining <= 0) break;
		const pageSize = direction ? Math.min(remaining, MAX_PAGE_SIZE) : fixedPageSize;
		const pageQuery: QueryParameters = { ...query, pageSize };
		if (direction && lastId !== undefined) {
			pageQuery.filter = keysetFilter(query.filter, direction, lastId);
		} else if (!direction && pageNumber > 1) {
			pageQuery.pageNumber = pageNumber;
		}

		const response = await apiRequest.call(this, {
			method,
			path: options.path,
			query: pageQuery,
			itemIndex: options.itemIndex,
			userId: options.userId,
		});
		options.onResponse?.(response);
		const document = response.body ?? {};
		const resources = primaryResources(document);
		if (!Array.isArray(document.data)) {
			throw new NodeApiError(
				this.getNode(),
				{ message: 'not a collection' },
				{
					message: `Loan CRM answered /jsonapi${options.path} with ${document.data === undefined ? 'no data' : 'a single resource'} where a collection was expected`,
					itemIndex: options.itemIndex,
				},
			);
		}

		const ids = idsOf(resources);
		const signature = ids.join(',');
		if (ids.length > 0 && signature === previousIds) throw repeatedPageError(this, options.path, options.itemIndex);
		if (direction && lastId !== undefined && ids.length > 0) {
			const last = Number(lastId);
			const wentBack = ids.some((id) => (direction === 'ascending' ? Number(id) <= last : Number(id) >= last));
			if (wentBack) throw repeatedPageError(this, options.path, options.itemIndex);
		}
		previousIds = signature;

		const kept = resources.length > remaining ? resources.slice(0, remaining) : resources;
		if (kept.length > 0) {
			await options.onPage({ ...document, data: kept });
			delivered += kept.length;
		}

		const hasMore = typeof document.links?.next === 'string' && document.links.next !== '';
		if (resources.length === 0 || resources.length < pageSize || !hasMore) break;
		lastId = ids[ids.length - 1];
		pageNumber += 1;
	}
	return delivered;
}
