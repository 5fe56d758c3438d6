/**
 * Resource locators and Get by ID, in n8n-core's engine against the sandbox: the From List search
 * as the editor runs it (LoadOptionsContext), locator values and old-style plain values read by
 * the operations, the By ID check, and Get on the collection endpoints with its not-found error.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import type { IConnections, INode, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { REPO_ROOT, START_NODE_TYPE, nodeTypes, runListSearch, runWorkflow } from '../../harness';
import type { LoggedRequest } from '../../sandbox';
import { ID_PATTERN } from '../../nodes/shared/description/locators';
import { LIST_PAGE_SIZE } from '../../nodes/shared/execution/methods/listSearch';
import { parseId } from '../../nodes/shared/input/values';
import { jsonOf, useSandbox } from './helpers';

const env = useSandbox();
const ids = () => env.sandbox.data.ids;

afterEach(() => env.sandbox.data.reset());

function onlyRequest(): LoggedRequest {
	const requests = env.sandbox.apiRequests();
	expect(requests).toHaveLength(1);
	return requests[0];
}

const locator = (value: string, mode: 'list' | 'id' = 'list') => ({ __rl: true, mode, value });

const ACTION_NODES = ['loanCrmDeals', 'loanCrmContacts', 'loanCrmLeadsAndTasks', 'loanCrmOrganisationsAndAssets'];

function descriptionOf(node: string): INodeTypeDescription {
	return nodeTypes().getByNameAndVersion(`n8n-nodes-loan-crm.${node}`, 1).description;
}

/** Every parameter of a node with its path, collections included. */
function allParameters(properties: INodeProperties[], prefix = ''): Array<{ path: string; property: INodeProperties }> {
	return properties.flatMap((property) => [
		{ path: `${prefix}${property.name}`, property },
		...(property.type === 'collection' ? allParameters((property.options ?? []) as INodeProperties[], `${prefix}${property.name}.`) : []),
	]);
}

describe('From List: searching deals and contacts as the user types', () => {
	it('deals: one small request (newest first, label attributes only) with readable labels and a token for the next page', async () => {
		const first = await runListSearch({ nodeType: 'loanCrmDeals', method: 'searchDeals', credentials: env.store });
		const request = onlyRequest();
		expect([request.method, request.path]).toEqual(['GET', '/jsonapi/deals']);
		expect(request.query).toEqual({ sort: '-id', 'fields[deals]': 'name,dealStatus', 'page[size]': String(LIST_PAGE_SIZE) });
		expect(request.headers.userid).toBe(env.sandbox.userId);
		const newest = env.sandbox.data.idsOf('deals').map(Number).sort((a, b) => b - a);
		expect(first.results.map((result) => result.value)).toEqual(newest.slice(0, LIST_PAGE_SIZE).map(String));
		for (const result of first.results) {
			const deal = env.sandbox.data.get('deals', String(result.value))?.attributes;
			expect(result.name).toBe(`${deal?.name} — ${String(deal?.dealStatus).replace(/([a-z])([A-Z])/g, '$1 $2')} — #${result.value}`);
		}
		expect(first.paginationToken).toBe(String(newest[LIST_PAGE_SIZE - 1]));

		env.sandbox.clearLog();
		const second = await runListSearch({ nodeType: 'loanCrmDeals', method: 'searchDeals', credentials: env.store, paginationToken: first.paginationToken });
		expect(onlyRequest().query.filter).toBe(`lessThan(id,'${newest[LIST_PAGE_SIZE - 1]}')`);
		expect(second.results.map((result) => result.value)).toEqual(newest.slice(LIST_PAGE_SIZE, 2 * LIST_PAGE_SIZE).map(String));
	});

	it('deals: the label reads "Last, First — Status — #id"', async () => {
		const { results } = await runListSearch({ nodeType: 'loanCrmDeals', method: 'searchDeals', credentials: env.store, filter: `#${ids().settledDeal}` });
		const settled = env.sandbox.data.get('deals', ids().settledDeal)?.attributes;
		expect(results).toContainEqual({ name: `${settled?.name} — Settled — #${ids().settledDeal}`, value: ids().settledDeal });
	});

	it('deals: typed words are quoted safely and all must match, in any order ("Liam O\'Connor")', async () => {
		const { results } = await runListSearch({ nodeType: 'loanCrmDeals', method: 'searchDeals', credentials: env.store, filter: "  Liam O'Connor " });
		expect(onlyRequest().query.filter).toBe("and(contains(name,'Liam'),contains(name,'O''Connor'))");
		expect(results.map((result) => result.value)).toContain(ids().dealWithApostrophe);
		for (const result of results) expect(result.name).toMatch(/^(?=.*Liam)(?=.*O'Connor)/i);
	});

	it('deals: a number finds the deal with that ID as well as names containing it', async () => {
		const { results } = await runListSearch({ nodeType: 'loanCrmDeals', method: 'searchDeals', credentials: env.store, filter: ids().dealWithApostrophe });
		expect(onlyRequest().query.filter).toBe(`or(contains(name,'${ids().dealWithApostrophe}'),equals(id,'${ids().dealWithApostrophe}'))`);
		expect(results).toEqual([{ name: expect.stringMatching(/^O'Connor, Liam — Researching — #/), value: ids().dealWithApostrophe }]);
	});

	it('deals: the last page carries no token; nothing found is an empty list', async () => {
		const none = await runListSearch({ nodeType: 'loanCrmDeals', method: 'searchDeals', credentials: env.store, filter: 'zzzz-no-such-deal' });
		expect(none).toEqual({ results: [], paginationToken: undefined });
	});

	it('contacts: by name or e-mail, labelled "Last, First — e-mail — #id"', async () => {
		const contact = env.sandbox.data.get('contacts', ids().contactWithApostrophe)?.attributes;
		const byName = await runListSearch({ nodeType: 'loanCrmContacts', method: 'searchContacts', credentials: env.store, filter: `${contact?.firstName} O'Brien` });
		const request = onlyRequest();
		expect(request.query['fields[contacts]']).toBe('firstName,lastName,email');
		expect(request.query.filter).toBe(
			`and(or(contains(firstName,'${contact?.firstName}'),contains(lastName,'${contact?.firstName}'),contains(preferredName,'${contact?.firstName}'),contains(email,'${contact?.firstName}')),` +
				"or(contains(firstName,'O''Brien'),contains(lastName,'O''Brien'),contains(preferredName,'O''Brien'),contains(email,'O''Brien')))",
		);
		const expected = { name: `O'Brien, ${contact?.firstName} — ${contact?.email} — #${ids().contactWithApostrophe}`, value: ids().contactWithApostrophe };
		expect(byName.results).toContainEqual(expected);

		const byEmail = await runListSearch({ nodeType: 'loanCrmContacts', method: 'searchContacts', credentials: env.store, filter: String(contact?.email).toUpperCase() });
		expect(byEmail.results).toContainEqual(expected);
	});

	it("the node's Request Options → User ID is sent as UserId, as on the node's own requests", async () => {
		await runListSearch({
			nodeType: 'loanCrmDeals',
			method: 'searchDeals',
			credentials: env.store,
			parameters: { resource: 'dealNote', operation: 'getMany', requestOptions: { userId: ids().adviserContactIds[1] } },
		});
		expect(onlyRequest().headers.userid).toBe(ids().adviserContactIds[1]);
	});
});

describe('Parameters that take a deal, lead or contact ID are resource locators', () => {
	it('on every operation and in create/update fields; other ID fields say where to find the ID', () => {
		const locators: string[] = [];
		for (const node of ACTION_NODES) {
			const description = descriptionOf(node);
			for (const { path, property } of allParameters(description.properties)) {
				if (property.type === 'resourceLocator') {
					const operations = property.displayOptions?.show?.operation ?? [''];
					locators.push(`${node} ${path} ${String(property.displayOptions?.show?.resource ?? '')}.${String(operations)}`);
					const list = property.modes?.find((mode) => mode.name === 'list');
					expect(list?.typeOptions?.searchable).toBe(true);
					continue;
				}
				if (/Ids?$/.test(property.name) && path !== 'requestOptions.userId') {
					expect([path, property.description]).toEqual([path, expect.stringMatching(/(IDs come from|IDs are shown) .+\.$/)]);
				}
			}
		}
		// A parameter comes once per version and variant that differ (a tool's is filled by the model in version 1.1).
		expect([...new Set(locators)].sort()).toEqual(
			[
				'loanCrmDeals dealId deal.get',
				'loanCrmDeals dealId dealNote.getMany',
				'loanCrmDeals dealId customStatus.get',
				'loanCrmDeals dealId dealExternalReference.create',
				'loanCrmContacts contactId contact.get',
				'loanCrmLeadsAndTasks leadId lead.get',
				'loanCrmLeadsAndTasks updateFields.residentialDealId .',
				'loanCrmLeadsAndTasks updateFields.assetFinanceDiversifiedDealId .',
				'loanCrmLeadsAndTasks updateFields.commercialFinanceDiversifiedDealId .',
			].sort(),
		);
	});

	it('each From List names a search method the node has', () => {
		const checked = new Set<string>();
		for (const node of ACTION_NODES) {
			const type = nodeTypes().getByNameAndVersion(`n8n-nodes-loan-crm.${node}`, 1);
			for (const { path, property } of allParameters(type.description.properties)) {
				for (const mode of property.modes ?? []) {
					const method = mode.typeOptions?.searchListMethod;
					if (method === undefined) continue;
					checked.add(`${node} ${path} ${String(property.displayOptions?.show?.resource ?? '')}.${String(property.displayOptions?.show?.operation ?? '')}`);
					expect(typeof type.methods?.listSearch?.[method]).toBe('function');
				}
			}
		}
		// The nine locators of the test above.
		expect(checked.size).toBe(9);
	});

	it('By ID accepts exactly what the node accepts at run time (whole numbers 1 to 2147483647)', () => {
		const node = { id: 'x', name: 'Loan CRM Deals', type: 'n8n-nodes-loan-crm.loanCrmDeals', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };
		const values = ['1', '10001', ' 10001 ', '007', '2147483647', '2147483648', '9999999999', '0', '', '-1', '1.5', '1e3', 'abc', '12 34', '2147483646', '1999999999', '2100000000'];
		for (const value of values) {
			let accepted = true;
			try {
				parseId(node, 'Deal', value);
			} catch {
				accepted = false;
			}
			expect([value, new RegExp(`^${ID_PATTERN}$`).test(value)]).toEqual([value, accepted]);
		}
	});

	it('the editor flags a By ID value that is not an ID, naming the rule', () => {
		const description = descriptionOf('loanCrmDeals');
		const parameters = { resource: 'deal', operation: 'get', dealId: locator('12a', 'id') };
		const node = { id: 'x', name: 'Loan CRM Deals', type: 'n8n-nodes-loan-crm.loanCrmDeals', typeVersion: 1, position: [0, 0] as [number, number], parameters };
		expect(NodeHelpers.getNodeParametersIssues(description.properties, node, description)).toEqual({
			parameters: { dealId: ['Must be a whole number from 1 to 2147483647'] },
		});
		node.parameters = { ...parameters, dealId: locator(' 10001 ', 'id') };
		expect(NodeHelpers.getNodeParametersIssues(description.properties, node, description)).toBeNull();
		node.parameters = { ...parameters, dealId: locator('={{ $json.id }}', 'id') };
		expect(NodeHelpers.getNodeParametersIssues(description.properties, node, description)).toBeNull();
	});
});

describe('Locator values and old-style values are read alike', () => {
	const dealNotePath = () => `/jsonapi/deals/${ids().dealWithNotes}/dealNotes`;

	it.each([
		['a locator picked From List', () => locator(ids().dealWithNotes)],
		['a locator By ID with spaces', () => locator(` ${ids().dealWithNotes} `, 'id')],
		['a locator By ID holding an expression', () => locator('={{ $json.deal }}', 'id')],
		['an old plain string', () => ids().dealWithNotes],
		['an old plain number', () => Number(ids().dealWithNotes)],
		['an old plain expression', () => '={{ $json.deal }}'],
	])('Deal Note → Get Many with %s', async (_label, value) => {
		const result = await env.run('loanCrmDeals', { resource: 'dealNote', operation: 'getMany', dealId: value() }, { input: [{ deal: ids().dealWithNotes }] });
		expect(result.error).toBeUndefined();
		expect(onlyRequest().path).toBe(dealNotePath());
		expect(jsonOf(result)).toHaveLength(3);
	});

	it('a locator with nothing picked is stopped before any request', async () => {
		const result = await env.run('loanCrmDeals', { resource: 'customStatus', operation: 'get', dealId: locator('={{ "" }}', 'id') });
		expect(result.error?.message).toBe('Parameter "Deal" must be a whole number from 1 to 2147483647; got ""');
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});

	it('old-style workflow JSON (plain IDs everywhere) runs unchanged: lead, deal external reference, task', async () => {
		const lead = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: ids().lead });
		expect(jsonOf(lead)).toEqual([expect.objectContaining({ id: ids().lead, type: 'leads' })]);
		env.sandbox.clearLog();
		const reference = await env.run('loanCrmDeals', {
			resource: 'dealExternalReference',
			operation: 'create',
			externalReference: 'OLD-STYLE-1',
			integrationId: ids().otherIntegration,
			dealId: ids().dealWithoutNotes,
		});
		expect(reference.error).toBeUndefined();
		expect(onlyRequest().json).toEqual({
			data: {
				type: 'deal-external-references',
				attributes: { externalReference: 'OLD-STYLE-1' },
				relationships: {
					integration: { data: { type: 'integrations', id: ids().otherIntegration } },
					deal: { data: { type: 'deals', id: ids().dealWithoutNotes } },
				},
			},
		});
	});

	it('examples/web-form-to-contact.json as saved (Deal ID from an expression) runs unchanged', async () => {
		const saved = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', 'web-form-to-contact.json'), 'utf8')) as { nodes: INode[]; connections: IConnections };
		const submission = { 'First name': 'Aroha', 'Last name': 'Ngata', Email: 'aroha@example.com', Mobile: '0412 345 678', 'Deal number': Number(ids().dealWithoutNotes) };
		const nodes = saved.nodes
			.filter((node) => node.type !== 'n8n-nodes-base.stickyNote')
			.map((node): INode => {
				// The form trigger becomes the harness's start node under the same name; the example's
				// integration ID placeholder becomes one the sandbox knows. Nothing else is changed.
				if (node.name === 'On form submission') return { ...node, type: START_NODE_TYPE, typeVersion: 1, parameters: { items: JSON.stringify([submission]) } };
				if (node.name === 'Record the form on the deal') return { ...node, parameters: { ...node.parameters, integrationId: ids().otherIntegration } };
				return node;
			});
		const result = await runWorkflow({ nodes, connections: saved.connections }, { credentials: env.store, startNode: 'On form submission' });
		expect(result.error).toBeUndefined();
		const post = env.sandbox.apiRequests().find((request) => request.method === 'POST' && request.path === '/jsonapi/deal-external-references');
		expect((post?.json as { data: { relationships: unknown } }).data.relationships).toEqual({
			integration: { data: { type: 'integrations', id: ids().otherIntegration } },
			deal: { data: { type: 'deals', id: ids().dealWithoutNotes } },
		});
		expect(result.output('Record the form on the deal')).toHaveLength(1);
	});

	it('a locator in create fields and in update fields becomes the relationship', async () => {
		const reference = await env.run('loanCrmDeals', {
			resource: 'dealExternalReference',
			operation: 'create',
			externalReference: 'PICKED-1',
			integrationId: ids().otherIntegration,
			dealId: locator(ids().dealWithoutNotes),
		});
		expect(reference.error).toBeUndefined();
		expect((onlyRequest().json as { data: { relationships: unknown } }).data.relationships).toEqual({
			integration: { data: { type: 'integrations', id: ids().otherIntegration } },
			deal: { data: { type: 'deals', id: ids().dealWithoutNotes } },
		});
		env.sandbox.clearLog();

		const task = await env.run('loanCrmLeadsAndTasks', {
			resource: 'task',
			operation: 'update',
			taskId: ids().task,
			updateFields: { residentialDealId: locator(` ${ids().dealWithoutNotes} `, 'id'), title: 'Promote to deal' },
		});
		expect(task.error).toBeUndefined();
		expect(onlyRequest().json).toEqual({
			data: {
				type: 'tasks',
				id: ids().task,
				attributes: { title: 'Promote to deal' },
				relationships: { residentialDeal: { data: { type: 'deals', id: ids().dealWithoutNotes } } },
			},
		});
	});

	it('a required locator left empty is reported as required, by its label', async () => {
		const result = await env.run('loanCrmDeals', {
			resource: 'dealExternalReference',
			operation: 'create',
			externalReference: 'X',
			integrationId: ids().integration,
			dealId: locator('={{ "" }}', 'id'),
		});
		expect(result.error?.message).toBe('Parameter "Deal" is required');
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});
});

describe('Get by ID on the collection endpoints', () => {
	it('Deal → Get: filter=equals(id), page[size]=1, one item (version 1: every field)', async () => {
		const result = await env.run('loanCrmDeals', { resource: 'deal', operation: 'get', dealId: locator(ids().settledDeal) }, { typeVersion: 1 });
		const request = onlyRequest();
		expect([request.method, request.path, request.query]).toEqual([
			'GET',
			'/jsonapi/deals',
			{ filter: `equals(id,'${ids().settledDeal}')`, 'page[size]': '1' },
		]);
		const deal = env.sandbox.data.get('deals', ids().settledDeal)?.attributes;
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: ids().settledDeal, type: 'deals', name: deal?.name, dealStatus: 'Settled' })]);
	});

	it('Deal → Get with Include and Fields: the included relationship is added to the fieldset', async () => {
		const result = await env.run('loanCrmDeals', {
			resource: 'deal',
			operation: 'get',
			dealId: ids().dealWithCustomStatus,
			options: { include: 'customStatus', fields: 'name' },
		});
		expect(onlyRequest().query).toEqual({
			filter: `equals(id,'${ids().dealWithCustomStatus}')`,
			include: 'customStatus',
			'fields[deals]': 'name,customStatus',
			'page[size]': '1',
		});
		const items = jsonOf(result);
		expect(items).toEqual([
			{
				id: ids().dealWithCustomStatus,
				type: 'deals',
				name: env.sandbox.data.get('deals', ids().dealWithCustomStatus)?.attributes.name,
				customStatus: expect.objectContaining({ type: 'custom-statuses', id: expect.any(String), name: expect.any(String) }),
			},
		]);
	});

	it('Contact → Get, Simplify off: the resource as sent (version 1)', async () => {
		const result = await env.run('loanCrmContacts', { resource: 'contact', operation: 'get', contactId: locator(ids().contact), simplify: false }, { typeVersion: 1 });
		expect(onlyRequest().query.filter).toBe(`equals(id,'${ids().contact}')`);
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: ids().contact, type: 'contacts', attributes: expect.objectContaining({ email: expect.any(String) }) })]);
	});

	it.each([
		['dealSecurity', 'dealSecurityId', 'deal-securities', () => ids().dealSecurity],
		['dealExternalReference', 'dealExternalReferenceId', 'deal-external-references', () => ids().dealExternalReference],
		['income', 'incomeId', 'incomes', () => ids().income],
	])('%s → Get (%s) on the collection /jsonapi/%s', async (resource, parameter, type, id) => {
		const result = await env.run('loanCrmDeals', { resource, operation: 'get', [parameter]: ` ${id()} ` });
		const request = onlyRequest();
		expect([request.path, request.query.filter, request.query['page[size]']]).toEqual([`/jsonapi/${type}`, `equals(id,'${id()}')`, '1']);
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: id(), type })]);
	});

	it('an ID that does not exist is a not-found error naming the ID, not an empty success', async () => {
		const result = await env.run('loanCrmDeals', { resource: 'deal', operation: 'get', dealId: locator('999999', 'id') });
		expect(result.error).toEqual(
			expect.objectContaining({ message: 'Loan CRM has no deal with ID 999999', httpCode: '404', description: expect.stringContaining('Check the ID') }),
		);
		expect(env.sandbox.apiRequests()).toHaveLength(1);
	});

	it('with Continue On Fail, each input item gets its own paired item', async () => {
		const result = await env.run(
			'loanCrmContacts',
			{ resource: 'contact', operation: 'get', contactId: locator('={{ $json.contact }}', 'id') },
			{ input: [{ contact: ids().contact }, { contact: '6999999' }, { contact: 'abc' }], continueOnFail: true },
		);
		expect(result.items.map((item) => [item.pairedItem, item.json.id ?? item.json.error])).toEqual([
			[{ item: 0 }, ids().contact],
			[{ item: 1 }, 'Loan CRM has no contact with ID 6999999'],
			[{ item: 2 }, 'Parameter "Contact" must be a whole number from 1 to 2147483647; got "abc"'],
		]);
		expect(env.sandbox.apiRequests()).toHaveLength(2);
	});
});

describe('The ID hints lead to the IDs', () => {
	it('deal structures, the organisation and assets are found where the descriptions say', async () => {
		const deal = await env.run('loanCrmDeals', {
			resource: 'deal',
			operation: 'get',
			dealId: ids().dealWithNotes,
			options: { include: 'dealStructures,adviser.organisation' },
		});
		const [item] = jsonOf(deal);
		const structures = item.dealStructures as Array<{ id: string }>;
		expect(structures.map((structure) => structure.id)).toContain(ids().dealStructure);
		const organisation = (item.adviser as { organisation: { id: string; type: string } }).organisation;
		expect(organisation.type).toBe('organisations');

		const addresses = await env.run('loanCrmOrganisationsAndAssets', { resource: 'organisation', operation: 'getAddresses', organisationId: organisation.id });
		expect(addresses.error).toBeUndefined();

		const incomes = await env.run('loanCrmDeals', { resource: 'income', operation: 'getMany', returnAll: true, options: { include: 'linkedAsset' } });
		const assetIds = jsonOf(incomes).flatMap((income) => (income.linkedAsset ? [(income.linkedAsset as { id: string }).id] : []));
		expect(assetIds.length).toBeGreaterThan(0);
		const assetAddresses = await env.run('loanCrmOrganisationsAndAssets', { resource: 'asset', operation: 'getAddresses', assetId: assetIds[0] });
		expect(assetAddresses.error).toBeUndefined();
	});
});
