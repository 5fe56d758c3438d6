/**
 * The web-form examples in the real n8n (`n8n start`), each form sent twice as a browser sends it
 * (multipart POST to the published form's production URL). What they share is here: `formScenario`
 * makes an example's workflow ready to run (what its sticky note tells a user to set: the credential
 * on the Loan CRM nodes, and the report node added after it, posting what the Loan CRM nodes output
 * to a sink here so the items are checked too), `postForms` sends the submissions and checks the
 * requests each caused. web-form-lead.ts runs examples/web-form-to-lead.json.
 *
 * This file's scenario, examples/web-form-to-contact.json (with the sandbox's integration ID): the
 * first submission creates the contact and the deal external reference, the second finds both (If
 * Already Exists → Return Existing), so the service holds one contact and one reference.
 *
 * They run on one n8n version (WEB_FORM_N8N_VERSION): what they prove is the package's, and the Form
 * Trigger's multipart form is the same on every version of the matrix.
 */
import { randomUUID } from 'crypto';
import type { Server } from 'http';

import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import type { LoggedRequest, Sandbox } from '../../sandbox';
import { adaptExample } from './examples';
import { N8N_VERSION } from './install';
import { startSink } from './n8n';
import { isPollRead, relatedId, same } from './check-helpers';
import { waitFor } from './util';
import type { CredentialRef, WorkflowFile } from './workflows';
import { reportNode, workflowFile } from './workflows';

/** The version whose single-process leg runs this scenario (and web-form-lead.ts's). */
export const WEB_FORM_N8N_VERSION = N8N_VERSION;

/** A web-form example as the e2e runs it under `n8n start`. */
export interface FormScenario {
	/** Imported with the run's other workflows, published before `n8n start`. */
	workflow: WorkflowFile;
	sink: Server;
	received: IDataObject[];
	webhookId: string;
}

/**
 * The example `file` ready to run on the sandbox: its Form Trigger at a webhook id of this run, the
 * credential on its Loan CRM nodes, `set` on the nodes it names, only the nodes `keep` accepts, and
 * after the node `report.after` the report node posting `report.jsonBody` to a sink here.
 */
export async function formScenario(
	file: string,
	workflowId: string,
	credential: CredentialRef,
	options: { sinkPath: string; report: { after: string; id: string; jsonBody: string }; set?: Record<string, INodeParameters>; keep?: (node: INode) => boolean },
): Promise<FormScenario> {
	const { server: sink, url, received } = await startSink(options.sinkPath);
	const webhookId = randomUUID();
	const example = adaptExample(file, { keep: options.keep, set: options.set, credential, webhookId });
	const report = reportNode(url, { name: 'Report to the e2e', id: options.report.id, position: [840, 0], jsonBody: options.report.jsonBody });
	const connections = { ...example.connections, [options.report.after]: { main: [[{ node: report.name, type: 'main' as const, index: 0 }]] } };
	return { workflow: workflowFile(workflowId, `E2E: ${example.name}`, [...example.nodes, report], connections), sink, received, webhookId };
}

const CONTACT = 'Create contact';
const REFERENCE = 'Record the form on the deal';

export const WEB_FORM_WORKFLOW_ID = 'lcE2eWebFormTwic';

export interface WebFormScenario extends FormScenario {
	dealId: string;
}

/** examples/web-form-to-contact.json with the sandbox's integration ID its sticky note asks for. */
export async function webFormScenario(sandbox: Sandbox, credential: CredentialRef): Promise<WebFormScenario> {
	const scenario = await formScenario('web-form-to-contact.json', WEB_FORM_WORKFLOW_ID, credential, {
		sinkPath: '/loan-crm-web-form',
		set: { [REFERENCE]: { integrationId: sandbox.data.ids.otherIntegration } },
		report: { after: REFERENCE, id: 'node-report-to-e2e', jsonBody: `={{ JSON.stringify({ contact: $('${CONTACT}').item.json, reference: $json }) }}` },
	});
	return { ...scenario, dealId: sandbox.data.ids.dealWithoutNotes };
}

/** The form as a browser posts it: field-<n> in the order of the Form Trigger's fields. */
function formBody(values: string[]): FormData {
	const body = new FormData();
	values.forEach((value, index) => body.append(`field-${index}`, value));
	return body;
}

function line(request: LoggedRequest): string {
	return `${request.method} ${request.path} → ${request.status}`;
}

/**
 * Under `n8n start`, with the sandbox's log cleared: posts each submission's `values` to the published
 * Form Trigger, waits for the workflow to report it, and checks the requests the sandbox saw for it
 * (those `isFormRequest` accepts: the published triggers keep polling meanwhile) against its
 * `requests`. Adds to `problems`; returns what the workflow reported for each submission, undefined
 * when one got no answer.
 */
export async function postForms(
	port: number,
	sandbox: Sandbox,
	scenario: FormScenario,
	submissions: Array<{ values: string[]; requests: string[] }>,
	isFormRequest: (request: LoggedRequest) => boolean,
	problems: string[],
): Promise<IDataObject[] | undefined> {
	sandbox.clearLog();
	const formRequests = () => sandbox.apiRequests().filter(isFormRequest);
	const start = scenario.received.length;
	for (const [index, submission] of submissions.entries()) {
		const label = `submission ${index + 1}`;
		const before = formRequests().length;
		const reports = scenario.received.length;
		const response = await fetch(`http://127.0.0.1:${port}/form/${scenario.webhookId}`, { method: 'POST', body: formBody(submission.values) });
		if (!response.ok) {
			problems.push(`${label}: the form answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
			return undefined;
		}
		if (!(await waitFor(() => scenario.received.length > reports, 30_000))) {
			problems.push(`${label}: the workflow reported nothing within 30 s; the sandbox saw ${formRequests().slice(before).map(line).join(', ') || 'no request'}`);
			return undefined;
		}
		problems.push(...same(`${label}: the sandbox saw`, formRequests().slice(before).map(line), submission.requests));
	}
	return scenario.received.slice(start);
}

/** Under `n8n start`: the form sent twice; returns problems. */
export async function checkWebFormTwice(port: number, sandbox: Sandbox, scenario: WebFormScenario): Promise<string[]> {
	const problems: string[] = [];
	const submissions = [
		// First name, last name, e-mail, mobile, deal, marketing.
		{
			values: ['Mere', 'Tane', 'mere.tane@example.com', '0412 345 678', scenario.dealId, 'Yes'],
			requests: ['GET /jsonapi/contacts → 200', 'POST /jsonapi/contacts → 201', 'GET /jsonapi/deal-external-references → 200', 'POST /jsonapi/deal-external-references → 201'],
		},
		// The same person again, the e-mail typed differently.
		{
			values: ['Mere', 'Tane', ' Mere.Tane@Example.com', '0412 345 678', scenario.dealId, 'Yes'],
			requests: ['GET /jsonapi/contacts → 200', 'GET /jsonapi/deal-external-references → 200'],
		},
	];
	// The published triggers' reads (deals by `updated`, contacts by `created`) are not the form's.
	const isFormRequest = (request: LoggedRequest) =>
		['/jsonapi/contacts', '/jsonapi/deal-external-references'].includes(request.path) && request.query.sort !== '-created' && !isPollRead(request);
	const reports = await postForms(port, sandbox, scenario, submissions, isFormRequest, problems);
	if (reports === undefined) return problems;
	const [first, second] = reports as Array<{ contact?: IDataObject; reference?: IDataObject }>;
	const contactId = first?.contact?.id;
	if (first?.contact?.outcome !== 'created' || first?.reference?.outcome !== 'created') problems.push(`submission 1 reported ${JSON.stringify(first).slice(0, 400)}, expected outcome created twice`);
	if (second?.contact?.outcome !== 'found' || second?.reference?.outcome !== 'found') problems.push(`submission 2 reported ${JSON.stringify(second).slice(0, 400)}, expected outcome found twice`);
	if (second?.contact?.id !== contactId || second?.reference?.id !== first?.reference?.id) {
		problems.push(`submission 2 returned contact ${String(second?.contact?.id)} and reference ${String(second?.reference?.id)}, expected the first ones (${String(contactId)}, ${String(first?.reference?.id)})`);
	}
	const contacts = sandbox.data.list('contacts').filter((contact) => String(contact.attributes.email ?? '').toLowerCase() === 'mere.tane@example.com');
	if (contacts.length !== 1) problems.push(`the service holds ${contacts.length} contacts with mere.tane@example.com, expected 1`);
	const references = sandbox.data.list('deal-external-references').filter((record) => relatedId(record, 'deal') === scenario.dealId);
	const expectedReference = `WEBFORM-${String(contactId)}`;
	if (references.length !== 1 || references[0].attributes.externalReference !== expectedReference) {
		problems.push(`deal ${scenario.dealId} holds ${JSON.stringify(references.map((record) => record.attributes.externalReference))}, expected ["${expectedReference}"]`);
	}
	return problems;
}
