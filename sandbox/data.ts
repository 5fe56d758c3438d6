/**
 * `SandboxData`: in-process access to the sandbox's records for tests, plus the record-changing
 * operations shared with the HTTP handlers (contact creation, stamping).
 */
import { isoTimestamp } from './random';
import { TYPES, isHiddenRel } from './schema';
import { FIRST_ID, SeededData, Sizes, seedStore } from './seed';
import type { Rec, Store } from './store';
import type {
	AttributesOf,
	ContactAttributes,
	DealAttributes,
	FixtureIds,
	RelationshipValue,
	SandboxData,
	StoredResource,
} from './types';

/** The shared mutable state behind a sandbox: store, fixtures and clock. */
export class SandboxState {
	seeded: SeededData;
	private readonly clock: () => Date;

	constructor(
		private readonly seed: number,
		private readonly sizes: Sizes,
		now: () => Date,
		private readonly dealIds?: readonly number[],
	) {
		this.seeded = seedStore(seed, sizes, dealIds);
		this.seeded.store.onWrite = (type, id) => this.onWrite?.(type, id);
		this.clock = now;
	}

	/** Told of every record created or updated (the webhooks' hook: server.ts); survives `reset()`. */
	onWrite?: (type: string, id: number) => void;

	get store(): Store {
		return this.seeded.store;
	}

	get ids(): FixtureIds {
		return this.seeded.ids;
	}

	now(): Date {
		return this.clock();
	}

	/** The current clock as a stored timestamp (milliseconds only when the clock has them). */
	stamp(): string {
		return isoTimestamp(this.clock().getTime());
	}

	reset(): void {
		this.seeded = seedStore(this.seed, this.sizes, this.dealIds);
		this.seeded.store.onWrite = (type, id) => this.onWrite?.(type, id);
	}

	/** Adviser resource id for a UserId header value, if it is a known adviser contact id (an adviser-details id). */
	adviserFor(userId: string | undefined): number | undefined {
		return userId === undefined ? undefined : this.seeded.adviserByContactId.get(userId.trim());
	}

	/** "First Last" of an adviser (from its adviser-details record), as a note's writtenBy shows it; null when it has none. */
	adviserName(adviserId: number): string | null {
		const detailsId = this.store.get('advisers', adviserId)?.rels.adviserDetails;
		const details = typeof detailsId === 'number' ? this.store.get('adviser-details', detailsId)?.attributes : undefined;
		const name = [details?.firstName, details?.lastName].filter((part) => typeof part === 'string' && part !== '').join(' ');
		return name === '' ? null : name;
	}

	/**
	 * Creates a contact (API and helper). Without a contact group a new group is created for it,
	 * allocated to `adviserId`. Attributes not given are null (booleans false).
	 */
	createContact(attributes: Record<string, unknown>, contactGroupId: number | null | undefined, adviserId: number): Rec {
		const store = this.store;
		const stamp = this.stamp();
		let groupId = contactGroupId ?? null;
		const newGroup = groupId === null;
		if (groupId === null) {
			groupId = store.table('contact-groups').nextId();
			const last = typeof attributes.lastName === 'string' ? attributes.lastName : null;
			const first = typeof attributes.firstName === 'string' ? attributes.firstName : null;
			store.insert('contact-groups', {
				id: groupId,
				attributes: {
					name: [last, first].filter((s) => s).join(', ') || 'New contact',
					categories: [],
					utmCampaign: null,
					created: stamp,
					updated: stamp,
				},
				rels: { adviser: adviserId },
			});
		}
		const contactAttrs: Record<string, unknown> = {};
		for (const [name, def] of Object.entries(TYPES.contacts.attrs)) {
			if (name === 'created' || name === 'updated') continue;
			contactAttrs[name] = def.kind === 'boolean' ? false : null;
		}
		contactAttrs.isPrimary = newGroup;
		Object.assign(contactAttrs, attributes);
		contactAttrs.created = attributes.created ?? stamp;
		contactAttrs.updated = attributes.updated ?? stamp;
		const rec: Rec = { id: store.table('contacts').nextId(), attributes: contactAttrs, rels: { contactGroup: groupId } };
		store.insert('contacts', rec);
		return rec;
	}

	/** Replaces attributes / relationships of a record (a new object; the old one is untouched). */
	update(type: string, id: number, attributes: Record<string, unknown>, rels: Record<string, Rec['rels'][string]> = {}): Rec {
		const rec = this.store.get(type, id);
		if (!rec) throw new Error(`${type} ${id} does not exist`);
		const next: Rec = { id, attributes: { ...rec.attributes, ...attributes }, rels: { ...rec.rels, ...rels } };
		this.store.put(type, next);
		return next;
	}
}

function toId(id: string | number): number {
	const n = typeof id === 'number' ? id : Number(String(id).trim());
	if (!Number.isInteger(n)) throw new Error(`Invalid id '${id}'`);
	return n;
}

/** A deep copy of a record as `StoredResource`. */
export function storedResource(store: Store, type: string, rec: Rec): StoredResource {
	const def = TYPES[type];
	const all = store.attributes(type, rec);
	const attributes: Record<string, unknown> = {};
	if (def) {
		for (const name of Object.keys(def.attrs)) {
			if (!def.attrs[name].hidden) attributes[name] = all[name] ?? null;
		}
	}
	const relationships: Record<string, RelationshipValue> = {};
	if (def) {
		for (const [name, rel] of Object.entries(def.rels)) {
			if (isHiddenRel(type, name)) continue;
			const value = store.related(type, rec, name);
			relationships[name] = Array.isArray(value)
				? value.map((v) => ({ type: rel.target, id: String(v) }))
				: value === null
					? null
					: { type: rel.target, id: String(value) };
		}
	}
	return JSON.parse(JSON.stringify({ type, id: String(rec.id), attributes, relationships })) as StoredResource;
}

type DealInput = Partial<DealAttributes> & { customStatusId?: string | number | null; adviserId?: string | number };
type ContactInput = Partial<ContactAttributes> & { contactGroupId?: string | number };

export function createSandboxData(state: SandboxState): SandboxData {
	const read = <T extends string>(type: T, id: string | number): StoredResource<AttributesOf<T>> | undefined => {
		const rec = state.store.get(type, toId(id));
		return rec ? (storedResource(state.store, type, rec) as StoredResource<AttributesOf<T>>) : undefined;
	};
	const dealRels = (input: DealInput): Rec['rels'] => {
		const rels: Rec['rels'] = {};
		if (input.customStatusId !== undefined) rels.customStatus = input.customStatusId === null ? null : toId(input.customStatusId);
		if (input.adviserId !== undefined) rels.adviser = toId(input.adviserId);
		return rels;
	};
	const dealAttrs = (input: DealInput): Record<string, unknown> => {
		const { customStatusId: _status, adviserId: _adviser, ...attrs } = input;
		return attrs;
	};
	return {
		get ids() {
			return state.ids;
		},
		types: () => Object.keys(TYPES),
		get: read,
		list: <T extends string>(type: T) =>
			state.store
				.table(type)
				.ids()
				.map((id) => read(type, id))
				.filter((r): r is StoredResource<AttributesOf<T>> => r !== undefined),
		idsOf: (type) => state.store.table(type).ids().map(String),
		count: (type) => state.store.table(type).ids().length,
		createDeal(input = {}) {
			const store = state.store;
			const stamp = state.stamp();
			const id = store.table('deals').nextId();
			const rec: Rec = {
				id,
				attributes: {
					created: stamp,
					updated: stamp,
					totalLoanAmount: null,
					name: 'New deal',
					dealStatus: 'NewLeads',
					lenderName: null,
					dealType: 'Residential',
					...dealAttrs(input),
				},
				rels: { adviser: FIRST_ID.advisers, customStatus: null, contacts: [], ...dealRels(input) },
			};
			store.insert('deals', rec);
			return read('deals', id) as StoredResource<DealAttributes>;
		},
		updateDeal(id, input) {
			const attrs = dealAttrs(input);
			state.update('deals', toId(id), { ...attrs, updated: attrs.updated ?? state.stamp() }, dealRels(input));
			return read('deals', id) as StoredResource<DealAttributes>;
		},
		createContact(input = {}) {
			const { contactGroupId, ...attrs } = input;
			const rec = state.createContact(attrs, contactGroupId === undefined ? null : toId(contactGroupId), FIRST_ID.advisers);
			return read('contacts', rec.id) as StoredResource<ContactAttributes>;
		},
		updateContact(id, input) {
			state.update('contacts', toId(id), { ...input, updated: input.updated ?? state.stamp() });
			return read('contacts', id) as StoredResource<ContactAttributes>;
		},
		deleteDeal: (id) => state.store.remove('deals', toId(id)),
		now: () => state.now(),
		reset: () => state.reset(),
	};
}
