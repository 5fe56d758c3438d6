/**
 * The floor: a plain loop with Node's own `fetch` (undici, one kept-alive connection) that asks
 * for the same pages the node asks for and `JSON.parse`s each one — nothing else. No n8n, no
 * items, no flattening, nothing kept. Whatever the node spends above this is its own overhead.
 */
import type { Control } from './measure';
import type { SandboxInfo } from './sandbox-process';

export const PAGE_SIZE = 100;
const MEDIA_TYPE = 'application/vnd.api+json';

/**
 * How the loop pages:
 *  - keyset: `filter=greaterThan(id,'<last>')`, page 1 every time (what the node does for id order);
 *  - pageNumber: `page[number]=2,3,…` (what the node does for any other sort);
 *  - nextLink: follows `links.next` as the service wrote it (the HTTP Request node's
 *    "Response Contains Next URL" mode; the sandbox's next links carry `page[number]`).
 */
export type FloorPaging = 'keyset' | 'pageNumber' | 'nextLink';

export async function fetchToken(sandbox: SandboxInfo): Promise<string> {
	const response = await fetch(sandbox.tokenUrl, {
		method: 'POST',
		headers: {
			'content-type': 'application/x-www-form-urlencoded',
			authorization: `Basic ${Buffer.from(`${sandbox.clientId}:${sandbox.clientSecret}`).toString('base64')}`,
		},
		body: 'grant_type=client_credentials&scope=api',
	});
	const body = (await response.json()) as { access_token?: string };
	if (!body.access_token) throw new Error(`token request failed: ${response.status}`);
	return body.access_token;
}

/** The query string the node's buildQueryString produces for the same page (same order, same encoding). */
function pageQuery(paging: FloorPaging, sort: string | undefined, lastId: string | undefined, pageNumber: number): string {
	const parts: string[] = [];
	if (paging === 'keyset' && lastId !== undefined) parts.push(`filter=${encodeURIComponent(`greaterThan(id,'${lastId}')`)}`);
	if (sort) parts.push(`sort=${encodeURIComponent(sort)}`);
	parts.push(`page%5Bsize%5D=${PAGE_SIZE}`);
	if (paging === 'pageNumber' && pageNumber > 1) parts.push(`page%5Bnumber%5D=${pageNumber}`);
	return parts.join('&');
}

export interface FloorResult {
	records: number;
	requests: number;
}

interface Page {
	data?: Array<{ id: string }>;
	links?: { next?: string | null };
}

/**
 * Reads /jsonapi/deals page by page until the end (or until `stopAfter` records, for warm-ups).
 * Stops like the node: an empty or short page, or no `links.next`.
 */
export async function floorGetAll(
	sandbox: SandboxInfo,
	token: string,
	options: { paging: FloorPaging; sort?: string; stopAfter?: number },
): Promise<FloorResult> {
	const headers = { accept: MEDIA_TYPE, userid: sandbox.userId, authorization: `Bearer ${token}` };
	let url = `${sandbox.baseUrl}/jsonapi/deals?${pageQuery(options.paging, options.sort, undefined, 1)}`;
	let records = 0;
	let requests = 0;
	for (let pageNumber = 1; ; pageNumber++) {
		const response = await fetch(url, { headers });
		const text = await response.text();
		requests++;
		if (response.status !== 200) throw new Error(`floor: ${response.status} for ${url}: ${text.slice(0, 200)}`);
		const page = JSON.parse(text) as Page;
		const data = page.data ?? [];
		records += data.length;
		const next = page.links?.next;
		if (data.length === 0 || data.length < PAGE_SIZE || !next) break;
		if (options.stopAfter !== undefined && records >= options.stopAfter) break;
		url =
			options.paging === 'nextLink'
				? next
				: `${sandbox.baseUrl}/jsonapi/deals?${pageQuery(options.paging, options.sort, data[data.length - 1].id, pageNumber + 1)}`;
	}
	return { records, requests };
}

/** The floor for writes: one PATCH per task with the same document the node sends, one after another. */
export async function floorPatchTasks(
	sandbox: SandboxInfo,
	token: string,
	updates: TaskUpdate[],
): Promise<FloorResult> {
	const headers = {
		accept: MEDIA_TYPE,
		'content-type': MEDIA_TYPE,
		userid: sandbox.userId,
		authorization: `Bearer ${token}`,
	};
	let requests = 0;
	for (const update of updates) {
		const body = JSON.stringify({
			data: { type: 'tasks', id: update.taskId, attributes: { progress: update.progress, priority: update.priority } },
		});
		const response = await fetch(`${sandbox.baseUrl}/jsonapi/tasks/${update.taskId}`, { method: 'PATCH', headers, body });
		const text = await response.text();
		requests++;
		if (response.status !== 200) throw new Error(`floor PATCH: ${response.status}: ${text.slice(0, 200)}`);
		JSON.parse(text);
	}
	return { records: updates.length, requests };
}

export interface TaskUpdate {
	taskId: string;
	progress: string;
	priority: string;
}

const PROGRESS = ['NotStarted', 'InProgress', 'Completed', 'OnHold'];
const PRIORITY = ['Normal', 'Medium', 'High', 'Critical'];

/** N task updates: task ids cycled over the sandbox's tasks, progress and priority varying by item. */
export async function taskUpdates(control: Control, n: number): Promise<TaskUpdate[]> {
	const taskIds = await control.ids('tasks', 10_000);
	return Array.from({ length: n }, (_, i) => ({
		taskId: taskIds[i % taskIds.length],
		progress: PROGRESS[i % PROGRESS.length],
		priority: PRIORITY[Math.floor(i / PROGRESS.length) % PRIORITY.length],
	}));
}
