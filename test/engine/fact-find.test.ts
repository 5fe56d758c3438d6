/**
 * Fact Find → Create (resource structuredLead, issue 43; from the service's public API description,
 * not the seed), in n8n-core's engine against the sandbox: a household by manual mapping (entries
 * named and linked by name, type IDs picked from the service's lists) and as one JSON object, both
 * checked before any request; the lead's own parts as on Lead → Create (Allocate To, enquiry source,
 * referrer, note, If Already Exists); the output (the deal's ID, its contacts by the fact find's
 * names); the names and type lists the editor offers; the version that has it; the AI tool. Every
 * test asserts the requests the sandbox received and the items n8n produced.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { START_NODE_TYPE, runListSearch, runLoadOptions, runWorkflow } from '../../harness';
import { adaptExample } from '../../scripts/e2e/examples';
import { createToolRegistry, runAgent, toolAsTheEditorAddsIt } from '../../harness/tools';
import type { LoggedRequest } from '../../sandbox';
import { decodedQuery, jsonOf, useSandbox } from './helpers';
import { SINCE } from '../../nodes/shared/service/versions';

const env = useSandbox();
const ids = () => env.sandbox.data.ids;

afterEach(() => env.sandbox.data.reset());

const locator = (value: string, mode: 'list' | 'id' | 'name' = 'list') => ({ __rl: true, mode, value });
const line = (request: LoggedRequest) => `${request.method} ${request.path}${request.rawQuery === '' ? '' : `?${decodedQuery(request.rawQuery)}`}`;
const requestLines = () => env.sandbox.apiRequests().map(line);
const posts = () => env.sandbox.apiRequests().filter((request) => request.method === 'POST');
const bodyOf = (request: LoggedRequest) => request.json as { data: { type: string; attributes: IDataObject } };

/** The form of examples/fact-find-to-crm.json, as its Form Trigger gives it. */
const SUBMISSION = {
	'First name': 'Mele',
	'Last name': 'Tupou',
	Email: 'mele.tupou@household.example.com',
	Mobile: '+61412000301',
	'Date of birth': '1988-04-12',
	Employer: 'NSW Health',
	'Annual income': '98,000',
	'Partner first name': 'Sione',
	'Partner last name': 'Tupou',
	'Partner email': 'sione.tupou@household.example.com',
	'Partner employer': 'Telstra',
	'Partner annual income': '87000',
};

/** A household by manual mapping: two people at one address, a job and a salary each, the home and its loan, a card, living expenses. */
const MANUAL: INodeParameters = {
	resource: 'structuredLead',
	operation: 'create',
	people: {
		person: [
			{
				entryName: 'Applicant 1',
				firstName: "={{ $json['First name'] }}",
				lastName: "={{ $json['Last name'] }}",
				email: '={{ $json.Email }}',
				mobile: '={{ $json.Mobile }}',
				addresses: ['Home'],
				employments: ['Job 1'],
				additionalFields: { title: 'Ms', dateOfBirthAsString: "={{ $json['Date of birth'] }}", isPrimary: true },
			},
			{ entryName: 'Applicant 2', firstName: "={{ $json['Partner first name'] }}", lastName: "={{ $json['Partner last name'] }}", email: "={{ $json['Partner email'] }}", addresses: ['Home'], employments: ['Job 2'] },
		],
	},
	addresses: { address: [{ entryName: 'Home', streetAddress: '12 Wattle St', suburb: 'Parramatta', state: 'NSW', postCode: '2150', addressType: 'Current' }] },
	employments: {
		employment: [
			{ entryName: 'Job 1', employerName: '={{ $json.Employer }}', employmentType: 'PAYG', employmentStatus: 'PrimaryEmployment' },
			{ entryName: 'Job 2', employerName: "={{ $json['Partner employer'] }}", employmentType: 'PAYG', employmentStatus: 'PrimaryEmployment' },
		],
	},
	incomes: {
		income: [
			{ entryName: 'Salary 1', ownership: ['Applicant 1'], incomeTypeId: locator('1'), value: "={{ $json['Annual income'] }}", frequency: 'Yearly', employment: 'Job 1' },
			{ entryName: 'Salary 2', ownership: ['Applicant 2'], incomeTypeId: locator('1'), value: "={{ $json['Partner annual income'] }}", frequency: 'Yearly', employment: 'Job 2' },
		],
	},
	assets: { asset: [{ entryName: 'Home', ownership: ['Applicant 1', 'Applicant 2'], assetTypeId: locator('1'), value: '950000', address: 'Home' }] },
	liabilities: {
		liability: [
			{ entryName: 'Home loan', ownership: ['Applicant 1', 'Applicant 2'], liabilityTypeId: locator('1'), liabilitySubTypeId: locator('1', 'id'), value: '610000', repayments: '3900', repaymentFrequency: 'Monthly', asset: 'Home' },
			{ entryName: 'Credit card', ownership: ['Applicant 2'], liabilityTypeId: locator('4'), limit: '12000', value: '2300' },
		],
	},
	expenses: { expense: [{ entryName: 'Living', ownership: ['Applicant 1', 'Applicant 2'], expenseTypeId: locator('1'), value: '3200', frequency: 'Monthly' }] },
	externalReference: 'FF-0001',
	externalIntegration: 'MyIntegrationSource',
};

/** What the manual mapping above sends: the names as lids of their own kind (person-1, …), the form's values checked and typed. */
const MANUAL_LISTS = {
	contacts: [
		{ lid: 'person-1', firstName: 'Mele', lastName: 'Tupou', email: 'mele.tupou@household.example.com', mobile: '+61412000301', addresses: [{ lid: 'address-1' }], employments: [{ lid: 'employment-1' }], title: 'Ms', dateOfBirthAsString: '1988-04-12', isPrimary: true },
		{ lid: 'person-2', firstName: 'Sione', lastName: 'Tupou', email: 'sione.tupou@household.example.com', addresses: [{ lid: 'address-1' }], employments: [{ lid: 'employment-2' }] },
	],
	addresses: [{ lid: 'address-1', streetAddress: '12 Wattle St', suburb: 'Parramatta', state: 'NSW', postCode: '2150', addressType: 'Current' }],
	employments: [
		{ lid: 'employment-1', employerName: 'NSW Health', employmentType: 'PAYG', employmentStatus: 'PrimaryEmployment' },
		{ lid: 'employment-2', employerName: 'Telstra', employmentType: 'PAYG', employmentStatus: 'PrimaryEmployment' },
	],
	incomes: [
		{ lid: 'income-1', ownership: [{ lid: 'person-1' }], incomeTypeId: 1, value: 98000, frequency: 'Yearly', employment: { lid: 'employment-1' } },
		{ lid: 'income-2', ownership: [{ lid: 'person-2' }], incomeTypeId: 1, value: 87000, frequency: 'Yearly', employment: { lid: 'employment-2' } },
	],
	assets: [{ lid: 'asset-1', ownership: [{ lid: 'person-1' }, { lid: 'person-2' }], assetTypeId: 1, value: 950000, address: { lid: 'address-1' } }],
	liabilities: [
		{ lid: 'liability-1', ownership: [{ lid: 'person-1' }, { lid: 'person-2' }], liabilityTypeId: 1, liabilitySubTypeId: 1, value: 610000, repayments: 3900, repaymentFrequency: 'Monthly', asset: { lid: 'asset-1' } },
		{ lid: 'liability-2', ownership: [{ lid: 'person-2' }], liabilityTypeId: 4, limit: 12000, value: 2300 },
	],
	expenses: [{ lid: 'expense-1', ownership: [{ lid: 'person-1' }, { lid: 'person-2' }], expenseTypeId: 1, value: 3200, frequency: 'Monthly' }],
};

/** The same household in the description's own shape, lids of one's choosing. */
const JSON_FACT_FIND = {
	contacts: [
		{ lid: 'mele', firstName: 'Mele', lastName: 'Tupou', email: 'mele.tupou@household.example.com', addresses: [{ lid: 'home' }] },
		{ lid: 'sione', firstName: 'Sione', lastName: 'Tupou', email: 'sione.tupou@household.example.com', addresses: [{ lid: 'home' }] },
	],
	addresses: [{ lid: 'home', streetAddress: '12 Wattle St', suburb: 'Parramatta', state: 'NSW', postCode: '2150' }],
	incomes: [
		{ lid: 'pay-mele', incomeTypeId: 1, value: 98000, frequency: 'Yearly', ownership: [{ lid: 'mele' }] },
		{ lid: 'pay-sione', incomeTypeId: 1, value: 87000, frequency: 'Yearly', ownership: [{ lid: 'sione' }] },
		{ lid: 'rent', incomeTypeId: 10, value: 650, frequency: 'Weekly', ownership: [{ lid: 'mele' }] },
	],
};

const incomesOf = (contactId: string) =>
	env.sandbox.data.list('incomes').filter((income) => {
		const owners = (income.relationships.ownership ?? []) as Array<{ id: string }>;
		return owners.some((owner) => (env.sandbox.data.get('owners', owner.id)?.relationships.contact as { id: string } | null)?.id === contactId);
	});

describe('Fact Find → Create: manual mapping', () => {
	it('sends the household as one structured-leads document (names as lids, form values typed), then reads the deal\'s contacts; the item says the deal\'s ID and each person\'s contact', async () => {
		const deals = env.sandbox.data.count('deals');
		const result = await env.run('loanCrmLeadsAndTasks', MANUAL, { input: [SUBMISSION] });
		expect(result.error).toBeUndefined();
		const dealId = String(env.sandbox.data.count('deals') === deals + 1 ? jsonOf(result)[0].dealId : 'no deal');
		expect(requestLines()).toEqual(['POST /jsonapi/structured-leads', `GET /jsonapi/deals/${dealId}?include=contacts&fields[deals]=created,contacts&fields[contacts]=firstName,lastName,email,created`]);
		expect(bodyOf(posts()[0])).toEqual({ data: { type: 'structured-leads', attributes: { ...MANUAL_LISTS, externalReference: 'FF-0001', externalIntegration: 'MyIntegrationSource' } } });
		const [item] = jsonOf(result);
		const contacts = item.contacts as IDataObject[];
		// Node version 1.2, Simplify on (the default): Lead → Create's one shape (the fact find's readable
		// fields, the deal's ID beside its id), then the deal's contacts by the fact find's names.
		expect(item).toEqual({
			id: dealId,
			dealId,
			customStatusName: null,
			dealStatus: 'NewLeads',
			contacts: [
				{ entryName: 'Applicant 1', id: expect.any(String), outcome: 'created', firstName: 'Mele', lastName: 'Tupou', email: 'mele.tupou@household.example.com' },
				{ entryName: 'Applicant 2', id: expect.any(String), outcome: 'created', firstName: 'Sione', lastName: 'Tupou', email: 'sione.tupou@household.example.com' },
			],
		});
		expect(Object.keys(item)).toEqual(['id', 'dealId', 'customStatusName', 'dealStatus', 'contacts']);
		// Stored: each salary owned by its person.
		expect(incomesOf(String(contacts[0].id)).map((income) => income.attributes.value)).toEqual([98000]);
		expect(incomesOf(String(contacts[1].id)).map((income) => income.attributes.value)).toEqual([87000]);
	});

	it("says of each contact whether Loan CRM created it with the deal or matched one it had (the same e-mail): from the two records' created stamps", async () => {
		// A contact Loan CRM has had for a while, whose e-mail the partner gives.
		const known = env.sandbox.data.list('contacts').find((contact) => typeof contact.attributes.email === 'string' && contact.attributes.email !== '');
		const result = await env.run('loanCrmLeadsAndTasks', MANUAL, { input: [{ ...SUBMISSION, 'Partner email': String(known?.attributes.email) }] });
		expect(result.error).toBeUndefined();
		const [item] = jsonOf(result);
		expect((item.contacts as IDataObject[]).map((contact) => [contact.entryName, contact.outcome])).toEqual([
			['Applicant 1', 'created'],
			['Applicant 2', 'matched'],
		]);
		expect((item.contacts as IDataObject[])[1].id).toBe(known?.id);
	});

	it('checks every entry before any request: a link to a name no entry has, to the wrong kind of entry, a duplicate name, a bad date, a non-number; each naming its entry and field, Continue On Fail pairing an error item to each', async () => {
		const broken = (change: (parameters: INodeParameters) => void): INodeParameters => {
			const parameters = JSON.parse(JSON.stringify(MANUAL)) as INodeParameters;
			change(parameters);
			return parameters;
		};
		const entries = (parameters: INodeParameters, list: string, key: string) => (parameters[list] as IDataObject)[key] as IDataObject[];
		const cases: Array<[string, INodeParameters]> = [
			['missing name', broken((p) => void (entries(p, 'incomes', 'income')[0].ownership = ['Applicant 3']))],
			['wrong kind', broken((p) => void (entries(p, 'incomes', 'income')[0].ownership = ['Home']))],
			['duplicate', broken((p) => void (entries(p, 'people', 'person')[1].entryName = 'Applicant 1'))],
			['bad date', broken((p) => void ((entries(p, 'people', 'person')[0].additionalFields as IDataObject).dateOfBirthAsString = '31/02/1988'))],
			['not a number', broken((p) => void (entries(p, 'incomes', 'income')[1].value = 'about 87k'))],
		];
		const messages: string[] = [];
		for (const [, parameters] of cases) {
			const result = await env.run('loanCrmLeadsAndTasks', parameters, { input: [SUBMISSION], continueOnFail: true });
			const [item] = jsonOf(result);
			expect(jsonOf(result)).toHaveLength(1);
			expect(result.items[0].pairedItem).toEqual({ item: 0 });
			messages.push(String(item.error));
		}
		expect(messages).toEqual([
			'Fact find: Incomes → Salary 1 → Owners: no person is named "Applicant 3" under People',
			'Fact find: Incomes → Salary 1 → Owners: "Home" is an address (under Addresses), not a person',
			// The second person renamed: its links to "Applicant 2" point nowhere now, five more problems.
			'Fact find: 6 problems, the first: People → 2nd person: the 1st person is named "Applicant 1" too; give each person its own name',
			'Fact find: People → Applicant 1 → Date of Birth: "31/02/1988" is not a date (YYYY-MM-DD)',
			'Fact find: Incomes → Salary 2 → Value: "about 87k" is not a number',
		]);
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});

	it('when reading the contacts fails after the create, the item still says the deal\'s ID (not sent again), and why it has no contacts', async () => {
		env.sandbox.injectFault({ method: 'GET', path: /^\/jsonapi\/deals\/\d+$/ }, { status: 403, body: { errors: [{ status: '403', title: 'Access is denied.', detail: 'The access token lacks the scope api.deals.read.' }] } }, 1);
		const result = await env.run('loanCrmLeadsAndTasks', MANUAL, { input: [SUBMISSION] });
		expect(result.error).toBeUndefined();
		const [item] = jsonOf(result);
		expect(item).toMatchObject({ dealStatus: 'NewLeads', contacts: null });
		expect(String(item.contactsError)).toMatch(new RegExp(`^The fact find is in Loan CRM \\(deal ${String(item.dealId)}\\), but reading its contacts failed: Loan CRM refused access \\(403\\)`));
		expect(posts()).toHaveLength(1);
	});

	it('the service\'s 422 names the entry and field it points into', async () => {
		const parameters = JSON.parse(JSON.stringify(MANUAL)) as INodeParameters;
		((parameters.incomes as IDataObject).income as IDataObject[])[1].incomeTypeId = locator('999', 'id');
		const result = await env.run('loanCrmLeadsAndTasks', parameters, { input: [SUBMISSION] });
		expect(result.error?.message).toBe('Loan CRM rejected the data (422): "Incomes → Salary 2 → Income Type": Input validation failed. Income type \'999\' does not exist.');
		expect(requestLines()).toEqual(['POST /jsonapi/structured-leads']);
	});
});

describe('Fact Find → Create: JSON', () => {
	it('takes the whole fact find as one object from the item, lids as given, and reads the contacts back by them', async () => {
		const result = await env.run('loanCrmLeadsAndTasks', { resource: 'structuredLead', operation: 'create', mode: 'json', factFind: '={{ $json.factFind }}' }, { input: [{ factFind: JSON_FACT_FIND }] });
		expect(result.error).toBeUndefined();
		expect(bodyOf(posts()[0]).data.attributes).toEqual(JSON_FACT_FIND);
		const [item] = jsonOf(result);
		expect((item.contacts as IDataObject[]).map((contact) => contact.entryName)).toEqual(['mele', 'sione']);
		const mele = String((item.contacts as IDataObject[])[0].id);
		expect(incomesOf(mele).map((income) => [income.attributes.incomeType, income.attributes.value])).toEqual([
			['Base salary', 98000],
			['Rental income', 650],
		]);
	});

	it('is checked against the description\'s schema before any request, every problem named by its path', async () => {
		const wrong = {
			...JSON_FACT_FIND,
			incomes: [JSON_FACT_FIND.incomes[0], JSON_FACT_FIND.incomes[1], { ...JSON_FACT_FIND.incomes[2], frequency: 'Fortnighly' }],
			expenses: [{ lid: 'food', value: '3,2OO', ownership: [{ lid: 'home' }], colour: 'blue' }],
		};
		const result = await env.run('loanCrmLeadsAndTasks', { resource: 'structuredLead', operation: 'create', mode: 'json', factFind: '={{ $json.factFind }}' }, { input: [{ factFind: wrong }] });
		expect(result.error?.message).toBe(
			'Fact find: 4 problems, the first: incomes[2].frequency: "Fortnighly" is not one of Weekly, Fortnightly, HalfMonthly, Monthly, Quarterly, HalfYearly, Yearly. Check parameter "Fact Find JSON"',
		);
		expect((result.error as { description?: string }).description).toBe(
			'Nothing was sent for this item. Every problem: 1. incomes[2].frequency: "Fortnighly" is not one of Weekly, Fortnightly, HalfMonthly, Monthly, Quarterly, HalfYearly, Yearly; ' +
				'2. expenses[0].value: "3,2OO" is not a number; ' +
				'3. expenses[0].colour: is not a field of an expense; its fields are lid, ownership, expenseTypeId, value, frequency, description; ' +
				'4. expenses[0].ownership[0]: "home" is an address (addresses[0]), not a person.',
		);
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});

	it('takes a type by its name as Loan CRM lists it, looked up once per run before the create; a name the list lacks fails naming where it is', async () => {
		const named = { ...JSON_FACT_FIND, incomes: JSON_FACT_FIND.incomes.map((income, index) => ({ ...income, incomeTypeId: index < 2 ? 'Base salary' : 'Rental › Rental income' })) };
		const result = await env.run(
			'loanCrmLeadsAndTasks',
			{ resource: 'structuredLead', operation: 'create', mode: 'json', factFind: '={{ $json.factFind }}' },
			{ input: [{ factFind: named }, { factFind: named }] },
		);
		expect(result.error).toBeUndefined();
		const lookups = requestLines().filter((request) => request.startsWith('GET /jsonapi/income-types'));
		expect(lookups).toEqual([
			"GET /jsonapi/income-types?filter=equals(name,'Base salary')&include=incomeCategory&fields[income-types]=name,incomeCategory&fields[income-categories]=description&page[size]=10",
			"GET /jsonapi/income-types?filter=and(equals(incomeCategory.description,'Rental'),equals(name,'Rental income'))&include=incomeCategory&fields[income-types]=name,incomeCategory&fields[income-categories]=description&page[size]=10",
		]);
		expect(posts().map((request) => (bodyOf(request).data.attributes.incomes as IDataObject[]).map((income) => income.incomeTypeId))).toEqual([
			[1, 1, 10],
			[1, 1, 10],
		]);
		env.sandbox.clearLog();
		const unknown = await env.run(
			'loanCrmLeadsAndTasks',
			{ resource: 'structuredLead', operation: 'create', mode: 'json', factFind: '={{ $json.factFind }}' },
			{ input: [{ factFind: { ...JSON_FACT_FIND, incomes: [{ ...JSON_FACT_FIND.incomes[0], incomeTypeId: 'Salary' }] } }] },
		);
		expect(unknown.error?.message).toBe('Loan CRM has no income type named "Salary". Check parameter "Fact Find JSON → incomes[0].incomeTypeId"');
		expect(posts()).toHaveLength(0);
	});
});

describe("Fact Find → Create: the lead's own parts, as on Lead → Create", () => {
	it('Allocate To per item (its UserId), the enquiry source By Name with its category, the referrer, UTM and the note', async () => {
		const details = env.sandbox.data.list('adviser-details');
		const aisha = details.find((record) => record.attributes.firstName === 'Aisha');
		const result = await env.run(
			'loanCrmLeadsAndTasks',
			{
				resource: 'structuredLead',
				operation: 'create',
				mode: 'json',
				factFind: '={{ $json.factFind }}',
				allocateTo: locator('={{ $json.adviser }}', 'name'),
				additionalFields: {
					sourceId: locator('Online › Comparison site', 'name'),
					sourceReferrerId: locator(ids().referrer),
					utmSource: 'compare-loans',
					noteTitle: 'Comparison site lead',
					noteDetails: 'Two applicants, refinance',
				},
			},
			{ input: [{ factFind: JSON_FACT_FIND, adviser: String(aisha?.attributes.email) }] },
		);
		expect(result.error).toBeUndefined();
		const [post] = posts();
		expect(post.headers.userid).toBe(aisha?.id);
		expect(bodyOf(post).data.attributes).toEqual({
			...JSON_FACT_FIND,
			sourceId: 24,
			sourceCategoryId: 2,
			sourceReferrerId: ids().referrer,
			utmSource: 'compare-loans',
			noteTitle: 'Comparison site lead',
			noteDetails: 'Two applicants, refinance',
		});
		const dealId = String(jsonOf(result)[0].dealId);
		expect((env.sandbox.data.get('deals', dealId)?.relationships.adviser as { id: string }).id).toBe((aisha?.relationships.adviser as { id: string }).id);
		// The contacts are read acting as the item's adviser too.
		expect(env.sandbox.apiRequests().filter((request) => request.method === 'GET' && request.path === `/jsonapi/deals/${dealId}`).map((request) => request.headers.userid)).toEqual([aisha?.id]);
	});

	it('If Already Exists → Return Existing: the same form twice gives one deal; the second run finds it (outcome found) with the same contacts', async () => {
		const parameters = { ...MANUAL, ifAlreadyExists: 'returnExisting' };
		const first = await env.run('loanCrmLeadsAndTasks', parameters, { input: [SUBMISSION] });
		const second = await env.run('loanCrmLeadsAndTasks', parameters, { input: [SUBMISSION] });
		expect([first.error, second.error]).toEqual([undefined, undefined]);
		const [created] = jsonOf(first);
		const [found] = jsonOf(second);
		expect([created.outcome, created.matchCount, found.outcome, found.matchCount]).toEqual(['created', 0, 'found', 1]);
		expect(found.dealId).toBe(created.dealId);
		expect(found.contacts).toEqual(created.contacts);
		// One shape (node version 1.2, Simplify on): the found fact find has the created one's columns, in
		// the same order, not the deal's every field.
		expect(Object.keys(found)).toEqual(Object.keys(created));
		expect(Object.keys(found)).toEqual(['outcome', 'matchCount', 'id', 'dealId', 'customStatusName', 'dealStatus', 'contacts']);
		expect(posts()).toHaveLength(1);
		expect(requestLines().filter((request) => request.includes('deal-external-references'))).toEqual([
			"GET /jsonapi/deal-external-references?filter=and(equals(externalReference,'FF-0001'),equals(integration.name,'MyIntegrationSource'))&sort=id&include=deal&page[size]=100",
			"GET /jsonapi/deal-external-references?filter=and(equals(externalReference,'FF-0001'),equals(integration.name,'MyIntegrationSource'))&sort=id&include=deal&page[size]=100",
		]);
		// Simplify off: the fact find as Loan CRM answered the create, and a found one as its deal, every field.
		const whole = await env.run('loanCrmLeadsAndTasks', { ...parameters, simplify: false }, { input: [SUBMISSION] });
		const [deal] = jsonOf(whole);
		expect(deal).toMatchObject({ outcome: 'found', matchCount: 1, id: created.dealId, type: 'deals', dealId: created.dealId, contacts: created.contacts });
		expect(deal.dates).toEqual(expect.any(Object));
	});

	it('If Already Exists → Stop With Error names the deal; items with one reference run in item order at Requests in Parallel 4', async () => {
		const parameters = { ...MANUAL, ifAlreadyExists: 'stopWithError', requestOptions: { requestsInParallel: 4 } };
		const result = await env.run('loanCrmLeadsAndTasks', parameters, { input: [SUBMISSION, SUBMISSION, SUBMISSION], continueOnFail: true });
		const items = jsonOf(result);
		expect(items[0]).toMatchObject({ outcome: 'created', matchCount: 0, dealStatus: 'NewLeads' });
		expect(items.slice(1).map((item) => item.error)).toEqual([
			`Loan CRM already has a fact find with this external reference and external integration: ID ${String(items[0].dealId)}`,
			`Loan CRM already has a fact find with this external reference and external integration: ID ${String(items[0].dealId)}`,
		]);
		expect(posts()).toHaveLength(1);
	});

	it('an item without an external reference is created without a search and says so, in the one shape with its contacts (node version 1.2)', async () => {
		const result = await env.run('loanCrmLeadsAndTasks', { ...MANUAL, externalReference: '', ifAlreadyExists: 'returnExisting' }, { input: [SUBMISSION] });
		expect(result.error).toBeUndefined();
		expect(requestLines().filter((request) => request.includes('deal-external-references'))).toEqual([]);
		const [item] = jsonOf(result);
		expect(Object.keys(item)).toEqual(['outcome', 'matchCount', 'notSearched', 'id', 'dealId', 'customStatusName', 'dealStatus', 'contacts']);
		expect(item).toMatchObject({ outcome: 'created', matchCount: null, notSearched: 'External Reference is empty: Loan CRM was not searched', dealId: item.id });
		expect(item.contacts).toHaveLength(2);
	});
});

describe('examples/fact-find-to-crm.json in the engine (its Slack node aside)', () => {
	/** The form as a browser posts it: every field text, the partner's mobile and one amount left empty. */
	const form = {
		'First name': ' Aroha ',
		'Last name': 'Ngata',
		Email: 'Aroha.Ngata@example.com',
		Mobile: '0412 000 401',
		'Date of birth': '1990-06-15',
		Employer: 'Fonterra',
		'Annual income before tax': '91000',
		'Partner first name': 'Tama',
		'Partner last name': 'Ngata',
		'Partner email': 'tama.ngata@example.com',
		'Partner mobile': '',
		'Partner employer': 'Auckland Transport',
		'Partner annual income before tax': '78500',
		'Street address': '7 Kowhai Rd',
		Suburb: 'Blacktown',
		State: 'NSW',
		'Post code': '2148',
		'What your home is worth': '820000',
		'Home loan balance': '540000',
		'Home loan lender': 'ANZ',
		'Monthly home loan repayment': '3400',
		'Credit card limit': '10000',
		'Credit card balance': '',
		'Monthly living expenses': '2900',
		submittedAt: '2026-11-20T09:00:00.000Z',
		formMode: 'production',
	};

	it('one request for the whole household, every link resolved to its entry; the same form again the same day finds the deal', async () => {
		const example = adaptExample('fact-find-to-crm.json', { keep: (node) => !['n8n-nodes-base.stickyNote', 'n8n-nodes-base.slack'].includes(node.type) });
		const nodes = example.nodes.map((node) => (node.type === 'n8n-nodes-base.formTrigger' ? { ...node, type: START_NODE_TYPE, typeVersion: 1, parameters: { items: JSON.stringify([form]) } } : node));
		const first = await runWorkflow({ nodes, connections: example.connections }, { credentials: env.store });
		const again = await runWorkflow({ nodes, connections: example.connections }, { credentials: env.store });
		expect([first.error, again.error]).toEqual([undefined, undefined]);
		const [created] = first.output('Create fact find').map((item) => item.json);
		const [found] = again.output('Create fact find').map((item) => item.json);
		expect([created.outcome, found.outcome, found.dealId]).toEqual(['created', 'found', created.dealId]);
		expect(posts()).toHaveLength(1);
		const sent = bodyOf(posts()[0]).data.attributes;
		expect(sent.contacts).toEqual([
			{ lid: 'person-1', firstName: 'Aroha', lastName: 'Ngata', email: 'aroha.ngata@example.com', mobile: '+61412000401', addresses: [{ lid: 'address-1' }], employments: [{ lid: 'employment-1' }], dateOfBirthAsString: '1990-06-15', isPrimary: true },
			{ lid: 'person-2', firstName: 'Tama', lastName: 'Ngata', email: 'tama.ngata@example.com', addresses: [{ lid: 'address-1' }], employments: [{ lid: 'employment-2' }] },
		]);
		expect(sent.liabilities).toEqual([
			{ lid: 'liability-1', ownership: [{ lid: 'person-1' }, { lid: 'person-2' }], liabilityTypeId: 1, liabilitySubTypeId: 1, value: 540000, repayments: 3400, repaymentFrequency: 'Monthly', asset: { lid: 'asset-1' }, creditorName: 'ANZ' },
			// The balance left empty: not sent.
			{ lid: 'liability-2', ownership: [{ lid: 'person-1' }], liabilityTypeId: 4, limit: 10000 },
		]);
		expect(Object.keys(sent).sort()).toEqual(
			['contacts', 'addresses', 'employments', 'incomes', 'assets', 'liabilities', 'expenses', 'externalReference', 'externalIntegration', 'externalIntegrationAllowCreate', 'noteTitle', 'utmSource', 'utmMedium'].sort(),
		);
		expect([sent.externalReference, sent.noteTitle]).toEqual(['FACTFIND-aroha.ngata@example.com-2026-11-20', 'Fact find from the website: Aroha and Tama']);
		expect((created.contacts as IDataObject[]).map((contact) => contact.entryName)).toEqual(['Applicant 1', 'Applicant 2']);
	});
});

describe('Fact Find → Create in the editor', () => {
	it('offers, for a link, the names given in the same node (a person with their name; "none" for a link to one entry)', async () => {
		const people = await runLoadOptions({ nodeType: 'loanCrmLeadsAndTasks', method: 'factFindPeople', parameters: MANUAL, credentials: env.store, path: 'parameters.incomes.income[0].ownership' });
		expect(people).toEqual([
			// Names from expressions the editor could not resolve are left out of the label.
			{ name: 'Applicant 1', value: 'Applicant 1' },
			{ name: 'Applicant 2', value: 'Applicant 2' },
		]);
		const typed = { ...MANUAL, people: { person: [{ entryName: 'Applicant 1', firstName: 'Mele', lastName: 'Tupou' }, { entryName: ' Applicant 2 ' }, { entryName: '' }] } };
		expect(await runLoadOptions({ nodeType: 'loanCrmLeadsAndTasks', method: 'factFindPeople', parameters: typed, credentials: env.store })).toEqual([
			{ name: 'Applicant 1 — Mele Tupou', value: 'Applicant 1' },
			{ name: 'Applicant 2', value: 'Applicant 2' },
		]);
		expect(await runLoadOptions({ nodeType: 'loanCrmLeadsAndTasks', method: 'factFindAsset', parameters: MANUAL, credentials: env.store })).toEqual([
			{ name: '(None)', value: '', description: 'No asset' },
			{ name: 'Home', value: 'Home' },
		]);
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});

	it('lists the service\'s types with their category, searchable; a liability type\'s sub-types after the type is chosen', async () => {
		const incomeTypes = await runListSearch({ nodeType: 'loanCrmLeadsAndTasks', method: 'searchIncomeTypes', credentials: env.store });
		expect(incomeTypes.results.slice(0, 2)).toEqual([
			{ name: 'Employment › Base salary — #1', value: '1' },
			{ name: 'Employment › Overtime — #2', value: '2' },
		]);
		const rental = await runListSearch({ nodeType: 'loanCrmLeadsAndTasks', method: 'searchIncomeTypes', credentials: env.store, filter: 'rental' });
		expect(rental.results).toEqual([{ name: 'Rental › Rental income — #10', value: '10' }]);
		const property = await runListSearch({ nodeType: 'loanCrmLeadsAndTasks', method: 'searchPropertyTypes', credentials: env.store, filter: 'commercial' });
		expect(property.results).toEqual([{ name: 'Commercial › Office — #5', value: '5' }]);
		const path = 'parameters.liabilities.liability[0].liabilitySubTypeId';
		const subTypes = await runListSearch({ nodeType: 'loanCrmLeadsAndTasks', method: 'searchLiabilitySubTypes', credentials: env.store, parameters: MANUAL, path, filter: 'invest' });
		expect(subTypes.results).toEqual([{ name: 'Investment — #2', value: '2' }]);
		const noType = { ...MANUAL, liabilities: { liability: [{ entryName: 'Loan' }] } };
		await expect(runListSearch({ nodeType: 'loanCrmLeadsAndTasks', method: 'searchLiabilitySubTypes', credentials: env.store, parameters: noType, path })).rejects.toThrow(
			'Parameter "Liability Sub-Type" lists the sub-types of the Liability Type: choose the Liability Type first (From List or By ID)',
		);
		expect(requestLines()).toEqual([
			'GET /jsonapi/income-types?include=incomeCategory&fields[income-types]=name,incomeCategory&fields[income-categories]=description&page[size]=25',
			"GET /jsonapi/income-types?filter=or(contains(name,'rental'),contains(incomeCategory.description,'rental'))&include=incomeCategory&fields[income-types]=name,incomeCategory&fields[income-categories]=description&page[size]=25",
			"GET /jsonapi/property-types?filter=or(contains(name,'commercial'),contains(propertyZoningType,'commercial'))&fields[property-types]=name,propertyZoningType&page[size]=25",
			'GET /jsonapi/liability-types/1/liabilitySubTypes?page[size]=100',
		]);
	});

	it('exists from node version 1.2 (service/versions.ts SINCE.factFinds): a version 1 or 1.1 node does not run it', async () => {
		expect(SINCE.factFinds).toBe(1.2);
		for (const typeVersion of [1, 1.1]) {
			const result = await env.run('loanCrmLeadsAndTasks', { resource: 'structuredLead', operation: 'create', mode: 'json', factFind: JSON.stringify(JSON_FACT_FIND) }, { typeVersion });
			expect({ typeVersion, error: result.error?.message }).toEqual({ typeVersion, error: 'The operation "create" is not known for resource "structuredLead"' });
		}
		expect(env.sandbox.apiRequests()).toHaveLength(0);
		const result = await env.run('loanCrmLeadsAndTasks', { resource: 'structuredLead', operation: 'create', mode: 'json', factFind: JSON.stringify(JSON_FACT_FIND) }, { typeVersion: 1.2 });
		expect(result.error).toBeUndefined();
		expect(posts()).toHaveLength(1);
	});
});

describe('Fact Find → Create as an AI agent\'s tool (the newest version, as the editor adds it)', () => {
	it('the model fills the household as one object and the note; the description says what Loan CRM does with a fact find', async () => {
		const registry = createToolRegistry();
		const tools = [toolAsTheEditorAddsIt(registry, 'loanCrmLeadsAndTasks', { resource: 'structuredLead', operation: 'create' })];
		const listed = await runAgent(registry, env.store, tools, []);
		const [tool] = listed.tools;
		expect(tool.name).toBe('Create_a_fact_find_in_Loan_CRM');
		expect(Object.keys(tool.schema).sort()).toEqual(['Allocate_To', 'Fact_Find_JSON', 'If_Already_Exists', 'Note_Details', 'Note_Title']);
		expect(tool.schema.Fact_Find_JSON.required).toBe(true);
		expect(tool.schema.Fact_Find_JSON.description).toContain('contacts (the people, at least one): [{lid, firstName (text, at most 100 characters)');
		expect(tool.schema.Fact_Find_JSON.description).toContain('incomes: [{lid, ownership ([{lid}] of contacts), incomeTypeId (Loan CRM\'s ID, or the type\'s name as Loan CRM lists it), value (number), frequency (one of Weekly, Fortnightly');
		expect(tool.description).toContain('Loan CRM opens a deal in New Leads for the adviser and stores the incomes, assets, liabilities and expenses with the people who own them');
		const household = {
			contacts: [{ lid: 'ana', firstName: 'Ana', lastName: 'Silva', email: 'ana.silva@chat.example.com' }],
			incomes: [{ lid: 'pay', incomeTypeId: 'Base salary', value: 72000, frequency: 'Yearly', ownership: [{ lid: 'ana' }] }],
			expenses: [{ lid: 'rent', expenseTypeId: 'Rent', value: 2400, frequency: 'Monthly', ownership: [{ lid: 'ana' }] }],
		};
		const { answers } = await runAgent(registry, env.store, tools, [{ tool: tool.name, args: { Fact_Find_JSON: household, Note_Title: 'Chat enquiry' } }]);
		expect(answers.map((answer) => answer.error)).toEqual([undefined]);
		const [lead] = answers[0].answer as unknown as IDataObject[];
		expect(lead).toMatchObject({ dealStatus: 'NewLeads', contacts: [{ entryName: 'ana', firstName: 'Ana' }] });
		expect(bodyOf(posts()[0]).data.attributes).toEqual({
			...household,
			incomes: [{ ...household.incomes[0], incomeTypeId: 1 }],
			expenses: [{ ...household.expenses[0], expenseTypeId: 6 }],
			noteTitle: 'Chat enquiry',
		});
	});
});
