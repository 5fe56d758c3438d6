/**
 * How a user supplies the ID of a record: a resource locator (From List / By ID) for the types the
 * service can search; for every other type a resource locator with only By ID, whose hint says
 * where the ID comes from. Both check the ID in the editor as it is typed (a red warning before
 * anything runs), by the same rule as at run time (`parseId`).
 *
 * Why a locator with one mode for a plain ID: regex validation exists in n8n only on resource
 * locator modes (NodeHelpers.getParameterIssues → validateResourceLocatorParameter); a string
 * parameter has only `validateType`, whose 'number' accepts 1.5, -3 and 0 and names the internal
 * parameter name. With one mode the editor draws no mode selector: the field looks like a text box
 * with its hint underneath (seen on n8n 1.123, 2.30, 2.41). A workflow saved with a plain value
 * still runs (the actions read a locator's value or the value itself, values.ts `locatorValue`);
 * the editor shows such a value as saved, without the check, until the field is edited in By ID.
 */
import type { INodeProperties, INodePropertyMode } from 'n8n-workflow';

import { MAX_ID, idRuleWords } from '../input/values';
import { BY_NAME_MODE, LOCATORS } from '../operation/locatorTypes';
import type { NodeVersion } from '../service/versions';

/**
 * Where to find the ID of a record the service offers no searchable list of, named by the
 * operations of these nodes that return it.
 */
export const ID_SOURCES: Record<string, string> = {
	advisers: 'IDs come from Deal → Get Many with Include set to adviser',
	assets: 'IDs come from Income → Get Many with Include set to linkedAsset',
	'contact-categories': "IDs are shown in Loan CRM's contact category settings",
	'contact-external-references': 'IDs come from Contact → Get with Include set to externalReferences',
	'contact-groups': 'IDs come from Contact → Get Many with Include set to contactGroup',
	'deal-external-references': 'IDs come from Deal External Reference → Get Many',
	'deal-notes': 'IDs come from Deal Note → Get Many',
	'deal-securities': 'IDs come from Deal Security → Get Many',
	'deal-structures': 'IDs come from Deal → Get with Include set to dealStructures',
	incomes: 'IDs come from Income → Get Many',
	integrations: 'IDs come from Deal External Reference → Get Many with Include set to integration',
	organisations: "IDs come from Deal → Get with Include set to adviser.organisation (the deal adviser's broker organisation)",
	// The service has no way to list or create tasks (only PATCH /tasks/{id}) and no readable record
	// links to one, so no operation of these nodes can give a task ID.
	tasks: 'Copy it from the task in Loan CRM: the service offers no list of tasks, so no step of these nodes can look one up',
};

/**
 * The By ID mode's check, the same rule as at run time (`parseId`): a whole number from 1 to
 * 2147483647, leading zeros and surrounding spaces allowed. n8n anchors it with ^…$.
 */
export const ID_PATTERN = `\\s*0*(?:${wholeNumbersUpTo(String(MAX_ID))})\\s*`;

/** A regex alternation matching exactly the whole numbers 1..limit written without leading zeros. */
function wholeNumbersUpTo(limit: string): string {
	const parts: string[] = [];
	// Fewer digits than the limit: any such number.
	if (limit.length > 1) parts.push(`[1-9]\\d{0,${limit.length - 2}}`);
	// Same number of digits: equal to the limit up to position i, smaller at i, anything after.
	for (let index = 0; index < limit.length; index++) {
		const digit = Number(limit[index]);
		const lowest = index === 0 ? 1 : 0;
		const rest = limit.length - index - 1;
		if (index === limit.length - 1) {
			parts.push(`${limit.slice(0, index)}[${lowest}-${digit}]`);
		} else if (digit - 1 >= lowest) {
			parts.push(`${limit.slice(0, index)}[${lowest}-${digit - 1}]\\d{${rest}}`);
		}
	}
	return parts.join('|');
}

/**
 * A comma-separated list of IDs as the run time reads it (`parseIdList`): at least one ID, each
 * by ID_PATTERN, empty entries between commas ignored.
 */
export const ID_LIST_PATTERN = `[\\s,]*${ID_PATTERN}(?:,[\\s,]*${ID_PATTERN})*[\\s,]*`;

/**
 * The By ID check's message, naming the field: n8n lists every field's issues together (on the
 * canvas, and when it refuses to run the workflow) without their names, so each says its own.
 * n8n's regex check has a fixed message: it cannot quote the value typed (the run-time check does).
 * The rule is worded as the run-time check words it in the node's version (input/values.ts).
 */
export function idRule(label: string, list: boolean, version: NodeVersion): string {
	return `${label} must be ${idRuleWords({ typeVersion: version }, list)}`;
}

export interface IdParameter {
	displayName: string;
	name: string;
	description: string;
	required?: boolean;
}

/**
 * What the By ID mode adds to its name: where the ID comes from, and the check of the number as it
 * is typed (an expression is not checked until it runs).
 */
function byIdCheck(label: string, hint: string, version: NodeVersion, list = false): Pick<INodePropertyMode, 'placeholder' | 'hint' | 'validation'> {
	return {
		placeholder: list ? 'e.g. 101,102' : 'e.g. 12345',
		hint,
		validation: [{ type: 'regex', properties: { regex: list ? ID_LIST_PATTERN : ID_PATTERN, errorMessage: idRule(label, list, version) } }],
	};
}

/**
 * An ID of a record the service offers no searchable list of: a locator with only By ID. `list`
 * takes comma-separated IDs (a to-many relationship). The hint says where the ID comes from.
 */
export function idOnlyProperty(parameter: IdParameter, source: string | undefined, version: NodeVersion, list = false): INodeProperties {
	const what = list ? 'Whole numbers, separated by commas' : 'A whole number';
	return {
		displayName: parameter.displayName,
		name: parameter.name,
		type: 'resourceLocator',
		default: { mode: 'id', value: '' },
		...(parameter.required === true ? { required: true } : {}),
		description: parameter.description,
		modes: [{ displayName: 'By ID', name: 'id', type: 'string', ...byIdCheck(parameter.displayName, source === undefined ? what : `${what}. ${source}.`, version, list) }],
	};
}

/**
 * A locator for a record of `type`, or undefined when the type has no searchable list: From List,
 * By ID (a whole number checked as typed, its rule in `version`'s words; any text where the
 * service's IDs are text), and for the types that have one By Name (`byName`: a name or an e-mail a
 * form or an agent has, looked up when the node runs, execution/lookups.ts).
 */
export function locatorProperty(parameter: IdParameter, type: string, version: NodeVersion): INodeProperties | undefined {
	const locator = LOCATORS[type];
	if (locator === undefined) return undefined;
	const byName = locator.byName;
	const choose = byName === undefined ? 'Choose From List (search as you type) or enter By ID' : `Choose From List (search as you type), enter By ID, or give it ${byName.displayName} (looked up when the node runs)`;
	return {
		displayName: parameter.displayName,
		name: parameter.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		...(parameter.required === true ? { required: true } : {}),
		description: `${parameter.description}. ${choose}.`,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: locator.listPlaceholder,
				typeOptions: { searchListMethod: locator.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				// IDs the service types as text (referrers) are taken as typed.
				...(locator.textId === true ? { placeholder: 'e.g. 301', hint: `The ID: ${locator.idHint}` } : byIdCheck(parameter.displayName, `A whole number: ${locator.idHint}`, version)),
			},
			...(byName === undefined ? [] : [{ displayName: byName.displayName, name: BY_NAME_MODE, type: 'string' as const, placeholder: byName.placeholder, hint: `${byName.hint}.` }]),
		],
	};
}

/** What to say after an ID field's own description: where the ID comes from. */
export function idSourceOf(type: string): string | undefined {
	return ID_SOURCES[type];
}
