/**
 * Resource locators and Get by ID, in n8n-core's engine against the sandbox: the From List search
 * as the editor runs it (LoadOptionsContext), locator values and old-style plain values read by
 * the operations, the By ID check, and Get on the collection endpoints with its not-found error.
 */
import { join } from 'path';

import type { INode, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { nodeTypes, runListSearch, runWorkflow } from '../../harness';
import type { LoggedRequest } from '../../sandbox';
import { ID_LIST_PATTERN, ID_PATTERN } from '../../nodes/shared/description/locators';
import { LIST_PAGE_SIZE, searchFilter } from '../../nodes/shared/execution/methods/listSearch';
import { parseId, parseIdList } from '../../nodes/shared/input/values';
import { NEWEST_VERSION } from '../../nodes/shared/service/versions';
import { jsonOf, useSandbox, webFormExample } from './helpers';

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
/** Every parameter and collection entry, with the `@version` condition it is shown under (a collection's for its entries). */
function allParameters(properties: INodeProperties[], prefix = '', inherited?: unknown): Array<{ path: string; property: INodeProperties; versions?: unknown }> {
	return properties.flatMap((property) => {
		const versions = property.displayOptions?.show?.['@version'] ?? inherited;
		return [
			{ path: `${prefix}${property.name}`, property, versions },
			...(property.type === 'collection' ? allParameters((property.options ?? []) as INodeProperties[], `${prefix}${property.name}.`, versions) : []),
			// A fixed collection's entries (a fact find's lists), each group's values.
			...(property.type === 'fixedCollection'
				? ((property.options ?? []) as Array<{ name: string; values: INodeProperties[] }>).flatMap((group) => allParameters(group.values, `${prefix}${property.name}.${group.name}.`, versions))
				: []),
		];
	});
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
		expect(onlyRequest().query.filter).toBe("and(or(contains(name,'Liam'),contains(name,'L''iam')),contains(name,'O''Connor'))");
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

	it('deals: a name typed without its apostrophe finds it ("liam oconnor"), in one request that costs what any search costs', async () => {
		const plain = await runListSearch({ nodeType: 'loanCrmDeals', method: 'searchDeals', credentials: env.store, filter: 'walker' });
		const plainCost = onlyRequest().cost;
		expect(plain.results.length).toBeGreaterThan(0);
		env.sandbox.clearLog();

		const { results } = await runListSearch({ nodeType: 'loanCrmDeals', method: 'searchDeals', credentials: env.store, filter: 'liam oconnor' });
		const request = onlyRequest();
		expect(request.query.filter).toBe("and(or(contains(name,'liam'),contains(name,'l''iam')),or(contains(name,'oconnor'),contains(name,'o''connor')))");
		expect(request.cost).toBe(plainCost);
		expect(results.map((result) => result.value)).toContain(ids().dealWithApostrophe);
		expect(results.length).toBeGreaterThan(0);
		for (const result of results) expect(result.name).toMatch(/^(?=.*liam)(?=.*o'?connor)/i);
		// The same deals as typing the apostrophe.
		env.sandbox.clearLog();
		const typedRight = await runListSearch({ nodeType: 'loanCrmDeals', method: 'searchDeals', credentials: env.store, filter: "Liam O'Connor" });
		expect(results.map((result) => result.value).sort()).toEqual(typedRight.results.map((result) => result.value).sort());
	});

	it.each([
		['O’Connor (U+2019, as phones type it)', 'O\u2019Connor'],
		['O‘Connor (U+2018)', 'O\u2018Connor'],
		['Oʼconnor (U+02BC)', 'O\u02BCconnor'],
	])('deals: %s is read as an apostrophe', async (_label, typed) => {
		const { results } = await runListSearch({ nodeType: 'loanCrmDeals', method: 'searchDeals', credentials: env.store, filter: `${typed} liam` });
		expect(onlyRequest().query.filter).toBe(`and(contains(name,'${typed.replace(/[\u2018\u2019\u02BC]/, "''")}'),or(contains(name,'liam'),contains(name,'l''iam')))`);
		expect(results.map((result) => result.value)).toContain(ids().dealWithApostrophe);
	});

	it('deals: no variant for a word with an apostrophe, shorter than 3 letters, with digits, or after the fourth word', () => {
		expect(searchFilter(['name'], "O'Connor Li 10004 R2D2", ['name'])).toBe(
			"and(contains(name,'O''Connor'),contains(name,'Li'),or(contains(name,'10004'),equals(id,'10004')),contains(name,'R2D2'))",
		);
		expect(searchFilter(['name'], 'aaa bbb ccc ddd eee', ['name'])).toBe(
			"and(or(contains(name,'aaa'),contains(name,'a''aa')),or(contains(name,'bbb'),contains(name,'b''bb')),or(contains(name,'ccc'),contains(name,'c''cc')),or(contains(name,'ddd'),contains(name,'d''dd')),contains(name,'eee'))",
		);
	});

	it('contacts: "O’Brien" typed with U+2019 finds the contact saved as O\'Brien', async () => {
		const contact = env.sandbox.data.get('contacts', ids().contactWithApostrophe)?.attributes;
		const { results } = await runListSearch({ nodeType: 'loanCrmContacts', method: 'searchContacts', credentials: env.store, filter: 'O\u2019Brien' });
		expect(onlyRequest().query.filter).toBe("or(contains(firstName,'O''Brien'),contains(lastName,'O''Brien'),contains(preferredName,'O''Brien'),contains(email,'O''Brien'))");
		expect(results).toContainEqual({ name: `O'Brien, ${contact?.firstName} — ${contact?.email} — #${ids().contactWithApostrophe}`, value: ids().contactWithApostrophe });
	});

	it('contacts: by name or e-mail, labelled "Last, First — e-mail — #id"', async () => {
		const contact = env.sandbox.data.get('contacts', ids().contactWithApostrophe)?.attributes;
		const byName = await runListSearch({ nodeType: 'loanCrmContacts', method: 'searchContacts', credentials: env.store, filter: `${contact?.firstName} O'Brien` });
		const request = onlyRequest();
		expect(request.query['fields[contacts]']).toBe('firstName,lastName,email');
		const first = String(contact?.firstName);
		const variant = `${first[0]}''${first.slice(1)}`;
		expect(request.query.filter).toBe(
			`and(or(contains(firstName,'${first}'),contains(lastName,'${first}'),contains(preferredName,'${first}'),contains(email,'${first}'),` +
				`contains(firstName,'${variant}'),contains(lastName,'${variant}'),contains(preferredName,'${variant}')),` +
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

describe('Every ID parameter is a resource locator, checked in the editor', () => {
	it('deal, lead, contact, adviser, enquiry source and referrer IDs have From List and By ID; every other ID only By ID, with a hint saying where it comes from', () => {
		const withList: string[] = [];
		const byIdOnly: string[] = [];
		for (const node of ACTION_NODES) {
			const description = descriptionOf(node);
			for (const { path, property, versions } of allParameters(description.properties)) {
				if (!/Ids?$/.test(property.name)) continue;
				const operations = property.displayOptions?.show?.operation ?? [''];
				const where = `${node} ${path} ${String(property.displayOptions?.show?.resource ?? '')}.${String(operations)}`;
				expect([where, property.type]).toEqual([where, 'resourceLocator']);
				const byId = property.modes?.find((mode) => mode.name === 'id');
				const list = property.name.endsWith('Ids');
				// A referrer's ID is text to the service: By ID takes it unchecked.
				const textId = property.name === 'sourceReferrerId';
				// The rule in the words of the versions the copy is for: from 1.2 "a record ID (a whole number)".
				const condition = versions as Parameters<typeof NodeHelpers.checkConditions>[0] | undefined;
				const newest = condition === undefined || NodeHelpers.checkConditions(condition, [NEWEST_VERSION]);
				const oldest = condition === undefined || NodeHelpers.checkConditions(condition, [1]);
				expect([where, newest && oldest]).toEqual([where, false]);
				const rule = newest
					? list
						? 'must be record IDs (whole numbers), separated by commas'
						: 'must be a record ID (a whole number)'
					: `must be ${list ? 'whole numbers' : 'a whole number'} from 1 to 2147483647${list ? ', separated by commas' : ''}`;
				expect([where, byId?.validation]).toEqual([where, textId ? undefined : [{ type: 'regex', properties: { regex: list ? ID_LIST_PATTERN : ID_PATTERN, errorMessage: `${property.displayName} ${rule}` } }]]);
				if (property.modes?.some((mode) => mode.name === 'list')) {
					withList.push(where);
					expect(property.modes.find((mode) => mode.name === 'list')?.typeOptions?.searchable).toBe(true);
					continue;
				}
				byIdOnly.push(where);
				// Empty, or (node version 1.1's tool variant) filled by the model.
				const modelFilled = { __rl: true, mode: 'id', value: expect.stringMatching(/^=\{\{ \/\*n8n-auto-generated-fromAI-override\*\/ \$fromAI\(/) };
				expect([where, property.modes?.length, property.default]).toEqual([where, 1, String((property.default as { value?: unknown }).value).includes('$fromAI') ? modelFilled : { mode: 'id', value: '' }]);
				expect([where, byId?.hint]).toEqual([where, expect.stringMatching(/^(A whole number|Whole numbers, separated by commas)\. (IDs come from|IDs are shown|Copy it from|An adviser's contact ID) .+\.$/)]);
			}
		}
		// A parameter comes once per version and variant that differ (a tool's is filled by the model in version 1.1).
		expect([...new Set(withList)].sort()).toEqual(
			[
				'loanCrmDeals dealId deal.get',
				'loanCrmDeals dealId dealNote.getMany',
				'loanCrmDeals dealId customStatus.get',
				'loanCrmDeals dealId dealExternalReference.create',
				'loanCrmDeals dealId dealNote.create',
				'loanCrmContacts contactId contact.get',
				'loanCrmLeadsAndTasks leadId lead.get',
				'loanCrmLeadsAndTasks updateFields.residentialDealId .',
				'loanCrmLeadsAndTasks updateFields.assetFinanceDiversifiedDealId .',
				'loanCrmLeadsAndTasks updateFields.commercialFinanceDiversifiedDealId .',
				// Advisers (issue 42): the same list everywhere one is picked, also By Name or E-mail (and
				// Allocate To, whose name does not end in Id: the next test counts it).
				'loanCrmLeadsAndTasks updateFields.assigneeId .',
				'loanCrmDeals requestOptions.userId .',
				'loanCrmContacts requestOptions.userId .',
				'loanCrmLeadsAndTasks requestOptions.userId .',
				'loanCrmOrganisationsAndAssets requestOptions.userId .',
				// Where a lead came from.
				'loanCrmLeadsAndTasks additionalFields.sourceId .',
				'loanCrmLeadsAndTasks additionalFields.sourceReferrerId .',
				// A fact find's type IDs (issue 43), each from the service's own list.
				'loanCrmLeadsAndTasks incomes.income.incomeTypeId .',
				'loanCrmLeadsAndTasks assets.asset.assetTypeId .',
				'loanCrmLeadsAndTasks assets.asset.additionalFields.assetSubTypeId .',
				'loanCrmLeadsAndTasks assets.asset.additionalFields.propertyTypeId .',
				'loanCrmLeadsAndTasks liabilities.liability.liabilityTypeId .',
				'loanCrmLeadsAndTasks liabilities.liability.liabilitySubTypeId .',
				'loanCrmLeadsAndTasks expenses.expense.expenseTypeId .',
			].sort(),
		);
		expect([...new Set(byIdOnly)].sort()).toEqual(
			[
				'loanCrmDeals dealStructureId dealStructure.getDeal',
				'loanCrmDeals dealStructureId dealStructure.update',
				'loanCrmDeals dealSecurityId dealSecurity.get',
				'loanCrmDeals dealExternalReferenceId dealExternalReference.get',
				'loanCrmDeals integrationId dealExternalReference.create',
				'loanCrmDeals dealNoteId dealNote.update',
				'loanCrmDeals dealNoteId dealNote.delete',
				'loanCrmDeals incomeId income.get',
				'loanCrmContacts additionalFields.contactGroupId .',
				'loanCrmContacts contactExternalReferenceId contactExternalReference.getContact',
				'loanCrmContacts contactExternalReferenceId contactExternalReference.update',
				'loanCrmContacts contactCategoryId contactCategory.update',
				'loanCrmLeadsAndTasks taskId task.update',
				'loanCrmLeadsAndTasks updateFields.contactGroupIds .',
				// A fact find's property zoning: the service has no list of zonings.
				'loanCrmLeadsAndTasks assets.asset.additionalFields.propertyZoningId .',
				'loanCrmOrganisationsAndAssets organisationId organisation.getAddresses',
				'loanCrmOrganisationsAndAssets assetId asset.getAddresses',
			].sort(),
		);
	});

	it("Task ID's hint does not promise a step that gives the ID: no operation lists or creates tasks", () => {
		const taskId = descriptionOf('loanCrmLeadsAndTasks').properties.find((property) => property.name === 'taskId');
		const shapes = ['loanCrmDeals', 'loanCrmContacts', 'loanCrmLeadsAndTasks', 'loanCrmOrganisationsAndAssets'].flatMap((node) =>
			nodeTypes()
				.getByNameAndVersion(`n8n-nodes-loan-crm.${node}`, 1)
				.description.properties.filter((property) => property.name === 'operation' && property.displayOptions?.show?.resource?.[0] === 'task')
				.flatMap((property) => (property.options as Array<{ value: string }>).map((option) => option.value)),
		);
		expect(shapes).toEqual(['update']);
		expect(taskId?.modes?.[0].hint).toBe('A whole number. Copy it from the task in Loan CRM: the service offers no list of tasks, so no step of these nodes can look one up.');
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
		// The From List locators of the test above: ten of deals, leads and contacts (Deal Note →
		// Create's Deal the tenth), seven of advisers (Fact Find → Create's Allocate To the seventh),
		// two of a lead's source, and a fact find's seven type IDs.
		expect(checked.size).toBe(26);
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

	it('a list of IDs (Contact Group IDs) accepts exactly what the node accepts at run time', () => {
		const node = { id: 'x', name: 'Loan CRM Leads & Tasks', type: 'n8n-nodes-loan-crm.loanCrmLeadsAndTasks', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };
		const values = ['1', '101,102', ' 101 , 102 ', '101,,102', ',101', '101,', '007,2147483647', '101 102', '101;102', '101,abc', '101,0', '101,2147483648', ',', ' , ', '', '1.5,2'];
		let accepted = 0;
		for (const value of values) {
			let parsed = true;
			try {
				parseIdList(node, 'Update Fields → Contact Group IDs', value);
			} catch {
				parsed = false;
			}
			if (parsed) accepted += 1;
			expect([value, new RegExp(`^${ID_LIST_PATTERN}$`).test(value)]).toEqual([value, parsed]);
		}
		expect(accepted).toBe(7);
	});

	it('the editor flags a By ID value that is not an ID, naming the field and the rule', () => {
		const description = descriptionOf('loanCrmDeals');
		const parameters = { resource: 'deal', operation: 'get', dealId: locator('12a', 'id') };
		const node = { id: 'x', name: 'Loan CRM Deals', type: 'n8n-nodes-loan-crm.loanCrmDeals', typeVersion: 1, position: [0, 0] as [number, number], parameters };
		// A saved node (version 1): the rule as it was worded; a new one (1.2): in plain words.
		expect(NodeHelpers.getNodeParametersIssues(description.properties, node, description)).toEqual({
			parameters: { dealId: ['Deal must be a whole number from 1 to 2147483647'] },
		});
		expect(NodeHelpers.getNodeParametersIssues(description.properties, { ...node, typeVersion: NEWEST_VERSION }, description)).toEqual({
			parameters: { dealId: ['Deal must be a record ID (a whole number)'] },
		});
		node.parameters = { ...parameters, dealId: locator(' 10001 ', 'id') };
		expect(NodeHelpers.getNodeParametersIssues(description.properties, node, description)).toBeNull();
		node.parameters = { ...parameters, dealId: locator('={{ $json.id }}', 'id') };
		expect(NodeHelpers.getNodeParametersIssues(description.properties, node, description)).toBeNull();
	});

	it('plain ID fields are flagged the same way: Task ID, Update Fields → Assignee ID and Contact Group IDs, Request Options → User ID', () => {
		const description = descriptionOf('loanCrmLeadsAndTasks');
		/**
		 * What the editor shows on one field: n8n's ParameterInput (2.30 ParameterInput.vue getIssues)
		 * calls NodeHelpers.getParameterIssues for the field, with its parent's path for a field inside
		 * a collection.
		 */
		const issues = (path: string, parameters: Record<string, unknown>) => {
			const [parent, name] = path.includes('.') ? path.split('.') : ['', path];
			// The copy a node of version 1 shows (Request Options has one per version from 1.2).
			const onTaskUpdate = (property: INodeProperties) => {
				const show = property.displayOptions?.show;
				const version = show?.['@version'] as Parameters<typeof NodeHelpers.checkConditions>[0] | undefined;
				if (version !== undefined && !NodeHelpers.checkConditions(version, [1])) return false;
				return show?.resource === undefined || (show.resource[0] === 'task' && show.operation?.[0] === 'update');
			};
			const container = parent === '' ? description.properties : ((description.properties.find((property) => property.name === parent && onTaskUpdate(property))?.options ?? []) as INodeProperties[]);
			const property = container.find((candidate) => candidate.name === name && onTaskUpdate(candidate));
			if (property === undefined) throw new Error(`no parameter ${path}`);
			const all = { resource: 'task', operation: 'update', ...parameters } as INode['parameters'];
			const node = { id: 'x', name: 'Loan CRM Leads & Tasks', type: 'n8n-nodes-loan-crm.loanCrmLeadsAndTasks', typeVersion: 1, position: [0, 0] as [number, number], parameters: all };
			return NodeHelpers.getParameterIssues(property, all, parent, node, description).parameters?.[name] ?? [];
		};
		const rule = (label: string) => `${label} must be a whole number from 1 to 2147483647`;
		expect(issues('taskId', { taskId: locator('abc', 'id') })).toEqual([rule('Task ID')]);
		expect(issues('taskId', { taskId: locator('12a', 'id') })).toEqual([rule('Task ID')]);
		expect(issues('taskId', { taskId: locator(' 9500001 ', 'id') })).toEqual([]);
		expect(issues('taskId', { taskId: locator('={{ $json.task }}', 'id') })).toEqual([]);
		// A workflow saved before 0.2 holds a plain string: the editor shows it as saved, unchecked
		// (n8n checks only a locator's value); the run time still refuses it (next describe).
		expect(issues('taskId', { taskId: 'abc' })).toEqual([]);
		expect(issues('updateFields.assigneeId', { updateFields: { assigneeId: locator('1.5', 'id') } })).toEqual([rule('Assignee ID')]);
		expect(issues('updateFields.assigneeId', { updateFields: { assigneeId: locator('1002', 'id') } })).toEqual([]);
		expect(issues('updateFields.contactGroupIds', { updateFields: { contactGroupIds: locator('101, x', 'id') } })).toEqual(['Contact Group IDs must be whole numbers from 1 to 2147483647, separated by commas']);
		expect(issues('updateFields.contactGroupIds', { updateFields: { contactGroupIds: locator('101, 102', 'id') } })).toEqual([]);
		expect(issues('requestOptions.userId', { requestOptions: { userId: locator('-1', 'id') } })).toEqual([rule('User ID')]);
		expect(issues('requestOptions.userId', { requestOptions: { userId: locator('1002', 'id') } })).toEqual([]);
	});

	it('two wrong IDs give two issues, each naming its field', () => {
		const description = descriptionOf('loanCrmLeadsAndTasks');
		const parameters = { resource: 'task', operation: 'update', taskId: locator('abc', 'id'), updateFields: { assigneeId: locator('1.5', 'id') } };
		const node = { id: 'x', name: 'Loan CRM Leads & Tasks', type: 'n8n-nodes-loan-crm.loanCrmLeadsAndTasks', typeVersion: 1.1, position: [0, 0] as [number, number], parameters };
		const found = NodeHelpers.getNodeParametersIssues(description.properties, node, description);
		// What the canvas and the refusal to run list (nodeIssuesToString): n8n checks the node's own
		// parameters there, not those inside a collection.
		expect(NodeHelpers.nodeIssuesToString(found ?? {}, node)).toEqual(['Task ID must be a whole number from 1 to 2147483647']);
		// Under the field, each its own (ParameterInput: getParameterIssues with the parent's path).
		const [assignee] = ((description.properties.find((property) => property.name === 'updateFields' && property.displayOptions?.show?.resource?.[0] === 'task')?.options ?? []) as INodeProperties[]).filter(
			(property) => property.name === 'assigneeId',
		);
		expect(NodeHelpers.getParameterIssues(assignee, parameters as INode['parameters'], 'updateFields', node, description).parameters).toEqual({
			assigneeId: ['Assignee ID must be a whole number from 1 to 2147483647'],
		});
		// The same two in a new node, in plain words.
		const fresh = { ...node, typeVersion: NEWEST_VERSION };
		expect(NodeHelpers.nodeIssuesToString(NodeHelpers.getNodeParametersIssues(description.properties, fresh, description) ?? {}, fresh)).toEqual(['Task ID must be a record ID (a whole number)']);
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
		expect(result.error?.message).toBe('Parameter "Deal" must be a record ID (a whole number); got ""');
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
		const submission = { 'First name': 'Aroha', 'Last name': 'Ngata', Email: 'aroha@example.com', Mobile: '0412 345 678', 'Deal number': Number(ids().dealWithoutNotes) };
		const result = await runWorkflow(webFormExample(submission, ids().otherIntegration), { credentials: env.store, startNode: 'On form submission' });
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

describe('ID fields that became By-ID locators read old and new values alike', () => {
	it.each([
		['a locator', () => locator(ids().task, 'id')],
		['a locator with spaces and a leading zero', () => locator(` 0${ids().task} `, 'id')],
		['a locator holding an expression', () => locator('={{ $json.task }}', 'id')],
		['an old plain string', () => ids().task],
		['an old plain number', () => Number(ids().task)],
		['an old plain expression', () => '={{ $json.task }}'],
	])('Task → Update: Task ID as %s', async (_label, value) => {
		const result = await env.run(
			'loanCrmLeadsAndTasks',
			{ resource: 'task', operation: 'update', taskId: value(), updateFields: { progress: 'InProgress' } },
			{ input: [{ task: ids().task }] },
		);
		expect(result.error).toBeUndefined();
		const request = onlyRequest();
		expect([request.method, request.path, request.json]).toEqual([
			'PATCH',
			`/jsonapi/tasks/${ids().task}`,
			{ data: { type: 'tasks', id: ids().task, attributes: { progress: 'InProgress' } } },
		]);
	});

	it('Task → Update: a Task ID that is not an ID is refused before any request, as saved before 0.2 and as a locator', async () => {
		const parameters = { resource: 'task', operation: 'update', updateFields: { progress: 'InProgress' } };
		// A plain value: the node's own check, naming the field.
		const old = await env.run('loanCrmLeadsAndTasks', { ...parameters, taskId: 'abc' });
		expect(old.error?.message).toBe('Parameter "Task ID" must be a record ID (a whole number); got "abc"');
		// A locator: n8n itself refuses to start a workflow whose parameters have issues (the By ID
		// check of the editor), before the node runs.
		await expect(env.run('loanCrmLeadsAndTasks', { ...parameters, taskId: locator('abc', 'id') })).rejects.toThrow(
			"The 'Loan CRM' node has issues:\n- Task ID must be a record ID (a whole number)",
		);
		// From an expression, the value is only known at run time: the node's check again.
		const fromExpression = await env.run('loanCrmLeadsAndTasks', { ...parameters, taskId: locator('={{ $json.task }}', 'id') }, { input: [{ task: 'abc' }] });
		expect(fromExpression.error?.message).toBe('Parameter "Task ID" must be a record ID (a whole number); got "abc"');
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});

	it('Update Fields → Assignee ID and Contact Group IDs: locators and old plain values become the relationships', async () => {
		const groups = env.sandbox.data.idsOf('contact-groups').slice(0, 2);
		const expected = {
			data: {
				type: 'tasks',
				id: ids().task,
				relationships: {
					assignee: { data: { type: 'advisers', id: ids().adviser } },
					contactGroups: { data: groups.map((id) => ({ type: 'contact-groups', id })) },
				},
			},
		};
		for (const updateFields of [
			{ assigneeId: locator(ids().adviser, 'id'), contactGroupIds: locator(` ${groups[0]} , ${groups[1]} `, 'id') },
			{ assigneeId: ids().adviser, contactGroupIds: groups.join(',') },
		]) {
			env.sandbox.clearLog();
			const result = await env.run('loanCrmLeadsAndTasks', { resource: 'task', operation: 'update', taskId: locator(ids().task, 'id'), updateFields });
			expect(result.error).toBeUndefined();
			expect(onlyRequest().json).toEqual(expected);
		}
	});

	it.each([
		['a locator', () => locator(ids().adviserContactIds[1], 'id'), () => ids().adviserContactIds[1]],
		['an old plain string', () => ids().adviserContactIds[1], () => ids().adviserContactIds[1]],
		['a locator added but left empty (the credential\'s User ID)', () => locator('', 'id'), () => env.sandbox.userId],
	])('Request Options → User ID as %s sets the UserId header', async (_label, value, header) => {
		const result = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: ids().lead, requestOptions: { userId: value() } });
		expect(result.error).toBeUndefined();
		expect(onlyRequest().headers.userid).toBe(header());
	});

	it('Request Options → User ID that is not an ID is refused, naming the option', async () => {
		const result = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: ids().lead, requestOptions: { userId: locator('10 02', 'id') } });
		expect(result.error?.message).toBe('Parameter "Request Options → User ID" must be a record ID (a whole number); got "10 02"');
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
			[{ item: 2 }, 'Parameter "Contact" must be a record ID (a whole number); got "abc"'],
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
