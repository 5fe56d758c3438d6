/**
 * The agent path without a model: n8n's MCP Server Trigger (v2, Streamable HTTP) with the action
 * nodes attached as tools (`…Tool` nodes, `$fromAI` parameters), called with the official MCP
 * client (@modelcontextprotocol/sdk). What tools/list gives an agent, what tools/call answers
 * (reads, a get by ID, an update, a not-found, an invalid value, bad input, no secrets) and the
 * requests the sandbox received. Prints each tool's description and the size of a 50-deal answer
 * full (what an agent got before compact output) and compact.
 *
 * Deal → Get (a get by deal ID) is not on this branch; Lead → Get is the single-record read used.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { IConnections, INode, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { PACKAGE } from './cases';
import type { CredentialRef, WorkflowFile } from './workflows';

export const MCP_WORKFLOW_ID = 'lcE2eMcpServer01';
const MCP_PATH = 'loan-crm-e2e';
const TRIGGER = 'MCP Server Trigger';

const fromAI = (key: string, description: string, type = 'string') => `={{ $fromAI('${key}', \`${description}\`, '${type}') }}`;

interface ToolNode {
	name: string;
	node: string;
	parameters: INodeParameters;
}

const TOOLS: ToolNode[] = [
	{
		name: 'Find deals',
		node: 'loanCrmDeals',
		parameters: { resource: 'deal', operation: 'getMany', options: { filter: fromAI('filter', "Filter in the service's function syntax, e.g. equals(dealStatus,'Settled')") } },
	},
	{
		name: 'List deals',
		node: 'loanCrmDeals',
		parameters: { resource: 'deal', operation: 'getMany', limit: fromAI('limit', 'How many deals to return', 'number') },
	},
	{
		// Only for the size figure: the answer an agent got before compact output.
		name: 'List deals full',
		node: 'loanCrmDeals',
		parameters: { resource: 'deal', operation: 'getMany', limit: fromAI('limit', 'How many deals to return', 'number'), agentOutput: 'full' },
	},
	{
		name: 'Get lead',
		node: 'loanCrmLeadsAndTasks',
		parameters: { resource: 'lead', operation: 'get', leadId: fromAI('leadId', 'ID of the lead (the same as its deal ID)', 'number') },
	},
	{
		name: 'Update task',
		node: 'loanCrmLeadsAndTasks',
		parameters: {
			resource: 'task',
			operation: 'update',
			taskId: fromAI('taskId', 'ID of the task to change', 'number'),
			updateFields: { progress: fromAI('progress', 'New progress: NotStarted, InProgress, OnHold, Completed or NotRequired') },
		},
	},
];

export function mcpWorkflow(credential: CredentialRef): WorkflowFile {
	const trigger: INode = {
		id: 'node-mcp-trigger',
		name: TRIGGER,
		type: '@n8n/n8n-nodes-langchain.mcpTrigger',
		typeVersion: 2,
		position: [0, 0],
		parameters: { path: MCP_PATH, authentication: 'none' },
		webhookId: 'b1d0c0de-0000-4000-8000-00000000e2e1',
	};
	const tools: INode[] = TOOLS.map((tool, index) => ({
		id: `node-mcp-${tool.name.replace(/\s+/g, '-').toLowerCase()}`,
		name: tool.name,
		type: `${PACKAGE}.${tool.node}Tool`,
		typeVersion: 1,
		position: [index * 200, 250],
		parameters: tool.parameters,
		credentials: { loanCrmOAuth2Api: credential },
	}));
	const connections: IConnections = {};
	for (const tool of tools) connections[tool.name] = { ai_tool: [[{ node: TRIGGER, type: 'ai_tool', index: 0 }]] };
	return { id: MCP_WORKFLOW_ID, name: 'E2E: MCP Server Trigger with Loan CRM tools', nodes: [trigger, ...tools], connections, active: false, settings: { executionOrder: 'v1' } };
}

type Record = (name: string, problems: string[], context?: string) => void;

interface CallResult {
	isError: boolean;
	text: string;
}

function emptyMembers(value: unknown, path = ''): string[] {
	if (value === null) return [path];
	if (Array.isArray(value)) return value.length === 0 ? [path] : value.flatMap((entry, index) => emptyMembers(entry, `${path}[${index}]`));
	if (typeof value === 'object') {
		const entries = Object.entries(value as object);
		return entries.length === 0 ? [path] : entries.flatMap(([key, member]) => emptyMembers(member, `${path}.${key}`));
	}
	return [];
}

function parseList(text: string): Array<{ [key: string]: unknown }> | undefined {
	try {
		const value = JSON.parse(text) as unknown;
		return Array.isArray(value) ? (value as Array<{ [key: string]: unknown }>) : undefined;
	} catch {
		return undefined;
	}
}

/** With `n8n start` running and the MCP workflow published: every check of the agent path. */
export async function checkMcp(port: number, sandbox: Sandbox, record: Record): Promise<void> {
	// The published trigger workflow keeps polling deals (filter and(greaterOrEqual(updated,…),…)); those are not ours.
	const apiRequests = () => sandbox.apiRequests().filter((request) => !(request.query.filter ?? '').includes('greaterOrEqual(updated,'));
	const client = new Client({ name: 'loan-crm-e2e', version: '1.0.0' });
	const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp/${MCP_PATH}`));
	const texts: string[] = [];
	const call = async (name: string, args: { [key: string]: unknown }): Promise<CallResult> => {
		const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content?: Array<{ type: string; text?: string }> };
		const text = (result.content ?? []).map((part) => part.text ?? '').join('\n');
		texts.push(text);
		return { isError: result.isError === true, text };
	};
	try {
		await client.connect(transport);
	} catch (error) {
		record('mcp: the MCP client connects to the MCP Server Trigger', [`connect failed: ${error instanceof Error ? error.message : String(error)}`]);
		return;
	}
	try {
		const ids = sandbox.data.ids;
		// --- tools/list -----------------------------------------------------------------------------
		const { tools } = await client.listTools();
		console.log('\n  tools/list (what an agent reads):');
		for (const tool of tools) console.log(`    ${tool.name} (${Object.keys(tool.inputSchema.properties ?? {}).join(', ')}):\n      ${tool.description ?? ''}`);
		const listProblems: string[] = [];
		const names = tools.map((tool) => tool.name).sort();
		const expected = TOOLS.map((tool) => tool.name.replace(/\s+/g, '_')).sort();
		if (JSON.stringify(names) !== JSON.stringify(expected)) listProblems.push(`tools ${JSON.stringify(names)}, expected ${JSON.stringify(expected)}`);
		const find = tools.find((tool) => tool.name === 'Find_deals');
		const findDescription = find?.description ?? '';
		for (const part of [
			'Get many deals in Loan CRM: list deals',
			'dealStatus (one of NewLeads, Researching, PreApproved, ConditionallyApproved, UnconditionallyApproved, Lodged, InProgress, PendingSettlement, Varied, Repaid, Withdrawn, Cancelled, Settled)',
			"Filter syntax is functions, not operators: equals(field,'value')",
			"Example: and(equals(dealStatus,'Settled'),greaterOrEqual(updated,'2026-11-01'))",
			'Returns at most 10 records unless a Limit is given',
			'Output is compact',
		]) {
			if (!findDescription.includes(part)) listProblems.push(`Find_deals description lacks "${part}"`);
		}
		const filterProperty = (find?.inputSchema.properties as { [key: string]: { type?: string; description?: string } } | undefined)?.filter;
		if (filterProperty?.type !== 'string' || !filterProperty.description?.includes('equals(dealStatus')) {
			listProblems.push(`Find_deals input schema filter is ${JSON.stringify(filterProperty)}`);
		}
		const task = tools.find((tool) => tool.name === 'Update_task')?.description ?? '';
		if (!task.includes('progress (one of NotStarted, InProgress, OnHold, Completed, NotRequired)')) listProblems.push('Update_task description does not list the progress values');
		if (!/^Get a lead in Loan CRM: .*Needs leadId/.test(tools.find((tool) => tool.name === 'Get_lead')?.description ?? '')) listProblems.push('Get_lead description is not the agent-grade one');
		record('mcp: tools/list gives each tool its agent-grade description and $fromAI input schema', listProblems);

		// --- a read with a filter -----------------------------------------------------------------
		sandbox.clearLog();
		const settled = await call('Find_deals', { filter: "equals(dealStatus,'Settled')" });
		const deals = parseList(settled.text);
		const readRequests = apiRequests();
		record('mcp: tools/call read with a filter: 10 Settled deals, compact, one GET with page[size]=10', [
			...(settled.isError ? [`isError: ${settled.text.slice(0, 300)}`] : []),
			...(deals === undefined ? [`answer is not a JSON list: ${settled.text.slice(0, 200)}`] : []),
			...(deals && (deals.length !== 10 || deals.some((deal) => deal.dealStatus !== 'Settled')) ? [`${deals.length} deals, statuses ${[...new Set(deals.map((deal) => deal.dealStatus))].join(',')}`] : []),
			...(deals ? emptyMembers(deals).slice(0, 5).map((path) => `empty member ${path} in a compact answer`) : []),
			...(readRequests.length === 1 && readRequests[0].query.filter === "equals(dealStatus,'Settled')" && readRequests[0].query['page[size]'] === '10'
				? []
				: [`requests: ${readRequests.map((request) => `${request.method} ${request.path}?${decodeURIComponent(request.rawQuery)}`).join(' | ')}`]),
		]);

		// --- a get by ID and a not-found ------------------------------------------------------------
		const lead = await call('Get_lead', { leadId: Number(ids.lead) });
		const leadItems = parseList(lead.text);
		record('mcp: tools/call get by ID returns the record', lead.isError || leadItems?.[0]?.id !== ids.lead ? [`answer ${lead.text.slice(0, 300)}`] : []);
		sandbox.clearLog();
		const missing = await call('Get_lead', { leadId: 999999 });
		record('mcp: tools/call not-found is an error result naming the record (404)', [
			...(missing.isError ? [] : ['not an error result']),
			...(/Loan CRM has no lead with ID 999999/.test(missing.text) ? [] : [`text ${missing.text.slice(0, 300)}`]),
			...(apiRequests().length === 1 ? [] : [`${apiRequests().length} requests, expected 1 (no retry of a 404)`]),
		]);

		// --- an update, an invalid value ----------------------------------------------------------
		sandbox.clearLog();
		const updated = await call('Update_task', { taskId: Number(ids.task), progress: 'in progress' });
		const patch = apiRequests()[0];
		record('mcp: tools/call update sends only the field given, in the spelling the service knows', [
			...(updated.isError ? [`isError: ${updated.text.slice(0, 300)}`] : []),
			...(patch?.method === 'PATCH' && patch.path === `/jsonapi/tasks/${ids.task}` && patch.body === JSON.stringify({ data: { type: 'tasks', id: ids.task, attributes: { progress: 'InProgress' } } })
				? []
				: [`request ${patch?.method} ${patch?.path} ${String(patch?.body)}`]),
			...(parseList(updated.text)?.[0]?.progress === 'InProgress' ? [] : [`answer ${updated.text.slice(0, 200)}`]),
		]);
		sandbox.clearLog();
		const invalid = await call('Update_task', { taskId: Number(ids.task), progress: 'Done' });
		record('mcp: tools/call invalid value: the error names the parameter, the tool argument and the valid values', [
			...(invalid.isError ? [] : ['not an error result']),
			...(invalid.text.includes('Parameter "Update Fields → Progress" (tool argument "progress") takes one of: NotStarted, InProgress, OnHold, Completed, NotRequired') ? [] : [`text ${invalid.text.slice(0, 400)}`]),
			...(apiRequests().map((request) => request.status).join(',') === '422' ? [] : ['expected one PATCH answered 422']),
		]);

		// --- bad input: nothing sent --------------------------------------------------------------
		sandbox.clearLog();
		const operator = await call('Find_deals', { filter: "dealStatus = 'Settled'" });
		record('mcp: tools/call bad input (a filter with =): the function to write, no request sent', [
			...(operator.isError ? [] : ['not an error result']),
			...(operator.text.includes("write equals(dealStatus,'Settled') instead of dealStatus='Settled'") && operator.text.includes('Fields of deals: id, created, updated, name, dealStatus')
				? []
				: [`text ${operator.text.slice(0, 400)}`]),
			...(apiRequests().length === 0 ? [] : [`${apiRequests().length} request(s) reached the sandbox`]),
		]);

		// --- sizes --------------------------------------------------------------------------------
		const full = await call('List_deals_full', { limit: 50 });
		const compact = await call('List_deals', { limit: 50 });
		console.log(
			`\n  50-deal answer: full ${full.text.length} characters (before), compact ${compact.text.length} (${Math.round((100 * compact.text.length) / full.text.length)}%); ` +
				`default answer (10 deals, compact) ${settled.text.length} characters`,
		);
		record('mcp: 50 deals compact is smaller than full', [
			...(parseList(full.text)?.length === 50 && parseList(compact.text)?.length === 50 ? [] : ['not 50 deals in each answer']),
			...(compact.text.length < full.text.length ? [] : [`compact ${compact.text.length} ≥ full ${full.text.length}`]),
		]);

		// --- no secret anywhere -------------------------------------------------------------------
		const secrets = [sandbox.clientSecret, ...sandbox.issuedTokens()];
		const leaked = texts.filter((text) => secrets.some((secret) => text.includes(secret)));
		record('mcp: no secret or token in any tool result', leaked.length === 0 ? [] : [`${leaked.length} result(s) contain a secret`]);
	} finally {
		await client.close().catch(() => undefined);
	}
}
