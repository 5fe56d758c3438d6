/**
 * README screenshots of the nodes in the real n8n editor, taken with headless Chromium.
 * Not part of `npm test` or CI, and adds no dependency: playwright-core and Chromium are
 * installed by hand, outside the repo.
 *
 *   apt-get install -y chromium                      # /usr/bin/chromium
 *   mkdir -p /tmp/shots && npm --prefix /tmp/shots install playwright-core
 *   npm run dev -- --fresh &                         # n8n on :5678 with the sandbox credential (not --lively: the data must stay put)
 *   npx ts-node --transpile-only scripts/screenshots.ts [--url http://localhost:5678] [--only 2,4]
 *
 * Shot 8 (the HTTP Request node as a Custom API Call) also prints what the node's Credential Type list
 * offers for "Loan", so the README's claim that it lists Loan CRM OAuth2 API is seen in the editor.
 *
 * PLAYWRIGHT_CORE (default /tmp/shots/node_modules/playwright-core) and CHROMIUM
 * (default /usr/bin/chromium) point at the tools. Writes docs/screenshots/*.png (1440x900, light
 * theme). Each run creates its own workflows in the editor, so use a throw-away (--fresh) instance.
 */
import { mkdirSync } from 'fs';
import { createRequire } from 'module';
import { join, resolve } from 'path';

import { httpRequestNodeVersion } from './e2e/custom-api-call';
import { N8N_VERSION, cacheDir } from './e2e/install';
import { DEV_OWNER } from './e2e/n8n';

function arg(name: string): string | undefined {
	const index = process.argv.indexOf(name);
	return index >= 0 ? process.argv[index + 1] : undefined;
}

const BASE = (arg('--url') ?? 'http://localhost:5678').replace(/\/$/, '');
const ONLY = arg('--only')?.split(',').map(Number);
const OUT = resolve(__dirname, '..', 'docs', 'screenshots');
const PLAYWRIGHT = process.env.PLAYWRIGHT_CORE ?? '/tmp/shots/node_modules/playwright-core';
const CREDENTIAL = { loanCrmOAuth2Api: { id: 'loanCrmSandbox01', name: 'Loan CRM sandbox' } };
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

type Page = any;

// --- Workflows the shots show -------------------------------------------------------------------

const manualTrigger = (x = 0) => ({
	id: 'a0000000-0000-4000-8000-000000000001',
	name: 'When clicking ‘Execute workflow’',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [x, 0],
	parameters: {},
});

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
			{
				id: 'b0000000-0000-4000-8000-000000000001',
				name: 'Deal settled',
				type: 'n8n-nodes-loan-crm.loanCrmDealsTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					event: 'dealStatusChanged',
					toStatuses: ['Settled'],
					options: {},
				},
				credentials: CREDENTIAL,
			},
			{
				id: 'b0000000-0000-4000-8000-000000000002',
				name: 'Record accounting reference',
				type: 'n8n-nodes-loan-crm.loanCrmDeals',
				typeVersion: 1.1,
				position: [300, 0],
				parameters: {
					resource: 'dealExternalReference',
					operation: 'create',
					externalReference: "={{ 'ACC-' + $json.id }}",
					integrationId: '7',
					dealId: '={{ $json.id }}',
				},
				credentials: CREDENTIAL,
			},
		],
		connections: { 'Deal settled': { main: [[{ node: 'Record accounting reference', type: 'main', index: 0 }]] } },
	},
	deals: {
		name: 'Settled deals, newest first',
		nodes: [
			manualTrigger(),
			{
				id: 'c0000000-0000-4000-8000-000000000001',
				name: 'Settled deals',
				type: 'n8n-nodes-loan-crm.loanCrmDeals',
				typeVersion: 1.1,
				position: [260, 0],
				parameters: {
					resource: 'deal',
					operation: 'getMany',
					limit: 10,
					options: {
						conditions: { condition: [{ field: 'dealStatus', operator: 'equals', value: 'Settled' }] },
						filter: "greaterThan(totalLoanAmount,'500000')",
						sort: '-updated',
					},
				},
				credentials: CREDENTIAL,
			},
		],
		connections: { [manualTrigger().name]: { main: [[{ node: 'Settled deals', type: 'main', index: 0 }]] } },
	},
	dealsOutput: {
		name: 'Big settled deals, newest first',
		nodes: [
			manualTrigger(),
			{
				id: 'c0000000-0000-4000-8000-000000000002',
				name: 'Settled deals over $500k',
				type: 'n8n-nodes-loan-crm.loanCrmDeals',
				typeVersion: 1.1,
				position: [260, 0],
				parameters: {
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
				credentials: CREDENTIAL,
			},
		],
		connections: { [manualTrigger().name]: { main: [[{ node: 'Settled deals over $500k', type: 'main', index: 0 }]] } },
	},
	picker: {
		name: 'Deals by status, picked from the list',
		nodes: [
			manualTrigger(),
			{
				id: 'e0000000-0000-4000-8000-000000000001',
				name: 'Deals by status',
				type: 'n8n-nodes-loan-crm.loanCrmDeals',
				typeVersion: 1.1,
				position: [260, 0],
				parameters: {
					resource: 'deal',
					operation: 'getMany',
					limit: 10,
					options: {
						conditions: { condition: [{ field: 'dealStatus', operator: 'any', value: ['PendingSettlement', 'Settled'] }] },
					},
				},
				credentials: CREDENTIAL,
			},
		],
		connections: { [manualTrigger().name]: { main: [[{ node: 'Deals by status', type: 'main', index: 0 }]] } },
	},
	task: {
		name: 'Move a task forward',
		nodes: [
			manualTrigger(),
			{
				id: 'd0000000-0000-4000-8000-000000000001',
				name: 'Update task',
				type: 'n8n-nodes-loan-crm.loanCrmLeadsAndTasks',
				typeVersion: 1.1,
				position: [260, 0],
				parameters: {
					resource: 'task',
					operation: 'update',
					// A task the sandbox has, in the By ID field the editor checks (its hint shows under it).
					taskId: { __rl: true, mode: 'id', value: '9500001' },
					updateFields: { progress: 'InProgress', dueDate: '2026-12-04T09:00:00' },
				},
				credentials: CREDENTIAL,
			},
		],
		connections: { [manualTrigger().name]: { main: [[{ node: 'Update task', type: 'main', index: 0 }]] } },
	},
	dealNotes: {
		name: 'Notes of a deal',
		nodes: [
			manualTrigger(),
			{
				id: 'e0000000-0000-4000-8000-000000000001',
				name: 'Notes of a deal',
				type: 'n8n-nodes-loan-crm.loanCrmDeals',
				typeVersion: 1.1,
				position: [260, 0],
				parameters: { resource: 'dealNote', operation: 'getMany', dealId: { __rl: true, mode: 'list', value: '' } },
				credentials: CREDENTIAL,
			},
		],
		connections: { [manualTrigger().name]: { main: [[{ node: 'Notes of a deal', type: 'main', index: 0 }]] } },
	},
};

/**
 * Custom API Call: n8n's HTTP Request node set up as the README says (Predefined Credential Type →
 * Loan CRM OAuth2 API, Response Format JSON), reading an endpoint outside the 20 operations. The
 * sandbox's address is read from the credential, since the node cannot take it from there.
 */
function customApiCallWorkflow(baseUrl: string, httpVersion: number) {
	return {
		name: 'Custom API Call: list integrations',
		nodes: [
			manualTrigger(),
			{
				id: 'f0000000-0000-4000-8000-000000000001',
				name: 'List integrations',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: httpVersion,
				position: [260, 0],
				parameters: {
					method: 'GET',
					url: `${baseUrl}/jsonapi/integrations`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'loanCrmOAuth2Api',
					options: { response: { response: { responseFormat: 'json' } } },
				},
				credentials: CREDENTIAL,
			},
		],
		connections: { [manualTrigger().name]: { main: [[{ node: 'List integrations', type: 'main', index: 0 }]] } },
	};
}

// --- Editor helpers -------------------------------------------------------------------------------

async function rest(page: Page, method: string, path: string, body?: unknown): Promise<any> {
	const result = await page.evaluate(
		async ({ method, url, body }: { method: string; url: string; body?: string }) => {
			const browserId = localStorage.getItem('n8n-browserId') ?? '';
			const response = await fetch(url, { method, headers: { 'content-type': 'application/json', 'browser-id': browserId }, body });
			return { status: response.status, text: await response.text() };
		},
		{ method, url: `${BASE}/rest${path}`, body: body === undefined ? undefined : JSON.stringify(body) },
	);
	if (result.status >= 300) throw new Error(`${method} /rest${path} answered ${result.status}: ${result.text.slice(0, 300)}`);
	return JSON.parse(result.text).data;
}

async function createWorkflow(page: Page, workflow: { name: string; nodes: unknown[]; connections: unknown }): Promise<string> {
	const created = await rest(page, 'POST', '/workflows', { ...workflow, active: false, settings: { executionOrder: 'v1' } });
	return created.id as string;
}

async function login(page: Page): Promise<void> {
	await page.goto(`${BASE}/signin`);
	await page.fill('input[name="emailOrLdapLoginId"]', DEV_OWNER.email);
	await page.fill('input[name="password"]', DEV_OWNER.password);
	await page.click('[data-test-id="form-submit-button"]');
	await page.waitForURL((url: URL) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
	await settle(page);
}

/** Waits for the page to be idle and closes informational toasts (error toasts stay, and fail the shot). */
async function settle(page: Page, ms = 1500): Promise<void> {
	await page.waitForLoadState('networkidle').catch(() => undefined);
	await page.waitForTimeout(ms);
	for (const button of await page.$$('.el-notification:not(.el-notification--error) .el-notification__closeBtn')) {
		await button.click().catch(() => undefined);
	}
}

async function shot(page: Page, file: string): Promise<void> {
	if (new URL(page.url()).pathname.startsWith('/signin')) throw new Error(`${file}: the editor shows the login page`);
	const error = await page.$('.el-notification--error');
	if (error) throw new Error(`${file}: the editor shows an error: ${(await error.innerText()).trim()}`);
	await page.mouse.move(1200, 150);
	await page.waitForTimeout(500);
	await page.screenshot({ path: join(OUT, file) });
	console.log(`wrote docs/screenshots/${file}`);
}

async function openWorkflow(page: Page, id: string): Promise<void> {
	await page.goto(`${BASE}/workflow/${id}`);
	await page.waitForSelector('[data-test-id="canvas-node"]', { timeout: 30_000 });
	await settle(page);
}

async function openNode(page: Page, name: string): Promise<void> {
	await page.dblclick(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
	await page.waitForSelector('[data-test-id="ndv"]', { timeout: 15_000 });
	await settle(page, 1000);
}

/** Scrolls the NDV's parameter list down by `by` pixels. */
async function scrollParameters(page: Page, by: number): Promise<void> {
	const box = await page.locator('[data-test-id="node-parameters"]').boundingBox();
	await page.mouse.move(box.x + box.width / 2, box.y + 200);
	await page.mouse.wheel(0, by);
	await page.waitForTimeout(500);
}

/** Drags the NDV's middle panel to the left so the output table gets more room. */
async function widenOutput(page: Page): Promise<void> {
	const handle = page.locator('[data-test-id="panel-drag-button"]');
	const box = await handle.boundingBox();
	const x = box.x + box.width / 2;
	const y = box.y + box.height / 2;
	await page.mouse.move(x, y);
	await page.mouse.down();
	for (let step = 1; step <= 10; step++) await page.mouse.move(x - step * 32, y);
	await page.mouse.up();
	await page.waitForTimeout(500);
}

// --- Main -------------------------------------------------------------------------------------------

async function main(): Promise<void> {
	const { chromium } = createRequire(__filename)(PLAYWRIGHT);
	mkdirSync(OUT, { recursive: true });
	const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
	try {
		const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', deviceScaleFactor: 1 });
		await context.addInitScript(() => localStorage.setItem('N8N_THEME', 'light'));
		const page = await context.newPage();
		await login(page);
		const want = (n: number) => !ONLY || ONLY.includes(n);

		if (want(1)) {
			await openWorkflow(page, await createWorkflow(page, WORKFLOWS.settled));
			await shot(page, '1-workflow-canvas.png');
		}
		if (want(2)) {
			await openWorkflow(page, await createWorkflow(page, WORKFLOWS.deals));
			await openNode(page, 'Settled deals');
			await scrollParameters(page, 70);
			await shot(page, '2-deals-get-many.png');
		}
		if (want(3)) {
			await openWorkflow(page, await createWorkflow(page, WORKFLOWS.task));
			await openNode(page, 'Update task');
			await shot(page, '3-task-update.png');
		}
		if (want(5)) {
			await page.goto(`${BASE}/home/credentials/${CREDENTIAL.loanCrmOAuth2Api.id}`);
			await page.waitForSelector('[data-test-id="editCredential-modal"]', { timeout: 30_000 });
			await settle(page);
			await shot(page, '5-credential.png');
		}
		if (want(6)) {
			await openWorkflow(page, await createWorkflow(page, WORKFLOWS.dealNotes));
			await openNode(page, 'Notes of a deal');
			await page.click('[data-test-id="resource-locator-dealId"] [data-test-id="rlc-input"]');
			await page.waitForSelector('[data-test-id="rlc-item"]', { timeout: 30_000 });
			// Typed without the apostrophe, as many do: the search finds O'Connor all the same.
			await page.keyboard.type('oconnor', { delay: 80 });
			await page.waitForFunction(
				() => [...document.querySelectorAll('[data-test-id="rlc-item"]')].every((item) => (item.textContent ?? '').includes("O'Connor")),
				undefined,
				{ timeout: 30_000 },
			);
			await page.waitForTimeout(800);
			await shot(page, '6-deal-locator-search.png');
		}
		if (want(7)) {
			// Conditions → Value as a dropdown of the field's known values, opened.
			await openWorkflow(page, await createWorkflow(page, WORKFLOWS.picker));
			await openNode(page, 'Deals by status');
			await scrollParameters(page, 250);
			await page.click('[data-test-id="ndv"] [data-test-id="parameter-input-value"]');
			await page.waitForSelector('.el-select-dropdown:visible, .el-popper:visible .el-select-dropdown__item', { timeout: 10_000 });
			await page.waitForTimeout(500);
			await shot(page, '7-condition-value-picker.png');
		}
		if (want(8)) {
			// The HTTP Request node with the Loan CRM credential, run: the parsed JSON:API document. A
			// taller window, so Method, URL, the credential and Response Format: JSON all show.
			const credential = await rest(page, 'GET', `/credentials/${CREDENTIAL.loanCrmOAuth2Api.id}?includeData=true`);
			// The version a new HTTP Request node gets in `npm run dev`'s n8n.
			const httpVersion = httpRequestNodeVersion(join(cacheDir(), `n8n-${N8N_VERSION}`));
			const workflowId = await createWorkflow(page, customApiCallWorkflow(String(credential.data.baseUrl).replace(/\/+$/, ''), httpVersion));
			await page.setViewportSize({ width: 1440, height: 1180 });
			await openWorkflow(page, workflowId);
			await openNode(page, 'List integrations');
			await page.click('[data-test-id="node-execute-button"]');
			await page.waitForSelector('[data-test-id="output-panel"] [data-test-id="node-run-status-success"]', { timeout: 60_000 });
			await page.click('[data-test-id="output-panel"] [data-test-id="radio-button-json"]').catch(() => undefined);
			await settle(page, 1000);
			await shot(page, '8-custom-api-call.png');
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
			await openWorkflow(page, workflowId);
			await page.click('[data-test-id="canvas-handle-plus"]');
			await page.waitForSelector('[data-test-id="node-creator"]', { timeout: 15_000 });
			await page.keyboard.type('Loan CRM Deals', { delay: 50 });
			await settle(page, 1200);
			await page.locator('[data-test-id="node-creator"]').getByText('Loan CRM Deals', { exact: true }).first().click();
			await settle(page, 1500);
			const panel = (await page.$eval('[data-test-id="node-creator"]', (element: HTMLElement) => element.innerText)).replace(/\s+/g, ' ');
			console.log(`Nodes panel, Loan CRM Deals: ${/custom .*api call/i.test(panel) ? 'shows' : 'does not show'} a custom API call link (${panel.slice(0, 200)} …)`);
			await page.keyboard.press('Escape');
		}
		// Last: widening the output panel is remembered by the editor for later node panels.
		if (want(4)) {
			await openWorkflow(page, await createWorkflow(page, WORKFLOWS.dealsOutput));
			await openNode(page, 'Settled deals over $500k');
			await page.click('[data-test-id="node-execute-button"]');
			await page.waitForSelector('[data-test-id="output-panel"] [data-test-id="node-run-status-success"]', { timeout: 60_000 });
			await page.waitForSelector('[data-test-id="output-panel"] table', { timeout: 15_000 });
			await widenOutput(page);
			await settle(page, 1000);
			await shot(page, '4-deals-output.png');
		}
	} finally {
		await browser.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
