/**
 * Every message the node builds from a service error, in n8n's words (issue 42): a 422 whose source
 * is one of the write's attributes names the parameter a user changes (its label, and its tool
 * argument when an agent fills it), not the API attribute, also inside the service's own sentences;
 * and no message or description says a full stop twice. Run in n8n-core's engine against the
 * sandbox: its own refusals of a lead, and every status and failure the transport turns into an
 * error, injected into the one request they answer.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { resolveOperations } from '../../nodes/shared/operation/operation';
import { OPERATIONS } from '../../nodes/LoanCrmLeadsAndTasks/operations';
import type { Fault } from '../../sandbox';
import { jsonOf, useSandbox } from './helpers';

const env = useSandbox();

afterEach(() => env.sandbox.data.reset());

const leadCreate = resolveOperations(OPERATIONS).find((operation) => operation.key === 'lead.create');
if (leadCreate === undefined) throw new Error('no lead.create');

/** Every attribute a lead's parameters send, with the label of the parameter that sends it. */
const LEAD_ATTRIBUTES = leadCreate.fields.flatMap((field) => [field.name, ...(field.hint.names ?? [])].map((name) => ({ name, label: field.parameterName.label })));

/** An API attribute name (camelCase) of a lead: none may appear in a message about a lead. */
const API_NAMES = [...new Set(LEAD_ATTRIBUTES.map((entry) => entry.name))].filter((name) => /[a-z][A-Z]/.test(name));

/** No sentence ends twice ("lead.. Check"), none starts with a stray mark, whatever the service wrote. */
function wordsProblems(text: string): string[] {
	const problems: string[] = [];
	if (/\.\s*\./.test(text)) problems.push(`a double full stop in: ${text}`);
	if (/\s[.,;:]/.test(text.replace(/ \.\.\./g, ''))) problems.push(`a mark after a space in: ${text}`);
	return problems;
}

/** The error item of one lead with `parameters`, Continue On Fail (a new node's version unless `typeVersion` says). */
async function leadError(parameters: INodeParameters = {}, typeVersion?: number): Promise<{ error: string; description: string }> {
	const result = await env.run('loanCrmLeadsAndTasks', { resource: 'lead', operation: 'create', email: 'words@example.com', ...parameters }, { continueOnFail: true, ...(typeVersion === undefined ? {} : { typeVersion }) });
	const [item] = jsonOf(result) as IDataObject[];
	expect(typeof item.error).toBe('string');
	return { error: String(item.error), description: String(item.description ?? '') };
}

describe("a lead refused by the service: the parameter a user changes, in n8n's words", () => {
	it('an unknown integration: names External Integration, and the allow-create flag by its parameter, not externalIntegrationAllowCreate', async () => {
		const { error } = await leadError({ externalReference: 'WORDS-1', externalIntegration: 'Brand New Form' });
		// The flag by its label in the node's version: from 1.2 "Create Integration If Missing" (issue 41).
		expect(error).toBe(
			'Loan CRM rejected the data (422): "External Integration": Input validation failed. Integration \'Brand New Form\' does not exist. Set "Additional Fields → Create Integration If Missing" to true to create it with the lead.',
		);
		// A node saved at 1.1 names the flag as its editor labels it.
		const saved = await leadError({ externalReference: 'WORDS-1', externalIntegration: 'Brand New Form' }, 1.1);
		expect(saved.error).toBe(
			'Loan CRM rejected the data (422): "External Integration": Input validation failed. Integration \'Brand New Form\' does not exist. Set "Additional Fields → External Integration Allow Create" to true to create it with the lead.',
		);
	});

	it('a reference without its integration names External Integration', async () => {
		const { error } = await leadError({ externalReference: 'WORDS-2' });
		expect(error).toBe('Loan CRM rejected the data (422): "External Integration": Input validation failed. An external reference needs the name of its integration ("External Integration").');
	});

	it('a title the service does not know: the parameter and the values it takes, one full stop between', async () => {
		const { error } = await leadError({ additionalFields: { title: 'Sir' } });
		expect(error).toMatch(/^Loan CRM rejected the data \(422\): "Additional Fields → Title": .*\. Parameter "Additional Fields → Title" takes one of: Mr, Mrs, Ms, Miss, Master, Dr$/);
		expect(wordsProblems(error)).toEqual([]);
	});

	it('a 422 at any attribute a lead sends, worded with the API name: the parameter instead, every time', async () => {
		expect(LEAD_ATTRIBUTES.length).toBeGreaterThan(35);
		const checked: string[] = [];
		for (const { name, label } of LEAD_ATTRIBUTES) {
			const fault: Fault = {
				status: 422,
				body: { errors: [{ status: '422', title: 'Input validation failed.', detail: `The value of ${name} is not valid.`, source: { pointer: `/data/attributes/${name}` } }] },
			};
			env.sandbox.injectFault({ method: 'POST', path: '/jsonapi/leads' }, fault, 1);
			const { error, description } = await leadError();
			expect([name, error.startsWith(`Loan CRM rejected the data (422): "${label}": Input validation failed. The value of `)]).toEqual([name, true]);
			expect([name, API_NAMES.filter((api) => new RegExp(`\\b${api}\\b`).test(error))]).toEqual([name, []]);
			expect([name, wordsProblems(`${error} ${description}`)]).toEqual([name, []]);
			checked.push(name);
		}
		expect(checked).toEqual(expect.arrayContaining(['sourceId', 'sourceCategoryId', 'sourceReferrerId', 'externalIntegrationAllowCreate', 'contactMatchExisting']));
	});
});

describe('every status the node words: one full stop at a time, whatever the service wrote', () => {
	const said = (status: number, extra: IDataObject = {}): Fault => ({
		status,
		body: { errors: [{ status: String(status), title: 'The service said something.', detail: 'It ends with a full stop.', ...extra }] },
	});
	const CASES: Array<[string, Fault, INodeParameters?]> = [
		['400 for a filter', said(400, { source: { parameter: 'filter' } })],
		['403', said(403, { source: { header: 'UserId' } })],
		['403 for Allocate To', said(403, { source: { header: 'UserId' } }), { allocateTo: { __rl: true, mode: 'id', value: '999999' } }],
		['404', said(404)],
		['404 of a relationship', said(404, { source: { pointer: '/data/relationships/contactGroup' } })],
		['405', said(405)],
		['406', said(406)],
		['409', said(409)],
		['415', said(415)],
		['422 without a pointer', said(422)],
		['422 at an unknown member', said(422, { source: { pointer: '/data/attributes/somethingElse' } })],
		['423', said(423)],
		['429, not waited for', { status: 429, headers: { 'retry-after': '30' }, body: { errors: [{ status: '429', title: 'Too Many Requests.' }] } }, { requestOptions: { rateLimitWaitMinutes: 0 } }],
		['500', said(500)],
		['502 to a write: not repeated', said(502)],
		['503 to a write: not repeated', said(503)],
		['a dropped connection', { kind: 'drop' }],
		['an HTML page', { kind: 'html', status: 500 }],
		['JSON that is not', { kind: 'malformedJson' }],
	];

	it.each(CASES)('%s', async (_label, fault, parameters = {}) => {
		env.sandbox.injectFault({ method: 'POST', path: '/jsonapi/leads' }, fault, 1);
		const { error, description } = await leadError(parameters);
		expect(error.length).toBeGreaterThan(10);
		expect(wordsProblems(error)).toEqual([]);
		expect(wordsProblems(description)).toEqual([]);
	});

	it('a filter the service rejects: the fields after the parameter, one full stop between', async () => {
		const result = await env.run('loanCrmDeals', { resource: 'deal', operation: 'getMany', options: { filter: "equals(status,'Settled')" } });
		const message = String(result.error?.message);
		expect(message).toMatch(/^Loan CRM rejected the request \(400\): query parameter "filter": .*'Settled'\)\. Check parameter "Options → Filter \(or Conditions\)"\. Fields of deals: /);
		expect(wordsProblems(message)).toEqual([]);
	});
});
