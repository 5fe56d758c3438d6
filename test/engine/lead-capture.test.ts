/**
 * Lead capture (from the service's public API description, not the seed): Lead → Create with its
 * fields, value pickers, Match Existing Contact By and If Already Exists (through the deal external
 * reference the lead creates), and Deal Note → Create. Run in n8n-core's engine against the
 * sandbox; every test asserts the requests the sandbox received and the items n8n produced.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import type { IConnections, IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { REPO_ROOT, START_NODE_TYPE, runPoll, runWorkflow } from '../../harness';
import { createToolRegistry, runAgent, toolAsTheEditorAddsIt } from '../../harness/tools';
import type { OperationKey } from '../../harness/operation-examples';
import { operationExamples } from '../../harness/operation-examples';
import type { LoggedRequest } from '../../sandbox';
import { decodedQuery, expectJsonApiHeaders, jsonOf, useSandbox } from './helpers';

const env = useSandbox();
const ids = () => env.sandbox.data.ids;

afterEach(() => {
	env.sandbox.setLatency(false);
	env.sandbox.data.reset();
});

function requestLines(): string[] {
	return env.sandbox.apiRequests().map((request) => `${request.method} ${request.path}${request.rawQuery === '' ? '' : `?${decodedQuery(request.rawQuery)}`}`);
}

const bodyOf = (request: LoggedRequest) => request.json as { data: { type: string; attributes: IDataObject; relationships?: IDataObject } };
const posts = () => env.sandbox.apiRequests().filter((request) => request.method === 'POST');

const referenceSearch = (reference: string, integration = 'MyIntegrationSource') =>
	`GET /jsonapi/deal-external-references?filter=and(equals(externalReference,'${reference}'),equals(integration.name,'${integration}'))&sort=id&include=deal&page[size]=100`;

/** A lead from each item's fields, keyed by its submission id. */
const leadPerItem = (ifAlreadyExists: string, requestsInParallel: number): INodeParameters => ({
	resource: 'lead',
	operation: 'create',
	firstName: '={{ $json.firstName }}',
	lastName: 'Submitter',
	email: '={{ $json.email }}',
	externalReference: '={{ $json.submissionId }}',
	externalIntegration: 'MyIntegrationSource',
	ifAlreadyExists,
	requestOptions: { requestsInParallel },
});

const example = (key: OperationKey) => operationExamples(ids())[key];

describe('Lead → Create', () => {
	it("sends the person, the match setting, the reference and Additional Fields as one leads document; the item is the lead with its deal's id", async () => {
		const { node, parameters, request } = example('loanCrmLeadsAndTasks/lead.create');
		const deals = env.sandbox.data.count('deals');
		const result = await env.run(node, parameters);
		expect(result.error).toBeUndefined();
		expect(requestLines()).toEqual(['POST /jsonapi/leads']);
		const [post] = posts();
		// Allocated to the example's adviser (Allocate To), not the credential's.
		const allocatedTo = 'userId' in request ? request.userId : undefined;
		expect(allocatedTo).toBe(ids().adviserContactIds[1]);
		expectJsonApiHeaders(String(allocatedTo), post, true);
		// The document the example states once (harness/operation-examples.ts), for the engine tests and the e2e.
		expect(bodyOf(post)).toEqual('body' in request ? request.body : 'the example states no body');
		expect(env.sandbox.data.count('deals')).toBe(deals + 1);
		const items = jsonOf(result);
		expect(items).toHaveLength(1);
		const id = String(items[0].id);
		// A new node (version 1.2, Simplify on): the lead's own columns, the deal's id beside its id.
		expect(items[0]).toEqual({ id, dealId: id, customStatusName: null, dealStatus: 'NewLeads' });
		expect(Object.keys(items[0])).toEqual(['id', 'dealId', 'customStatusName', 'dealStatus']);
		expect(env.sandbox.data.get('deals', id)?.attributes).toMatchObject({ dealStatus: 'NewLeads', name: 'Flintstone, Fred' });
		// The deal is the allocated adviser's: the family id of the adviser-details record picked.
		const details = env.sandbox.data.get('adviser-details', String(allocatedTo));
		expect(env.sandbox.data.get('deals', id)?.relationships.adviser).toEqual(details?.relationships.adviser);

		// Version 1.1 (saved workflows): the lead as the service answered, with its type.
		const saved = jsonOf(await env.run(node, { ...parameters, externalReference: 'FORM-0002' }, { typeVersion: 1.1 }));
		const savedId = String(saved[0].id);
		expect(saved[0]).toEqual({ id: savedId, type: 'leads', dealId: savedId, dealStatus: 'NewLeads', customStatusName: null });
		expect(Object.keys(saved[0]).slice(0, 3)).toEqual(['id', 'type', 'dealId']);
	});

	it('Match Existing Contact By starts on Email and is sent when not changed; an existing e-mail gives no new contact', async () => {
		const existing = env.sandbox.data.get('contacts', ids().contact);
		const email = String(existing?.attributes.email);
		const contacts = env.sandbox.data.count('contacts');
		const result = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'create', firstName: 'Someone', email: email.toUpperCase() });
		expect(result.error).toBeUndefined();
		expect(bodyOf(posts()[0]).data.attributes).toEqual({ firstName: 'Someone', email: email.toUpperCase(), contactMatchExisting: 'Email' });
		expect(env.sandbox.data.count('contacts')).toBe(contacts);
	});

	it('each enum value the pickers offer is one the service takes (one item per value)', async () => {
		const input = [
			{ title: 'Mr', gender: 'Male', maritalStatus: 'Single', addressType: 'Current', match: 'Email' },
			{ title: 'Mrs', gender: 'Female', maritalStatus: 'Married', addressType: 'Postal', match: 'EmailMobile' },
			{ title: 'Ms', gender: 'Undisclosed', maritalStatus: 'DeFacto', addressType: 'PostSettlement', match: 'EmailName' },
			{ title: 'Miss', gender: 'Male', maritalStatus: 'Separated', addressType: 'Previous', match: 'EmailMobileName' },
			{ title: 'Master', gender: 'Male', maritalStatus: 'Divorced', addressType: 'Other', match: 'EmailDateOfBirth' },
			{ title: 'Dr', gender: 'Female', maritalStatus: 'Widowed', addressType: 'Current', match: 'EmailDateOfBirthName' },
		];
		const result = await env.run(
			'loanCrmLeadsAndTasks',
			{
				resource: 'lead',
				operation: 'create',
				email: 'picker@example.com',
				contactMatchExisting: '={{ $json.match }}',
				additionalFields: { title: '={{ $json.title }}', gender: '={{ $json.gender }}', maritalStatus: '={{ $json.maritalStatus }}', addressType: '={{ $json.addressType }}', dateOfBirth: '1990-02-03' },
			},
			{ input },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((item) => item.dealStatus)).toEqual(input.map(() => 'NewLeads'));
		expect(posts().map((request) => bodyOf(request).data.attributes)).toEqual(
			input.map((values) => ({
				email: 'picker@example.com',
				contactMatchExisting: values.match,
				title: values.title,
				gender: values.gender,
				maritalStatus: values.maritalStatus,
				addressType: values.addressType,
				dateOfBirth: '1990-02-03',
			})),
		);
	});

	it('a value the service does not know fails with its 422 naming the parameter; Continue On Fail pairs it', async () => {
		const result = await env.run(
			'loanCrmLeadsAndTasks',
			{ resource: 'lead', operation: 'create', email: 'x@example.com', additionalFields: { title: '={{ $json.title }}' } },
			{ input: [{ title: 'Sir' }, { title: 'dr' }], continueOnFail: true },
		);
		const items = jsonOf(result);
		expect(items).toHaveLength(2);
		expect(String(items[0].error)).toContain('Title');
		// A known value written another way is sent as the service spells it.
		expect(items[1]).toMatchObject({ dealStatus: 'NewLeads' });
		expect(posts().map((request) => bodyOf(request).data.attributes.title)).toEqual(['Sir', 'Dr']);
	});

	it('an unknown integration: the service refuses it unless Additional Fields → External Integration Allow Create', async () => {
		const refused = await env.run('loanCrmLeadsAndTasks', {
			resource: 'lead',
			operation: 'create',
			email: 'y@example.com',
			externalReference: 'NEW-1',
			externalIntegration: 'Brand New Form',
		});
		expect(refused.error?.message).toContain('External Integration');
		const created = await env.run('loanCrmLeadsAndTasks', {
			resource: 'lead',
			operation: 'create',
			email: 'y@example.com',
			externalReference: 'NEW-1',
			externalIntegration: 'Brand New Form',
			additionalFields: { externalIntegrationAllowCreate: true },
		});
		expect(created.error).toBeUndefined();
		expect(bodyOf(posts()[1]).data.attributes.externalIntegrationAllowCreate).toBe(true);
	});

	it('over-long External Reference and External Integration fail before any request, naming the parameter', async () => {
		const long = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'create', email: 'z@example.com', externalReference: 'r'.repeat(256), externalIntegration: 'MyIntegrationSource' });
		expect(long.error?.message).toContain('External Reference');
		expect(long.error?.message).toContain('at most 255 characters');
		const integration = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'create', email: 'z@example.com', externalIntegration: 'i'.repeat(101) });
		expect(integration.error?.message).toContain('at most 100 characters');
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});
});

describe('a lead and the Loan CRM Deals Trigger', () => {
	it('Deal Created emits the lead as a new deal (its id the lead id), once', async () => {
		const state: IDataObject = {};
		const poll = async () => ((await runPoll({ nodeType: 'loanCrmDealsTrigger', parameters: { event: 'dealCreated' }, credentials: env.store, staticData: state }))?.[0] ?? []).map((item) => item.json);
		expect(await poll()).toEqual([]);
		env.clock.advance(5000);
		const lead = jsonOf(await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'create', firstName: 'Trigger', lastName: 'Test', email: 'trigger.test@example.com' }))[0];
		const emitted = await poll();
		expect(emitted.map((item) => item.id)).toEqual([lead.id]);
		expect(emitted[0]).toMatchObject({ dealStatus: 'NewLeads', name: 'Test, Trigger' });
		expect(await poll()).toEqual([]);
	});
});

describe('Lead → Create, If Already Exists (external reference + integration)', () => {
	const submission = (ifAlreadyExists: string) => ({
		resource: 'lead',
		operation: 'create',
		firstName: 'Fred',
		email: 'fred@bedrock.com',
		externalReference: ' FORM-0001 ',
		externalIntegration: 'MyIntegrationSource',
		ifAlreadyExists,
	});

	it('Create Another (the default) does not look: two posts, two leads', async () => {
		const { ifAlreadyExists: _mode, ...parameters } = submission('createAnother');
		await env.run('loanCrmLeadsAndTasks', parameters);
		const second = await env.run('loanCrmLeadsAndTasks', parameters);
		expect(requestLines()).toEqual(['POST /jsonapi/leads', 'POST /jsonapi/leads']);
		expect(jsonOf(second)[0]).not.toHaveProperty('outcome');
	});

	it('Return Existing: the first run searches and creates; the same form again returns the existing lead, writes nothing; created and found read the same', async () => {
		const first = await env.run('loanCrmLeadsAndTasks', submission('returnExisting'));
		const created = jsonOf(first)[0];
		expect(created).toEqual({ outcome: 'created', matchCount: 0, id: created.id, dealId: created.id, customStatusName: null, dealStatus: 'NewLeads' });
		// The reference trimmed in the search and in the lead.
		expect(bodyOf(posts()[0]).data.attributes.externalReference).toBe('FORM-0001');
		const deals = env.sandbox.data.count('deals');
		const again = await env.run('loanCrmLeadsAndTasks', submission('returnExisting'));
		expect(requestLines()).toEqual([referenceSearch('FORM-0001'), 'POST /jsonapi/leads', referenceSearch('FORM-0001')]);
		expect(env.sandbox.data.count('deals')).toBe(deals);
		const [found] = jsonOf(again);
		// One shape (version 1.2, Simplify on): the same columns in the same order, nothing nested.
		expect(found).toEqual({ ...created, outcome: 'found', matchCount: 1 });
		expect(Object.keys(found)).toEqual(Object.keys(created));
		expect(Object.values(found).filter((value) => value !== null && typeof value === 'object')).toEqual([]);
	});

	it('Simplify off (version 1.2), and version 1.1: the lead as the service answered, the deal found with every field', async () => {
		const created = jsonOf(await env.run('loanCrmLeadsAndTasks', { ...submission('returnExisting'), simplify: false }))[0];
		expect(created).toEqual({ outcome: 'created', matchCount: 0, id: created.id, type: 'leads', dealId: created.id, customStatusName: null, dealStatus: 'NewLeads' });
		for (const options of [{ parameters: { simplify: false } }, { parameters: {}, typeVersion: 1.1 }]) {
			env.sandbox.clearLog();
			const [found] = jsonOf(await env.run('loanCrmLeadsAndTasks', { ...submission('returnExisting'), ...options.parameters }, { typeVersion: options.typeVersion }));
			expect(requestLines()).toEqual([referenceSearch('FORM-0001')]);
			expect(found).toMatchObject({ outcome: 'found', matchCount: 1, id: created.id, type: 'deals', dealId: created.id, name: 'Fred', dealStatus: 'NewLeads' });
			expect(Object.keys(found).slice(0, 5)).toEqual(['outcome', 'matchCount', 'id', 'type', 'dealId']);
			expect(found.dates).toEqual(expect.any(Object));
		}
	});

	it('Stop With Error: fails naming the deal, nothing written; Continue On Fail gives the error item', async () => {
		await env.run('loanCrmLeadsAndTasks', submission('returnExisting'));
		const dealId = String(jsonOf(await env.run('loanCrmLeadsAndTasks', submission('returnExisting')))[0].id);
		env.sandbox.clearLog();
		const stopped = await env.run('loanCrmLeadsAndTasks', submission('stopWithError'));
		expect(stopped.error?.message).toBe(`Loan CRM already has a lead with this external reference and external integration: ID ${dealId}`);
		const continued = await env.run('loanCrmLeadsAndTasks', submission('stopWithError'), { continueOnFail: true });
		expect(jsonOf(continued)).toEqual([expect.objectContaining({ error: stopped.error?.message })]);
		expect(requestLines()).toEqual([referenceSearch('FORM-0001'), referenceSearch('FORM-0001')]);
	});

	it('an item without an external reference is created without a search, and says so (version 1.2); version 1.1 says only created', async () => {
		const result = await env.run('loanCrmLeadsAndTasks', { ...submission('returnExisting'), externalReference: '' });
		expect(requestLines()).toEqual(['POST /jsonapi/leads']);
		const [item] = jsonOf(result);
		expect(item).toEqual({
			outcome: 'created',
			matchCount: null,
			notSearched: 'External Reference is empty: Loan CRM was not searched',
			id: item.id,
			dealId: item.id,
			customStatusName: null,
			dealStatus: 'NewLeads',
		});
		// Both empty: both named. An expression that gives an empty value counts as empty.
		env.sandbox.clearLog();
		const neither = await env.run('loanCrmLeadsAndTasks', { ...submission('stopWithError'), externalReference: '={{ "" }}', externalIntegration: ' ' });
		expect(requestLines()).toEqual(['POST /jsonapi/leads']);
		expect(jsonOf(neither)[0].notSearched).toBe('External Reference and External Integration are empty: Loan CRM was not searched');
		env.sandbox.clearLog();
		const saved = await env.run('loanCrmLeadsAndTasks', { ...submission('returnExisting'), externalReference: '' }, { typeVersion: 1.1 });
		expect(requestLines()).toEqual(['POST /jsonapi/leads']);
		expect(jsonOf(saved)[0]).toMatchObject({ outcome: 'created', matchCount: 0 });
		expect(jsonOf(saved)[0]).not.toHaveProperty('notSearched');
	});

	const input = [
		{ firstName: 'Aroha', email: 'aroha@example.com', submissionId: 'S-1' },
		{ firstName: 'Ben', email: 'ben@example.com', submissionId: 'S-2' },
		{ firstName: 'Aroha again', email: 'aroha@example.com', submissionId: 's-1' },
		{ firstName: 'Cara', email: 'cara@example.com', submissionId: 'S-3' },
		{ firstName: 'Ben again', email: 'ben@example.com', submissionId: 'S-2' },
	];
	for (const parallel of [1, 4]) {
		it(`Requests in Parallel ${parallel}: one lead per submission; the later item finds what the earlier one created`, async () => {
			env.sandbox.setLatency({ ms: 15, jitterMs: 10 });
			const deals = env.sandbox.data.count('deals');
			const result = await env.run('loanCrmLeadsAndTasks', leadPerItem('returnExisting', parallel), { input });
			expect(result.error).toBeUndefined();
			const items = jsonOf(result);
			expect(items).toHaveLength(input.length);
			expect(result.items.map((item) => item.pairedItem)).toEqual(input.map((_, index) => ({ item: index })));
			expect(items.map((item) => item.outcome)).toEqual(['created', 'created', 'found', 'created', 'found']);
			expect(items[2]).toMatchObject({ id: items[0].id, dealId: items[0].id, matchCount: 1 });
			expect(items[4]).toMatchObject({ id: items[1].id, dealId: items[1].id, matchCount: 1 });
			expect(env.sandbox.data.count('deals')).toBe(deals + 3);
			const requests = env.sandbox.apiRequests();
			expect(requests.filter((request) => request.method === 'GET')).toHaveLength(5);
			expect(posts().map((request) => bodyOf(request).data.attributes.externalReference).sort()).toEqual(['S-1', 'S-2', 'S-3']);
			const createOf = (reference: string) => posts().find((request) => bodyOf(request).data.attributes.externalReference === reference) as LoggedRequest;
			const searches = (reference: string) => requests.filter((request) => request.method === 'GET' && String(request.query.filter).includes(`'${reference}'`));
			for (const [reference, later] of [['S-1', 's-1'], ['S-2', 'S-2']]) {
				const laterSearch = searches(later).at(-1) as LoggedRequest;
				expect(laterSearch.seq).toBeGreaterThan(createOf(reference).seq);
				expect(laterSearch.inFlightAtArrival).not.toContain(createOf(reference).seq);
			}
			const peak = Math.max(...requests.map((request) => 1 + request.inFlightAtArrival.length));
			if (parallel === 1) expect(peak).toBe(1);
			else {
				expect(peak).toBeGreaterThanOrEqual(2);
				expect(peak).toBeLessThanOrEqual(4);
			}
		});
	}
});

describe('Deal Note → Create', () => {
	it('sends title and detail with the deal relationship; the item is the note with writtenBy', async () => {
		const { node, parameters } = example('loanCrmDeals/dealNote.create');
		const result = await env.run(node, parameters);
		expect(result.error).toBeUndefined();
		expect(requestLines()).toEqual(['POST /jsonapi/deal-notes']);
		const [post] = posts();
		expectJsonApiHeaders(env.sandbox.userId, post, true);
		expect(bodyOf(post)).toEqual({
			data: {
				type: 'deal-notes',
				attributes: { title: 'Called the client', detail: 'Wants a call back about refinancing on Friday.' },
				relationships: { deal: { data: { type: 'deals', id: ids().dealWithoutNotes } } },
			},
		});
		const [item] = jsonOf(result);
		expect(item).toMatchObject({ type: 'deal-notes', dealId: ids().dealWithoutNotes, title: 'Called the client', detail: 'Wants a call back about refinancing on Friday.' });
		expect(typeof item.writtenBy).toBe('string');
		expect(env.sandbox.data.list('deal-notes').filter((note) => note.relationships.deal !== null && (note.relationships.deal as { id: string }).id === ids().dealWithoutNotes)).toHaveLength(1);
		// The note's columns as Deal Note → Get Many gives them: its deal's ID right after id and type.
		const listed = jsonOf(await env.run('loanCrmDeals', { resource: 'dealNote', operation: 'getMany', dealId: ids().dealWithoutNotes }));
		expect(listed.map((note) => Object.keys(note))).toEqual([Object.keys(item)]);
		expect(listed).toEqual([item]);
		// Version 1.1 (saved workflows): the note as the service answered, without dealId.
		const saved = jsonOf(await env.run(node, parameters, { typeVersion: 1.1 }));
		expect(Object.keys(saved[0])).toEqual(['id', 'type', 'title', 'writtenBy', 'detail']);
	});

	it('a title over 2000 characters fails before any request, naming Title; a deal the expression leaves empty names Deal', async () => {
		const long = await env.run('loanCrmDeals', { resource: 'dealNote', operation: 'create', dealId: { __rl: true, mode: 'id', value: ids().dealWithoutNotes }, title: 't'.repeat(2001) });
		expect(long.error?.message).toContain('Title');
		expect(long.error?.message).toContain('at most 2000 characters');
		const noDeal = await env.run('loanCrmDeals', { resource: 'dealNote', operation: 'create', dealId: { __rl: true, mode: 'id', value: '={{ $json.dealId ?? "" }}' }, title: 'x' });
		expect(noDeal.error?.message).toContain('Deal');
		expect(env.sandbox.apiRequests()).toHaveLength(0);
		const exact = await env.run('loanCrmDeals', { resource: 'dealNote', operation: 'create', dealId: { __rl: true, mode: 'id', value: ids().dealWithoutNotes }, title: 't'.repeat(2000) });
		expect(exact.error).toBeUndefined();
	});
});

/**
 * examples/web-form-to-lead.json as saved: the Form Trigger becomes the harness's start node under
 * its own name, fed `submission`; the Slack node (not in the harness) and its connection are left out.
 */
function webFormToLead(submission: IDataObject): { nodes: INode[]; connections: IConnections } {
	const saved = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', 'web-form-to-lead.json'), 'utf8')) as { nodes: INode[]; connections: IConnections };
	const nodes = saved.nodes
		.filter((node) => node.type !== 'n8n-nodes-base.stickyNote' && node.type !== 'n8n-nodes-base.slack')
		.map((node): INode => (node.name === 'On form submission' ? { ...node, type: START_NODE_TYPE, typeVersion: 1, parameters: { items: JSON.stringify([submission]) } } : node));
	const { 'Add the message to the deal': _slack, ...connections } = saved.connections;
	return { nodes, connections };
}

describe('examples/web-form-to-lead.json', () => {
	const submission = {
		'First name': ' Aroha ',
		'Last name': 'Ngata',
		Email: ' Aroha.Ngata@Example.com ',
		Mobile: '0412 345 678',
		'How can we help?': 'Refinancing our home loan',
		'I agree to receive marketing messages': 'Yes',
		submittedAt: '2026-11-26T10:15:00.000+10:00',
		formMode: 'production',
	};

	it('the same form sent twice: one lead (the second finds it), one note per submission, the integration created once', async () => {
		const integrations = env.sandbox.data.count('integrations');
		const first = await runWorkflow(webFormToLead(submission), { credentials: env.store, startNode: 'On form submission' });
		expect(first.error).toBeUndefined();
		const again = await runWorkflow(webFormToLead({ ...submission, Email: 'AROHA.NGATA@example.com', submittedAt: '2026-11-26T16:40:00.000+10:00' }), {
			credentials: env.store,
			startNode: 'On form submission',
		});
		expect(again.error).toBeUndefined();
		const reference = 'WEBFORM-aroha.ngata@example.com-2026-11-26';
		expect(requestLines()).toEqual([
			referenceSearch(reference, 'Website Form'),
			'POST /jsonapi/leads',
			'POST /jsonapi/deal-notes',
			referenceSearch(reference, 'Website Form'),
			'POST /jsonapi/deal-notes',
		]);
		expect(bodyOf(posts()[0]).data.attributes).toEqual({
			firstName: 'Aroha',
			lastName: 'Ngata',
			email: 'aroha.ngata@example.com',
			mobile: '+61412345678',
			contactMatchExisting: 'Email',
			externalReference: reference,
			externalIntegration: 'Website Form',
			hasMarketingConsent: true,
			externalIntegrationAllowCreate: true,
			utmSource: 'website',
			utmMedium: 'form',
		});
		const [lead] = first.output('Create lead').map((item) => item.json);
		const [found] = again.output('Create lead').map((item) => item.json);
		// The example's nodes are at the newest version: created and found read the same.
		expect(lead).toEqual({ outcome: 'created', matchCount: 0, id: lead.id, dealId: lead.id, customStatusName: null, dealStatus: 'NewLeads' });
		expect(found).toEqual({ ...lead, outcome: 'found', matchCount: 1 });
		const notes = [...first.output('Add the message to the deal'), ...again.output('Add the message to the deal')].map((item) => item.json);
		expect(notes).toEqual([
			expect.objectContaining({ type: 'deal-notes', dealId: lead.dealId, title: 'Web form: Aroha Ngata', detail: 'Refinancing our home loan' }),
			expect.objectContaining({ type: 'deal-notes', dealId: lead.dealId, title: 'Web form: Aroha Ngata', detail: 'Refinancing our home loan' }),
		]);
		for (const note of posts().slice(1)) expect(bodyOf(note).data.relationships).toEqual({ deal: { data: { type: 'deals', id: String(lead.dealId) } } });
		expect(env.sandbox.data.count('integrations')).toBe(integrations + 1);
	});
});

describe('as AI agent tools (the newest version, as the editor adds them)', () => {
	it('the model fills the person and the note of a lead, and the title and detail of a note on the deal it names', async () => {
		const registry = createToolRegistry();
		const tools = [
			toolAsTheEditorAddsIt(registry, 'loanCrmLeadsAndTasks', { resource: 'lead', operation: 'create' }),
			toolAsTheEditorAddsIt(registry, 'loanCrmDeals', { resource: 'dealNote', operation: 'create' }),
		];
		const listed = await runAgent(registry, env.store, tools, []);
		const byName = Object.fromEntries(listed.tools.map((tool) => [tool.name, tool]));
		expect(Object.keys(byName).sort()).toEqual(['Create_a_deal_note_in_Loan_CRM', 'Create_a_lead_in_Loan_CRM']);
		expect(Object.keys(byName.Create_a_lead_in_Loan_CRM.schema).sort()).toEqual(
			['First_Name', 'Last_Name', 'Email', 'Mobile', 'Title', 'Preferred_Name', 'Date_Of_Birth', 'Has_Marketing_Consent', 'Note_Title', 'Note_Details', 'Allocate_To', 'If_Already_Exists'].sort(),
		);
		expect(byName.Create_a_lead_in_Loan_CRM.description).toContain("the lead's ID is that deal's ID");
		expect(Object.keys(byName.Create_a_deal_note_in_Loan_CRM.schema).sort()).toEqual(['Deal', 'Detail', 'Title']);
		const { answers } = await runAgent(registry, env.store, tools, [
			{ tool: 'Create_a_lead_in_Loan_CRM', args: { First_Name: 'Ada', Last_Name: 'Lovelace', Email: 'ada@example.com', Note_Title: 'Chat enquiry', Note_Details: 'Wants to refinance' } },
		]);
		expect(answers.map((answer) => answer.error)).toEqual([undefined]);
		const lead = (answers[0].answer as unknown as IDataObject[])[0];
		expect(lead).toEqual({ id: lead.id, dealId: lead.id, dealStatus: 'NewLeads' });
		const note = await runAgent(registry, env.store, tools, [{ tool: 'Create_a_deal_note_in_Loan_CRM', args: { Deal: Number(lead.dealId), Title: 'Called back', Detail: 'Booked a meeting' } }]);
		expect(note.answers.map((answer) => answer.error)).toEqual([undefined]);
		expect(requestLines()).toEqual(['POST /jsonapi/leads', 'POST /jsonapi/deal-notes']);
		expect(bodyOf(posts()[0]).data.attributes).toEqual({
			firstName: 'Ada',
			lastName: 'Lovelace',
			email: 'ada@example.com',
			contactMatchExisting: 'Email',
			noteTitle: 'Chat enquiry',
			noteDetails: 'Wants to refinance',
		});
		expect(bodyOf(posts()[1]).data).toEqual({
			type: 'deal-notes',
			attributes: { title: 'Called back', detail: 'Booked a meeting' },
			relationships: { deal: { data: { type: 'deals', id: String(lead.dealId) } } },
		});
		// Without Allocate_To: the credential's adviser.
		expect(posts()[0].headers.userid).toBe(env.sandbox.userId);
	});

	it('the tool description says the model can name the adviser; Allocate_To by e-mail or name goes to that adviser', async () => {
		const registry = createToolRegistry();
		const tools = [toolAsTheEditorAddsIt(registry, 'loanCrmLeadsAndTasks', { resource: 'lead', operation: 'create' })];
		const listed = await runAgent(registry, env.store, tools, []);
		const [tool] = listed.tools;
		expect(tool.description).toContain('Name the adviser it goes to in Allocate_To (their e-mail address or name), or leave it empty for the usual adviser.');
		expect(tool.description).toContain('Allocate_To (the adviser the lead goes to, by e-mail address or name as in Loan CRM, or contact ID, empty for the usual adviser)');
		const details = env.sandbox.data.list('adviser-details');
		const [aisha, liam] = ['Aisha', 'Liam'].map((first) => details.find((record) => record.attributes.firstName === first));
		const { answers } = await runAgent(registry, env.store, tools, [
			{ tool: tool.name, args: { First_Name: 'Bo', Email: 'bo@example.com', Allocate_To: String(aisha?.attributes.email) } },
			{ tool: tool.name, args: { First_Name: 'Cy', Email: 'cy@example.com', Allocate_To: "Liam O'Sullivan" } },
			{ tool: tool.name, args: { First_Name: 'Di', Email: 'di@example.com', Allocate_To: 'Nobody Here' } },
		]);
		expect(answers.map((answer) => answer.error)).toEqual([undefined, undefined, expect.stringMatching(/^Loan CRM has no adviser named "Nobody Here"\. Check parameter "Allocate To" \(tool argument "Allocate_To"\)/)]);
		expect(posts().map((request) => request.headers.userid)).toEqual([aisha?.id, liam?.id]);
	});
});
