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
 */
import { readFileSync, readdirSync } from 'fs';
import { createRequire } from 'module';
import { join } from 'path';

import type { INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';

import { DEAL_STATUSES } from '../../nodes/shared/service/schema';
import { CONTACT_EVENTS, DEAL_EVENTS, TRIGGER_EVENTS } from '../../nodes/shared/trigger/events';
import { REPO_ROOT } from '../e2e/n8n';
import { PACKAGE } from '../e2e/workflows';
import type { Editor } from './page';
import { CREDENTIAL, NEWEST, editorNode, fromManualTrigger, manualTrigger, manualWorkflow } from './page';

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
		create('Create contact', 'loanCrmContacts', 0, { resource: 'contact', additionalFields: { firstName: 'Aroha', lastName: 'Ngata', email: `aroha.${stamp}@example.com` } }),
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

	const ndvOk =
		fieldIssues.length === 2 &&
		/^Task ID must be a whole number from 1 to 2147483647$/.test(fieldIssues.find((issue) => issue.field === 'taskId')?.text ?? '') &&
		/^Assignee ID must be a whole number from 1 to 2147483647$/.test(fieldIssues.find((issue) => issue.field === 'updateFields.assigneeId')?.text ?? '');
	// Each canvas line names its field, once. (n8n 2.30 lists no issue of a parameter inside a collection
	// on the canvas: NodeHelpers.getParameterIssues reads a top-level collection's entries at the top level.)
	const canvasOk = canvas.length >= 1 && canvas.every((line) => /^(Task ID|Assignee ID) must be a whole number from 1 to 2147483647$/.test(line)) && new Set(canvas).size === canvas.length;
	const runtimeOk =
		/Task ID.{0,4} must be a whole number from 1 to 2147483647; got "abc"/.test(runtime[0]) && /Assignee ID.{0,4} must be a whole number from 1 to 2147483647; got "1\.5"/.test(runtime[1]);
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
	description: { name: string; properties: INodeProperties[] };
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

/** The checks by name; `deals-trigger` reports trigger-items and panel-entries. */
const CHECKS: Record<string, { title: string; run: (editor: Editor) => Promise<void> }> = {
	'deals-trigger': { title: 'trigger-items / panel-entries: Deals Trigger from the nodes panel', run: checkDealsTrigger },
	'contacts-trigger': { title: 'contacts-trigger: Contacts Trigger from the nodes panel', run: checkContactsTrigger },
	'if-already-exists': { title: 'if-already-exists: every create with If Already Exists, run twice', run: checkIfAlreadyExists },
	'id-checks': { title: 'id-checks: Task → Update with Task ID "abc" and Assignee ID "1.5"', run: checkIdChecks },
	hints: { title: 'hints: no literal markdown in any node panel', run: checkHints },
	'sticky-notes': { title: 'sticky-notes: every example note shows its whole text', run: checkStickyNotes },
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
