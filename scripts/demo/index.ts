/**
 * `npm run demo`: six example workflows run through n8n-core's real engine (the engine harness in
 * harness/) against the embedded sandbox, their output printed as tables. No credentials, no
 * internet, nothing beyond `npm ci`.
 *
 *   1. Deals settled this month → one line per deal
 *   2. Web form → contact + external reference (the Loan CRM part of examples/web-form-to-contact.json),
 *      then the same form sent again: If Already Exists → Return Existing finds the first contact
 *   3. Web form → lead + note (the Loan CRM part of examples/web-form-to-lead.json), the same form
 *      sent twice: Lead → Create with If Already Exists → Return Existing gives one lead
 *   4. Web form → lead routed to the right adviser (examples/lead-routing.json whole, with n8n's own
 *      Switch and Edit Fields nodes): three submissions from three areas, three advisers
 *   5. Web form for two applicants → one fact find (examples/fact-find-to-crm.json's Loan CRM part):
 *      people, address, jobs, incomes, home, loan, card and expenses in one request, the form sent twice
 *   6. Update a task's progress
 */
import './env';

import type { IDataObject, INode } from 'n8n-workflow';

import type { WorkflowRunResult } from '../../harness';
import { CredentialStore, START_NODE_TYPE, defaultRegistry, registerFlowNodes, runWorkflow, sandboxCredential } from '../../harness';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { relatedId } from '../e2e/check-helpers';
import type { ExampleWorkflow } from '../e2e/examples';
import { FORM_TRIGGER_TYPE, adaptExample, isLoanCrmNode } from '../e2e/examples';
import { chain, loanCrmNode } from '../e2e/workflows';
import { heading, money, printTable } from './table';

function start(name: string, items: IDataObject[]): INode {
	return { id: `start-${name}`, name, type: START_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: { items: JSON.stringify(items) } };
}

/** The Loan CRM part of an example: its Form Trigger and Loan CRM nodes (with `set` on the nodes it names). */
function formAndLoanCrmNodes(file: string, set?: Record<string, INode['parameters']>): ExampleWorkflow {
	return adaptExample(file, { keep: (node) => node.type === FORM_TRIGGER_TYPE || isLoanCrmNode(node), set });
}

/** Runs the example with its Form Trigger replaced by a node that emits `submissions`. */
async function submit(example: ExampleWorkflow, submissions: IDataObject[], store: CredentialStore): Promise<WorkflowRunResult> {
	const nodes = example.nodes.map((node) => (node.type === FORM_TRIGGER_TYPE ? start(node.name, submissions) : node));
	return await runWorkflow({ nodes, connections: example.connections }, { credentials: store });
}

function json(result: WorkflowRunResult, node: string): IDataObject[] {
	return result.output(node).map((item) => item.json);
}

/** Stops the demo with the execution's error, the way n8n would show it. */
function ensureRan(result: WorkflowRunResult, what: string): void {
	if (!result.error) return;
	const error = result.error as { message?: string; description?: string; node?: { name?: string } };
	throw new Error(`${what} failed in node "${error.node?.name ?? '?'}": ${error.message}${error.description ? `\n  ${error.description}` : ''}`);
}

/** 1. Deals settled this month → one line per deal. */
async function settledThisMonth(sandbox: Sandbox, store: CredentialStore): Promise<void> {
	const now = new Date();
	const month = now.toISOString().slice(0, 7);
	const monthStart = `${month}-01`;
	heading(
		'1. Deals settled this month → one line per deal',
		`Loan CRM Deals › Deal › Get Many, Filter and(equals(dealStatus,'Settled'),greaterOrEqual(updated,'${monthStart}')), Return All.\n` +
			'(The sandbox first settles four deals this month, as brokers would during the month.)',
	);
	// Settle four open deals on different days of this month.
	const open = sandbox.data.list('deals').filter((deal) => !['Settled', 'NotProceeding'].includes(deal.attributes.dealStatus)).slice(4, 8);
	open.forEach((deal, index) => {
		const day = String(Math.min(now.getUTCDate(), 1 + index * 3)).padStart(2, '0');
		sandbox.data.updateDeal(deal.id, { dealStatus: 'Settled', dates: { ...deal.attributes.dates, settled: `${month}-${day}T10:00:00` } });
	});

	const result = await runWorkflow(
		{
			nodes: [
				start('Every morning', [{}]),
				loanCrmNode(
					'Settled deals this month',
					'loanCrmDeals',
					{
						resource: 'deal',
						operation: 'getMany',
						returnAll: true,
						options: {
							filter: `and(equals(dealStatus,'Settled'),greaterOrEqual(updated,'${monthStart}'))`,
							fields: 'name,dealStatus,dates,totalLoanAmount,lenderName,updated',
							sort: '-updated',
						},
					},
					{ position: [300, 0] },
				),
			],
			connections: chain('Every morning', 'Settled deals this month'),
		},
		{ credentials: store },
	);
	ensureRan(result, 'Settled deals this month');
	const settledOn = (deal: IDataObject) => String((deal.dates as IDataObject | null)?.settled ?? '');
	const deals = json(result, 'Settled deals this month')
		.filter((deal) => settledOn(deal).startsWith(month))
		.sort((a, b) => settledOn(a).localeCompare(settledOn(b)));
	printTable(deals, {
		'Deal ID': (deal) => deal.id,
		Deal: (deal) => deal.name,
		Lender: (deal) => deal.lenderName,
		'Total loan': (deal) => money(deal.totalLoanAmount),
		'Settled on': (deal) => String((deal.dates as IDataObject).settled).slice(0, 10),
	});
	console.log('\n  One line per deal, e.g. for a Slack or e-mail node:');
	for (const deal of deals) {
		const settled = String((deal.dates as IDataObject).settled).slice(0, 10);
		console.log(`  • ${deal.name ?? `Deal ${String(deal.id)}`} settled ${settled}${deal.lenderName ? ` with ${String(deal.lenderName)}` : ''} — ${money(deal.totalLoanAmount) || 'amount n/a'} (deal ${String(deal.id)})`);
	}
}

/** 2. The Loan CRM nodes of examples/web-form-to-contact.json, fed two form submissions. */
async function webFormToContact(sandbox: Sandbox, store: CredentialStore): Promise<void> {
	const ids = sandbox.data.ids;
	const example = formAndLoanCrmNodes('web-form-to-contact.json', { 'Record the form on the deal': { integrationId: ids.otherIntegration } });
	heading(
		'2. Web form → contact + external reference',
		`examples/web-form-to-contact.json with its Form Trigger replaced by two submissions: Loan CRM Contacts › Contact › Create,\n` +
			`then Loan CRM Deals › Deal External Reference › Create on the deal named in the form (Integration ID set to the sandbox's ${ids.otherIntegration}).\n` +
			'Both nodes have If Already Exists → Return Existing: a contact with the same e-mail is returned, not created again.',
	);
	const submissions = [
		{ 'First name': 'Aroha', 'Last name': 'Ngata', Email: ' Aroha.Ngata@Example.com ', Mobile: '+61 412 345 678', 'Deal number': Number(ids.dealWithNotes), 'I agree to receive marketing messages': 'Yes', submittedAt: new Date().toISOString(), formMode: 'production' },
		{ 'First name': 'Liam', 'Last name': "O'Connor", Email: 'liam.oconnor@example.com', Mobile: '0400 111 222', 'Deal number': Number(ids.dealWithoutCustomStatus), 'I agree to receive marketing messages': 'No', submittedAt: new Date().toISOString(), formMode: 'production' },
	];
	const send = async (batch: IDataObject[]) => {
		const result = await submit(example, batch, store);
		ensureRan(result, 'Web form → contact');
		const contacts = json(result, 'Create contact');
		printTable(contacts, {
			'Contact ID': (c) => c.id,
			Outcome: (c) => c.outcome,
			'First name': (c) => c.firstName,
			'Last name': (c) => c.lastName,
			Email: (c) => c.email,
			Mobile: (c) => c.mobile,
			Marketing: (c) => (c.hasMarketingConsent ? 'yes' : 'no'),
		});
		const references = json(result, 'Record the form on the deal');
		printTable(
			references.map((reference, index) => ({ ...reference, dealNumber: batch[index]?.['Deal number'] })),
			{
				'Reference ID': (r) => r.id,
				Outcome: (r) => r.outcome,
				'External reference': (r) => r.externalReference,
				'Deal (from the form)': (r) => r.dealNumber,
			},
		);
		return { contacts, references };
	};
	const first = await send(submissions);
	const stored = first.references.map((reference) => sandbox.data.get('deal-external-references', String(reference.id)));
	console.log(
		`  Stored in Loan CRM: ${stored.map((record) => `${String(record?.attributes.externalReference)} → deal ${String(relatedId(record, 'deal'))}`).join(', ')}`,
	);

	// Aroha sends the form again, her e-mail typed in another case.
	const again = { ...submissions[0], Email: 'AROHA.NGATA@example.com', submittedAt: new Date().toISOString() };
	console.log(`\n  The same form sent again by ${again['First name']} (${again.Email}):`);
	const second = await send([again]);
	const [firstContact] = first.contacts;
	const [secondContact] = second.contacts;
	if (secondContact?.id !== firstContact?.id || secondContact?.outcome !== 'found') {
		throw new Error(`the second submission gave contact ${String(secondContact?.id)} (${String(secondContact?.outcome)}), expected the first one, ${String(firstContact?.id)}, found`);
	}
	const email = String(firstContact.email).toLowerCase();
	const sameEmail = sandbox.data.list('contacts').filter((contact) => String(contact.attributes.email ?? '').toLowerCase() === email);
	const sameReference = sandbox.data.list('deal-external-references').filter((record) => record.attributes.externalReference === first.references[0]?.externalReference);
	console.log(`  Returned the first contact (#${String(firstContact.id)}); Loan CRM holds ${sameEmail.length} contact with ${email} and ${sameReference.length} reference ${String(first.references[0]?.externalReference)}.`);
}

/** 3. The Loan CRM nodes of examples/web-form-to-lead.json, the same form sent twice. */
async function webFormToLead(sandbox: Sandbox, store: CredentialStore): Promise<void> {
	const example = formAndLoanCrmNodes('web-form-to-lead.json');
	heading(
		'3. Web form → lead + note (the same form sent twice)',
		'examples/web-form-to-lead.json with its Form Trigger replaced by a submission (and no Slack): Loan CRM Leads & Tasks › Lead › Create\n' +
			'(If Already Exists → Return Existing, keyed by the external reference WEBFORM-<e-mail>-<day> of the integration Website Form),\n' +
			"then Loan CRM Deals › Deal Note › Create with the form's message. Both operations come from the service's public API description.",
	);
	const submission = {
		'First name': 'Mei',
		'Last name': 'Chen',
		Email: 'Mei.Chen@example.com ',
		Mobile: '0422 333 444',
		'How can we help?': 'First home, about $650k, pre-approval please',
		'I agree to receive marketing messages': 'Yes',
		submittedAt: new Date().toISOString(),
		formMode: 'production',
	};
	const dealsBefore = sandbox.data.count('deals');
	const rows: IDataObject[] = [];
	for (const [label, sent] of [
		['first', submission],
		['again', { ...submission, Email: 'MEI.CHEN@example.com', submittedAt: new Date().toISOString() }],
	] as const) {
		const result = await submit(example, [sent], store);
		ensureRan(result, 'Web form → lead');
		const [lead] = json(result, 'Create lead');
		const [note] = json(result, 'Add the message to the deal');
		rows.push({ label, email: sent.Email, lead, note });
	}
	printTable(rows, {
		Submission: (r) => r.label,
		Email: (r) => r.email,
		'Deal ID': (r) => (r.lead as IDataObject).dealId,
		Outcome: (r) => (r.lead as IDataObject).outcome,
		Status: (r) => (r.lead as IDataObject).dealStatus,
		'Note ID': (r) => (r.note as IDataObject).id,
	});
	const dealIds = rows.map((row) => String((row.lead as IDataObject).dealId));
	if (dealIds[0] !== dealIds[1] || (rows[1].lead as IDataObject).outcome !== 'found') throw new Error(`the same form gave deals ${dealIds.join(' and ')}, expected one lead`);
	const notes = sandbox.data.list('deal-notes').filter((note) => relatedId(note, 'deal') === dealIds[0]);
	console.log(`  One lead: Loan CRM holds ${sandbox.data.count('deals') - dealsBefore} new deal (#${dealIds[0]}, New Leads) with ${notes.length} notes, one per submission.`);
}

/** 4. examples/lead-routing.json, three submissions from three areas. */
async function leadRouting(sandbox: Sandbox, store: CredentialStore): Promise<void> {
	// n8n's own Switch and Edit Fields nodes (n8n-nodes-base, a devDependency), in the same engine.
	registerFlowNodes(defaultRegistry());
	const example = adaptExample('lead-routing.json', { keep: (node) => node.type !== 'n8n-nodes-base.stickyNote' });
	heading(
		'4. Web form → lead routed to the right adviser (three areas, three advisers)',
		'examples/lead-routing.json with its Form Trigger replaced by three submissions: a Switch on the post code, an Edit Fields node naming the\n' +
			"area's adviser by e-mail, Loan CRM Leads & Tasks › Lead › Create with Allocate To (By Name or E-mail) and Enquiry Source (By Name,\n" +
			'from "How did you hear about us?"): each lead goes to its adviser, sent as its request\'s UserId.',
	);
	const submission = (first: string, last: string, postCode: string, heard: string) => ({
		'First name': first,
		'Last name': last,
		Email: `${first}.${last}@example.com`.toLowerCase(),
		Mobile: '0412 555 010',
		'Post code': postCode,
		'How did you hear about us?': heard,
		'How can we help?': 'Looking to buy our first home',
		submittedAt: new Date().toISOString(),
		formMode: 'production',
	});
	const submissions = [submission('Ruby', 'Tan', '2010', 'Google'), submission('Sam', 'Kowalski', '2500', 'A friend or family member'), submission('Tia', 'Ngata', '4000', 'A comparison site')];
	const adviserName = (contactId: unknown) => {
		const details = sandbox.data.get('adviser-details', String(contactId))?.attributes;
		return details === undefined ? String(contactId) : `${String(details.firstName)} ${String(details.lastName)}`;
	};
	const rows: IDataObject[] = [];
	for (const sent of submissions) {
		const before = sandbox.apiRequests().length;
		const result = await submit(example, [sent], store);
		ensureRan(result, 'Web form → the right adviser');
		const [lead] = json(result, 'Create lead for the adviser');
		const requests = sandbox.apiRequests().slice(before);
		const post = requests.find((request) => request.method === 'POST' && request.path === '/jsonapi/leads');
		const attributes = (post?.json as { data?: { attributes?: IDataObject } } | undefined)?.data?.attributes ?? {};
		const source = sandbox.data.list('enquiry-source').find((record) => record.attributes.sourceId === attributes.sourceId)?.attributes;
		const deal = sandbox.data.get('deals', String(lead?.dealId));
		const dealAdviser = (deal?.relationships.adviser as { id: string } | null | undefined)?.id;
		const allocated = sandbox.data.list('adviser-details').find((details) => relatedId(details, 'adviser') === dealAdviser);
		rows.push({
			name: `${sent['First name']} ${sent['Last name']}`,
			postCode: sent['Post code'],
			heard: sent['How did you hear about us?'],
			userId: post?.headers.userid,
			dealId: lead?.dealId,
			allocated: allocated === undefined ? '?' : adviserName(allocated.id),
			source: source === undefined ? '' : `${String(source.sourceCategoryName)} › ${String(source.sourceName)}`,
			lookups: requests.filter((request) => request.method === 'GET').length,
		});
	}
	printTable(rows, {
		Submission: (r) => r.name,
		'Post code': (r) => r.postCode,
		'Heard of us': (r) => r.heard,
		'UserId sent': (r) => `${String(r.userId)} (${adviserName(r.userId)})`,
		'Deal ID': (r) => r.dealId,
		'Deal allocated to': (r) => r.allocated,
		'Enquiry source': (r) => r.source,
	});
	const advisers = new Set(rows.map((row) => row.allocated));
	if (advisers.size !== 3 || rows.some((row) => row.allocated !== adviserName(row.userId))) throw new Error(`the three leads went to ${[...advisers].join(', ')}, expected three advisers, each the one its request named`);
	console.log(`  Three areas, three advisers; each submission made ${rows.map((row) => String(row.lookups)).join(', ')} look-ups (the adviser by e-mail, the enquiry source by name, If Already Exists) before its one POST /jsonapi/leads.`);
}

/** 5. A web form for two applicants → one fact find (examples/fact-find-to-crm.json), sent twice. */
async function factFind(sandbox: Sandbox, store: CredentialStore): Promise<void> {
	const example = formAndLoanCrmNodes('fact-find-to-crm.json');
	heading(
		'5. Web form for two applicants → fact find (the same form sent twice)',
		'examples/fact-find-to-crm.json with its Form Trigger replaced by a submission (and no Slack): Loan CRM Leads & Tasks › Fact Find › Create,\n' +
			'manual mapping: People, Addresses, Employments, Incomes, Assets, Liabilities and Expenses, each entry named (Applicant 1, Home, …) and linked by name;\n' +
			'If Already Exists → Return Existing, keyed by FACTFIND-<e-mail>-<day> of the integration Website Form. From the service\'s public API description.',
	);
	const submission = {
		'First name': 'Mele',
		'Last name': 'Tupou',
		Email: 'mele.tupou@example.com',
		Mobile: '0412 000 301',
		'Date of birth': '1988-04-12',
		Employer: 'NSW Health',
		'Annual income before tax': 98000,
		'Partner first name': 'Sione',
		'Partner last name': 'Tupou',
		'Partner email': 'sione.tupou@example.com',
		'Partner mobile': '',
		'Partner employer': 'Telstra',
		'Partner annual income before tax': 87000,
		'Street address': '12 Wattle St',
		Suburb: 'Parramatta',
		State: 'NSW',
		'Post code': '2150',
		'What your home is worth': 950000,
		'Home loan balance': 610000,
		'Home loan lender': 'Westpac',
		'Monthly home loan repayment': 3900,
		'Credit card limit': 12000,
		'Credit card balance': 2300,
		'Monthly living expenses': 3200,
		submittedAt: new Date().toISOString(),
		formMode: 'production',
	};
	const dealsBefore = sandbox.data.count('deals');
	const found: IDataObject[] = [];
	for (const sent of [submission, { ...submission, submittedAt: new Date().toISOString() }]) {
		const result = await submit(example, [sent], store);
		ensureRan(result, 'Web form → fact find');
		found.push(...json(result, 'Create fact find'));
	}
	const [created, again] = found;
	if (created.dealId !== again.dealId || again.outcome !== 'found') throw new Error(`the same form gave deals ${String(created.dealId)} and ${String(again.dealId)}, expected one fact find`);
	const contacts = (created.contacts ?? []) as IDataObject[];
	printTable(contacts, {
		'Entry Name': (c) => c.entryName,
		'Contact ID': (c) => c.id,
		Contact: (c) => c.outcome,
		Name: (c) => `${String(c.firstName)} ${String(c.lastName)}`,
		Email: (c) => c.email,
	});
	// What Loan CRM now holds for the household, read back through the owners of each record.
	const ownerNames = (record: { relationships: Record<string, unknown> }) =>
		((record.relationships.ownership ?? []) as Array<{ id: string }>)
			.map((owner) => relatedId(sandbox.data.get('owners', owner.id), 'contact'))
			.map((id) => contacts.find((contact) => contact.id === id)?.entryName)
			.join(' & ');
	const ours = (type: string) => sandbox.data.list(type).filter((record) => ownerNames(record) !== '');
	printTable(
		[
			...ours('incomes').map((record) => ({ kind: 'Income', type: record.attributes.incomeType, value: record.attributes.value, per: record.attributes.frequency, owners: ownerNames(record) })),
			...ours('assets').map((record) => ({ kind: 'Asset', type: record.attributes.assetType, value: record.attributes.value, per: '', owners: ownerNames(record) })),
			...ours('liabilities').map((record) => ({ kind: 'Liability', type: record.attributes.liabilityType, value: record.attributes.value, per: '', owners: ownerNames(record) })),
			...ours('expenses').map((record) => ({ kind: 'Expense', type: record.attributes.expenseType, value: record.attributes.value, per: record.attributes.frequency, owners: ownerNames(record) })),
		],
		{ Record: (r) => r.kind, Type: (r) => r.type, Value: (r) => money(r.value), Per: (r) => r.per, Owners: (r) => r.owners },
	);
	console.log(
		`  One fact find: Loan CRM holds ${sandbox.data.count('deals') - dealsBefore} new deal (#${String(created.dealId)}, New Leads) with ${contacts.length} contacts in one client; ` +
			`the second submission found it (outcome ${String(again.outcome)}).`,
	);
}

/** 6. Update a task's progress. */
async function taskProgress(sandbox: Sandbox, store: CredentialStore): Promise<void> {
	const ids = sandbox.data.ids;
	heading(
		"6. Update a task's progress",
		'Loan CRM Leads & Tasks › Task › Update, Update Fields Progress / Priority / Due Date from each incoming item.',
	);
	const changes = [
		{ taskId: ids.task, progress: 'Completed', priority: 'High', dueDate: '2026-12-01T09:30:00Z' },
		{ taskId: ids.taskWithDeal, progress: 'InProgress', priority: 'Medium', dueDate: '2026-12-15T17:00:00Z' },
	];
	const before = changes.map((change) => sandbox.data.get('tasks', change.taskId)?.attributes ?? {});
	const result = await runWorkflow(
		{
			nodes: [
				start('Task changes', changes),
				loanCrmNode(
					'Update task',
					'loanCrmLeadsAndTasks',
					{
						resource: 'task',
						operation: 'update',
						taskId: '={{ $json.taskId }}',
						updateFields: { progress: '={{ $json.progress }}', priority: '={{ $json.priority }}', dueDate: '={{ $json.dueDate }}' },
					},
					{ position: [300, 0] },
				),
			],
			connections: chain('Task changes', 'Update task'),
		},
		{ credentials: store },
	);
	ensureRan(result, 'Update task');
	const tasks = json(result, 'Update task');
	printTable(
		tasks.map((task, index) => ({ ...task, before: before[index] })),
		{
			'Task ID': (t) => t.id,
			Title: (t) => t.title,
			Progress: (t) => `${String((t.before as IDataObject).progress)} → ${String(t.progress)}`,
			Priority: (t) => `${String((t.before as IDataObject).priority)} → ${String(t.priority)}`,
			'Due (UTC)': (t) => String(t.dueDate ?? '').slice(0, 16),
		},
	);
}

async function main(): Promise<void> {
	const started = Date.now();
	const sandbox = await startSandbox({});
	const store = new CredentialStore();
	store.add('loanCrmOAuth2Api', sandboxCredential(sandbox));
	console.log('Loan CRM nodes demo: n8n-core engine + the embedded sandbox (no account, no internet)');
	console.log(`Sandbox at ${sandbox.baseUrl} with ${sandbox.data.count('deals')} deals and ${sandbox.data.count('contacts')} contacts.`);
	try {
		await settledThisMonth(sandbox, store);
		await webFormToContact(sandbox, store);
		await webFormToLead(sandbox, store);
		await leadRouting(sandbox, store);
		await factFind(sandbox, store);
		await taskProgress(sandbox, store);
		const api = sandbox.apiRequests();
		console.log(
			`\n${api.length} API requests (${api.map((request) => `${request.method} ${request.path.replace('/jsonapi', '')}`).join(', ')}), ` +
				`${sandbox.tokenRequests().length} token request(s), ${((Date.now() - started) / 1000).toFixed(1)} s.`,
		);
		console.log('Try the nodes in n8n itself: npm run dev');
	} finally {
		await sandbox.close();
	}
}

main().catch((error: unknown) => {
	console.error(`\nDemo failed: ${error instanceof Error ? error.message : String(error)}`);
	process.exitCode = 1;
});
