/**
 * examples/lead-routing.json in the real n8n (`n8n start`), its form sent three times as a browser
 * sends it, from three areas: n8n's own Switch routes each by post code to the Edit Fields node
 * naming that area's adviser by e-mail, and Lead → Create looks the adviser up (By Name or
 * E-mail) and sends the lead with that adviser as its UserId, its enquiry source looked up by name
 * from the form's answer. The service then holds three leads, each allocated to its area's
 * adviser, each with the source the form named.
 *
 * The workflow is the example's as web-form.ts's `formScenario` makes it ready (the credential on
 * the Loan CRM node, the report node to a sink here). Runs on one n8n version (WEB_FORM_N8N_VERSION,
 * as web-form.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import type { LoggedRequest, Sandbox } from '../../sandbox';
import { relatedId } from './check-helpers';
import type { FormScenario } from './web-form';
import { formScenario, postForms } from './web-form';
import type { CredentialRef } from './workflows';

const LEAD = 'Create lead for the adviser';

export const LEAD_ROUTING_WORKFLOW_ID = 'lcE2eLeadRouting';

/** The submissions' e-mail domain: what tells this scenario's requests from the others'. */
const DOMAIN = 'route.example.com';

export type LeadRoutingScenario = FormScenario;

/** examples/lead-routing.json, whole. */
export async function leadRoutingScenario(credential: CredentialRef): Promise<LeadRoutingScenario> {
	return await formScenario('lead-routing.json', LEAD_ROUTING_WORKFLOW_ID, credential, {
		sinkPath: '/loan-crm-lead-routing',
		report: { after: LEAD, id: 'node-report-routing-to-e2e', jsonBody: '={{ JSON.stringify({ lead: $json }) }}' },
	});
}

/** The adviser-details record of an e-mail address, and its adviser (family) id. */
function adviserOf(sandbox: Sandbox, email: string): { contactId: string; familyId: string | undefined } | undefined {
	const details = sandbox.data.list('adviser-details').find((record) => String(record.attributes.email).toLowerCase() === email);
	return details === undefined ? undefined : { contactId: details.id, familyId: relatedId(details, 'adviser') };
}

/** Under `n8n start`: three submissions from three areas; returns problems. */
export async function checkLeadRouting(port: number, sandbox: Sandbox, scenario: LeadRoutingScenario): Promise<string[]> {
	const problems: string[] = [];
	const perSubmission = ['GET /jsonapi/adviser-details → 200', 'GET /jsonapi/deal-external-references → 200', 'GET /jsonapi/enquiry-sources → 200', 'POST /jsonapi/leads → 201'];
	// First name, last name, e-mail, mobile, post code, how they heard of us, message; the area's adviser and source.
	const areas = [
		{ values: ['Ruby', 'Tan', `ruby.tan@${DOMAIN}`, '0412 000 201', '2010', 'Google', 'First home'], adviser: 'sarah.mitchell@harbourcityloans.com.au', source: [22, 2] },
		{ values: ['Sam', 'Kowalski', `sam.kowalski@${DOMAIN}`, '0412 000 202', '2500', 'A friend or family member', 'Refinance'], adviser: 'david.nguyen@harbourcityloans.com.au', source: [11, 1] },
		{ values: ['Tia', 'Ngata', `tia.ngata@${DOMAIN}`, '0412 000 203', '4000', 'A comparison site', 'Investment loan'], adviser: 'aisha.rahman@harbourcityloans.com.au', source: [24, 2] },
	];
	// The published triggers keep polling meanwhile; only this form's requests count here.
	const isFormRequest = (request: LoggedRequest) =>
		['/jsonapi/adviser-details', '/jsonapi/enquiry-sources', '/jsonapi/leads'].includes(request.path) ||
		(request.path === '/jsonapi/deal-external-references' && String(request.query.filter ?? '').includes(DOMAIN));
	const reports = await postForms(port, sandbox, scenario, areas.map((area) => ({ values: area.values, requests: perSubmission })), isFormRequest, problems);
	if (reports === undefined) return problems;
	const posts = sandbox.apiRequests().filter((request) => request.method === 'POST' && request.path === '/jsonapi/leads');
	for (const [index, area] of areas.entries()) {
		const label = `submission ${index + 1} (post code ${area.values[4]})`;
		const expected = adviserOf(sandbox, area.adviser);
		const lead = (reports[index] as { lead?: IDataObject } | undefined)?.lead;
		const post = posts.find((request) => (request.json as { data?: { attributes?: IDataObject } })?.data?.attributes?.email === area.values[2]);
		if (expected === undefined) {
			problems.push(`${label}: the sandbox has no adviser ${area.adviser}`);
			continue;
		}
		if (post?.headers.userid !== expected.contactId) problems.push(`${label}: the lead was sent with UserId ${String(post?.headers.userid)}, expected ${expected.contactId} (${area.adviser})`);
		const attributes = (post?.json as { data?: { attributes?: IDataObject } } | undefined)?.data?.attributes ?? {};
		if (attributes.sourceId !== area.source[0] || attributes.sourceCategoryId !== area.source[1]) {
			problems.push(`${label}: sourceId ${String(attributes.sourceId)} and sourceCategoryId ${String(attributes.sourceCategoryId)}, expected ${area.source.join(' and ')}`);
		}
		// The example's Lead → Create is at the newest version (1.2): the one shape, created or found.
		if (lead?.outcome !== 'created' || Object.keys(lead ?? {}).join(',') !== 'outcome,matchCount,id,dealId,customStatusName,dealStatus' || lead?.id !== lead?.dealId) {
			problems.push(`${label}: reported ${JSON.stringify(lead).slice(0, 300)}, expected a created lead (outcome, matchCount, id, dealId, customStatusName, dealStatus)`);
		}
		const deal = typeof lead?.dealId === 'string' ? sandbox.data.get('deals', lead.dealId) : undefined;
		const allocated = (deal?.relationships.adviser as { id: string } | null | undefined)?.id;
		if (allocated !== expected.familyId) problems.push(`${label}: deal ${String(lead?.dealId)} is allocated to adviser ${String(allocated)}, expected ${String(expected.familyId)}`);
	}
	return problems;
}
