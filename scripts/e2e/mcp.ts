/**
 * The agent path without a model: n8n's MCP Server Trigger (v2, Streamable HTTP) with the action
 * nodes attached as tools (`…Tool` nodes), called with the official MCP client
 * (@modelcontextprotocol/sdk). What tools/list gives an agent, what tools/call answers and the
 * requests the sandbox received.
 *
 * Two kinds of tool node:
 * - the newest node version (arguments wired since 1.1) exactly as the editor of the n8n under test
 *   adds it from the agent's tool connector, with no change by its author: the node types as that editor receives them
 *   (`n8n export:nodes`, the list /types/nodes.json serves), the action's resource and operation set
 *   as the node creator sets them, defaults filled and saved with that version's own n8n-workflow
 *   (getNodeParameters with and without defaults), named by its makeNodeName. Called with a filter
 *   and a limit, with IDs, with write fields, with a bad ID.
 * - node version 1 as workflows saved before 1.1 have them, `$fromAI` wired by their author (reads,
 *   a get by ID, an update, a not-found, an invalid value, bad input, the Output option).
 * Prints each tool's description and the size of a 50-deal answer in each version.
 */
import { readFileSync } from 'fs';
import { createRequire } from 'module';
import { join } from 'path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { IConnections, INode, INodeParameters, INodeTypeDescription } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { DEAL_SUMMARY_COLUMNS } from '../../harness/operation-examples';
import { NEWEST_VERSION } from '../../nodes/shared/service/versions';
import type { RecordCheck } from './check-helpers';
import { isPollRead, same } from './check-helpers';
import type { N8nInstall } from './install';
import type { N8nInstance } from './n8n';
import { sleep } from './util';
import type { CredentialRef, WorkflowFile } from './workflows';
import { PACKAGE, connect, loanCrmNode, workflowFile } from './workflows';

export const MCP_WORKFLOW_ID = 'lcE2eMcpServer01';
const MCP_PATH = 'loan-crm-e2e';
const TRIGGER = 'MCP Server Trigger';

const fromAI = (key: string, description: string, type = 'string') => `={{ $fromAI('${key}', \`${description}\`, '${type}') }}`;

interface ToolNode {
	name: string;
	node: string;
	typeVersion: number;
	parameters: INodeParameters;
}

/** Version 1 tools as saved workflows have them: their author wired the arguments. */
const SAVED_TOOLS: Array<Omit<ToolNode, 'typeVersion'>> = [
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

/** The actions added from the agent's tool connector for the newest version's checks, and the tool names n8n gives them. */
const ADDED = [
	{ node: 'loanCrmDeals', resource: 'deal', operation: 'getMany', tool: 'Get_many_deals_in_Loan_CRM' },
	{ node: 'loanCrmDeals', resource: 'deal', operation: 'get', tool: 'Get_a_deal_in_Loan_CRM' },
	{ node: 'loanCrmLeadsAndTasks', resource: 'task', operation: 'update', tool: 'Update_a_task_in_Loan_CRM' },
	{ node: 'loanCrmContacts', resource: 'contact', operation: 'create', tool: 'Create_a_contact_in_Loan_CRM' },
] as const;

type WorkflowHelpers = Pick<typeof import('n8n-workflow').NodeHelpers, 'getNodeParameters' | 'makeNodeName'>;

/**
 * The tool nodes of the newest version as the editor of this n8n adds them (see the header). Needs the package
 * installed in the user folder.
 */
export async function editorToolNodes(install: N8nInstall, n8n: N8nInstance): Promise<ToolNode[]> {
	const file = join(n8n.userFolder, 'node-types.json');
	await n8n.cli(['export:nodes', `--output=${file}`]);
	const types = JSON.parse(readFileSync(file, 'utf8')) as INodeTypeDescription[];
	const helpers = (createRequire(join(install.n8nDir, 'node_modules', 'n8n', 'package.json'))('n8n-workflow') as { NodeHelpers: WorkflowHelpers }).NodeHelpers;
	return ADDED.map(({ node, resource, operation }) => {
		const description = types.find((type) => type.name === `${PACKAGE}.${node}Tool`);
		if (description === undefined) throw new Error(`n8n export:nodes has no ${PACKAGE}.${node}Tool`);
		// The editor gives a new node the type's default version (else its newest).
		const typeVersion = description.defaultVersion ?? (Array.isArray(description.version) ? Math.max(...description.version) : description.version);
		const stub = { typeVersion, parameters: {} } as unknown as INode;
		const shown = helpers.getNodeParameters(description.properties, { resource, operation }, true, false, stub, description) ?? {};
		const saved = helpers.getNodeParameters(description.properties, shown, false, false, stub, description) ?? {};
		return { name: helpers.makeNodeName(shown, description), node, typeVersion, parameters: saved };
	});
}

export function mcpWorkflow(credential: CredentialRef, added: ToolNode[]): WorkflowFile {
	const trigger: INode = {
		id: 'node-mcp-trigger',
		name: TRIGGER,
		type: '@n8n/n8n-nodes-langchain.mcpTrigger',
		typeVersion: 2,
		position: [0, 0],
		parameters: { path: MCP_PATH, authentication: 'none' },
		webhookId: 'b1d0c0de-0000-4000-8000-00000000e2e1',
	};
	const all: ToolNode[] = [...SAVED_TOOLS.map((tool) => ({ ...tool, typeVersion: 1 })), ...added];
	const tools = all.map((tool, index) => loanCrmNode(tool.name, `${tool.node}Tool`, tool.parameters, { id: `node-mcp-${index}`, typeVersion: tool.typeVersion, position: [index * 200, 250], credential }));
	const connections: IConnections = {};
	for (const tool of tools) connect(connections, tool.name, TRIGGER, 'ai_tool');
	return workflowFile(MCP_WORKFLOW_ID, 'E2E: MCP Server Trigger with Loan CRM tools', [trigger, ...tools], connections);
}

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

/** n8n's tool name for a node name (nodeNameToToolName). */
const toolName = (nodeName: string) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');

interface ListedTool {
	name: string;
	description?: string;
	inputSchema: { properties?: { [key: string]: { type?: string; default?: unknown; description?: string } }; required?: string[] };
}

/** `Key:type` with `!` for required and `=default` otherwise: what the model is told about each argument. */
function schemaSummary(tool: ListedTool | undefined): string[] {
	const required = new Set(tool?.inputSchema.required ?? []);
	return Object.entries(tool?.inputSchema.properties ?? {})
		.map(([key, entry]) => `${key}:${entry.type ?? '?'}${required.has(key) ? '!' : `=${JSON.stringify(entry.default)}`}`)
		.sort();
}

/** With `n8n start` running and the MCP workflow published: every check of the agent path. */
export async function checkMcp(port: number, sandbox: Sandbox, record: RecordCheck, added: ToolNode[]): Promise<void> {
	// The published triggers keep polling meanwhile (deals by `updated`, contacts by `created`).
	const apiRequests = () => sandbox.apiRequests().filter((request) => !isPollRead(request));
	const client = new Client({ name: 'loan-crm-e2e', version: '1.0.0' });
	const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp/${MCP_PATH}`));
	const texts: string[] = [];
	const call = async (name: string, args: { [key: string]: unknown }): Promise<CallResult> => {
		const result = (await mcp.callTool({ name, arguments: args })) as { isError?: boolean; content?: Array<{ type: string; text?: string }> };
		const text = (result.content ?? []).map((part) => part.text ?? '').join('\n');
		texts.push(text);
		return { isError: result.isError === true, text };
	};
	// n8n registers the trigger's webhook a few seconds after it reports ready: try for up to 30 s.
	let connected: Client | undefined;
	let lastError: unknown;
	for (let attempt = 0; attempt < 15 && connected === undefined; attempt++) {
		const candidate = attempt === 0 ? client : new Client({ name: 'loan-crm-e2e', version: '1.0.0' });
		try {
			await candidate.connect(attempt === 0 ? transport : new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp/${MCP_PATH}`)));
			connected = candidate;
		} catch (error) {
			lastError = error;
			await sleep(2000);
		}
	}
	if (connected === undefined) {
		record('mcp: the MCP client connects to the MCP Server Trigger', [`connect failed: ${lastError instanceof Error ? lastError.message : String(lastError)}`]);
		return;
	}
	const mcp = connected;
	try {
		const ids = sandbox.data.ids;
		// --- tools/list -----------------------------------------------------------------------------
		const { tools } = (await mcp.listTools()) as { tools: ListedTool[] };
		console.log('\n  tools/list (what an agent reads):');
		for (const tool of tools) console.log(`    ${tool.name} (${Object.keys(tool.inputSchema.properties ?? {}).join(', ')}):\n      ${tool.description ?? ''}`);
		const listProblems: string[] = [];
		const names = tools.map((tool) => tool.name).sort();
		const expected = [...SAVED_TOOLS, ...added].map((tool) => toolName(tool.name)).sort();
		listProblems.push(...same('tools', names, expected));
		const find = tools.find((tool) => tool.name === 'Find_deals');
		const findDescription = find?.description ?? '';
		for (const part of [
			'Get many deals in Loan CRM: list deals',
			'dealStatus (one of NewLeads, Researching, InProgress, PreApproved, Lodged, ConditionallyApproved, UnconditionallyApproved, PendingSettlement, Settled, Varied, Repaid, Withdrawn, Cancelled)',
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
		record('mcp: tools/list gives each version 1 tool its agent-grade description and $fromAI input schema', listProblems);

		// --- the newest version: tools as the editor adds them ---------------------------------
		await checkAddedTools(tools, added, call, apiRequests, sandbox, record);

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
		await mcp.close().catch(() => undefined);
	}
}

type Call = (name: string, args: { [key: string]: unknown }) => Promise<CallResult>;

/** The summary columns a deal answer of a tool (version 1.1 and later) may have (empty ones are left out). */
const SUMMARY_KEYS = new Set<string>(DEAL_SUMMARY_COLUMNS);

/** Tools of the newest version exactly as the editor added them: names, input schemas, and calls with their arguments. */
async function checkAddedTools(
	tools: ListedTool[],
	added: ToolNode[],
	call: Call,
	apiRequests: () => ReturnType<Sandbox['apiRequests']>,
	sandbox: Sandbox,
	record: RecordCheck,
): Promise<void> {
	const ids = sandbox.data.ids;
	const names = added.map((tool) => toolName(tool.name));
	const byName = (name: string) => tools.find((tool) => tool.name === name);
	const describe = (request: ReturnType<Sandbox['apiRequests']>[number]) => `${request.method} ${request.path}?${decodeURIComponent(request.rawQuery)}`;
	record('mcp: newest version tools as the editor adds them: named "<action> in Loan CRM", nothing wired by hand', [
		...(JSON.stringify(names) === JSON.stringify(ADDED.map((entry) => entry.tool)) ? [] : [`tool names ${JSON.stringify(names)}`]),
		...added.flatMap((tool) => (tool.typeVersion === NEWEST_VERSION ? [] : [`${tool.name} has typeVersion ${tool.typeVersion}, not the newest (${NEWEST_VERSION})`])),
		...added.flatMap((tool) => Object.keys(tool.parameters).filter((key) => !['options', 'updateFields', 'additionalFields', 'requestOptions', 'resource', 'operation'].includes(key)).map((key) => `${tool.name} saved ${key}`)),
	]);
	const schemas = Object.fromEntries(ADDED.map((entry) => [entry.tool, schemaSummary(byName(entry.tool))]));
	const expectedSchemas: { [name: string]: string[] } = {
		Get_many_deals_in_Loan_CRM: ['Fields:string=""', 'Filter:string=""', 'Limit:number=10', 'Sort:string=""'],
		Get_a_deal_in_Loan_CRM: ['Deal:number!', 'Fields:string=""'],
	};
	record('mcp: newest version tools/list: the arguments their descriptions name, IDs required, the rest optional with defaults', [
		...Object.entries(expectedSchemas).flatMap(([name, expected]) => (JSON.stringify(schemas[name]) === JSON.stringify(expected) ? [] : [`${name} input schema ${JSON.stringify(schemas[name])}`])),
		...(schemas.Update_a_task_in_Loan_CRM.length === 11 && schemas.Update_a_task_in_Loan_CRM.includes('Task_ID:number!') && schemas.Update_a_task_in_Loan_CRM.includes('Progress:string=""')
			? []
			: [`Update_a_task_in_Loan_CRM input schema ${JSON.stringify(schemas.Update_a_task_in_Loan_CRM)}`]),
		// 17 fields, empty by default, and If Already Exists (createAnother by default).
		...(schemas.Create_a_contact_in_Loan_CRM.length === 18 &&
		schemas.Create_a_contact_in_Loan_CRM.includes('If_Already_Exists:string="createAnother"') &&
		schemas.Create_a_contact_in_Loan_CRM.filter((entry) => entry.endsWith('=""')).length === 17
			? []
			: [`Create_a_contact_in_Loan_CRM input schema ${JSON.stringify(schemas.Create_a_contact_in_Loan_CRM)}`]),
		...ADDED.flatMap((entry) => Object.keys(byName(entry.tool)?.inputSchema.properties ?? {}).filter((key) => !(byName(entry.tool)?.description ?? '').includes(`${key} (`)).map((key) => `${entry.tool} description does not name ${key}`)),
	]);

	// Get Many with a filter and a limit, then with nothing.
	sandbox.clearLog();
	const filtered = await call('Get_many_deals_in_Loan_CRM', { Filter: "equals(dealStatus,'Settled')", Limit: 3 });
	const filteredDeals = parseList(filtered.text);
	const filteredRequests = apiRequests();
	record('mcp: newest version Get Many with a filter and a limit: one GET with both, the summary of 3 Settled deals', [
		...(filtered.isError ? [`isError: ${filtered.text.slice(0, 300)}`] : []),
		...(filteredDeals?.length === 3 && filteredDeals.every((deal) => deal.dealStatus === 'Settled') ? [] : [`answer ${filtered.text.slice(0, 300)}`]),
		...(filteredDeals ?? []).flatMap((deal) => Object.keys(deal).filter((key) => !SUMMARY_KEYS.has(key)).map((key) => `deal ${String(deal.id)} has ${key}`)),
		...(filteredDeals ? emptyMembers(filteredDeals).slice(0, 5).map((path) => `empty member ${path}`) : []),
		...(filteredRequests.length === 1 && filteredRequests[0].query.filter === "equals(dealStatus,'Settled')" && filteredRequests[0].query['page[size]'] === '3'
			? []
			: [`requests: ${filteredRequests.map(describe).join(' | ')}`]),
	]);
	sandbox.clearLog();
	const plain = await call('Get_many_deals_in_Loan_CRM', {});
	record('mcp: newest version Get Many with no argument: 10 deals, page[size]=10', [
		...(parseList(plain.text)?.length === 10 ? [] : [`answer ${plain.text.slice(0, 200)}`]),
		...(apiRequests().map(describe).join(' | ') === 'GET /jsonapi/deals?page[size]=10' ? [] : [`requests: ${apiRequests().map(describe).join(' | ')}`]),
	]);
	const fifty = await call('Get_many_deals_in_Loan_CRM', { Limit: 50 });
	const fiftyDeals = parseList(fifty.text);
	console.log(`\n  newest version: 50-deal answer ${fifty.text.length} characters (${Math.round(fifty.text.length / 50)} a deal)`);
	record('mcp: newest version 50 deals: at most 400 characters a deal', [
		...(fiftyDeals?.length === 50 ? [] : ['not 50 deals']),
		...(fifty.text.length <= 50 * 400 ? [] : [`${fifty.text.length} characters`]),
	]);

	// A get and an update by ID, a create with fields, a bad ID.
	sandbox.clearLog();
	const deal = await call('Get_a_deal_in_Loan_CRM', { Deal: Number(ids.settledDeal) });
	const dealItems = parseList(deal.text);
	record('mcp: newest version Get with an ID: GET filtered by the ID, the deal', [
		...(dealItems?.[0]?.id === ids.settledDeal && dealItems[0].dealStatus === 'Settled' ? [] : [`answer ${deal.text.slice(0, 300)}`]),
		...(apiRequests().map(describe).join(' | ') === `GET /jsonapi/deals?filter=equals(id,'${ids.settledDeal}')&page[size]=1` ? [] : [`requests: ${apiRequests().map(describe).join(' | ')}`]),
	]);
	sandbox.clearLog();
	const updated = await call('Update_a_task_in_Loan_CRM', { Task_ID: Number(ids.task), Progress: 'Completed' });
	const patch = apiRequests()[0];
	record('mcp: newest version Update with an ID: PATCH with only the field given', [
		...(updated.isError ? [`isError: ${updated.text.slice(0, 300)}`] : []),
		...(apiRequests().length === 1 && patch.method === 'PATCH' && patch.path === `/jsonapi/tasks/${ids.task}` && patch.body === JSON.stringify({ data: { type: 'tasks', id: ids.task, attributes: { progress: 'Completed' } } })
			? []
			: [`requests: ${apiRequests().map((request) => `${describe(request)} ${String(request.body)}`).join(' | ')}`]),
	]);
	sandbox.clearLog();
	const created = await call('Create_a_contact_in_Loan_CRM', { First_Name: 'Ada', Last_Name: 'Lovelace', Email: 'ada@example.com' });
	const post = apiRequests()[0];
	record('mcp: newest version Create with fields: POST with exactly those fields', [
		...(created.isError ? [`isError: ${created.text.slice(0, 300)}`] : []),
		...(parseList(created.text)?.[0]?.lastName === 'Lovelace' ? [] : [`answer ${created.text.slice(0, 200)}`]),
		// From 1.2 E-mail, First Name and Last Name are parameters of their own, read (and sent) first.
		...(apiRequests().length === 1 && post.method === 'POST' && post.path === '/jsonapi/contacts' && post.body === JSON.stringify({ data: { type: 'contacts', attributes: { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' } } })
			? []
			: [`requests: ${apiRequests().map((request) => `${describe(request)} ${String(request.body)}`).join(' | ')}`]),
	]);
	sandbox.clearLog();
	const bad = await call('Get_a_deal_in_Loan_CRM', { Deal: 0 });
	record('mcp: newest version a bad ID: the error names the parameter and the tool argument, no request', [
		...(bad.isError ? [] : ['not an error result']),
		...(bad.text.includes('Parameter "Deal" (tool argument "Deal") must be a record ID (a whole number)') ? [] : [`text ${bad.text.slice(0, 300)}`]),
		...(apiRequests().length === 0 ? [] : [`${apiRequests().length} request(s) reached the sandbox`]),
	]);
}
