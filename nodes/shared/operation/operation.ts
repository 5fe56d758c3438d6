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
import type { FactFindList } from '../service/factFind';
import { FACT_FIND_LISTS } from '../service/factFind';
import type { AttributeSpec, RelationshipSpec } from '../service/schema';
import { RESOURCE_TYPES } from '../service/schema';
import type { NodeVersion, VersionFeature } from '../service/versions';
import { NODE_VERSIONS, SINCE, formAt } from '../service/versions';
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
	/** Picked with a locator that has By Name: what the picked record sends (execution/lookups.ts). */
	pick?: PickRule;
}

/** In a PickRule's `sends`: what the pick is known by (the number chosen From List or By ID, or the looked-up record's). */
export const PICK_VALUE = '=value';

/**
 * A picked field (an attribute with `picked`, a relationship to an adviser): the locator's type, and
 * per attribute or relationship it sends, where the value comes from: PICK_VALUE, or an attribute of
 * the picked record. An enquiry source sends `sourceId` (what it is known by) and, with it,
 * `sourceCategoryId` (the record's).
 */
export interface PickRule {
	type: string;
	sends: Readonly<Record<string, string>>;
	/** Sends something besides what the pick is known by: looked up By ID too, not only By Name. */
	needsRecord: boolean;
}

/** Allocate To (`allocates` rows): the adviser the record goes to, sent as the item's UserId header. */
export interface AllocationParameter {
	name: 'allocateTo';
	label: 'Allocate To';
	/** The type picked: the adviser-details, whose id is the AdviserContactId the UserId takes. */
	type: 'adviser-details';
	parameter: ParameterName & object;
	check: ValueCheck;
}

/** Fact Find → Create's two ways of giving the fact find: manual mapping (a fixed collection per list) or one JSON object. */
export const FACT_FIND_MODES = ['manual', 'json'] as const;
export type FactFindMode = (typeof FACT_FIND_MODES)[number];

/** A fact find list's fixed collection, as the editor and messages name it. */
export interface FactFindCollection {
	list: FactFindList;
	/** The fixed collection (`people`) and its entries' key (`person`): `people.person[0].firstName`. */
	parameter: string;
	entryKey: string;
	/** Each entry's name, which other entries pick to link to it. */
	entryName: 'entryName';
	/** The entry's collection of the members not shown on every entry. */
	additionalFields: 'additionalFields';
}

/** The parameters a fact find create reads besides its fields (`factFind` rows). */
export interface FactFindParameters {
	/** Manual mapping unless chosen (the editor's default, description/factFind.ts). */
	mode: { name: 'mode'; label: 'Mode'; default: 'manual' };
	json: ParameterName & { label: 'Fact Find JSON'; path: ['factFind'] };
	collections: readonly FactFindCollection[];
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
	/**
	 * What that version does (service/versions.ts `SINCE`), decided when the row is resolved: the
	 * actions read `features.oneCreateShape`, not the node's version, while they run.
	 */
	features: Readonly<Record<VersionFeature, boolean>>;
	/** Every ID parameter: the path ids in path order, then the ID a getById looks up. */
	idParameters: readonly IdParameter[];
	/** Writes: the required fields, then the collection's, each in catalogue order. */
	fields: readonly WriteField[];
	/** Writes: where the optional fields sit (also named when nothing at all is given). */
	collection?: FieldCollection;
	/** Creates with `matchExistingBy`. */
	ifAlreadyExists?: MatchRule;
	/** Creates with `allocates`. */
	allocation?: AllocationParameter;
	/** Creates with `factFind`: where the fact find is read from. */
	factFindInput?: FactFindParameters;
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

/** The check of a value picked with the locator of `type`: By Name any text, By ID as the type's IDs are. */
function pickCheck(type: string): ValueCheck {
	return LOCATORS[type]?.textId === true ? { kind: 'pick', textId: true } : { kind: 'pick' };
}

/**
 * What a picked attribute sends: itself, from the attribute the pick is known by (or the record's
 * id), and each attribute `sentWith` it, from the record's attribute of the same name.
 */
function pickRule(attributes: Record<string, AttributeSpec>, name: string, type: string): PickRule {
	const locator = LOCATORS[type];
	if (locator?.byName === undefined) throw new Error(`attribute "${name}": picked type "${type}" has no locator with By Name`);
	const sends: Record<string, string> = { [name]: PICK_VALUE };
	for (const [other, spec] of Object.entries(attributes)) if (spec.sentWith === name) sends[other] = other;
	return { type, sends, needsRecord: Object.keys(sends).length > 1 };
}

/** The names of the fields a write can set, by their place: its own parameter, or the collection. */
function fieldNames(spec: OperationSpec): { required: readonly string[]; optional: readonly string[] } {
	const type = RESOURCE_TYPES[spec.type];
	const attributes = type.attributes as Record<string, AttributeSpec>;
	const relationships = type.relationships as Record<string, RelationshipSpec>;
	const required = spec.required ?? [];
	const listed =
		spec.optional ??
		[
			// An attribute sent with a picked one (an enquiry source's category) has no parameter.
			...Object.keys(attributes).filter((name) => attributes[name].writable && attributes[name].sentWith === undefined),
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
	if (attribute?.writable && attribute.picked !== undefined) {
		const base = place(name, attribute.label ?? displayNameOf(name));
		const pick = pickRule(type.attributes as Record<string, AttributeSpec>, name, attribute.picked);
		const names = Object.keys(pick.sends);
		return { ...base, kind: 'attribute', attribute, pick, check: pickCheck(attribute.picked), hint: { name, label: base.parameterName.label, parameterPath: base.path, values: undefined, names } };
	}
	if (attribute?.writable) {
		const base = place(name, attribute.label ?? displayNameOf(name));
		return { ...base, kind: 'attribute', attribute, check: { kind: 'attribute', attribute }, hint: { name, label: base.parameterName.label, parameterPath: base.path, values: attribute.values } };
	}
	if (relationship?.writable) {
		const parameter = relationshipParameter(name, relationship);
		const many = relationship.toMany === true;
		const locator = many ? undefined : LOCATORS[relationship.target];
		// One record of a searchable type is picked From List or By ID ("Residential Deal"); any other
		// ID, or a list of IDs, By ID only ("Contact Group IDs").
		const base = place(parameter, displayNameOf(locator !== undefined && locator.keepsIdLabel !== true ? name : parameter));
		const hint = { name, label: base.parameterName.label, parameterPath: base.path, values: undefined };
		// An adviser is picked By Name or E-mail too: the ID is looked up before the request.
		if (locator?.byName !== undefined) {
			const pick: PickRule = { type: relationship.target, sends: { [name]: PICK_VALUE }, needsRecord: false };
			return { ...base, kind: 'relationship', relationship, pick, check: pickCheck(relationship.target), hint };
		}
		const check: ValueCheck = many ? { kind: 'idList' } : { kind: 'id' };
		return { ...base, kind: 'relationship', relationship, check, hint };
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
	if (spec.allocates === true && spec.shape !== 'create') throw new Error(`${spec.resource}.${spec.operation}: only a create allocates its record`);
	const allocation: AllocationParameter | undefined =
		spec.allocates === true
			? { name: 'allocateTo', label: 'Allocate To', type: 'adviser-details', parameter: { label: 'Allocate To', path: ['allocateTo'] }, check: pickCheck('adviser-details') }
			: undefined;
	if (spec.factFind === true && spec.shape !== 'create') throw new Error(`${spec.resource}.${spec.operation}: only a create sends a fact find`);
	const factFindInput: FactFindParameters | undefined =
		spec.factFind === true
			? {
					mode: { name: 'mode', label: 'Mode', default: 'manual' },
					json: { label: 'Fact Find JSON', path: ['factFind'] },
					collections: FACT_FIND_LISTS.map((list) => ({ list, parameter: list.parameter, entryKey: list.entryKey, entryName: 'entryName', additionalFields: 'additionalFields' })),
				}
			: undefined;
	return {
		...spec,
		key: `${spec.resource}.${spec.operation}`,
		version,
		features: Object.fromEntries(Object.entries(SINCE).map(([feature, since]) => [feature, version >= since])) as Record<VersionFeature, boolean>,
		idParameters: idParameters(spec).map((name) => idParameter(spec, name)),
		fields,
		...(collection === undefined ? {} : { collection }),
		...(ifAlreadyExists === undefined ? {} : { ifAlreadyExists }),
		...(allocation === undefined ? {} : { allocation }),
		...(factFindInput === undefined ? {} : { factFindInput }),
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
