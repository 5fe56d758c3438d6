/**
 * README screenshots of the nodes in the real n8n editor, taken with headless Chromium, and a browser
 * check of what issues 35 and 41 ask of the editor (scripts/editor/checks.ts). Not part of `npm test`
 * or CI, and adds no dependency: playwright-core and Chromium are installed by hand, outside the repo.
 *
 *   apt-get install -y chromium                      # /usr/bin/chromium
 *   mkdir -p /tmp/shots && npm --prefix /tmp/shots install playwright-core
 *   npm run dev -- --fresh &                         # wait for "is up"; not --lively: the data must stay put
 *   npx ts-node --transpile-only scripts/screenshots.ts --check    # the browser check: PASS/FAIL per check, exit 1 on a FAIL
 *   npx ts-node --transpile-only scripts/screenshots.ts            # retakes docs/screenshots/*.png
 *
 * Options: --url http://localhost:5678 (the editor `npm run dev` printed), --only 2,4 (some shots),
 * --check hints,sticky-notes (some checks: deals-trigger, contacts-trigger, if-already-exists, id-checks,
 * hints, sticky-notes, examples, lead-create, labels, custom-entries, contact-create, deal-note).
 *
 * --check drives the editor as a newcomer does: it adds the Deals and Contacts Triggers from the nodes
 * panel and fetches their test events, runs every create with If Already Exists twice, types IDs the
 * editor must refuse, opens every operation's node panel and every example workflow `npm run dev`
 * imported (their nodes at the newest version, their sticky notes showing their whole text), runs Lead
 * → Create twice and without a reference (one shape, the notice), reads labels, subtitles and the
 * Resource lists as drawn, and Contact → Create's and Deal Note → Create's panels and output. It takes
 * about six minutes on two cores (377 s at load 4-5).
 *
 * Shot 8 (the HTTP Request node as a Custom API Call) also prints what the node's Credential Type list
 * offers for "Loan", so the README's claim that it lists Loan CRM OAuth2 API is seen in the editor.
 *
 * PLAYWRIGHT_CORE (default /tmp/shots/node_modules/playwright-core) and CHROMIUM
 * (default /usr/bin/chromium) point at the tools; Chromium runs with the flags in editor/page.ts
 * (needed on a closed network and as root). Shots are 1440x900, light theme. Each run creates its own
 * workflows (and the check a few records in the sandbox), so use a throw-away (--fresh) instance.
 */
import { mkdirSync } from 'fs';
import { join, resolve } from 'path';

import { runChecks } from './editor/checks';
import { CREDENTIAL, Editor, editorNode, manualWorkflow } from './editor/page';
import { DEV_CREDENTIAL } from './dev-examples';
import { customApiCallNode, httpRequestNodeVersion } from './e2e/custom-api-call';
import { N8N_VERSION, cacheDir } from './e2e/install';
import { option } from './e2e/util';
import { chain } from './e2e/workflows';

const BASE = (option('--url') ?? 'http://localhost:5678').replace(/\/$/, '');
const ONLY = option('--only')?.split(',').map(Number);
const CHECK = process.argv.includes('--check');
/** `--check a,b`: only those checks (a value that is not the next option). */
const CHECK_ONLY = option('--check')?.startsWith('--') === false ? option('--check')?.split(',') : undefined;
const OUT = resolve(__dirname, '..', 'docs', 'screenshots');

// --- Workflows the shots show -------------------------------------------------------------------

const WORKFLOWS = {
	settled: {
		name: 'Deal settled → record the accounting reference',
		nodes: [
			{
				id: 'b0000000-0000-4000-8000-000000000003',
				name: 'About this workflow',
				type: 'n8n-nodes-base.stickyNote',
				typeVersion: 1,
				position: [-80, -300],
				parameters: {
					content:
						"## Deal settled → accounting\nEvery minute the **Loan CRM Deals Trigger** (Deal Status Changed, To Status Settled) picks up each deal once when it settles.\n\n**Loan CRM Deals** then records the accounting system's ID on each deal as an external reference.",
					height: 240,
					width: 540,
				},
			},
			editorNode(
				'Deal settled',
				'loanCrmDealsTrigger',
				{ pollTimes: { item: [{ mode: 'everyMinute' }] }, event: 'dealStatusChanged', toStatuses: ['Settled'], options: {} },
				'b0000000-0000-4000-8000-000000000001',
				[0, 0],
			),
			editorNode(
				'Record accounting reference',
				'loanCrmDeals',
				{ resource: 'dealExternalReference', operation: 'create', externalReference: "={{ 'ACC-' + $json.id }}", integrationId: '7', dealId: '={{ $json.id }}' },
				'b0000000-0000-4000-8000-000000000002',
				[300, 0],
			),
		],
		connections: chain('Deal settled', 'Record accounting reference'),
	},
	deals: manualWorkflow(
		'Settled deals, newest first',
		editorNode(
			'Settled deals',
			'loanCrmDeals',
			{
				resource: 'deal',
				operation: 'getMany',
				limit: 10,
				options: {
					conditions: { condition: [{ field: 'dealStatus', operator: 'equals', value: 'Settled' }] },
					filter: "greaterThan(totalLoanAmount,'500000')",
					sort: '-updated',
				},
			},
			'c0000000-0000-4000-8000-000000000001',
		),
	),
	dealsOutput: manualWorkflow(
		'Big settled deals, newest first',
		editorNode(
			'Settled deals over $500k',
			'loanCrmDeals',
			{
				resource: 'deal',
				operation: 'getMany',
				limit: 10,
				options: {
					conditions: {
						condition: [
							{ field: 'dealStatus', operator: 'equals', value: 'Settled' },
							{ field: 'totalLoanAmount', operator: 'greaterThan', value: '500000' },
						],
					},
					fields: 'name,dealStatus,dealType,totalLoanAmount,lenderName,updated',
					sort: '-updated',
				},
			},
			'c0000000-0000-4000-8000-000000000002',
		),
	),
	picker: manualWorkflow(
		'Deals by status, picked from the list',
		editorNode(
			'Deals by status',
			'loanCrmDeals',
			{ resource: 'deal', operation: 'getMany', limit: 10, options: { conditions: { condition: [{ field: 'dealStatus', operator: 'any', value: ['PendingSettlement', 'Settled'] }] } } },
			'e0000000-0000-4000-8000-000000000001',
		),
	),
	task: manualWorkflow(
		'Move a task forward',
		editorNode(
			'Update task',
			'loanCrmLeadsAndTasks',
			{
				resource: 'task',
				operation: 'update',
				// A task the sandbox has, in the By ID field the editor checks (its hint shows under it).
				taskId: { __rl: true, mode: 'id', value: '9500001' },
				updateFields: { progress: 'InProgress', dueDate: '2026-12-04T09:00:00' },
			},
			'd0000000-0000-4000-8000-000000000001',
		),
	),
	dealNotes: manualWorkflow(
		'Notes of a deal',
		editorNode('Notes of a deal', 'loanCrmDeals', { resource: 'dealNote', operation: 'getMany', dealId: { __rl: true, mode: 'list', value: '' } }, 'e0000000-0000-4000-8000-000000000001'),
	),
	dealsTrigger: {
		name: 'Deal settled: the test event',
		nodes: [
			editorNode(
				'Deal settled',
				'loanCrmDealsTrigger',
				{ pollTimes: { item: [{ mode: 'everyMinute' }] }, event: 'dealStatusChanged', toStatuses: ['Settled'], options: {} },
				'f1000000-0000-4000-8000-000000000001',
				[0, 0],
			),
		],
		connections: {},
	},
	contactCreate: manualWorkflow(
		'A form sent twice: one contact',
		editorNode(
			'Create contact',
			'loanCrmContacts',
			{
				resource: 'contact',
				operation: 'create',
				email: 'aroha.ngata@example.com',
				firstName: 'Aroha',
				lastName: 'Ngata',
				ifAlreadyExists: 'returnExisting',
				additionalFields: { mobile: '+61412345678' },
			},
			'f2000000-0000-4000-8000-000000000001',
		),
	),
	// A form whose submission ID did not arrive: Return Existing has nothing to look for.
	leadWithoutReference: manualWorkflow(
		'A lead without its external reference',
		editorNode(
			'Create lead',
			'loanCrmLeadsAndTasks',
			{
				resource: 'lead',
				operation: 'create',
				firstName: 'Ruby',
				lastName: "O'Connor",
				email: 'ruby.oconnor@example.com',
				externalIntegration: 'Website Form',
				ifAlreadyExists: 'returnExisting',
				additionalFields: { externalIntegrationAllowCreate: true },
			},
			'f3000000-0000-4000-8000-000000000001',
		),
	),
};

/**
 * Custom API Call: n8n's HTTP Request node set up as the README says (Predefined Credential Type →
 * Loan CRM OAuth2 API, Response Format JSON), reading an endpoint outside the 20 operations. The
 * sandbox's address is read from the credential, since the node cannot take it from there.
 */
function customApiCallWorkflow(baseUrl: string, httpVersion: number) {
	const node = customApiCallNode('List integrations', 'GET', `${baseUrl}/jsonapi/integrations`, httpVersion, DEV_CREDENTIAL);
	return manualWorkflow('Custom API Call: list integrations', { ...node, id: 'f0000000-0000-4000-8000-000000000001', position: [260, 0] });
}

// --- Shots -------------------------------------------------------------------------------------------

/** Writes the page to docs/screenshots/`file`, the mouse at `mouse` (away from what the shot shows: n8n draws hover hints). */
async function shot(editor: Editor, file: string, mouse: [number, number] = [1200, 150]): Promise<void> {
	const page = editor.page;
	if (new URL(page.url()).pathname.startsWith('/signin')) throw new Error(`${file}: the editor shows the login page`);
	const error = await page.$('.el-notification--error');
	if (error) throw new Error(`${file}: the editor shows an error: ${(await error.innerText()).trim()}`);
	await page.mouse.move(...mouse);
	await page.waitForTimeout(500);
	await page.screenshot({ path: join(OUT, file) });
	console.log(`wrote docs/screenshots/${file}`);
}

async function takeShots(editor: Editor): Promise<void> {
	const page = editor.page;
	const want = (n: number) => !ONLY || ONLY.includes(n);
	mkdirSync(OUT, { recursive: true });

	if (want(1)) {
		await editor.openWorkflow(await editor.createWorkflow(WORKFLOWS.settled));
		await shot(editor, '1-workflow-canvas.png');
	}
	if (want(2)) {
		await editor.openWorkflow(await editor.createWorkflow(WORKFLOWS.deals));
		await editor.openNode('Settled deals');
		await editor.scrollParameters(70);
		await shot(editor, '2-deals-get-many.png');
	}
	if (want(3)) {
		await editor.openWorkflow(await editor.createWorkflow(WORKFLOWS.task));
		await editor.openNode('Update task');
		await shot(editor, '3-task-update.png');
	}
	if (want(5)) {
		await page.goto(`${BASE}/home/credentials/${CREDENTIAL.loanCrmOAuth2Api.id}`);
		await page.waitForSelector('[data-test-id="editCredential-modal"]', { timeout: 30_000 });
		await editor.settle();
		await shot(editor, '5-credential.png');
	}
	if (want(6)) {
		await editor.openWorkflow(await editor.createWorkflow(WORKFLOWS.dealNotes));
		await editor.openNode('Notes of a deal');
		await page.click('[data-test-id="resource-locator-dealId"] [data-test-id="rlc-input"]');
		await page.waitForSelector('[data-test-id="rlc-item"]', { timeout: 30_000 });
		// Typed without the apostrophe, as many do: the search finds O'Connor all the same.
		await page.keyboard.type('oconnor', { delay: 80 });
		await page.waitForFunction(
			() => Array.from(document.querySelectorAll('[data-test-id="rlc-item"]')).every((item) => (item.textContent ?? '').includes("O'Connor")),
			undefined,
			{ timeout: 30_000 },
		);
		await page.waitForTimeout(800);
		await shot(editor, '6-deal-locator-search.png');
	}
	if (want(7)) {
		// Conditions → Value as a dropdown of the field's known values, opened.
		await editor.openWorkflow(await editor.createWorkflow(WORKFLOWS.picker));
		await editor.openNode('Deals by status');
		await editor.scrollParameters(250);
		await page.click('[data-test-id="ndv"] [data-test-id="parameter-input-value"]');
		await page.waitForSelector('.el-select-dropdown:visible, .el-popper:visible .el-select-dropdown__item', { timeout: 10_000 });
		await page.waitForTimeout(500);
		await shot(editor, '7-condition-value-picker.png');
	}
	if (want(8)) {
		// The HTTP Request node with the Loan CRM credential, run: the parsed JSON:API document. A
		// taller window, so Method, URL, the credential and Response Format: JSON all show.
		const credential = await editor.rest('GET', `/credentials/${CREDENTIAL.loanCrmOAuth2Api.id}?includeData=true`);
		// The version a new HTTP Request node gets in `npm run dev`'s n8n.
		const httpVersion = httpRequestNodeVersion(join(cacheDir(), `n8n-${N8N_VERSION}`));
		const workflowId = await editor.createWorkflow(customApiCallWorkflow(String(credential.data.baseUrl).replace(/\/+$/, ''), httpVersion));
		await page.setViewportSize({ width: 1440, height: 1180 });
		await editor.openWorkflow(workflowId);
		await editor.openNode('List integrations');
		await page.click('[data-test-id="node-execute-button"]');
		await page.waitForSelector('[data-test-id="output-panel"] [data-test-id="node-run-status-success"]', { timeout: 60_000 });
		await page.click('[data-test-id="output-panel"] [data-test-id="radio-button-json"]').catch(() => undefined);
		await editor.settle(1000);
		await shot(editor, '8-custom-api-call.png');
		await page.setViewportSize({ width: 1440, height: 900 });
		// What the Credential Type list offers for "Loan" (the README says it lists the credential).
		await page.click('[data-test-id="ndv"] [data-test-id="parameter-input-nodeCredentialType"] input');
		await page.keyboard.type('Loan', { delay: 60 });
		await page.waitForTimeout(1000);
		const offered = await page.$$eval('.el-select-dropdown__item, [role="option"]', (items: HTMLElement[]) =>
			items.filter((item) => item.offsetParent !== null).map((item) => (item.textContent ?? '').trim()),
		);
		console.log(`HTTP Request → Predefined Credential Type, typing "Loan" offers: ${JSON.stringify(offered)}`);
		// The nodes panel's actions of Loan CRM Deals, opened from the node's +: does n8n show its
		// "make a custom API call" link?
		await editor.openWorkflow(workflowId);
		await page.click('[data-test-id="canvas-handle-plus"]');
		await page.waitForSelector('[data-test-id="node-creator"]', { timeout: 15_000 });
		await page.keyboard.type('Loan CRM Deals', { delay: 50 });
		await editor.settle(1200);
		await page.locator('[data-test-id="node-creator"]').getByText('Loan CRM Deals', { exact: true }).first().click();
		await editor.settle(1500);
		const panel = (await page.$eval('[data-test-id="node-creator"]', (element: HTMLElement) => element.innerText)).replace(/\s+/g, ' ');
		console.log(`Nodes panel, Loan CRM Deals: ${/custom .*api call/i.test(panel) ? 'shows' : 'does not show'} a custom API call link (${panel.slice(0, 200)} …)`);
		await page.keyboard.press('Escape');
	}
	if (want(9)) {
		// The Deals Trigger's test event in Table view: one summary row, the sample marker first.
		await editor.openWorkflow(await editor.createWorkflow(WORKFLOWS.dealsTrigger));
		await editor.openNode('Deal settled');
		await page.click('[data-test-id="ndv"] [data-test-id="node-execute-button"]');
		await editor.outputTable();
		await editor.settle(1000);
		await shot(editor, '9-deals-trigger-output.png', [1000, 650]);
	}
	if (want(11)) {
		// Lead → Create without an External Reference, run: the notice beside If Already Exists, and the
		// item that says it was not searched.
		await editor.openWorkflow(await editor.createWorkflow(WORKFLOWS.leadWithoutReference));
		await editor.executeWorkflow();
		await editor.openNode('Create lead');
		await editor.outputTable();
		await editor.scrollParameters(380);
		await editor.settle(1000);
		await shot(editor, '11-lead-create-not-searched.png', [1000, 820]);
		await editor.closeNode();
	}
	// Last: widening the output panel is remembered by the editor for later node panels.
	if (want(10)) {
		// Contact → Create with If Already Exists → Return Existing, run twice: the second run finds the first's contact.
		await editor.openWorkflow(await editor.createWorkflow(WORKFLOWS.contactCreate));
		await editor.executeWorkflow();
		await editor.executeWorkflow();
		await editor.openNode('Create contact');
		await editor.outputTable();
		await editor.widenOutput();
		await editor.settle(1000);
		await shot(editor, '10-contact-create-outcome.png', [1000, 650]);
		await editor.closeNode();
	}
	if (want(4)) {
		await editor.openWorkflow(await editor.createWorkflow(WORKFLOWS.dealsOutput));
		await editor.openNode('Settled deals over $500k');
		await page.click('[data-test-id="node-execute-button"]');
		await page.waitForSelector('[data-test-id="output-panel"] [data-test-id="node-run-status-success"]', { timeout: 60_000 });
		await page.waitForSelector('[data-test-id="output-panel"] table', { timeout: 15_000 });
		await editor.widenOutput();
		await editor.settle(1000);
		await shot(editor, '4-deals-output.png');
	}
}

// --- Main -------------------------------------------------------------------------------------------

async function main(): Promise<number> {
	const editor = await Editor.open(BASE);
	try {
		if (CHECK) return (await runChecks(editor, CHECK_ONLY)) === 0 ? 0 : 1;
		await takeShots(editor);
		return 0;
	} finally {
		await editor.close();
	}
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
