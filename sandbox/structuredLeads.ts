/**
 * POST /jsonapi/structured-leads, from the service's public API description (swagger
 * `StructuredLead_Post`, `StructuredLeadAttributes` and the `Lead…` schemas it references), not
 * from the seed: a whole fact find in one request. Written from the description, independently of
 * the node's code.
 *
 * What the description says, and how the sandbox fills the gaps it leaves:
 * - Seven lists — `contacts` (`LeadContact`), `addresses`, `employments`, `incomes`, `assets`,
 *   `liabilities`, `expenses` — each entry with a `lid`; entries point at each other by it
 *   (`LeadContactReference`, `LeadAddressReference`, `LeadAssetReference`,
 *   `LeadEmploymentReference`: `{ lid }`). Every member is typed (enums, int32, double, dates,
 *   lengths) and no other member is allowed (`additionalProperties: false`). The sandbox refuses a
 *   bad value, an unknown member, a reference to a lid its list does not have or a lid used twice in
 *   a list with 422 "Input validation failed." and `source.pointer` into the entry
 *   (`/data/attributes/incomes/2/frequency`, `/data/attributes/incomes/0/ownership/1`), every
 *   problem at once, as JsonApiDotNetCore reports model validation. Type ids must be ids of the
 *   service's lists (`/income-types`, …), a liability sub-type one of its liability type's.
 * - The description has no `contactMatchExisting` for a fact find. The sandbox takes, for each
 *   person with an e-mail, the oldest contact with that e-mail (compared as the database does), as a
 *   lead does by default (`Email`); the others are created. All of them make one client: the
 *   contact group of the first person found, else a new group of the adviser. A fact find without a
 *   person is refused (422 at `/data/attributes/contacts`; the description does not say).
 * - The deal: in `NewLeads`, allocated to the adviser of the request's `UserId`, named `dealName`
 *   or after the first person, with every person as its contact; the note, the external reference
 *   and its integration as a lead's (sandbox/leads.ts).
 * - The records, readable where the description has read endpoints: each address a contact address
 *   of the people who have it (and a financial address of an asset at it), each employment of the
 *   people who have it, incomes, assets, liabilities and expenses with their `ownership` (an owner
 *   record per person, no shares), an income's `linkedAsset` and `employment`, a liability's
 *   `linkedAsset`; type names filled from the lists, as the seeded records carry them.
 * - The answer is the lead: its id is the deal's, and only `customStatusName` and `dealStatus` are
 *   readable (also through GET /structured-leads/{id}).
 */
import type { SandboxState } from './data';
import { ApiError, validationError } from './errors';
import { checkLeadParts, given, recordLeadParts, sameText } from './leads';
import { CLIENT_ADDRESS_TYPE, FREQUENCY_TYPE, GENDER, MARITAL_STATUS, TITLE } from './schema';
import type { AttrDef } from './schema';
import type { Rec } from './store';
import { checkAttribute } from './validate';

const EMPLOYMENT_STATUS = ['PrimaryEmployment', 'SecondaryEmployment', 'PreviousEmployment'];
const EMPLOYMENT_TYPE = ['PAYG', 'SelfEmployed', 'Unemployed', 'Retired', 'HomeDuties', 'Student'];
const EMPLOYMENT_BASIS = ['FullTime', 'PartTime', 'Contract', 'Temporary', 'Casual'];
const EMPLOYER_TYPE = ['Private', 'Public'];
const INCOME_VERIFICATION = [
	'CurrentPayslips', 'CurrentGroupCertificate', 'CurrentPersonalTaxReturn', 'PreviousYearPersonalTaxReturn', 'NoticeOfAssessment', 'CurrentCompanyTaxReturn',
	'PreviousCompanyTaxReturn', 'LetterFromEmployer', 'EmploymentContract', 'BankAccountStatement', 'Other',
];
const PROPERTY_PRIMARY_PURPOSE = ['PurchaseOwnerOccupied', 'PurchaseInvestment'];
const VALUE_BASIS = ['ApplicantEstimate', 'CertifiedValuation', 'ActualValue'];
const REPAYMENT_TYPE = ['InterestOnly', 'PrincipalInterest'];
const MORTGAGE_PRIORITY = ['First', 'Second', 'Third'];

type ListName = 'contacts' | 'addresses' | 'employments' | 'incomes' | 'assets' | 'liabilities' | 'expenses';

/** A member: a typed value, or a reference (`{ lid }`, or a list of them) to an entry of another list. */
type Member = { def: AttrDef } | { ref: ListName; many: boolean };

const s = (max?: number): Member => ({ def: { kind: 'string', ...(max === undefined ? {} : { max }) } });
const e = (values: readonly string[], clrType: string): Member => ({ def: { kind: 'enum', values, clrType, nullable: false } });
const dbl = (): Member => ({ def: { kind: 'number', clrType: 'Double' } });
const i32 = (): Member => ({ def: { kind: 'integer', clrType: 'Int32' } });
const b = (): Member => ({ def: { kind: 'boolean', clrType: 'Boolean' } });
const d = (): Member => ({ def: { kind: 'date', clrType: 'DateOnly' } });
const dt = (): Member => ({ def: { kind: 'timestamp', clrType: 'DateTime' } });
const ref = (list: ListName): Member => ({ ref: list, many: false });
const refs = (list: ListName): Member => ({ ref: list, many: true });

/** The description's `Lead…` schemas, member by member (the `lid` of each entry aside). */
const LISTS: Record<ListName, Record<string, Member>> = {
	contacts: {
		title: e(TITLE, 'Title'), firstName: s(100), preferredName: s(100), lastName: s(100), email: s(100), mobile: s(100), homePhone: s(100), businessPhone: s(100),
		dateOfBirthAsString: d(), dateOfBirth: dt(), gender: e(GENDER, 'Gender'), maritalStatus: e(MARITAL_STATUS, 'MaritalStatus'), hasMarketingConsent: b(),
		isGuarantor: b(), isDependant: b(), isPrimary: b(), addresses: refs('addresses'), employments: refs('employments'),
	},
	addresses: {
		formattedAddress: s(500), streetAddress: s(500), suburb: s(500), state: s(500), postCode: s(4), country: s(500), addressType: e(CLIENT_ADDRESS_TYPE, 'ClientAddressType'),
	},
	employments: {
		employmentStatus: e(EMPLOYMENT_STATUS, 'EmploymentStatus'), employmentType: e(EMPLOYMENT_TYPE, 'EmploymentType'), dateStartedAsString: d(), dateStarted: dt(),
		dateEndedAsString: d(), dateEnded: dt(), employmentRoleName: s(200), employmentBasis: e(EMPLOYMENT_BASIS, 'EmploymentBasis'), isProbation: b(), businessNumber: s(80),
		companyNumber: s(80), employerName: s(1000), employerContactTitle: e(TITLE, 'Title'), employerContactFirstName: s(100), employerContactLastName: s(100),
		employerType: e(EMPLOYER_TYPE, 'EmployerType'), employerPhone: s(50), address: ref('addresses'),
	},
	incomes: {
		incomeTypeId: i32(), description: s(500), value: dbl(), frequency: e(FREQUENCY_TYPE, 'Frequency'), incomeVerification: e(INCOME_VERIFICATION, 'IncomeVerificationEnum'),
		ownership: refs('contacts'), asset: ref('assets'), employment: ref('employments'),
	},
	assets: {
		assetTypeId: i32(), assetSubTypeId: i32(), description: s(500), value: dbl(), institution: s(1000), accountName: s(200), bsb: s(50), accountNumber: s(50),
		vehicleMake: s(100), vehicleYear: i32(), propertyZoningId: i32(), propertyTypeId: i32(), propertyPrimaryPurpose: e(PROPERTY_PRIMARY_PURPOSE, 'PropertyPrimaryPurpose'),
		valueBasis: e(VALUE_BASIS, 'PropertyValueEstimatedBasis'), address: ref('addresses'), ownership: refs('contacts'),
	},
	liabilities: {
		liabilityTypeId: i32(), liabilitySubTypeId: i32(), description: s(500), accountName: s(200), bsb: s(50), accountNumber: s(200), value: dbl(), limit: dbl(),
		repayments: dbl(), repaymentFrequency: e(FREQUENCY_TYPE, 'Frequency'), interestRate: dbl(), interestTaxDeductible: b(), creditorName: s(250), loanTerm: i32(),
		loanRepaymentType: e(REPAYMENT_TYPE, 'LiabilityRepaymentType'), mortgagePriority: e(MORTGAGE_PRIORITY, 'MortgagePriority'), asset: ref('assets'), ownership: refs('contacts'),
	},
	expenses: {
		expenseTypeId: i32(), description: s(500), value: dbl(), frequency: e(FREQUENCY_TYPE, 'Frequency'), ownership: refs('contacts'),
	},
};

/** Type ids and the list they come from (`incomes[].incomeTypeId` → `/income-types`). */
const TYPE_IDS: Record<string, string> = {
	incomeTypeId: 'income-types',
	assetTypeId: 'asset-types',
	assetSubTypeId: 'asset-sub-types',
	propertyTypeId: 'property-types',
	liabilityTypeId: 'liability-types',
	liabilitySubTypeId: 'liability-sub-types',
	expenseTypeId: 'expense-types',
};

type Entry = Record<string, unknown>;

const isObject = (value: unknown): value is Entry => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A `{ lid }` reference's lid. */
function lidOf(value: unknown): string | undefined {
	return isObject(value) && Object.keys(value).every((key) => key === 'lid') && typeof value.lid === 'string' && value.lid !== '' ? value.lid : undefined;
}

/** Every list, checked as the description types it; all problems at once (422). */
function readLists(state: SandboxState, attributes: Record<string, unknown>): Record<ListName, Entry[]> {
	const problems: Array<ReturnType<typeof validationError>> = [];
	const lists = {} as Record<ListName, Entry[]>;
	const lids = new Map<ListName, Map<string, number>>();
	for (const name of Object.keys(LISTS) as ListName[]) {
		const given = attributes[name];
		const entries: Entry[] = [];
		const seen = new Map<string, number>();
		if (Array.isArray(given)) {
			given.forEach((entry, index) => {
				const pointer = `/data/attributes/${name}/${index}`;
				if (!isObject(entry)) {
					problems.push(validationError(pointer, `Entry ${index} of '${name}' must be an object.`));
					return;
				}
				if (entry.lid !== undefined && entry.lid !== null) {
					if (typeof entry.lid !== 'string' || entry.lid === '') problems.push(validationError(`${pointer}/lid`, `The lid must be a non-empty string.`));
					else if (seen.has(entry.lid)) problems.push(validationError(`${pointer}/lid`, `Entry ${seen.get(entry.lid) ?? 0} of '${name}' has lid '${entry.lid}' too.`));
					else seen.set(entry.lid, index);
				}
				entries.push(entry);
			});
		}
		lists[name] = entries;
		lids.set(name, seen);
	}
	for (const name of Object.keys(LISTS) as ListName[]) {
		lists[name].forEach((entry, index) => {
			const pointer = `/data/attributes/${name}/${index}`;
			for (const [member, value] of Object.entries(entry)) {
				if (member === 'lid' || value === null || value === undefined) continue;
				const spec = LISTS[name][member];
				if (spec === undefined) {
					problems.push(validationError(`${pointer}/${member}`, `Attribute '${member}' does not exist on an entry of '${name}'.`));
					continue;
				}
				if ('def' in spec) {
					for (const message of checkAttribute(member, spec.def, value)) problems.push(validationError(`${pointer}/${member}`, message));
					const list = TYPE_IDS[member];
					if (list !== undefined && typeof value === 'number' && state.store.get(list, value) === undefined) {
						problems.push(validationError(`${pointer}/${member}`, `${list.replace(/-/g, ' ').replace(/s$/, '').replace(/^./, (c) => c.toUpperCase())} '${value}' does not exist.`));
					}
					continue;
				}
				const references = spec.many ? (Array.isArray(value) ? value : undefined) : [value];
				if (references === undefined) {
					problems.push(validationError(`${pointer}/${member}`, `'${member}' must be a list of references ({"lid": "…"}) to '${spec.ref}'.`));
					continue;
				}
				references.forEach((reference, position) => {
					const at = spec.many ? `${pointer}/${member}/${position}` : `${pointer}/${member}`;
					const lid = lidOf(reference);
					if (lid === undefined) problems.push(validationError(at, `A reference to '${spec.ref}' must be {"lid": "…"}.`));
					else if (!lids.get(spec.ref)?.has(lid)) problems.push(validationError(at, `No entry of '${spec.ref}' has lid '${lid}'.`));
				});
			}
		});
	}
	// A liability's sub-type is one of its type's.
	lists.liabilities.forEach((entry, index) => {
		const type = typeof entry.liabilityTypeId === 'number' ? state.store.get('liability-types', entry.liabilityTypeId) : undefined;
		const subTypes = type?.rels.liabilitySubTypes;
		if (type !== undefined && typeof entry.liabilitySubTypeId === 'number' && !(Array.isArray(subTypes) && subTypes.includes(entry.liabilitySubTypeId))) {
			problems.push(validationError(`/data/attributes/liabilities/${index}/liabilitySubTypeId`, `Liability sub-type '${entry.liabilitySubTypeId}' is not a sub-type of liability type '${type.id}'.`));
		}
	});
	if (lists.contacts.length === 0) problems.push(validationError('/data/attributes/contacts', 'A structured lead needs at least one contact.'));
	if (problems.length > 0) throw new ApiError(422, problems);
	return lists;
}

/** The index of the entry of `list` with this reference's lid. */
function indexOf(lists: Record<ListName, Entry[]>, list: ListName, reference: unknown): number {
	const lid = lidOf(reference);
	return lists[list].findIndex((entry) => entry.lid === lid);
}

function indexesOf(lists: Record<ListName, Entry[]>, list: ListName, references: unknown): number[] {
	return Array.isArray(references) ? references.map((reference) => indexOf(lists, list, reference)).filter((index) => index >= 0) : [];
}

/** The oldest contact with this e-mail, compared as the database compares text. */
function contactWithEmail(state: SandboxState, email: unknown): Rec | undefined {
	if (!given(email)) return undefined;
	for (const id of state.store.table('contacts').ids()) {
		const contact = state.store.get('contacts', id);
		if (contact !== undefined && sameText(contact.attributes.email, email)) return contact;
	}
	return undefined;
}

/** A date member: its date, or the date part of its date-time twin. */
function dateOf(entry: Entry, asString: string, dateTime: string): string | null {
	if (typeof entry[asString] === 'string') return entry[asString] as string;
	return typeof entry[dateTime] === 'string' ? (entry[dateTime] as string).slice(0, 10) : null;
}

const valueOr = (value: unknown) => (value === undefined ? null : value);

/** Creates the fact find (contacts, deal, records, note, external reference) and returns the lead's record. */
export function createStructuredLead(state: SandboxState, attributes: Record<string, unknown>, adviserId: number): Rec {
	const store = state.store;
	// Everything that can refuse the fact find is checked before anything is written.
	const lists = readLists(state, attributes);
	const parts = checkLeadParts(state, attributes);
	const stamp = state.stamp();
	const insert = (type: string, recAttributes: Record<string, unknown>, rels: Rec['rels'] = {}): number => {
		const id = store.table(type).nextId();
		store.insert(type, { id, attributes: recAttributes, rels });
		return id;
	};
	const typeName = (list: string, id: unknown) => (typeof id === 'number' ? ((store.get(list, id)?.attributes.name as string | undefined) ?? null) : null);
	const related = (list: string, id: unknown, rel: string) => (typeof id === 'number' ? store.get(list, id)?.rels[rel] : undefined);

	// The people: each one found by e-mail or created, all in one client.
	const found = lists.contacts.map((person) => contactWithEmail(state, person.email));
	let group = found.map((contact) => contact?.rels.contactGroup).find((id): id is number => typeof id === 'number');
	const contactIds = lists.contacts.map((person, index) => {
		const existing = found[index];
		if (existing !== undefined) return existing.id;
		const values: Record<string, unknown> = {};
		for (const name of ['title', 'firstName', 'preferredName', 'lastName', 'email', 'mobile', 'homePhone', 'businessPhone', 'gender', 'maritalStatus', 'hasMarketingConsent', 'isPrimary']) {
			if (person[name] !== undefined && person[name] !== null) values[name] = person[name];
		}
		const dateOfBirth = dateOf(person, 'dateOfBirthAsString', 'dateOfBirth');
		if (dateOfBirth !== null) values.dateOfBirth = dateOfBirth;
		const contact = state.createContact(values, group ?? null, adviserId);
		if (group === undefined && typeof contact.rels.contactGroup === 'number') {
			group = contact.rels.contactGroup;
			if (given(attributes.utmCampaign)) state.update('contact-groups', group, { utmCampaign: attributes.utmCampaign });
		}
		return contact.id;
	});

	// Addresses and employments, and the people who have them.
	const addressIds = lists.addresses.map((address) =>
		insert('contact-address', {
			addressType: valueOr(address.addressType),
			formattedAddress: valueOr(address.formattedAddress) ?? ([address.streetAddress, address.suburb, address.state, address.postCode].filter(given).join(' ') || null),
			streetAddress: valueOr(address.streetAddress),
			country: valueOr(address.country),
			suburb: valueOr(address.suburb),
			postCode: valueOr(address.postCode),
			state: valueOr(address.state),
			created: stamp,
			updated: stamp,
		}),
	);
	const employmentIds = lists.employments.map((employment) => {
		const address = indexOf(lists, 'addresses', employment.address);
		return insert(
			'employments',
			{
				employmentStatus: valueOr(employment.employmentStatus),
				employmentType: valueOr(employment.employmentType),
				dateStarted: dateOf(employment, 'dateStartedAsString', 'dateStarted'),
				dateEnded: dateOf(employment, 'dateEndedAsString', 'dateEnded'),
				employmentRoleName: valueOr(employment.employmentRoleName),
				employmentBasis: valueOr(employment.employmentBasis),
				isProbation: valueOr(employment.isProbation),
				businessNumber: valueOr(employment.businessNumber),
				companyNumber: valueOr(employment.companyNumber),
				employerName: valueOr(employment.employerName),
				employerType: valueOr(employment.employerType),
				employerPhone: valueOr(employment.employerPhone),
			},
			{ address: address >= 0 ? addressIds[address] : null },
		);
	});
	lists.contacts.forEach((person, index) => {
		const addresses = indexesOf(lists, 'addresses', person.addresses).map((at) => addressIds[at]);
		const employments = indexesOf(lists, 'employments', person.employments).map((at) => employmentIds[at]);
		if (addresses.length === 0 && employments.length === 0) return;
		const contact = store.get('contacts', contactIds[index]);
		const had = (rel: string) => (Array.isArray(contact?.rels[rel]) ? (contact?.rels[rel] as number[]) : []);
		state.update('contacts', contactIds[index], {}, { contactAddress: [...had('contactAddress'), ...addresses], employments: [...had('employments'), ...employments] });
	});

	/** An owner record per person of the entry's `ownership`. */
	const owners = (entry: Entry) => indexesOf(lists, 'contacts', entry.ownership).map((at) => insert('owners', { ownershipPercentage: null, created: stamp, updated: stamp }, { contact: contactIds[at] }));

	const assetIds = lists.assets.map((asset) => {
		const address = indexOf(lists, 'addresses', asset.address);
		const where = address >= 0 ? lists.addresses[address] : undefined;
		const financialAddress =
			where === undefined
				? []
				: [
						insert('financial-address', {
							formattedAddress: store.get('contact-address', addressIds[address])?.attributes.formattedAddress ?? null,
							streetAddress: valueOr(where.streetAddress),
							country: valueOr(where.country),
							suburb: valueOr(where.suburb),
							postCode: valueOr(where.postCode),
							state: valueOr(where.state),
						}),
					];
		const propertyType = typeof asset.propertyTypeId === 'number' ? store.get('property-types', asset.propertyTypeId)?.attributes : undefined;
		return insert(
			'assets',
			{
				description: valueOr(asset.description),
				value: valueOr(asset.value),
				assetType: typeName('asset-types', asset.assetTypeId),
				created: stamp,
				updated: stamp,
				accountName: valueOr(asset.accountName),
				accountNumber: valueOr(asset.accountNumber),
				bsb: valueOr(asset.bsb),
				vehicleMake: valueOr(asset.vehicleMake),
				vehicleYear: valueOr(asset.vehicleYear),
				propertyType: (propertyType?.name as string | undefined) ?? null,
				assetTypeId: valueOr(asset.assetTypeId),
				institution: valueOr(asset.institution),
				assetSubType: typeName('asset-sub-types', asset.assetSubTypeId),
				assetSubTypeId: valueOr(asset.assetSubTypeId),
				assetCategory: null,
				assetCategoryId: null,
				valuationBasis: valueOr(asset.valueBasis),
				propertyZoningType: (propertyType?.propertyZoningType as string | undefined) ?? null,
			},
			{ addresses: financialAddress, ownership: owners(asset) },
		);
	});
	const assetOf = (entry: Entry) => {
		const at = indexOf(lists, 'assets', entry.asset);
		return at >= 0 ? assetIds[at] : null;
	};

	for (const income of lists.incomes) {
		const category = related('income-types', income.incomeTypeId, 'incomeCategory');
		const employment = indexOf(lists, 'employments', income.employment);
		insert(
			'incomes',
			{
				created: stamp,
				updated: stamp,
				description: valueOr(income.description),
				value: valueOr(income.value),
				incomeTypeId: valueOr(income.incomeTypeId),
				incomeCategoryId: typeof category === 'number' ? category : null,
				incomeVerification: valueOr(income.incomeVerification),
				frequency: valueOr(income.frequency),
				incomeCategory: typeof category === 'number' ? ((store.get('income-categories', category)?.attributes.description as string | undefined) ?? null) : null,
				incomeType: typeName('income-types', income.incomeTypeId),
			},
			{ linkedAsset: assetOf(income), ownership: owners(income), employment: employment >= 0 ? employmentIds[employment] : null },
		);
	}
	for (const liability of lists.liabilities) {
		const category = related('liability-types', liability.liabilityTypeId, 'liabilityCategory');
		insert(
			'liabilities',
			{
				created: stamp,
				updated: stamp,
				repayment: valueOr(liability.repayments),
				value: valueOr(liability.value),
				limit: valueOr(liability.limit),
				accountName: valueOr(liability.accountName),
				accountNumber: valueOr(liability.accountNumber),
				bsb: valueOr(liability.bsb),
				interestTaxDeductible: valueOr(liability.interestTaxDeductible),
				interestRate: valueOr(liability.interestRate),
				liabilityTypeId: valueOr(liability.liabilityTypeId),
				liabilityType: typeName('liability-types', liability.liabilityTypeId),
				liabilitySubTypeId: valueOr(liability.liabilitySubTypeId),
				liabilitySubType: typeName('liability-sub-types', liability.liabilitySubTypeId),
				liabilityCategoryId: typeof category === 'number' ? category : null,
				liabilityCategory: typeof category === 'number' ? ((store.get('liability-categories', category)?.attributes.description as string | undefined) ?? null) : null,
				loanTerm: valueOr(liability.loanTerm),
				repaymentFrequency: valueOr(liability.repaymentFrequency),
				mortgagePriority: valueOr(liability.mortgagePriority),
				creditorName: valueOr(liability.creditorName),
				loanRepaymentType: valueOr(liability.loanRepaymentType),
			},
			{ linkedAsset: assetOf(liability), ownership: owners(liability) },
		);
	}
	for (const expense of lists.expenses) {
		const category = related('expense-types', expense.expenseTypeId, 'expenseCategory');
		insert(
			'expenses',
			{
				created: stamp,
				updated: stamp,
				description: valueOr(expense.description),
				value: valueOr(expense.value),
				expenseTypeId: valueOr(expense.expenseTypeId),
				expenseType: typeName('expense-types', expense.expenseTypeId),
				expenseCategoryId: typeof category === 'number' ? category : null,
				expenseCategory: typeof category === 'number' ? ((store.get('expense-categories', category)?.attributes.description as string | undefined) ?? null) : null,
				frequency: valueOr(expense.frequency),
			},
			{ ownership: owners(expense) },
		);
	}

	// The deal, the adviser's, with every person on it; then the note and the external reference.
	const first = lists.contacts[0];
	const dealId = store.table('deals').nextId();
	const name = given(attributes.dealName) ? attributes.dealName : [first.lastName, first.firstName].filter(given).join(', ') || 'New lead';
	store.insert('deals', {
		id: dealId,
		attributes: { created: stamp, updated: stamp, totalLoanAmount: null, name, dealStatus: 'NewLeads', lenderName: null, dealType: 'Residential' },
		rels: { adviser: adviserId, customStatus: null, contacts: [...new Set(contactIds)] },
	});
	recordLeadParts(state, dealId, adviserId, attributes, parts);
	const lead = store.get('structured-leads', dealId);
	if (lead === undefined) throw new Error(`structured lead ${dealId} was not created`);
	return lead;
}
