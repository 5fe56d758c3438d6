/**
 * What a trigger item looks like, per node version.
 *
 * - Version 1 (saved workflows, and the legacy Loan CRM Trigger): the record as Get Many's version 1
 *   gives it, every field flattened, nested objects included; a move's `previousStatus` and
 *   `statusChangedAt` after `id` and `name`; a test event's `sample: true` last. Unchanged.
 * - Version 1.1 (new Deals and Contacts Triggers): a deal is read like Get Many's summary row
 *   (service/summary.ts, what Simplify gives at action node version 1.1): `id`, `name`,
 *   `dealStatus`, then for a move `previousStatus` and `statusChangedAt`, then `totalLoanAmount` and
 *   `lenderName`, then the rest of the summary; Simplify off gives every field, nested ones included.
 *   Contacts are flat already and come whole. A test event's `sample: true` is the first column.
 */
import type { IDataObject } from 'n8n-workflow';

import { hasSummary, summarize } from '../service/summary';

/** The columns a person reads first in a deal trigger's item at version 1.1, in order (after `id`). */
const DEAL_LEADING = ['name', 'dealStatus', 'previousStatus', 'statusChangedAt', 'totalLoanAmount', 'lenderName'];

export interface ItemShape {
	/** Node version 1 (and the legacy trigger): items exactly as they always were. */
	version1: boolean;
	/** Version 1.1's Simplify: a record's summary instead of every field. */
	simplify: boolean;
}

/** `record` (flattened; a move's fields already set by transitionItem) as the node's version shows it. */
export function triggerItem(record: IDataObject, shape: ItemShape): IDataObject {
	if (shape.version1 || !shape.simplify || !hasSummary(String(record.type))) return record;
	const summary = summarize(record);
	const item: IDataObject = { id: summary.id };
	for (const key of DEAL_LEADING) {
		if (key in summary) item[key] = summary[key];
		else if (key in record) item[key] = record[key];
	}
	return { ...item, ...summary };
}

/** A test event's item: marked `sample: true`, last in version 1 (as it always was), first from version 1.1. */
export function sampleItem(item: IDataObject, shape: ItemShape): IDataObject {
	return shape.version1 ? { ...item, sample: true } : { sample: true, ...item };
}
