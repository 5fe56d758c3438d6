/**
 * Rendering of JSON:API documents: resource objects, relationship objects (with `data` only
 * when included), compound documents (`included`, deduplicated) and absolute links.
 */
import type { IncludeNode } from './query';
import { DEFAULT_PAGE_SIZE, TYPES, isHiddenRel } from './schema';
import type { Rec, Store } from './store';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Percent-encodes a query component strictly (RFC 3986 unreserved characters only). */
export function encodeComponent(text: string): string {
	return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Builds a link to the same path with page[number] / page[size] replaced (page 1 and the default size left out). */
export function pageLink(origin: string, path: string, pairs: Array<[string, string]>, number: number, size: number): string {
	const kept = pairs.filter(([key]) => key !== 'page[number]' && key !== 'page[size]');
	if (number > 1) kept.push(['page[number]', String(number)]);
	if (size !== DEFAULT_PAGE_SIZE) kept.push(['page[size]', String(size)]);
	const query = kept.map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(v)}`).join('&');
	return `${origin}${path}${query ? `?${query}` : ''}`;
}

/** Attribute values are fresh or immutable and are serialised right away, so no copy is needed. */
function asJson(value: unknown): Json {
	return value === undefined ? null : (value as Json);
}

interface Entry {
	type: string;
	rec: Rec;
	relsWithData: Set<string>;
}

export class DocumentRenderer {
	private readonly entries = new Map<string, Entry>();
	private readonly primaryKeys: string[] = [];
	private readonly includedKeys: string[] = [];

	constructor(
		private readonly store: Store,
		private readonly origin: string,
		private readonly include: IncludeNode,
		private readonly fields: Map<string, Set<string>>,
	) {}

	private entry(type: string, rec: Rec): { key: string; entry: Entry; isNew: boolean } {
		const key = `${type}\u0000${rec.id}`;
		let entry = this.entries.get(key);
		const isNew = !entry;
		if (!entry) {
			entry = { type, rec, relsWithData: new Set() };
			this.entries.set(key, entry);
		}
		return { key, entry, isNew };
	}

	/** Adds primary resources (in order) and walks the include tree from them. */
	addPrimary(type: string, recs: Rec[]): void {
		for (const rec of recs) {
			const { key } = this.entry(type, rec);
			this.primaryKeys.push(key);
		}
		for (const rec of recs) this.walk(type, rec, this.include);
	}

	private walk(type: string, rec: Rec, node: IncludeNode): void {
		const { entry } = this.entry(type, rec);
		const fieldset = this.fields.get(type);
		for (const [relName, child] of node.children) {
			if (fieldset && !fieldset.has(relName)) continue; // cannot be attached
			entry.relsWithData.add(relName);
			const target = TYPES[type].rels[relName].target;
			const value = this.store.related(type, rec, relName);
			const ids = Array.isArray(value) ? value : value === null ? [] : [value];
			for (const id of ids) {
				const targetRec = this.store.get(target, id);
				if (!targetRec) continue;
				const added = this.entry(target, targetRec);
				if (added.isNew) this.includedKeys.push(added.key);
				this.walk(target, targetRec, child);
			}
		}
	}

	resourceSelf(type: string, id: number | string): string {
		return `${this.origin}/jsonapi/${type}/${id}`;
	}

	renderEntry(entry: Entry): { [key: string]: Json } {
		const { type, rec } = entry;
		const def = TYPES[type];
		const fieldset = this.fields.get(type);
		const out: { [key: string]: Json } = { type, id: String(rec.id) };
		const attrNames = Object.keys(def.attrs).filter((n) => !def.attrs[n].hidden && (!fieldset || fieldset.has(n)));
		if (attrNames.length) {
			// A sparse fieldset computes only the attributes it names (a deal's splits and dates are
			// generated on demand, which a trigger's `dealStatus,updated` pages never need).
			const all = fieldset ? undefined : this.store.attributes(type, rec);
			const attributes: { [key: string]: Json } = {};
			for (const name of attrNames) attributes[name] = asJson((all ? all[name] : this.store.attribute(type, rec, name)) ?? null);
			out.attributes = attributes;
		}
		const relNames = Object.keys(def.rels).filter((n) => !isHiddenRel(type, n) && (!fieldset || fieldset.has(n)));
		if (relNames.length) {
			const relationships: { [key: string]: Json } = {};
			for (const name of relNames) {
				const self = this.resourceSelf(type, rec.id);
				const rel: { [key: string]: Json } = { links: { self: `${self}/relationships/${name}`, related: `${self}/${name}` } };
				if (entry.relsWithData.has(name)) {
					const target = def.rels[name].target;
					const value = this.store.related(type, rec, name);
					if (Array.isArray(value)) rel.data = value.map((id) => ({ type: target, id: String(id) }));
					else rel.data = value === null ? null : { type: target, id: String(value) };
				}
				relationships[name] = rel;
			}
			out.relationships = relationships;
		}
		out.links = { self: this.resourceSelf(type, rec.id) };
		return out;
	}

	primaryData(): Array<{ [key: string]: Json }> {
		return this.primaryKeys.map((key) => this.renderEntry(this.entries.get(key) as Entry));
	}

	included(): Array<{ [key: string]: Json }> {
		const primary = new Set(this.primaryKeys);
		return this.includedKeys.filter((k) => !primary.has(k)).map((key) => this.renderEntry(this.entries.get(key) as Entry));
	}
}

export const JSONAPI_MEMBER = { version: '1.1' } as const;
