/**
 * Every operation of the four action nodes, run in n8n-core's engine against the sandbox: the request
 * the service received (method, path, query and exact body as harness/operation-examples.ts states
 * it, for the e2e too; headers) and the items n8n produced.
 */
import type { OperationKey } from '../../harness/operation-examples';
import { operationExamples, operationKeys, requestProblems } from '../../harness/operation-examples';
import type { LoggedRequest } from '../../sandbox';
import { expectJsonApiHeaders, jsonOf, useSandbox } from './helpers';

const env = useSandbox();
const ids = () => env.sandbox.data.ids;

/** Runs an operation with its parameter set from the shared table (harness/operation-examples.ts),
 * as saved workflows hold it: at version 1, as the e2e imports the same table. */
async function runExample(key: OperationKey) {
	const example = operationExamples(ids())[key];
	return await env.run(example.node, example.parameters, { typeVersion: 1 });
}

function onlyRequest(): LoggedRequest {
	const requests = env.sandbox.apiRequests();
	expect(requests).toHaveLength(1);
	return requests[0];
}

/** The one request the example made, checked against the table's request for it. */
function exampleRequest(key: OperationKey): LoggedRequest {
	const request = onlyRequest();
	expect({ key, problems: requestProblems(request, operationExamples(ids())[key].request) }).toEqual({ key, problems: [] });
	return request;
}


afterEach(() => env.sandbox.data.reset());

describe('every example of the shared table', () => {
	it.each(operationKeys())('%s: the request the table states, and output items paired to the input', async (key) => {
		const result = await runExample(key);
		expect(result.error).toBeUndefined();
		exampleRequest(key);
		expect(result.items.length).toBeGreaterThan(0);
		expect(result.items.map((item) => item.pairedItem)).toEqual(result.items.map(() => ({ item: 0 })));
	});
});

describe('Loan CRM Deals', () => {
	it('dealStructure.getDeal: GET /deal-structures/{id}/deal', async () => {
		const result = await runExample('loanCrmDeals/dealStructure.getDeal');
		const request = exampleRequest('loanCrmDeals/dealStructure.getDeal');
		expectJsonApiHeaders(env.sandbox.userId, request, false);
		const deal = env.sandbox.data.get('deals', ids().dealWithNotes);
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: ids().dealWithNotes, type: 'deals', name: deal?.attributes.name })]);
	});

	it('dealStructure.update: PATCH with only the fields set, typed as the service expects', async () => {
		const result = await runExample('loanCrmDeals/dealStructure.update');
		expect(result.error).toBeUndefined();
		expectJsonApiHeaders(env.sandbox.userId, exampleRequest('loanCrmDeals/dealStructure.update'), true);
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ id: ids().dealStructure, type: 'deal-structures', interestRate: 0.0549, rateTermYears: 3, fixedRateExpiryDate: '2029-06-30' }),
		]);
		expect(env.sandbox.data.get('deal-structures', ids().dealStructure)?.attributes).toEqual(expect.objectContaining({ loanStructureType: 'InterestOnly' }));
	});

	it('dealStructure.update: a value of the wrong type is stopped before sending, naming the field', async () => {
		const result = await env.run('loanCrmDeals', {
			resource: 'dealStructure',
			operation: 'update',
			dealStructureId: ids().dealStructure,
			updateFields: { interestRate: '={{ "five percent" }}' },
		});
		expect(result.error?.message).toBe('Parameter "Update Fields → Interest Rate" must be a number; got "five percent"');
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});

	it('dealSecurity.getMany: GET /deal-securities with paging', async () => {
		const result = await runExample('loanCrmDeals/dealSecurity.getMany');
		exampleRequest('loanCrmDeals/dealSecurity.getMany');
		const items = jsonOf(result);
		expect(items).toHaveLength(4);
		expect(items[0]).toEqual(expect.objectContaining({ type: 'deal-securities', id: expect.any(String) }));
	});

	it('dealExternalReference.getMany: find a deal by integration name and reference', async () => {
		const result = await runExample('loanCrmDeals/dealExternalReference.getMany');
		exampleRequest('loanCrmDeals/dealExternalReference.getMany');
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({
				id: ids().dealExternalReference,
				externalReference: 'ABC1234',
				deal: expect.objectContaining({ id: ids().dealWithNotes, type: 'deals' }),
			}),
		]);
	});

	it('dealExternalReference.create: POST with both relationships, 201 read from the body', async () => {
		const result = await runExample('loanCrmDeals/dealExternalReference.create');
		expect(result.error).toBeUndefined();
		expectJsonApiHeaders(env.sandbox.userId, exampleRequest('loanCrmDeals/dealExternalReference.create'), true);
		const [item] = jsonOf(result);
		expect(item).toEqual(expect.objectContaining({ type: 'deal-external-references', externalReference: 'HUB-778' }));
		expect(env.sandbox.data.get('deal-external-references', item.id as string)?.attributes).toEqual({ externalReference: 'HUB-778' });
	});

	it('dealExternalReference.create: a second reference for the same integration is a conflict, sent once', async () => {
		const result = await env.run('loanCrmDeals', {
			resource: 'dealExternalReference',
			operation: 'create',
			externalReference: 'DUPLICATE',
			integrationId: ids().integration,
			dealId: ids().dealWithNotes,
		});
		expect(result.error?.message).toMatch(/conflict \(409\)/);
		expect(env.sandbox.apiRequests()).toHaveLength(1);
	});

	it('dealNote.getMany: every note of a deal as separate items', async () => {
		const result = await runExample('loanCrmDeals/dealNote.getMany');
		exampleRequest('loanCrmDeals/dealNote.getMany');
		const items = jsonOf(result);
		expect(items).toHaveLength(3);
		expect(items.every((item) => item.type === 'deal-notes' && typeof item.title === 'string')).toBe(true);
	});

	it('dealNote.update: PATCH title and detail only', async () => {
		const result = await runExample('loanCrmDeals/dealNote.update');
		exampleRequest('loanCrmDeals/dealNote.update');
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: ids().dealNote, title: 'Valuation booked', detail: 'Valuer attends Tuesday 10am.' })]);
	});

	it('dealNote.update answered 204 gives {id, type, ...the attributes sent}', async () => {
		env.sandbox.injectFault({ method: 'PATCH', path: /deal-notes/ }, { status: 204 });
		const result = await env.run('loanCrmDeals', { resource: 'dealNote', operation: 'update', dealNoteId: ids().dealNote, updateFields: { title: 'Only title' } });
		expect(jsonOf(result)).toEqual([{ id: ids().dealNote, type: 'deal-notes', title: 'Only title' }]);
	});

	it('dealNote.update with no fields is refused before sending', async () => {
		const result = await env.run('loanCrmDeals', { resource: 'dealNote', operation: 'update', dealNoteId: ids().dealNote, updateFields: {} });
		expect(result.error?.message).toBe('Add at least one field under "Update Fields"');
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});

	it('dealNote.delete: DELETE, 204 gives {id, deleted: true}', async () => {
		const result = await runExample('loanCrmDeals/dealNote.delete');
		const request = exampleRequest('loanCrmDeals/dealNote.delete');
		expect(request.body).toBe('');
		expectJsonApiHeaders(env.sandbox.userId, request, false);
		expect(jsonOf(result)).toEqual([{ id: ids().dealNote, deleted: true }]);
		expect(env.sandbox.data.get('deal-notes', ids().dealNote)).toBeUndefined();
	});

	it('customStatus.get: the single custom status of a deal, no item when there is none', async () => {
		const withStatus = await runExample('loanCrmDeals/customStatus.get');
		exampleRequest('loanCrmDeals/customStatus.get');
		const statusOfDeal = env.sandbox.data.get('deals', ids().dealWithCustomStatus)?.relationships.customStatus as { id: string };
		const stored = env.sandbox.data.get('custom-statuses', statusOfDeal.id);
		expect(jsonOf(withStatus)).toEqual([{ type: 'custom-statuses', id: statusOfDeal.id, ...stored?.attributes }]);
		env.sandbox.clearLog();
		const without = await env.run('loanCrmDeals', { resource: 'customStatus', operation: 'get', dealId: ids().dealWithoutCustomStatus });
		expect(without.error).toBeUndefined();
		expect(jsonOf(without)).toEqual([]);
	});

	it('income.getMany: GET /incomes with sort', async () => {
		const result = await runExample('loanCrmDeals/income.getMany');
		// In the order the service reads them: sort, then the page.
		expect(exampleRequest('loanCrmDeals/income.getMany').rawQuery).toBe('sort=-value&page%5Bsize%5D=5');
		const values = jsonOf(result).map((item) => item.value as number);
		expect(values).toHaveLength(5);
		expect([...values].sort((a, b) => b - a)).toEqual(values);
	});
});

describe('Loan CRM Contacts', () => {
	it('contact.getMany: filter with an apostrophe finds the contact', async () => {
		const result = await runExample('loanCrmContacts/contact.getMany');
		exampleRequest('loanCrmContacts/contact.getMany');
		const items = jsonOf(result);
		expect(items.map((item) => item.id)).toContain(ids().contactWithApostrophe);
		expect(items.every((item) => item.lastName === "O'Brien")).toBe(true);
	});

	it('contact.create: attributes and the contactGroup relationship', async () => {
		const result = await runExample('loanCrmContacts/contact.create');
		expect(result.error).toBeUndefined();
		exampleRequest('loanCrmContacts/contact.create');
		const [item] = jsonOf(result);
		expect(item).toEqual(expect.objectContaining({ type: 'contacts', firstName: 'Aroha', dateOfBirth: '1990-04-05' }));
		expect(env.sandbox.data.get('contacts', item.id as string)?.relationships.contactGroup).toEqual({ type: 'contact-groups', id: ids().contactGroup });
	});

	it('contact.create: relationships only, and nothing at all is refused', async () => {
		const onlyGroup = await env.run('loanCrmContacts', { resource: 'contact', operation: 'create', additionalFields: { contactGroupId: ids().contactGroup } });
		expect(onlyGroup.error).toBeUndefined();
		expect(onlyRequest().json).toEqual({ data: { type: 'contacts', relationships: { contactGroup: { data: { type: 'contact-groups', id: ids().contactGroup } } } } });
		env.sandbox.clearLog();
		const nothing = await env.run('loanCrmContacts', { resource: 'contact', operation: 'create', additionalFields: {} });
		expect(nothing.error?.message).toBe('Fill in Email, First Name, Last Name or add a field under "Additional Fields"');
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});

	it('contactExternalReference.getContact: the single contact', async () => {
		const result = await runExample('loanCrmContacts/contactExternalReference.getContact');
		exampleRequest('loanCrmContacts/contactExternalReference.getContact');
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: ids().contact, type: 'contacts' })]);
	});

	it('contactExternalReference.update: externalReference only, never relationships', async () => {
		const result = await runExample('loanCrmContacts/contactExternalReference.update');
		exampleRequest('loanCrmContacts/contactExternalReference.update');
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: ids().contactExternalReference, externalReference: 'CRM-0042' })]);
	});

	it('contactCategory.update: the required name', async () => {
		const result = await runExample('loanCrmContacts/contactCategory.update');
		exampleRequest('loanCrmContacts/contactCategory.update');
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: ids().contactCategory, type: 'contact-categories', name: 'Refinance prospects' })]);
	});
});

describe('Loan CRM Leads & Tasks', () => {
	it('lead.get: GET /leads/{id}', async () => {
		const result = await runExample('loanCrmLeadsAndTasks/lead.get');
		exampleRequest('loanCrmLeadsAndTasks/lead.get');
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: ids().lead, type: 'leads', dealStatus: expect.any(String) })]);
	});

	it('task.update: progress, due date as UTC and relationships as ids', async () => {
		const result = await runExample('loanCrmLeadsAndTasks/task.update');
		expect(result.error).toBeUndefined();
		exampleRequest('loanCrmLeadsAndTasks/task.update');
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: ids().task, progress: 'Completed', priority: 'High' })]);
	});

	it('task.update: to-many relationship from comma-separated ids', async () => {
		const result = await env.run('loanCrmLeadsAndTasks', {
			resource: 'task',
			operation: 'update',
			taskId: ids().taskWithDeal,
			updateFields: { contactGroupIds: ` ${ids().contactGroup} ` },
		});
		expect(result.error).toBeUndefined();
		expect(onlyRequest().json).toEqual({
			data: { type: 'tasks', id: ids().taskWithDeal, relationships: { contactGroups: { data: [{ type: 'contact-groups', id: ids().contactGroup }] } } },
		});
	});
});

describe('Loan CRM Organisations & Assets', () => {
	it('organisation.getAddresses: each address an item', async () => {
		const result = await runExample('loanCrmOrganisationsAndAssets/organisation.getAddresses');
		exampleRequest('loanCrmOrganisationsAndAssets/organisation.getAddresses');
		const items = jsonOf(result);
		expect(items).toHaveLength(2);
		expect(items.every((item) => item.type === 'organisation-addresses' && typeof item.formattedAddress === 'string')).toBe(true);
	});

	it('asset.getAddresses: each address an item', async () => {
		const result = await runExample('loanCrmOrganisationsAndAssets/asset.getAddresses');
		exampleRequest('loanCrmOrganisationsAndAssets/asset.getAddresses');
		expect(jsonOf(result)).toEqual([expect.objectContaining({ type: 'financial-address', formattedAddress: expect.any(String) })]);
	});
});

describe('ids and items', () => {
	it.each([['0'], ['-4'], ['2147483648'], ['12a'], ['1.0'], ['={{ {"id": 4} }}']])('rejects id %j before any request', async (value) => {
		const result = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: value });
		expect(result.error?.message).toMatch(/^Parameter "Lead" must be a record ID \(a whole number\); got /);
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});

	it('Continue On Fail: every input item gets an item, paired, failures carrying the error', async () => {
		const input = [{ id: ids().lead }, { id: '0' }, { id: '999999' }, { id: ids().lead }];
		const result = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: '={{ $json.id }}' }, { input, continueOnFail: true });
		expect(result.error).toBeUndefined();
		const items = result.items;
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(items[0].json.id).toBe(ids().lead);
		expect(items[1].json.error).toMatch(/^Parameter "Lead" must be a record ID \(a whole number\); got "0"$/);
		expect(items[2].json.error).toMatch(/^Loan CRM has no lead with ID 999999$/);
		expect(items[3].json.id).toBe(ids().lead);
	});

	it('without Continue On Fail the run stops at the first failure; the item travels as itemIndex, not in the message', async () => {
		const input = [{ id: ids().lead }, { id: '999999' }, { id: ids().lead }];
		const result = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: '={{ $json.id }}' }, { input });
		expect(result.error?.message).toBe('Loan CRM has no lead with ID 999999');
		expect(result.error?.context.itemIndex).toBe(1);
		// Requests in Parallel (default 4): item 0 goes first alone, then items 1 and 2 together, so
		// item 2 was already sent when item 1 failed.
		const paths = env.sandbox.apiRequests().map((request) => request.path);
		expect(paths[0]).toBe(`/jsonapi/leads/${ids().lead}`);
		expect(paths.slice(1).sort()).toEqual([`/jsonapi/leads/${ids().lead}`, '/jsonapi/leads/999999']);
	});

	it('without Continue On Fail and one request at a time, nothing after the failing item is sent', async () => {
		const input = [{ id: ids().lead }, { id: '999999' }, { id: ids().lead }];
		const result = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: '={{ $json.id }}', requestOptions: { requestsInParallel: 1 } }, { input });
		expect(result.error?.message).toBe('Loan CRM has no lead with ID 999999');
		expect(result.error?.context.itemIndex).toBe(1);
		expect(env.sandbox.apiRequests()).toHaveLength(2);
	});
});

describe('optional fields that resolve to nothing', () => {
	it('create leaves out empty, undefined and null values from expressions', async () => {
		const result = await env.run(
			'loanCrmContacts',
			{
				resource: 'contact',
				operation: 'create',
				firstName: '={{ $json.first }}',
				email: '={{ $json.email }}',
				lastName: '={{ $json.last }}',
				additionalFields: { mobile: '={{ $json.mobile }}', preferredName: '={{ $json.preferred }}' },
			},
			{ input: [{ first: 'Mere', mobile: '', email: null }] },
		);
		expect(result.error).toBeUndefined();
		expect(onlyRequest().json).toEqual({ data: { type: 'contacts', attributes: { firstName: 'Mere' } } });
	});

	it('a create with every field empty sends nothing and names where to fill one in', async () => {
		const empty = { resource: 'contact', operation: 'create', email: '={{ "" }}', additionalFields: { mobile: '' } };
		const result = await env.run('loanCrmContacts', empty);
		expect(result.error?.message).toBe('Fill in Email, First Name, Last Name or add a field under "Additional Fields"');
		const saved = await env.run('loanCrmContacts', { resource: 'contact', operation: 'create', additionalFields: { email: '={{ "" }}' } }, { typeVersion: 1.1 });
		expect(saved.error?.message).toBe('Add at least one field under "Additional Fields"');
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});

	it('update sends null to clear an attribute when an expression gives null', async () => {
		const result = await env.run('loanCrmDeals', {
			resource: 'dealNote',
			operation: 'update',
			dealNoteId: ids().dealNote,
			updateFields: { title: 'Kept', detail: '={{ null }}' },
		});
		expect(result.error).toBeUndefined();
		expect(onlyRequest().json).toEqual({ data: { type: 'deal-notes', id: ids().dealNote, attributes: { title: 'Kept', detail: null } } });
	});
});

describe('Request Options → User ID', () => {
	it("acts as another adviser: its id replaces the credential's UserId on every request of the node", async () => {
		const other = env.sandbox.data.ids.adviserContactIds.find((id) => id !== env.sandbox.userId) as string;
		const note = await env.run('loanCrmDeals', {
			resource: 'dealNote',
			operation: 'update',
			dealNoteId: ids().dealNote,
			updateFields: { title: 'Written by another adviser' },
			requestOptions: { userId: ` ${other} ` },
		});
		expect(note.error).toBeUndefined();
		expect(onlyRequest().headers.userid).toBe(other);
		env.sandbox.clearLog();
		await env.run('loanCrmDeals', { resource: 'deal', operation: 'getMany', limit: 150, requestOptions: { userId: other } });
		const requests = env.sandbox.apiRequests();
		expect(requests).toHaveLength(2);
		expect(requests.map((request) => request.headers.userid)).toEqual([other, other]);
	});

	it('an override that is not a whole number is stopped before any request', async () => {
		const result = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'get', leadId: ids().lead, requestOptions: { userId: 'adviser-7' } });
		expect(result.error?.message).toMatch(/^Parameter "Request Options → User ID" must be a record ID \(a whole number\)/);
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});
});
