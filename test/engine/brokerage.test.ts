/**
 * Leads for a whole brokerage (issue 42), in n8n-core's engine against the sandbox: the adviser, the
 * enquiry source and the referrer pickers (From List as the editor runs it, By ID, By Name or
 * E-mail), Allocate To sent as each item's UserId at Requests in Parallel 1 and 4 with one token,
 * its precedence over Request Options → User ID, the 403 of an adviser outside the organisation
 * and the 422 of an unknown source or referrer, each naming the parameter. Every test asserts the
 * requests the sandbox received (with their UserId) and the items n8n produced.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CredentialStore, START_NODE_TYPE, defaultRegistry, registerFlowNodes, runListSearch, runNode, runWorkflow, sandboxCredential } from '../../harness';
import { adaptExample } from '../../scripts/e2e/examples';
import type { LoggedRequest } from '../../sandbox';
import { LIST_PAGE_SIZE } from '../../nodes/shared/execution/methods/listSearch';
import { decodedQuery, jsonOf, useSandbox } from './helpers';

const env = useSandbox();
const ids = () => env.sandbox.data.ids;

afterEach(() => {
	env.sandbox.setLatency(false);
	env.sandbox.data.reset();
});

const locator = (value: string, mode: 'list' | 'id' | 'name' = 'list') => ({ __rl: true, mode, value });
const line = (request: LoggedRequest) => `${request.method} ${request.path}${request.rawQuery === '' ? '' : `?${decodedQuery(request.rawQuery)}`}`;
const requestLines = () => env.sandbox.apiRequests().map(line);
const posts = () => env.sandbox.apiRequests().filter((request) => request.method === 'POST');
const attributesOf = (request: LoggedRequest) => (request.json as { data: { attributes: IDataObject } }).data.attributes;

/** The sandbox's adviser-details record of a first name, and the adviser (family) it belongs to. */
function adviser(firstName: string): { contactId: string; familyId: string; email: string } {
	const details = env.sandbox.data.list('adviser-details').find((record) => record.attributes.firstName === firstName);
	if (details === undefined) throw new Error(`no adviser ${firstName}`);
	return { contactId: details.id, familyId: (details.relationships.adviser as { id: string }).id, email: String(details.attributes.email) };
}

/** The adviser (family) id a deal is allocated to. */
const dealAdviser = (dealId: unknown) => (env.sandbox.data.get('deals', String(dealId))?.relationships.adviser as { id: string } | null)?.id;

const ADVISER_LIST_QUERY = {
	include: 'adviser',
	'fields[adviser-details]': 'firstName,lastName,preferredName,email,adviser',
	'fields[advisers]': 'status',
	sort: '-id',
	'page[size]': String(LIST_PAGE_SIZE),
};

const lead = (parameters: INodeParameters = {}): INodeParameters => ({ resource: 'lead', operation: 'create', email: '={{ $json.email }}', firstName: '={{ $json.firstName }}', ...parameters });

describe('From List: the advisers, enquiry sources and referrers as the editor searches them', () => {
	it('advisers: one request (adviser-details with their adviser), labelled name — e-mail — status — contact ID, newest first', async () => {
		const { results, paginationToken } = await runListSearch({ nodeType: 'loanCrmLeadsAndTasks', method: 'searchAdvisers', credentials: env.store });
		expect(requestLines()).toHaveLength(1);
		const [request] = env.sandbox.apiRequests();
		expect([request.method, request.path, request.query]).toEqual(['GET', '/jsonapi/adviser-details', ADVISER_LIST_QUERY]);
		expect(results.map((result) => result.value)).toEqual([...ids().adviserContactIds].reverse());
		const sarah = adviser('Sarah');
		expect(results).toContainEqual({ name: `Mitchell, Sarah — ${sarah.email} — Active — #${sarah.contactId}`, value: sarah.contactId });
		const grace = adviser('Grace');
		expect(results).toContainEqual({ name: `Taylor, Grace — ${grace.email} — Inactive — #${grace.contactId}`, value: grace.contactId });
		// Nine advisers: one page.
		expect(paginationToken).toBeUndefined();
	});

	it('advisers: searched by name (every word, apostrophe or not) or e-mail; a number finds the contact ID', async () => {
		const byName = await runListSearch({ nodeType: 'loanCrmLeadsAndTasks', method: 'searchAdvisers', credentials: env.store, filter: 'liam osullivan' });
		const liam = adviser('Liam');
		expect(byName.results.map((result) => result.value)).toEqual([liam.contactId]);
		env.sandbox.clearLog();
		const byEmail = await runListSearch({ nodeType: 'loanCrmLeadsAndTasks', method: 'searchAdvisers', credentials: env.store, filter: 'AISHA.RAHMAN@' });
		expect(env.sandbox.apiRequests()[0].query.filter).toBe(
			"or(contains(firstName,'AISHA.RAHMAN@'),contains(lastName,'AISHA.RAHMAN@'),contains(preferredName,'AISHA.RAHMAN@'),contains(email,'AISHA.RAHMAN@'))",
		);
		expect(byEmail.results.map((result) => result.value)).toEqual([adviser('Aisha').contactId]);
		env.sandbox.clearLog();
		const byNumber = await runListSearch({ nodeType: 'loanCrmLeadsAndTasks', method: 'searchAdvisers', credentials: env.store, filter: adviser('David').contactId });
		expect(env.sandbox.apiRequests()[0].query.filter).toContain(`equals(id,'${adviser('David').contactId}')`);
		expect(byNumber.results.map((result) => result.value)).toEqual([adviser('David').contactId]);
	});

	it("a task's assignee: the same list and request, each adviser known by the adviser (family) ID the assignee takes", async () => {
		const { results } = await runListSearch({ nodeType: 'loanCrmLeadsAndTasks', method: 'searchAdviserFamilies', credentials: env.store });
		const [request] = env.sandbox.apiRequests();
		expect([request.path, request.query]).toEqual(['/jsonapi/adviser-details', ADVISER_LIST_QUERY]);
		const sarah = adviser('Sarah');
		expect(sarah.familyId).not.toBe(sarah.contactId);
		expect(results).toContainEqual({ name: `Mitchell, Sarah — ${sarah.email} — Active — #${sarah.familyId}`, value: sarah.familyId });
		env.sandbox.clearLog();
		const byNumber = await runListSearch({ nodeType: 'loanCrmLeadsAndTasks', method: 'searchAdviserFamilies', credentials: env.store, filter: sarah.familyId });
		expect(env.sandbox.apiRequests()[0].query.filter).toContain(`equals(adviser.id,'${sarah.familyId}')`);
		expect(byNumber.results.map((result) => result.value)).toEqual([sarah.familyId]);
	});

	it('enquiry sources: "Category › Source — #sourceId", searched by source or category, a number finds the sourceId; paged by number', async () => {
		const all = await runListSearch({ nodeType: 'loanCrmLeadsAndTasks', method: 'searchEnquirySources', credentials: env.store });
		const [request] = env.sandbox.apiRequests();
		expect([request.path, request.query]).toEqual(['/jsonapi/enquiry-sources', { 'fields[enquiry-source]': 'sourceCategoryId,sourceCategoryName,sourceId,sourceName', 'page[size]': String(LIST_PAGE_SIZE) }]);
		expect(all.results).toHaveLength(env.sandbox.data.count('enquiry-source'));
		expect(all.results).toContainEqual({ name: 'Online › Website enquiry form — #21', value: '21' });
		expect(all.results).toContainEqual({ name: 'Marketing › Other — #49', value: '49' });
		env.sandbox.clearLog();
		const online = await runListSearch({ nodeType: 'loanCrmLeadsAndTasks', method: 'searchEnquirySources', credentials: env.store, filter: 'online' });
		expect(env.sandbox.apiRequests()[0].query.filter).toBe("or(contains(sourceName,'online'),contains(sourceCategoryName,'online'))");
		expect(online.results.map((result) => result.value)).toEqual(['21', '22', '23', '24']);
		const byNumber = await runListSearch({ nodeType: 'loanCrmLeadsAndTasks', method: 'searchEnquirySources', credentials: env.store, filter: '32' });
		expect(byNumber.results).toEqual([{ name: 'Referral Partner › Accountant — #32', value: '32' }]);
		// Fourteen sources: one page, no token. A next page would be asked for by number (the ids are
		// text to the service, no keyset on them), in the service's order.
		expect(all.paginationToken).toBeUndefined();
		env.sandbox.clearLog();
		const second = await runListSearch({ nodeType: 'loanCrmLeadsAndTasks', method: 'searchEnquirySources', credentials: env.store, paginationToken: '2' });
		expect(env.sandbox.apiRequests()[0].query).toEqual({ 'fields[enquiry-source]': 'sourceCategoryId,sourceCategoryName,sourceId,sourceName', 'page[size]': String(LIST_PAGE_SIZE), 'page[number]': '2' });
		expect(second).toEqual({ results: [], paginationToken: undefined });
	});

	it('referrers: "Name — Organisation — #id", searched by name or organisation', async () => {
		const cooper = await runListSearch({ nodeType: 'loanCrmLeadsAndTasks', method: 'searchReferrers', credentials: env.store, filter: 'cooper' });
		const [request] = env.sandbox.apiRequests();
		expect([request.path, request.query]).toEqual([
			'/jsonapi/referrers',
			// A name typed without its apostrophe is also looked for with one ("osullivan" finds O'Sullivan).
			{ filter: "or(contains(referrerName,'cooper'),contains(referrerOrganisationName,'cooper'),contains(referrerName,'c''ooper'))", 'fields[referrers]': 'referrerName,referrerOrganisationName', 'page[size]': String(LIST_PAGE_SIZE) },
		]);
		expect(cooper.results).toEqual([
			{ name: `Jane Cooper — Ray White Parramatta — #${ids().referrer}`, value: ids().referrer },
			{ name: 'Jane Cooper — Cooper Financial Planning — #304', value: '304' },
		]);
		const mcgrath = await runListSearch({ nodeType: 'loanCrmLeadsAndTasks', method: 'searchReferrers', credentials: env.store, filter: 'McGrath' });
		expect(mcgrath.results.map((result) => result.name)).toEqual(['Ben Walsh — McGrath Bondi — #302']);
	});
});

describe('Allocate To: the adviser each lead goes to, sent as its UserId', () => {
	for (const parallel of [1, 4]) {
		it(`Requests in Parallel ${parallel}: each lead's request carries its own adviser (From List, By ID, By Name or E-mail, empty), one token for all`, async () => {
			env.sandbox.setLatency({ ms: 10, jitterMs: 10 });
			const [aisha, david, liam] = [adviser('Aisha'), adviser('David'), adviser('Liam')];
			const input = [
				{ firstName: 'Ana', email: 'ana@example.com', to: locator(aisha.contactId, 'list') },
				{ firstName: 'Ben', email: 'ben@example.com', to: locator(` ${david.contactId} `, 'id') },
				{ firstName: 'Cai', email: 'cai@example.com', to: locator(liam.email.toUpperCase(), 'name') },
				{ firstName: 'Dee', email: 'dee@example.com', to: locator('', 'list') },
				{ firstName: 'Eli', email: 'eli@example.com', to: locator('Liam O’Sullivan', 'name') },
				{ firstName: 'Fay', email: 'fay@example.com', to: locator(liam.email, 'name') },
			];
			// A credential without a token: the run fetches one, for every request.
			const store = new CredentialStore();
			store.add('loanCrmOAuth2Api', sandboxCredential(env.sandbox));
			const result = await runNode({
				nodeType: 'loanCrmLeadsAndTasks',
				parameters: lead({ allocateTo: '={{ $json.to }}', requestOptions: { requestsInParallel: parallel } }),
				credentials: store,
				input,
			});
			expect(result.error).toBeUndefined();
			const items = jsonOf(result);
			expect(items).toHaveLength(input.length);
			expect(result.items.map((item) => item.pairedItem)).toEqual(input.map((_, index) => ({ item: index })));
			const expected = [aisha, david, liam, undefined, liam, liam];
			const postOf = (email: string) => posts().find((request) => attributesOf(request).email === email) as LoggedRequest;
			expect(input.map((entry) => postOf(entry.email).headers.userid)).toEqual(expected.map((entry) => entry?.contactId ?? env.sandbox.userId));
			expect(items.map((item) => dealAdviser(item.dealId))).toEqual(expected.map((entry) => entry?.familyId ?? ids().adviser));
			// The lead's output (node version 1.2, Simplify on): the lead's readable fields, the deal's id beside its id; nothing of the adviser added.
			for (const item of items) expect(Object.keys(item)).toEqual(['id', 'dealId', 'customStatusName', 'dealStatus']);
			// Liam by e-mail (in either case: compared as the service compares it) and by name (typed with
			// a phone's apostrophe): one look-up each for the run, as the credential's adviser.
			const lookups = env.sandbox.apiRequests().filter((request) => request.method === 'GET');
			expect(lookups.map((request) => String(request.query.filter).toLowerCase()).sort()).toEqual(
				[`equals(email,'${liam.email}')`, "and(or(contains(firstname,'liam'),contains(lastname,'liam'),contains(preferredname,'liam')),or(contains(firstname,'o''sullivan'),contains(lastname,'o''sullivan'),contains(preferredname,'o''sullivan')))"].sort(),
			);
			for (const request of lookups) expect(request.headers.userid).toBe(env.sandbox.userId);
			expect(env.sandbox.tokenRequests()).toHaveLength(1);
			expect(new Set(env.sandbox.apiRequests().map((request) => request.headers.authorization)).size).toBe(1);
			const peak = Math.max(...env.sandbox.apiRequests().map((request) => 1 + request.inFlightAtArrival.length));
			if (parallel === 1) expect(peak).toBe(1);
			else expect(peak).toBeGreaterThanOrEqual(2);
		});
	}

	it('If Already Exists searches as the allocated adviser too; found, nothing is sent again', async () => {
		const aisha = adviser('Aisha');
		const parameters = lead({ allocateTo: locator(aisha.email, 'name'), externalReference: 'ROUTE-1', externalIntegration: 'MyIntegrationSource', ifAlreadyExists: 'returnExisting' });
		const input = [{ firstName: 'Gus', email: 'gus@example.com' }];
		const first = await env.run('loanCrmLeadsAndTasks', parameters, { input });
		const again = await env.run('loanCrmLeadsAndTasks', parameters, { input });
		expect([jsonOf(first)[0].outcome, jsonOf(again)[0].outcome]).toEqual(['created', 'found']);
		const [lookup, search, create, lookupAgain, searchAgain] = env.sandbox.apiRequests();
		expect([lookup.path, search.path, create.path, lookupAgain.path, searchAgain.path]).toEqual([
			'/jsonapi/adviser-details', '/jsonapi/deal-external-references', '/jsonapi/leads', '/jsonapi/adviser-details', '/jsonapi/deal-external-references',
		]);
		expect([search.headers.userid, create.headers.userid, searchAgain.headers.userid]).toEqual([aisha.contactId, aisha.contactId, aisha.contactId]);
		expect(env.sandbox.apiRequests()).toHaveLength(5);
	});

	it('one concept with Request Options → User ID: Allocate To wins for the lead; the User ID is used for the rest and when Allocate To is empty', async () => {
		const [aisha, david] = [adviser('Aisha'), adviser('David')];
		const input = [
			{ firstName: 'Hal', email: 'hal@example.com', to: aisha.email },
			{ firstName: 'Ivy', email: 'ivy@example.com', to: '' },
		];
		const result = await env.run('loanCrmLeadsAndTasks', lead({ allocateTo: locator('={{ $json.to }}', 'name'), requestOptions: { userId: locator(david.contactId, 'list'), requestsInParallel: 1 } }), { input });
		expect(result.error).toBeUndefined();
		const [lookup, hal, ivy] = env.sandbox.apiRequests();
		// Aisha is looked up as the node's adviser, David.
		expect([lookup.path, lookup.headers.userid]).toEqual(['/jsonapi/adviser-details', david.contactId]);
		expect([hal.headers.userid, ivy.headers.userid]).toEqual([aisha.contactId, david.contactId]);
		expect(jsonOf(result).map((item) => dealAdviser(item.dealId))).toEqual([aisha.familyId, david.familyId]);
	});

	it('Request Options → User ID By Name or E-mail: looked up once per run, every request of the node acts as that adviser', async () => {
		const david = adviser('David');
		const result = await env.run(
			'loanCrmLeadsAndTasks',
			{ resource: 'lead', operation: 'get', leadId: '={{ $json.id }}', requestOptions: { userId: locator('David Nguyen', 'name'), requestsInParallel: 1 } },
			{ input: [{ id: ids().lead }, { id: ids().dealWithoutNotes }] },
		);
		expect(result.error).toBeUndefined();
		const requests = env.sandbox.apiRequests();
		expect(requests.map((request) => request.path)).toEqual(['/jsonapi/adviser-details', `/jsonapi/leads/${ids().lead}`, `/jsonapi/leads/${ids().dealWithoutNotes}`]);
		expect(requests.slice(1).map((request) => request.headers.userid)).toEqual([david.contactId, david.contactId]);
		expect(requests[0].headers.userid).toBe(env.sandbox.userId);
	});

	it("an adviser outside the organisation (an unknown ID, an adviser family ID): the service's 403, naming Allocate To; Continue On Fail pairs it", async () => {
		const input = [
			{ firstName: 'Jo', email: 'jo@example.com', to: '999999' },
			{ firstName: 'Kim', email: 'kim@example.com', to: ids().adviser },
			{ firstName: 'Lu', email: 'lu@example.com', to: adviser('Aisha').contactId },
		];
		const deals = env.sandbox.data.count('deals');
		const result = await env.run('loanCrmLeadsAndTasks', lead({ allocateTo: locator('={{ $json.to }}', 'id'), requestOptions: { requestsInParallel: 1 } }), { input, continueOnFail: true });
		const items = jsonOf(result);
		expect(items).toHaveLength(3);
		expect(posts().map((request) => [request.headers.userid, request.status])).toEqual([
			['999999', 403],
			[ids().adviser, 403],
			[adviser('Aisha').contactId, 201],
		]);
		expect(items[0].error).toBe(
			"Loan CRM refused access (403): The UserId is not a known adviser. UserId '999999' is not an adviser of this organisation. Check parameter \"Allocate To\": it must be an adviser of your organisation, from its adviser list (an AdviserContactId)",
		);
		expect(items[1].error).toMatch(/^Loan CRM refused access \(403\): .*Check parameter "Allocate To"/);
		expect(items[0].description).toMatch(/Choose the adviser From List/);
		expect(items[2]).toMatchObject({ dealId: expect.any(String), dealStatus: 'NewLeads' });
		expect(env.sandbox.data.count('deals')).toBe(deals + 1);
	});

	it('By Name or E-mail: nothing found, or several and none exactly, fails the item naming Allocate To before any write', async () => {
		const input = [
			{ firstName: 'Max', email: 'max@example.com', to: 'nobody@example.com' },
			{ firstName: 'Ned', email: 'ned@example.com', to: 'ma' },
			{ firstName: 'Oz', email: 'oz@example.com', to: 'sarah' },
		];
		const result = await env.run('loanCrmLeadsAndTasks', lead({ allocateTo: locator('={{ $json.to }}', 'name'), requestOptions: { requestsInParallel: 1 } }), { input, continueOnFail: true });
		const items = jsonOf(result);
		expect(items[0].error).toBe('Loan CRM has no adviser with the e-mail address nobody@example.com. Check parameter "Allocate To"');
		expect(items[1].error).toBe('Loan CRM has more than one adviser named "ma". Check parameter "Allocate To"');
		// Emma, Priya Sharma, Marcus, Aisha Rahman: each named in the description.
		expect(String(items[1].description)).toMatch(/^Nothing was sent for this item\. Say which one: .*Wilson, Emma — .*#1005/);
		expect(items[2]).toMatchObject({ dealId: expect.any(String), dealStatus: 'NewLeads' });
		expect(posts().map((request) => request.headers.userid)).toEqual([adviser('Sarah').contactId]);
	});

	it('a node saved before Allocate To existed (version 1, no such parameter) sends exactly what it sent: the credential\'s UserId, the same body', async () => {
		const result = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'create', firstName: 'Old', email: 'old@example.com' }, { typeVersion: 1 });
		expect(result.error).toBeUndefined();
		expect(requestLines()).toEqual(['POST /jsonapi/leads']);
		expect(posts()[0].headers.userid).toBe(env.sandbox.userId);
		expect(attributesOf(posts()[0])).toEqual({ firstName: 'Old', email: 'old@example.com', contactMatchExisting: 'Email' });
		expect(dealAdviser(jsonOf(result)[0].dealId)).toBe(ids().adviser);
	});
});

describe('Enquiry Source and Referrer: where the lead came from', () => {
	it('From List: the source is looked up once for its category, the referrer sent as chosen; Source Additional Details next to them', async () => {
		const input = [{ firstName: 'Pia', email: 'pia@example.com' }, { firstName: 'Quin', email: 'quin@example.com' }];
		const result = await env.run(
			'loanCrmLeadsAndTasks',
			lead({ additionalFields: { sourceId: locator('21'), sourceReferrerId: locator(ids().referrer), sourceAdditionalDetails: 'Spring open home' }, requestOptions: { requestsInParallel: 1 } }),
			{ input },
		);
		expect(result.error).toBeUndefined();
		expect(requestLines()).toEqual([
			"GET /jsonapi/enquiry-sources?filter=equals(sourceId,'21')&fields[enquiry-source]=sourceCategoryId,sourceCategoryName,sourceId,sourceName&page[size]=10",
			'POST /jsonapi/leads',
			'POST /jsonapi/leads',
		]);
		for (const post of posts()) {
			expect(attributesOf(post)).toMatchObject({ sourceId: 21, sourceCategoryId: 2, sourceReferrerId: ids().referrer, sourceAdditionalDetails: 'Spring open home' });
		}
	});

	it.each([
		['Online › Website enquiry form', 21, 2],
		['online > website enquiry form', 21, 2],
		['Website enquiry form', 21, 2],
		['Marketing › Other', 49, 4],
		['23', 23, 2],
	])('By Name "%s" (a mapped value): sourceId %s, category %s', async (name, sourceId, categoryId) => {
		const result = await env.run('loanCrmLeadsAndTasks', lead({ additionalFields: { sourceId: locator(name, 'name') } }), { input: [{ email: 'r@example.com' }] });
		expect(result.error).toBeUndefined();
		expect(attributesOf(posts()[0])).toMatchObject({ sourceId, sourceCategoryId: categoryId });
	});

	it('By Name: a source two categories have, or one nobody has, fails the item naming Enquiry Source; nothing written', async () => {
		const result = await env.run('loanCrmLeadsAndTasks', lead({ additionalFields: { sourceId: locator('={{ $json.source }}', 'name') } }), {
			input: [{ email: 's@example.com', source: 'Other' }, { email: 't@example.com', source: 'Carrier pigeon' }],
			continueOnFail: true,
		});
		const items = jsonOf(result);
		expect(items[0].error).toBe('Loan CRM has more than one enquiry source named "Other". Check parameter "Additional Fields → Enquiry Source"');
		expect(items[0].description).toBe(
			'Nothing was sent for this item. Say which one: Self Generated › Other — #19; Marketing › Other — #49. Give it as the list shows it (without the #ID), by e-mail for an adviser, or choose it From List or By ID.',
		);
		expect(items[1].error).toBe('Loan CRM has no enquiry source named "Carrier pigeon". Check parameter "Additional Fields → Enquiry Source"');
		expect(posts()).toHaveLength(0);
	});

	it('By ID: a sourceId the list does not have fails before the write, naming Enquiry Source', async () => {
		const result = await env.run('loanCrmLeadsAndTasks', lead({ additionalFields: { sourceId: locator('99', 'id') } }), { input: [{ email: 'u@example.com' }] });
		expect(result.error?.message).toBe('Loan CRM has no enquiry source with ID 99. Check parameter "Additional Fields → Enquiry Source"');
		expect(posts()).toHaveLength(0);
	});

	it('referrers By Name: one name two referrers have needs the organisation; with it, the one', async () => {
		const ambiguous = await env.run('loanCrmLeadsAndTasks', lead({ additionalFields: { sourceReferrerId: locator('Jane Cooper', 'name') } }), { input: [{ email: 'v@example.com' }] });
		expect(ambiguous.error?.message).toBe('Loan CRM has more than one referrer named "Jane Cooper". Check parameter "Additional Fields → Referrer"');
		const exact = await env.run('loanCrmLeadsAndTasks', lead({ additionalFields: { sourceReferrerId: locator('Jane Cooper - Cooper Financial Planning', 'name') } }), { input: [{ email: 'v@example.com' }] });
		expect(exact.error).toBeUndefined();
		expect(attributesOf(posts()[0]).sourceReferrerId).toBe('304');
	});

	it("By ID, a referrer the service does not know: its 422 names Referrer, in n8n's words", async () => {
		const result = await env.run('loanCrmLeadsAndTasks', lead({ additionalFields: { sourceReferrerId: locator('999', 'id') } }), { input: [{ email: 'w@example.com' }], continueOnFail: true });
		expect(jsonOf(result)[0].error).toBe('Loan CRM rejected the data (422): "Additional Fields → Referrer": Input validation failed. Referrer \'999\' does not exist.');
		expect(posts().map((request) => request.status)).toEqual([422]);
	});

	it('an item without the pickers sends no source, no referrer and makes no look-up', async () => {
		await env.run('loanCrmLeadsAndTasks', lead({ additionalFields: { sourceId: locator(''), sourceReferrerId: locator('', 'name') } }), { input: [{ email: 'x@example.com' }] });
		expect(requestLines()).toEqual(['POST /jsonapi/leads']);
		expect(attributesOf(posts()[0])).toEqual({ email: 'x@example.com', contactMatchExisting: 'Email' });
	});
});

describe('Task → Update: the assignee from the same list of advisers', () => {
	it('By Name or E-mail sends the adviser (family) ID the assignee takes, not the contact ID', async () => {
		const aisha = adviser('Aisha');
		const result = await env.run('loanCrmLeadsAndTasks', { resource: 'task', operation: 'update', taskId: ids().task, updateFields: { assigneeId: locator(aisha.email, 'name') } });
		expect(result.error).toBeUndefined();
		const patch = env.sandbox.apiRequests().find((request) => request.method === 'PATCH') as LoggedRequest;
		expect((patch.json as { data: { relationships: IDataObject } }).data.relationships).toEqual({ assignee: { data: { type: 'advisers', id: aisha.familyId } } });
		expect(env.sandbox.data.get('tasks', ids().task)?.relationships.assignee).toEqual({ type: 'advisers', id: aisha.familyId });
	});
});

describe('examples/lead-routing.json in the engine, with n8n\'s own Switch and Edit Fields nodes', () => {
	const submission = (first: string, postCode: string, heard: string) => ({
		'First name': first,
		'Last name': 'Router',
		Email: `${first.toLowerCase()}.router@example.com`,
		Mobile: '',
		'Post code': postCode,
		'How did you hear about us?': heard,
		'How can we help?': '',
		submittedAt: '2026-11-20T09:00:00.000Z',
		formMode: 'production',
	});

	async function runExample(submissions: IDataObject[]) {
		registerFlowNodes(defaultRegistry());
		const example = adaptExample('lead-routing.json', { keep: (node) => node.type !== 'n8n-nodes-base.stickyNote' });
		const nodes = example.nodes.map((node) =>
			node.type === 'n8n-nodes-base.formTrigger' ? { ...node, type: START_NODE_TYPE, typeVersion: 1, parameters: { items: JSON.stringify(submissions) } } : node,
		);
		return await runWorkflow({ nodes, connections: example.connections }, { credentials: env.store });
	}

	it('each area to its adviser (the post code\'s Switch output), its enquiry source from the form; again the same day, the same lead', async () => {
		const submissions = [submission('Uma', '2000', 'Google'), submission('Vic', '2600', 'A friend or family member'), submission('Wes', '3121', 'Somewhere else'), submission('Xia', 'n/a', 'A comparison site')];
		const result = await runExample(submissions);
		expect(result.error).toBeUndefined();
		// The lead node runs once per Switch output that had items: every run's items.
		const runs = result.run.data.resultData.runData['Create lead for the adviser'] ?? [];
		expect(runs).toHaveLength(3);
		const leads = runs.flatMap((task) => task.data?.main?.[0] ?? []).map((item) => item.json);
		expect(leads).toHaveLength(4);
		const [sarah, david, aisha] = [adviser('Sarah'), adviser('David'), adviser('Aisha')];
		const postOf = (first: string) => posts().find((request) => attributesOf(request).firstName === first) as LoggedRequest;
		expect(['Uma', 'Vic', 'Wes', 'Xia'].map((first) => postOf(first).headers.userid)).toEqual([sarah.contactId, david.contactId, aisha.contactId, aisha.contactId]);
		expect(['Uma', 'Vic', 'Wes', 'Xia'].map((first) => [attributesOf(postOf(first)).sourceId, attributesOf(postOf(first)).sourceCategoryId])).toEqual([
			[22, 2],
			[11, 1],
			[21, 2],
			[24, 2],
		]);
		expect(attributesOf(postOf('Vic'))).toMatchObject({ postCode: '2600', externalReference: 'WEBFORM-vic.router@example.com-2026-11-20', externalIntegration: 'Website Form' });
		for (const item of leads) expect(item.outcome).toBe('created');
		const again = await runExample([submission('Uma', '2000', 'Google')]);
		expect(again.output('Create lead for the adviser').map((item) => item.json)).toEqual([expect.objectContaining({ outcome: 'found', dealId: leads.find((lead) => dealAdviser(lead.dealId) === sarah.familyId)?.dealId })]);
	});
});
