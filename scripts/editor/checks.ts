/**
 * `scripts/screenshots.ts --check`: what issue 35 asks of the nodes, seen in the real n8n 2.30 editor
 * of `npm run dev` (not --lively; the checks write only records of their own: a contact, a lead and a
 * deal external reference with new values). Each check prints PASS or FAIL with what it saw; the
 * script exits 1 when any fails.
 *
 *   trigger-items        Deals Trigger at its newest version, Fetch Test Event: Table view's first columns
 *                        sample, id, name, dealStatus, previousStatus, statusChangedAt, totalLoanAmount,
 *                        lenderName (trigger/output.ts), the sample marker in sight, a real previousStatus,
 *                        and the same columns as Deal → Get Many's summary rows
 *   contacts-trigger     Contacts Trigger, Fetch Test Event: the sample marker, then Contact → Get Many's columns
 *   if-already-exists    every create with If Already Exists (Contact, Deal External Reference, Lead) run
 *                        twice with Return Existing: outcome and matchCount first, created then found
 *   id-checks            Task → Update with Task ID "abc" and Assignee ID "1.5": one warning per wrong
 *                        field naming it, in the node panel and on the canvas; the run-time messages name
 *                        the field and quote the value
 *   panel-entries        the nodes panel's trigger entries read "On <event name>", the deal-settled entry
 *                        opens Deal Status Changed with To Status = Settled, and publishing says "deal"
 *   hints                no node panel of the package (every operation and event) shows a literal
 *                        backtick or ** (hints are plain text in n8n)
 *   sticky-notes         the sticky note of every example workflow `npm run dev` imported shows its whole
 *                        text (content scrollHeight <= clientHeight)
 *
 * And what issue 41 asks (what a broker sees, second pass), the numbers its points:
 *
 *   examples (1)         every Loan CRM node of the examples `npm run dev` imported is at the newest
 *                        version (Settings: "(Latest)"); the deal-settled example's test event is one
 *                        short table row
 *   lead-create (2, 3)   Lead → Create run twice with Return Existing: the same columns in the same order
 *                        created and found (outcome, matchCount, id, dealId, customStatusName, dealStatus);
 *                        one without a reference says notSearched; the notice beside If Already Exists
 *                        shows while a reference field is empty and follows what is typed
 *   labels (4)           Rate Limit Wait (Minutes) and Create Integration If Missing shown whole (the old
 *                        label of a version 1.1 node cut off, for contrast); Match Existing Contact By's
 *                        values in words; canvas subtitles "Create deal note", "Get deal" (a 1.1 node keeps
 *                        "create: dealNote"); the ID rule is checked by id-checks
 *   custom-entries (5)   each action node's Resource list has Custom Request, saying what it is for, and no
 *                        n8n Custom API Call
 *   contact-create (6)   Contact → Create shows Email, First Name and Last Name on top, not under
 *                        Additional Fields (a 1.1 node keeps them there)
 *   deal-note (7)        Deal Note → Create's output carries dealId after id and type
 *
 * And what issues 42–44 put in the editor:
 *
 *   pickers (42)         Lead → Create: Allocate To lists the organisation's advisers as a person knows
 *                        them (name — e-mail — status — #id) and its search narrows the list; Enquiry
 *                        Source lists "Category › Source — #id"; Referrer lists the referrers
 *   fact-find (43)       the fact-find example's Fact Find → Create: with the form's output there (pinned),
 *                        an income's Owners and Employment offer exactly the names given under People and
 *                        Employments in the same node (without it, just imported: reported, empty)
 *   webhook-trigger (44) searching "Loan CRM" in the nodes panel lists the Webhook Trigger beside the
 *                        Deals and Contacts Triggers; its panel shows the webhook URLs with the
 *                        production URL and the setup notice, and no literal markdown
 */
import { readFileSync, readdirSync } from 'fs';
import { createRequire } from 'module';
import { join } from 'path';

import type { INodeParameters, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { DEAL_STATUSES } from '../../nodes/shared/service/schema';
import { CONTACT_EVENTS, DEAL_EVENTS, TRIGGER_EVENTS } from '../../nodes/shared/trigger/events';
import { REPO_ROOT } from '../e2e/n8n';
import { PACKAGE } from '../e2e/workflows';
import type { Editor } from './page';
import { CREDENTIAL, NEWEST, editorNode, fromManualTrigger, manualTrigger, manualWorkflow } from './page';
import { loanCrmNode } from '../e2e/workflows';
import { DEV_CREDENTIAL } from '../dev-examples';
import { loadPackageSource } from '../../harness/package-source';

/** What a Deals Trigger item at version 1.1 starts with after a test event's `sample` (trigger/output.ts). */
const DEAL_TRIGGER_LEADING = ['id', 'name', 'dealStatus', 'previousStatus', 'statusChangedAt', 'totalLoanAmount', 'lenderName'];

interface Result {
	name: string;
	ok: boolean;
	saw: string[];
}

const results: Result[] = [];

function report(name: string, ok: boolean, saw: string[]): void {
	results.push({ name, ok, saw });
	console.log(`${ok ? 'PASS' : 'FAIL'} ${name}`);
	for (const line of saw) console.log(`     ${line}`);
}

const same = (a: readonly unknown[], b: readonly unknown[]) => JSON.stringify(a) === JSON.stringify(b);
const show = (values: readonly string[]) => values.join(', ');

/** Runs `check`; an exception is a FAIL with its message. */
async function attempt(name: string, check: () => Promise<void>): Promise<void> {
	try {
		await check();
	} catch (error) {
		report(name, false, [`error: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`]);
	}
}

/** Waits for the editor to have saved the workflow it shows, and returns it (n8n 2.30 saves a new workflow by itself). */
async function savedWorkflow(editor: Editor): Promise<{ id: string; nodes: Array<{ type: string; typeVersion: number; parameters: Record<string, unknown> }> }> {
	for (let attempt = 0; attempt < 20; attempt++) {
		const id = editor.workflowIdFromUrl();
		if (id !== undefined && id !== 'new') {
			const workflow = await editor.rest('GET', `/workflows/${id}`).catch(() => undefined);
			if (workflow !== undefined && workflow.nodes.length > 0) return workflow;
		}
		if (attempt === 5) await editor.page.keyboard.press('Control+s');
		await editor.page.waitForTimeout(500);
	}
	throw new Error('the editor did not save the new workflow');
}

/** A workflow that runs one Get Many of the newest version, and the columns of its output table. */
async function getManyColumns(editor: Editor, node: string, resource: string): Promise<string[]> {
	const name = `Get Many ${resource}`;
	const id = await editor.createWorkflow(manualWorkflow(`check: ${name}`, editorNode(name, node, { resource, operation: 'getMany', limit: 3 }, 'c1000000-0000-4000-8000-000000000001')));
	await editor.openWorkflow(id);
	const toasts = await editor.executeWorkflow();
	if (!toasts.some((toast) => /executed successfully/i.test(toast))) throw new Error(`${name} did not run: ${toasts.join(' | ')}`);
	await editor.openNode(name);
	const { headers } = await editor.outputTable();
	await editor.closeNode();
	return headers;
}

/** Publishes the workflow shown, returns what n8n says, and unpublishes it again. */
async function publishMessage(editor: Editor, workflowId: string): Promise<string> {
	const page = editor.page;
	await page.click('[data-test-id="workflow-open-publish-modal-button"]');
	await page.waitForSelector('[data-test-id="workflow-publish-button"]', { timeout: 10_000 });
	await page.click('[data-test-id="workflow-publish-button"]');
	await page.waitForFunction(() => document.body.innerText.includes('Workflow published'), undefined, { timeout: 30_000 });
	await page.waitForTimeout(500);
	const text: string = await page.evaluate(() => {
		const candidates = Array.from(document.querySelectorAll<HTMLElement>('.el-dialog, .el-notification, [role="dialog"]'));
		return candidates.map((element) => element.innerText).find((inner) => inner.includes('Workflow published')) ?? '';
	});
	await page.getByText('Got it', { exact: true }).first().click().catch(() => undefined);
	await editor.rest('POST', `/workflows/${workflowId}/deactivate`, {}).catch((error: unknown) => console.log(`     (could not unpublish ${workflowId}: ${String(error)})`));
	return text.replace(/\s+/g, ' ').trim();
}

// --- 1 and 5: the triggers as the nodes panel adds them ------------------------------------------

async function checkDealsTrigger(editor: Editor): Promise<void> {
	const entries = await editor.nodesPanelEntries('Loan CRM Deals');
	const triggerEntries = entries.filter((entry) => entry.type === `${PACKAGE}.loanCrmDealsTrigger`).map((entry) => entry.name);
	const contactEntries = (await editor.nodesPanelEntries('Loan CRM Contacts')).filter((entry) => entry.type === `${PACKAGE}.loanCrmContactsTrigger`).map((entry) => entry.name);
	const namesMatch = (offered: readonly string[], shown: string[]) =>
		same(shown, offered.map((event) => TRIGGER_EVENTS[event].action)) &&
		offered.every((event, index) => shown[index]?.toLowerCase().startsWith(`on ${TRIGGER_EVENTS[event].name.toLowerCase()}`));
	const panelSaw = [
		`Loan CRM Deals → Triggers: ${show(triggerEntries)} (events: ${show(DEAL_EVENTS.map((event) => TRIGGER_EVENTS[event].name))})`,
		`Loan CRM Contacts → Triggers: ${show(contactEntries)} (events: ${show(CONTACT_EVENTS.map((event) => TRIGGER_EVENTS[event].name))})`,
	];

	// The deal-settled entry, as a newcomer picks it.
	await editor.nodesPanelEntries('Loan CRM Deals');
	const settledEntry = TRIGGER_EVENTS.dealStatusChanged.action;
	await editor.pickPanelEntry(settledEntry);
	const event = await editor.optionValue('event');
	const toStatuses = await editor.chosenValues('toStatuses');
	const version = await editor.nodeVersionText();
	panelSaw.push(`"${settledEntry}" opens ${version}: Event "${event}", To Status [${show(toStatuses)}]`);

	await editor.page.click('[data-test-id="ndv"] [data-test-id="node-execute-button"]');
	const { headers, rows } = await editor.outputTable();
	const row = Object.fromEntries(headers.map((header, index) => [header, rows[0]?.[index]]));
	const sampleVisible: boolean = await editor.page.evaluate(() => {
		const panel = document.querySelector('[data-test-id="ndv"] [data-test-id="output-panel"]')?.getBoundingClientRect();
		const cell = document.querySelector('[data-test-id="ndv"] [data-test-id="output-panel"] table thead th')?.getBoundingClientRect();
		return panel !== undefined && cell !== undefined && cell.left >= panel.left && cell.right <= panel.right && cell.top >= panel.top && cell.bottom <= window.innerHeight;
	});
	await editor.closeNode();
	const saved = await savedWorkflow(editor);
	const node = saved.nodes.find((candidate) => candidate.type === `${PACKAGE}.loanCrmDealsTrigger`);
	const getMany = await getManyColumns(editor, 'loanCrmDeals', 'deal');

	const expected = ['sample', ...DEAL_TRIGGER_LEADING];
	const previous = row.previousStatus ?? '';
	const moveColumns = new Set(['sample', 'previousStatus', 'statusChangedAt']);
	const summaryColumns = headers.filter((header) => !moveColumns.has(header));
	report('trigger-items: Deals Trigger, Fetch Test Event at the newest version', node?.typeVersion === NEWEST &&
		same(headers.slice(0, expected.length), expected) &&
		rows.length === 1 &&
		row.sample === 'true' &&
		sampleVisible &&
		row.dealStatus === 'Settled' &&
		(DEAL_STATUSES as readonly string[]).includes(previous) &&
		previous !== 'Settled' &&
		same([...summaryColumns].sort(), [...getMany].sort()), [
		`node saved at version ${node?.typeVersion} (newest ${NEWEST})`,
		`Table view columns: ${show(headers.slice(0, 10))}${headers.length > 10 ? `, … (${headers.length} in all)` : ''}`,
		`first row: ${expected.map((key) => `${key}=${row[key]}`).join(' ')}; ${rows.length} row(s)`,
		`sample column in sight: ${sampleVisible}`,
		`Deal → Get Many (v${NEWEST}) columns: ${show(getMany.slice(0, 8))}, … (${getMany.length}); the trigger's without the move's: ${same([...summaryColumns].sort(), [...getMany].sort()) ? 'the same set' : `differ: ${show(summaryColumns)}`}`,
	]);

	// Publishing: what n8n says names what the trigger watches.
	await editor.openWorkflow(saved.id);
	const message = await publishMessage(editor, saved.id);
	panelSaw.push(`publishing says: "${message.slice(0, 170)}…"`);
	report('panel-entries: nodes panel entries, event names, the settled preset and the publish message agree',
		namesMatch(DEAL_EVENTS, triggerEntries) &&
		namesMatch(CONTACT_EVENTS, contactEntries) &&
		event === TRIGGER_EVENTS.dealStatusChanged.name &&
		same(toStatuses, ['Settled']) &&
		/Loan CRM for deal changes/.test(message),
		panelSaw,
	);
}

async function checkContactsTrigger(editor: Editor): Promise<void> {
	await editor.nodesPanelEntries('Loan CRM Contacts');
	const entry = TRIGGER_EVENTS.contactCreated.action;
	await editor.pickPanelEntry(entry);
	const event = await editor.optionValue('event');
	const version = await editor.nodeVersionText();
	await editor.page.click('[data-test-id="ndv"] [data-test-id="node-execute-button"]');
	const { headers, rows } = await editor.outputTable();
	await editor.closeNode();
	const saved = await savedWorkflow(editor);
	const node = saved.nodes.find((candidate) => candidate.type === `${PACKAGE}.loanCrmContactsTrigger`);
	const getMany = await getManyColumns(editor, 'loanCrmContacts', 'contact');
	report('contacts-trigger: Contacts Trigger, Fetch Test Event reads like Contact → Get Many', node?.typeVersion === NEWEST &&
		event === TRIGGER_EVENTS.contactCreated.name &&
		headers[0] === 'sample' &&
		rows[0]?.[0] === 'true' &&
		same(headers.slice(1), getMany), [
		`"${entry}" opens ${version} on "${event}", saved at version ${node?.typeVersion}`,
		`Table view columns: ${show(headers.slice(0, 8))}, … (${headers.length}); first row starts ${show((rows[0] ?? []).slice(0, 5))}`,
		`Contact → Get Many columns: ${show(getMany.slice(0, 7))}, … (${getMany.length}); after sample the same: ${same(headers.slice(1), getMany)}`,
	]);
}

// --- 2: If Already Exists ------------------------------------------------------------------------

async function checkIfAlreadyExists(editor: Editor): Promise<void> {
	const stamp = Date.now().toString(36);
	const create = (name: string, node: string, y: number, parameters: INodeParameters) =>
		editorNode(name, node, { ...parameters, operation: 'create', ifAlreadyExists: 'returnExisting' }, `c2000000-0000-4000-8000-00000000000${y}`, [300, y * 200]);
	const nodes = [
		create('Create contact', 'loanCrmContacts', 0, { resource: 'contact', firstName: 'Aroha', lastName: 'Ngata', email: `aroha.${stamp}@example.com` }),
		create('Create deal external reference', 'loanCrmDeals', 1, {
			resource: 'dealExternalReference',
			externalReference: `CHECK-${stamp}`,
			integrationId: { __rl: true, mode: 'id', value: '12' },
			dealId: { __rl: true, mode: 'id', value: '10001' },
		}),
		create('Create lead', 'loanCrmLeadsAndTasks', 2, {
			resource: 'lead',
			firstName: 'Fred',
			lastName: 'Flintstone',
			email: `fred.${stamp}@example.com`,
			contactMatchExisting: 'EmailMobile',
			externalReference: `FORM-${stamp}`,
			externalIntegration: 'MyIntegrationSource',
		}),
	];
	const id = await editor.createWorkflow({ name: 'check: If Already Exists, run twice', nodes: [manualTrigger(), ...nodes], connections: fromManualTrigger(...nodes.map((node) => node.name)) });
	await editor.openWorkflow(id);
	const seen = new Map<string, Array<{ headers: string[]; row: string[] }>>();
	const runToasts: string[] = [];
	for (let run = 1; run <= 2; run++) {
		runToasts.push(...(await editor.executeWorkflow()));
		for (const node of nodes) {
			await editor.openNode(node.name);
			const { headers, rows } = await editor.outputTable();
			await editor.closeNode();
			seen.set(node.name, [...(seen.get(node.name) ?? []), { headers, row: rows[0] ?? [] }]);
		}
	}
	const saw: string[] = [];
	let ok = runToasts.every((toast) => /executed successfully/i.test(toast));
	if (!ok) saw.push(`runs: ${runToasts.join(' | ')}`);
	for (const node of nodes) {
		const [first, second] = seen.get(node.name) ?? [];
		const at = (run: { headers: string[]; row: string[] } | undefined, key: string) => run?.row[run.headers.indexOf(key)];
		const nodeOk =
			first !== undefined &&
			second !== undefined &&
			same(first.headers.slice(0, 2), ['outcome', 'matchCount']) &&
			same(second.headers.slice(0, 2), ['outcome', 'matchCount']) &&
			at(first, 'outcome') === 'created' &&
			at(first, 'matchCount') === '0' &&
			at(second, 'outcome') === 'found' &&
			at(second, 'matchCount') === '1' &&
			at(first, 'id') === at(second, 'id');
		ok &&= nodeOk;
		saw.push(
			`${node.name}: columns ${show((first?.headers ?? []).slice(0, 3))}, …; run 1 outcome=${at(first, 'outcome')} matchCount=${at(first, 'matchCount')} id=${at(first, 'id')}; run 2 outcome=${at(second, 'outcome')} matchCount=${at(second, 'matchCount')} id=${at(second, 'id')}`,
		);
	}
	report('if-already-exists: every create with If Already Exists, run twice', ok, saw);
}

// --- 3: ID checks ----------------------------------------------------------------------------------

/** Task → Update of `taskId`, with Assignee ID `assigneeId` (undefined: Progress instead). */
function taskUpdate(taskId: string, assigneeId: string | undefined) {
	const name = 'Update task';
	const updateFields = assigneeId === undefined ? { progress: 'InProgress' } : { assigneeId: { __rl: true, mode: 'id', value: assigneeId } };
	return manualWorkflow(
		`check: Task ID ${taskId}${assigneeId === undefined ? '' : `, Assignee ID ${assigneeId}`}`,
		editorNode(name, 'loanCrmLeadsAndTasks', { resource: 'task', operation: 'update', taskId: { __rl: true, mode: 'id', value: taskId }, updateFields }, 'c3000000-0000-4000-8000-000000000001'),
	);
}

async function checkIdChecks(editor: Editor): Promise<void> {
	const page = editor.page;
	await editor.openWorkflow(await editor.createWorkflow(taskUpdate('abc', '1.5')));
	await editor.openNode('Update task');
	const fieldIssues: Array<{ field: string; text: string }> = [];
	for (const icon of await page.$$('[data-test-id="ndv"] [data-test-id="parameter-issues"]')) {
		const field: string = await icon.evaluate((element: HTMLElement) => {
			const input = element.closest('[data-test-id^="resource-locator-"], [data-test-id="parameter-item"]')?.querySelector('input[title]');
			return /"([^"]+)"/.exec(input?.getAttribute('title') ?? '')?.[1] ?? '?';
		});
		fieldIssues.push({ field, text: (await editor.tooltipOf(await icon.$('span'))).replace(/^Issues:\s*/, '') });
	}
	await editor.closeNode();
	const canvas = (await editor.tooltipOf('[data-test-id="canvas-node"][data-node-name="Update task"] [data-test-id="node-issues"] span'))
		.replace(/^Issues:\s*/, '')
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line !== '');
	const refused = await editor.executeWorkflow();

	// Run time: an expression is not checked in the editor; the node's own check names the field and quotes the value.
	const runtime: string[] = [];
	const runs: Array<[string, string | undefined]> = [
		['={{ "abc" }}', undefined],
		['9500001', '1.5'],
	];
	for (const [taskId, assigneeId] of runs) {
		await editor.openWorkflow(await editor.createWorkflow(taskUpdate(taskId, assigneeId)));
		runtime.push((await editor.executeWorkflow()).join(' | ').replace(/\s+/g, ' '));
	}

	// A new node (version 1.2) words the rule "a record ID (a whole number)" (issue 41).
	const ndvOk =
		fieldIssues.length === 2 &&
		/^Task ID must be a record ID \(a whole number\)$/.test(fieldIssues.find((issue) => issue.field === 'taskId')?.text ?? '') &&
		/^Assignee ID must be a record ID \(a whole number\)$/.test(fieldIssues.find((issue) => issue.field === 'updateFields.assigneeId')?.text ?? '');
	// Each canvas line names its field, once. (n8n 2.30 lists no issue of a parameter inside a collection
	// on the canvas: NodeHelpers.getParameterIssues reads a top-level collection's entries at the top level.)
	const canvasOk = canvas.length >= 1 && canvas.every((line) => /^(Task ID|Assignee ID) must be a record ID \(a whole number\)$/.test(line)) && new Set(canvas).size === canvas.length;
	const runtimeOk =
		/Task ID.{0,4} must be a record ID \(a whole number\); got "abc"/.test(runtime[0]) && /Assignee ID.{0,4} must be a record ID \(a whole number\); got "1\.5"/.test(runtime[1]);
	report('id-checks: Task → Update with Task ID "abc" and Assignee ID "1.5"', ndvOk && canvasOk && runtimeOk, [
		`node panel, one warning per field: ${fieldIssues.map((issue) => `[${issue.field}] ${issue.text}`).join(' / ')}`,
		`canvas node issues: ${canvas.join(' / ')}${canvas.length < 2 ? ' (n8n 2.30 does not list parameters inside Update Fields there)' : ''}`,
		`Execute Workflow refused: ${refused.join(' | ').replace(/\s+/g, ' ')}`,
		`run time, Task ID as an expression "abc": ${runtime[0]}`,
		`run time, Assignee ID "1.5": ${runtime[1]}`,
	]);
}

// --- 5: no literal markdown in the node panels -------------------------------------------------------

interface Described {
	description: { name: string; version: number | number[]; properties: INodeProperties[] };
}

/**
 * A node type of the package from its source. By file name with `.ts`: `nodes/X/X.node` alone would
 * resolve to the codex file X.node.json next to it.
 */
function nodeType(className: string): Described {
	const exported = createRequire(__filename)(join(REPO_ROOT, 'nodes', className, `${className}.node.ts`)) as Record<string, new () => INodeType>;
	return new exported[className]() as unknown as Described;
}

/** One node per operation (action nodes) or event (triggers), every ID in By ID mode so its hint shows. */
function everyPanel(): Array<{ name: string; type: string; parameters: Record<string, unknown> }> {
	const nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }> = [];
	const types = ['LoanCrmDeals', 'LoanCrmContacts', 'LoanCrmLeadsAndTasks', 'LoanCrmOrganisationsAndAssets', 'LoanCrmDealsTrigger', 'LoanCrmContactsTrigger'].map(nodeType);
	for (const { description } of types) {
		const byId = (property: INodeProperties) => property.type === 'resourceLocator';
		const locators: Record<string, unknown> = {};
		for (const property of description.properties) {
			if (byId(property)) locators[property.name] = { __rl: true, mode: 'id', value: '' };
			if (property.type === 'collection') {
				const inner = ((property.options ?? []) as INodeProperties[]).filter(byId);
				if (inner.length > 0) locators[property.name] = Object.fromEntries(inner.map((entry) => [entry.name, { __rl: true, mode: 'id', value: '' }]));
			}
		}
		const events = description.properties.find((property) => property.name === 'event');
		const pairs = events
			? (events.options as Array<{ value: string }>).map((option) => ({ event: option.value }))
			: description.properties
					.filter((property) => property.name === 'operation')
					.flatMap((property) => ((property.displayOptions?.show?.resource ?? []) as string[]).flatMap((resource) => (property.options as Array<{ value: string }>).map((option) => ({ resource, operation: option.value }))));
		const unique = [...new Map(pairs.map((pair) => [JSON.stringify(pair), pair])).values()];
		for (const pair of unique) nodes.push({ name: `${description.name} ${Object.values(pair).join('.')}`, type: `${PACKAGE}.${description.name}`, parameters: { ...locators, ...pair } });
	}
	return nodes;
}

async function checkHints(editor: Editor): Promise<void> {
	const panels = everyPanel();
	const columns = 8;
	const id = await editor.createWorkflow({
		name: 'check: every node panel',
		nodes: panels.map((panel, index) => ({
			id: `c4000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
			name: panel.name,
			type: panel.type,
			typeVersion: NEWEST,
			position: [(index % columns) * 240, Math.floor(index / columns) * 240],
			parameters: panel.parameters,
			credentials: CREDENTIAL,
		})),
		connections: {},
	});
	await editor.openWorkflow(id);
	const found: string[] = [];
	let hints = 0;
	for (const panel of panels) {
		await editor.page.click('[data-test-id="zoom-to-fit"]').catch(() => undefined);
		await editor.openNode(panel.name);
		const text: string = await editor.page.$eval('[data-test-id="ndv"] [data-test-id="node-parameters"]', (element: HTMLElement) => element.innerText);
		hints += (text.match(/IDs come from|A whole number|Copy it from/g) ?? []).length;
		for (const line of text.split('\n')) if (/`|\*\*/.test(line)) found.push(`${panel.name}: ${line.trim().slice(0, 120)}`);
		await editor.closeNode();
	}
	report('hints: no literal markdown in any node panel', found.length === 0 && panels.length > 20, [
		`${panels.length} node panels (every operation and event of the six node types), ${hints} ID hints shown`,
		...(found.length === 0 ? ['no backtick or ** in their text'] : found),
	]);
}

// --- 7: the examples' sticky notes ------------------------------------------------------------------

async function checkStickyNotes(editor: Editor): Promise<void> {
	const names = readdirSync(join(REPO_ROOT, 'examples'))
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => [file, (JSON.parse(readFileSync(join(REPO_ROOT, 'examples', file), 'utf8')) as { name: string }).name] as const);
	const workflows = (await editor.rest('GET', '/workflows')) as Array<{ id: string; name: string }>;
	const saw: string[] = [];
	let ok = names.length > 0;
	for (const [file, name] of names) {
		const workflow = workflows.find((candidate) => candidate.name === name);
		if (workflow === undefined) {
			ok = false;
			saw.push(`${file}: no workflow "${name}" in this n8n (npm run dev imports the examples on the first start of a user folder; use --fresh)`);
			continue;
		}
		await editor.openWorkflow(workflow.id);
		const notes: Array<{ size: string; scrollHeight: number; clientHeight: number; textBelow: number }> = await editor.page.$$eval('[data-test-id="sticky"]', (stickies: HTMLElement[]) =>
			stickies.map((sticky) => {
				const markdown = sticky.querySelector('.n8n-markdown') as HTMLElement;
				const box = markdown.parentElement as HTMLElement;
				const range = document.createRange();
				range.selectNodeContents(markdown);
				const scale = box.getBoundingClientRect().height / box.offsetHeight;
				return {
					size: sticky.getAttribute('style') ?? '',
					scrollHeight: box.scrollHeight,
					clientHeight: box.clientHeight,
					// How far the last line of text reaches past the box (negative: room to spare), in note pixels.
					textBelow: Math.round((range.getBoundingClientRect().bottom - box.getBoundingClientRect().bottom) / scale),
				};
			}),
		);
		for (const note of notes) {
			const fits = note.scrollHeight <= note.clientHeight;
			ok &&= fits;
			const edge = `the last line ends ${Math.abs(note.textBelow)} px ${note.textBelow > 0 ? 'below' : 'above'} the bottom edge`;
			saw.push(`${file} (${note.size.trim()}): ${fits ? `fits, ${edge}` : `content ${note.scrollHeight} px in ${note.clientHeight} px, cut off: ${edge}`}`);
		}
		ok &&= notes.length > 0;
	}
	report('sticky-notes: every example note shows its whole text', ok, saw);
}

// --- Issue 41: what a broker sees, second pass -----------------------------------------------------

/** The first line of each top-level parameter the open node panel shows (its label, or a notice's text). */
async function parameterLines(editor: Editor): Promise<string[]> {
	return await editor.page.$$eval('[data-test-id="ndv"] [data-test-id="node-parameters"] [data-test-id="parameter-item"]', (items: HTMLElement[]) =>
		items.map((item) => (item.innerText.split('\n')[0] ?? '').trim()),
	);
}

/** The entries an options parameter of the open node panel offers (name / description), read from its open dropdown. */
async function dropdownEntries(editor: Editor, parameter: string): Promise<string[]> {
	const page = editor.page;
	await page.click(`[data-test-id="ndv"] [data-test-id="parameter-input-${parameter}"]`);
	await page.waitForTimeout(800);
	const entries: string[] = await page.$$eval('.el-select-dropdown__item', (items: HTMLElement[]) =>
		items.filter((item) => item.offsetParent !== null).map((item) => item.innerText.trim().replace(/\s*\n\s*/g, ' / ')),
	);
	await page.keyboard.press('Escape');
	await page.waitForTimeout(300);
	return entries;
}

/**
 * A parameter's label as the open node panel draws it (the mouse away): its text, and whether the
 * editor cuts it off (an element of the label's text wider than its box: CSS ends it in "…").
 */
async function labelAsDrawn(editor: Editor, label: string): Promise<{ found: boolean; cut: boolean }> {
	await editor.page.mouse.move(5, 5);
	await editor.page.waitForTimeout(300);
	return await editor.page.$$eval(
		'[data-test-id="ndv"] [data-test-id="parameter-item"]',
		(items: HTMLElement[], wanted: string) => {
			for (const item of items) {
				if ((item.innerText.split('\n')[0] ?? '').trim() !== wanted) continue;
				const drawn = [item, ...Array.from(item.querySelectorAll<HTMLElement>('*'))].filter((element) => (element.textContent ?? '').trim() === wanted);
				return { found: true, cut: drawn.some((element) => element.scrollWidth > element.clientWidth + 1) };
			}
			return { found: false, cut: false };
		},
		label,
	);
}

/** The subtitle the canvas draws under a node's name. */
async function canvasSubtitle(editor: Editor, name: string): Promise<string> {
	const text: string = await editor.page.$eval(`[data-test-id="canvas-node"][data-node-name="${name}"]`, (node: HTMLElement) => node.innerText);
	const lines = text.split('\n').map((line) => line.trim()).filter((line) => line !== '');
	return lines[lines.indexOf(name) + 1] ?? '';
}

/** A node of the package at `typeVersion` (a saved one of an older version), with the sandbox credential. */
function nodeAt(typeVersion: number, name: string, node: string, parameters: INodeParameters, id: string, position: [number, number]) {
	return loanCrmNode(name, node, parameters, { id, typeVersion, position, credential: DEV_CREDENTIAL });
}

/** The version the editor gives a new node of each of the package's types (the one-version Webhook Trigger: 1). */
function newestVersions(): Map<string, number> {
	return new Map(
		loadPackageSource().nodes.map(({ name, type }) => {
			// The package's node types are plain (not n8n's versioned node types): one description for all versions.
			const { version, defaultVersion } = type.description as INodeTypeDescription;
			return [`${PACKAGE}.${name}`, defaultVersion ?? Math.max(...([] as number[]).concat(version))] as const;
		}),
	);
}

/** 1: the examples `npm run dev` imported, each Loan CRM node at the newest version; the settled example's test event one short row. */
async function checkExamples(editor: Editor): Promise<void> {
	const newest = newestVersions();
	const files = readdirSync(join(REPO_ROOT, 'examples')).filter((file) => file.endsWith('.json')).sort();
	const listed = (await editor.rest('GET', '/workflows')) as Array<{ id: string; name: string }>;
	const saw: string[] = [];
	let ok = files.length > 0;
	for (const file of files) {
		const name = (JSON.parse(readFileSync(join(REPO_ROOT, 'examples', file), 'utf8')) as { name: string }).name;
		const entry = listed.find((candidate) => candidate.name === name);
		if (entry === undefined) {
			ok = false;
			saw.push(`${file}: no workflow "${name}" (npm run dev imports the examples on the first start of a user folder; use --fresh)`);
			continue;
		}
		const workflow = (await editor.rest('GET', `/workflows/${entry.id}`)) as { nodes: Array<{ name: string; type: string; typeVersion: number }> };
		const ours = workflow.nodes.filter((node) => node.type.startsWith(`${PACKAGE}.`));
		const old = ours.filter((node) => node.typeVersion !== newest.get(node.type));
		ok &&= ours.length > 0 && old.length === 0;
		// What a user sees: the node's Settings names its version "(Latest)".
		await editor.openWorkflow(entry.id);
		await editor.openNode(ours[0].name);
		const version = await editor.nodeVersionText();
		ok &&= /\(Latest\)/.test(version);
		if (file === 'deal-settled-to-slack.json') {
			await editor.page.click('[data-test-id="ndv"] [data-test-id="node-execute-button"]');
			const { headers, rows } = await editor.outputTable();
			const rowHeight: number = await editor.page.$eval('[data-test-id="ndv"] [data-test-id="output-panel"] table tbody tr', (row: HTMLElement) => row.getBoundingClientRect().height);
			const oneRow = rows.length === 1 && headers[0] === 'sample' && headers.includes('previousStatus') && headers.includes('settledDate') && rowHeight < 80;
			ok &&= oneRow;
			saw.push(`${file}: Fetch Test Event gives ${rows.length} row(s), ${Math.round(rowHeight)} px tall, columns ${show(headers.slice(0, 6))}, … (${headers.length}; settledDate ${headers.includes('settledDate') ? 'among them' : 'missing'})`);
		}
		await editor.closeNode();
		saw.push(`${file}: ${ours.map((node) => `${node.name} v${node.typeVersion}`).join(', ')}; "${ours[0].name}" Settings: ${version}`);
	}
	report(`examples: every Loan CRM node of the examples at the newest version (${NEWEST}; the Webhook Trigger its one version)`, ok, saw);
}

/** 2 and 3: Lead → Create, one shape created or found; no reference: said in the output and beside If Already Exists. */
async function checkLeadCreate(editor: Editor): Promise<void> {
	const page = editor.page;
	const stamp = Date.now().toString(36);
	const lead = (name: string, y: number, parameters: INodeParameters) =>
		editorNode(name, 'loanCrmLeadsAndTasks', { resource: 'lead', operation: 'create', ifAlreadyExists: 'returnExisting', firstName: 'Pebbles', lastName: 'Flintstone', ...parameters }, `c5000000-0000-4000-8000-00000000000${y}`, [300, y * 200]);
	const nodes = [
		lead('Lead from the form', 0, { email: `pebbles.${stamp}@example.com`, externalReference: `FORM-${stamp}`, externalIntegration: 'MyIntegrationSource' }),
		lead('Lead without a reference', 1, { email: `bamm.${stamp}@example.com` }),
	];
	const id = await editor.createWorkflow({ name: 'check: Lead → Create, one shape', nodes: [manualTrigger(), ...nodes], connections: fromManualTrigger(...nodes.map((node) => node.name)) });
	await editor.openWorkflow(id);
	const runs: Array<Record<string, { headers: string[]; row: string[] }>> = [];
	for (let run = 1; run <= 2; run++) {
		const toasts = await editor.executeWorkflow();
		if (!toasts.some((toast) => /executed successfully/i.test(toast))) throw new Error(`run ${run}: ${toasts.join(' | ')}`);
		const seen: Record<string, { headers: string[]; row: string[] }> = {};
		for (const node of nodes) {
			await editor.openNode(node.name);
			const { headers, rows } = await editor.outputTable();
			seen[node.name] = { headers, row: rows[0] ?? [] };
			await editor.closeNode();
		}
		runs.push(seen);
	}
	const at = (entry: { headers: string[]; row: string[] }, key: string) => entry.row[entry.headers.indexOf(key)];
	const [created, found] = [runs[0]['Lead from the form'], runs[1]['Lead from the form']];
	const columns = ['outcome', 'matchCount', 'id', 'dealId', 'customStatusName', 'dealStatus'];
	const shapeOk =
		same(created.headers, columns) &&
		same(found.headers, columns) &&
		at(created, 'outcome') === 'created' &&
		at(found, 'outcome') === 'found' &&
		at(found, 'matchCount') === '1' &&
		at(created, 'id') === at(found, 'id') &&
		at(found, 'dealId') === at(found, 'id');
	const unkeyed = runs[1]['Lead without a reference'];
	const notSearched = at(unkeyed, 'notSearched') ?? '';
	const unkeyedOk = at(unkeyed, 'outcome') === 'created' && /^External Reference and External Integration are empty: Loan CRM was not searched$/.test(notSearched);

	// The notice beside If Already Exists follows the fields as they are typed.
	await editor.openNode('Lead without a reference');
	const notices = async () => (await parameterLines(editor)).filter((line) => / is empty, so Loan CRM cannot be searched/.test(line));
	const bothEmpty = await notices();
	const lines = await parameterLines(editor);
	const besideIfExists = lines.indexOf('If Already Exists') >= 0 && lines.indexOf('If Already Exists') + 1 === lines.findIndex((line) => / is empty, so Loan CRM/.test(line));
	await page.fill('[data-test-id="ndv"] [data-test-id="parameter-input-externalReference"] input, [data-test-id="ndv"] [data-test-id="parameter-input-externalReference"] textarea', `FORM-${stamp}-2`);
	await page.waitForTimeout(800);
	const referenceGiven = await notices();
	await page.fill('[data-test-id="ndv"] [data-test-id="parameter-input-externalIntegration"] input, [data-test-id="ndv"] [data-test-id="parameter-input-externalIntegration"] textarea', 'MyIntegrationSource');
	await page.waitForTimeout(800);
	const bothGiven = await notices();
	await editor.closeNode();
	const noticeOk =
		besideIfExists &&
		bothEmpty.length === 1 && /^External Reference is empty/.test(bothEmpty[0]) && referenceGiven.length === 1 && /^External Integration is empty/.test(referenceGiven[0]) && bothGiven.length === 0;
	report('lead-create: Lead → Create gives one shape created or found; no reference is said in the output and beside If Already Exists', shapeOk && unkeyedOk && noticeOk, [
		`created: ${created.headers.map((header) => `${header}=${at(created, header)}`).join(' ')}`,
		`found:   ${found.headers.map((header) => `${header}=${at(found, header)}`).join(' ')}`,
		`without a reference: ${unkeyed.headers.slice(0, 4).map((header) => `${header}=${at(unkeyed, header)}`).join(' ')}`,
		`notice, both empty: "${bothEmpty.join(' / ').slice(0, 90)}…"${besideIfExists ? '' : ' (not right after If Already Exists)'}`,
		`notice, External Reference typed: "${referenceGiven.join(' / ').slice(0, 60)}…"; both typed: ${bothGiven.length === 0 ? 'none' : bothGiven.join(' / ')}`,
	]);
}

/** 4: labels in plain words (the old ones in a version 1.1 node, for contrast) and canvas subtitles. */
async function checkLabels(editor: Editor): Promise<void> {
	const settings = { requestOptions: { rateLimitWaitMinutes: 10 }, additionalFields: { externalIntegrationAllowCreate: true } };
	const leadParameters = { resource: 'lead', operation: 'create', email: 'labels@example.com', ...settings };
	const nodes = [
		nodeAt(NEWEST, 'New lead node', 'loanCrmLeadsAndTasks', leadParameters, 'c6000000-0000-4000-8000-000000000001', [300, 0]),
		nodeAt(1.1, 'Saved lead node', 'loanCrmLeadsAndTasks', leadParameters, 'c6000000-0000-4000-8000-000000000002', [300, 200]),
		nodeAt(NEWEST, 'Note on the deal', 'loanCrmDeals', { resource: 'dealNote', operation: 'create', dealId: { __rl: true, mode: 'id', value: '10001' }, title: 'x' }, 'c6000000-0000-4000-8000-000000000003', [600, 0]),
		nodeAt(NEWEST, 'One deal', 'loanCrmDeals', { resource: 'deal', operation: 'get', dealId: { __rl: true, mode: 'id', value: '10001' } }, 'c6000000-0000-4000-8000-000000000004', [600, 200]),
		nodeAt(1.1, 'Saved note node', 'loanCrmDeals', { resource: 'dealNote', operation: 'create', dealId: { __rl: true, mode: 'id', value: '10001' }, title: 'x' }, 'c6000000-0000-4000-8000-000000000005', [900, 0]),
	];
	const id = await editor.createWorkflow({ name: 'check: labels in plain words', nodes: [manualTrigger(), ...nodes], connections: {} });
	await editor.openWorkflow(id);
	const subtitles = Object.fromEntries(await Promise.all(['Note on the deal', 'One deal', 'New lead node', 'Saved note node'].map(async (name) => [name, await canvasSubtitle(editor, name)] as const)));
	const drawn = async (node: string) => {
		await editor.openNode(node);
		await editor.scrollParameters(2000);
		const result = {
			wait: await labelAsDrawn(editor, node === 'New lead node' ? 'Rate Limit Wait (Minutes)' : 'When Rate Limited, Wait Up To (Minutes)'),
			allowCreate: await labelAsDrawn(editor, node === 'New lead node' ? 'Create Integration If Missing' : 'External Integration Allow Create'),
			match: (await dropdownEntries(editor, 'contactMatchExisting')).map((entry) => entry.split(' / ')[0]),
		};
		await editor.closeNode();
		return result;
	};
	const fresh = await drawn('New lead node');
	const saved = await drawn('Saved lead node');
	const words = ['E-mail', 'E-mail and mobile', 'E-mail and name', 'E-mail, mobile and name', 'E-mail and date of birth', 'E-mail, date of birth and name'];
	const ok =
		fresh.wait.found &&
		!fresh.wait.cut &&
		fresh.allowCreate.found &&
		!fresh.allowCreate.cut &&
		same(fresh.match, words) &&
		// The measurement sees a cut label: the old one in the saved node.
		saved.wait.found &&
		saved.wait.cut &&
		subtitles['Note on the deal'] === 'Create deal note' &&
		subtitles['One deal'] === 'Get deal' &&
		subtitles['New lead node'] === 'Create lead' &&
		subtitles['Saved note node'] === 'create: dealNote' &&
		Object.values(subtitles).slice(0, 3).every((subtitle) => !/[a-z][A-Z]/.test(subtitle));
	report('labels: plain words in a new node (1.2), the old ones in a saved 1.1 node', ok, [
		`new node: "Rate Limit Wait (Minutes)" ${fresh.wait.found ? (fresh.wait.cut ? 'cut off' : 'shown whole') : 'not found'}, "Create Integration If Missing" ${fresh.allowCreate.found ? (fresh.allowCreate.cut ? 'cut off' : 'shown whole') : 'not found'}`,
		`new node, Match Existing Contact By: ${show(fresh.match)}`,
		`saved 1.1 node: "When Rate Limited, Wait Up To (Minutes)" ${saved.wait.found ? (saved.wait.cut ? 'cut off (as the issue saw)' : 'shown whole') : 'not found'}; Match Existing Contact By: ${show(saved.match)}`,
		`canvas subtitles: ${Object.entries(subtitles).map(([name, subtitle]) => `${name} → "${subtitle}"`).join(', ')}`,
	]);
}

/** 5: one custom entry in each action node's Resource list, saying what it is for. */
async function checkCustomEntries(editor: Editor): Promise<void> {
	const types = ['loanCrmDeals', 'loanCrmContacts', 'loanCrmLeadsAndTasks', 'loanCrmOrganisationsAndAssets'];
	const nodes = types.map((type, index) => nodeAt(NEWEST, `Node ${type}`, type, {}, `c7000000-0000-4000-8000-00000000000${index}`, [300 * index, 0]));
	await editor.openWorkflow(await editor.createWorkflow({ name: 'check: the custom entries', nodes, connections: {} }));
	const saw: string[] = [];
	let ok = true;
	for (const node of nodes) {
		await editor.openNode(node.name);
		const entries = await dropdownEntries(editor, 'resource');
		await editor.closeNode();
		const custom = entries.filter((entry) => /^Custom (Request|API Call)\b/.test(entry));
		const nodeOk = custom.length === 1 && /^Custom Request \/ Any other Loan CRM endpoint below \/jsonapi.+HTTP Request node/.test(custom[0]);
		ok &&= nodeOk;
		saw.push(`${node.name}: ${entries.length} resources; custom: ${custom.map((entry) => `"${entry.slice(0, 110)}…"`).join(', ') || 'none'}`);
	}
	report("custom-entries: one custom entry per Resource list (Custom Request, saying what it is for), no n8n Custom API Call", ok, saw);
}

/** 6: Contact → Create's E-mail, First Name and Last Name on top (a saved 1.1 node keeps them under Additional Fields). */
async function checkContactCreate(editor: Editor): Promise<void> {
	const parameters = { resource: 'contact', operation: 'create' };
	const nodes = [
		nodeAt(NEWEST, 'New contact node', 'loanCrmContacts', parameters, 'c8000000-0000-4000-8000-000000000001', [300, 0]),
		nodeAt(1.1, 'Saved contact node', 'loanCrmContacts', parameters, 'c8000000-0000-4000-8000-000000000002', [300, 200]),
	];
	await editor.openWorkflow(await editor.createWorkflow({ name: 'check: Contact → Create', nodes, connections: {} }));
	const look = async (name: string) => {
		await editor.openNode(name);
		const lines = await parameterLines(editor);
		// Additional Fields' "Add Field" (the first collection of the panel).
		await editor.page.locator('[data-test-id="ndv"] [data-test-id="collection-parameter-add"]').first().click({ timeout: 10_000 });
		await editor.page.waitForTimeout(600);
		const offered: string[] = await editor.page.$$eval('.el-select-dropdown__item', (items: HTMLElement[]) => items.filter((item) => item.offsetParent !== null).map((item) => item.innerText.trim()));
		await editor.page.keyboard.press('Escape');
		await editor.closeNode();
		return { lines, offered };
	};
	const fresh = await look('New contact node');
	const saved = await look('Saved contact node');
	const top = (lines: string[]) => lines.slice(lines.indexOf('Operation') + 1, lines.indexOf('If Already Exists'));
	const keys = ['Email', 'First Name', 'Last Name'];
	const ok =
		same(top(fresh.lines), keys) &&
		same(top(saved.lines), []) &&
		fresh.offered.length > 5 &&
		!keys.some((key) => fresh.offered.includes(key)) &&
		keys.every((key) => saved.offered.includes(key));
	report('contact-create: Contact → Create shows Email, First Name and Last Name on top in a new node', ok, [
		`new node (${NEWEST}): ${show(fresh.lines.slice(1, 9))}`,
		`saved 1.1 node: ${show(saved.lines.slice(1, 6))}`,
		`Additional Fields → Add Field offers ${fresh.offered.length} in the new node (Email, First Name, Last Name among them: ${keys.some((key) => fresh.offered.includes(key))}), ${saved.offered.length} in the saved one (they are: ${keys.every((key) => saved.offered.includes(key))})`,
	]);
}

/** 7: Deal Note → Create's output names its deal. */
async function checkDealNote(editor: Editor): Promise<void> {
	const node = editorNode('Note on the deal', 'loanCrmDeals', { resource: 'dealNote', operation: 'create', dealId: { __rl: true, mode: 'id', value: '10001' }, title: 'Browser check', detail: 'Deal Note → Create names its deal' }, 'c9000000-0000-4000-8000-000000000001');
	await editor.openWorkflow(await editor.createWorkflow(manualWorkflow('check: Deal Note → Create', node)));
	const toasts = await editor.executeWorkflow();
	await editor.openNode('Note on the deal');
	const { headers, rows } = await editor.outputTable();
	await editor.closeNode();
	const row = Object.fromEntries(headers.map((header, index) => [header, rows[0]?.[index]]));
	report('deal-note: Deal Note → Create returns dealId', toasts.some((toast) => /executed successfully/i.test(toast)) && same(headers.slice(0, 3), ['id', 'type', 'dealId']) && row.dealId === '10001', [
		`columns: ${show(headers)}; dealId=${row.dealId}`,
	]);
}

// --- Issues 42–44: pickers, the fact find's names, the Webhook Trigger ------------------------------

/** 42: the adviser, enquiry source and referrer pickers of Lead → Create, as the editor lists them. */
async function checkPickers(editor: Editor): Promise<void> {
	const unpicked = { __rl: true, mode: 'list', value: '' };
	const node = editorNode(
		'Lead to route',
		'loanCrmLeadsAndTasks',
		{ resource: 'lead', operation: 'create', firstName: 'Wilma', lastName: 'Flintstone', allocateTo: unpicked, additionalFields: { sourceId: unpicked, sourceReferrerId: unpicked } },
		'c9100000-0000-4000-8000-000000000001',
	);
	await editor.openWorkflow(await editor.createWorkflow(manualWorkflow('check: the brokerage pickers', node)));
	await editor.openNode('Lead to route');
	const advisers = await editor.locatorEntries('allocateTo');
	// "Ana Silva — ana.silva@… — Active — #1000001": the last name of the first adviser, searched.
	const lastName = (advisers[0] ?? '').split(' — ')[0]?.split(' ').pop() ?? '';
	const searched = lastName === '' ? [] : await editor.locatorEntries('allocateTo', lastName);
	const sources = await editor.locatorEntries('sourceId');
	const referrers = await editor.locatorEntries('sourceReferrerId');
	await editor.closeNode();
	const adviserShape = /^[^—]+ — [^\s@]+@[^\s@]+ — [A-Za-z]+ — #\d+$/;
	const advisersOk = advisers.length >= 2 && advisers.every((entry) => adviserShape.test(entry));
	const searchOk = searched.length >= 1 && searched.length < advisers.length && searched.every((entry) => entry.includes(lastName));
	const sourcesOk = sources.length >= 2 && sources.every((entry) => /^[^›]+ › .+ — #\d+$/.test(entry));
	const referrersOk = referrers.length >= 2 && referrers.every((entry) => / — #\S+$/.test(entry));
	report('pickers: Allocate To, Enquiry Source and Referrer list what a person recognises', advisersOk && searchOk && sourcesOk && referrersOk, [
		`Allocate To: ${advisers.length} entries, e.g. ${show(advisers.slice(0, 3))}`,
		`Allocate To searched for "${lastName}": ${show(searched)}`,
		`Enquiry Source: ${sources.length} entries, e.g. ${show(sources.slice(0, 3))}`,
		`Referrer: ${referrers.length} entries, e.g. ${show(referrers.slice(0, 2))}`,
	]);
}

/**
 * 43: a fact find's links offer the names given in the same node (the example's Fact Find → Create).
 * The editor works a node's expressions out before it asks for such a list, and the example maps
 * its people from the form: with the form's output there (after a test run, here pinned), the
 * lists are exactly the names; without it (just imported) the editor sends no entries and the list
 * is empty (README, Fact finds) — reported, not judged.
 */
async function checkFactFindNames(editor: Editor): Promise<void> {
	const example = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', 'fact-find-to-crm.json'), 'utf8')) as { nodes: Array<{ type: string; name: string; parameters: INodeParameters }> };
	const factFind = example.nodes.find((candidate) => candidate.type === `${PACKAGE}.loanCrmLeadsAndTasks`);
	if (factFind === undefined) throw new Error('examples/fact-find-to-crm.json has no Loan CRM Leads & Tasks node');
	const entries = (list: string, key: string) => (((factFind.parameters[list] as INodeParameters | undefined)?.[key] ?? []) as Array<{ entryName: string }>).map((entry) => entry.entryName);
	const people = entries('people', 'person');
	const jobs = entries('employments', 'employment');
	// What the example's form gives (its Form Trigger's fields), as a test run leaves it.
	const submission = {
		'First name': 'Aroha', 'Last name': 'Ngata', Email: 'aroha.ngata@factfind.example.com', Mobile: '0412 000 401', 'Date of birth': '1990-03-14',
		'Partner first name': 'Tama', 'Partner last name': 'Ngata', 'Partner email': 'tama.ngata@factfind.example.com', 'Partner mobile': '',
		Employer: 'Westpac', 'Partner employer': 'Auckland Transport',
	};
	// The names an entry is offered as ("Applicant 1 — Aroha Ngata"), without "(None)" (a link to one entry may be empty).
	const names = (offered: string[]) => offered.map((entry) => entry.split(' / ')[0].split(' — ')[0]).filter((name) => name !== '(None)');
	const offered = async (pinned: boolean, y: number) => {
		const node = editorNode('Fact find', 'loanCrmLeadsAndTasks', factFind.parameters, `c920000${y}-0000-4000-8000-000000000001`);
		const workflow = manualWorkflow(`check: the fact find links by name${pinned ? ', the form\'s output there' : ''}`, node);
		const trigger = (workflow.nodes[0] as { name: string }).name;
		await editor.openWorkflow(await editor.createWorkflow({ ...workflow, ...(pinned ? { pinData: { [trigger]: [{ json: submission }] } } : {}) } as typeof workflow));
		await editor.openNode('Fact find');
		// The first Owners and Employment in the panel are the first income's (People and Addresses have neither).
		const owners = names(await dropdownEntries(editor, 'ownership'));
		const employment = names(await dropdownEntries(editor, 'employment'));
		await editor.closeNode();
		return { owners, employment };
	};
	const withData = await offered(true, 1);
	const imported = await offered(false, 2);
	report('fact-find: an income offers the names given under People and Employments', people.length >= 2 && same(withData.owners, people) && same(withData.employment, jobs), [
		`People: ${show(people)}; with the form's output there, the first income's Owners offer: ${show(withData.owners)}`,
		`Employments: ${show(jobs)}; its Employment offers: ${show(withData.employment)}`,
		`just imported (no output to work the expressions out from): Owners ${imported.owners.length === 0 ? 'empty' : show(imported.owners)}, Employment ${imported.employment.length === 0 ? 'empty' : show(imported.employment)}`,
	]);
}

/** 44: the Webhook Trigger in the nodes panel, and what its panel tells a person to do. */
async function checkWebhookTrigger(editor: Editor): Promise<void> {
	const listed = (await editor.nodesPanelSearch('Loan CRM')).filter((name) => name.startsWith('Loan CRM'));
	const { description } = nodeType('LoanCrmWebhookTrigger');
	const webhookId = 'c9300000-0000-4000-8000-00000000cafe';
	const node = {
		...loanCrmNode('Deal settled (instant)', 'loanCrmWebhookTrigger', { resources: ['deals'], dealEvent: 'dealStatusChanged', toStatuses: ['Settled'] }, {
			id: 'c9300000-0000-4000-8000-000000000001',
			typeVersion: Math.max(...[description.version].flat()),
			credential: DEV_CREDENTIAL,
		}),
		webhookId,
	};
	await editor.openWorkflow(await editor.createWorkflow({ name: 'check: the Webhook Trigger', nodes: [node], connections: {} }));
	await editor.openNode('Deal settled (instant)');
	const page = editor.page;
	await page.getByText('Webhook URLs', { exact: false }).first().click().catch(() => undefined);
	await page.waitForTimeout(500);
	await page.getByText('Production URL', { exact: true }).first().click().catch(() => undefined);
	await page.waitForTimeout(500);
	const text: string = await page.$eval('[data-test-id="ndv"]', (element: HTMLElement) => element.innerText);
	await editor.closeNode();
	const urls = text.match(/https?:\/\/\S+\/webhook\/\S+/g) ?? [];
	const production = urls.find((url) => url.includes(webhookId) && !url.includes('/webhook-test/'));
	const notice = /Send this node's Production URL/.test(text);
	const markdown = text.split('\n').filter((line) => /`|\*\*/.test(line));
	// In the trigger view a node with actions and a trigger is listed once, by its group's name (its
	// triggers inside, panel-entries checks them); the Webhook Trigger, a trigger alone, by its own.
	const triggersOk = ['Loan CRM Deals', 'Loan CRM Contacts', 'Loan CRM Webhook Trigger'].every((name) => listed.includes(name));
	report('webhook-trigger: found beside the other triggers; its panel gives the production URL and what to ask for', triggersOk && production !== undefined && notice && markdown.length === 0, [
		`nodes panel, "Loan CRM": ${show(listed)}`,
		`production URL shown: ${production ?? 'none'} (URLs in the panel: ${urls.length})`,
		`setup notice: ${notice ? 'shown' : 'missing'}; lines with literal markdown: ${markdown.length === 0 ? 'none' : markdown.join(' | ')}`,
	]);
}

/** The checks by name; `deals-trigger` reports trigger-items and panel-entries. */
const CHECKS: Record<string, { title: string; run: (editor: Editor) => Promise<void> }> = {
	'deals-trigger': { title: 'trigger-items / panel-entries: Deals Trigger from the nodes panel', run: checkDealsTrigger },
	'contacts-trigger': { title: 'contacts-trigger: Contacts Trigger from the nodes panel', run: checkContactsTrigger },
	'if-already-exists': { title: 'if-already-exists: every create with If Already Exists, run twice', run: checkIfAlreadyExists },
	'id-checks': { title: 'id-checks: Task → Update with Task ID "abc" and Assignee ID "1.5"', run: checkIdChecks },
	hints: { title: 'hints: no literal markdown in any node panel', run: checkHints },
	'sticky-notes': { title: 'sticky-notes: every example note shows its whole text', run: checkStickyNotes },
	examples: { title: 'examples: every Loan CRM node of the examples at the newest version', run: checkExamples },
	'lead-create': { title: 'lead-create: Lead → Create, one shape; no reference said', run: checkLeadCreate },
	labels: { title: 'labels: plain words in a new node', run: checkLabels },
	'custom-entries': { title: 'custom-entries: one custom entry per Resource list', run: checkCustomEntries },
	'contact-create': { title: 'contact-create: Contact → Create shows its key fields on top', run: checkContactCreate },
	'deal-note': { title: 'deal-note: Deal Note → Create returns dealId', run: checkDealNote },
	pickers: { title: 'pickers: Allocate To, Enquiry Source and Referrer', run: checkPickers },
	'fact-find': { title: 'fact-find: links by the names given in the node', run: checkFactFindNames },
	'webhook-trigger': { title: 'webhook-trigger: nodes panel and setup', run: checkWebhookTrigger },
};

/** Runs every check (or those named in `only`); returns the number that failed. */
export async function runChecks(editor: Editor, only?: string[]): Promise<number> {
	const unknown = (only ?? []).filter((name) => !(name in CHECKS));
	if (unknown.length > 0) throw new Error(`unknown check(s) ${unknown.join(', ')}; known: ${Object.keys(CHECKS).join(', ')}`);
	for (const [name, check] of Object.entries(CHECKS)) {
		if (only === undefined || only.includes(name)) await attempt(check.title, () => check.run(editor));
	}
	const failed = results.filter((result) => !result.ok);
	console.log(`\n${results.length - failed.length} of ${results.length} checks passed${failed.length > 0 ? `; failed: ${failed.map((result) => result.name.split(':')[0]).join(', ')}` : ''}`);
	return failed.length;
}
