/**
 * A fact find as the service takes it (POST /jsonapi/structured-leads, the public API description's
 * `StructuredLeadAttributes`; not the seed): seven lists — people (`contacts`), addresses,
 * employments, incomes, assets, liabilities and expenses — whose entries carry a `lid` that other
 * entries point to (`{ lid }`, `[{ lid }]`). The lead's own parts (note, UTM, source, referrer,
 * external reference) are the `structured-leads` type's attributes in schema.ts.
 *
 * This is the one definition of the lists: Fact Find → Create's fixed collections (manual mapping),
 * the check of a whole fact find given as JSON, the request document and the AI tool's argument are
 * all derived from it. Every member is the description's attribute of that name (`LeadContact`,
 * `LeadAddress`, `LeadEmployment`, `LeadIncome`, `LeadAsset`, `LeadLiability`, `LeadExpense`), with
 * its type, enum values and maximum length; references are `LeadContactReference`,
 * `LeadAddressReference`, `LeadAssetReference` and `LeadEmploymentReference`. Type ids (income,
 * asset and sub-type, liability and sub-type, expense, property type) are picked from the service's
 * lists (`picked`).
 */
import type { AttributeSpec } from './schema';
import { ADDRESS_TYPES, FREQUENCIES, GENDERS, MARITAL_STATUSES, TITLES } from './schema';

/** The description's enums only a fact find uses. */
const EMPLOYMENT_STATUSES = ['PrimaryEmployment', 'SecondaryEmployment', 'PreviousEmployment'] as const;
const EMPLOYMENT_TYPES = ['PAYG', 'SelfEmployed', 'Unemployed', 'Retired', 'HomeDuties', 'Student'] as const;
const EMPLOYMENT_BASES = ['FullTime', 'PartTime', 'Contract', 'Temporary', 'Casual'] as const;
const EMPLOYER_TYPES = ['Private', 'Public'] as const;
const INCOME_VERIFICATIONS = [
	'CurrentPayslips',
	'CurrentGroupCertificate',
	'CurrentPersonalTaxReturn',
	'PreviousYearPersonalTaxReturn',
	'NoticeOfAssessment',
	'CurrentCompanyTaxReturn',
	'PreviousCompanyTaxReturn',
	'LetterFromEmployer',
	'EmploymentContract',
	'BankAccountStatement',
	'Other',
] as const;
const PROPERTY_PRIMARY_PURPOSES = ['PurchaseOwnerOccupied', 'PurchaseInvestment'] as const;
const VALUE_BASES = ['ApplicantEstimate', 'CertifiedValuation', 'ActualValue'] as const;
const REPAYMENT_TYPES = ['PrincipalInterest', 'InterestOnly'] as const;
const MORTGAGE_PRIORITIES = ['First', 'Second', 'Third'] as const;

/** The lists of a fact find, as the description names them. */
export type FactFindListName = 'contacts' | 'addresses' | 'employments' | 'incomes' | 'assets' | 'liabilities' | 'expenses';

/** A member of an entry: the description's attribute, and where manual mapping offers it. */
export interface FactFindMember extends AttributeSpec {
	/**
	 * `main`: a field of every entry; `json`: only in a fact find given as JSON (the description's
	 * date-time twin of a date: manual mapping sends the date); else under the entry's Additional Fields.
	 */
	place?: 'main' | 'json';
}

export interface FactFindList {
	/** The attribute of `StructuredLeadAttributes`, and the key of a fact find given as JSON. */
	name: FactFindListName;
	/** The node's fixed collection (public name) and its entries' key: `people`, `person`. */
	parameter: string;
	entryKey: string;
	/** What the editor calls the list and an entry: "People", "Person". */
	label: string;
	entryLabel: string;
	/** How a message calls an entry: "person". */
	singular: string;
	/** An example of an entry's name, for the placeholder: "Applicant 1". */
	example: string;
	members: Readonly<Record<string, FactFindMember>>;
}

const text = (description: string, maxLength?: number, place?: FactFindMember['place']): FactFindMember => ({
	kind: 'string',
	description,
	...(maxLength === undefined ? {} : { maxLength }),
	...(place === undefined ? {} : { place }),
});
const choice = (values: readonly string[], description: string, extra: Partial<FactFindMember> = {}): FactFindMember => ({ kind: 'enum', values, description, ...extra });
const amount = (description: string, place?: FactFindMember['place']): FactFindMember => ({ kind: 'number', description, ...(place === undefined ? {} : { place }) });
const flag = (description: string): FactFindMember => ({ kind: 'boolean', description });
/** One entry of `list`, by its lid. */
const one = (list: FactFindListName, description: string, extra: Partial<FactFindMember> = {}): FactFindMember => ({ kind: 'object', refersTo: list, description, ...extra });
/** Entries of `list`, by their lids. */
const many = (list: FactFindListName, description: string, extra: Partial<FactFindMember> = {}): FactFindMember => ({ kind: 'list', refersTo: list, description, ...extra });
/** An id of the service's list of `type`. */
const typeId = (type: string, label: string, description: string, place?: FactFindMember['place']): FactFindMember => ({
	kind: 'integer',
	picked: type,
	label,
	description,
	...(place === undefined ? {} : { place }),
});

export const FACT_FIND_LISTS: readonly FactFindList[] = [
	{
		name: 'contacts',
		parameter: 'people',
		entryKey: 'person',
		label: 'People',
		entryLabel: 'Person',
		singular: 'person',
		example: 'Applicant 1',
		members: {
			firstName: text('First name', 100, 'main'),
			lastName: text('Last name', 100, 'main'),
			email: text('E-mail address; Loan CRM takes an existing contact with this e-mail instead of creating one', 100, 'main'),
			mobile: text('Mobile number, e.g. +61412345678', 100, 'main'),
			addresses: many('addresses', 'Where the person lives (or gets mail): names of entries under Addresses', { place: 'main', label: 'Addresses' }),
			employments: many('employments', "The person's jobs: names of entries under Employments", { place: 'main', label: 'Employments' }),
			title: choice(TITLES, 'Title'),
			preferredName: text('Name the person likes to be called', 100),
			homePhone: text('Home phone number', 100),
			businessPhone: text('Business phone number', 100),
			dateOfBirthAsString: { kind: 'date', label: 'Date of Birth', description: 'Date of birth' },
			dateOfBirth: { kind: 'dateTime', place: 'json', description: 'Date of birth as a date-time (the description has both; manual mapping sends dateOfBirthAsString)' },
			gender: choice(GENDERS, 'Gender'),
			maritalStatus: choice(MARITAL_STATUSES, 'Marital status'),
			hasMarketingConsent: flag('Whether the person agreed to receive marketing'),
			isGuarantor: flag('Whether the person is a guarantor'),
			isDependant: flag('Whether the person is a dependant'),
			isPrimary: flag('Whether the person is the primary contact of the client'),
		},
	},
	{
		name: 'addresses',
		parameter: 'addresses',
		entryKey: 'address',
		label: 'Addresses',
		entryLabel: 'Address',
		singular: 'address',
		example: 'Home',
		members: {
			streetAddress: text('Street and number', 500, 'main'),
			suburb: text('Suburb', 500, 'main'),
			state: text('State, e.g. NSW', 500, 'main'),
			postCode: text('Post code (at most 4 characters)', 4, 'main'),
			addressType: choice(ADDRESS_TYPES, 'What the address is to the people who have it', { ordered: true, place: 'main' }),
			formattedAddress: text('The whole address on one line', 500),
			country: text('Country', 500),
		},
	},
	{
		name: 'employments',
		parameter: 'employments',
		entryKey: 'employment',
		label: 'Employments',
		entryLabel: 'Employment',
		singular: 'employment',
		example: 'Job 1',
		members: {
			employerName: text('Name of the employer', 1000, 'main'),
			employmentType: choice(EMPLOYMENT_TYPES, 'Kind of employment', { place: 'main' }),
			employmentStatus: choice(EMPLOYMENT_STATUSES, 'Whether this is the primary, a secondary or a previous job', { ordered: true, place: 'main' }),
			employmentRoleName: text('Role or job title', 200, 'main'),
			dateStartedAsString: { kind: 'date', label: 'Date Started', place: 'main', description: 'When the job started' },
			dateStarted: { kind: 'dateTime', place: 'json', description: 'When the job started, as a date-time (manual mapping sends dateStartedAsString)' },
			dateEndedAsString: { kind: 'date', label: 'Date Ended', description: 'When the job ended' },
			dateEnded: { kind: 'dateTime', place: 'json', description: 'When the job ended, as a date-time (manual mapping sends dateEndedAsString)' },
			employmentBasis: choice(EMPLOYMENT_BASES, 'Full-time, part-time, contract, temporary or casual', { ordered: true }),
			isProbation: flag('Whether the person is on probation'),
			businessNumber: text('Business number of the employer (ABN)', 80),
			companyNumber: text('Company number of the employer (ACN)', 80),
			employerType: choice(EMPLOYER_TYPES, 'Private or public employer'),
			employerContactTitle: choice(TITLES, "Title of the employer's contact person"),
			employerContactFirstName: text("First name of the employer's contact person", 100),
			employerContactLastName: text("Last name of the employer's contact person", 100),
			employerPhone: text("Employer's phone number", 50),
			address: one('addresses', "The employer's address: the name of an entry under Addresses"),
		},
	},
	{
		name: 'incomes',
		parameter: 'incomes',
		entryKey: 'income',
		label: 'Incomes',
		entryLabel: 'Income',
		singular: 'income',
		example: 'Salary 1',
		members: {
			ownership: many('contacts', 'Who receives the income: names of entries under People', { place: 'main', label: 'Owners' }),
			incomeTypeId: typeId('income-types', 'Income Type', "The kind of income, from Loan CRM's income types (e.g. Base salary)", 'main'),
			value: amount('Amount per period (see Frequency)', 'main'),
			frequency: choice(FREQUENCIES, 'How often the amount is received', { ordered: true, place: 'main' }),
			employment: one('employments', 'The job the income comes from: the name of an entry under Employments', { place: 'main' }),
			description: text('Description of the income', 500),
			incomeVerification: choice(INCOME_VERIFICATIONS, 'How the income is verified'),
			asset: one('assets', 'The asset the income comes from (e.g. rent from a property): the name of an entry under Assets'),
		},
	},
	{
		name: 'assets',
		parameter: 'assets',
		entryKey: 'asset',
		label: 'Assets',
		entryLabel: 'Asset',
		singular: 'asset',
		example: 'Home',
		members: {
			ownership: many('contacts', 'Who owns the asset: names of entries under People', { place: 'main', label: 'Owners' }),
			assetTypeId: typeId('asset-types', 'Asset Type', "The kind of asset, from Loan CRM's asset types (e.g. Real estate)", 'main'),
			value: amount('Value of the asset', 'main'),
			address: one('addresses', "The property's address: the name of an entry under Addresses", { place: 'main' }),
			assetSubTypeId: typeId('asset-sub-types', 'Asset Sub-Type', "A finer kind, from Loan CRM's asset sub-types"),
			description: text('Description of the asset', 500),
			propertyTypeId: typeId('property-types', 'Property Type', "For a property: its type, from Loan CRM's property types"),
			propertyZoningId: {
				kind: 'integer',
				label: 'Property Zoning ID',
				description: 'For a property: its zoning',
				note: "IDs come from Loan CRM's property types: the propertyZoningTypeId of each (GET /jsonapi/property-types)",
			},
			propertyPrimaryPurpose: choice(PROPERTY_PRIMARY_PURPOSES, 'For a property: owner-occupied or investment'),
			valueBasis: choice(VALUE_BASES, 'What the value is based on'),
			institution: text('For savings and shares: the institution', 1000),
			accountName: text('Account name', 200),
			bsb: text('BSB of the account', 50),
			accountNumber: text('Account number', 50),
			vehicleMake: text('For a vehicle: its make', 100),
			vehicleYear: { kind: 'integer', description: 'For a vehicle: the year it was made' },
		},
	},
	{
		name: 'liabilities',
		parameter: 'liabilities',
		entryKey: 'liability',
		label: 'Liabilities',
		entryLabel: 'Liability',
		singular: 'liability',
		example: 'Home loan',
		members: {
			ownership: many('contacts', 'Who owes it: names of entries under People', { place: 'main', label: 'Owners' }),
			liabilityTypeId: typeId('liability-types', 'Liability Type', "The kind of liability, from Loan CRM's liability types (e.g. Mortgage loan, Credit card)", 'main'),
			// Listed per liability type: next to it, so its list knows which type's sub-types to show.
			liabilitySubTypeId: typeId('liability-sub-types', 'Liability Sub-Type', "A finer kind, from the chosen liability type's sub-types in Loan CRM", 'main'),
			value: amount('Balance owed', 'main'),
			limit: amount('Credit limit', 'main'),
			repayments: amount('Repayment amount per period (see Repayment Frequency)', 'main'),
			repaymentFrequency: choice(FREQUENCIES, 'How often repayments are made', { ordered: true, place: 'main' }),
			asset: one('assets', 'The asset it is secured by (a home loan: the home): the name of an entry under Assets', { place: 'main' }),
			description: text('Description of the liability', 500),
			creditorName: text('Lender or creditor', 250),
			interestRate: { kind: 'number', description: 'Interest rate (the public description does not say whether 5.5% is written 5.5 or 0.055)' },
			interestTaxDeductible: flag('Whether the interest is tax deductible'),
			loanTerm: { kind: 'integer', description: 'Loan term (the public description gives no unit)' },
			loanRepaymentType: choice(REPAYMENT_TYPES, 'Principal and interest, or interest only'),
			mortgagePriority: choice(MORTGAGE_PRIORITIES, 'For a mortgage: first, second or third', { ordered: true }),
			accountName: text('Account name', 200),
			bsb: text('BSB of the account', 50),
			accountNumber: text('Account number', 200),
		},
	},
	{
		name: 'expenses',
		parameter: 'expenses',
		entryKey: 'expense',
		label: 'Expenses',
		entryLabel: 'Expense',
		singular: 'expense',
		example: 'Living expenses',
		members: {
			ownership: many('contacts', 'Who pays it: names of entries under People', { place: 'main', label: 'Owners' }),
			expenseTypeId: typeId('expense-types', 'Expense Type', "The kind of expense, from Loan CRM's expense types (e.g. Groceries)", 'main'),
			value: amount('Amount per period (see Frequency)', 'main'),
			frequency: choice(FREQUENCIES, 'How often it is paid', { ordered: true, place: 'main' }),
			description: text('Description of the expense', 500),
		},
	},
];

/** The list of a name: `contacts` → the people. */
export function factFindList(name: string): FactFindList | undefined {
	return FACT_FIND_LISTS.find((list) => list.name === name);
}

/** The member every entry has besides its attributes: its name in the fact find, which the others point to. */
export const LID = 'lid';

/** The lid manual mapping gives the entry at `index` of `list`: `person-1`, `income-2`. */
export function generatedLid(list: FactFindList, index: number): string {
	return `${list.entryKey}-${index + 1}`;
}

/**
 * The editor's load-options method listing the names of `list`'s entries, for a link to several
 * (`factFindPeople`) or to one (`factFindAsset`, with "none"): the description names it on the
 * link's parameter, the node's `methods.loadOptions` has it.
 */
export function namesMethod(list: FactFindList, many: boolean): string {
	return `factFind${many ? list.label : list.entryLabel}`;
}

/** Every list another list's entries link to. */
export function linkedLists(): FactFindList[] {
	return FACT_FIND_LISTS.filter((list) => FACT_FIND_LISTS.some((other) => Object.values(other.members).some((member) => member.refersTo === list.name)));
}
