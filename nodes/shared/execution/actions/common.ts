import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { OperationSpec } from '../../service/catalogue';
import { pathParameters } from '../../service/catalogue';
import type { Document } from '../../service/jsonapi';
import { flatten, rawResources } from '../../service/jsonapi';
import { idParameterLabel } from '../../description/locators';
import { invalidParameter } from '../../errors/factory';
import { parseId } from '../../input/values';

export type ActionContext = IExecuteFunctions;

/** What each shape's `execute` returns: the output items' JSON for one input item. */
export type ActionResult = IDataObject[];

export interface ResolvedPath {
	path: string;
	/** The path ids by parameter name, already checked. */
	ids: Record<string, string>;
}

/** The request path with each `{id}` replaced by its checked parameter value. */
export function resolvePath(context: ActionContext, spec: OperationSpec, itemIndex: number): ResolvedPath {
	const ids: Record<string, string> = {};
	for (const name of pathParameters(spec)) {
		// Named in messages by the label the editor shows ("Deal", "Deal Note ID").
		ids[name] = parseId(context.getNode(), idParameterLabel(spec, name), context.getNodeParameter(name, itemIndex, ''), itemIndex);
	}
	const path = spec.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => ids[name]);
	return { path, ids };
}

/** Output items of a read: flattened when Simplify is on, as sent otherwise. */
export function readOutput(context: ActionContext, document: Document, itemIndex: number): IDataObject[] {
	const simplify = context.getNodeParameter('simplify', itemIndex, true) as boolean;
	return simplify ? flatten(document) : rawResources(document);
}

/**
 * How many records a collection read returns: undefined for Return All, else Limit (checked).
 * `returnAllDefault` is the Return All default of the operation (true for a deal's notes).
 */
export function collectionLimit(context: ActionContext, itemIndex: number, returnAllDefault: boolean): number | undefined {
	if (context.getNodeParameter('returnAll', itemIndex, returnAllDefault) as boolean) return undefined;
	const value = context.getNodeParameter('limit', itemIndex, 50) as unknown;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
		throw invalidParameter(context.getNode(), 'Limit', `must be a whole number of at least 1; got ${JSON.stringify(value)}`, itemIndex);
	}
	return value;
}
