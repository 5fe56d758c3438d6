/**
 * One pass per item (issue 39): each action reads and checks an item's parameters once, and that one
 * reading gives both what the router orders the item by and what it sends. Counted in n8n-core's
 * engine: every getNodeParameter call the node makes, by parameter and item. An item whose
 * parameters are wrong still fails alone, with its own error and item index, before any request.
 */
import { ExecuteContext } from 'n8n-core';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { OperationKey } from '../../harness/operation-examples';
import { operationExamples, operationKeys } from '../../harness/operation-examples';
import { jsonOf, useSandbox } from './helpers';

const env = useSandbox();
const ids = () => env.sandbox.data.ids;

afterEach(() => env.sandbox.data.reset());

/** Every getNodeParameter call a Loan CRM node makes in the runs inside `work`: `name@item`, in call order. */
async function parameterReads(work: () => Promise<unknown>): Promise<string[]> {
	const reads: string[] = [];
	const prototype = ExecuteContext.prototype as unknown as { _getNodeParameter: (name: string, itemIndex: number, ...rest: unknown[]) => unknown };
	const original = prototype._getNodeParameter;
	const spy = jest.spyOn(prototype, '_getNodeParameter').mockImplementation(function (this: ExecuteContext, name: string, itemIndex: number, ...rest: unknown[]) {
		// Not the harness's start node, which hands the test's input items over.
		if (this.getNode().type.startsWith('n8n-nodes-loan-crm.')) reads.push(`${name}@${itemIndex}`);
		return original.call(this, name, itemIndex, ...rest);
	});
	try {
		await work();
	} finally {
		spy.mockRestore();
	}
	return reads;
}

/** How often each `name@item` was read. */
function counts(reads: readonly string[]): Record<string, number> {
	const result: Record<string, number> = {};
	for (const read of reads) result[read] = (result[read] ?? 0) + 1;
	return result;
}

/**
 * The run reads its own settings once, from the first item: Resource, Operation and Request Options
 * (Requests in Parallel, When Rate Limited). Every other read is an item's, and happens once.
 */
const RUN_SETTINGS = ['resource@0', 'operation@0', 'requestOptions@0'];

function itemReads(reads: readonly string[]): Record<string, number> {
	const rest = [...reads];
	for (const setting of RUN_SETTINGS) {
		const at = rest.indexOf(setting);
		if (at >= 0) rest.splice(at, 1);
	}
	return counts(rest);
}

/** Each item's parameter names, in the order the item read them. */
function namesByItem(reads: readonly string[], itemCount: number): string[][] {
	const items = Object.keys(itemReads(reads)).map((read) => read.split('@'));
	return Array.from({ length: itemCount }, (_, item) => items.filter(([, index]) => Number(index) === item).map(([name]) => name));
}

/** Contact → Create as a new node has it (version 1.2): E-mail and First Name on top, the date of birth under Additional Fields. */
const contactCreate = (parameters: INodeParameters = {}): INodeParameters => ({
	resource: 'contact',
	operation: 'create',
	ifAlreadyExists: 'returnExisting',
	firstName: '={{ $json.firstName }}',
	email: '={{ $json.email }}',
	additionalFields: { dateOfBirth: '={{ $json.dateOfBirth }}' },
	...parameters,
});

/** What each item of `contactCreate` reads, in order: If Already Exists, Request Options → User ID (the adviser it acts as), the collection, the fields of their own. */
const CONTACT_CREATE_READS = ['ifAlreadyExists', 'requestOptions', 'additionalFields', 'email', 'firstName', 'lastName'];

describe('each item is read once', () => {
	it('Create with If Already Exists at Requests in Parallel 2: every parameter of every item read once, two items of one e-mail in item order', async () => {
		const input: IDataObject[] = [
			{ firstName: 'Aroha', email: 'aroha.ngata@example.com', dateOfBirth: '1990-02-03' },
			{ firstName: 'Ruby', email: 'ruby.oconnor@example.com', dateOfBirth: '1985-07-08' },
			{ firstName: 'Aroha again', email: 'Aroha.Ngata@example.com', dateOfBirth: '1990-02-03' },
		];
		let result: Awaited<ReturnType<typeof env.run>> | undefined;
		const reads = await parameterReads(async () => {
			result = await env.run('loanCrmContacts', contactCreate({ requestOptions: { requestsInParallel: 2 } }), { input });
		});
		expect(result?.error).toBeUndefined();
		// What each item reads: If Already Exists, Request Options → User ID, its fields; once each.
		expect(itemReads(reads)).toEqual(Object.fromEntries([0, 1, 2].flatMap((item) => CONTACT_CREATE_READS.map((name) => [`${name}@${item}`, 1]))));
		expect(namesByItem(reads, 3)).toEqual([CONTACT_CREATE_READS, CONTACT_CREATE_READS, CONTACT_CREATE_READS]);
		expect(reads.slice(0, RUN_SETTINGS.length)).toEqual(RUN_SETTINGS);
		// The third item found what the first created: the same match, so it waited for the first.
		const [first, , third] = jsonOf(result as NonNullable<typeof result>);
		expect([first.outcome, third.outcome, third.id]).toEqual(['created', 'found', first.id]);
		expect(env.sandbox.apiRequests().filter((request) => request.method === 'POST')).toHaveLength(2);
	});

	it.each([...operationKeys(), 'customRequest'] as const)('%s, two items: every parameter of each item read once', async (key) => {
		const custom = key === 'customRequest';
		const example = custom ? undefined : operationExamples(ids())[key as OperationKey];
		const node = example?.node ?? 'loanCrmLeadsAndTasks';
		const parameters: INodeParameters = example?.parameters ?? {
			resource: 'customRequest',
			operation: 'send',
			method: 'PATCH',
			path: `/tasks/${ids().task}`,
			jsonBody: JSON.stringify({ data: { type: 'tasks', id: ids().task, attributes: { progress: 40 } } }),
		};
		const reads = await parameterReads(async () => {
			// Continue On Fail: a second delete of one record fails, and is still read once.
			await env.run(node, parameters, { input: [{ n: 1 }, { n: 2 }], continueOnFail: true });
		});
		const byItem = namesByItem(reads, 2);
		expect(byItem[0].length).toBeGreaterThan(0);
		// Both items read the same parameters, each once.
		expect(byItem[1]).toEqual(byItem[0]);
		expect(Object.entries(itemReads(reads)).filter(([, count]) => count !== 1)).toEqual([]);
		expect(reads.slice(0, RUN_SETTINGS.length)).toEqual(RUN_SETTINGS);
	});

	it('Fact Find → Create by manual mapping with If Already Exists: each list, each lead part, once per item', async () => {
		const person = (name: string) => ({ entryName: name, firstName: '={{ $json.first }}', email: `={{ $json.first.toLowerCase() + '.${name.replace(' ', '')}@example.com' }}` });
		const reads = await parameterReads(async () => {
			const result = await env.run(
				'loanCrmLeadsAndTasks',
				{
					resource: 'structuredLead',
					operation: 'create',
					people: { person: [person('Applicant 1'), person('Applicant 2')] },
					incomes: { income: [{ entryName: 'Salary', ownership: ['Applicant 1'], value: '={{ $json.income }}', frequency: 'Yearly' }] },
					externalReference: '={{ $json.first }}',
					externalIntegration: 'MyIntegrationSource',
					ifAlreadyExists: 'returnExisting',
					requestOptions: { requestsInParallel: 2 },
				},
				{ input: [{ first: 'Ana', income: '80000' }, { first: 'Bo', income: '90,000' }] },
			);
			expect(result.error).toBeUndefined();
		});
		const lists = ['people', 'addresses', 'employments', 'incomes', 'assets', 'liabilities', 'expenses'];
		// In the order an error names them: If Already Exists, the adviser (Allocate To, Request Options →
		// User ID), the fact find, the lead's own parts (the collection read first); then Simplify, which
		// shapes the item (node version 1.2: one shape created or found).
		const parameters = ['ifAlreadyExists', 'allocateTo', 'requestOptions', 'mode', ...lists, 'additionalFields', 'externalReference', 'externalIntegration', 'simplify'];
		expect(itemReads(reads)).toEqual(Object.fromEntries([0, 1].flatMap((item) => parameters.map((name) => [`${name}@${item}`, 1]))));
		expect(namesByItem(reads, 2)[0]).toEqual(parameters);
	});
});

describe('an item whose parameters are wrong', () => {
	const input: IDataObject[] = [
		{ firstName: 'Aroha', email: 'aroha.ngata@example.com', dateOfBirth: '1990-02-03' },
		{ firstName: 'Ruby', email: 'ruby.oconnor@example.com', dateOfBirth: 'not a date' },
		{ firstName: 'Mere', email: 'mere.smith@example.com', dateOfBirth: '1979-11-12' },
	];
	const searches = () => env.sandbox.apiRequests().map((request) => decodeURIComponent(request.rawQuery).match(/equals\(email,'([^']+)'\)/)?.[1] ?? request.method);

	it('Continue On Fail: its own error item, paired, read once and nothing sent for it; the others run', async () => {
		let result: Awaited<ReturnType<typeof env.run>> | undefined;
		const reads = await parameterReads(async () => {
			result = await env.run('loanCrmContacts', contactCreate(), { input, continueOnFail: true });
		});
		const items = (result as NonNullable<typeof result>).items;
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[1].json).toEqual({ error: 'Parameter "Additional Fields → Date Of Birth" must be a date (YYYY-MM-DD); got "not a date"' });
		expect([items[0].json.outcome, items[2].json.outcome]).toEqual(['created', 'created']);
		// Items 0 and 2 each searched and created (at Requests in Parallel 4, in either order); item 1 sent nothing.
		expect(searches().sort()).toEqual(['POST', 'POST', 'aroha.ngata@example.com', 'mere.smith@example.com']);
		// Read up to the bad value, once; not again to send.
		expect(Object.entries(itemReads(reads)).filter(([, count]) => count !== 1)).toEqual([]);
		expect(namesByItem(reads, 3)[1]).toEqual(['ifAlreadyExists', 'requestOptions', 'additionalFields', 'email', 'firstName', 'lastName']);
	});

	it('without Continue On Fail, one item at a time: the run stops with its error and item index; no later item is started', async () => {
		const result = await env.run('loanCrmContacts', contactCreate({ requestOptions: { requestsInParallel: 1 } }), { input });
		expect(result.error?.message).toBe('Parameter "Additional Fields → Date Of Birth" must be a date (YYYY-MM-DD); got "not a date"');
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(1);
		expect(searches()).toEqual(['aroha.ngata@example.com', 'POST']);
	});
});
