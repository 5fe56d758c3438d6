/**
 * POST /jsonapi/structured-leads as the sandbox serves it from the service's public API description
 * (swagger `StructuredLead_Post`, `StructuredLeadAttributes`, the `Lead…` schemas), not from the
 * seed: a household's fact find in one request, its records readable afterwards, its 422s pointing
 * into the entry, and the type lists its ids come from.
 */
import type { Sandbox } from '../../sandbox';
import { Api, ids, withSmallSandbox } from './testkit';

const factFind = (attributes: Record<string, unknown>) => ({ data: { type: 'structured-leads', attributes } });

/** Two applicants at one address, a job and a salary each, their home with its mortgage, a credit card and living expenses. */
const HOUSEHOLD = {
	contacts: [
		{ lid: 'a1', title: 'Ms', firstName: 'Mele', lastName: 'Tupou', email: 'mele.tupou@household.example.com', mobile: '+61412000301', dateOfBirthAsString: '1988-04-12', addresses: [{ lid: 'home' }], employments: [{ lid: 'job1' }] },
		{ lid: 'a2', firstName: 'Sione', lastName: 'Tupou', email: 'sione.tupou@household.example.com', dateOfBirth: '1986-09-30T00:00:00Z', addresses: [{ lid: 'home' }], employments: [{ lid: 'job2' }] },
	],
	addresses: [{ lid: 'home', streetAddress: '12 Wattle St', suburb: 'Parramatta', state: 'NSW', postCode: '2150', addressType: 'Current' }],
	employments: [
		{ lid: 'job1', employerName: 'NSW Health', employmentType: 'PAYG', employmentStatus: 'PrimaryEmployment', employmentBasis: 'FullTime', dateStartedAsString: '2015-02-01' },
		{ lid: 'job2', employerName: 'Telstra', employmentType: 'PAYG', employmentStatus: 'PrimaryEmployment' },
	],
	incomes: [
		{ lid: 'pay1', incomeTypeId: 1, value: 98000, frequency: 'Yearly', ownership: [{ lid: 'a1' }], employment: { lid: 'job1' } },
		{ lid: 'pay2', incomeTypeId: 1, value: 3400, frequency: 'Fortnightly', ownership: [{ lid: 'a2' }], employment: { lid: 'job2' } },
	],
	assets: [{ lid: 'house', assetTypeId: 1, assetSubTypeId: 1, propertyTypeId: 1, value: 950000, valueBasis: 'ApplicantEstimate', address: { lid: 'home' }, ownership: [{ lid: 'a1' }, { lid: 'a2' }] }],
	liabilities: [
		{ lid: 'mortgage', liabilityTypeId: 1, liabilitySubTypeId: 1, value: 610000, repayments: 3900, repaymentFrequency: 'Monthly', creditorName: 'Westpac', asset: { lid: 'house' }, ownership: [{ lid: 'a1' }, { lid: 'a2' }] },
		{ lid: 'card', liabilityTypeId: 4, limit: 12000, value: 2300, ownership: [{ lid: 'a2' }] },
	],
	expenses: [{ lid: 'living', expenseTypeId: 1, value: 3200, frequency: 'Monthly', ownership: [{ lid: 'a1' }, { lid: 'a2' }] }],
	noteTitle: 'Fact find from the website',
	externalReference: 'FF-0001',
	externalIntegration: 'MyIntegrationSource',
};

describe('sandbox: POST /jsonapi/structured-leads (public API description)', () => {
	let sb: Sandbox;
	let api: Api;

	withSmallSandbox((started) => ({ sb, api } = started));

	it('creates the household: 201 with only the statuses, a NewLeads deal of the UserId adviser with both people in one new client, and every record readable', async () => {
		const other = sb.data.ids.adviserContactIds[2];
		const reply = await api.post('/jsonapi/structured-leads', factFind(HOUSEHOLD), { userId: other });
		expect(reply.status).toBe(201);
		const dealId = reply.json.data.id as string;
		expect(reply.json.data).toEqual({ type: 'structured-leads', id: dealId, attributes: { customStatusName: null, dealStatus: 'NewLeads' }, links: { self: `${sb.baseUrl}/jsonapi/structured-leads/${dealId}` } });
		expect(reply.headers.get('location')).toBe(`${sb.baseUrl}/jsonapi/structured-leads/${dealId}`);
		expect((await api.get(`/jsonapi/structured-leads/${dealId}`)).json.data.attributes).toEqual({ customStatusName: null, dealStatus: 'NewLeads' });

		const deal = sb.data.get('deals', dealId);
		const adviser = sb.data.get('adviser-details', other)?.relationships.adviser;
		expect(deal?.attributes).toMatchObject({ name: 'Tupou, Mele', dealStatus: 'NewLeads' });
		expect(deal?.relationships.adviser).toEqual(adviser);
		const contacts = await api.get(`/jsonapi/deals/${dealId}/contacts`);
		expect(contacts.json.data.map((contact: { attributes: Record<string, unknown> }) => [contact.attributes.firstName, contact.attributes.email, contact.attributes.dateOfBirth])).toEqual([
			['Mele', 'mele.tupou@household.example.com', '1988-04-12'],
			['Sione', 'sione.tupou@household.example.com', '1986-09-30'],
		]);
		const [mele, sione] = ids(contacts);
		const groups = [mele, sione].map((id) => (sb.data.get('contacts', id)?.relationships.contactGroup as { id: string }).id);
		expect(groups[0]).toBe(groups[1]);
		// Their address, their jobs.
		const address = await api.get(`/jsonapi/contacts/${mele}/contactAddress`);
		expect(address.json.data).toEqual([expect.objectContaining({ type: 'contact-address', attributes: expect.objectContaining({ streetAddress: '12 Wattle St', postCode: '2150', addressType: 'Current' }) })]);
		expect(ids(await api.get(`/jsonapi/contacts/${sione}/contactAddress`))).toEqual(ids(address));

		// Each salary, owned by its person, its type named from the list.
		const incomesOf = async (contact: string) => (await api.get(`/jsonapi/incomes?filter=${encodeURIComponent(`has(ownership,equals(contact.id,'${contact}'))`)}`)).json.data;
		expect((await incomesOf(mele)).map((income: { attributes: Record<string, unknown> }) => income.attributes)).toEqual([
			expect.objectContaining({ incomeTypeId: 1, incomeType: 'Base salary', incomeCategory: 'Employment', incomeCategoryId: 1, value: 98000, frequency: 'Yearly' }),
		]);
		expect((await incomesOf(sione)).map((income: { attributes: Record<string, unknown> }) => income.attributes.value)).toEqual([3400]);
		// The home, at the address, owned by both; the mortgage secured by it; the card; the expenses.
		const [asset] = (await api.get(`/jsonapi/assets?filter=${encodeURIComponent("equals(assetType,'Real estate')")}&include=addresses,ownership.contact`)).json.data;
		expect(asset.attributes).toMatchObject({ assetTypeId: 1, assetSubType: 'House', propertyType: 'House', propertyZoningType: 'Residential', value: 950000, valuationBasis: 'ApplicantEstimate' });
		expect(ids(await api.get(`/jsonapi/assets/${asset.id}/ownership`))).toHaveLength(2);
		const liabilities = (await api.get('/jsonapi/liabilities?include=linkedAsset')).json.data;
		expect(liabilities.map((liability: { attributes: Record<string, unknown>; relationships: Record<string, { data: unknown }> }) => [liability.attributes.liabilityType, liability.attributes.liabilitySubType, liability.attributes.liabilityCategory, liability.relationships.linkedAsset.data])).toEqual([
			['Mortgage loan', 'Owner occupied', 'Loans', { type: 'assets', id: asset.id }],
			['Credit card', null, 'Credit', null],
		]);
		expect((await api.get('/jsonapi/expenses')).json.data.map((expense: { attributes: Record<string, unknown> }) => [expense.attributes.expenseType, expense.attributes.expenseCategory, expense.attributes.value])).toEqual([['Groceries', 'Living expenses', 3200]]);
		// The note and the external reference, as a lead's.
		expect(ids(await api.get(`/jsonapi/deals/${dealId}/dealNotes`))).toHaveLength(1);
		const reference = await api.get(`/jsonapi/deal-external-references?filter=${encodeURIComponent("equals(externalReference,'FF-0001')")}&include=deal`);
		expect(reference.json.data[0].relationships.deal.data).toEqual({ type: 'deals', id: dealId });
	});

	it('takes an existing contact with the same e-mail (case aside) and puts the new person in its client', async () => {
		const existing = sb.data.get('contacts', sb.data.ids.contact);
		const email = String(existing?.attributes.email).toUpperCase();
		const contactsBefore = sb.data.count('contacts');
		const reply = await api.post('/jsonapi/structured-leads', factFind({ contacts: [{ lid: 'known', email }, { lid: 'partner', firstName: 'New', lastName: 'Partner' }] }));
		expect(reply.status).toBe(201);
		expect(sb.data.count('contacts')).toBe(contactsBefore + 1);
		const dealContacts = ids(await api.get(`/jsonapi/deals/${reply.json.data.id as string}/contacts`));
		expect(dealContacts[0]).toBe(sb.data.ids.contact);
		expect(sb.data.get('contacts', dealContacts[1])?.relationships.contactGroup).toEqual(existing?.relationships.contactGroup);
	});

	it('refuses what the description does not allow with 422s pointing into the entries, every problem at once, and writes nothing', async () => {
		const dealsBefore = sb.data.count('deals');
		const contactsBefore = sb.data.count('contacts');
		const reply = await api.post(
			'/jsonapi/structured-leads',
			factFind({
				...HOUSEHOLD,
				incomes: [HOUSEHOLD.incomes[0], { ...HOUSEHOLD.incomes[1], frequency: 'Fortnighly', ownership: [{ lid: 'a2' }, { lid: 'a3' }] }, { incomeTypeId: 999, value: 'lots' }],
				liabilities: [{ ...HOUSEHOLD.liabilities[0], liabilitySubTypeId: 4 }],
				expenses: [{ lid: 'living', expenseTypeId: 1, colour: 'blue', ownership: { lid: 'a1' } }, { lid: 'living' }],
			}),
		);
		expect(reply.status).toBe(422);
		expect(reply.json.errors.map((error: { title: string; source: { pointer: string }; detail: string }) => [error.title, error.source.pointer, error.detail])).toEqual([
			['Input validation failed.', '/data/attributes/expenses/1/lid', "Entry 0 of 'expenses' has lid 'living' too."],
			['Input validation failed.', '/data/attributes/incomes/1/frequency', "The value 'Fortnighly' is not valid for Frequency. Valid values: Yearly, HalfYearly, Quarterly, Monthly, Fortnightly, Weekly, HalfMonthly."],
			['Input validation failed.', '/data/attributes/incomes/1/ownership/1', "No entry of 'contacts' has lid 'a3'."],
			['Input validation failed.', '/data/attributes/incomes/2/incomeTypeId', "Income type '999' does not exist."],
			['Input validation failed.', '/data/attributes/incomes/2/value', "Failed to convert attribute 'value' with value 'lots' of type 'String' to type 'Decimal'."],
			['Input validation failed.', '/data/attributes/expenses/0/colour', "Attribute 'colour' does not exist on an entry of 'expenses'."],
			['Input validation failed.', '/data/attributes/expenses/0/ownership', "'ownership' must be a list of references ({\"lid\": \"…\"}) to 'contacts'."],
			['Input validation failed.', '/data/attributes/liabilities/0/liabilitySubTypeId', "Liability sub-type '4' is not a sub-type of liability type '1'."],
		]);
		expect(sb.data.count('deals')).toBe(dealsBefore);
		expect(sb.data.count('contacts')).toBe(contactsBefore);
		const empty = await api.post('/jsonapi/structured-leads', factFind({ addresses: HOUSEHOLD.addresses }));
		expect([empty.status, empty.json.errors[0].source.pointer]).toEqual([422, '/data/attributes/contacts']);
		// What the description does not list for a fact find (a lead's match setting) is an unknown attribute.
		const unknown = await api.post('/jsonapi/structured-leads', factFind({ ...HOUSEHOLD, contactMatchExisting: 'Email' }));
		expect([unknown.status, unknown.json.errors[0].source.pointer]).toEqual([422, '/data/attributes/contactMatchExisting']);
	});

	it('serves the type lists as the description shapes them: types with their category, a liability type\'s sub-types', async () => {
		const incomeTypes = await api.get('/jsonapi/income-types?include=incomeCategory&fields[income-types]=name,incomeCategory&fields[income-categories]=description');
		expect(incomeTypes.json.data[0]).toEqual({ type: 'income-types', id: '1', attributes: { name: 'Base salary' }, relationships: { incomeCategory: expect.objectContaining({ data: { type: 'income-categories', id: '1' } }) }, links: expect.anything() });
		expect(incomeTypes.json.included).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'income-categories', id: '1', attributes: { description: 'Employment' } })]));
		const named = await api.get(`/jsonapi/expense-types?filter=${encodeURIComponent("and(equals(expenseCategory.description,'Housing'),equals(name,'Rent'))")}`);
		expect(ids(named)).toEqual(['6']);
		const subTypes = await api.get('/jsonapi/liability-types/4/liabilitySubTypes');
		expect(subTypes.json.data.map((subType: { attributes: { name: string } }) => subType.attributes.name)).toEqual(['Standard', 'Low rate', 'Rewards']);
		expect((await api.get('/jsonapi/property-types/5')).json.data.attributes).toEqual({ propertyZoningType: 'Commercial', name: 'Office', propertyZoningTypeId: 2 });
		expect(ids(await api.get('/jsonapi/asset-types'))).toEqual(['1', '2', '3', '4', '5', '6', '9']);
	});
});
