/**
 * Create → If Already Exists (Contact → Create, Deal External Reference → Create): the search
 * before the create, each mode, matches as the service compares them, several matches, items
 * without an e-mail, duplicates within one run at Requests in Parallel 1 and 4, Continue On Fail,
 * and the transport's rules on the search and the create. Run in n8n-core's engine against the
 * sandbox; every test asserts the requests the sandbox received and the items n8n produced.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CredentialStore, runNode, runWorkflow, sandboxCredential } from '../../harness';
import type { LoggedRequest } from '../../sandbox';
import { decodedQuery, jsonOf, useSandbox, webFormExample } from './helpers';

const env = useSandbox();
const ids = () => env.sandbox.data.ids;

afterEach(() => {
	env.sandbox.setLatency(false);
	env.sandbox.data.reset();
});

/** A contact's key fields: parameters of their own from node version 1.2, under Additional Fields before. */
const KEY_FIELDS = ['email', 'firstName', 'lastName'];

/**
 * Contact → Create's parameters as a new node (version 1.2) has them: the key fields on top, the
 * others under Additional Fields; `version1_1` puts them all under Additional Fields, as saved nodes
 * of versions 1 and 1.1 have them.
 */
const createContact = (ifAlreadyExists: string | undefined, fields: INodeParameters, extra: INodeParameters = {}, version1_1 = false): INodeParameters => {
	const onTop = version1_1 ? {} : Object.fromEntries(Object.entries(fields).filter(([name]) => KEY_FIELDS.includes(name)));
	const additionalFields = Object.fromEntries(Object.entries(fields).filter(([name]) => !(name in onTop)));
	return {
		resource: 'contact',
		operation: 'create',
		...(ifAlreadyExists === undefined ? {} : { ifAlreadyExists }),
		...onTop,
		additionalFields,
		...extra,
	};
};

/** A contact created from each item's first name and e-mail. */
const contactPerItem = (ifAlreadyExists: string, requestsInParallel: number): INodeParameters =>
	createContact(ifAlreadyExists, { firstName: '={{ $json.firstName }}', email: '={{ $json.email }}' }, { requestOptions: { requestsInParallel } });

const createReference = (ifAlreadyExists: string, externalReference: string, dealId: string, integrationId: string): INodeParameters => ({
	resource: 'dealExternalReference',
	operation: 'create',
	ifAlreadyExists,
	externalReference,
	integrationId,
	dealId,
});

/** Method, path and decoded query of each API request, in arrival order. */
function requestLines(): string[] {
	return env.sandbox.apiRequests().map((request) => `${request.method} ${request.path}${request.rawQuery === '' ? '' : `?${decodedQuery(request.rawQuery)}`}`);
}

const contactSearch = (email: string, fields = '') => `GET /jsonapi/contacts?filter=equals(email,'${email.replace(/'/g, "''")}')&sort=id${fields}&page[size]=100`;

function contactsWithEmail(email: string): string[] {
	return env.sandbox.data
		.list('contacts')
		.filter((contact) => String(contact.attributes.email ?? '').toLowerCase() === email.toLowerCase())
		.map((contact) => contact.id);
}

function posts(): LoggedRequest[] {
	return env.sandbox.apiRequests().filter((request) => request.method === 'POST');
}

describe('Contact → Create, If Already Exists', () => {
	it('Create Another (the default) creates a second contact without searching, and its item is unchanged', async () => {
		const existing = env.sandbox.data.get('contacts', ids().contact);
		const email = String(existing?.attributes.email);
		const result = await env.run('loanCrmContacts', createContact(undefined, { firstName: 'Olivia', email }));
		expect(result.error).toBeUndefined();
		expect(requestLines()).toEqual(['POST /jsonapi/contacts']);
		expect(contactsWithEmail(email)).toHaveLength(2);
		const [item] = jsonOf(result);
		expect(item).not.toHaveProperty('outcome');
		expect(item).not.toHaveProperty('matchCount');
		expect(item).toMatchObject({ type: 'contacts', email, firstName: 'Olivia' });
	});

	it('Return Existing, not there: one search, then the create, with one token; the item says created', async () => {
		// A credential without a stored token: the run fetches one and uses it for both requests.
		const store = new CredentialStore();
		store.add('loanCrmOAuth2Api', sandboxCredential(env.sandbox));
		const result = await runNode({
			nodeType: 'loanCrmContacts',
			parameters: createContact('returnExisting', { firstName: 'Aroha', lastName: 'Ngata', email: 'aroha.ngata@example.com' }),
			credentials: store,
		});
		expect(result.error).toBeUndefined();
		expect(requestLines()).toEqual([contactSearch('aroha.ngata@example.com'), 'POST /jsonapi/contacts']);
		const [search, create] = env.sandbox.apiRequests();
		expect([search.status, search.body, create.status]).toEqual([200, '', 201]);
		expect(create.json).toEqual({ data: { type: 'contacts', attributes: { firstName: 'Aroha', lastName: 'Ngata', email: 'aroha.ngata@example.com' } } });
		// The same token and adviser for the search and the create.
		expect(search.headers.authorization).toBe(create.headers.authorization);
		expect([search.headers.userid, create.headers.userid]).toEqual([env.sandbox.userId, env.sandbox.userId]);
		expect(env.sandbox.tokenRequests()).toHaveLength(1);
		const created = contactsWithEmail('aroha.ngata@example.com');
		expect(created).toHaveLength(1);
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: created[0], type: 'contacts', firstName: 'Aroha', outcome: 'created' })]);
		// Created or found reads at a glance: outcome and matchCount are the first two columns.
		expect(Object.keys(jsonOf(result)[0]).slice(0, 4)).toEqual(['outcome', 'matchCount', 'id', 'type']);
		expect(jsonOf(result)[0].matchCount).toBe(0);
	});

	it('Return Existing, there: one search, nothing written; the item is the contact as a create outputs it, with outcome found', async () => {
		// The contact as Contact → Create outputs it (Create Another: the create's own answer).
		const first = await env.run('loanCrmContacts', createContact(undefined, { firstName: 'Aroha', lastName: 'Ngata', email: 'aroha.ngata@example.com', mobile: '+61412345678' }));
		const [created] = jsonOf(first);
		env.sandbox.clearLog();
		const again = await env.run('loanCrmContacts', createContact('returnExisting', { firstName: 'Someone', lastName: 'Else', email: 'aroha.ngata@example.com' }));
		expect(again.error).toBeUndefined();
		expect(requestLines()).toEqual([contactSearch('aroha.ngata@example.com')]);
		expect(contactsWithEmail('aroha.ngata@example.com')).toEqual([created.id]);
		const [found] = jsonOf(again);
		expect(found).toEqual({ ...created, outcome: 'found', matchCount: 1 });
		expect(Object.keys(found)).toEqual(['outcome', 'matchCount', ...Object.keys(created)]);
		expect(again.items[0].pairedItem).toEqual({ item: 0 });
	});

	it('matches as the service compares: case does not matter; spaces around the e-mail are removed from the search and the create', async () => {
		const existing = env.sandbox.data.createContact({ firstName: 'Aroha', email: 'aroha.ngata@example.com' });
		const found = await env.run('loanCrmContacts', createContact('returnExisting', { firstName: 'Aroha', email: '  Aroha.Ngata@EXAMPLE.com ' }));
		expect(requestLines()).toEqual([contactSearch('Aroha.Ngata@EXAMPLE.com')]);
		expect(jsonOf(found)).toEqual([expect.objectContaining({ id: existing.id, email: 'aroha.ngata@example.com', outcome: 'found', matchCount: 1 })]);

		env.sandbox.clearLog();
		const created = await env.run('loanCrmContacts', createContact('returnExisting', { firstName: 'Liam', email: " Liam.O'Connor@Example.com\t" }));
		expect(created.error).toBeUndefined();
		expect(requestLines()).toEqual([contactSearch("Liam.O'Connor@Example.com"), 'POST /jsonapi/contacts']);
		expect(env.sandbox.apiRequests()[0].query.filter).toBe("equals(email,'Liam.O''Connor@Example.com')");
		expect(posts()[0].json).toEqual({ data: { type: 'contacts', attributes: { firstName: 'Liam', email: "Liam.O'Connor@Example.com" } } });
		expect(jsonOf(created)).toEqual([expect.objectContaining({ email: "Liam.O'Connor@Example.com", outcome: 'created' })]);
	});

	it('several matches: the oldest (lowest ID) and how many matched; nothing is created', async () => {
		const oldest = env.sandbox.data.createContact({ firstName: 'First', email: 'shared@example.com' });
		const newer = env.sandbox.data.createContact({ firstName: 'Second', email: 'SHARED@example.com' });
		expect(Number(newer.id)).toBeGreaterThan(Number(oldest.id));
		const result = await env.run('loanCrmContacts', createContact('returnExisting', { firstName: 'Third', email: 'shared@example.com' }));
		expect(requestLines()).toEqual([contactSearch('shared@example.com')]);
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: oldest.id, firstName: 'First', outcome: 'found', matchCount: 2 })]);
		expect(contactsWithEmail('shared@example.com')).toEqual([oldest.id, newer.id]);

		env.sandbox.clearLog();
		const stopped = await env.run('loanCrmContacts', createContact('stopWithError', { firstName: 'Third', email: 'shared@example.com' }));
		expect(stopped.error?.message).toBe(`Loan CRM already has a contact with this email: ID ${oldest.id}`);
		expect(stopped.error?.description).toBe(
			'2 contacts match; the oldest (lowest ID) is named. Nothing was created, because If Already Exists is set to Stop With Error. Set it to Return Existing to continue with the existing contact instead.',
		);
		expect(requestLines()).toEqual([contactSearch('shared@example.com', '&fields[contacts]=email')]);
	});

	it('no e-mail: created without a search, and the item says it was not searched (from version 1.2; version 1.1 says created)', async () => {
		const result = await env.run('loanCrmContacts', createContact('returnExisting', { firstName: 'NoEmail', email: '   ', lastName: 'Person' }));
		expect(result.error).toBeUndefined();
		expect(requestLines()).toEqual(['POST /jsonapi/contacts']);
		// The blank e-mail is left out like an empty field, not sent as spaces.
		expect(posts()[0].json).toEqual({ data: { type: 'contacts', attributes: { firstName: 'NoEmail', lastName: 'Person' } } });
		const [item] = jsonOf(result);
		expect(item).toEqual(expect.objectContaining({ firstName: 'NoEmail', email: null, outcome: 'created', matchCount: null, notSearched: 'Email is empty: Loan CRM was not searched' }));
		expect(Object.keys(item).slice(0, 4)).toEqual(['outcome', 'matchCount', 'notSearched', 'id']);

		// A saved node of version 1.1: its fields under Additional Fields, and no notSearched.
		env.sandbox.clearLog();
		const saved = await env.run('loanCrmContacts', createContact('returnExisting', { firstName: 'NoEmail', email: '', lastName: 'Saved' }, {}, true), { typeVersion: 1.1 });
		expect(requestLines()).toEqual(['POST /jsonapi/contacts']);
		expect(posts()[0].json).toEqual({ data: { type: 'contacts', attributes: { firstName: 'NoEmail', lastName: 'Saved' } } });
		expect(jsonOf(saved)).toEqual([expect.objectContaining({ lastName: 'Saved', outcome: 'created', matchCount: 0 })]);
		expect(jsonOf(saved)[0]).not.toHaveProperty('notSearched');
	});

	it('version 1.1 (saved workflows) reads E-mail, First Name and Last Name under Additional Fields; version 1.2 from their own parameters', async () => {
		const fields = { firstName: 'Keyfield', lastName: 'Person', email: 'keyfield.person@example.com', mobile: '+61400000001' };
		const saved = await env.run('loanCrmContacts', createContact('returnExisting', fields, {}, true), { typeVersion: 1.1 });
		const fresh = await env.run('loanCrmContacts', createContact('returnExisting', { ...fields, email: 'keyfield.other@example.com' }));
		expect([saved.error, fresh.error]).toEqual([undefined, undefined]);
		expect(posts().map((post) => post.json)).toEqual([
			{ data: { type: 'contacts', attributes: { firstName: 'Keyfield', lastName: 'Person', email: 'keyfield.person@example.com', mobile: '+61400000001' } } },
			{ data: { type: 'contacts', attributes: { email: 'keyfield.other@example.com', firstName: 'Keyfield', lastName: 'Person', mobile: '+61400000001' } } },
		]);
		// A version 1.2 node reads them from their own parameters only: under Additional Fields (where
		// version 1.2 does not offer them) they are not read, and with nothing else it writes nothing.
		env.sandbox.clearLog();
		const misplaced = await env.run('loanCrmContacts', createContact('returnExisting', { firstName: 'Only', email: 'only.collection@example.com' }, {}, true));
		expect(requestLines()).toEqual([]);
		expect(misplaced.error?.message).toMatch(/Additional Fields/);
	});

	it('Stop With Error: an error naming the existing contact, nothing created; with Continue On Fail an error item and the other items go on', async () => {
		const existing = env.sandbox.data.get('contacts', ids().contact);
		const email = String(existing?.attributes.email);
		const stopped = await env.run('loanCrmContacts', createContact('stopWithError', { firstName: 'Olivia', email }));
		expect(stopped.error?.message).toBe(`Loan CRM already has a contact with this email: ID ${ids().contact}`);
		// Only the ids are needed: the matched attribute as the sparse fieldset.
		expect(requestLines()).toEqual([contactSearch(email, '&fields[contacts]=email')]);
		expect(contactsWithEmail(email)).toEqual([ids().contact]);

		env.sandbox.clearLog();
		const input = [
			{ firstName: 'Olivia', email },
			{ firstName: 'New', email: 'new.person@example.com' },
		];
		const continued = await env.run('loanCrmContacts', contactPerItem('stopWithError', 1), { input, continueOnFail: true });
		expect(continued.error).toBeUndefined();
		expect(continued.items).toHaveLength(2);
		expect(continued.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(continued.items[0].json).toEqual({
			error: `Loan CRM already has a contact with this email: ID ${ids().contact}`,
			description: 'Nothing was created, because If Already Exists is set to Stop With Error. Set it to Return Existing to continue with the existing contact instead.',
			httpCode: '409',
		});
		const created = contactsWithEmail('new.person@example.com');
		expect(created).toHaveLength(1);
		expect(continued.items[1].json).toEqual(expect.objectContaining({ id: created[0], outcome: 'created' }));
		expect(requestLines()).toEqual([contactSearch(email, '&fields[contacts]=email'), contactSearch('new.person@example.com', '&fields[contacts]=email'), 'POST /jsonapi/contacts']);
	});

	it('an If Already Exists value that is not known stops the run before any request, naming the parameter', async () => {
		const result = await env.run('loanCrmContacts', createContact('={{ "skip" }}', { email: 'x@example.com' }));
		expect(result.error?.message).toBe('Parameter "If Already Exists" must be one of createAnother, returnExisting, stopWithError; got "skip"');
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});
});

describe('the same e-mail twice in one run', () => {
	const input = [
		{ firstName: 'Aroha', email: 'aroha@example.com' },
		{ firstName: 'Ben', email: 'ben@example.com' },
		{ firstName: 'Aroha again', email: ' AROHA@example.com' },
		{ firstName: 'Cara', email: 'cara@example.com' },
		{ firstName: 'Ben again', email: 'ben@example.com' },
		{ firstName: 'Dev', email: 'dev@example.com' },
	];

	for (const parallel of [1, 4]) {
		it(`Requests in Parallel ${parallel}: one contact per e-mail; the later item finds what the earlier one created`, async () => {
			env.sandbox.setLatency({ ms: 15, jitterMs: 10 });
			const result = await env.run('loanCrmContacts', contactPerItem('returnExisting', parallel), { input });
			expect(result.error).toBeUndefined();
			const items = jsonOf(result);
			expect(items).toHaveLength(input.length);
			expect(result.items.map((item) => item.pairedItem)).toEqual(input.map((_, index) => ({ item: index })));
			expect(items.map((item) => item.outcome)).toEqual(['created', 'created', 'found', 'created', 'found', 'created']);
			expect(items[2]).toEqual({ ...items[0], outcome: 'found', matchCount: 1 });
			expect(items[4]).toEqual({ ...items[1], outcome: 'found', matchCount: 1 });
			for (const email of ['aroha@example.com', 'ben@example.com', 'cara@example.com', 'dev@example.com']) expect(contactsWithEmail(email)).toHaveLength(1);

			const requests = env.sandbox.apiRequests();
			expect(requests.filter((request) => request.method === 'GET')).toHaveLength(6);
			expect(posts().map((request) => (request.json as { data: { attributes: IDataObject } }).data.attributes.email)).toEqual(
				expect.arrayContaining(['aroha@example.com', 'ben@example.com', 'cara@example.com', 'dev@example.com']),
			);
			expect(posts()).toHaveLength(4);
			// The later item's search arrived after the earlier item's create was answered.
			const createOf = (email: string) => posts().find((request) => (request.json as { data: { attributes: IDataObject } }).data.attributes.email === email) as LoggedRequest;
			const searchFor = (email: string) => requests.filter((request) => request.method === 'GET' && request.query.filter === `equals(email,'${email}')`);
			for (const [email, later] of [['aroha@example.com', 'AROHA@example.com'], ['ben@example.com', 'ben@example.com']]) {
				const laterSearch = searchFor(later).at(-1) as LoggedRequest;
				expect(laterSearch.seq).toBeGreaterThan(createOf(email).seq);
				expect(laterSearch.inFlightAtArrival).not.toContain(createOf(email).seq);
			}
			const peak = Math.max(...requests.map((request) => 1 + request.inFlightAtArrival.length));
			if (parallel === 1) expect(peak).toBe(1);
			else {
				// Items with different e-mails still run at once.
				expect(peak).toBeGreaterThanOrEqual(2);
				expect(peak).toBeLessThanOrEqual(4);
			}
		});
	}

	it('without Continue On Fail, a failed create stops the later item with the same e-mail before it searches', async () => {
		env.sandbox.injectFault({ method: 'POST', path: '/jsonapi/contacts' }, { status: 422 }, 1);
		const sameTwice = [
			{ firstName: 'Aroha', email: 'aroha@example.com' },
			{ firstName: 'Ben', email: 'ben@example.com' },
			{ firstName: 'Aroha again', email: 'aroha@example.com' },
		];
		const result = await env.run('loanCrmContacts', contactPerItem('returnExisting', 4), { input: sameTwice });
		expect(result.error?.message).toMatch(/^Loan CRM rejected the data \(422\)/);
		const searches = env.sandbox.apiRequests().filter((request) => request.query.filter === "equals(email,'aroha@example.com')");
		expect(searches).toHaveLength(1);
		expect(contactsWithEmail('aroha@example.com')).toHaveLength(0);
	});
});

describe('the search and the create through the transport', () => {
	it('a 429 on the search is waited out and the search repeated; then one create', async () => {
		env.sandbox.injectFault({ method: 'GET', path: '/jsonapi/contacts' }, { status: 429, headers: { 'retry-after': '0' } }, 1);
		const result = await env.run('loanCrmContacts', createContact('returnExisting', { firstName: 'Rate', email: 'rate@example.com' }));
		expect(result.error).toBeUndefined();
		expect(env.sandbox.apiRequests().map((request) => `${request.method} ${request.status}`)).toEqual(['GET 429', 'GET 200', 'POST 201']);
		expect(jsonOf(result)).toEqual([expect.objectContaining({ email: 'rate@example.com', outcome: 'created' })]);
	});

	it('a create that met a 503 is not repeated; with Continue On Fail the next item with that e-mail searches again', async () => {
		env.sandbox.injectFault({ method: 'POST', path: '/jsonapi/contacts' }, { status: 503 }, 1);
		const input = [
			{ firstName: 'Once', email: 'once@example.com' },
			{ firstName: 'Once again', email: 'once@example.com' },
		];
		const result = await env.run('loanCrmContacts', contactPerItem('returnExisting', 4), { input, continueOnFail: true });
		expect(result.items).toHaveLength(2);
		expect(result.items[0].json.error).toMatch(/503/);
		expect(result.items[0].json.description).toMatch(/was not repeated automatically/);
		expect(requestLines()).toEqual([contactSearch('once@example.com'), 'POST /jsonapi/contacts', contactSearch('once@example.com'), 'POST /jsonapi/contacts']);
		expect(env.sandbox.apiRequests().map((request) => request.status)).toEqual([200, 503, 200, 201]);
		expect(result.items[1].json).toEqual(expect.objectContaining({ firstName: 'Once again', outcome: 'created' }));
	});
});

describe('Deal External Reference → Create, If Already Exists', () => {
	const referenceSearch = (dealId: string, integrationId: string, reference: string, fields = '') =>
		`GET /jsonapi/deal-external-references?filter=and(equals(deal.id,'${dealId}'),equals(integration.id,'${integrationId}'),equals(externalReference,'${reference}'))&sort=id${fields}&page[size]=100`;

	it('Return Existing: the reference with the same deal, integration and value (any case) is returned as a create returns one', async () => {
		const created = await env.run('loanCrmDeals', createReference('returnExisting', 'WEBFORM-42', ids().dealWithoutNotes, ids().otherIntegration));
		expect(created.error).toBeUndefined();
		expect(requestLines()).toEqual([referenceSearch(ids().dealWithoutNotes, ids().otherIntegration, 'WEBFORM-42'), 'POST /jsonapi/deal-external-references']);
		const [createdItem] = jsonOf(created);
		expect(createdItem).toEqual(expect.objectContaining({ type: 'deal-external-references', externalReference: 'WEBFORM-42', outcome: 'created' }));

		env.sandbox.clearLog();
		const found = await env.run('loanCrmDeals', createReference('returnExisting', ' webform-42 ', ids().dealWithoutNotes, ids().otherIntegration));
		expect(requestLines()).toEqual([referenceSearch(ids().dealWithoutNotes, ids().otherIntegration, 'webform-42')]);
		const [foundItem] = jsonOf(found);
		expect(foundItem).toEqual({ ...createdItem, outcome: 'found', matchCount: 1 });
		// The same columns in the same order as the created item: outcome and matchCount first.
		expect(Object.keys(foundItem)).toEqual(Object.keys(createdItem));
		expect(Object.keys(foundItem).slice(0, 3)).toEqual(['outcome', 'matchCount', 'id']);
	});

	it('Stop With Error names the existing reference (409); another value on the same deal and integration is not a match and the service refuses it', async () => {
		const stopped = await env.run('loanCrmDeals', createReference('stopWithError', 'ABC1234', ids().dealWithNotes, ids().integration), { continueOnFail: true });
		expect(requestLines()).toEqual([referenceSearch(ids().dealWithNotes, ids().integration, 'ABC1234', '&fields[deal-external-references]=externalReference')]);
		expect(jsonOf(stopped)).toEqual([
			{
				error: `Loan CRM already has a deal external reference with this deal, integration and external reference: ID ${ids().dealExternalReference}`,
				description: 'Nothing was created, because If Already Exists is set to Stop With Error. Set it to Return Existing to continue with the existing deal external reference instead.',
				httpCode: '409',
			},
		]);

		env.sandbox.clearLog();
		const other = await env.run('loanCrmDeals', createReference('returnExisting', 'XYZ999', ids().dealWithNotes, ids().integration));
		expect(requestLines()).toEqual([referenceSearch(ids().dealWithNotes, ids().integration, 'XYZ999'), 'POST /jsonapi/deal-external-references']);
		expect(other.error?.message).toMatch(/conflict \(409\)/);
	});
});

describe('examples/web-form-to-contact.json, the same form sent twice', () => {
	it('the second submission returns the first contact and reference: the service holds one of each', async () => {
		const submit = async (submission: IDataObject) =>
			await runWorkflow(webFormExample(submission, ids().otherIntegration), { credentials: env.store, startNode: 'On form submission' });
		const form = { 'First name': 'Aroha', 'Last name': 'Ngata', Email: 'aroha.ngata@example.com', Mobile: '0412 345 678', 'Deal number': Number(ids().dealWithoutNotes), 'I agree to receive marketing messages': 'Yes' };
		const first = await submit(form);
		expect(first.error).toBeUndefined();
		const [contact] = first.output('Create contact').map((item) => item.json);
		const [reference] = first.output('Record the form on the deal').map((item) => item.json);
		expect([contact.outcome, reference.outcome]).toEqual(['created', 'created']);
		expect(reference.externalReference).toBe(`WEBFORM-${String(contact.id)}`);

		env.sandbox.clearLog();
		const second = await submit({ ...form, 'First name': 'Aroha ', Email: ' Aroha.Ngata@Example.com' });
		expect(second.error).toBeUndefined();
		expect(second.output('Create contact').map((item) => item.json)).toEqual([{ ...contact, outcome: 'found', matchCount: 1 }]);
		expect(second.output('Record the form on the deal').map((item) => item.json)).toEqual([{ ...reference, outcome: 'found', matchCount: 1 }]);
		// Two searches, nothing written.
		expect(env.sandbox.apiRequests().map((request) => `${request.method} ${request.path}`)).toEqual(['GET /jsonapi/contacts', 'GET /jsonapi/deal-external-references']);
		expect(contactsWithEmail('aroha.ngata@example.com')).toEqual([contact.id]);
		const references = env.sandbox.data
			.list('deal-external-references')
			.filter((record) => (record.relationships.deal as { id: string } | null)?.id === ids().dealWithoutNotes);
		expect(references.map((record) => [record.id, record.attributes.externalReference])).toEqual([[reference.id, `WEBFORM-${String(contact.id)}`]]);
	});
});
