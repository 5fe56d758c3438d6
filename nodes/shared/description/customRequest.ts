/**
 * Custom Request's own parameters: method, path, query parameters and JSON body, named as in n8n's
 * HTTP Request node where they mean the same (`method`, `queryParameters.parameters`, `jsonBody`),
 * and the description an AI agent reads. Return All, Limit and Simplify are the ones every read has
 * (descriptions.ts adds them).
 */
import type { INodeProperties } from 'n8n-workflow';

import { CUSTOM_REQUEST, showFor } from '../service/catalogue';
import { CUSTOM_METHODS, METHODS_WITH_BODY, PATH_EXAMPLES } from '../input/customRequest';

const BODY_TEMPLATE = JSON.stringify({ data: { type: '', attributes: {} } }, null, 2);

/** The agent's description of a Custom Request tool: what it reaches and what a write costs. */
export const CUSTOM_REQUEST_TOOL_DESCRIPTION = [
	"Sends one request to the Loan CRM JSON:API (any endpoint below /jsonapi) with this node's credential: method GET, POST, PATCH or DELETE; Path such as /integrations or /deal-notes/3000001; Query Parameters such as filter, sort, include, fields[<type>].",
	'POST and PATCH take a JSON:API document in JSON Body: {"data": {"type": "<resource type>", "id": "<id, PATCH only>", "attributes": {…}, "relationships": {"<name>": {"data": {"type": "…", "id": "…"}}}}}; IDs are strings.',
	"Writes change records in the CRM and are sent exactly once: only call a write when the user asked for that change. GET returns the records flattened (relationships resolved); a collection returns up to Limit records.",
].join(' ');

/** Method, Path, Query Parameters, JSON Body and the tool's description, shown for Custom Request only. */
export function customRequestProperties(): INodeProperties[] {
	const show = (extra = {}) => showFor(CUSTOM_REQUEST, extra);
	return [
		{
			displayName: 'Tool Description',
			name: 'toolDescription',
			type: 'string',
			typeOptions: { rows: 6 },
			default: CUSTOM_REQUEST_TOOL_DESCRIPTION,
			description: 'What the AI agent reads about this tool. Say which endpoints and methods it may use; the default allows any.',
			displayOptions: show({ '@tool': [true] }),
		},
		{
			displayName: 'Method',
			name: 'method',
			type: 'options',
			options: CUSTOM_METHODS.map((method) => ({ name: method, value: method })),
			default: 'GET',
			description: 'The HTTP method. A POST, PATCH or DELETE is sent once and never repeated after an uncertain failure.',
			displayOptions: show(),
		},
		{
			displayName: 'Path',
			name: 'path',
			type: 'string',
			required: true,
			default: '',
			placeholder: '/integrations',
			description: `The endpoint below /jsonapi, e.g. ${PATH_EXAMPLES}. The service's public API description lists them. The query goes under Query Parameters.`,
			displayOptions: show(),
		},
		{
			displayName: 'Query Parameters',
			name: 'queryParameters',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Query Parameter',
			default: {},
			description: 'Query string parameters such as filter, sort, include or fields[deals]; values are sent as typed. Paging is done by Return All and Limit.',
			displayOptions: show(),
			options: [
				{
					name: 'parameters',
					displayName: 'Query Parameter',
					values: [
						{ displayName: 'Name', name: 'name', type: 'string', default: '', placeholder: 'filter' },
						{ displayName: 'Value', name: 'value', type: 'string', default: '', placeholder: "equals(name,'Salesforce')" },
					],
				},
			],
		},
		{
			displayName: 'JSON Body',
			name: 'jsonBody',
			type: 'json',
			required: true,
			default: BODY_TEMPLATE,
			description: 'A JSON:API document: "data" holds the resource\'s type, attributes and relationships (on PATCH also its ID, as text). Sent with the JSON:API media type.',
			displayOptions: show({ method: [...METHODS_WITH_BODY] }),
		},
	];
}
