/**
 * examples/fact-find-to-crm.json in the real n8n (`n8n start`), its form for two applicants sent
 * twice as a browser sends it: the first submission is one POST /jsonapi/structured-leads carrying
 * the whole household (If Already Exists → Return Existing finds nothing first), then the deal's
 * contacts are read; the second finds the same deal through its external reference. The service
 * then holds one deal in New Leads with both people as contacts in one client, each person's salary
 * owned by that person, the home with its address, the home loan secured by it, the card and the
 * living expenses, each with its owners.
 *
 * The workflow is the example's as web-form.ts's `formScenario` makes it ready (the credential on
 * the Loan CRM node, the report node to a sink here), without its Slack node: the report node takes
 * its place. Runs on one n8n version (WEB_FORM_N8N_VERSION, as web-form.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import type { LoggedRequest, Sandbox, StoredResource } from '../../sandbox';
import { relatedId } from './check-helpers';
import type { FormScenario } from './web-form';
import { formScenario, postForms } from './web-form';
import type { CredentialRef } from './workflows';

const FACT_FIND = 'Create fact find';

export const FACT_FIND_WORKFLOW_ID = 'lcE2eFactFindFrm';

export type FactFindScenario = FormScenario;

/** examples/fact-find-to-crm.json without its Slack node. */
export async function factFindScenario(credential: CredentialRef): Promise<FactFindScenario> {
	return await formScenario('fact-find-to-crm.json', FACT_FIND_WORKFLOW_ID, credential, {
		sinkPath: '/loan-crm-fact-find',
		keep: (node) => node.type !== 'n8n-nodes-base.slack',
		report: { after: FACT_FIND, id: 'node-report-fact-find-to-e2e', jsonBody: '={{ JSON.stringify({ factFind: $json }) }}' },
	});
}

/** The form's fields in order (field-0 …): both applicants, the address, the home, the loan, the card, the expenses. */
const FORM = [
	'Aroha', 'Ngata', 'aroha.ngata@factfind.example.com', '0412 000 401', '1990-06-15', 'Fonterra', '91000',
	'Tama', 'Ngata', 'tama.ngata@factfind.example.com', '', 'Auckland Transport', '78500',
	'7 Kowhai Rd', 'Blacktown', 'NSW', '2148',
	'820000', '540000', 'ANZ', '3400',
	'10000', '1800',
	'2900',
];

/** The records of `type` some person of the deal owns (through its owner records). */
function ownedBy(sandbox: Sandbox, type: string, contactIds: readonly string[]): Array<{ record: StoredResource; owners: string[] }> {
	return sandbox.data
		.list(type)
		.map((record) => ({
			record,
			owners: ((record.relationships.ownership ?? []) as Array<{ id: string }>).map((owner) => relatedId(sandbox.data.get('owners', owner.id), 'contact') ?? ''),
		}))
		.filter(({ owners }) => owners.some((owner) => contactIds.includes(owner)));
}

/** Under `n8n start`: the form sent twice; returns problems. */
export async function checkFactFindForm(port: number, sandbox: Sandbox, scenario: FactFindScenario): Promise<string[]> {
	const problems: string[] = [];
	const dealId = String(Math.max(...sandbox.data.idsOf('deals').map(Number)) + 1);
	const submissions = [
		{ values: FORM, requests: ['GET /jsonapi/deal-external-references → 200', 'POST /jsonapi/structured-leads → 201', `GET /jsonapi/deals/${dealId} → 200`] },
		// The same household again, the e-mail typed differently: found, nothing written.
		{ values: [FORM[0], FORM[1], ' Aroha.Ngata@FactFind.example.com', ...FORM.slice(3)], requests: ['GET /jsonapi/deal-external-references → 200', `GET /jsonapi/deals/${dealId} → 200`] },
	];
	// The published triggers keep polling meanwhile; only this form's requests count here.
	const isFormRequest = (request: LoggedRequest) =>
		request.path === '/jsonapi/structured-leads' ||
		(/^\/jsonapi\/deals\/\d+$/.test(request.path) && request.query.include === 'contacts') ||
		(request.path === '/jsonapi/deal-external-references' && String(request.query.filter ?? '').includes('FACTFIND-'));
	const reports = await postForms(port, sandbox, scenario, submissions, isFormRequest, problems);
	if (reports === undefined) return problems;
	const [first, second] = (reports as Array<{ factFind?: IDataObject }>).map((report) => report.factFind);
	if (first?.outcome !== 'created' || first?.id !== dealId || first?.dealId !== dealId) problems.push(`submission 1 reported ${JSON.stringify(first).slice(0, 400)}, expected a created fact find of deal ${dealId}`);
	if (second?.outcome !== 'found' || second?.dealId !== dealId) problems.push(`submission 2 reported ${JSON.stringify(second).slice(0, 400)}, expected deal ${dealId}, found`);
	// The example's Fact Find → Create is at the newest version (1.2): Lead → Create's one shape, created or found, then the contacts.
	const columns = (item?: IDataObject) => Object.keys(item ?? {}).join(',');
	if (columns(first) !== columns(second) || columns(first) !== 'outcome,matchCount,id,dealId,customStatusName,dealStatus,contacts') {
		problems.push(`the fact find's columns: created ${columns(first)}, found ${columns(second)}; expected outcome,matchCount,id,dealId,customStatusName,dealStatus,contacts both times`);
	}
	const contacts = (first?.contacts ?? []) as IDataObject[];
	const people = contacts.map((contact) => [contact.entryName, contact.email, contact.outcome]);
	if (JSON.stringify(people) !== JSON.stringify([['Applicant 1', 'aroha.ngata@factfind.example.com', 'created'], ['Applicant 2', 'tama.ngata@factfind.example.com', 'created']])) {
		problems.push(`submission 1 reported the contacts ${JSON.stringify(people)}, expected Applicant 1 and Applicant 2 with their e-mails, both created`);
	}
	if (JSON.stringify(second?.contacts) !== JSON.stringify(first?.contacts)) problems.push('submission 2 reported other contacts than submission 1');
	// What the service holds: the deal, its contacts in one client, the incomes and the rest.
	const deal = sandbox.data.get('deals', dealId);
	if (deal?.attributes.dealStatus !== 'NewLeads') problems.push(`deal ${dealId} is ${String(deal?.attributes.dealStatus)}, expected NewLeads`);
	const contactIds = ((deal?.relationships.contacts ?? []) as Array<{ id: string }>).map((contact) => contact.id);
	if (JSON.stringify(contactIds) !== JSON.stringify(contacts.map((contact) => contact.id))) problems.push(`deal ${dealId} has the contacts ${JSON.stringify(contactIds)}, the workflow reported ${JSON.stringify(contacts.map((contact) => contact.id))}`);
	const groups = new Set(contactIds.map((id) => (sandbox.data.get('contacts', id)?.relationships.contactGroup as { id: string } | null | undefined)?.id));
	if (groups.size !== 1) problems.push(`the two people are in ${groups.size} contact groups, expected one client`);
	const incomes = ownedBy(sandbox, 'incomes', contactIds).map(({ record, owners }) => [record.attributes.incomeType, record.attributes.value, record.attributes.frequency, owners]);
	const expectedIncomes = [
		['Base salary', 91000, 'Yearly', [contactIds[0]]],
		['Base salary', 78500, 'Yearly', [contactIds[1]]],
	];
	if (JSON.stringify(incomes) !== JSON.stringify(expectedIncomes)) problems.push(`the incomes read back are ${JSON.stringify(incomes)}, expected ${JSON.stringify(expectedIncomes)}`);
	const [home] = ownedBy(sandbox, 'assets', contactIds);
	const liabilities = ownedBy(sandbox, 'liabilities', contactIds).map(({ record, owners }) => [record.attributes.liabilityType, record.attributes.value, relatedId(record, 'linkedAsset') ?? null, owners.length]);
	const expectedLiabilities = [
		['Mortgage loan', 540000, home?.record.id ?? 'the home', 2],
		['Credit card', 1800, null, 1],
	];
	if (home?.record.attributes.value !== 820000 || home.owners.length !== 2) problems.push(`the home read back is ${JSON.stringify(home?.record.attributes ?? null).slice(0, 300)}, expected a value of 820000 owned by both`);
	if (JSON.stringify(liabilities) !== JSON.stringify(expectedLiabilities)) problems.push(`the liabilities read back are ${JSON.stringify(liabilities)}, expected ${JSON.stringify(expectedLiabilities)}`);
	const expenses = ownedBy(sandbox, 'expenses', contactIds).map(({ record }) => [record.attributes.expenseType, record.attributes.value, record.attributes.frequency]);
	if (JSON.stringify(expenses) !== JSON.stringify([['General living expenses', 2900, 'Monthly']])) problems.push(`the expenses read back are ${JSON.stringify(expenses)}, expected General living expenses 2900 Monthly`);
	return problems;
}
