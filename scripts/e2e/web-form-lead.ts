/**
 * examples/web-form-to-lead.json in the real n8n (`n8n start`), its form sent twice as a browser
 * sends it (multipart POST to the published form's production URL): the first submission creates
 * the lead (If Already Exists → Return Existing finds nothing) and a note on its deal, the second
 * finds the same deal through its external reference and adds a second note. The service then
 * holds one lead (deal) for the person, one note per submission and one "Website Form" integration.
 *
 * The workflow is the example's as web-form.ts's `formScenario` makes it ready (the credential on
 * both Loan CRM nodes, the report node to a sink here), without its Slack node: the report node
 * takes its place.
 *
 * Runs on one n8n version (WEB_FORM_N8N_VERSION, as web-form.ts). The example's external reference
 * holds the submission's day (`submittedAt`), so two submissions straddling midnight in the
 * workflow's time zone would be two leads; the two posts here are seconds apart.
 */
import type { IDataObject } from 'n8n-workflow';

import type { LoggedRequest, Sandbox } from '../../sandbox';
import { relatedId } from './check-helpers';
import type { FormScenario } from './web-form';
import { formScenario, postForms } from './web-form';
import type { CredentialRef } from './workflows';

const LEAD = 'Create lead';
const NOTE = 'Add the message to the deal';

export const WEB_FORM_LEAD_WORKFLOW_ID = 'lcE2eWebFormLead';

export type WebFormLeadScenario = FormScenario;

/** examples/web-form-to-lead.json without its Slack node. */
export async function webFormLeadScenario(credential: CredentialRef): Promise<WebFormLeadScenario> {
	return await formScenario('web-form-to-lead.json', WEB_FORM_LEAD_WORKFLOW_ID, credential, {
		sinkPath: '/loan-crm-web-form-lead',
		keep: (node) => node.type !== 'n8n-nodes-base.slack',
		report: { after: NOTE, id: 'node-report-lead-to-e2e', jsonBody: `={{ JSON.stringify({ lead: $('${LEAD}').item.json, note: $json }) }}` },
	});
}

/** Under `n8n start`: the form sent twice; returns problems. */
export async function checkWebFormLeadTwice(port: number, sandbox: Sandbox, scenario: WebFormLeadScenario): Promise<string[]> {
	const problems: string[] = [];
	const email = 'tui.mason@example.com';
	// First name, last name, e-mail, mobile, message, marketing: the same person again, the e-mail typed differently.
	const submissions = [
		{
			values: ['Tui', 'Mason', email, '0412 000 111', 'Looking to buy our first home', 'Yes'],
			requests: ['GET /jsonapi/deal-external-references → 200', 'POST /jsonapi/leads → 201', 'POST /jsonapi/deal-notes → 201'],
		},
		{
			values: ['Tui', 'Mason', ' Tui.Mason@Example.com', '0412 000 111', 'Also: can we talk on Saturday?', 'Yes'],
			requests: ['GET /jsonapi/deal-external-references → 200', 'POST /jsonapi/deal-notes → 201'],
		},
	];
	// The published triggers keep polling deals meanwhile; only the form's requests count here.
	const isFormRequest = (request: LoggedRequest) =>
		['/jsonapi/leads', '/jsonapi/deal-notes', '/jsonapi/deal-external-references'].includes(request.path) &&
		!(request.method === 'GET' && !String(request.query.filter ?? '').includes('WEBFORM-'));
	const reports = await postForms(port, sandbox, scenario, submissions, isFormRequest, problems);
	if (reports === undefined) return problems;
	const [first, second] = reports as Array<{ lead?: IDataObject; note?: IDataObject }>;
	const dealId = first?.lead?.dealId;
	if (first?.lead?.outcome !== 'created' || first?.lead?.id !== dealId) problems.push(`submission 1 reported ${JSON.stringify(first).slice(0, 400)}, expected a created lead whose dealId is its id`);
	if (second?.lead?.outcome !== 'found' || second?.lead?.dealId !== dealId) problems.push(`submission 2 reported ${JSON.stringify(second).slice(0, 400)}, expected the deal of submission 1 (${String(dealId)}), found`);
	// The example's Lead → Create is at the newest version: created and found have the same columns, in order.
	const columns = (report?: { lead?: IDataObject }) => Object.keys(report?.lead ?? {}).join(',');
	if (columns(first) !== columns(second) || columns(first) !== 'outcome,matchCount,id,dealId,customStatusName,dealStatus') {
		problems.push(`the lead's columns: created ${columns(first)}, found ${columns(second)}; expected outcome,matchCount,id,dealId,customStatusName,dealStatus both times`);
	}
	if (first?.note?.type !== 'deal-notes' || second?.note?.type !== 'deal-notes' || first?.note?.id === second?.note?.id) problems.push('expected one new deal note per submission');
	if (first?.note?.dealId !== dealId || second?.note?.dealId !== dealId) problems.push(`the notes name deal ${String(first?.note?.dealId)} and ${String(second?.note?.dealId)}, expected ${String(dealId)} (Deal Note → Create's dealId)`);
	const deal = typeof dealId === 'string' ? sandbox.data.get('deals', dealId) : undefined;
	if (deal?.attributes.dealStatus !== 'NewLeads') problems.push(`deal ${String(dealId)} is ${String(deal?.attributes.dealStatus)}, expected NewLeads`);
	const notes = sandbox.data.list('deal-notes').filter((note) => relatedId(note, 'deal') === dealId);
	if (notes.length !== 2) problems.push(`deal ${String(dealId)} holds ${notes.length} notes, expected 2 (one per submission)`);
	const references = sandbox.data.list('deal-external-references').filter((record) => String(record.attributes.externalReference).startsWith(`WEBFORM-${email}-`));
	if (references.length !== 1) problems.push(`the service holds ${references.length} references WEBFORM-${email}-…, expected 1 (one lead)`);
	const integrations = sandbox.data.list('integrations').filter((integration) => integration.attributes.name === 'Website Form');
	if (integrations.length !== 1) problems.push(`the service holds ${integrations.length} integrations named Website Form, expected 1`);
	return problems;
}
