/**
 * The shape of an operation catalogue entry. Each node lists its operations as data of this shape;
 * operation/operation.ts resolves each row once against the resource tables, and the parameters,
 * the request and the output all follow from that.
 */
import type { IDisplayOptions } from 'n8n-workflow';

import type { RelationshipSpec, ResourceTypeName } from './schema';
import type { EarlierForms, VersionFeature } from './versions';

/** The handful of request shapes the service's endpoints come in. */
export type Shape = 'getMany' | 'getRelatedMany' | 'get' | 'getById' | 'create' | 'update' | 'delete';

export interface OperationSpec {
	resource: string;
	operation: string;
	/** Operation name in the dropdown, e.g. "Get Many". */
	name: string;
	/** The action line shown in the node panel and to AI agents, e.g. "Get many deals". */
	action: string;
	/** What the operation does, written for a person choosing it and for an AI agent's tool list. */
	description: string;
	/**
	 * What the operation does as an agent's tool of node version 1.1, when `description` promises
	 * what only the workflow's author can set (related records: Include is not a tool argument).
	 */
	agentDescription?: string;
	shape: Shape;
	/** Path below /jsonapi; `{name}` is a path id parameter of that name. */
	path: string;
	/** Resource type of the result (reads) or of the request document (writes). */
	type: ResourceTypeName;
	/** What each ID parameter (path ids and `idParameter`) identifies, for its description. */
	ids?: Record<string, string>;
	/** getById: the parameter whose ID is looked up in the collection at `path` (`filter=equals(id,…)`). */
	idParameter?: string;
	/** Writes: attributes or relationships asked for by their own required parameters. */
	required?: readonly string[];
	/** Writes: what the Update Fields / Additional Fields collection offers; default every writable one not required. */
	optional?: readonly string[];
	/**
	 * Creates: the write fields that identify a record already there (attributes compared as the
	 * service compares them, to-one relationships by ID). With them the create offers If Already
	 * Exists: look for the record first (a search of the collection at `path`), create only when it
	 * is not there. An item missing one of these values is created without a search.
	 */
	matchExistingBy?: readonly string[];
	/**
	 * Creates with `matchExistingBy` whose records are not found by searching the collection at
	 * `path` (the service has no such search, e.g. leads): where and how to look instead.
	 */
	matchLookup?: MatchLookup;
	/**
	 * Writes: optional fields (of `optional`) that get a parameter of their own above the Additional
	 * Fields collection, for what a user maps every time (a lead's name and e-mail). Left empty,
	 * nothing is sent for them, as in the collection.
	 */
	featured?: readonly string[];
	/** Creates: the output item also carries the record's id under this name (a lead's id is its deal's id: `dealId`). */
	idAlias?: string;
	/** Writes as a version 1.1 tool: the fields the model fills (default: every write field). */
	agentFields?: readonly string[];
	/**
	 * Creates whose record goes to an adviser (a lead): Allocate To (`allocateTo`), an adviser of the
	 * organisation picked like every adviser (From List, By ID, By Name or E-mail), sent as the item's
	 * UserId header; empty, the node's adviser (Request Options → User ID, else the credential's).
	 */
	allocates?: true;
	/**
	 * Creates of a whole fact find (POST /structured-leads): besides the row's fields, the lists of
	 * service/factFind.ts, given by manual mapping (a fixed collection per list, entries linked by
	 * their names) or as one JSON object, checked before the request; the output lists the deal's
	 * contacts by the names the fact find gave them.
	 */
	factFind?: true;
	/** The resource's name in the Resource list when its key does not say it (`structuredLead`: "Fact Find"). */
	resourceName?: string;
	/**
	 * What the first node version that has the operation brought (service/versions.ts `SINCE`);
	 * older versions neither list nor run it. Without it, every version.
	 */
	since?: VersionFeature;
	/**
	 * What the row was before a version changed it, by that version's key: nodes of older versions
	 * (saved workflows) keep it. `{ v1_2: { featured: [] } }`: before 1.2 no field had its own
	 * parameter. The row itself is the newest version's, so a new row has the newest behaviour.
	 */
	before?: EarlierForms<Pick<OperationSpec, 'featured'>>;
}

/**
 * If Already Exists through another collection: the records that identify the one to return (a
 * deal external reference by integration name and reference), searched at `path` with each match
 * field filtered on the path `filterBy` names, the record itself read from the to-one
 * relationship `record` (included in the same request).
 */
export interface MatchLookup {
	path: string;
	/** The resource type of the searched collection (for messages). */
	type: string;
	/** Per match field, the field or dotted path of the searched type to filter on. */
	filterBy: Record<string, string>;
	/** The to-one relationship of the searched type that is the existing record, included in the search. */
	record: string;
	/** The resource type of that record (a lead's: the deal it became). */
	recordType: ResourceTypeName;
}

/**
 * Custom Request: any endpoint below /jsonapi, for what the operations above do not cover (the
 * service's public API description lists many more endpoints). One entry, listed by every action
 * node after its own operations; its method, path, query and body are parameters.
 */
export interface CustomRequestSpec extends Pick<OperationSpec, 'resource' | 'operation' | 'name' | 'action' | 'description'> {
	shape: 'custom';
	/** The resource's description in the Resource list. */
	resourceDescription: string;
}

export const CUSTOM_REQUEST: CustomRequestSpec = {
	resource: 'customRequest',
	operation: 'send',
	name: 'Send',
	action: 'Send a custom request',
	description: 'Send a request to any Loan CRM endpoint below /jsonapi, with this node\'s token handling, paging, errors and safe retries',
	shape: 'custom',
	// The one custom entry of the lists (n8n's own Custom API Call is not added: actionNode.ts), so it
	// says what it is for and where the other route is.
	resourceDescription:
		"Any other Loan CRM endpoint below /jsonapi (lookups, advisers, more lead fields, …), sent by this node: paged, its errors explained, a write sent once. For a raw call, n8n's HTTP Request node takes this credential too",
};

/** An entry of a node's operation list: one of its operations, or Custom Request. */
export type CatalogueEntry = OperationSpec | CustomRequestSpec;

/** The parameter values n8n's editor saves when "Custom API Call" (its pointer to the HTTP Request node) is chosen. */
export const N8N_CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

/**
 * A node's starting resource and each resource's starting operation, stated rather than taken from
 * the first entry of a table: n8n does not store a parameter equal to its default, so saved
 * workflows depend on these values and reordering the catalogue must not change them.
 */
export interface CatalogueDefaults {
	resource: string;
	/** For every resource of the node. */
	operations: Record<string, string>;
}

/**
 * Create → If Already Exists, for operations with `matchExistingBy`: what happens when the record is
 * already there. The values are public contract (saved workflows); `createAnother` is the default
 * and today's behaviour: no search.
 */
export const IF_EXISTS_PARAMETER = 'ifAlreadyExists';
/** Its label in the editor, of which a version 1.1 tool's argument key is made (`If_Already_Exists`). */
export const IF_EXISTS_DISPLAY_NAME = 'If Already Exists';
export const IF_EXISTS_VALUES = ['createAnother', 'returnExisting', 'stopWithError'] as const;
export type IfExists = (typeof IF_EXISTS_VALUES)[number];
export const IF_EXISTS_DEFAULT: IfExists = 'createAnother';

/**
 * Output members of a create that looked first: `outcome` is `created` or `found` (for an IF node),
 * `matchCount` on a found record says how many records matched (the oldest, lowest ID, is returned).
 */
export const OUTCOME_FIELD = 'outcome';
export const MATCH_COUNT_FIELD = 'matchCount';
/** From node version 1.2, on an item that could not look first (a match field empty): which, in words. */
export const NOT_SEARCHED_FIELD = 'notSearched';

export const HTTP_METHOD = {
	getMany: 'GET',
	getRelatedMany: 'GET',
	get: 'GET',
	getById: 'GET',
	create: 'POST',
	update: 'PATCH',
	delete: 'DELETE',
} as const satisfies Record<Shape, string>;

export function showFor(spec: Pick<CatalogueEntry, 'resource' | 'operation'>, extra: IDisplayOptions['show'] = {}): IDisplayOptions {
	return { show: { resource: [spec.resource], operation: [spec.operation], ...extra } };
}

const ACRONYMS: Record<string, string> = { Id: 'ID', Ids: 'IDs', Lmi: 'LMI', Url: 'URL', Utm: 'UTM' };

/** `loanStructureType` → "Loan Structure Type", `assigneeId` → "Assignee ID". */
export function displayNameOf(name: string): string {
	return name
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.split(/[\s-]+/)
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.map((word) => ACRONYMS[word] ?? word)
		.join(' ');
}

/** The path id parameters of an operation, in path order. */
export function pathParameters(spec: OperationSpec): string[] {
	return [...spec.path.matchAll(/\{([A-Za-z]+)\}/g)].map((match) => match[1]);
}

/** Every ID parameter of an operation: the path ids, then the ID a getById looks up. */
export function idParameters(spec: OperationSpec): string[] {
	return spec.idParameter === undefined ? pathParameters(spec) : [...pathParameters(spec), spec.idParameter];
}

/**
 * The resource type an ID parameter identifies: the path segment before `{name}`
 * (`/deals/{dealId}/dealNotes` → deals), or the operation's own type for a getById.
 */
export function idTypeOf(spec: OperationSpec, name: string): string {
	if (name === spec.idParameter) return spec.type;
	const segments = spec.path.split('/');
	const index = segments.indexOf(`{${name}}`);
	return index > 0 ? segments[index - 1] : spec.type;
}

/** A relationship is set through `<name>Id` (to-one) or `<singular name>Ids` (to-many, comma-separated): `contactGroups` → `contactGroupIds`. */
export function relationshipParameter(name: string, relationship: RelationshipSpec): string {
	return relationship.toMany ? `${name.replace(/s$/, '')}Ids` : `${name}Id`;
}
