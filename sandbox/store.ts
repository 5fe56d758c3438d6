/**
 * In-memory record storage. Small tables are plain maps; deal structures and deal notes (which
 * grow with the deal count) are generated on demand from the seed and only the changed records
 * are stored. Every table keeps its live ids in ascending order so id-ordered paging and keyset
 * paging are a binary search plus a slice.
 */
import { TYPES } from './schema';

export type RelValue = number | null | number[];

/** A stored record. `attributes` holds the stored attributes (lazy ones are added by the store). */
export interface Rec {
	id: number;
	attributes: Record<string, unknown>;
	rels: Record<string, RelValue>;
}

export interface Table {
	readonly type: string;
	/** Live ids in ascending order. Do not mutate. */
	ids(): readonly number[];
	get(id: number): Rec | undefined;
	/** Replaces an existing record. */
	put(rec: Rec): void;
	/** Adds a record whose id is above every id in the table. */
	insert(rec: Rec): void;
	remove(id: number): boolean;
	nextId(): number;
	/** For tables whose records belong to a parent record: the ids of the children of `parentId`. */
	childrenOf?(parentId: number): number[];
	readonly parentRel?: string;
}

/** Binary search: the index of the first element >= value. */
export function lowerBound(sorted: ArrayLike<number>, value: number): number {
	let lo = 0;
	let hi = sorted.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (sorted[mid] < value) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/** Binary search: the index of the first element > value. */
export function upperBound(sorted: ArrayLike<number>, value: number): number {
	let lo = 0;
	let hi = sorted.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (sorted[mid] <= value) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

function removeSorted(sorted: number[], value: number): boolean {
	const index = lowerBound(sorted, value);
	if (sorted[index] !== value) return false;
	sorted.splice(index, 1);
	return true;
}

/** A table holding every record, in an array indexed by `id - firstId` (ids only grow). */
export class MapTable implements Table {
	private readonly slots: Array<Rec | undefined> = [];
	private readonly sortedIds: number[] = [];

	constructor(
		readonly type: string,
		private readonly firstId: number,
	) {}

	ids(): readonly number[] {
		return this.sortedIds;
	}

	get(id: number): Rec | undefined {
		const index = id - this.firstId;
		return index >= 0 && index < this.slots.length && Number.isInteger(index) ? this.slots[index] : undefined;
	}

	put(rec: Rec): void {
		if (!this.get(rec.id)) throw new Error(`${this.type} ${rec.id} does not exist`);
		this.slots[rec.id - this.firstId] = rec;
	}

	insert(rec: Rec): void {
		const last = this.sortedIds[this.sortedIds.length - 1];
		if (last !== undefined && rec.id <= last) throw new Error(`${this.type} ids must grow (${rec.id} <= ${last})`);
		if (rec.id < this.firstId || !Number.isInteger(rec.id)) throw new Error(`${this.type} ids start at ${this.firstId}`);
		const index = rec.id - this.firstId;
		while (this.slots.length < index) this.slots.push(undefined);
		this.slots[index] = rec;
		this.sortedIds.push(rec.id);
	}

	remove(id: number): boolean {
		if (!this.get(id)) return false;
		this.slots[id - this.firstId] = undefined;
		removeSorted(this.sortedIds, id);
		return true;
	}

	nextId(): number {
		const last = this.sortedIds[this.sortedIds.length - 1];
		return last === undefined ? this.firstId : Math.max(last + 1, this.firstId);
	}
}

/**
 * A table whose first `total` records (ids `firstId …`) are generated on demand by a pure
 * function; only changed, created and deleted records are stored.
 */
export class GeneratedTable implements Table {
	protected readonly overrides = new Map<number, Rec>();
	protected readonly deleted = new Set<number>();
	protected readonly extra = new Map<number, Rec>();
	protected readonly sortedIds: number[];

	constructor(
		readonly type: string,
		protected readonly firstId: number,
		protected readonly total: number,
		private readonly generateById: (id: number) => Rec | undefined,
	) {
		this.sortedIds = new Array<number>(total);
		for (let i = 0; i < total; i++) this.sortedIds[i] = firstId + i;
	}

	ids(): readonly number[] {
		return this.sortedIds;
	}

	protected isGenerated(id: number): boolean {
		const offset = id - this.firstId;
		return Number.isInteger(offset) && offset >= 0 && offset < this.total;
	}

	get(id: number): Rec | undefined {
		if (this.deleted.has(id)) return undefined;
		const changed = this.overrides.get(id) ?? this.extra.get(id);
		if (changed) return changed;
		return this.isGenerated(id) ? this.generateById(id) : undefined;
	}

	put(rec: Rec): void {
		if (this.extra.has(rec.id)) this.extra.set(rec.id, rec);
		else if (this.get(rec.id)) this.overrides.set(rec.id, rec);
		else throw new Error(`${this.type} ${rec.id} does not exist`);
	}

	insert(rec: Rec): void {
		const last = this.sortedIds[this.sortedIds.length - 1];
		if ((last !== undefined && rec.id <= last) || rec.id < this.firstId + this.total) throw new Error(`${this.type} ids must grow`);
		this.extra.set(rec.id, rec);
		this.sortedIds.push(rec.id);
	}

	remove(id: number): boolean {
		if (!this.get(id)) return false;
		if (this.extra.has(id)) this.extra.delete(id);
		else {
			this.deleted.add(id);
			this.overrides.delete(id);
		}
		removeSorted(this.sortedIds, id);
		return true;
	}

	nextId(): number {
		const last = this.sortedIds[this.sortedIds.length - 1];
		return Math.max(last === undefined ? this.firstId : last + 1, this.firstId + this.total);
	}

	/** At seeding: keeps only the records `keep` accepts, as if the others had been deleted before the start. */
	retain(keep: (id: number) => boolean): void {
		let kept = 0;
		for (const id of this.sortedIds) {
			if (keep(id)) this.sortedIds[kept++] = id;
			else this.deleted.add(id);
		}
		this.sortedIds.length = kept;
	}
}

/**
 * A generated table of child records of deals (structures, notes, external references).
 * Children of the base deal at index i occupy the ids `firstId + start[i] … firstId + start[i+1] - 1`.
 */
export class ChildTable extends GeneratedTable {
	private readonly extraByParent = new Map<number, number[]>();

	constructor(
		type: string,
		readonly parentRel: string,
		firstId: number,
		private readonly parentFirstId: number,
		/** Prefix offsets: start[i] is the first child offset of base parent i; length = parents + 1. */
		private readonly start: Int32Array,
		generate: (id: number, parentId: number, index: number, offset: number) => Rec,
	) {
		super(type, firstId, start[start.length - 1], (id) => {
			const offset = id - firstId;
			const parentIndex = upperBound(start, offset) - 1;
			return generate(id, parentFirstId + parentIndex, offset - start[parentIndex], offset);
		});
	}

	insert(rec: Rec): void {
		super.insert(rec);
		const parent = rec.rels[this.parentRel];
		if (typeof parent === 'number') {
			const list = this.extraByParent.get(parent) ?? [];
			list.push(rec.id);
			this.extraByParent.set(parent, list);
		}
	}

	remove(id: number): boolean {
		const extra = this.extra.get(id);
		const removed = super.remove(id);
		const parent = extra?.rels[this.parentRel];
		if (removed && typeof parent === 'number') {
			const list = this.extraByParent.get(parent);
			if (list) removeSorted(list, id);
		}
		return removed;
	}

	/** The parent of a generated child (undefined for a child created later). */
	parentOf(id: number): number | undefined {
		if (!this.isGenerated(id)) return undefined;
		return this.parentFirstId + upperBound(this.start, id - this.firstId) - 1;
	}

	childrenOf(parentId: number): number[] {
		const out: number[] = [];
		const parentIndex = parentId - this.parentFirstId;
		if (Number.isInteger(parentIndex) && parentIndex >= 0 && parentIndex < this.start.length - 1) {
			for (let o = this.start[parentIndex]; o < this.start[parentIndex + 1]; o++) {
				const id = this.firstId + o;
				if (!this.deleted.has(id)) out.push(id);
			}
		}
		const extra = this.extraByParent.get(parentId);
		if (extra) out.push(...extra);
		return out;
	}
}

/** A read-only view of another table (leads are a view of deals: the lead id is the deal id). */
export class ViewTable implements Table {
	constructor(
		readonly type: string,
		private readonly source: Table,
		private readonly project: (rec: Rec) => Rec,
	) {}

	ids(): readonly number[] {
		return this.source.ids();
	}

	get(id: number): Rec | undefined {
		const rec = this.source.get(id);
		return rec ? this.project(rec) : undefined;
	}

	put(): void {
		throw new Error(`${this.type} is read-only`);
	}

	insert(): void {
		throw new Error(`${this.type} is read-only`);
	}

	remove(): boolean {
		return false;
	}

	nextId(): number {
		return this.source.nextId();
	}
}

/** Lazily computed attributes of a type (for example a deal's `dates`, `opportunity`, `splits`). */
export type LazyAttributes = Record<string, (rec: Rec) => unknown>;

export class Store {
	readonly tables = new Map<string, Table>();
	readonly materializers = new Map<string, LazyAttributes>();
	private readonly inverseIndexes = new Map<string, Map<number, number[]>>();
	/** Bumped by every write, so anything derived from the records can tell it is stale. */
	private revision = 0;
	private readonly memos = new Map<string, { revision: number; value: unknown }>();

	/** `build()`'s value, kept until the next write to any table (lazy attributes read other tables). */
	memo<T>(key: string, build: () => T): T {
		const kept = this.memos.get(key);
		if (kept !== undefined && kept.revision === this.revision) return kept.value as T;
		const value = build();
		this.memos.set(key, { revision: this.revision, value });
		return value;
	}

	addTable(table: Table): void {
		this.tables.set(table.type, table);
	}

	table(type: string): Table {
		let table = this.tables.get(type);
		if (!table) {
			// types without records (relationship targets only)
			table = new MapTable(type, 1);
			this.tables.set(type, table);
		}
		return table;
	}

	get(type: string, id: number): Rec | undefined {
		return this.table(type).get(id);
	}

	/** All attributes of a record, including lazily computed ones (a fresh object). */
	attributes(type: string, rec: Rec): Record<string, unknown> {
		const lazy = this.materializers.get(type);
		const out: Record<string, unknown> = { ...rec.attributes };
		if (lazy) {
			for (const [name, compute] of Object.entries(lazy)) {
				if (!(name in out)) out[name] = compute(rec);
			}
		}
		return out;
	}

	/** One attribute value, computing a lazy attribute only when asked for. */
	attribute(type: string, rec: Rec, name: string): unknown {
		if (name in rec.attributes) return rec.attributes[name];
		const compute = this.materializers.get(type)?.[name];
		return compute ? compute(rec) : null;
	}

	/** The value of a relationship: target id or null for to-one, ascending ids for to-many. */
	related(type: string, rec: Rec, rel: string): RelValue {
		const def = TYPES[type]?.rels[rel];
		if (!def) return null;
		if (def.inverse) return this.inverse(def.inverse.type, def.inverse.rel, rec.id);
		const value = rec.rels[rel];
		if (value === undefined) return def.toMany ? [] : null;
		return value;
	}

	/** Ids of records of `sourceType` whose to-one `sourceRel` points at `targetId`. */
	inverse(sourceType: string, sourceRel: string, targetId: number): number[] {
		const table = this.table(sourceType);
		if (table.childrenOf && table.parentRel === sourceRel) return table.childrenOf(targetId);
		const key = `${sourceType}\u0000${sourceRel}`;
		let index = this.inverseIndexes.get(key);
		if (!index) {
			index = new Map();
			for (const id of table.ids()) {
				const target = table.get(id)?.rels[sourceRel];
				if (typeof target !== 'number') continue;
				const list = index.get(target);
				if (list) list.push(id);
				else index.set(target, [id]);
			}
			this.inverseIndexes.set(key, index);
		}
		return (index.get(targetId) ?? []).slice();
	}

	/** Call after any write to a table so inverse indexes over it (and every memo) are rebuilt. */
	touched(type: string): void {
		this.revision += 1;
		for (const key of [...this.inverseIndexes.keys()]) {
			if (key.startsWith(`${type}\u0000`)) this.inverseIndexes.delete(key);
		}
	}

	/** Told of every record created or updated after seeding (the service's webhooks: webhooks.ts). */
	onWrite?: (type: string, id: number) => void;

	put(type: string, rec: Rec): void {
		this.table(type).put(rec);
		this.touched(type);
		this.onWrite?.(type, rec.id);
	}

	insert(type: string, rec: Rec): void {
		this.table(type).insert(rec);
		this.touched(type);
		this.onWrite?.(type, rec.id);
	}

	remove(type: string, id: number): boolean {
		const removed = this.table(type).remove(id);
		if (removed) this.touched(type);
		return removed;
	}
}
