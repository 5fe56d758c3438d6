/**
 * `npm run dev` imports examples/ ready to publish against the sandbox (scripts/dev-examples.ts):
 * the sandbox credential on every Loan CRM node, and a node needing a credential dev cannot have
 * disabled, decided by n8n's own node types (here those of the n8n-nodes-base devDependency).
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { REPO_ROOT, n8nNodesBaseDir } from '../../harness';
import type { PreparedExamples } from '../../scripts/dev-examples';
import { DEV_CREDENTIAL, exampleWebhooks, prepareExamples } from '../../scripts/dev-examples';

describe('the examples as npm run dev imports them', () => {
	const examplesDir = join(REPO_ROOT, 'examples');
	const before = readFileSync(join(examplesDir, 'deal-settled-to-slack.json'), 'utf8');
	let workflows: PreparedExamples['workflows'];
	let disabled: PreparedExamples['disabled'];
	beforeAll(() => {
		({ workflows, disabled } = prepareExamples(examplesDir, n8nNodesBaseDir(), DEV_CREDENTIAL));
	});

	it('gives every Loan CRM node the sandbox credential', () => {
		const ours = workflows.flatMap((workflow) => workflow.nodes.filter((node) => node.type.startsWith('n8n-nodes-loan-crm.')));
		expect(ours.length).toBeGreaterThanOrEqual(3);
		for (const node of ours) expect([node.name, node.credentials]).toEqual([node.name, { loanCrmOAuth2Api: DEV_CREDENTIAL }]);
	});

	it('disables the Slack node (no Slack credential in dev) and says so on the sticky note; the Form Trigger stays', () => {
		expect(disabled).toEqual([
			'Loan CRM: deal settled → Slack message, instantly (webhooks): Post to #settlements',
			'Loan CRM: deal settled → Slack message: Post to #settlements',
			'Loan CRM: web form for two applicants → fact find → Slack: Post to #new-fact-finds',
			'Loan CRM: web form → lead + note → Slack: Post to #new-leads',
		]);
		const slack = workflows.find((workflow) => workflow.name === 'Loan CRM: deal settled → Slack message');
		expect(slack?.nodes.filter((node) => node.disabled === true).map((node) => node.type)).toEqual(['n8n-nodes-base.slack']);
		const note = slack?.nodes.find((node) => node.type === 'n8n-nodes-base.stickyNote');
		expect(String(note?.parameters.content)).toContain('**In `npm run dev`:** *Post to #settlements* is imported disabled');
		const forms = workflows.filter((workflow) => workflow.nodes.some((node) => node.type === 'n8n-nodes-base.formTrigger'));
		expect(forms.length).toBeGreaterThanOrEqual(4);
		for (const form of forms) expect(form.nodes.filter((node) => node.disabled === true && node.type !== 'n8n-nodes-base.slack')).toEqual([]);
		// fact-find-to-crm.json: its Slack node off, its Form Trigger and Fact Find → Create on.
		const factFind = workflows.find((workflow) => workflow.name.includes('fact find'));
		expect(factFind?.nodes.filter((node) => node.disabled === true).map((node) => node.name)).toEqual(['Post to #new-fact-finds']);
		// web-form-to-lead.json: its Slack node off, its Form Trigger and Loan CRM nodes on.
		const lead = workflows.find((workflow) => workflow.name.includes('lead + note'));
		expect(lead?.nodes.filter((node) => node.disabled === true).map((node) => node.name)).toEqual(['Post to #new-leads']);
		expect(String(lead?.nodes.find((node) => node.type === 'n8n-nodes-base.stickyNote')?.parameters.content)).toContain('*Post to #new-leads* is imported disabled');
	});

	it('lead-routing.json: nothing to disable (the Form Trigger, the Switch and the Edit Fields nodes need no credential)', () => {
		const routing = workflows.find((workflow) => workflow.name.includes('routed to the right adviser'));
		expect(routing?.nodes.map((node) => node.type).sort()).toEqual(
			['n8n-nodes-base.formTrigger', 'n8n-nodes-base.set', 'n8n-nodes-base.set', 'n8n-nodes-base.set', 'n8n-nodes-base.stickyNote', 'n8n-nodes-base.switch', 'n8n-nodes-loan-crm.loanCrmLeadsAndTasks'].sort(),
		);
		expect(routing?.nodes.filter((node) => node.disabled === true)).toEqual([]);
	});

	it('leaves the files in examples/ as users import them', () => {
		expect(readFileSync(join(examplesDir, 'deal-settled-to-slack.json'), 'utf8')).toBe(before);
		expect(before).not.toContain('loanCrmSandbox01');
	});
});

describe("the examples' Webhook Triggers, which npm run dev points the sandbox's webhooks at", () => {
	it('finds examples/deal-settled-instant.json\'s trigger: its Production URL path and the records it watches', () => {
		expect(exampleWebhooks(join(REPO_ROOT, 'examples'))).toEqual([
			{ workflow: 'Loan CRM: deal settled → Slack message, instantly (webhooks)', path: '9c4e2b7a-3d1f-4e8b-a6c5-1d2e3f4a5b13/notify', resources: ['deals'] },
		]);
	});
});
