/**
 * The Conditions builder, defined once for every Get Many and for the trigger: pick a field, an
 * operator and a value, and the node writes the filter expression (see `buildConditionFilter`).
 * Fields come from the resource tables: the ID, every plain attribute and the dotted paths filters
 * commonly use (integration.name). A field with known values (an enum, or true/false) offers them in
 * a dropdown instead of a text box; expressions stay possible everywhere.
 *
 * How the dropdown follows the chosen field, in n8n 1.123, 2.30 and 2.41 alike: options inside a
 * fixedCollection entry cannot depend on a sibling without a loadOptions request to the server, so
 * each field with known values gets its own `value` parameter, shown only while that field is
 * chosen. All of them are named `value`, so what is stored does not change: conditions saved before
 * the dropdowns existed (`value: 'Settled'`, `value: 'Lodged,PreApproved'`) read as before. Exactly
 * one of them is displayed at a time, which is what n8n needs for parameters sharing a name: the text
 * box is hidden for fields with a dropdown, and each dropdown is hidden unless the field is exactly
 * its own (`_cnd: { not }`), so a field given as an expression keeps the text box.
 */
import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { displayNameOf } from '../service/catalogue';
import { queryableFields } from '../service/fields';
import { optionList } from './fieldProperties';
import { FILTER_OPERATORS } from '../input/query';
import type { ResourceTypeName, ResourceTypeSpec } from '../service/schema';
import { RESOURCE_TYPES } from '../service/schema';

const NO_VALUE_OPERATORS = ['isNull', 'isNotNull'];

/** The fields a condition can compare (those a filter can name), alphabetically by label. */
export function conditionFieldOptions(type: ResourceTypeSpec): INodePropertyOptions[] {
	const { attributes, paths } = queryableFields(type);
	return [
		...attributes.map((name) => ({ name: displayNameOf(name), value: name, description: name === 'id' ? 'ID of the record' : type.attributes[name].description })),
		...paths.map((path) => ({ name: displayNameOf(path.replace('.', ' ')), value: path, description: type.filterPaths?.[path] })),
	].sort((a, b) => a.name.localeCompare(b.name));
}

/** The values a field is known to take, as dropdown entries; undefined when any text goes. */
export function knownFieldValues(type: ResourceTypeSpec, field: string): INodePropertyOptions[] | undefined {
	const attribute = type.attributes[field];
	if (attribute?.kind === 'enum') return optionList(attribute.values ?? [], attribute.ordered);
	if (attribute?.kind === 'boolean') {
		return [
			{ name: 'True', value: 'true' },
			{ name: 'False', value: 'false' },
		];
	}
	return undefined;
}

function valueProperties(type: ResourceTypeSpec): INodeProperties[] {
	const pickers = Object.keys(type.attributes)
		.map((field) => ({ field, options: knownFieldValues(type, field) }))
		.filter((entry): entry is { field: string; options: INodePropertyOptions[] } => entry.options !== undefined);
	const textHide: NonNullable<IDisplayOptions['hide']> = { operator: NO_VALUE_OPERATORS };
	if (pickers.length > 0) textHide.field = pickers.map(({ field }) => field);
	const properties: INodeProperties[] = [
		{
			displayName: 'Value',
			name: 'value',
			type: 'string',
			default: '',
			description:
				'Value to compare with; for Is One Of, several separated by commas. Dates as YYYY-MM-DD, date-times in ISO 8601, booleans as true or false. Quotes are handled for you.',
			displayOptions: { hide: textHide },
		},
	];
	for (const { field, options } of pickers) {
		const label = displayNameOf(field);
		const otherField = [{ _cnd: { not: field } }];
		properties.push(
			{
				displayName: 'Value',
				name: 'value',
				type: 'options',
				options,
				// Empty until chosen: running with no choice stops with an error naming this parameter.
				default: '',
				description: `${label} to compare with`,
				displayOptions: { hide: { field: otherField, operator: ['any', ...NO_VALUE_OPERATORS] } },
			},
			{
				displayName: 'Values',
				name: 'value',
				type: 'multiOptions',
				options,
				default: [],
				description: `A record matches when its ${label.toLowerCase()} is any of these`,
				displayOptions: { hide: { field: otherField, operator: [{ _cnd: { not: 'any' } }] } },
			},
		);
	}
	return properties;
}

/**
 * The Conditions parameter for records of one resource type. `name` is the parameter's name (saved
 * workflows depend on it); the Field and Operator defaults (`id`, `equals`) are what saved conditions
 * that do not store them mean.
 */
export function conditionsProperty(
	typeName: ResourceTypeName,
	settings: { name: string; description: string; displayOptions?: IDisplayOptions },
): INodeProperties {
	const type: ResourceTypeSpec = RESOURCE_TYPES[typeName];
	return {
		displayName: 'Conditions',
		name: settings.name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Condition',
		default: {},
		description: settings.description,
		...(settings.displayOptions ? { displayOptions: settings.displayOptions } : {}),
		options: [
			{
				displayName: 'Condition',
				name: 'condition',
				values: [
					{
						displayName: 'Field',
						name: 'field',
						type: 'options',
						options: conditionFieldOptions(type),
						default: 'id',
						description:
							'Field to compare. Choose from the list, or specify a dotted path such as integration.name using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					{
						displayName: 'Operator',
						name: 'operator',
						type: 'options',
						options: FILTER_OPERATORS.map(({ name, value }) => ({ name, value })),
						default: 'equals',
					},
					...valueProperties(type),
				],
			},
		],
	};
}
