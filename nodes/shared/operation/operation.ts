/**
 * One operation, resolved once from its catalogue row (service/catalogue.ts `OperationSpec`) when
 * the node type is built: every parameter it reads, each with its name, where it sits, its label
 * and how its value is checked, and its role in If Already Exists. The editor's parameters and the
 * tools' arguments are rendered from it (description/), and the run reads parameters and names them
 * in errors from it (execution/); nothing else works out a parameter's path or label.
 */
import type { ParameterName } from '../errors/factory';
import type { WriteFieldHint } from '../errors/hints';
import type { ValueCheck } from '../input/values';
import type { OperationSpec } from '../service/catalogue';
import { displayNameOf, idParameters, idTypeOf, pathParameters, relationshipParameter } from '../service/catalogue';
import type { AttributeSpec, RelationshipSpec } from '../service/schema';
import { RESOURCE_TYPES } from '../service/schema';
import type { NodeVersion } from '../service/versions';
import { NODE_VERSIONS, formAt } from '../service/versions';
import { LOCATORS } from './locatorTypes';

/** An ID parameter of the operation: a path id, or the ID a getById looks up. */
export interface IdParameter {
	/** The parameter's name, e.g. `dealId`. */
	name: string;
	/** Its label in the editor and in messages: "Deal" for a locator (a choice), else "Deal Note ID". */
	label: string;
	/** The resource type the ID identifies. */
	type: string;
	/** What the catalogue row says it identifies (`ids`), if it says. */
	described?: string;
	/** Whether it is a `{name}` of the request path. */
	inPath: boolean;
	/** How the run names it in errors (label and path, for its tool argument). */
	parameter: ParameterName & object;
	check: ValueCheck;
}

/** Where the optional write fields sit: the create's Additional Fields or the update's Update Fields. */
export interface FieldCollection {
	name: 'additionalFields' | 'updateFields';
	label: 'Additional Fields' | 'Update Fields';
}

interface FieldBase {
	/** Attribute or relationship name, as the service and its error pointers name it. */
	name: string;
	/** The parameter's name: the attribute's, `<name>Id` or `<singular name>Ids` for a relationship. */
	parameter: string;
	/** Asked for by its own parameter (true) or offered in the operation's collection. */
	required: boolean;
	/** Optional, yet a parameter of its own (the catalogue row's `featured`): left empty, nothing is sent. */
	featured: boolean;
	/** Where the parameter sits in the node's parameters: `['progress']` or `['updateFields', 'progress']`. */
	path: [string] | [string, string];
	/** The field's own label in the editor: "Progress", "Deal" (a locator), "Contact Group IDs". */
	label: string;
	/** How messages name it: the label, behind its collection for an optional field ("Update Fields → Progress"). */
	parameterName: ParameterName & object;
	/** How its value is checked before anything is sent (input/values.ts `checkValue`). */
	check: ValueCheck;
	/** One of the fields a create looks for an existing record by (If Already Exists). */
	matches: boolean;
	/** What a 422 naming the field should point the user to. */
	hint: WriteFieldHint;
}

/** A write field, resolved against the resource table. */
export type WriteField =
	| (FieldBase & { kind: 'attribute'; attribute: AttributeSpec })
	| (FieldBase & { kind: 'relationship'; relationship: RelationshipSpec });

/** Create → If Already Exists: the fields that identify a record already there. */
export interface MatchRule {
	/** In catalogue order. */
	fields: readonly WriteField[];
	/** "email"; "deal, integration and external reference": the match fields in words, for messages. */
	words: string;
}

/** A catalogue row with everything it reads resolved, as nodes of one version have it. */
export interface Operation extends OperationSpec {
	/** `resource.operation`. */
	key: string;
	/** The node version it is resolved for; `operationAt` gives the row as another version has it. */
	version: NodeVersion;
	/** Every ID parameter: the path ids in path order, then the ID a getById looks up. */
	idParameters: readonly IdParameter[];
	/** Writes: the required fields, then the collection's, each in catalogue order. */
	fields: readonly WriteField[];
	/** Writes: where the optional fields sit (also named when nothing at all is given). */
	collection?: FieldCollection;
	/** Creates with `matchExistingBy`. */
	ifAlreadyExists?: MatchRule;
}

const COLLECTIONS: Record<'create' | 'update', FieldCollection> = {
	create: { name: 'additionalFields', label: 'Additional Fields' },
	update: { name: 'updateFields', label: 'Update Fields' },
};

function idParameter(spec: OperationSpec, name: string): IdParameter {
	const type = idTypeOf(spec, name);
	// A locator holds a choice, not only a number: "Deal", not "Deal ID".
	const label = LOCATORS[type] !== undefined ? displayNameOf(name.replace(/Id$/, '')) : displayNameOf(name);
	return {
		name,
		label,
		type,
		...(spec.ids?.[name] === undefined ? {} : { described: spec.ids[name] }),
		inPath: pathParameters(spec).includes(name),
		parameter: { label, path: [name] },
		check: { kind: 'id' },
	};
}

/** The names of the fields a write can set, by their place: its own parameter, or the collection. */
function fieldNames(spec: OperationSpec): { required: readonly string[]; optional: readonly string[] } {
	const type = RESOURCE_TYPES[spec.type];
	const attributes = type.attributes as Record<string, { writable?: boolean }>;
	const relationships = type.relationships as Record<string, RelationshipSpec>;
	const required = spec.required ?? [];
	const listed =
		spec.optional ??
		[
			...Object.keys(attributes).filter((name) => attributes[name].writable),
			...Object.keys(relationships).filter((name) => relationships[name].writable),
		].filter((name) => !required.includes(name));
	const featured = spec.featured ?? [];
	for (const name of featured) {
		if (!listed.includes(name)) throw new Error(`${spec.resource}.${spec.operation}: featured "${name}" is not an optional field of the operation`);
	}
	// Featured fields first, in their own order; then the collection's.
	return { required, optional: [...featured, ...listed.filter((name) => !featured.includes(name))] };
}

function writeField(spec: OperationSpec, name: string, required: boolean, collection: FieldCollection, version: NodeVersion): WriteField {
	const type = RESOURCE_TYPES[spec.type];
	const table = (type.attributes as Record<string, AttributeSpec | undefined>)[name];
	const attribute = table === undefined ? undefined : formAt(table, version);
	const relationship = (type.relationships as Record<string, RelationshipSpec>)[name];
	const matches = spec.shape === 'create' && (spec.matchExistingBy ?? []).includes(name);
	const featured = !required && (spec.featured ?? []).includes(name);
	const place = (parameter: string, label: string): Pick<FieldBase, 'name' | 'parameter' | 'required' | 'featured' | 'path' | 'label' | 'parameterName' | 'matches'> => {
		const ownParameter = required || featured;
		const path: WriteField['path'] = ownParameter ? [parameter] : [collection.name, parameter];
		return { name, parameter, required, featured, path, label, parameterName: { label: ownParameter ? label : `${collection.label} → ${label}`, path }, matches };
	};
	if (attribute?.writable) {
		const base = place(name, attribute.label ?? displayNameOf(name));
		return { ...base, kind: 'attribute', attribute, check: { kind: 'attribute', attribute }, hint: { name, label: base.parameterName.label, parameterPath: base.path, values: attribute.values } };
	}
	if (relationship?.writable) {
		const parameter = relationshipParameter(name, relationship);
		const many = relationship.toMany === true;
		// One record of a searchable type is picked From List or By ID ("Residential Deal"); any other
		// ID, or a list of IDs, By ID only ("Assignee ID", "Contact Group IDs").
		const base = place(parameter, displayNameOf(!many && LOCATORS[relationship.target] !== undefined ? name : parameter));
		const check: ValueCheck = many ? { kind: 'idList' } : { kind: 'id' };
		return { ...base, kind: 'relationship', relationship, check, hint: { name, label: base.parameterName.label, parameterPath: base.path, values: undefined } };
	}
	throw new Error(`${spec.resource}.${spec.operation}: "${name}" is not a writable field of ${spec.type}`);
}

function matchRule(spec: OperationSpec, fields: readonly WriteField[]): MatchRule | undefined {
	if (spec.shape !== 'create' || spec.matchExistingBy === undefined) return undefined;
	const matched = spec.matchExistingBy.map((name) => {
		const field = fields.find((candidate) => candidate.name === name);
		if (field === undefined) throw new Error(`${spec.resource}.${spec.operation}: matchExistingBy "${name}" is not a write field of the operation`);
		if (field.kind === 'relationship' && field.relationship.toMany) throw new Error(`${spec.resource}.${spec.operation}: matchExistingBy "${name}" is a to-many relationship`);
		return field;
	});
	const words = matched.map((field) => displayNameOf(field.name).toLowerCase());
	return { fields: matched, words: words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}` };
}

/**
 * One catalogue row as nodes of `version` have it (its earlier form, `before`, for an older one),
 * resolved. Throws on a row that names a field the resource cannot write.
 */
function resolveAt(row: OperationSpec, version: NodeVersion): Operation {
	const spec = formAt(row, version);
	const isWrite = spec.shape === 'create' || spec.shape === 'update';
	const collection = isWrite ? COLLECTIONS[spec.shape as 'create' | 'update'] : undefined;
	const names = isWrite ? fieldNames(spec) : { required: [], optional: [] };
	const fields =
		collection === undefined
			? []
			: [
					...names.required.map((name) => writeField(spec, name, true, collection, version)),
					...names.optional.map((name) => writeField(spec, name, false, collection, version)),
				];
	const ifAlreadyExists = matchRule(spec, fields);
	return {
		...spec,
		key: `${spec.resource}.${spec.operation}`,
		version,
		idParameters: idParameters(spec).map((name) => idParameter(spec, name)),
		fields,
		...(collection === undefined ? {} : { collection }),
		...(ifAlreadyExists === undefined ? {} : { ifAlreadyExists }),
	};
}

/** Each resolved operation's forms in every version, oldest first (one object per version). */
const FORMS = new WeakMap<Operation, readonly Operation[]>();

/** One catalogue row, resolved as new nodes have it; `operationAt` gives the older versions' forms. */
export function resolveOperation(row: OperationSpec): Operation {
	const forms = NODE_VERSIONS.map((version) => resolveAt(row, version));
	const newest = forms[forms.length - 1];
	FORMS.set(newest, forms);
	return newest;
}

/**
 * The operation as a node of `typeVersion` has it: the form of the newest version not above it
 * (labels, which fields have their own parameter). Saved nodes of an older version read and show
 * their parameters where that version put them.
 */
export function operationAt(operation: Operation, typeVersion: number): Operation {
	const forms = FORMS.get(operation);
	if (forms === undefined) return operation;
	let found = forms[0];
	for (const form of forms) if (form.version <= typeVersion) found = form;
	return found;
}

/** A node's catalogue, resolved: what its description and its execute are built from. */
export function resolveOperations(specs: readonly OperationSpec[]): readonly Operation[] {
	return specs.map(resolveOperation);
}
