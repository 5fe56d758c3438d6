/**
 * The action nodes as an AI agent's tools, in n8n-core's engine: each node's `…Tool` copy attached
 * to a harness agent that calls it through n8n-core's createNodeAsTool (the path n8n's AI Agent and
 * MCP Server Trigger use). Tools of the newest version exactly as the editor adds them (their arguments come
 * with them); version 1 tools as saved workflows have them, `$fromAI` wired by their author. What
 * the agent reads (tool descriptions, input schemas), what it gets back (small, compact answers) and
 * errors it can correct itself from; the requests the sandbox received.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Registry } from '../../harness';
import type { AgentCall, ListedTool, ToolSpec } from '../../harness/tools';
import { createToolRegistry, runAgent, toolAsTheEditorAddsIt } from '../../harness/tools';
import { NEWEST_VERSION } from '../../nodes/shared/service/versions';
import { decodedQuery, jsonOf, useSandbox } from './helpers';

const env = useSandbox();
const ids = () => env.sandbox.data.ids;
let registry: Registry;

beforeAll(() => {
	registry = createToolRegistry();
});
afterEach(() => env.sandbox.data.reset());

const fromAI = (key: string, description: string, type = 'string') => `={{ $fromAI('${key}', '${description}', '${type}') }}`;

// Version 1 tools as saved workflows have them: the author wired the arguments.
const FIND_DEALS: ToolSpec = {
	name: 'Find deals',
	node: 'loanCrmDeals',
	typeVersion: 1,
	parameters: { resource: 'deal', operation: 'getMany', options: { filter: fromAI('filter', 'Filter expression in the syntax the tool description gives') } },
};
const UPDATE_TASK: ToolSpec = {
	name: 'Update task',
	node: 'loanCrmLeadsAndTasks',
	typeVersion: 1,
	parameters: {
		resource: 'task',
		operation: 'update',
		taskId: fromAI('taskId', 'ID of the task', 'number'),
		updateFields: { progress: fromAI('progress', 'New progress of the task') },
	},
};
const GET_LEAD: ToolSpec = {
	name: 'Get lead',
	node: 'loanCrmLeadsAndTasks',
	typeVersion: 1,
	parameters: { resource: 'lead', operation: 'get', leadId: fromAI('leadId', 'ID of the lead', 'number') },
};

async function agent(tools: ToolSpec[], calls: AgentCall[]) {
	const result = await runAgent(registry, env.store, tools, calls);
	expect(result.error).toBeUndefined();
	return result;
}

/** Every member at every depth that is null, an empty object or an empty list. */
function emptyMembers(value: unknown, path = ''): string[] {
	if (value === null) return [path];
	if (Array.isArray(value)) return value.length === 0 ? [path] : value.flatMap((entry, index) => emptyMembers(entry, `${path}[${index}]`));
	if (typeof value === 'object') {
		const entries = Object.entries(value as IDataObject);
		return entries.length === 0 ? [path] : entries.flatMap(([key, member]) => emptyMembers(member, `${path}.${key}`));
	}
	return [];
}

describe('version 1 (saved workflows): what the agent reads', () => {
	it('each tool describes itself: what it does, fields, known values, filter syntax with an example, limit and compact output', async () => {
		const { tools } = await agent([FIND_DEALS, UPDATE_TASK, GET_LEAD], []);
		const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
		expect(Object.keys(byName).sort()).toEqual(['Find_deals', 'Get_lead', 'Update_task']);

		const deals = byName.Find_deals.description;
		expect(deals).toMatch(/^Get many deals in Loan CRM: list deals, optionally filtered/);
		expect(deals).toContain('dealStatus (one of NewLeads, Researching, InProgress, PreApproved, Lodged, ConditionallyApproved, UnconditionallyApproved, PendingSettlement, Settled, Varied, Repaid, Withdrawn, Cancelled)');
		expect(deals).toContain('Filter and sort on: id, created, updated, name, dealStatus, dealType, totalLoanAmount, lenderName, customStatusName; through relationships: adviser.id.');
		expect(deals).toContain("Filter syntax is functions, not operators: equals(field,'value')");
		expect(deals).toContain("Example: and(equals(dealStatus,'Settled'),greaterOrEqual(updated,'2026-11-01')).");
		expect(deals).toContain('Returns at most 10 records unless a Limit is given');
		expect(deals).toContain('Output is compact: empty (null) fields, empty lists and empty objects are left out.');
		expect(byName.Find_deals.arguments).toEqual(['filter']);

		const task = byName.Update_task.description;
		expect(task).toMatch(/^Update a task in Loan CRM: change the title, details, progress/);
		expect(task).toContain('Needs taskId (ID of the task to update, a whole number).');
		expect(task).toContain('progress (one of NotStarted, InProgress, OnHold, Completed, NotRequired)');
		expect(task).toContain('dueDate (date-time, ISO 8601 with its offset or Z, e.g. 2026-11-21T09:30:00+10:00)');
		expect(byName.Update_task.arguments.sort()).toEqual(['progress', 'taskId']);

		expect(byName.Get_lead.description).toMatch(/^Get a lead in Loan CRM: get the status of a lead by its ID \(the same as its deal ID\)\. Needs leadId/);
		expect(byName.Get_lead.description).toContain('dealStatus (one of NewLeads');
		expect(env.sandbox.apiRequests()).toEqual([]);
	});

	it("the workflow author's own tool description wins, also one saved with n8n's Set Manually; Set Automatically gets ours", async () => {
		const own = { ...GET_LEAD, name: 'Own', parameters: { ...GET_LEAD.parameters, toolDescription: 'Look up one lead.' } };
		const saved = { ...GET_LEAD, name: 'Saved', parameters: { ...GET_LEAD.parameters, descriptionType: 'manual', toolDescription: 'Saved text.' } };
		const auto = { ...GET_LEAD, name: 'Auto', parameters: { ...GET_LEAD.parameters, descriptionType: 'auto' } };
		const { tools } = await agent([own, saved, auto], []);
		const descriptions = Object.fromEntries(tools.map((tool) => [tool.name, tool.description]));
		expect([descriptions.Own, descriptions.Saved]).toEqual(['Look up one lead.', 'Saved text.']);
		// n8n's old "Set Automatically" gave "Get a lead in Loan CRM Leads & Tasks"; saved with it, a tool now gets ours.
		expect(descriptions.Auto).toMatch(/^Get a lead in Loan CRM: get the status of a lead by its ID/);
	});
});

describe('version 1 (saved workflows): answers an agent can afford', () => {
	it('a read with a filter: 10 records by default, compact (no null members, empty objects or lists)', async () => {
		const { answers } = await agent([FIND_DEALS], [{ tool: 'Find_deals', args: { filter: "equals(dealStatus,'Settled')" } }]);
		const requests = env.sandbox.apiRequests();
		expect(requests.map((request) => [request.method, request.path, decodedQuery(request.rawQuery)])).toEqual([
			['GET', '/jsonapi/deals', "filter=equals(dealStatus,'Settled')&page[size]=10"],
		]);
		const deals = answers[0].answer as unknown as IDataObject[];
		const settled = env.sandbox.data.list('deals').filter((deal) => deal.attributes.dealStatus === 'Settled');
		expect(deals.map((deal) => deal.id)).toEqual(settled.slice(0, 10).map((deal) => deal.id));
		expect(deals).toHaveLength(10);
		expect(deals.every((deal) => deal.dealStatus === 'Settled' && deal.type === 'deals')).toBe(true);
		expect(deals.flatMap((deal) => emptyMembers(deal))).toEqual([]);
	});

	it('50 deals: compact output is much smaller than full; the normal node keeps its full output and Limit 50', async () => {
		const limit = (output: string): ToolSpec => ({
			name: `Deals ${output}`,
			node: 'loanCrmDeals',
			typeVersion: 1,
			parameters: { resource: 'deal', operation: 'getMany', limit: fromAI('limit', 'How many deals', 'number'), agentOutput: output },
		});
		const { answers } = await agent([limit('compact'), limit('full')], [
			{ tool: 'Deals_compact', args: { limit: 50 } },
			{ tool: 'Deals_full', args: { limit: 50 } },
		]);
		const [compact, full] = answers.map((answer) => answer.text as string);
		expect((answers[0].answer as unknown as IDataObject[]).length).toBe(50);
		expect((answers[1].answer as unknown as IDataObject[]).length).toBe(50);
		const person = await env.run('loanCrmDeals', { resource: 'deal', operation: 'getMany' }, { typeVersion: 1 });
		const personText = JSON.stringify(jsonOf(person));
		console.log(`50 deals: full ${full.length} characters, compact ${compact.length} (${Math.round((100 * compact.length) / full.length)}%)`);
		expect(compact.length).toBeLessThan(full.length * 0.75);
		// Full is exactly what the node gives a person; the person's run asked for 50 (its default).
		expect(full).toBe(personText);
		expect(decodedQuery(env.sandbox.apiRequests()[2].rawQuery)).toBe('page[size]=50');
		expect(jsonOf(person).flatMap((deal) => emptyMembers(deal)).length).toBeGreaterThan(0);
	});
});

describe('version 1 (saved workflows): errors the caller can correct itself from', () => {
	it('a filter written with an operator: the function to write instead and the fields, before any request', async () => {
		const { answers } = await agent([FIND_DEALS], [{ tool: 'Find_deals', args: { filter: "dealStatus = 'Settled'" } }]);
		expect(answers[0].error).toBe(
			"Parameter \"Options → Filter\" (tool argument \"filter\") uses the operator =; the service only understands functions: write equals(dealStatus,'Settled') instead of dealStatus='Settled'. Functions: equals, lessThan, lessOrEqual, greaterThan, greaterOrEqual, contains, startsWith, endsWith, any, has, not, and, or; every value in single quotes. Fields of deals: id, created, updated, name, dealStatus, dealType, totalLoanAmount, lenderName, customStatusName; through relationships: adviser.id.",
		);
		expect(env.sandbox.apiRequests()).toEqual([]);
	});

	it('a person gets the same answer from the node', async () => {
		const result = await env.run('loanCrmDeals', { resource: 'deal', operation: 'getMany', options: { filter: 'totalLoanAmount >= 500000' } });
		expect(result.error?.message).toMatch(/^Parameter "Options → Filter" uses the operator >=; the service only understands functions: write greaterOrEqual\(totalLoanAmount,'500000'\) instead of totalLoanAmount>=500000\./);
		expect(env.sandbox.apiRequests()).toEqual([]);
	});

	it('a wrong field in a filter: the 400 is completed with the fields of the resource and the parameter', async () => {
		const { answers } = await agent([FIND_DEALS], [{ tool: 'Find_deals', args: { filter: "equals(status,'Settled')" } }]);
		const error = answers[0].error as string;
		expect(error).toMatch(/^Loan CRM rejected the request \(400\): query parameter "filter": .*Field 'status' does not exist on resource type 'deals'\./);
		expect(error).toContain(
			'. Check parameter "Options → Filter (or Conditions)" (tool argument "filter"). Fields of deals: id, created, updated, name, dealStatus, dealType, totalLoanAmount, lenderName, customStatusName; through relationships: adviser.id',
		);
		expect(error).toContain("Details: Filter example: and(equals(field,'value'),greaterOrEqual(updated,'2026-11-01')).");
		expect(env.sandbox.apiRequests().map((request) => request.status)).toEqual([400]);
	});

	it('a wrong sort field names Options → Sort', async () => {
		const result = await env.run('loanCrmDeals', { resource: 'deal', operation: 'getMany', options: { sort: '-status' } });
		expect(result.error?.message).toContain('. Check parameter "Options → Sort". Fields of deals: id, created, updated, name, dealStatus');
		expect(result.error?.description).toMatch(/^Sort example: -updated,name\./);
	});

	it('a value outside the known list: the parameter as the caller knows it and the known values', async () => {
		const { answers } = await agent([UPDATE_TASK], [{ tool: 'Update_task', args: { taskId: Number(ids().task), progress: 'Done' } }]);
		// The parameter in place of the service's attribute name (issue 42).
		expect(answers[0].error).toContain('Loan CRM rejected the data (422): "Update Fields → Progress" (tool argument "progress"): ');
		expect(answers[0].error).not.toContain('field "progress"');
		expect(answers[0].error).toContain('. Parameter "Update Fields → Progress" (tool argument "progress") takes one of: NotStarted, InProgress, OnHold, Completed, NotRequired');
		const requests = env.sandbox.apiRequests();
		expect(requests.map((request) => [request.method, request.path, request.status])).toEqual([['PATCH', `/jsonapi/tasks/${ids().task}`, 422]]);
		expect(JSON.parse(requests[0].body as string)).toEqual({ data: { type: 'tasks', id: ids().task, attributes: { progress: 'Done' } } });
	});

	it('a known value written another way is sent as the service spells it', async () => {
		const { answers } = await agent([UPDATE_TASK], [{ tool: 'Update_task', args: { taskId: Number(ids().task), progress: 'in progress' } }]);
		expect(answers[0].error).toBeUndefined();
		expect(JSON.parse(env.sandbox.apiRequests()[0].body as string)).toEqual({ data: { type: 'tasks', id: ids().task, attributes: { progress: 'InProgress' } } });
		expect(answers[0].answer).toEqual([expect.objectContaining({ id: ids().task, progress: 'InProgress' })]);
	});

	it('bad input (an ID that is no number): named by its parameter and tool argument, no request sent', async () => {
		const tool = { ...GET_LEAD, parameters: { ...GET_LEAD.parameters, leadId: fromAI('leadId', 'ID of the lead') } };
		const { answers } = await agent([tool], [{ tool: 'Get_lead', args: { leadId: 'the Smith lead' } }]);
		expect(answers[0].error).toBe('Parameter "Lead" (tool argument "leadId") must be a whole number from 1 to 2147483647; got "the Smith lead"');
		expect(env.sandbox.apiRequests()).toEqual([]);
	});

	it('not found, a get by ID and no secret in any answer', async () => {
		const { answers } = await agent([GET_LEAD], [
			{ tool: 'Get_lead', args: { leadId: 999999 } },
			{ tool: 'Get_lead', args: { leadId: Number(ids().lead) } },
		]);
		expect(answers[0].error).toMatch(/^Loan CRM has no lead with ID 999999\n/);
		expect(answers[1].answer).toEqual([expect.objectContaining({ id: ids().lead, type: 'leads' })]);
		const everything = JSON.stringify(answers);
		for (const secret of [env.sandbox.clientSecret, ...env.sandbox.issuedTokens()]) expect(everything).not.toContain(secret);
	});
});

// --- version 1.1 and later: tools as the editor adds them (the newest version) ---------------------

/** A tool node of the newest version exactly as the editor adds it from the agent's tool connector. */
const added = (node: string, resource: string, operation: string): ToolSpec => toolAsTheEditorAddsIt(registry, node, { resource, operation });

/** `Key:type` with `!` for required and `=default` otherwise, as the model is told. */
function schemaSummary(tool: ListedTool): string[] {
	return Object.entries(tool.schema).map(([key, entry]) => `${key}:${entry.type}${entry.required ? '!' : `=${JSON.stringify(entry.default)}`}`);
}

/** Characters of an answer per record. */
const perRecord = (text: string, count: number) => text.length / count;

describe('the newest version (arguments wired since 1.1): a tool as the editor adds it works with no change by its author', () => {
	it('is named "<action> in Loan CRM", saves no $fromAI for the model-filled top-level parameters and offers the arguments its description names', async () => {
		const deals = added('loanCrmDeals', 'deal', 'getMany');
		expect(deals.name).toBe('Get many deals in Loan CRM');
		expect(deals.typeVersion).toBe(NEWEST_VERSION);
		// The editor saves what differs from the defaults: the collections (n8n always saves them).
		expect(Object.keys(deals.parameters).sort()).toEqual(['options', 'requestOptions']);
		expect(Object.keys(deals.parameters.options as IDataObject).sort()).toEqual(['fields', 'filter', 'sort']);
		const tools = [
			deals,
			added('loanCrmDeals', 'deal', 'get'),
			added('loanCrmDeals', 'dealNote', 'getMany'),
			added('loanCrmLeadsAndTasks', 'task', 'update'),
			added('loanCrmContacts', 'contact', 'create'),
			added('loanCrmDeals', 'dealExternalReference', 'create'),
			added('loanCrmOrganisationsAndAssets', 'organisation', 'getAddresses'),
		];
		const { tools: listed } = await agent(tools, []);
		const byName = Object.fromEntries(listed.map((tool) => [tool.name, tool]));
		expect(Object.keys(byName).sort()).toEqual(
			[
				'Create_a_contact_in_Loan_CRM',
				'Create_a_deal_external_reference_in_Loan_CRM',
				'Get_a_deal_in_Loan_CRM',
				'Get_many_deals_in_Loan_CRM',
				'Get_many_notes_of_a_deal_in_Loan_CRM',
				'Get_the_addresses_of_an_organisation_in_Loan_CRM',
				'Update_a_task_in_Loan_CRM',
			].sort(),
		);
		// In the order of the node's parameters.
		expect(schemaSummary(byName.Get_many_deals_in_Loan_CRM)).toEqual(['Limit:number=10', 'Fields:string=""', 'Filter:string=""', 'Sort:string=""']);
		expect(byName.Get_many_deals_in_Loan_CRM.schema.Filter.description).toContain("e.g. and(equals(dealStatus,'Settled'),greaterOrEqual(updated,'2026-11-01'))");
		expect(schemaSummary(byName.Get_a_deal_in_Loan_CRM)).toEqual(['Deal:number!', 'Fields:string=""']);
		expect(schemaSummary(byName.Get_many_notes_of_a_deal_in_Loan_CRM)).toEqual(['Deal:number!']);
		expect(schemaSummary(byName.Get_the_addresses_of_an_organisation_in_Loan_CRM)).toEqual(['Organisation_ID:number!']);
		// A collection's members in the editor's order (by label).
		expect(schemaSummary(byName.Update_a_task_in_Loan_CRM).sort()).toEqual(
			[
				'Task_ID:number!',
				...['Title', 'Detail', 'Progress', 'Priority', 'Due_Date', 'Assignee_ID', 'Residential_Deal', 'Contact_Group_IDs', 'Asset_Finance_Diversified_Deal', 'Commercial_Finance_Diversified_Deal'].map((key) => `${key}:string=""`),
			].sort(),
		);
		expect(byName.Update_a_task_in_Loan_CRM.schema.Progress.description).toBe('How far the task has got: one of NotStarted, InProgress, OnHold, Completed, NotRequired. Empty leaves it unchanged.');
		expect(schemaSummary(byName.Create_a_deal_external_reference_in_Loan_CRM)).toEqual(['External_Reference:string!', 'Integration_ID:number!', 'Deal:number!', 'If_Already_Exists:string="createAnother"']);
		expect(schemaSummary(byName.Create_a_contact_in_Loan_CRM)).toHaveLength(18); // 17 fields + If_Already_Exists
		// The description names exactly these arguments.
		for (const tool of listed) {
			for (const key of tool.arguments) expect({ tool: tool.name, key, named: tool.description.includes(`${key} (`) }).toEqual({ tool: tool.name, key, named: true });
		}
		expect(byName.Get_many_deals_in_Loan_CRM.description).toMatch(/^Get many deals in Loan CRM: list deals, optionally filtered \(e\.g\. by dealStatus or updated date\) and sorted\. Optional arguments: Filter/);
		expect(byName.Get_many_deals_in_Loan_CRM.description).toContain('splits (list of objects, each with loanTermYears (number)');
		expect(env.sandbox.apiRequests()).toEqual([]);
	});

	it('Get Many with a filter and a limit: one GET with both; the summary of each deal, compact', async () => {
		const deals = added('loanCrmDeals', 'deal', 'getMany');
		const { answers } = await agent([deals], [{ tool: 'Get_many_deals_in_Loan_CRM', args: { Filter: "equals(dealStatus,'Settled')", Limit: 3 } }]);
		const requests = env.sandbox.apiRequests();
		expect(requests.map((request) => [request.method, request.path, decodedQuery(request.rawQuery)])).toEqual([
			['GET', '/jsonapi/deals', "filter=equals(dealStatus,'Settled')&page[size]=3"],
		]);
		const items = answers[0].answer as unknown as IDataObject[];
		const settled = env.sandbox.data.list('deals').filter((deal) => deal.attributes.dealStatus === 'Settled');
		expect(items.map((item) => item.id)).toEqual(settled.slice(0, 3).map((deal) => deal.id));
		for (const [index, item] of items.entries()) {
			const stored = settled[index].attributes;
			expect(item).toEqual(
				Object.fromEntries(
					Object.entries({
						id: settled[index].id,
						name: stored.name,
						dealStatus: 'Settled',
						customStatusName: stored.customStatusName,
						dealType: stored.dealType,
						lenderName: stored.lenderName,
						totalLoanAmount: stored.totalLoanAmount,
						proposedLoanAmount: stored.opportunity?.proposedLoanAmount,
						securityAmount: stored.opportunity?.securityAmount,
						loanPurpose: stored.opportunity?.loanPurpose,
						lodgedDate: stored.dates?.lodged,
						approvedDate: stored.dates?.approved,
						financeClauseDate: stored.dates?.financeClause,
						preApprovedExpiryDate: stored.dates?.preApprovedExpiry,
						estimatedSettledDate: stored.dates?.estimatedSettled,
						settledDate: stored.dates?.settled,
						created: stored.created,
						updated: stored.updated,
					}).filter(([, value]) => value !== null && value !== undefined),
				),
			);
		}
	});

	it('Get Many with no argument: 10 records; every field with Fields *, the fields named otherwise', async () => {
		const deals = added('loanCrmDeals', 'deal', 'getMany');
		const { answers } = await agent([deals], [
			{ tool: 'Get_many_deals_in_Loan_CRM', args: {} },
			{ tool: 'Get_many_deals_in_Loan_CRM', args: { Limit: 2, Fields: '*' } },
			{ tool: 'Get_many_deals_in_Loan_CRM', args: { Limit: 2, Fields: 'name,splits' } },
		]);
		expect(env.sandbox.apiRequests().map((request) => decodedQuery(request.rawQuery))).toEqual(['page[size]=10', 'page[size]=2', 'fields[deals]=name,splits&page[size]=2']);
		expect((answers[0].answer as unknown as IDataObject[]).length).toBe(10);
		const every = answers[1].answer as unknown as IDataObject[];
		expect(every).toHaveLength(2);
		for (const deal of every) expect(Object.keys(deal)).toEqual(expect.arrayContaining(['id', 'type', 'name', 'dealStatus', 'opportunity']));
		expect(every.some((deal) => Array.isArray(deal.splits))).toBe(true);
		const named = answers[2].answer as unknown as IDataObject[];
		expect(named).toHaveLength(2);
		for (const deal of named) expect(Object.keys(deal).filter((key) => key !== 'splits')).toEqual(['id', 'type', 'name']);
	});

	it('50 deals: at most about 400 characters a deal (the summary, empty fields left out); Fields * gives the whole deals', async () => {
		const deals = added('loanCrmDeals', 'deal', 'getMany');
		const { answers } = await agent([deals], [
			{ tool: 'Get_many_deals_in_Loan_CRM', args: { Limit: 50 } },
			{ tool: 'Get_many_deals_in_Loan_CRM', args: { Limit: 50, Fields: '*' } },
		]);
		const [summary, whole] = answers.map((answer) => answer.text as string);
		const [summaryItems, wholeItems] = answers.map((answer) => answer.answer as unknown as IDataObject[]);
		expect([summaryItems.length, wholeItems.length]).toEqual([50, 50]);
		const sizes = summaryItems.map((item) => JSON.stringify(item).length);
		console.log(`50 deals to an agent: summary ${summary.length} characters (${Math.round(perRecord(summary, 50))} a deal, largest ${Math.max(...sizes)}); every field ${whole.length}`);
		expect(perRecord(summary, 50)).toBeLessThanOrEqual(400);
		expect(Math.max(...sizes)).toBeLessThanOrEqual(520);
		expect(summary.length).toBeLessThan(whole.length / 2);
		expect(summaryItems.flatMap((deal) => emptyMembers(deal))).toEqual([]);
	});

	it('Get and Update with an ID, Create with fields: the requests carry exactly what the agent sent', async () => {
		const tools = [
			added('loanCrmDeals', 'deal', 'get'),
			added('loanCrmLeadsAndTasks', 'task', 'update'),
			added('loanCrmContacts', 'contact', 'create'),
			added('loanCrmDeals', 'dealNote', 'getMany'),
		];
		const { answers } = await agent(tools, [
			{ tool: 'Get_a_deal_in_Loan_CRM', args: { Deal: Number(ids().settledDeal) } },
			{ tool: 'Update_a_task_in_Loan_CRM', args: { Task_ID: Number(ids().task), Progress: 'in progress', Due_Date: '2026-12-01T09:30:00+10:00' } },
			{ tool: 'Create_a_contact_in_Loan_CRM', args: { First_Name: 'Ada', Last_Name: 'Lovelace', Email: 'ada@example.com', Has_Marketing_Consent: 'true' } },
			{ tool: 'Get_many_notes_of_a_deal_in_Loan_CRM', args: { Deal: Number(ids().dealWithNotes) } },
		]);
		expect(answers.map((answer) => answer.error)).toEqual([undefined, undefined, undefined, undefined]);
		const requests = env.sandbox.apiRequests();
		expect(requests.map((request) => [request.method, request.path, decodedQuery(request.rawQuery)])).toEqual([
			['GET', '/jsonapi/deals', `filter=equals(id,'${ids().settledDeal}')&page[size]=1`],
			['PATCH', `/jsonapi/tasks/${ids().task}`, ''],
			['POST', '/jsonapi/contacts', ''],
			['GET', `/jsonapi/deals/${ids().dealWithNotes}/dealNotes`, expect.stringMatching(/^page\[size\]=/)],
		]);
		expect(JSON.parse(requests[1].body as string)).toEqual({ data: { type: 'tasks', id: ids().task, attributes: { progress: 'InProgress', dueDate: '2026-11-30T23:30:00.000Z' } } });
		expect(JSON.parse(requests[2].body as string)).toEqual({ data: { type: 'contacts', attributes: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', hasMarketingConsent: true } } });
		expect(answers[0].answer).toEqual([expect.objectContaining({ id: ids().settledDeal, dealStatus: 'Settled', settledDate: expect.any(String) })]);
		expect(Object.keys((answers[0].answer as unknown as IDataObject[])[0])).not.toContain('splits');
		expect(answers[2].answer).toEqual([expect.objectContaining({ type: 'contacts', firstName: 'Ada', lastName: 'Lovelace', hasMarketingConsent: true })]);
		const notes = answers[3].answer as unknown as IDataObject[];
		expect(notes.length).toBeGreaterThan(1);
		expect(notes.every((note) => note.dealId === ids().dealWithNotes)).toBe(true);
	});

	it('a wrong value names the tool argument the agent sent, before any request', async () => {
		const tools = [added('loanCrmLeadsAndTasks', 'task', 'update'), added('loanCrmDeals', 'deal', 'getMany')];
		const { answers } = await agent(tools, [
			{ tool: 'Update_a_task_in_Loan_CRM', args: { Task_ID: 0, Progress: 'Completed' } },
			{ tool: 'Update_a_task_in_Loan_CRM', args: { Task_ID: Number(ids().task), Due_Date: 'next Tuesday' } },
			{ tool: 'Update_a_task_in_Loan_CRM', args: { Task_ID: Number(ids().task) } },
			{ tool: 'Get_many_deals_in_Loan_CRM', args: { Filter: "dealStatus = 'Settled'" } },
			{ tool: 'Get_many_deals_in_Loan_CRM', args: { Limit: 0 } },
			{ tool: 'Get_many_deals_in_Loan_CRM', args: { Sort: 'updated desc' } },
		]);
		expect(answers.map((answer) => String(answer.error).split(/;|\n/)[0])).toEqual([
			'Parameter "Task ID" (tool argument "Task_ID") must be a record ID (a whole number)',
			'Parameter "Update Fields → Due Date" (tool argument "Due_Date") must be a date and time (ISO 8601, e.g. 2026-11-21T09:30:00Z)',
			'Add at least one field under "Update Fields"',
			'Parameter "Options → Filter" (tool argument "Filter") uses the operator =',
			'Parameter "Limit" (tool argument "Limit") must be a whole number of at least 1',
			'Parameter "Options → Sort" (tool argument "Sort") has "updated desc", which is not valid',
		]);
		expect(env.sandbox.apiRequests()).toEqual([]);
	});
});

describe("what an agent receives stays bounded: the model's Limit has a ceiling", () => {
	it('above 100 the tool answers before any request, telling the model to narrow its filter; 100 is served; the tool description says so', async () => {
		const deals = added('loanCrmDeals', 'deal', 'getMany');
		const { answers, tools: listed } = await agent([deals], [
			{ tool: 'Get_many_deals_in_Loan_CRM', args: { Limit: 10000 } },
			{ tool: 'Get_many_deals_in_Loan_CRM', args: { Limit: 101, Filter: "equals(dealStatus,'Settled')" } },
		]);
		for (const answer of answers) {
			expect(String(answer.error)).toMatch(/^Parameter "Limit" \(tool argument "Limit"\) is 10{1,4}1?, above the 100 records this tool returns at most\. Narrow the filter/);
		}
		expect(env.sandbox.apiRequests()).toEqual([]);
		expect(listed.find((tool) => tool.name === 'Get_many_deals_in_Loan_CRM')?.description).toContain('Returns at most Limit records (up to 100; above that the tool asks for a narrower filter)');

		const served = await agent([deals], [{ tool: 'Get_many_deals_in_Loan_CRM', args: { Limit: 100 } }]);
		expect((served.answers[0].answer as unknown as IDataObject[]).length).toBe(100);
	});

	it("a Limit the workflow's author sets, and a version 1 tool's, are not bounded", async () => {
		const authorSet: ToolSpec = { ...added('loanCrmDeals', 'deal', 'getMany'), name: 'Deals by the author' };
		authorSet.parameters = { ...authorSet.parameters, limit: 150 };
		const version1: ToolSpec = { name: 'Deals v1', node: 'loanCrmDeals', typeVersion: 1, parameters: { resource: 'deal', operation: 'getMany', limit: fromAI('limit', 'How many deals', 'number') } };
		const { answers } = await agent([authorSet, version1], [
			{ tool: 'Deals_by_the_author', args: {} },
			{ tool: 'Deals_v1', args: { limit: 150 } },
		]);
		expect(answers.map((answer) => (answer.answer as unknown as IDataObject[]).length)).toEqual([150, 150]);
	});
});

describe('errors name the tool argument however the model fills a parameter', () => {
	const getLead = (typeVersion: number, leadId: unknown): ToolSpec => ({ name: 'Get lead', node: 'loanCrmLeadsAndTasks', typeVersion, parameters: { resource: 'lead', operation: 'get', leadId } as INodeParameters });
	const marker = (key: string, type: string) => `={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${key}', \`\`, '${type}') }}`;

	it.each([
		['a plain string parameter (a workflow saved before Lead was a locator)', 1, fromAI('leadId', 'ID of the lead', 'number'), 'leadId'],
		['a locator By ID with an expression typed by hand', 1, { __rl: true, mode: 'id', value: fromAI('Lead_ID', 'ID of the lead', 'number') }, 'Lead_ID'],
		// The ✨ button makes a locator's argument text (a resource locator is neither a number nor a boolean).
		["a locator the editor's ✨ filled (the mode stays From List)", 1, { __rl: true, mode: 'list', value: marker('Lead', 'string') }, 'Lead'],
		['a tool as the editor adds it (the newest version)', NEWEST_VERSION, undefined, 'Lead'],
	])('%s', async (_how, typeVersion, leadId, key) => {
		const tool = leadId === undefined ? { ...added('loanCrmLeadsAndTasks', 'lead', 'get'), name: 'Get lead' } : getLead(typeVersion, leadId);
		const asText = typeof leadId === 'object' && (leadId as IDataObject).mode === 'list';
		const { answers } = await agent([tool], [
			{ tool: 'Get_lead', args: { [key]: asText ? '999999999999' : 999999999999 } },
			{ tool: 'Get_lead', args: { [key]: asText ? ids().lead : Number(ids().lead) } },
		]);
		// The rule in the words of the node's version: saved nodes (1) as they were, new ones (1.2) in plain words.
		const rule = typeVersion === 1 ? 'a whole number from 1 to 2147483647' : 'a record ID (a whole number)';
		expect(answers[0].error).toBe(`Parameter "Lead" (tool argument "${key}") must be ${rule}; got ${asText ? '"999999999999"' : 'number 999999999999'}`);
		expect(answers[1].answer).toEqual([expect.objectContaining({ id: ids().lead })]);
		expect(env.sandbox.apiRequests().map((request) => request.path)).toEqual([`/jsonapi/leads/${ids().lead}`]);
	});

	it('a person running the node gets the parameter alone', async () => {
		const result = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: { __rl: true, mode: 'id', value: '={{ "abc" }}' } });
		expect(result.error?.message).toBe('Parameter "Lead" must be a record ID (a whole number); got "abc"');
	});
});
