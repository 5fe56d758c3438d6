/**
 * The JSON:API media types the credential completes on requests to the service
 * (credentials/mediaTypes.ts): what counts as a service request, which Accept headers the service
 * would refuse, which bodies n8n sends as JSON, and that a type the user chose is kept.
 */
import { Readable } from 'stream';

import { acceptsJsonApi, isServiceRequest, withJsonApiMediaTypes } from '../../credentials/mediaTypes';

const BASE = 'https://api.example.com';
const JSON_API = 'application/vnd.api+json';

describe('which requests go to the service', () => {
	it.each([
		[{ uri: `${BASE}/jsonapi/deals` }, true],
		[{ url: `${BASE}/jsonapi` }, true],
		[{ url: `${BASE}/JSONAPI/deals?page[size]=1` }, true],
		[{ baseURL: `${BASE}/jsonapi`, url: '/deals' }, true],
		[{ url: `${BASE}/jsonapidocs` }, false],
		[{ url: `${BASE}/other/jsonapi` }, false],
		[{ url: 'https://elsewhere.example/jsonapi/deals' }, false],
		[{ uri: 'https://auth.example.com/connect/token' }, false],
	])('%j → %s', (request, expected) => {
		expect(isServiceRequest(request, `${BASE}/jsonapi/`)).toBe(expected);
	});
});

describe('Accept headers the service takes', () => {
	it.each([
		['', true],
		[JSON_API, true],
		['application/json, */*;q=0.7', true],
		['application/*', true],
		['application/json,text/*;q=0.99', false],
		[`${JSON_API};q=0`, false],
		[`${JSON_API}; ext="https://jsonapi.org/ext/atomic"`, false],
	])('%j → %s', (accept, expected) => {
		expect(acceptsJsonApi(accept)).toBe(expected);
	});
});

describe('completing the media types', () => {
	const target = { uri: `${BASE}/jsonapi/deal-notes` };

	it("puts the JSON:API type in front of an Accept the service would refuse, keeping the header's name and values", () => {
		expect(withJsonApiMediaTypes({ accept: 'application/json,text/*;q=0.99' }, target, BASE)).toEqual({ accept: `${JSON_API}, application/json,text/*;q=0.99` });
		expect(withJsonApiMediaTypes({ Accept: '*/*' }, target, BASE)).toEqual({ Accept: '*/*' });
		expect(withJsonApiMediaTypes({}, target, BASE)).toEqual({ accept: JSON_API });
	});

	it("a body n8n sends as JSON gets the JSON:API type when it has none or application/json; any other type stays", () => {
		const body = { data: { type: 'deal-notes' } };
		expect(withJsonApiMediaTypes({}, { ...target, body }, BASE)['content-type']).toBe(JSON_API);
		expect(withJsonApiMediaTypes({ 'Content-Type': 'application/json; charset=utf-8' }, { ...target, body }, BASE)['Content-Type']).toBe(JSON_API);
		expect(withJsonApiMediaTypes({ 'content-type': 'application/merge-patch+json' }, { ...target, body }, BASE)['content-type']).toBe('application/merge-patch+json');
		expect(withJsonApiMediaTypes({}, { ...target, body: [body] }, BASE)['content-type']).toBe(JSON_API);
	});

	it('a body n8n does not send as JSON (Raw text, a file, a stream) keeps its Content-Type, even application/json', () => {
		for (const body of ['{"data":{}}', Buffer.from('x'), Readable.from(['x'])]) {
			expect(withJsonApiMediaTypes({ 'content-type': 'application/json' }, { ...target, body }, BASE)['content-type']).toBe('application/json');
			expect(withJsonApiMediaTypes({}, { ...target, body }, BASE)['content-type']).toBeUndefined();
		}
	});

	it('leaves requests to other addresses alone', () => {
		const headers = { accept: 'application/json' };
		expect(withJsonApiMediaTypes(headers, { url: 'https://elsewhere.example/api', body: {} }, BASE)).toBe(headers);
	});
});
