/**
 * Reading of request documents (POST / PATCH): structure, ids, attributes and relationships,
 * with JsonApiDotNetCore-like statuses (422 for bad bodies, 409 for type/id conflicts, 403 for
 * client-generated ids).
 */
import { ApiError, ErrorObject, apiError, validationError } from './errors';
import { parseDate, parseTimestamp } from './filter';
import { AttrDef, TYPES } from './schema';
import type { RelValue } from './store';

export interface RequestDocument {
	attributes: Record<string, unknown>;
	relationships: Record<string, RelValue>;
}

const DESERIALIZE = 'Failed to deserialize request body';

function bodyError(title: string, detail?: string, pointer?: string, status = 422): ApiError {
	return apiError(status, `${DESERIALIZE}: ${title}`, detail, pointer !== undefined ? { pointer } : undefined);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** PascalCase of an attribute name, as .NET validation messages show it. */
export const pascal = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_RE = /^\+[1-9][0-9 ]{6,20}$/;
const UNSAFE_HTML_RE = /<\s*\/?\s*(script|iframe|object|embed|style)\b|\bon[a-z]+\s*=|javascript:/i;
const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?(Z|[+-]\d{2}:\d{2})?$/;
const TIMESTAMP_OFFSET_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?(Z|[+-]\d{2}:\d{2})$/;

function typeName(value: unknown): string {
	if (value === null) return 'Null';
	if (Array.isArray(value)) return 'Array';
	switch (typeof value) {
		case 'string':
			return 'String';
		case 'number':
			return 'Number';
		case 'boolean':
			return 'Boolean';
		default:
			return 'Object';
	}
}

/** Validates one attribute value; returns error messages (empty when fine). */
export function checkAttribute(name: string, def: AttrDef, value: unknown): string[] {
	const field = pascal(name);
	if (value === null) return def.nullable === false ? [`The ${field} field is required.`] : [];
	const convert = (target: string) =>
		`Failed to convert attribute '${name}' with value '${typeof value === 'object' ? JSON.stringify(value) : String(value)}' of type '${typeName(value)}' to type '${target}'.`;
	switch (def.kind) {
		case 'string': {
			if (typeof value !== 'string') return [convert('String')];
			const errors: string[] = [];
			if (def.format === 'html') {
				if (Buffer.byteLength(value, 'utf8') > (def.max ?? Infinity)) errors.push(`The field ${field} must be at most ${def.max} bytes of UTF-8.`);
				if (UNSAFE_HTML_RE.test(value)) errors.push(`The field ${field} contains HTML that is not allowed.`);
				return errors;
			}
			if (def.max !== undefined && value.length > def.max) errors.push(`The field ${field} must be a string with a maximum length of ${def.max}.`);
			if (def.format === 'email' && !EMAIL_RE.test(value)) errors.push(`The ${field} field is not a valid e-mail address.`);
			if (def.format === 'phone' && !(PHONE_RE.test(value) && value.replace(/\D/g, '').length >= 7 && value.replace(/\D/g, '').length <= 15)) {
				errors.push(`The ${field} field must be a telephone number in international format (for example +61412345678).`);
			}
			if (def.nullable === false && value === '') errors.push(`The ${field} field is required.`);
			return errors;
		}
		case 'number':
			return typeof value === 'number' && Number.isFinite(value) ? [] : [convert('Decimal')];
		case 'integer':
			return typeof value === 'number' && Number.isInteger(value) && value <= 2147483647 && value >= -2147483648 ? [] : [convert('Int32')];
		case 'boolean':
			return typeof value === 'boolean' ? [] : [convert('Boolean')];
		case 'date':
			return typeof value === 'string' && parseDate(value) !== undefined ? [] : [`${convert('DateOnly')} Dates are written as YYYY-MM-DD.`];
		case 'timestamp': {
			const re = def.format === 'offset' ? TIMESTAMP_OFFSET_RE : TIMESTAMP_RE;
			const ok = typeof value === 'string' && re.test(value) && parseTimestamp(value) !== undefined;
			return ok
				? []
				: [`${convert('DateTimeOffset')} Timestamps are ISO 8601 date-times${def.format === 'offset' ? ' with an explicit offset' : ''}.`];
		}
		case 'enum':
			if (typeof value !== 'string') return [convert(def.clrType ?? 'Enum')];
			return def.values?.includes(value)
				? []
				: [`The value '${value}' is not valid for ${field}. Valid values: ${def.values?.join(', ')}.`];
		case 'object':
			return isObject(value) ? [] : [convert('Object')];
		case 'array':
			return Array.isArray(value) ? [] : [convert('Array')];
	}
}

/** Parses an id string from a body as an int32, or undefined. */
export function parseIdString(text: string): number | undefined {
	if (!/^[+-]?\d+$/.test(text.trim())) return undefined;
	const n = Number(text.trim());
	return n >= -2147483648 && n <= 2147483647 ? n : undefined;
}

function readIdentifier(value: unknown, pointer: string, expectedType: string, relName: string): number {
	if (!isObject(value)) throw bodyError("Expected an object in 'data' element.", undefined, pointer);
	if (!('type' in value)) throw bodyError("The 'type' element is required.", undefined, pointer);
	if (typeof value.type !== 'string') throw bodyError("Expected a string value in 'type' element.", undefined, `${pointer}/type`);
	if (value.type !== expectedType) {
		throw apiError(409, 'Incompatible resource type found.', `Type '${value.type}' is not convertible to type '${expectedType}' of relationship '${relName}'.`, {
			pointer: `${pointer}/type`,
		});
	}
	if (!('id' in value) || value.id === null || value.id === undefined) throw bodyError("The 'id' element is required.", undefined, pointer);
	if (typeof value.id !== 'string') {
		throw bodyError("Incompatible 'id' value found.", `Resource ID must be a string, not a ${typeName(value.id).toLowerCase()}.`, `${pointer}/id`);
	}
	const id = parseIdString(value.id);
	if (id === undefined) throw bodyError("Incompatible 'id' value found.", `Failed to convert ID '${value.id}' of type 'String' to type 'Int32'.`, `${pointer}/id`);
	return id;
}

/**
 * Reads a POST/PATCH document for `type`. For updates `pathId` is the id from the path.
 * Throws `ApiError`.
 */
export function readDocument(body: string, type: string, op: 'create' | 'update', pathId?: number): RequestDocument {
	if (body.trim() === '') throw bodyError('Missing request body.');
	let parsed: unknown;
	try {
		parsed = JSON.parse(body);
	} catch (error) {
		throw apiError(422, `${DESERIALIZE}.`, (error as Error).message);
	}
	if (!isObject(parsed)) throw bodyError('Expected an object at the document root.', undefined, '');
	if (!('data' in parsed)) throw bodyError("The 'data' element is required.", undefined, '');
	const data = parsed.data;
	if (Array.isArray(data)) throw bodyError("Expected an object in 'data' element, instead of an array.", undefined, '/data');
	if (!isObject(data)) throw bodyError("Expected an object in 'data' element.", undefined, '/data');
	if (!('type' in data)) throw bodyError("The 'type' element is required.", undefined, '/data');
	if (typeof data.type !== 'string') throw bodyError("Expected a string value in 'type' element.", undefined, '/data/type');
	if (data.type !== type) {
		throw apiError(409, 'Incompatible resource type found.', `Type '${data.type}' is not convertible to type '${type}'.`, { pointer: '/data/type' });
	}
	if (op === 'create') {
		if ('id' in data && data.id !== undefined) {
			throw bodyError('The use of client-generated IDs is disabled.', undefined, '/data/id', 403);
		}
	} else {
		if (!('id' in data) || data.id === null || data.id === undefined) throw bodyError("The 'id' element is required.", undefined, '/data');
		if (typeof data.id !== 'string') {
			throw bodyError("Incompatible 'id' value found.", `Resource ID must be a string, not a ${typeName(data.id).toLowerCase()}.`, '/data/id');
		}
		const id = parseIdString(data.id);
		if (id === undefined) throw bodyError("Incompatible 'id' value found.", `Failed to convert ID '${data.id}' of type 'String' to type 'Int32'.`, '/data/id');
		if (id !== pathId) {
			throw apiError(409, "Conflicting 'id' values found.", `Expected '${pathId}' in PATCH request body at endpoint '/${type}/${pathId}', instead of '${data.id}'.`, {
				pointer: '/data/id',
			});
		}
	}
	const def = TYPES[type];
	const attributes: Record<string, unknown> = {};
	const relationships: Record<string, RelValue> = {};
	const validation: Array<Omit<ErrorObject, 'id' | 'status'>> = [];

	if ('attributes' in data && data.attributes !== undefined && data.attributes !== null) {
		if (!isObject(data.attributes)) throw bodyError("Expected an object in 'attributes' element.", undefined, '/data/attributes');
		for (const [name, value] of Object.entries(data.attributes)) {
			const pointer = `/data/attributes/${name}`;
			const attr = def.attrs[name];
			if (!attr) throw bodyError('Unknown attribute found.', `Attribute '${name}' does not exist on resource type '${type}'.`, pointer);
			if (op === 'create' && !attr.create) {
				throw bodyError('Setting the initial value of the requested attribute is not allowed.', `Setting the initial value of '${name}' is not allowed.`, pointer);
			}
			if (op === 'update' && !attr.update) {
				throw bodyError('Changing the value of the requested attribute is not allowed.', `Changing the value of '${name}' is not allowed.`, pointer);
			}
			for (const message of checkAttribute(name, attr, value)) validation.push(validationError(pointer, message));
			attributes[name] = value;
		}
	}

	if ('relationships' in data && data.relationships !== undefined && data.relationships !== null) {
		if (!isObject(data.relationships)) throw bodyError("Expected an object in 'relationships' element.", undefined, '/data/relationships');
		for (const [name, value] of Object.entries(data.relationships)) {
			const pointer = `/data/relationships/${name}`;
			const rel = def.rels[name];
			if (!rel) throw bodyError('Unknown relationship found.', `Relationship '${name}' does not exist on resource type '${type}'.`, pointer);
			if ((op === 'create' && !rel.create) || (op === 'update' && !rel.update)) {
				throw bodyError('Assigning the requested relationship is not allowed.', `Assigning to '${name}' is not allowed.`, pointer);
			}
			if (!isObject(value) || !('data' in value)) throw bodyError("The 'data' element is required.", undefined, pointer);
			const relData = value.data;
			if (rel.toMany) {
				if (!Array.isArray(relData)) throw bodyError("Expected an array in 'data' element.", undefined, `${pointer}/data`);
				const ids = relData.map((item, i) => readIdentifier(item, `${pointer}/data/${i}`, rel.target, name));
				relationships[name] = [...new Set(ids)].sort((a, b) => a - b);
			} else {
				if (Array.isArray(relData)) {
					throw bodyError("Expected an object or 'null' in 'data' element, instead of an array.", undefined, `${pointer}/data`);
				}
				relationships[name] = relData === null ? null : readIdentifier(relData, `${pointer}/data`, rel.target, name);
			}
		}
	}

	const required = (present: boolean, name: string, pointer: string) => {
		if (!present) validation.push(validationError(pointer, `The ${pascal(name)} field is required.`));
	};
	if (op === 'create') {
		for (const [name, attr] of Object.entries(def.attrs)) {
			if (attr.required) required(attributes[name] !== undefined, name, `/data/attributes/${name}`);
		}
		for (const [name, rel] of Object.entries(def.rels)) {
			if (rel.required && rel.create) {
				required(relationships[name] !== undefined && relationships[name] !== null, name, `/data/relationships/${name}`);
			}
		}
	} else {
		for (const [name, rel] of Object.entries(def.rels)) {
			if (rel.required && name in relationships && relationships[name] === null) {
				required(false, name, `/data/relationships/${name}`);
			}
		}
	}
	if (validation.length) throw new ApiError(422, validation);
	return { attributes, relationships };
}
