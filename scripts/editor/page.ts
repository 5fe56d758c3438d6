/**
 * Driving n8n 2.30's editor with headless Chromium (playwright-core, installed outside the repository):
 * what scripts/screenshots.ts and its browser check (scripts/editor/checks.ts) share. Selectors are
 * the editor's own `data-test-id` attributes, read from its DOM.
 */
import { createRequire } from 'module';

import type { IConnections, INode, INodeParameters } from 'n8n-workflow';

import { NODE_VERSIONS } from '../../nodes/shared/service/versions';
import { DEV_CREDENTIAL } from '../dev-examples';
import { DEV_OWNER } from '../e2e/n8n';
import { CREDENTIAL_TYPE, connect, loanCrmNode, manualTrigger as manualTriggerNode } from '../e2e/workflows';

// playwright-core is not a dependency of the repository, so its types are not at hand.
export type Page = any;

export const CREDENTIAL = { [CREDENTIAL_TYPE]: { id: DEV_CREDENTIAL.id, name: DEV_CREDENTIAL.name } };

/** Flags Chromium needs on a closed network (no update, sync or QUIC reach-outs) and as root. */
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

export interface WorkflowJson {
	name: string;
	nodes: unknown[];
	connections: unknown;
}

/** A logged-in editor page of the n8n at `base`. */
export class Editor {
	private constructor(
		readonly page: Page,
		readonly base: string,
		private readonly browser: { close(): Promise<void> },
	) {}

	/** Starts Chromium (1440×900, light theme) and logs in as `npm run dev`'s owner. */
	static async open(base: string): Promise<Editor> {
		const playwright = process.env.PLAYWRIGHT_CORE ?? '/tmp/shots/node_modules/playwright-core';
		const { chromium } = createRequire(__filename)(playwright);
		const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
		try {
			const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', deviceScaleFactor: 1 });
			await context.addInitScript(() => localStorage.setItem('N8N_THEME', 'light'));
			const editor = new Editor(await context.newPage(), base, browser);
			await editor.login();
			return editor;
		} catch (error) {
			await browser.close();
			throw error;
		}
	}

	async close(): Promise<void> {
		await this.browser.close();
	}

	private async login(): Promise<void> {
		const page = this.page;
		await page.goto(`${this.base}/signin`);
		await page.fill('input[name="emailOrLdapLoginId"]', DEV_OWNER.email);
		await page.fill('input[name="password"]', DEV_OWNER.password);
		await page.click('[data-test-id="form-submit-button"]');
		await page.waitForURL((url: URL) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
		await this.settle();
	}

	/** n8n's internal REST API (what the editor uses), as the logged-in user. */
	async rest(method: string, path: string, body?: unknown): Promise<any> {
		const result = await this.page.evaluate(
			async ({ method, url, body }: { method: string; url: string; body?: string }) => {
				const browserId = localStorage.getItem('n8n-browserId') ?? '';
				const response = await fetch(url, { method, headers: { 'content-type': 'application/json', 'browser-id': browserId }, body });
				return { status: response.status, text: await response.text() };
			},
			{ method, url: `${this.base}/rest${path}`, body: body === undefined ? undefined : JSON.stringify(body) },
		);
		if (result.status >= 300) throw new Error(`${method} /rest${path} answered ${result.status}: ${result.text.slice(0, 300)}`);
		return JSON.parse(result.text).data;
	}

	async createWorkflow(workflow: WorkflowJson): Promise<string> {
		const created = await this.rest('POST', '/workflows', { ...workflow, active: false, settings: { executionOrder: 'v1' } });
		return created.id as string;
	}

	/** Waits for the page to be idle and closes informational toasts (error toasts stay). */
	async settle(ms = 1500): Promise<void> {
		const page = this.page;
		await page.waitForLoadState('networkidle').catch(() => undefined);
		await page.waitForTimeout(ms);
		for (const button of await page.$$('.el-notification:not(.el-notification--error) .el-notification__closeBtn')) {
			await button.click().catch(() => undefined);
		}
	}

	/** Closes every toast, error toasts included. */
	async closeToasts(): Promise<void> {
		for (const button of await this.page.$$('.el-notification .el-notification__closeBtn')) await button.click().catch(() => undefined);
		await this.page.waitForTimeout(300);
	}

	/** The texts of the toasts shown. */
	async toasts(): Promise<string[]> {
		return await this.page.$$eval('.el-notification', (elements: HTMLElement[]) => elements.map((element) => element.innerText.trim()));
	}

	async openWorkflow(id: string): Promise<void> {
		await this.page.goto(`${this.base}/workflow/${id}`);
		await this.page.waitForSelector('[data-test-id="canvas-node"], [data-test-id="sticky"]', { timeout: 30_000 });
		await this.settle();
	}

	async openNode(name: string): Promise<void> {
		await this.page.dblclick(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
		await this.page.waitForSelector('[data-test-id="ndv"]', { timeout: 15_000 });
		await this.settle(1000);
	}

	async closeNode(): Promise<void> {
		await this.page.click('[data-test-id="ndv-close-button"]');
		await this.page.waitForSelector('[data-test-id="ndv"]', { state: 'hidden', timeout: 10_000 }).catch(() => undefined);
		await this.page.waitForTimeout(500);
	}

	/**
	 * Clicks the canvas's Execute Workflow and waits for the run's toast; returns the toasts' texts
	 * (closed afterwards). n8n 2.30's Execute Step in the node panel fails once after a run of the same
	 * workflow ("Cannot read properties of null (reading 'Start')", with n8n's own nodes too), so the
	 * checks run whole workflows.
	 */
	async executeWorkflow(): Promise<string[]> {
		await this.closeToasts();
		await this.page.click('[data-test-id="execute-workflow-button"]');
		await this.page.waitForSelector('.el-notification', { timeout: 60_000 });
		await this.page.waitForTimeout(1500);
		const toasts = await this.toasts();
		await this.closeToasts();
		return toasts;
	}

	/** The open node panel's output table: column headers (without n8n's empty last column) and rows. */
	async outputTable(): Promise<{ headers: string[]; rows: string[][] }> {
		const output = '[data-test-id="ndv"] [data-test-id="output-panel"]';
		const table = `${output} table`;
		// The editor remembers the last display mode (JSON after shot 8): switch to Table once there is output.
		await this.page.waitForSelector(`${table}, ${output} [data-test-id="radio-button-table"]`, { timeout: 30_000 });
		await this.page.click(`${output} [data-test-id="radio-button-table"]`).catch(() => undefined);
		await this.page.waitForSelector(table, { timeout: 15_000 });
		const headers: string[] = await this.page.$$eval(`${table} thead th`, (cells: HTMLElement[]) => cells.map((cell) => cell.innerText.trim()));
		const rows: string[][] = await this.page.$$eval(`${table} tbody tr`, (rows: HTMLTableRowElement[]) =>
			rows.map((row) => Array.from(row.querySelectorAll('td')).map((cell) => cell.innerText.trim())),
		);
		while (headers.length > 0 && headers[headers.length - 1] === '') headers.pop();
		return { headers, rows: rows.map((row) => row.slice(0, headers.length)) };
	}

	/** Hovers `selector` and returns the tooltip it opens (n8n's `tooltip-content`), or ''. */
	async tooltipOf(selector: string | { hover(): Promise<void> }): Promise<string> {
		const page = this.page;
		await page.mouse.move(5, 5);
		await page.waitForTimeout(300);
		if (typeof selector === 'string') await page.hover(selector);
		else await selector.hover();
		await page.waitForSelector('[data-test-id="tooltip-content"]', { timeout: 5_000 }).catch(() => undefined);
		await page.waitForTimeout(500);
		const texts: string[] = await page.$$eval('[data-test-id="tooltip-content"]', (elements: HTMLElement[]) => elements.map((element) => element.innerText.trim()));
		await page.mouse.move(5, 5);
		await page.waitForTimeout(300);
		return texts.join('\n');
	}

	/** A new workflow, its nodes panel opened with "Add first step…" and `text` typed into its search. */
	private async typeInNodesPanel(text: string): Promise<void> {
		const page = this.page;
		await page.goto(`${this.base}/workflow/new`);
		await page.waitForSelector('[data-test-id="canvas-add-button"]', { timeout: 30_000 });
		await this.settle(500);
		await page.click('[data-test-id="canvas-add-button"]');
		await page.waitForSelector('[data-test-id="node-creator-search-bar"]', { timeout: 15_000 });
		await page.keyboard.type(text, { delay: 40 });
		await page.waitForTimeout(1200);
	}

	/**
	 * A new workflow with the nodes panel open on `node` (as after "Add first step…", searching its
	 * name and clicking it): returns the panel's entries, each with the node type it adds.
	 */
	async nodesPanelEntries(node: string): Promise<Array<{ name: string; type: string }>> {
		const page = this.page;
		await this.typeInNodesPanel(node);
		await page.locator('[data-test-id="node-creator-item-name"]', { hasText: node }).first().click();
		await page.waitForTimeout(1200);
		return await page.$$eval('[data-test-id="node-creator"] [data-keyboard-nav-type="action"]', (items: HTMLElement[]) =>
			items.map((item) => ({
				name: (item.querySelector('[data-test-id="node-creator-item-name"]') as HTMLElement | null)?.innerText.trim() ?? '',
				// "n8n-nodes-loan-crm.loanCrmDealsTrigger-<uuid>"
				type: (item.dataset.keyboardNavId ?? '').replace(/-[0-9a-f]{8}-[0-9a-f-]{27}$/, ''),
			})),
		);
	}

	/** The node names the nodes panel lists for `text` typed after "Add first step…" (nothing picked). */
	async nodesPanelSearch(text: string): Promise<string[]> {
		const page = this.page;
		await this.typeInNodesPanel(text);
		const names: string[] = await page.$$eval('[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]', (items: HTMLElement[]) => items.map((item) => item.innerText.trim()));
		await page.keyboard.press('Escape');
		return names;
	}

	/**
	 * The entries the list of resource locator `parameter` offers in the open node panel (its first
	 * one there), after typing `search` when given: each entry's text.
	 */
	async locatorEntries(parameter: string, search?: string): Promise<string[]> {
		const page = this.page;
		await page.locator(`[data-test-id="ndv"] [data-test-id="resource-locator-${parameter}"] [data-test-id="rlc-input"]`).first().click();
		await page.waitForSelector('[data-test-id="rlc-item"]', { timeout: 30_000 });
		if (search !== undefined) {
			const before: string[] = await page.$$eval('[data-test-id="rlc-item"]', (items: HTMLElement[]) => items.map((item) => item.innerText.trim()));
			await page.keyboard.type(search, { delay: 60 });
			// The search's answer replaces the list: wait until it differs from the unfiltered one.
			await page
				.waitForFunction((shown: string[]) => {
					const now = Array.from(document.querySelectorAll<HTMLElement>('[data-test-id="rlc-item"]')).map((item) => item.innerText.trim());
					return now.length > 0 && JSON.stringify(now) !== JSON.stringify(shown);
				}, before, { timeout: 15_000 })
				.catch(() => undefined);
			await page.waitForTimeout(500);
		}
		const entries: string[] = await page.$$eval('[data-test-id="rlc-item"]', (items: HTMLElement[]) => items.map((item) => item.innerText.trim().replace(/\s*\n\s*/g, ' / ')));
		await page.keyboard.press('Escape');
		await page.waitForTimeout(300);
		return entries;
	}

	/** Clicks a nodes panel entry by its name and waits for the node panel it opens. */
	async pickPanelEntry(name: string): Promise<void> {
		await this.page.locator('[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]', { hasText: name }).first().click();
		await this.page.waitForSelector('[data-test-id="ndv"]', { timeout: 15_000 });
		await this.settle(1000);
	}

	/** The shown value of an options parameter in the open node panel. */
	async optionValue(parameter: string): Promise<string> {
		return await this.page.locator(`[data-test-id="ndv"] [data-test-id="parameter-input-${parameter}"] input`).first().inputValue();
	}

	/** The chosen values of a multi-options parameter in the open node panel (its chips). */
	async chosenValues(parameter: string): Promise<string[]> {
		return await this.page.$$eval(`[data-test-id="ndv"] [data-test-id="parameter-input-${parameter}"] .el-select__tags-text`, (chips: HTMLElement[]) =>
			chips.map((chip) => chip.innerText.trim()),
		);
	}

	/** "Loan CRM Deals Trigger node version 1.1 (Latest)", from the open node panel's Settings. */
	async nodeVersionText(): Promise<string> {
		return ((await this.page.textContent('[data-test-id="ndv"] [data-test-id="node-version"]')) ?? '').replace(/\s+/g, ' ').trim();
	}

	/** The id of the workflow the editor shows (from its URL), once saved. */
	workflowIdFromUrl(): string | undefined {
		return /\/workflow\/([A-Za-z0-9]+)/.exec(new URL(this.page.url()).pathname)?.[1];
	}

	/** Scrolls the node panel's parameter list down by `by` pixels. */
	async scrollParameters(by: number): Promise<void> {
		const box = await this.page.locator('[data-test-id="node-parameters"]').boundingBox();
		await this.page.mouse.move(box.x + box.width / 2, box.y + 200);
		await this.page.mouse.wheel(0, by);
		await this.page.waitForTimeout(500);
	}

	/** Drags the node panel's middle panel to the left so the output table gets more room. */
	async widenOutput(): Promise<void> {
		const page = this.page;
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
}

/** A Manual Trigger as the editor names it, the start of the workflows the shots and checks run. */
export const manualTrigger = (x = 0): INode => manualTriggerNode('When clicking ‘Execute workflow’', 'a0000000-0000-4000-8000-000000000001', [x, 0]);

/** Connections from the Manual Trigger to each of `names`. */
export function fromManualTrigger(...names: string[]): IConnections {
	const connections: IConnections = {};
	for (const name of names) connect(connections, manualTrigger().name, name);
	return connections;
}

/** The version the editor gives a new node of the package. */
export const NEWEST = Math.max(...NODE_VERSIONS);

/** A node of the package as a new one is (NEWEST), with the sandbox credential; at x = 260 after the Manual Trigger by default. */
export function editorNode(name: string, node: string, parameters: INodeParameters, id: string, position: [number, number] = [260, 0]): INode {
	return loanCrmNode(name, node, parameters, { id, typeVersion: NEWEST, position, credential: DEV_CREDENTIAL });
}

/** The Manual Trigger, then one node of the package (`editorNode`). */
export function manualWorkflow(name: string, node: INode): WorkflowJson {
	return { name, nodes: [manualTrigger(), node], connections: fromManualTrigger(node.name) };
}
