/**
 * The service's resource types as data: attributes with their types and known values, which of them
 * can be written, and relationships with their target types. Node parameters, input validation and
 * request documents are all derived from these tables; adding an attribute is one line.
 *
 * Sources: the seed's resource tables; enum values, writability and target types from api-facts.md.
 */
import type { EarlierForms } from './versions';

export type AttributeKind = 'string' | 'number' | 'integer' | 'boolean' | 'date' | 'dateTime' | 'enum' | 'object' | 'list';

export interface AttributeSpec {
	kind: AttributeKind;
	description: string;
	/** Accepted by create/update documents. */
	writable?: boolean;
	/** Written but never returned (every lead attribute but its statuses): reads do not list it. */
	writeOnly?: boolean;
	/** Known values of an enum; values from expressions outside the list are sent as given. */
	values?: readonly string[];
	/**
	 * The values are listed in an order that means something (urgency, pipeline, period length) and
	 * dropdowns keep it; otherwise dropdowns list them alphabetically.
	 */
	ordered?: boolean;
	/** Shown as a multi-line text box. */
	long?: boolean;
	/** What a caller must know about the value beyond its kind, e.g. that a rate is a decimal fraction. */
	note?: string;
	/** An object's members, or the members of each entry of a list of objects (seed §2). */
	members?: Record<string, AttributeSpec>;
	/**
	 * An object whose members a summary lifts into columns of their own: a member is named
	 * `<member><liftedSuffix>` there (`dates.settled` → `settledDate`); without it, by its own name.
	 */
	liftedSuffix?: string;
	/** The value examples use (an AI tool's example filter); else the list's last value. */
	example?: string;
	/** The most characters the service takes; longer text fails before any request. */
	maxLength?: number;
	/** The parameter's label when the attribute's own name does not say it ("Match Existing Contact By"). */
	label?: string;
	/** The parameter's starting value, when the service applies one anyway (else empty: nothing is sent). */
	default?: string;
	/** What each enum value does, for the dropdown. */
	valueDescriptions?: Readonly<Record<string, string>>;
	/**
	 * The value is a record of this type, picked with a resource locator (operation/locatorTypes.ts
	 * LOCATORS: From List, By ID, By Name) and looked up before the request where the locator says.
	 */
	picked?: string;
	/** No parameter of its own: sent with the picked attribute of this name (an enquiry source's category). */
	sentWith?: string;
	/**
	 * A fact find member that points at other entries of the same fact find by their `lid`
	 * (factFind.ts): the name of the list they are in. Kind `object`: one `{ lid }`; kind `list`: `[{ lid }]`.
	 */
	refersTo?: string;
	/** The dropdown's name of each enum value whose own name does not read as words ("E-mail and date of birth"). */
	valueNames?: Readonly<Record<string, string>>;
	/** What the parameter was before a version changed it (service/versions.ts `formAt`): saved nodes keep it. */
	before?: EarlierForms<Pick<AttributeSpec, 'label' | 'valueNames' | 'description'>>;
}

export interface RelationshipSpec {
	toMany?: boolean;
	target: string;
	description: string;
	writable?: boolean;
}

export interface ResourceTypeSpec {
	/** Singular, for messages: "deal structure". */
	label: string;
	attributes: Record<string, AttributeSpec>;
	relationships: Record<string, RelationshipSpec>;
	/** Dotted paths through to-one relationships that filters commonly use. */
	filterPaths?: Record<string, string>;
	/**
	 * Attributes that tell records apart at a glance; output items list them right after id and type
	 * (then the other plain values, then nested objects), so n8n's table shows them first.
	 */
	leading?: readonly string[];
	/**
	 * The fields a person or an agent looks at first, in column order, for records too wide or too
	 * nested to read at a glance: Simplify (node version 1.1) gives `id` and these, flat. A dotted
	 * path lifts a member of a nested object into its own column (`dates.settled` → `settledDate`,
	 * see `liftedSuffix`). Types without one are flat already and always give every field.
	 */
	summary?: readonly string[];
}

/**
 * The service's `SystemStatus` values (api-facts.md §4, deals) in the order a deal moves through the
 * lending pipeline — the one order every status list of the package uses (Conditions dropdowns,
 * the trigger's To/From Status, messages, tool descriptions). The service's own enum order
 * (api-facts lists Lodged and InProgress after the approvals and Settled last) is not a pipeline.
 * Why this order: first the pre-submission statuses, the only ones in which loan structures can
 * still be written (api-facts §4: NewLeads, Researching, InProgress); then PreApproved (a
 * pre-approval comes before the full application: it has its own date, no lodged date); then the
 * submitted stages in the order their dates are set (`dates`: lodged, conditionallyApproved,
 * approved, estimatedSettled → settled): Lodged, ConditionallyApproved, UnconditionallyApproved,
 * PendingSettlement, Settled; then after settlement Varied and Repaid; last the two ways a deal
 * stops without settling, Withdrawn and Cancelled. Option values are names, so the order changes
 * nothing in saved workflows. The sandbox lists its SYSTEM_STATUS in the same order (a test checks).
 */
export const DEAL_STATUSES = [
	'NewLeads',
	'Researching',
	'InProgress',
	'PreApproved',
	'Lodged',
	'ConditionallyApproved',
	'UnconditionallyApproved',
	'PendingSettlement',
	'Settled',
	'Varied',
	'Repaid',
	'Withdrawn',
	'Cancelled',
] as const;
const DEAL_TYPES = ['Residential', 'Commercial', 'SmallBusiness', 'AssetFinance', 'PersonalLoan', 'DepositBond'] as const;
const LOAN_STRUCTURE_TYPES = ['PrincipalInterest', 'InterestOnly', 'RevolvingCredit', 'Offset'] as const;
/** Rates are sent and returned as fractions: an agent (or a person) would otherwise write 5.5. */
const INTEREST_RATE_NOTE = 'a decimal fraction: 0.055 means 5.5%';
/** Shortest period first (the service's `Frequency`: deal structures, and a fact find's incomes, expenses and repayments). */
export const FREQUENCIES = ['Weekly', 'Fortnightly', 'HalfMonthly', 'Monthly', 'Quarterly', 'HalfYearly', 'Yearly'] as const;
/** The public API description's enums of a person and an address (swagger `Title`, `Gender`, `MaritalStatus`, `ClientAddressType`): a lead's and a fact find's. */
export const TITLES = ['Mr', 'Mrs', 'Ms', 'Miss', 'Master', 'Dr'] as const;
export const GENDERS = ['Male', 'Female', 'Undisclosed'] as const;
export const MARITAL_STATUSES = ['Single', 'Married', 'DeFacto', 'Separated', 'Divorced', 'Widowed'] as const;
export const ADDRESS_TYPES = ['Current', 'Postal', 'PostSettlement', 'Previous', 'Other'] as const;

/** The read-only address lines shared by organisation and asset addresses. */
const ADDRESS_ATTRIBUTES: Record<string, AttributeSpec> = {
	formattedAddress: { kind: 'string', description: 'The whole address on one line' },
	streetAddress: { kind: 'string', description: 'Street and number' },
	suburb: { kind: 'string', description: 'Suburb' },
	postCode: { kind: 'string', description: 'Post code' },
	state: { kind: 'string', description: 'State' },
	country: { kind: 'string', description: 'Country' },
};

/**
 * What POST /leads takes (the service's public API description, swagger `LeadAttributes`, not the
 * seed): all write-only, the person, the address, the note and where the lead came from. Lengths
 * only where the description states them. Where it came from: `sourceId` + `sourceCategoryId`
 * (int32) are an enquiry source's numbers from `GET /jsonapi/enquiry-sources`
 * (`EnquirySourceAttributes`), `sourceReferrerId` (text) a referrer's id from `GET /jsonapi/referrers`;
 * each picked from its list (Enquiry Source, Referrer), the category sent with its source.
 */
const LEAD_WRITE_ATTRIBUTES: Record<string, AttributeSpec> = {
	firstName: { kind: 'string', writable: true, writeOnly: true, description: 'First name of the person' },
	lastName: { kind: 'string', writable: true, writeOnly: true, description: 'Last name of the person' },
	email: { kind: 'string', writable: true, writeOnly: true, description: 'E-mail address of the person; used to find the person among existing contacts' },
	mobile: { kind: 'string', writable: true, writeOnly: true, description: 'Mobile number of the person, e.g. +61412345678' },
	contactMatchExisting: {
		kind: 'enum',
		values: ['Email', 'EmailMobile', 'EmailName', 'EmailMobileName', 'EmailDateOfBirth', 'EmailDateOfBirthName'],
		ordered: true,
		writable: true, writeOnly: true,
		label: 'Match Existing Contact By',
		default: 'Email',
		valueDescriptions: {
			Email: 'A contact with the same e-mail is the lead\'s person (the service\'s default)',
			EmailMobile: 'The same e-mail and mobile',
			EmailName: 'The same e-mail, first and last name',
			EmailMobileName: 'The same e-mail, mobile, first and last name',
			EmailDateOfBirth: 'The same e-mail and date of birth',
			EmailDateOfBirthName: 'The same e-mail, date of birth, first and last name',
		},
		valueNames: {
			Email: 'E-mail',
			EmailMobile: 'E-mail and mobile',
			EmailName: 'E-mail and name',
			EmailMobileName: 'E-mail, mobile and name',
			EmailDateOfBirth: 'E-mail and date of birth',
			EmailDateOfBirthName: 'E-mail, date of birth and name',
		},
		// Before 1.2 the dropdown named each value by its API name in words ("Email Date Of Birth Name").
		before: { v1_2: { valueNames: undefined } },
		description: 'Which existing contact Loan CRM takes as the lead\'s person instead of creating a new contact; without a match (or without an e-mail) it creates one',
	},
	title: { kind: 'enum', values: TITLES, writable: true, writeOnly: true, description: 'Title of the person' },
	preferredName: { kind: 'string', writable: true, writeOnly: true, description: 'Name the person likes to be called' },
	dateOfBirth: { kind: 'date', writable: true, writeOnly: true, description: 'Date of birth of the person' },
	gender: { kind: 'enum', values: GENDERS, writable: true, writeOnly: true, description: 'Gender of the person' },
	maritalStatus: { kind: 'enum', values: MARITAL_STATUSES, writable: true, writeOnly: true, description: 'Marital status of the person' },
	hasMarketingConsent: { kind: 'boolean', writable: true, writeOnly: true, description: 'Whether the person agreed to receive marketing' },
	isPrimary: { kind: 'boolean', writable: true, writeOnly: true, description: 'Whether the person is the primary contact of the client' },
	isGuarantor: { kind: 'boolean', writable: true, writeOnly: true, description: 'Whether the person is a guarantor' },
	isDependant: { kind: 'boolean', writable: true, writeOnly: true, description: 'Whether the person is a dependant' },
	streetAddress: { kind: 'string', writable: true, writeOnly: true, description: 'Street and number of the address' },
	suburb: { kind: 'string', writable: true, writeOnly: true, description: 'Suburb of the address' },
	state: { kind: 'string', writable: true, writeOnly: true, description: 'State of the address' },
	postCode: { kind: 'string', writable: true, writeOnly: true, description: 'Post code of the address' },
	country: { kind: 'string', writable: true, writeOnly: true, description: 'Country of the address' },
	addressType: { kind: 'enum', values: ADDRESS_TYPES, ordered: true, writable: true, writeOnly: true, description: 'What the address is to the person' },
	formattedAddress: { kind: 'string', writable: true, writeOnly: true, maxLength: 500, description: 'The whole address on one line (max 500 characters)' },
	dealName: { kind: 'string', writable: true, writeOnly: true, description: 'Name of the deal the lead becomes' },
	noteTitle: { kind: 'string', writable: true, writeOnly: true, description: 'Title of a note written on the new deal, e.g. the form\'s subject' },
	noteDetails: { kind: 'string', writable: true, writeOnly: true, long: true, description: 'Text of that note, e.g. the message from the form' },
	utmSource: { kind: 'string', writable: true, writeOnly: true, description: 'UTM source of the visit the lead came from, e.g. facebook' },
	utmMedium: { kind: 'string', writable: true, writeOnly: true, description: 'UTM medium, e.g. social' },
	utmCampaign: { kind: 'string', writable: true, writeOnly: true, description: 'UTM campaign' },
	utmTerm: { kind: 'string', writable: true, writeOnly: true, description: 'UTM term' },
	utmContent: { kind: 'string', writable: true, writeOnly: true, description: 'UTM content' },
	sourceSystemUrl: { kind: 'string', writable: true, writeOnly: true, description: 'Address of the page the lead came from' },
	sourceId: {
		kind: 'integer',
		writable: true,
		writeOnly: true,
		picked: 'enquiry-source',
		label: 'Enquiry Source',
		description: "Where the lead came from: one of the organisation's enquiry sources (its category is sent with it)",
	},
	sourceCategoryId: { kind: 'integer', writable: true, writeOnly: true, sentWith: 'sourceId', description: "Category of the lead's enquiry source" },
	sourceReferrerId: {
		kind: 'string',
		writable: true,
		writeOnly: true,
		picked: 'referrers',
		label: 'Referrer',
		description: "Who referred the lead: one of the organisation's referrers (a person, often of a real estate agency or an accountancy)",
	},
	sourceAdditionalDetails: { kind: 'string', writable: true, writeOnly: true, maxLength: 255, description: 'More about where the lead came from (max 255 characters)' },
	externalReference: { kind: 'string', writable: true, writeOnly: true, maxLength: 255, description: "The lead's ID in the system it came from, e.g. the form submission's ID (max 255 characters); stored on the deal with the integration" },
	externalIntegration: { kind: 'string', writable: true, writeOnly: true, maxLength: 100, description: 'Name of that system as an integration in Loan CRM, e.g. Website Form (max 100 characters)' },
	externalIntegrationAllowCreate: {
		kind: 'boolean',
		writable: true,
		writeOnly: true,
		label: 'Create Integration If Missing',
		description: 'Whether Loan CRM creates the integration named in External Integration when it has none of that name (else Loan CRM refuses the lead)',
		// Before 1.2 the label was the API name in words.
		before: { v1_2: { label: undefined, description: 'Whether Loan CRM creates the integration when none has that name (else the lead is refused)' } },
	},
	sendNotification: { kind: 'boolean', writable: true, writeOnly: true, description: 'Whether Loan CRM sends its notification of the new lead (the public API description does not say to whom)' },
};

/**
 * What a fact find (POST /structured-leads, swagger `StructuredLeadAttributes`, not the seed) takes
 * besides its lists of people, addresses, employments, incomes, assets, liabilities and expenses
 * (those are in factFind.ts): the lead's own parts, the same attributes as a lead's. The description
 * has no `contactMatchExisting` for a fact find.
 */
const FACT_FIND_LEAD_PARTS = [
	'dealName',
	'noteTitle',
	'noteDetails',
	'utmSource',
	'utmMedium',
	'utmCampaign',
	'utmTerm',
	'utmContent',
	'sourceSystemUrl',
	'sourceId',
	'sourceCategoryId',
	'sourceReferrerId',
	'sourceAdditionalDetails',
	'externalReference',
	'externalIntegration',
	'externalIntegrationAllowCreate',
	'sendNotification',
] as const;

const created: AttributeSpec = { kind: 'dateTime', description: 'When the record was created (UTC)' };
const updated: AttributeSpec = { kind: 'dateTime', description: 'When the record was last changed (UTC)' };

export const RESOURCE_TYPES = {
	deals: {
		label: 'deal',
		attributes: {
			created,
			updated,
			name: { kind: 'string', description: 'Name of the deal' },
			dealStatus: { kind: 'enum', values: DEAL_STATUSES, ordered: true, example: 'Settled', description: 'Pipeline status of the deal' },
			dealType: { kind: 'enum', values: DEAL_TYPES, description: 'Kind of finance the deal is for' },
			totalLoanAmount: { kind: 'number', description: 'Total of all loan splits' },
			lenderName: { kind: 'string', description: 'Name of the lender' },
			customStatusName: { kind: 'string', description: "Name of the organisation's own status for the deal" },
			dates: {
				kind: 'object',
				description: 'Key dates of the deal, each empty until reached',
				liftedSuffix: 'Date',
				members: {
					settled: { kind: 'date', description: 'When the loan settled' },
					lodged: { kind: 'date', description: 'When the application was lodged with the lender' },
					financeClause: { kind: 'date', description: "Deadline of the purchase contract's finance clause" },
					notProceeding: { kind: 'date', description: 'When the deal stopped proceeding' },
					approved: { kind: 'date', description: 'When the lender approved the loan' },
					preApproved: { kind: 'date', description: 'When the lender pre-approved the loan' },
					conditionallyApproved: { kind: 'date', description: 'When the lender approved the loan with conditions' },
					preApprovedExpiry: { kind: 'date', description: 'When the pre-approval expires' },
					estimatedSettled: { kind: 'date', description: 'When settlement is expected' },
				},
			},
			opportunity: {
				kind: 'object',
				description: 'What the client asked for',
				members: {
					proposedLoanAmount: { kind: 'number', description: 'Loan amount the client asked for' },
					securityAmount: { kind: 'number', description: 'Value of the security offered' },
					summaryNotes: { kind: 'string', description: "The adviser's notes on the opportunity" },
					loanPurpose: { kind: 'string', description: 'What the loan is for' },
				},
			},
			splits: {
				kind: 'list',
				description: 'Loan splits with amounts, rates and terms',
				members: {
					loanTermYears: { kind: 'number', description: 'Loan term in years' },
					rateType: { kind: 'string', description: 'Rate type as the lender names it' },
					loanStructureType: { kind: 'enum', values: LOAN_STRUCTURE_TYPES, description: 'Repayment type' },
					amount: { kind: 'number', description: 'Amount of the split' },
					capitaliseLmi: { kind: 'boolean', description: "Whether the lender's mortgage insurance premium is added to the loan" },
					lmiPremium: { kind: 'number', description: "Lender's mortgage insurance premium" },
					amountInclLmi: { kind: 'number', description: 'Amount including the premium' },
					interestRate: { kind: 'number', note: INTEREST_RATE_NOTE, description: 'Interest rate' },
					rateTypePeriodMonths: { kind: 'integer', description: 'Months the rate type applies' },
					paymentAmount: { kind: 'number', description: 'Repayment amount per period' },
					fixedRateStartDate: { kind: 'date', description: 'First day of the fixed rate' },
					fixedRateEndDate: { kind: 'date', description: 'Last day of the fixed rate' },
					interestOnlyStartDate: { kind: 'date', description: 'First day of interest-only repayments' },
					interestOnlyEndDate: { kind: 'date', description: 'Last day of interest-only repayments' },
					repaymentHolidayStartDate: { kind: 'date', description: 'First day of a repayment holiday' },
					repaymentHolidayEndDate: { kind: 'date', description: 'Last day of a repayment holiday' },
				},
			},
		},
		relationships: {
			adviser: { target: 'advisers', description: 'Adviser who owns the deal' },
			contacts: { toMany: true, target: 'contacts', description: 'Contacts on the deal' },
			customStatus: { target: 'custom-statuses', description: 'Custom status of the deal' },
			dealNotes: { toMany: true, target: 'deal-notes', description: 'Notes on the deal' },
			dealScenario: { target: 'deal-scenario', description: 'Scenario of the deal' },
			dealStructures: { toMany: true, target: 'deal-structures', description: 'Loan structures of the deal' },
			externalReferences: { toMany: true, target: 'deal-external-references', description: 'External references' },
			importantDates: { toMany: true, target: 'deal-important-dates', description: 'Important dates' },
			loanSecurities: { toMany: true, target: 'deal-securities', description: 'Securities of the deal' },
			participants: { toMany: true, target: 'deal-participants', description: 'Participants of the deal' },
		},
		// customStatus.name is left out: it is the same value as the customStatusName attribute.
		filterPaths: { 'adviser.id': 'ID of the adviser who owns the deal' },
		leading: ['name', 'dealStatus', 'totalLoanAmount', 'dealType', 'lenderName', 'customStatusName'],
		// What a deal is (name, status, type, purpose), how much (amounts: the loan, the request, the
		// security behind it), with whom (lender) and what comes next: the milestone dates that drive
		// follow-up (lodged, approved, the finance-clause and pre-approval deadlines, expected and actual
		// settlement) and the record's own stamps (the dates a filter or sort can use). Left out: the
		// constant type, the splits (four tenths of a deal's size: rates and terms, asked for by name),
		// the free-text notes and the milestones the status already tells (conditionally approved,
		// pre-approved, not proceeding). About 390 characters per deal for an agent (empty fields left out).
		summary: [
			'name',
			'dealStatus',
			'customStatusName',
			'dealType',
			'lenderName',
			'totalLoanAmount',
			'opportunity.proposedLoanAmount',
			'opportunity.securityAmount',
			'opportunity.loanPurpose',
			'dates.lodged',
			'dates.approved',
			'dates.financeClause',
			'dates.preApprovedExpiry',
			'dates.estimatedSettled',
			'dates.settled',
			'created',
			'updated',
		],
	},
	'deal-structures': {
		label: 'deal structure',
		attributes: {
			amount: { kind: 'number', writable: true, description: 'Loan amount of this structure' },
			accountNumber: { kind: 'string', writable: true, description: "Lender's account number for the loan" },
			capitaliseLmi: { kind: 'boolean', writable: true, description: "Whether the lender's mortgage insurance premium is added to the loan" },
			fixedRateBeginDate: { kind: 'date', writable: true, description: 'First day of the fixed-rate period' },
			fixedRateExpiryDate: { kind: 'date', writable: true, description: 'Last day of the fixed-rate period' },
			interestOnlyTermYears: { kind: 'number', writable: true, description: 'Years of interest-only repayments' },
			interestRate: { kind: 'number', writable: true, note: INTEREST_RATE_NOTE, description: 'Interest rate as a decimal fraction: 0.055 means 5.5%' },
			isLinkRateExpiry: { kind: 'boolean', writable: true, description: 'Whether the rate expiry is linked to the fixed-rate dates' },
			lmiPremium: { kind: 'number', writable: true, description: "Lender's mortgage insurance (LMI) premium amount" },
			loanStructureType: { kind: 'enum', values: LOAN_STRUCTURE_TYPES, writable: true, description: 'Repayment type of the loan' },
			loanTermYears: { kind: 'number', writable: true, description: 'Total loan term in years' },
			paymentAmount: { kind: 'number', writable: true, description: 'Repayment amount per period' },
			rateTermYears: { kind: 'integer', writable: true, description: 'Years the current rate applies (e.g. the fixed term)' },
			rateType: { kind: 'string', writable: true, description: 'Rate type as the lender names it, e.g. Fixed or Variable' },
			repaymentFrequency: { kind: 'enum', values: FREQUENCIES, ordered: true, writable: true, description: 'How often repayments are made' },
		},
		leading: ['amount', 'loanStructureType', 'interestRate', 'loanTermYears', 'repaymentFrequency'],
		relationships: {
			deal: { target: 'deals', description: 'Deal the structure belongs to' },
		},
	},
	'deal-securities': {
		label: 'deal security',
		attributes: {
			contactForAccess: { kind: 'enum', values: ['Other', 'LoanParty'], description: 'Who gives access to the property' },
			isPreApproval: { kind: 'boolean', description: 'Whether the security is for a pre-approval' },
			licensedRealEstateAgentContract: { kind: 'boolean', description: 'Whether the contract is through a licensed agent' },
			isElectronicTransfer: { kind: 'boolean', description: 'Whether the title transfers electronically' },
			isAnnualPropertyTax: { kind: 'boolean', description: 'Whether property tax is paid annually' },
			contractPrice: { kind: 'number', description: 'Contract price of the property' },
			landValue: { kind: 'number', description: 'Value of the land' },
			currentValue: { kind: 'number', description: 'Current value of the property' },
			futureValue: { kind: 'number', description: 'Expected value after building' },
			buildAmount: { kind: 'number', description: 'Cost of building' },
			contractDate: { kind: 'date', description: 'Date of the purchase contract' },
			propertyState: { kind: 'string', description: 'State of the property' },
			propertySuburb: { kind: 'string', description: 'Suburb of the property' },
			propertyType: { kind: 'string', description: 'Type of property' },
			propertyZoning: { kind: 'string', description: 'Zoning of the property' },
			propertyHolding: { kind: 'string', description: 'How the property is held' },
			propertyPrimaryPurpose: { kind: 'string', description: 'Primary purpose of the property' },
			propertyStatus: { kind: 'string', description: 'Status of the property' },
			propertyTransaction: { kind: 'string', description: 'Kind of transaction' },
			securityType: { kind: 'string', description: 'Type of security' },
			titleType: { kind: 'string', description: 'Type of title' },
			title: { kind: 'string', description: 'Title of the property' },
			valuationBasis: { kind: 'string', description: 'Basis of the valuation' },
			constructionType: { kind: 'string', description: 'Type of construction' },
			constructionCategory: { kind: 'string', description: 'Category of construction' },
			accessContactTitle: { kind: 'string', description: 'Title of the access contact' },
			accessContactFirstName: { kind: 'string', description: 'First name of the access contact' },
			accessContactLastName: { kind: 'string', description: 'Last name of the access contact' },
			accessPhoneAreaCode: { kind: 'string', description: 'Area code of the access phone number' },
			accessPhoneNumber: { kind: 'string', description: 'Access phone number' },
			accessMobileAreaCode: { kind: 'string', description: 'Area code of the access mobile number' },
			accessMobileNumber: { kind: 'string', description: 'Access mobile number' },
			accessFaxAreaCode: { kind: 'string', description: 'Area code of the access fax number' },
			accessFaxNumber: { kind: 'string', description: 'Access fax number' },
		},
		relationships: {
			asset: { target: 'assets', description: 'Asset the security is' },
			ownership: { toMany: true, target: 'deal-security-ownership', description: 'Owners of the security' },
			titleIdentifications: { toMany: true, target: 'deal-security-title-identity', description: 'Title identifications' },
		},
	},
	'deal-external-references': {
		label: 'deal external reference',
		attributes: {
			externalReference: { kind: 'string', writable: true, description: "The deal's ID or key in the other system (max 255 characters)" },
		},
		relationships: {
			deal: { target: 'deals', writable: true, description: 'Deal the reference belongs to' },
			integration: { target: 'integrations', writable: true, description: 'Integration (other system) the reference comes from' },
		},
		filterPaths: { 'integration.name': 'Name of the integration', 'deal.id': 'ID of the deal' },
		leading: ['externalReference'],
	},
	'deal-notes': {
		label: 'deal note',
		attributes: {
			title: { kind: 'string', writable: true, maxLength: 2000, description: 'Heading of the note (max 2000 characters)' },
			detail: { kind: 'string', writable: true, long: true, description: 'Text of the note' },
			writtenBy: { kind: 'string', description: 'Who wrote the note' },
		},
		leading: ['title', 'writtenBy'],
		relationships: {
			// Set when the note is created (POST /deal-notes, public API description); never moved.
			deal: { target: 'deals', writable: true, description: 'Deal the note belongs to' },
		},
	},
	'custom-statuses': {
		label: 'custom status',
		attributes: {
			name: { kind: 'string', description: 'Name of the status' },
			sortOrder: { kind: 'integer', description: 'Position of the status in the pipeline' },
		},
		relationships: {},
	},
	incomes: {
		label: 'income',
		attributes: {
			created,
			updated,
			description: { kind: 'string', description: 'Description of the income' },
			value: { kind: 'number', description: 'Amount of the income' },
			frequency: { kind: 'string', description: 'How often the income is received' },
			incomeType: { kind: 'string', description: 'Type of income' },
			incomeTypeId: { kind: 'integer', description: 'ID of the income type' },
			incomeCategory: { kind: 'string', description: 'Category of income' },
			incomeCategoryId: { kind: 'integer', description: 'ID of the income category' },
			incomeVerification: { kind: 'string', description: 'How the income is verified' },
		},
		leading: ['description', 'value', 'frequency', 'incomeType', 'incomeCategory'],
		relationships: {
			employment: { target: 'employments', description: 'Employment the income comes from' },
			linkedAsset: { target: 'assets', description: 'Asset the income comes from' },
			ownership: { toMany: true, target: 'owners', description: 'Owners of the income' },
		},
	},
	contacts: {
		label: 'contact',
		attributes: {
			created,
			updated,
			title: { kind: 'string', writable: true, description: 'Title as free text, e.g. Mr, Ms or Dr' },
			firstName: { kind: 'string', writable: true, description: 'First name' },
			middleName: { kind: 'string', writable: true, description: 'Middle name' },
			lastName: { kind: 'string', writable: true, description: 'Last name' },
			preferredName: { kind: 'string', writable: true, description: 'Name the contact likes to be called' },
			email: { kind: 'string', writable: true, description: 'Main e-mail address' },
			secondaryEmail: { kind: 'string', writable: true, description: 'Second e-mail address' },
			mobile: { kind: 'string', writable: true, description: 'Mobile number in international format, e.g. +61412345678' },
			homePhone: { kind: 'string', writable: true, description: 'Home phone number in international format' },
			businessPhone: { kind: 'string', writable: true, description: 'Business phone number in international format' },
			maritalStatus: {
				kind: 'enum',
				values: MARITAL_STATUSES,
				writable: true,
				description: 'Marital status',
			},
			gender: { kind: 'enum', values: GENDERS, writable: true, description: 'Gender' },
			hasMarketingConsent: { kind: 'boolean', writable: true, description: 'Whether the contact agreed to receive marketing' },
			dateOfBirth: { kind: 'date', writable: true, description: 'Date of birth' },
			isPrimary: { kind: 'boolean', writable: true, description: 'Whether this is the primary contact of the contact group' },
			role: { kind: 'enum', values: ['Adult', 'Child', 'Other'], writable: true, description: 'Role in the contact group' },
		},
		relationships: {
			contactGroup: { target: 'contact-groups', writable: true, description: 'Contact group (household or client file) the contact belongs to' },
			contactAddress: { toMany: true, target: 'contact-address', description: 'Addresses of the contact' },
			deals: { toMany: true, target: 'deal-participants', description: 'Deals the contact takes part in' },
			externalReferences: { toMany: true, target: 'contact-external-references', description: 'External references' },
			ownership: { toMany: true, target: 'owners', description: 'Ownership of assets, liabilities, incomes and expenses' },
		},
		filterPaths: { 'contactGroup.id': 'ID of the contact group' },
		leading: ['firstName', 'lastName', 'preferredName', 'email', 'mobile'],
	},
	'contact-external-references': {
		label: 'contact external reference',
		attributes: {
			externalReference: { kind: 'string', writable: true, description: "The contact's ID or key in the other system (max 255 characters)" },
		},
		relationships: {
			contact: { target: 'contacts', description: 'Contact the reference belongs to' },
			integration: { target: 'integrations', description: 'Integration the reference comes from' },
		},
	},
	'contact-categories': {
		label: 'contact category',
		attributes: {
			name: { kind: 'string', writable: true, description: 'Name of the category (max 100 characters)' },
			orderBy: { kind: 'integer', description: 'Position of the category in lists' },
		},
		relationships: {},
	},
	'organisation-addresses': {
		label: 'organisation address',
		attributes: {
			isMailing: { kind: 'boolean', description: 'Whether this is the mailing address' },
			isCustomAddress: { kind: 'boolean', description: 'Whether the address was entered by hand' },
			...ADDRESS_ATTRIBUTES,
		},
		relationships: {},
	},
	'financial-address': {
		label: 'asset address',
		attributes: {
			...ADDRESS_ATTRIBUTES,
		},
		relationships: {},
	},
	leads: {
		label: 'lead',
		attributes: {
			customStatusName: { kind: 'string', description: "Name of the organisation's own status for the lead" },
			dealStatus: { kind: 'enum', values: DEAL_STATUSES, ordered: true, description: 'Pipeline status of the lead' },
			...LEAD_WRITE_ATTRIBUTES,
		},
		relationships: {},
	},
	// A fact find (structured lead): its ID is the ID of the deal it became, as a lead's.
	'structured-leads': {
		label: 'fact find',
		attributes: {
			customStatusName: { kind: 'string', description: "Name of the organisation's own status for the lead" },
			dealStatus: { kind: 'enum', values: DEAL_STATUSES, ordered: true, description: 'Pipeline status of the lead' },
			...Object.fromEntries(FACT_FIND_LEAD_PARTS.map((name) => [name, LEAD_WRITE_ATTRIBUTES[name]])),
		},
		relationships: {},
	},
	tasks: {
		label: 'task',
		attributes: {
			title: { kind: 'string', writable: true, description: 'Short title of the task (max 500 characters)' },
			detail: { kind: 'string', writable: true, long: true, description: 'Details of the task; simple HTML is allowed' },
			progress: {
				kind: 'enum',
				values: ['NotStarted', 'InProgress', 'OnHold', 'Completed', 'NotRequired'],
				ordered: true,
				writable: true,
				description: 'How far the task has got',
			},
			// Most urgent first.
			priority: { kind: 'enum', values: ['Critical', 'High', 'Medium', 'Normal'], ordered: true, writable: true, description: 'How urgent the task is' },
			dueDate: { kind: 'dateTime', writable: true, description: 'When the task is due' },
		},
		relationships: {
			assignee: { target: 'advisers', writable: true, description: 'Adviser the task is assigned to (an adviser ID, not the User ID)' },
			residentialDeal: { target: 'deals', writable: true, description: 'Residential deal the task is about' },
			contactGroups: { toMany: true, target: 'contact-groups', writable: true, description: 'Contact groups the task is about' },
			// The target type of the two diversified-deal relationships is not documented; both are deals.
			assetFinanceDiversifiedDeal: { target: 'deals', writable: true, description: 'Asset finance deal the task is about' },
			commercialFinanceDiversifiedDeal: { target: 'deals', writable: true, description: 'Commercial finance deal the task is about' },
		},
		leading: ['title', 'progress', 'priority', 'dueDate'],
	},
} satisfies Record<string, ResourceTypeSpec>;

export type ResourceTypeName = keyof typeof RESOURCE_TYPES;

/** Singular names of the types the package only refers to by ID (no table above), for messages. */
const REFERENCED_TYPE_LABELS: Readonly<Record<string, string>> = {
	advisers: 'adviser',
	'adviser-details': 'adviser',
	'enquiry-source': 'enquiry source',
	referrers: 'referrer',
	assets: 'asset',
	'contact-groups': 'contact group',
	'custom-statuses': 'custom status',
	integrations: 'integration',
	organisations: 'organisation',
};

/** "deal note" for `deal-notes`: a resource type named as messages name it. */
export function typeLabel(type: string): string {
	const table = (RESOURCE_TYPES as Record<string, ResourceTypeSpec | undefined>)[type];
	return table?.label ?? REFERENCED_TYPE_LABELS[type] ?? type.replace(/-/g, ' ').replace(/s$/, '');
}

/** Each type's leading attributes, for the flattener. */
export const LEADING_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
	Object.entries(RESOURCE_TYPES as Record<string, ResourceTypeSpec>)
		.filter(([, type]) => type.leading !== undefined)
		.map(([name, type]) => [name, type.leading ?? []]),
);

export function resourceType(name: ResourceTypeName): ResourceTypeSpec {
	return RESOURCE_TYPES[name];
}
