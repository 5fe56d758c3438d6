/**
 * The small things users meet in output items and messages: related collections with Return All /
 * Limit and their parent's ID on every item, the useful fields first, and every parameter named by
 * the label the user sees — in n8n-core's engine against the sandbox.
 */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { OPERATIONS as CONTACT_OPERATIONS } from '../../nodes/LoanCrmContacts/operations';
import { OPERATIONS as DEAL_OPERATIONS } from '../../nodes/LoanCrmDeals/operations';
import { OPERATIONS as TASK_OPERATIONS } from '../../nodes/LoanCrmLeadsAndTasks/operations';
import { OPERATIONS as ASSET_OPERATIONS } from '../../nodes/LoanCrmOrganisationsAndAssets/operations';
import { pathParameters } from '../../nodes/shared/service/catalogue';
import { loadPackageSource } from '../../harness';
import { decodedQuery, jsonOf, useSandbox } from './helpers';
import { DEAL_SUMMARY_COLUMNS } from '../../harness/operation-examples';

const env = useSandbox();
const ids = () => env.sandbox.data.ids;

afterEach(() => env.sandbox.data.reset());

/** Deal ID → its note IDs, from the sandbox's own store. */
function notesByDeal(): Map<string, string[]> {
	const map = new Map<string, string[]>();
	for (const note of env.sandbox.data.list('deal-notes')) {
		const deal = (note.relationships.deal as { id: string } | null)?.id;
		if (deal === undefined) continue;
		map.set(String(deal), [...(map.get(String(deal)) ?? []), String(note.id)]);
	}
	return map;
}

describe('related collections: Return All, Limit and the parent ID', () => {
	it('Deal Note → Get Many returns every note by default, each carrying its dealId right after id and type', async () => {
		const result = await env.run('loanCrmDeals', { resource: 'dealNote', operation: 'getMany', dealId: ids().dealWithNotes });
		expect(result.error).toBeUndefined();
		const requests = env.sandbox.apiRequests();
		expect(requests.map((request) => [request.path, decodedQuery(request.rawQuery)])).toEqual([[`/jsonapi/deals/${ids().dealWithNotes}/dealNotes`, 'page[size]=100']]);
		const items = jsonOf(result);
		expect(items.map((item) => item.id)).toEqual(notesByDeal().get(ids().dealWithNotes));
		expect(items.length).toBeGreaterThan(1);
		for (const item of items) {
			expect(Object.keys(item).slice(0, 3)).toEqual(['id', 'type', 'dealId']);
			expect(item.dealId).toBe(ids().dealWithNotes);
		}
	});

	it('Limit 2 asks for a page of 2 and gives 2 notes', async () => {
		const result = await env.run('loanCrmDeals', { resource: 'dealNote', operation: 'getMany', dealId: ids().dealWithNotes, returnAll: false, limit: 2 });
		expect(env.sandbox.apiRequests().map((request) => decodedQuery(request.rawQuery))).toEqual(['page[size]=2']);
		expect(jsonOf(result).map((item) => item.id)).toEqual(notesByDeal().get(ids().dealWithNotes)?.slice(0, 2));
	});

	it('notes read for many deals stay attributable: each item names its own deal', async () => {
		const dealsWithNotes = [...notesByDeal().entries()].filter(([, notes]) => notes.length > 0).slice(0, 3);
		expect(dealsWithNotes.length).toBeGreaterThan(1);
		const result = await env.run(
			'loanCrmDeals',
			{ resource: 'dealNote', operation: 'getMany', dealId: '={{ $json.deal }}' },
			{ input: dealsWithNotes.map(([deal]) => ({ deal })) },
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.json.dealId, item.json.id, item.pairedItem])).toEqual(
			dealsWithNotes.flatMap(([deal, notes], index) => notes.map((note) => [deal, note, { item: index }])),
		);
	});

	it('with Simplify off the resources stay exactly as the service sent them (version 1)', async () => {
		const result = await env.run('loanCrmDeals', { resource: 'dealNote', operation: 'getMany', dealId: ids().dealWithNotes, simplify: false }, { typeVersion: 1 });
		expect(jsonOf(result)).toHaveLength(notesByDeal().get(ids().dealWithNotes)?.length ?? -1);
		expect(jsonOf(result).length).toBeGreaterThan(1);
		for (const item of jsonOf(result)) {
			expect(item.dealId).toBeUndefined();
			expect(Object.keys(item)).toEqual(expect.arrayContaining(['type', 'id', 'attributes']));
		}
	});

	it('organisation and asset addresses carry organisationId and assetId', async () => {
		const organisation = await env.run('loanCrmOrganisationsAndAssets', { resource: 'organisation', operation: 'getAddresses', organisationId: ids().organisation });
		const asset = await env.run('loanCrmOrganisationsAndAssets', { resource: 'asset', operation: 'getAddresses', assetId: ids().asset, returnAll: false, limit: 1 });
		expect(jsonOf(organisation)).toHaveLength(2);
		for (const item of jsonOf(organisation)) expect(Object.keys(item).slice(0, 3)).toEqual(['id', 'type', 'organisationId']);
		expect(jsonOf(organisation).map((item) => item.organisationId)).toEqual([ids().organisation, ids().organisation]);
		expect(jsonOf(asset)).toEqual([expect.objectContaining({ type: 'financial-address', assetId: ids().asset })]);
		expect(env.sandbox.apiRequests().map((request) => decodedQuery(request.rawQuery))).toEqual(['page[size]=100', 'page[size]=1']);
	});
});

describe('output items: the useful fields first', () => {
	it('a deal starts with id, type, name, status and amount; nested objects come after every plain value (version 1)', async () => {
		const result = await env.run('loanCrmDeals', { resource: 'deal', operation: 'getMany', limit: 5, options: { include: 'customStatus' } }, { typeVersion: 1 });
		const items = jsonOf(result);
		expect(items).toHaveLength(5);
		for (const item of items) {
			const keys = Object.keys(item);
			expect(keys.slice(0, 8)).toEqual(['id', 'type', 'name', 'dealStatus', 'totalLoanAmount', 'dealType', 'lenderName', 'customStatusName']);
			const stored = env.sandbox.data.get('deals', item.id as string);
			const attributeKeys = keys.filter((key) => key in (stored?.attributes ?? {}));
			const firstNested = attributeKeys.findIndex((key) => item[key] !== null && typeof item[key] === 'object');
			expect(attributeKeys.slice(firstNested).every((key) => item[key] !== null && typeof item[key] === 'object')).toBe(true);
			expect(attributeKeys.slice(firstNested)).toEqual(expect.arrayContaining(['dates', 'opportunity', 'splits']));
			// Relationships follow the attributes.
			expect(keys[keys.length - 1]).toBe('customStatus');
		}
	});
});

describe('version 1.1 output: a deal a person reads at a glance', () => {
	const SUMMARY_KEYS = [...DEAL_SUMMARY_COLUMNS];
	const getMany = (extra: Record<string, unknown> = {}) => ({ resource: 'deal', operation: 'getMany', limit: 20, ...extra });

	it('Simplify (the default): the same flat columns for every deal, nested members lifted, no nested value', async () => {
		const result = await env.run('loanCrmDeals', getMany());
		const items = jsonOf(result);
		expect(items).toHaveLength(20);
		for (const item of items) {
			expect(Object.keys(item)).toEqual(SUMMARY_KEYS);
			expect(Object.values(item).filter((value) => value !== null && typeof value === 'object')).toEqual([]);
			const stored = env.sandbox.data.get('deals', item.id as string)?.attributes;
			expect([item.settledDate, item.proposedLoanAmount, item.loanPurpose]).toEqual([stored?.dates?.settled ?? null, stored?.opportunity?.proposedLoanAmount ?? null, stored?.opportunity?.loanPurpose ?? null]);
		}
		expect(decodedQuery(env.sandbox.apiRequests()[0].rawQuery)).toBe('page[size]=20');
	});

	it("Simplify off: every field, exactly version 1's default output", async () => {
		const v1_1 = jsonOf(await env.run('loanCrmDeals', getMany({ simplify: false })));
		const v1 = jsonOf(await env.run('loanCrmDeals', getMany(), { typeVersion: 1 }));
		expect(v1_1).toHaveLength(20);
		expect(v1_1).toEqual(v1);
		expect(Object.keys(v1_1[0])).toEqual(expect.arrayContaining(['type', 'dates', 'opportunity', 'splits']));
	});

	it('Options → Fields wins over Simplify (* for every field); Include still adds the related records', async () => {
		const named = jsonOf(await env.run('loanCrmDeals', getMany({ limit: 3, options: { fields: 'name,splits' } })));
		const every = jsonOf(await env.run('loanCrmDeals', getMany({ limit: 3, options: { fields: '*' } })));
		const included = jsonOf(await env.run('loanCrmDeals', getMany({ limit: 3, options: { include: 'customStatus' } })));
		expect(env.sandbox.apiRequests().map((request) => decodedQuery(request.rawQuery))).toEqual([
			'fields[deals]=name,splits&page[size]=3',
			'page[size]=3',
			'include=customStatus&page[size]=3',
		]);
		expect(named.map((item) => Object.keys(item))).toEqual([0, 1, 2].map(() => ['id', 'type', 'name', 'splits']));
		expect(every.map((item) => Object.keys(item).length)).toEqual([0, 1, 2].map(() => 13));
		for (const item of included) {
			expect(Object.keys(item)).toEqual([...SUMMARY_KEYS, 'customStatus']);
			expect(item.customStatus === null || (item.customStatus as { type?: string }).type === 'custom-statuses').toBe(true);
		}
		expect(included.some((item) => item.customStatus !== null)).toBe(true);
	});

	it('Deal → Get and the deal of a deal structure give the same summary; records of other types every field, with no Simplify to set', async () => {
		const deal = jsonOf(await env.run('loanCrmDeals', { resource: 'deal', operation: 'get', dealId: ids().dealWithNotes }));
		const ofStructure = jsonOf(await env.run('loanCrmDeals', { resource: 'dealStructure', operation: 'getDeal', dealStructureId: ids().dealStructure }));
		expect(deal).toHaveLength(1);
		expect(ofStructure).toEqual(deal);
		expect(Object.keys(deal[0])).toEqual(SUMMARY_KEYS);
		const notes = jsonOf(await env.run('loanCrmDeals', { resource: 'dealNote', operation: 'getMany', dealId: ids().dealWithNotes, simplify: false }));
		expect(notes.length).toBeGreaterThan(1);
		for (const note of notes) expect(Object.keys(note)).toEqual(['id', 'type', 'dealId', 'title', 'writtenBy', 'detail']);
	});
});

describe('parameters are named by the label the user sees', () => {
	const source = loadPackageSource();
	const descriptions = Object.fromEntries(source.nodes.map((node) => [node.name, node.type.description as INodeTypeDescription]));
	const cases = [
		...DEAL_OPERATIONS.map((spec) => ['loanCrmDeals', spec] as const),
		...CONTACT_OPERATIONS.map((spec) => ['loanCrmContacts', spec] as const),
		...TASK_OPERATIONS.map((spec) => ['loanCrmLeadsAndTasks', spec] as const),
		...ASSET_OPERATIONS.map((spec) => ['loanCrmOrganisationsAndAssets', spec] as const),
	].flatMap(([node, spec]) => pathParameters(spec).map((parameter) => [`${node} ${spec.resource}.${spec.operation} ${parameter}`, node, spec, parameter] as const));

	it('covers every ID in a path', () => {
		expect(cases.map(([name]) => name.split(' ').pop())).toEqual(
			expect.arrayContaining(['dealId', 'dealStructureId', 'dealNoteId', 'contactExternalReferenceId', 'contactCategoryId', 'leadId', 'taskId', 'organisationId', 'assetId']),
		);
	});

	it.each(cases)('%s: a bad ID is refused before sending, by its label', async (_name, node, spec, parameter) => {
		const property = descriptions[node].properties.find(
			(entry: INodeProperties) => entry.name === parameter && entry.displayOptions?.show?.resource?.[0] === spec.resource && entry.displayOptions?.show?.operation?.[0] === spec.operation,
		);
		expect(property?.displayName).toBeDefined();
		const result = await env.run(node, { resource: spec.resource, operation: spec.operation, [parameter]: 'abc', externalReference: 'x', name: 'x' });
		expect(result.error?.message).toBe(`Parameter "${property?.displayName}" must be a record ID (a whole number); got "abc"`);
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});
});
