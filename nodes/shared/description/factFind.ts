/**
 * Fact Find → Create's own parameters, rendered from the fact find's one definition
 * (service/factFind.ts) as the operation resolved them (operation/operation.ts `factFindInput`):
 *
 * - Mode: Manual Mapping (a fixed collection per list, as n8n's Edit Fields node calls it) or JSON;
 * - Manual Mapping: People, Addresses, Employments, Incomes, Assets, Liabilities, Expenses, each a
 *   list of entries the user names ("Applicant 1", "Home"); an entry shows the members a form maps
 *   every time and keeps the others under its Additional Fields. A link to another entry (owners, an
 *   income's job, a loan's asset) is picked from the names given in the same node: the options are
 *   loaded from the node's current parameters (execution/methods/loadOptions.ts), again whenever an
 *   entry is added to or removed from the list they name. A type ID (income type, …) is picked from
 *   the service's list, By ID, or by expression;
 * - JSON: the whole fact find as one object, the description's own shape.
 *
 * Numbers are text boxes: a form's fields arrive as text, and an empty box sends nothing (a number
 * box would send 0). The run checks every value (input/factFind.ts).
 */
import type { INodeProperties } from 'n8n-workflow';

import type { FactFindCollection, FactFindParameters, Operation } from '../operation/operation';
import { showFor } from '../service/catalogue';
import type { FactFindList, FactFindMember } from '../service/factFind';
import { FACT_FIND_LISTS, LID, factFindList, namesMethod } from '../service/factFind';
import { memberLabel } from '../input/factFind';
import { byDisplayName, optionList, sentence } from './fieldProperties';
import { LOCATORS } from '../operation/locatorTypes';
import { idOnlyProperty, locatorProperty } from './locators';
import type { NodeVersion } from '../service/versions';
import { typeWords } from './typeWords';

/** A member's parameter in an entry, as nodes of `version` show it (an ID's rule in its words). */
function memberProperty(name: string, member: FactFindMember, version: NodeVersion): INodeProperties {
	const label = memberLabel(name, member);
	const base = { displayName: label, name, description: sentence(member.description) };
	if (member.refersTo !== undefined) {
		const target = factFindList(member.refersTo) as FactFindList;
		const many = member.kind === 'list';
		return {
			...base,
			type: many ? 'multiOptions' : 'options',
			typeOptions: { loadOptionsMethod: namesMethod(target, many), loadOptionsDependsOn: [`${target.parameter}.${target.entryKey}`] },
			default: many ? [] : '',
			description: sentence(`${member.description}. ${many ? 'Choose one or more' : 'Choose one'} of the names given under ${target.label} in this node, or give ${many ? 'names' : 'a name'} by expression`),
		};
	}
	if (member.picked !== undefined) {
		const locator = locatorProperty({ displayName: label, name, description: member.description }, member.picked, version);
		if (locator === undefined) throw new Error(`fact find member ${name}: no list to pick a ${member.picked} from`);
		return locator;
	}
	// Another ID the service has no list of (a property's zoning): By ID only, its hint saying where it comes from.
	if (member.kind === 'integer' && /Id$/.test(name)) return idOnlyProperty({ displayName: label, name, description: `${sentence(member.description)} A whole number.` }, member.note, version);
	switch (member.kind) {
		case 'enum':
			// No preselected value: nothing is sent until one is chosen.
			return { ...base, type: 'options', options: optionList(member.values ?? [], member.ordered), default: '' };
		case 'boolean':
			return { ...base, description: `Whether ${sentence(member.description).replace(/^Whether /, '').replace(/^./, (c) => c.toLowerCase())}`, type: 'boolean', default: false };
		case 'date':
			return { ...base, description: sentence(`${member.description} (sent as YYYY-MM-DD)`), type: 'dateTime', default: '' };
		case 'number':
		case 'integer':
			return { ...base, description: sentence(`${member.description}: ${typeWords(member, 'write')}; empty sends nothing`), type: 'string', default: '', placeholder: member.kind === 'integer' ? 'e.g. 2020' : 'e.g. 85000' };
		default:
			return { ...base, type: 'string', default: '' };
	}
}

/** The fixed collection of a list: its entries, each with its name, its main members and its Additional Fields. */
function collectionProperty(spec: Operation, mode: FactFindParameters['mode'], collection: FactFindCollection, version: NodeVersion): INodeProperties {
	const { list } = collection;
	const members = Object.entries(list.members).filter(([, member]) => member.place !== 'json');
	const main = members.filter(([, member]) => member.place === 'main');
	const more = members.filter(([, member]) => member.place !== 'main');
	const linkedFrom = FACT_FIND_LISTS.filter((other) => Object.values(other.members).some((member) => member.refersTo === list.name)).map((other) => other.label);
	return {
		displayName: list.label,
		name: collection.parameter,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: `Add ${list.entryLabel}`,
		default: {},
		displayOptions: showFor(spec, { [mode.name]: ['manual'] }),
		options: [
			{
				name: collection.entryKey,
				displayName: list.entryLabel,
				values: [
					{
						displayName: 'Entry Name',
						name: collection.entryName,
						type: 'string',
						default: '',
						placeholder: `e.g. ${list.example}`,
						description: `A name for this ${list.singular}, different from the other ${list.label.toLowerCase()}'s${linkedFrom.length === 0 ? '' : `: ${linkedFrom.join(', ')} link to it by this name`} (not sent to Loan CRM)`,
					},
					...main.map(([name, member]) => memberProperty(name, member, version)),
					{
						displayName: 'Additional Fields',
						name: collection.additionalFields,
						type: 'collection',
						placeholder: 'Add Field',
						default: {},
						options: byDisplayName(more.map(([name, member]) => memberProperty(name, member, version))),
					},
				],
			},
		],
	};
}

/** What a fact find given as JSON holds, in words an AI agent (and a person) can fill it from. */
export function factFindShapeWords(): string {
	const lists = FACT_FIND_LISTS.map((list) => {
		// A date's date-time twin is left out: one way to write a date is enough.
		const members = Object.entries(list.members).filter(([, member]) => member.place !== 'json').map(([name, member]) => {
			if (member.refersTo !== undefined) {
				const target = factFindList(member.refersTo) as FactFindList;
				return member.kind === 'list' ? `${name} ([{lid}] of ${target.name})` : `${name} ({lid} of ${target.name})`;
			}
			if (member.picked !== undefined) return LOCATORS[member.picked]?.byName === undefined ? `${name} (Loan CRM's ID, a whole number)` : `${name} (Loan CRM's ID, or the type's name as Loan CRM lists it)`;
			const limit = member.maxLength === undefined ? '' : `, at most ${member.maxLength} characters`;
			return `${name} (${typeWords(member, 'write')}${limit})`;
		});
		return `${list.name}${list.name === 'contacts' ? ' (the people, at least one)' : ''}: [{${[LID, ...members].join(', ')}}]`;
	});
	return (
		`An object with these lists (leave out what is not known; every entry's ${LID} is a short name of your choosing, unique in its list, that other entries use to point to it with {"${LID}": "…"}): ` +
		`${lists.join('; ')}.`
	);
}

/** Mode, the JSON parameter and the fixed collections, each shown for the operation, as nodes of `version` show them. */
export function factFindProperties(spec: Operation, parameters: FactFindParameters, version: NodeVersion): INodeProperties[] {
	return [
		{
			displayName: parameters.mode.label,
			name: parameters.mode.name,
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Manual Mapping', value: 'manual', description: 'Add people, addresses, jobs, incomes, assets, liabilities and expenses one by one, mapping a form\'s fields to them' },
				{ name: 'JSON', value: 'json', description: 'Give the whole fact find as one object, e.g. from a Code node, as the public API description shapes it' },
			],
			default: 'manual',
			displayOptions: showFor(spec),
		},
		{
			displayName: parameters.json.label,
			name: parameters.json.path[0],
			type: 'json',
			default: '{}',
			required: true,
			description: `The whole fact find as one object (typed here, or an expression giving one, e.g. from a Code node), as the public API description's StructuredLeadAttributes shapes it: ${FACT_FIND_LISTS.map((list) => list.name).join(', ')}. Checked before anything is sent. The lead's own parts (note, UTM, source, referrer) are the parameters below.`,
			displayOptions: showFor(spec, { [parameters.mode.name]: ['json'] }),
		},
		...parameters.collections.map((collection) => collectionProperty(spec, parameters.mode, collection, version)),
	];
}
