/**
 * The action nodes as an AI agent's tools, in n8n-core's engine: each node's `…Tool` copy attached
 * to a harness agent that calls it through n8n-core's createNodeAsTool (the path n8n's AI Agent and
 * MCP Server Trigger use), with `$fromAI` parameters. What the agent reads (tool descriptions), what
 * it gets back (small, compact answers) and errors it can correct itself from; the requests the
 * sandbox received.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Registry } from '../../harness';
import type { AgentCall, ToolSpec } from '../../harness/tools';
import { createToolRegistry, runAgent } from '../../harness/tools';
import { decodedQuery, jsonOf, useSandbox } from './helpers';

const env = useSandbox();
const ids = () => env.sandbox.data.ids;
let registry: Registry;

beforeAll(() => {
	registry = createToolRegistry();
});
afterEach(() => env.sandbox.data.reset());

const fromAI = (key: string, description: string, type = 'string') => `={{ $fromAI('${key}', '${description}', '${type}') }}`;

const FIND_DEALS: ToolSpec = {
	name: 'Find deals',
	node: 'loanCrmDeals',
	parameters: { resource: 'deal', operation: 'getMany', options: { filter: fromAI('filter', 'Filter expression in the syntax the tool description gives') } },
};
const UPDATE_TASK: ToolSpec = {
	name: 'Update task',
	node: 'loanCrmLeadsAndTasks',
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

describe('what the agent reads', () => {
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
		expect(task).toContain('dueDate (date-time, ISO 8601 UTC)');
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

describe('answers an agent can afford', () => {
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
			parameters: { resource: 'deal', operation: 'getMany', limit: fromAI('limit', 'How many deals', 'number'), agentOutput: output },
		});
		const { answers } = await agent([limit('compact'), limit('full')], [
			{ tool: 'Deals_compact', args: { limit: 50 } },
			{ tool: 'Deals_full', args: { limit: 50 } },
		]);
		const [compact, full] = answers.map((answer) => answer.text as string);
		expect((answers[0].answer as unknown as IDataObject[]).length).toBe(50);
		expect((answers[1].answer as unknown as IDataObject[]).length).toBe(50);
		const person = await env.run('loanCrmDeals', { resource: 'deal', operation: 'getMany' });
		const personText = JSON.stringify(jsonOf(person));
		console.log(`50 deals: full ${full.length} characters, compact ${compact.length} (${Math.round((100 * compact.length) / full.length)}%)`);
		expect(compact.length).toBeLessThan(full.length * 0.75);
		// Full is exactly what the node gives a person; the person's run asked for 50 (its default).
		expect(full).toBe(personText);
		expect(decodedQuery(env.sandbox.apiRequests()[2].rawQuery)).toBe('page[size]=50');
		expect(jsonOf(person).flatMap((deal) => emptyMembers(deal)).length).toBeGreaterThan(0);
	});
});

describe('errors the caller can correct itself from', () => {
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
		expect(answers[0].error).toContain('Loan CRM rejected the data (422): field "progress": ');
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

	it('bad input (an ID that is no number): named by its parameter, no request sent', async () => {
		const tool = { ...GET_LEAD, parameters: { ...GET_LEAD.parameters, leadId: fromAI('leadId', 'ID of the lead') } };
		const { answers } = await agent([tool], [{ tool: 'Get_lead', args: { leadId: 'the Smith lead' } }]);
		expect(answers[0].error).toBe('Parameter "Lead" must be a whole number from 1 to 2147483647; got "the Smith lead"');
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
