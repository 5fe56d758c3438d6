/**
 * The JsonApiDotNetCore filter language: a tokenizer, a recursive-descent parser and an
 * evaluator over the store.
 *
 *   filter      := comparison | textMatch | any | has | not | logical
 *   comparison  := (equals|lessThan|lessOrEqual|greaterThan|greaterOrEqual) '(' left ',' right ')'
 *   left        := fieldChain | count
 *   right       := 'quoted literal' | null | fieldChain | count
 *   textMatch   := (contains|startsWith|endsWith) '(' stringFieldChain ',' 'literal' ')'
 *   any         := any '(' fieldChain (',' 'literal')+ ')'
 *   has         := has '(' toManyChain [',' filter] ')'
 *   count       := count '(' toManyChain ')'
 *   not         := not '(' filter ')'
 *   logical     := (and|or) '(' filter (',' filter)+ ')'
 *
 * A field chain is zero or more to-one relationships followed by an attribute (or `id`), joined
 * with dots. Literals are single-quoted; a quote inside is doubled. Whitespace outside quotes is
 * an error. Positions in errors are 1-based.
 *
 * Semantics: literals are converted to the attribute's type (numbers, booleans, enums, dates and
 * timestamps compared as instants; a date-only literal on a timestamp means midnight UTC);
 * text comparisons are case-insensitive (SQL Server's default collation); comparisons with null
 * are false except `equals(x,null)`; `not` is plain negation (C# null semantics, as EF Core).
 */
import { ParseError } from './errors';
import { AttrDef, TYPES, isHiddenRel } from './schema';
import type { Rec, Store } from './store';

// ---------------------------------------------------------------------------------------------
// Tokenizer
// ---------------------------------------------------------------------------------------------

export interface Token {
	kind: 'open' | 'close' | 'comma' | 'quoted' | 'text';
	value: string;
	/** 1-based position of the token's first character. */
	pos: number;
}

export function tokenize(text: string): Token[] {
	const tokens: Token[] = [];
	let i = 0;
	while (i < text.length) {
		const ch = text[i];
		if (/\s/.test(ch)) throw new ParseError('Unexpected whitespace.', i + 1);
		if (ch === '(' || ch === ')' || ch === ',') {
			tokens.push({ kind: ch === '(' ? 'open' : ch === ')' ? 'close' : 'comma', value: ch, pos: i + 1 });
			i++;
			continue;
		}
		if (ch === "'") {
			const start = i;
			let value = '';
			i++;
			for (;;) {
				if (i >= text.length) throw new ParseError("' expected.", text.length + 1);
				if (text[i] === "'") {
					if (text[i + 1] === "'") {
						value += "'";
						i += 2;
						continue;
					}
					i++;
					break;
				}
				value += text[i];
				i++;
			}
			tokens.push({ kind: 'quoted', value, pos: start + 1 });
			continue;
		}
		const start = i;
		while (i < text.length && !/[\s(),']/.test(text[i])) i++;
		tokens.push({ kind: 'text', value: text.slice(start, i), pos: start + 1 });
	}
	return tokens;
}

// ---------------------------------------------------------------------------------------------
// Field chains
// ---------------------------------------------------------------------------------------------

export type FieldDef = AttrDef | { kind: 'id'; clrType: 'Int32' };
const ID_DEF: FieldDef = { kind: 'id', clrType: 'Int32' };

/** A path of to-one relationships ending in an attribute. */
export interface AttrChain {
	kind: 'attr';
	/** Relationships to follow, each with the type it starts from. */
	hops: Array<{ type: string; rel: string }>;
	/** Type owning the attribute. */
	type: string;
	attr: string;
	def: FieldDef;
	text: string;
}

/** A path of to-one relationships ending in a to-many relationship. */
export interface ToManyChain {
	kind: 'toMany';
	hops: Array<{ type: string; rel: string }>;
	/** The final to-many relationship. */
	last: { type: string; rel: string };
	target: string;
	text: string;
}

function segmentsOf(text: string, pos: number): Array<{ name: string; pos: number }> {
	const out: Array<{ name: string; pos: number }> = [];
	let offset = 0;
	for (const name of text.split('.')) {
		out.push({ name, pos: pos + offset });
		offset += name.length + 1;
	}
	return out;
}

function fieldExists(type: string, name: string): boolean {
	const def = TYPES[type];
	return name === 'id' || (!!def && ((name in def.attrs && !def.attrs[name].hidden) || (name in def.rels && !isHiddenRel(type, name))));
}

function followToOne(type: string, name: string, pos: number): string {
	const def = TYPES[type];
	const rel = def?.rels[name];
	if (!rel || isHiddenRel(type, name)) {
		if (fieldExists(type, name)) throw new ParseError(`Field '${name}' on resource type '${type}' is not a to-one relationship.`, pos);
		throw new ParseError(`Field '${name}' does not exist on resource type '${type}'.`, pos);
	}
	if (rel.toMany) throw new ParseError(`Field '${name}' on resource type '${type}' is a to-many relationship; a to-one relationship or an attribute is expected.`, pos);
	return rel.target;
}

/** Resolves `rel.rel.attr` from `type`. `usage` words the error for object attributes. */
export function resolveAttrChain(type: string, text: string, pos: number, usage: 'Filtering' | 'Sorting'): AttrChain {
	if (text === '') throw new ParseError('Field name expected.', pos);
	const segments = segmentsOf(text, pos);
	const hops: Array<{ type: string; rel: string }> = [];
	let current = type;
	for (const segment of segments.slice(0, -1)) {
		if (segment.name === '') throw new ParseError('Field name expected.', segment.pos);
		const next = followToOne(current, segment.name, segment.pos);
		hops.push({ type: current, rel: segment.name });
		current = next;
	}
	const last = segments[segments.length - 1];
	if (last.name === '') throw new ParseError('Field name expected.', last.pos);
	if (last.name === 'id') return { kind: 'attr', hops, type: current, attr: 'id', def: ID_DEF, text };
	const attr = TYPES[current]?.attrs[last.name];
	if (!attr || attr.hidden) {
		if (fieldExists(current, last.name)) throw new ParseError(`Field '${last.name}' on resource type '${current}' is a relationship; an attribute is expected.`, last.pos);
		throw new ParseError(`Field '${last.name}' does not exist on resource type '${current}'.`, last.pos);
	}
	if (attr.kind === 'object' || attr.kind === 'array') throw new ParseError(`${usage} on attribute '${last.name}' is not allowed.`, last.pos);
	return { kind: 'attr', hops, type: current, attr: last.name, def: attr, text };
}

export function resolveToManyChain(type: string, text: string, pos: number): ToManyChain {
	if (text === '') throw new ParseError('Relationship name expected.', pos);
	const segments = segmentsOf(text, pos);
	const hops: Array<{ type: string; rel: string }> = [];
	let current = type;
	for (const segment of segments.slice(0, -1)) {
		const next = followToOne(current, segment.name, segment.pos);
		hops.push({ type: current, rel: segment.name });
		current = next;
	}
	const last = segments[segments.length - 1];
	const rel = TYPES[current]?.rels[last.name];
	if (!rel || isHiddenRel(current, last.name)) {
		if (fieldExists(current, last.name)) throw new ParseError(`Field '${last.name}' on resource type '${current}' is not a to-many relationship.`, last.pos);
		throw new ParseError(`Field '${last.name}' does not exist on resource type '${current}'.`, last.pos);
	}
	if (!rel.toMany) throw new ParseError(`Field '${last.name}' on resource type '${current}' is not a to-many relationship.`, last.pos);
	return { kind: 'toMany', hops, last: { type: current, rel: last.name }, target: rel.target, text };
}

// ---------------------------------------------------------------------------------------------
// Literal conversion
// ---------------------------------------------------------------------------------------------

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Epoch ms of a valid `YYYY-MM-DD`, or undefined. */
export function parseDate(text: string): number | undefined {
	const m = DATE_RE.exec(text);
	if (!m) return undefined;
	const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
	return isoDay(ms) === text ? ms : undefined;
}

function isoDay(ms: number): string {
	return Number.isNaN(ms) ? '' : new Date(ms).toISOString().slice(0, 10);
}

/** Epoch ms of an ISO 8601 date or date-time (no offset = UTC), or undefined. */
export function parseTimestamp(text: string): number | undefined {
	const m = TIMESTAMP_RE.exec(text);
	if (!m) return undefined;
	const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone] = m;
	if (parseDate(`${y}-${mo}-${d}`) === undefined) return undefined;
	if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
	let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(frac.padEnd(3, '0').slice(0, 3)));
	if (zone && zone.toUpperCase() !== 'Z') {
		const sign = zone[0] === '-' ? -1 : 1;
		const digits = zone.slice(1).replace(':', '');
		const hours = Number(digits.slice(0, 2));
		const minutes = Number(digits.slice(2, 4));
		if (hours > 14 || minutes > 59) return undefined;
		ms -= sign * (hours * 60 + minutes) * 60_000;
	}
	return ms;
}

export type Scalar = string | number | boolean | null;

/** Converts a literal to the comparable value of the field's type. */
export function convertLiteral(def: FieldDef, text: string, pos: number): Scalar {
	const fail = (): never => {
		throw new ParseError(`Failed to convert '${text}' of type 'String' to type '${def.clrType ?? 'String'}'.`, pos);
	};
	switch (def.kind) {
		case 'id':
		case 'integer': {
			if (!/^[+-]?\d+$/.test(text)) return fail();
			const n = Number(text);
			if (n > 2147483647 || n < -2147483648) return fail();
			return n;
		}
		case 'number': {
			if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(text)) return fail();
			return Number(text);
		}
		case 'boolean': {
			const lower = text.toLowerCase();
			if (lower !== 'true' && lower !== 'false') return fail();
			return lower === 'true';
		}
		case 'date':
			return parseDate(text) ?? fail();
		case 'timestamp':
			return parseTimestamp(text) ?? fail();
		case 'enum': {
			const match = def.values?.find((v) => v.toLowerCase() === text.toLowerCase());
			return match ?? fail();
		}
		default:
			return text;
	}
}

// ---------------------------------------------------------------------------------------------
// AST and parser
// ---------------------------------------------------------------------------------------------

export type Operand =
	| { kind: 'field'; chain: AttrChain }
	| { kind: 'count'; chain: ToManyChain }
	| { kind: 'literal'; value: Scalar }
	| { kind: 'null' };

export type ComparisonOp = 'equals' | 'lessThan' | 'lessOrEqual' | 'greaterThan' | 'greaterOrEqual';
export type TextOp = 'contains' | 'startsWith' | 'endsWith';

export type FilterNode =
	| { kind: 'compare'; op: ComparisonOp; left: Operand; right: Operand }
	| { kind: 'text'; op: TextOp; field: AttrChain; value: string }
	| { kind: 'any'; field: AttrChain; values: Scalar[] }
	| { kind: 'has'; chain: ToManyChain; filter?: FilterNode }
	| { kind: 'not'; filter: FilterNode }
	| { kind: 'and' | 'or'; filters: FilterNode[] };

const COMPARISONS = new Set<string>(['equals', 'lessThan', 'lessOrEqual', 'greaterThan', 'greaterOrEqual']);
const TEXT_MATCHES = new Set<string>(['contains', 'startsWith', 'endsWith']);

class Parser {
	private index = 0;

	constructor(
		private readonly tokens: Token[],
		private readonly endPos: number,
	) {}

	peek(offset = 0): Token | undefined {
		return this.tokens[this.index + offset];
	}

	posOfNext(): number {
		return this.peek()?.pos ?? this.endPos;
	}

	take(): Token | undefined {
		return this.tokens[this.index++];
	}

	expect(kind: Token['kind'], message: string): Token {
		const token = this.peek();
		if (!token || token.kind !== kind) throw new ParseError(message, this.posOfNext());
		this.index++;
		return token;
	}

	atEnd(): boolean {
		return this.index >= this.tokens.length;
	}

	filter(type: string): FilterNode {
		const token = this.peek();
		if (!token || token.kind !== 'text') throw new ParseError('Filter function expected.', this.posOfNext());
		const name = token.value;
		if (!COMPARISONS.has(name) && !TEXT_MATCHES.has(name) && !['any', 'has', 'not', 'and', 'or'].includes(name)) {
			throw new ParseError('Filter function expected.', token.pos);
		}
		this.take();
		this.expect('open', '( expected.');
		let node: FilterNode;
		if (COMPARISONS.has(name)) node = this.comparison(type, name as ComparisonOp);
		else if (TEXT_MATCHES.has(name)) node = this.textMatch(type, name as TextOp);
		else if (name === 'any') node = this.any(type);
		else if (name === 'has') node = this.has(type);
		else if (name === 'not') node = { kind: 'not', filter: this.filter(type) };
		else {
			const filters = [this.filter(type)];
			this.expect('comma', ', expected.');
			filters.push(this.filter(type));
			while (this.peek()?.kind === 'comma') {
				this.take();
				filters.push(this.filter(type));
			}
			node = { kind: name as 'and' | 'or', filters };
		}
		this.expect('close', ') expected.');
		return node;
	}

	private isCount(): boolean {
		const token = this.peek();
		return token?.kind === 'text' && token.value === 'count' && this.peek(1)?.kind === 'open';
	}

	private count(type: string): Operand {
		this.take();
		this.take();
		const token = this.expect('text', 'Field name expected.');
		const chain = resolveToManyChain(type, token.value, token.pos);
		this.expect('close', ') expected.');
		return { kind: 'count', chain };
	}

	private field(type: string): AttrChain {
		const token = this.peek();
		if (!token || token.kind !== 'text' || token.value === 'null') throw new ParseError('Field name expected.', this.posOfNext());
		this.take();
		return resolveAttrChain(type, token.value, token.pos, 'Filtering');
	}

	private comparison(type: string, op: ComparisonOp): FilterNode {
		let left: Operand;
		if (this.isCount()) left = this.count(type);
		else {
			const token = this.peek();
			if (!token || token.kind !== 'text' || token.value === 'null') {
				throw new ParseError('Field name or count function expected.', this.posOfNext());
			}
			left = { kind: 'field', chain: this.field(type) };
		}
		this.expect('comma', ', expected.');
		const token = this.peek();
		let right: Operand;
		if (!token) throw new ParseError('Value between quotes, null, field name or count function expected.', this.endPos);
		if (token.kind === 'quoted') {
			this.take();
			const def: FieldDef = left.kind === 'count' ? { kind: 'integer', clrType: 'Int32' } : left.kind === 'field' ? left.chain.def : ID_DEF;
			right = { kind: 'literal', value: convertLiteral(def, token.value, token.pos) };
		} else if (token.kind === 'text' && token.value === 'null') {
			this.take();
			right = { kind: 'null' };
		} else if (this.isCount()) {
			right = this.count(type);
		} else if (token.kind === 'text') {
			right = { kind: 'field', chain: this.field(type) };
		} else {
			throw new ParseError('Value between quotes, null, field name or count function expected.', token.pos);
		}
		return { kind: 'compare', op, left, right };
	}

	private textMatch(type: string, op: TextOp): FilterNode {
		const pos = this.posOfNext();
		const field = this.field(type);
		if (field.def.kind !== 'string') throw new ParseError("Attribute of type 'String' expected.", pos);
		this.expect('comma', ', expected.');
		const value = this.expect('quoted', 'Value between quotes expected.');
		return { kind: 'text', op, field, value: value.value };
	}

	private any(type: string): FilterNode {
		const field = this.field(type);
		const values: Scalar[] = [];
		this.expect('comma', ', expected.');
		for (;;) {
			const token = this.expect('quoted', 'Value between quotes expected.');
			values.push(convertLiteral(field.def, token.value, token.pos));
			if (this.peek()?.kind !== 'comma') break;
			this.take();
		}
		return { kind: 'any', field, values };
	}

	private has(type: string): FilterNode {
		const token = this.expect('text', 'Field name expected.');
		const chain = resolveToManyChain(type, token.value, token.pos);
		if (this.peek()?.kind === 'comma') {
			this.take();
			return { kind: 'has', chain, filter: this.filter(chain.target) };
		}
		return { kind: 'has', chain };
	}
}

/** Parses a filter expression for resources of `type`. Throws `ParseError`. */
export function parseFilter(text: string, type: string): FilterNode {
	const tokens = tokenize(text);
	const parser = new Parser(tokens, text.length + 1);
	const node = parser.filter(type);
	if (!parser.atEnd()) throw new ParseError('End of expression expected.', parser.posOfNext());
	return node;
}

// ---------------------------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------------------------

/** The comparable value of a stored attribute (timestamps and dates as epoch ms). */
export function normalize(def: FieldDef, value: unknown): Scalar {
	if (value === null || value === undefined) return null;
	if (def.kind === 'timestamp' || def.kind === 'date') {
		// stored values are valid ISO 8601, which Date.parse reads fast (date-only = UTC midnight)
		const ms = Date.parse(String(value));
		return Number.isNaN(ms) ? null : ms;
	}
	if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
	return null;
}

function follow(store: Store, type: string, rec: Rec, hops: AttrChain['hops']): Rec | undefined {
	let current: Rec | undefined = rec;
	let currentType = type;
	for (const hop of hops) {
		const target = store.related(currentType, current, hop.rel);
		if (typeof target !== 'number') return undefined;
		currentType = TYPES[currentType].rels[hop.rel].target;
		current = store.get(currentType, target);
		if (!current) return undefined;
	}
	return current;
}

export function fieldValue(store: Store, type: string, rec: Rec, chain: AttrChain): Scalar {
	const owner = follow(store, type, rec, chain.hops);
	if (!owner) return null;
	if (chain.attr === 'id') return owner.id;
	return normalize(chain.def, store.attribute(chain.type, owner, chain.attr));
}

function toManyIds(store: Store, type: string, rec: Rec, chain: ToManyChain): number[] {
	const owner = follow(store, type, rec, chain.hops);
	if (!owner) return [];
	const ids = store.related(chain.last.type, owner, chain.last.rel);
	return Array.isArray(ids) ? ids : [];
}

function operandValue(store: Store, type: string, rec: Rec, operand: Operand): Scalar {
	switch (operand.kind) {
		case 'field':
			return fieldValue(store, type, rec, operand.chain);
		case 'count':
			return toManyIds(store, type, rec, operand.chain).length;
		case 'literal':
			return operand.value;
		default:
			return null;
	}
}

const fold = (v: Scalar): Scalar => (typeof v === 'string' ? v.toLowerCase() : v);

/** Compares two non-null comparable values (strings case-insensitively). */
export function compareScalars(a: Scalar, b: Scalar): number {
	if (a === b) return 0;
	if (a === null) return -1;
	if (b === null) return 1;
	const x = fold(a) as string | number | boolean;
	const y = fold(b) as string | number | boolean;
	if (x === y) return 0;
	return x < y ? -1 : 1;
}

export function evaluate(node: FilterNode, store: Store, type: string, rec: Rec): boolean {
	switch (node.kind) {
		case 'compare': {
			const left = operandValue(store, type, rec, node.left);
			const right = operandValue(store, type, rec, node.right);
			if (node.op === 'equals') {
				if (left === null || right === null) return left === null && right === null;
				return compareScalars(left, right) === 0;
			}
			if (left === null || right === null) return false;
			const c = compareScalars(left, right);
			if (node.op === 'lessThan') return c < 0;
			if (node.op === 'lessOrEqual') return c <= 0;
			if (node.op === 'greaterThan') return c > 0;
			return c >= 0;
		}
		case 'text': {
			const value = fieldValue(store, type, rec, node.field);
			if (typeof value !== 'string') return false;
			const haystack = value.toLowerCase();
			const needle = node.value.toLowerCase();
			if (node.op === 'contains') return haystack.includes(needle);
			if (node.op === 'startsWith') return haystack.startsWith(needle);
			return haystack.endsWith(needle);
		}
		case 'any': {
			const value = fieldValue(store, type, rec, node.field);
			if (value === null) return false;
			return node.values.some((v) => compareScalars(value, v) === 0);
		}
		case 'has': {
			const ids = toManyIds(store, type, rec, node.chain);
			if (!node.filter) return ids.length > 0;
			const filter = node.filter;
			return ids.some((id) => {
				const target = store.get(node.chain.target, id);
				return !!target && evaluate(filter, store, node.chain.target, target);
			});
		}
		case 'not':
			return !evaluate(node.filter, store, type, rec);
		case 'and':
			return node.filters.every((f) => evaluate(f, store, type, rec));
		case 'or':
			return node.filters.some((f) => evaluate(f, store, type, rec));
	}
}

/**
 * Extracts an id range implied by the filter (top-level id comparisons, possibly inside a
 * top-level `and`), so id-ordered scans can start with a binary search. The residual filter
 * still has to be evaluated (it is the whole filter, to stay simple and exact).
 */
export function idRange(node: FilterNode): { min: number; max: number } {
	let min = -Infinity;
	let max = Infinity;
	const visit = (n: FilterNode) => {
		if (n.kind === 'and') {
			n.filters.forEach(visit);
			return;
		}
		if (n.kind !== 'compare' || n.left.kind !== 'field' || n.right.kind !== 'literal') return;
		if (n.left.chain.attr !== 'id' || n.left.chain.hops.length > 0) return;
		const v = n.right.value;
		if (typeof v !== 'number') return;
		if (n.op === 'equals') {
			min = Math.max(min, v);
			max = Math.min(max, v);
		} else if (n.op === 'greaterThan') min = Math.max(min, Math.floor(v) + 1);
		else if (n.op === 'greaterOrEqual') min = Math.max(min, Math.ceil(v));
		else if (n.op === 'lessThan') max = Math.min(max, Math.ceil(v) - 1);
		else if (n.op === 'lessOrEqual') max = Math.min(max, Math.floor(v));
	};
	visit(node);
	return { min, max };
}
