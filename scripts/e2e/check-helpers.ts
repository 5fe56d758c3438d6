/** What the e2e's checks share: how a check is recorded, a node's items in a run, the published triggers' reads. */
import type { INodeExecutionData, IRun } from 'n8n-workflow';

import type { LoggedRequest, StoredResource } from '../../sandbox';

/** Records one check: its name, what is wrong (nothing when it passed) and what to show with a failure. */
export type RecordCheck = (name: string, problems: string[], context?: string) => void;

/** The items a node's last run output on its first output, undefined when it did not run. */
export function nodeItems(run: IRun | undefined, nodeName: string): INodeExecutionData[] | undefined {
	const tasks = run?.data.resultData.runData[nodeName];
	if (!tasks || tasks.length === 0) return undefined;
	return tasks[tasks.length - 1].data?.main?.[0] ?? [];
}

/**
 * A read of the published triggers' polls (deals by `updated`, contacts by `created`): they keep
 * polling while other checks run, and those checks leave them out.
 */
export function isPollRead(request: LoggedRequest): boolean {
	return /greaterOrEqual\((updated|created),/.test(request.query.filter ?? '');
}

/** A problem when `actual` is not `expected` (compared as JSON). */
export function same(label: string, actual: unknown, expected: unknown): string[] {
	return JSON.stringify(actual) === JSON.stringify(expected) ? [] : [`${label}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`];
}

/** The id a stored record's to-one relationship points at (undefined when it points nowhere). */
export function relatedId(record: StoredResource | undefined, relationship: string): string | undefined {
	const value = record?.relationships[relationship];
	return value !== null && value !== undefined && !Array.isArray(value) ? value.id : undefined;
}
