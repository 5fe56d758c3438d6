/**
 * A node's parameters, derived from its operation catalogue and the resource tables.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { CatalogueDefaults, CatalogueEntry, IfExists } from '../service/catalogue';
import { CUSTOM_REQUEST, IF_EXISTS_DEFAULT, IF_EXISTS_DISPLAY_NAME, IF_EXISTS_PARAMETER, MATCH_COUNT_FIELD, OUTCOME_FIELD, displayNameOf, showFor } from '../service/catalogue';
import type { Operation, WriteField } from '../operation/operation';
import { operationAt } from '../operation/operation';
import { BY_NAME_MODE } from '../operation/locatorTypes';
import { conditionsProperty } from './conditions';
import { customRequestProperties } from './customRequest';
import { factFindProperties } from './factFind';
import { byDisplayName, writeFieldProperty } from './fieldProperties';
import { idOnlyProperty, idSourceOf, locatorProperty } from './locators';
import { DEFAULT_REQUESTS_IN_PARALLEL, MAX_REQUESTS_IN_PARALLEL } from '../requests/policy';
import { rateLimitWaitProperty } from './rateLimitWait';
import { RESOURCE_TYPES } from '../service/schema';
import { hasSummary } from '../service/summary';
import { AGENT_DEFAULT_LIMIT, fromAIExpression, toolArguments } from './toolArguments';
import type { ToolArgument } from './toolArguments';
import { agentProperties } from './toolDescription';
import type { NodeVersion } from '../service/versions';
import { NODE_VERSIONS, SINCE, firstVersionOf, hasOperation } from '../service/versions';
import { forVariants, forVersions } from './versions';

const READ_SHAPES = new Set(['getMany', 'getRelatedMany', 'get', 'getById']);

/** An adviser as the UserId header takes one (execution/adviser.ts): an adviser-details record, its ID the AdviserContactId. */
const USER_ID_TYPE = 'adviser-details';

function adviserLocator(parameter: { displayName: string; name: string; description: string }, version: NodeVersion): INodeProperties {
	const locator = locatorProperty(parameter, USER_ID_TYPE, version);
	if (locator === undefined) throw new Error(`no locator for ${USER_ID_TYPE}`);
	return locator;
}

/**
 * Shown for every operation, as nodes of `version` show it: act as another adviser than the
 * credential's User ID (picked like every adviser); how many requests at once; how long to wait for
 * the rate limit.
 */
function requestOptions(version: NodeVersion): INodeProperties {
	return {
		displayName: 'Request Options',
		name: 'requestOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			adviserLocator(
				{
					displayName: 'User ID',
					name: 'userId',
					description:
						"The adviser this node acts as, sent as the UserId header instead of the credential's User ID (an adviser of your organisation; By ID their contact ID, AdviserContactId). Writes are recorded against this adviser; a lead's Allocate To, when set, wins for its lead",
				},
				version,
			),
			{
				displayName: 'Requests in Parallel',
				name: 'requestsInParallel',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_REQUESTS_IN_PARALLEL, numberPrecision: 0 },
				default: DEFAULT_REQUESTS_IN_PARALLEL,
				description:
					'How many requests this node keeps in flight: input items handled at once, or ID ranges paged at once by Return All. 1 sends one request at a time. Lower it when your rate-limit budget is small or other workflows share it.',
			},
			rateLimitWaitProperty(version),
		],
	};
}

/** The first node version with an entry (a catalogue row's `since`, service/versions.ts; Custom Request always). */
function sinceOf(entry: CatalogueEntry): number {
	return entry.shape === 'custom' ? NODE_VERSIONS[0] : firstVersionOf(entry);
}

/**
 * The Resource list. A resource whose operations all came in a later node version (`since`) is
 * listed from that version on: one copy of the list before it, one from it (`@version`), so saved
 * nodes of older versions keep the list they had.
 */
function resourceSelectors(
	operations: readonly CatalogueEntry[],
	descriptions: Record<string, string>,
	defaults: CatalogueDefaults,
): INodeProperties[] {
	const resources = [...new Set(operations.map((spec) => spec.resource))];
	const defaultResource = defaults.resource;
	if (!resources.includes(defaultResource)) throw new Error(`Default resource "${defaultResource}" is not in the catalogue`);
	const nameOf = (resource: string) => operations.flatMap((spec) => (spec.resource === resource && spec.shape !== 'custom' && spec.resourceName !== undefined ? [spec.resourceName] : []))[0] ?? displayNameOf(resource);
	const sinceResource = (resource: string) => Math.min(...operations.filter((spec) => spec.resource === resource).map(sinceOf));
	const selector = (listed: string[]): INodeProperties => ({
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: listed.map((resource) => ({ name: nameOf(resource), value: resource, description: descriptions[resource] })).sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultResource,
	});
	const versions = [...new Set(resources.map(sinceResource))].sort((a, b) => a - b);
	if (versions.length === 1) return [selector(resources)];
	if (versions.length > 2) throw new Error(`resources added in more than one later version (${versions.join(', ')}): give each range its own copy`);
	// Before the version the newer resources came in, and from it.
	const [, since] = versions;
	return [
		{ ...selector(resources.filter((resource) => sinceResource(resource) < since)), displayOptions: { show: { '@version': [{ _cnd: { lt: since } }] } } },
		{ ...selector(resources), displayOptions: { show: { '@version': [{ _cnd: { gte: since } }] } } },
	];
}

function operationSelectors(operations: readonly CatalogueEntry[], defaults: CatalogueDefaults): INodeProperties[] {
	const resources = [...new Set(operations.map((spec) => spec.resource))];
	return resources.map((resource) => {
		const specs = operations.filter((spec) => spec.resource === resource);
		const defaultOperation = defaults.operations[resource];
		if (!specs.some((spec) => spec.operation === defaultOperation)) {
			throw new Error(`Default operation "${String(defaultOperation)}" of resource "${resource}" is not in the catalogue`);
		}
		return {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: specs
				.map((spec) => ({ name: spec.name, value: spec.operation, action: spec.action, description: spec.description }))
				.sort((a, b) => a.name.localeCompare(b.name)),
			default: defaultOperation,
		};
	});
}

/**
 * One parameter per ID the operation needs: a resource locator with From List where the type can be
 * searched (deals, contacts), else one with only By ID whose hint says where to find the ID.
 */
function idProperties(spec: Operation, version: NodeVersion): INodeProperties[] {
	return spec.idParameters.map((id): INodeProperties => {
		const description = id.described ?? `ID of the ${displayNameOf(id.name.replace(/Id$/, '')).toLowerCase()}`;
		const parameter = { displayName: id.label, name: id.name, description, required: true };
		const locator = locatorProperty(parameter, id.type, version) ?? idOnlyProperty({ ...parameter, description: `${description}. A whole number.` }, idSourceOf(id.type), version);
		return { ...locator, displayOptions: showFor(spec) };
	});
}

/** Options → Fields: a sparse fieldset of the operation's type; from version 1.1 on, * for every field, and it wins over Simplify. */
function fieldsOption(spec: Operation, version: NodeVersion): INodeProperties {
	const label = RESOURCE_TYPES[spec.type].label;
	const empty = hasSummary(spec.type) ? "empty leaves the choice to Simplify" : 'empty returns every field';
	return {
		displayName: 'Fields',
		name: 'fields',
		type: 'string',
		default: '',
		placeholder: 'name,updated',
		description:
			version < SINCE.summaries
				? `Comma-separated attributes to return for each ${label}; empty returns all`
				: `Comma-separated attributes to return for each ${label}, as the service names them (nested objects stay nested), or * for every field. Set, it wins over Simplify; ${empty}.`,
	};
}

/** Options → Include: related records embedded in each result. */
const INCLUDE_OPTION: INodeProperties = {
	displayName: 'Include',
	name: 'include',
	type: 'string',
	default: '',
	placeholder: 'contacts,customStatus',
	description: 'Comma-separated related records to embed in each result, dots for deeper levels',
};

/** An operation's Options collection, its entries in alphabetical order. */
function optionsCollection(spec: Operation, options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showFor(spec),
		options: byDisplayName<INodeProperties>(options),
	};
}

/** Get by ID: the record's related records and a sparse fieldset, as on Get Many. */
function getByIdProperties(spec: Operation, version: NodeVersion): INodeProperties[] {
	return [optionsCollection(spec, [fieldsOption(spec, version), INCLUDE_OPTION])];
}

/** Return All and Limit of a collection read, shown for `display`; a tool's Limit is 10. */
function pagingProperties(display: IDisplayOptions, returnAllDefault: boolean): Shown[] {
	const returnAll: INodeProperties = {
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions: display,
	};
	if (returnAllDefault) returnAll.default = true;
	return [
		{ property: returnAll },
		{
			property: {
				displayName: 'Limit',
				name: 'limit',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 50,
				description: 'Max number of results to return',
				displayOptions: { ...display, show: { ...display.show, returnAll: [false] } },
			},
			// A tool's answer stays affordable: 50 deals were ~41,000 characters for a model to read.
			tool: { default: AGENT_DEFAULT_LIMIT },
		},
	];
}

/** Return All and Limit of a collection read, and for searchable collections the query Options. */
function getManyProperties(spec: Operation, version: NodeVersion): Shown[] {
	const label = RESOURCE_TYPES[spec.type].label;
	// A related collection (a deal's notes) returned every record before Return All existed; saved
	// workflows, which do not store a value equal to the default, keep doing so.
	const paging = pagingProperties(showFor(spec), spec.shape === 'getRelatedMany');
	// Related-collection endpoints take no filter, sort or include.
	if (spec.shape === 'getRelatedMany') return paging;
	const options: INodeProperties[] = [
		conditionsProperty(spec.type, {
			name: 'conditions',
			description: `Only ${label} records matching all these conditions. Combined with Filter when both are set.`,
		}),
		fieldsOption(spec, version),
		{
			displayName: 'Filter',
			name: 'filter',
			type: 'string',
			default: '',
			placeholder: "and(equals(dealStatus,'Settled'),greaterOrEqual(updated,'2026-11-01'))",
			description: "Filter expression in the service's syntax: equals, lessThan, greaterOrEqual, contains, startsWith, any, not, and, or. Every value in single quotes; double a quote inside a value ('O''Connor').",
		},
		INCLUDE_OPTION,
		{
			displayName: 'Sort',
			name: 'sort',
			type: 'string',
			default: '',
			placeholder: '-updated,lastName',
			description: 'Comma-separated fields to sort by; prefix a field with - for descending. Default is by ID ascending, which also pages most cheaply.',
		},
	];
	return [...paging, { property: optionsCollection(spec, options) }];
}

/** What Custom Request's Simplify does from version 1.1, by the types that have a summary. */
function customSimplifyWords(): string {
	const summarized = Object.keys(RESOURCE_TYPES).filter(hasSummary).map((name) => `${RESOURCE_TYPES[name as keyof typeof RESOURCE_TYPES].label}s`);
	return `Whether to return each record flat instead of the service's JSON:API resources: ${summarized.join(' and ')} as their summary, the same fields as the typed operation gives with Simplify (unless the query asks for fields[…]), records of every other type with every field`;
}

const SIMPLIFY: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

/**
 * Version 1: on, every field flattened; off, the service's JSON:API. From version 1.1: on, the
 * record's summary; off, every field flattened (version 1's default); shown only for types with a
 * summary (the others are flat already and always give every field). A Custom Request's records are
 * known by their type only in the answer: version 1 flattens them; from 1.1 a deal is its summary, as
 * the typed operation gives it, and the others are flattened (execution/actions/common.ts
 * customRecordShape).
 */
function customSimplifyProperty(): INodeProperties[] {
	return forVersions({ ...SIMPLIFY, displayOptions: showFor(CUSTOM_REQUEST) }, { v1_1: { description: customSimplifyWords() } });
}

/** A read's Simplify as nodes of `version` show it (none from 1.1 for a type without a summary). */
function readSimplify(spec: Operation, version: NodeVersion): INodeProperties | undefined {
	const property = { ...SIMPLIFY, displayOptions: showFor(spec) };
	if (version < SINCE.summaries) return property;
	if (!hasSummary(spec.type)) return undefined;
	return {
		...property,
		description: `Whether to return only the fields people and agents look at first (for a ${RESOURCE_TYPES[spec.type].label}: name, status, amounts, key dates, lender), flat, one table row per record. Off returns every field, nested ones included; Options → Fields picks others.`,
	};
}

/**
 * From version 1.2, a create whose existing record is found through another type (a lead, found as
 * the deal it became): Simplify gives the created and the found record the same columns
 * (execution/actions/write.ts `createShape`), off the record as the service sent it.
 */
function createSimplify(spec: Operation, version: NodeVersion): INodeProperties | undefined {
	if (version < SINCE.oneCreateShape || spec.matchLookup === undefined) return undefined;
	const label = RESOURCE_TYPES[spec.type].label;
	const found = RESOURCE_TYPES[spec.matchLookup.recordType].label;
	return {
		...SIMPLIFY,
		description: `Whether to give a ${label} created and a ${label} found by If Already Exists the same flat columns, in the same order. Off gives the ${label} as Loan CRM answered the create, and a found ${label} as its ${found} with every field, nested ones included.`,
		displayOptions: showFor(spec),
	};
}

/**
 * Create → If Already Exists, for a create that can look for the record first (`matchExistingBy`).
 * The default creates another, as the create always did, so saved workflows keep their behaviour.
 */
function ifExistsProperty(spec: Operation, rule: NonNullable<Operation['ifAlreadyExists']>): INodeProperties {
	const label = RESOURCE_TYPES[spec.type].label;
	const texts = rule.fields.filter((field) => field.kind === 'attribute');
	const comparison =
		texts.length === 0
			? ''
			: ` ${texts.map((field) => field.label).join(' and ')} ${texts.length === 1 ? 'is' : 'are'} compared as Loan CRM compares text: upper and lower case do not matter, and spaces around ${texts.length === 1 ? 'it' : 'them'} are removed before the search and the create.`;
	// A match field the item may leave empty (a contact's Email): nothing to look for, so it creates.
	const optional = rule.fields.filter((field) => !field.required);
	const missing = optional.length === 0 ? '' : ` An item without ${optional.map((field) => field.label).join(' or ')} always creates a ${label}.`;
	const options: Array<{ name: string; value: IfExists; description: string }> = [
		{ name: 'Create Another', value: 'createAnother', description: `Create a new ${label} without looking for one` },
		{
			name: 'Return Existing',
			value: 'returnExisting',
			description: `Output the existing ${label} (the oldest if several, with ${MATCH_COUNT_FIELD}) and write nothing; create only when none exists`,
		},
		{
			name: 'Stop With Error',
			value: 'stopWithError',
			description: `Fail the item with an error naming the existing ${label}'s ID; create only when none exists`,
		},
	];
	return {
		displayName: IF_EXISTS_DISPLAY_NAME,
		name: IF_EXISTS_PARAMETER,
		type: 'options',
		options,
		default: IF_EXISTS_DEFAULT,
		description:
			`What to do when Loan CRM already has a ${label} with the same ${rule.words}.${comparison}${missing} ` +
			`Except with Create Another, each output item has ${OUTCOME_FIELD}: created or found.`,
		displayOptions: showFor(spec),
	};
}

/**
 * Allocate To: the adviser the created record goes to (execution/adviser.ts), an adviser picked like
 * every other. Empty (the default, and every node saved before it existed): the node's adviser.
 */
function allocationProperty(spec: Operation, version: NodeVersion): INodeProperties {
	const label = RESOURCE_TYPES[spec.type].label;
	return {
		...adviserLocator(
			{
				displayName: 'Allocate To',
				name: 'allocateTo',
				description: `The adviser of your organisation the new ${label} goes to, sent as this item's UserId; empty gives it to the node's adviser (Request Options → User ID, else the credential's User ID)`,
			},
			version,
		),
		displayOptions: showFor(spec),
	};
}

/**
 * From version 1.2, beside If Already Exists: a notice while a match field with its own parameter is
 * empty (looking first needs every match field), one at a time, so the editor says what the output
 * will (`notSearched`). It shows only while If Already Exists looks first. The conditions that read
 * those values are `hide` rules: n8n shows a parameter whose `show` rule meets an expression (a
 * reference mapped from the form), and an expression is a value, not an empty field.
 */
function noSearchNotices(spec: Operation, rule: NonNullable<Operation['ifAlreadyExists']>, version: NodeVersion): INodeProperties[] {
	if (version < SINCE.oneCreateShape) return [];
	const label = RESOURCE_TYPES[spec.type].label;
	const own = rule.fields.filter((field) => !field.required && field.featured);
	const needs = rule.fields.map((entry) => entry.label).join(' and ');
	return own.map((field, index): INodeProperties => ({
		displayName: `${field.label} is empty, so Loan CRM cannot be searched for an existing ${label} (If Already Exists needs ${needs}): this item creates one, and its output says so (notSearched).`,
		name: `${field.parameter}NotSearchedNotice`,
		type: 'notice',
		default: '',
		displayOptions: {
			...showFor(spec),
			hide: {
				[IF_EXISTS_PARAMETER]: [IF_EXISTS_DEFAULT],
				// One notice at a time: the first empty match field's.
				...Object.fromEntries(own.slice(0, index).map((earlier) => [earlier.parameter, ['']])),
				[field.parameter]: [{ _cnd: { not: '' } }],
			},
		},
	}));
}

/**
 * Custom Request, which every action node lists after its own operations: its own parameters, and
 * for a GET the paging of every collection read; Simplify for every answer with records.
 */
function customRequestEntry(): INodeProperties[] {
	const paging = pagingProperties(showFor(CUSTOM_REQUEST, { method: ['GET'] }), false).flatMap(({ property, tool }) =>
		forVersions(property, tool === undefined ? {} : { v1Tool: tool, v1_1Tool: tool }),
	);
	return [...customRequestProperties(), ...paging, ...customSimplifyProperty()];
}

/** A write field's parameter of its own (required or featured), shown for its operation. */
function ownFieldProperty(spec: Operation, field: WriteField, version: NodeVersion): INodeProperties {
	return { ...writeFieldProperty(field, version), ...(field.required ? { required: true } : {}), displayOptions: showFor(spec) };
}

function writeProperties(spec: Operation, version: NodeVersion): INodeProperties[] {
	const properties: INodeProperties[] = spec.fields.filter((field) => field.required).map((field) => ownFieldProperty(spec, field, version));
	// Featured optional fields: a parameter each, not required (left empty, nothing is sent).
	properties.push(...spec.fields.filter((field) => field.featured).map((field) => ownFieldProperty(spec, field, version)));
	if (spec.allocation !== undefined) properties.push(allocationProperty(spec, version));
	if (spec.ifAlreadyExists !== undefined) properties.push(ifExistsProperty(spec, spec.ifAlreadyExists), ...noSearchNotices(spec, spec.ifAlreadyExists, version));
	const optional = spec.fields.filter((field) => !field.required && !field.featured);
	if (spec.collection !== undefined && optional.length > 0) {
		const isCreate = spec.shape === 'create';
		properties.push({
			displayName: spec.collection.label,
			name: spec.collection.name,
			type: 'collection',
			placeholder: isCreate ? 'Add Field' : 'Add Field to Update',
			default: {},
			description: isCreate ? undefined : 'Only the fields added here are changed; all others keep their values',
			displayOptions: showFor(spec),
			options: byDisplayName(optional.map((field) => writeFieldProperty(field, version))),
		});
	}
	return properties;
}

/** The value a tool (from version 1.1) starts with in `property`: the model fills the arguments in it. */
function toolDefault(property: INodeProperties, wired: ToolArgument[]): INodeProperties['default'] | undefined {
	const mine = wired.filter((entry) => entry.path[0] === property.name);
	if (mine.length === 0) return undefined;
	if (property.type === 'collection') return Object.fromEntries(mine.map((entry) => [entry.path[1], fromAIExpression(entry)]));
	const expression = fromAIExpression(mine[0]);
	// `__rl` as the editor stores a locator, so the editor does not save a value equal to this default.
	// A locator that takes a name (an adviser's e-mail or name) is filled in that mode: what a model knows.
	const mode = property.modes?.some((entry) => entry.name === BY_NAME_MODE) === true ? BY_NAME_MODE : 'id';
	return property.type === 'resourceLocator' ? { __rl: true, mode, value: expression } : expression;
}

/** A parameter as one version shows it: its plain definition, and what its tool copy changes. */
interface Shown {
	property: INodeProperties;
	tool?: Partial<INodeProperties>;
}

/** An operation's own parameters as nodes of its version show them (`spec` is its form in that version), in the editor's order. */
function operationProperties(spec: Operation): Shown[] {
	const version = spec.version;
	const shown: Shown[] = idProperties(spec, version).map((property) => ({ property }));
	if (spec.shape === 'getMany' || spec.shape === 'getRelatedMany') shown.push(...getManyProperties(spec, version));
	if (spec.shape === 'getById') shown.push(...getByIdProperties(spec, version).map((property) => ({ property })));
	// A fact find's mode and lists come first; a tool is given the fact find as JSON, filled by the model.
	if (spec.factFindInput !== undefined) {
		const input = spec.factFindInput;
		shown.push(...factFindProperties(spec, input, version).map((property): Shown => (property.name === input.mode.name ? { property, tool: { default: 'json' } } : { property })));
	}
	if (spec.shape === 'create' || spec.shape === 'update') shown.push(...writeProperties(spec, version).map((property) => ({ property })));
	const simplify = READ_SHAPES.has(spec.shape) ? readSimplify(spec, version) : createSimplify(spec, version);
	if (simplify !== undefined) shown.push({ property: simplify });
	return shown;
}

/** Names in the order the editor shows them: the newest version's, each older name after the one it followed. */
function mergedOrder(lists: ReadonlyArray<readonly string[]>): string[] {
	const order = [...lists[lists.length - 1]];
	for (const list of [...lists].reverse().slice(1)) {
		list.forEach((name, index) => {
			if (order.includes(name)) return;
			const before = list.slice(0, index).reverse().find((earlier) => order.includes(earlier));
			order.splice(before === undefined ? 0 : order.indexOf(before) + 1, 0, name);
		});
	}
	return order;
}

/**
 * An operation's parameters in every version and variant that has it (a catalogue row's `since`):
 * each version's form of the operation (operation/operation.ts `operationAt`) rendered as it shows
 * them, then each parameter folded into the fewest copies with display conditions (versions.ts
 * `forVariants`). A tool from version 1.1 on starts with its arguments wired to the model
 * (toolArguments.ts).
 */
function versioned(operation: Operation): INodeProperties[] {
	const forms = NODE_VERSIONS.filter((version) => hasOperation({ typeVersion: version }, operation)).map((version) => {
		const spec = operationAt(operation, version);
		const shown = operationProperties(spec);
		return { version, shown, wired: version < SINCE.summaries ? [] : toolArguments(spec) };
	});
	const names = mergedOrder(forms.map((form) => form.shown.map((entry) => entry.property.name)));
	return names.flatMap((name) =>
		forVariants(({ version, tool }) => {
			const form = forms.find((entry) => entry.version === version);
			const entry = form?.shown.find((candidate) => candidate.property.name === name);
			if (form === undefined || entry === undefined) return undefined;
			if (!tool) return entry.property;
			const property = { ...entry.property, ...entry.tool };
			const fromModel = toolDefault(entry.property, form.wired);
			return fromModel === undefined ? property : { ...property, default: fromModel };
		}),
	);
}

/** Every parameter of a node: resource, operation, then each operation's own. */
export function buildProperties(
	operations: readonly Operation[],
	resourceDescriptions: Record<string, string>,
	defaults: CatalogueDefaults,
): INodeProperties[] {
	const entries: readonly CatalogueEntry[] = [...operations, CUSTOM_REQUEST];
	const entryDefaults: CatalogueDefaults = { ...defaults, operations: { ...defaults.operations, [CUSTOM_REQUEST.resource]: CUSTOM_REQUEST.operation } };
	return [
		...resourceSelectors(entries, { ...resourceDescriptions, [CUSTOM_REQUEST.resource]: CUSTOM_REQUEST.resourceDescription }, entryDefaults),
		...operationSelectors(entries, entryDefaults),
		...agentProperties(operations),
		...operations.flatMap(versioned),
		...customRequestEntry(),
		...forVariants(({ version }) => requestOptions(version)),
	];
}
