/**
 * The resource model of the emulated service, written from the contract (seed section 2 and 4)
 * and `api-facts.md` only. Nothing here is shared with the node code on purpose.
 */

// ---------------------------------------------------------------------------------------------
// Enumerations (api-facts.md)
// ---------------------------------------------------------------------------------------------

/**
 * The deal statuses (api-facts.md §4), listed in lending-pipeline order: pre-submission (NewLeads,
 * Researching, InProgress), PreApproved, the submitted stages in the order their dates are set
 * (Lodged, ConditionallyApproved, UnconditionallyApproved, PendingSettlement, Settled), after
 * settlement (Varied, Repaid), not proceeding (Withdrawn, Cancelled). api-facts lists the service's
 * enum in another order; the order is presentation only here (filters and sorts compare the names),
 * and the lively mode moves deals along it.
 */
export const SYSTEM_STATUS = [
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
export type SystemStatus = (typeof SYSTEM_STATUS)[number];

/** Statuses in which a deal counts as pre-submission (deal structures are writable only then). */
export const PRE_SUBMISSION_STATUSES: readonly SystemStatus[] = ['NewLeads', 'Researching', 'InProgress'];

export const DEAL_TYPE = ['Residential', 'Commercial', 'SmallBusiness', 'AssetFinance', 'PersonalLoan', 'DepositBond'] as const;
export type DealType = (typeof DEAL_TYPE)[number];
export const TASK_PROGRESS = ['Completed', 'InProgress', 'NotRequired', 'NotStarted', 'OnHold'] as const;
export type TaskProgress = (typeof TASK_PROGRESS)[number];
export const TASK_PRIORITY = ['Critical', 'High', 'Medium', 'Normal'] as const;
export type TaskPriority = (typeof TASK_PRIORITY)[number];
export const LOAN_STRUCTURE_TYPE = ['PrincipalInterest', 'InterestOnly', 'RevolvingCredit', 'Offset'] as const;
export type LoanStructureType = (typeof LOAN_STRUCTURE_TYPE)[number];
export const FREQUENCY_TYPE = ['Yearly', 'HalfYearly', 'Quarterly', 'Monthly', 'Fortnightly', 'Weekly', 'HalfMonthly'] as const;
export type FrequencyType = (typeof FREQUENCY_TYPE)[number];
export const MARITAL_STATUS = ['Single', 'Married', 'DeFacto', 'Separated', 'Divorced', 'Widowed'] as const;
export type MaritalStatus = (typeof MARITAL_STATUS)[number];
export const GENDER = ['Male', 'Female', 'Undisclosed'] as const;
export type Gender = (typeof GENDER)[number];
export const CONTACT_ROLE = ['Adult', 'Child', 'Other'] as const;
export type ContactRole = (typeof CONTACT_ROLE)[number];
export const CONTACT_ACCESS_TYPE = ['Other', 'LoanParty'] as const;
/** Lead enums, from the service's public API description (swagger `Title`, `ClientAddressType`, `ExistingContactCheck`). */
export const TITLE = ['Mr', 'Mrs', 'Ms', 'Miss', 'Master', 'Dr'] as const;
export const CLIENT_ADDRESS_TYPE = ['Current', 'Postal', 'PostSettlement', 'Previous', 'Other'] as const;
export const EXISTING_CONTACT_CHECK = ['Email', 'EmailMobile', 'EmailName', 'EmailMobileName', 'EmailDateOfBirth', 'EmailDateOfBirthName'] as const;
export type ExistingContactCheck = (typeof EXISTING_CONTACT_CHECK)[number];
export type ContactAccessType = (typeof CONTACT_ACCESS_TYPE)[number];

// ---------------------------------------------------------------------------------------------
// Resource definitions
// ---------------------------------------------------------------------------------------------

export type AttrKind = 'string' | 'number' | 'integer' | 'boolean' | 'date' | 'timestamp' | 'enum' | 'object' | 'array';

export interface AttrDef {
	kind: AttrKind;
	/** Allowed values of an enum attribute. */
	values?: readonly string[];
	/** .NET type name used in conversion error messages. */
	clrType?: string;
	/** Maximum length (UTF-16 code units; for `html` the UTF-8 byte length). */
	max?: number;
	/** Whether `null` may be written (default true). */
	nullable?: boolean;
	/** May be set in a POST body. */
	create?: boolean;
	/** May be set in a PATCH body. */
	update?: boolean;
	/** Write-only: never returned, not usable in filter or sort. */
	hidden?: boolean;
	/** Extra format validation of written values. */
	format?: 'email' | 'phone' | 'html' | 'offset';
	/** Required in a POST body. */
	required?: boolean;
}

export interface RelDef {
	target: string;
	toMany: boolean;
	create?: boolean;
	update?: boolean;
	/** Required on create. */
	required?: boolean;
	/** A to-many relationship computed from the to-one relationship `rel` of `type` pointing back here. */
	inverse?: { type: string; rel: string };
}

export interface TypeDef {
	name: string;
	attrs: Record<string, AttrDef>;
	rels: Record<string, RelDef>;
	/** `include` is rejected with 400 for this type (tasks, per docs/tasks.md). */
	noInclude?: boolean;
}

const str = (extra: Partial<AttrDef> = {}): AttrDef => ({ kind: 'string', ...extra });
const num = (extra: Partial<AttrDef> = {}): AttrDef => ({ kind: 'number', clrType: 'Decimal', ...extra });
const int = (extra: Partial<AttrDef> = {}): AttrDef => ({ kind: 'integer', clrType: 'Int32', ...extra });
const bool = (extra: Partial<AttrDef> = {}): AttrDef => ({ kind: 'boolean', clrType: 'Boolean', ...extra });
const date = (extra: Partial<AttrDef> = {}): AttrDef => ({ kind: 'date', clrType: 'DateOnly', ...extra });
const ts = (extra: Partial<AttrDef> = {}): AttrDef => ({ kind: 'timestamp', clrType: 'DateTimeOffset', ...extra });
const en = (values: readonly string[], clrType: string, extra: Partial<AttrDef> = {}): AttrDef => ({
	kind: 'enum',
	values,
	clrType,
	...extra,
});
const obj = (extra: Partial<AttrDef> = {}): AttrDef => ({ kind: 'object', ...extra });
const one = (target: string, extra: Partial<RelDef> = {}): RelDef => ({ target, toMany: false, ...extra });
const many = (target: string, extra: Partial<RelDef> = {}): RelDef => ({ target, toMany: true, ...extra });

/** Contact attributes (seed 2.3): everything but created/updated can be set on create. */
const contactAttrs: Record<string, AttrDef> = {
	mobile: str({ max: 100, create: true, update: true, format: 'phone' }),
	homePhone: str({ max: 100, create: true, update: true, format: 'phone' }),
	businessPhone: str({ max: 100, create: true, update: true, format: 'phone' }),
	title: str({ max: 100, create: true, update: true }),
	firstName: str({ max: 100, create: true, update: true }),
	middleName: str({ max: 100, create: true, update: true }),
	lastName: str({ max: 100, create: true, update: true }),
	preferredName: str({ max: 200, create: true, update: true }),
	email: str({ max: 100, create: true, update: true, format: 'email' }),
	secondaryEmail: str({ max: 100, create: true, update: true, format: 'email' }),
	maritalStatus: en(MARITAL_STATUS, 'MaritalStatus', { create: true, update: true }),
	gender: en(GENDER, 'GenderCode', { create: true, update: true }),
	hasMarketingConsent: bool({ create: true, update: true }),
	dateOfBirth: date({ create: true, update: true }),
	isPrimary: bool({ create: true, update: true }),
	role: en(CONTACT_ROLE, 'ContactRole', { create: true, update: true }),
	created: ts(),
	updated: ts(),
};

/** The write-only attributes of a lead (swagger `LeadAttributes`). */
function leadAttrs(): Record<string, AttrDef> {
	const w = { create: true, hidden: true } as const;
	return {
		title: en(TITLE, 'Title', { ...w, nullable: false }),
		firstName: str(w),
		preferredName: str(w),
		lastName: str(w),
		email: str(w),
		mobile: str(w),
		dateOfBirth: date(w),
		contactMatchExisting: en(EXISTING_CONTACT_CHECK, 'ExistingContactCheck', { ...w, nullable: false }),
		gender: en(GENDER, 'Gender', { ...w, nullable: false }),
		maritalStatus: en(MARITAL_STATUS, 'MaritalStatus', { ...w, nullable: false }),
		hasMarketingConsent: bool(w),
		isGuarantor: bool(w),
		isDependant: bool(w),
		isPrimary: bool(w),
		streetAddress: str(w),
		suburb: str(w),
		state: str(w),
		postCode: str(w),
		country: str(w),
		addressType: en(CLIENT_ADDRESS_TYPE, 'ClientAddressType', { ...w, nullable: false }),
		formattedAddress: str({ ...w, max: 500 }),
		dealName: str(w),
		noteTitle: str(w),
		noteDetails: str(w),
		utmSource: str(w),
		utmMedium: str(w),
		utmCampaign: str(w),
		utmTerm: str(w),
		utmContent: str(w),
		sourceSystemUrl: str(w),
		sourceId: int(w),
		sourceCategoryId: int(w),
		sourceReferrerId: str(w),
		sourceAdditionalDetails: str({ ...w, max: 255 }),
		externalReference: str({ ...w, max: 255 }),
		externalIntegration: str({ ...w, max: 100 }),
		externalIntegrationAllowCreate: bool({ ...w, nullable: false }),
		sendNotification: bool({ ...w, nullable: false }),
	};
}

/**
 * What POST /structured-leads takes (swagger `StructuredLeadAttributes`): the lead's own parts (as a
 * lead takes them; no contactMatchExisting) and the seven lists, each an array whose entries
 * sandbox/structuredLeads.ts checks member by member (`LeadContact`, `LeadIncome`, …).
 */
function structuredLeadAttrs(): Record<string, AttrDef> {
	const w = { create: true, hidden: true } as const;
	const lead = leadAttrs();
	const parts = [
		'dealName', 'noteTitle', 'noteDetails', 'utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent', 'sourceSystemUrl', 'sourceId', 'sourceCategoryId',
		'sourceReferrerId', 'sourceAdditionalDetails', 'externalReference', 'externalIntegration', 'externalIntegrationAllowCreate', 'sendNotification',
	];
	const lists = ['contacts', 'addresses', 'assets', 'expenses', 'incomes', 'liabilities', 'employments'];
	return {
		...Object.fromEntries(parts.map((name) => [name, lead[name]])),
		...Object.fromEntries(lists.map((name) => [name, { kind: 'array', ...w } as AttrDef])),
	};
}

/** A type list of the public description (`IncomeTypeAttributes`, …): a name (or a category's description). */
const named = (max = 200): Record<string, AttrDef> => ({ name: str({ max }) });
const described = (): Record<string, AttrDef> => ({ description: str({ max: 200 }) });

export const TYPES: Record<string, TypeDef> = {
	deals: {
		name: 'deals',
		attrs: {
			created: ts(),
			updated: ts(),
			dates: obj(),
			totalLoanAmount: num(),
			name: str({ max: 200, update: true }),
			dealStatus: en(SYSTEM_STATUS, 'SystemStatus'),
			opportunity: obj(),
			splits: { kind: 'array' },
			lenderName: str(),
			customStatusName: str(),
			dealType: en(DEAL_TYPE, 'DealType', { update: true }),
			auRationale: obj({ hidden: true, update: true }),
			nzRationale: obj({ hidden: true, update: true }),
		},
		rels: {
			dealScenario: one('deal-scenario'),
			importantDates: many('deal-important-dates'),
			participants: many('deal-participants'),
			externalReferences: many('deal-external-references', { inverse: { type: 'deal-external-references', rel: 'deal' } }),
			dealStructures: many('deal-structures', { inverse: { type: 'deal-structures', rel: 'deal' } }),
			contacts: many('contacts'),
			adviser: one('advisers'),
			dealNotes: many('deal-notes', { inverse: { type: 'deal-notes', rel: 'deal' } }),
			loanSecurities: many('deal-securities', { inverse: { type: 'deal-securities', rel: 'deal' } }),
			customStatus: one('custom-statuses'),
		},
	},
	leads: {
		name: 'leads',
		attrs: {
			customStatusName: str(),
			dealStatus: en(SYSTEM_STATUS, 'SystemStatus'),
			// POST /leads, from the service's public API description (swagger `LeadAttributes`, not the
			// seed): every attribute below is write-only. Lengths only where the swagger states them;
			// enums without `nullable` there are not nullable.
			...leadAttrs(),
		},
		rels: {},
	},
	// POST /structured-leads, from the public API description (swagger `StructuredLead_Post`): a fact
	// find; like a lead its id is the deal's, and only its statuses are readable.
	'structured-leads': {
		name: 'structured-leads',
		attrs: {
			customStatusName: str(),
			dealStatus: en(SYSTEM_STATUS, 'SystemStatus'),
			...structuredLeadAttrs(),
		},
		rels: {},
	},
	'deal-structures': {
		name: 'deal-structures',
		attrs: {
			rateTermYears: int({ update: true }),
			loanStructureType: en(LOAN_STRUCTURE_TYPE, 'LoanStructureType', { update: true }),
			interestRate: num({ update: true }),
			amount: num({ update: true }),
			rateType: str({ max: 50, update: true }),
			paymentAmount: num({ update: true }),
			accountNumber: str({ max: 500, update: true }),
			capitaliseLmi: bool({ update: true }),
			isLinkRateExpiry: bool({ update: true }),
			repaymentFrequency: en(FREQUENCY_TYPE, 'FrequencyType', { update: true }),
			lmiPremium: num({ update: true }),
			fixedRateExpiryDate: date({ update: true }),
			fixedRateBeginDate: date({ update: true }),
			loanTermYears: num({ update: true }),
			interestOnlyTermYears: num({ update: true }),
			rateTypePeriodMonths: int(),
			interestOnlyExpiryDate: date(),
		},
		rels: {
			deal: one('deals'),
			dealImportantDates: many('deal-structure-important-dates'),
		},
	},
	'deal-securities': {
		name: 'deal-securities',
		attrs: {
			contactForAccess: en(CONTACT_ACCESS_TYPE, 'ContactAccessType'),
			isPreApproval: bool(),
			licensedRealEstateAgentContract: bool(),
			isElectronicTransfer: bool(),
			isAnnualPropertyTax: bool(),
			contractPrice: num(),
			landValue: num(),
			currentValue: num(),
			futureValue: num(),
			buildAmount: num(),
			contractDate: date(),
			propertyState: str({ max: 200 }),
			titleType: str(),
			title: str(),
			valuationBasis: str(),
			propertyType: str(),
			propertyZoning: str(),
			propertyHolding: str(),
			propertyPrimaryPurpose: str(),
			propertyStatus: str(),
			constructionType: str(),
			constructionCategory: str(),
			propertyTransaction: str(),
			securityType: str(),
			propertySuburb: str({ max: 500 }),
			accessFaxNumber: str({ max: 200 }),
			accessFaxAreaCode: str({ max: 50 }),
			accessMobileNumber: str({ max: 200 }),
			accessMobileAreaCode: str({ max: 50 }),
			accessPhoneNumber: str({ max: 200 }),
			accessPhoneAreaCode: str({ max: 50 }),
			accessContactFirstName: str({ max: 200 }),
			accessContactLastName: str({ max: 200 }),
			accessContactTitle: str({ max: 50 }),
		},
		rels: {
			titleIdentifications: many('deal-security-title-identity'),
			ownership: many('deal-security-ownership'),
			asset: one('assets'),
		},
	},
	'deal-external-references': {
		name: 'deal-external-references',
		attrs: {
			externalReference: str({ max: 255, nullable: false, create: true, update: true, required: true }),
		},
		rels: {
			deal: one('deals', { create: true, required: true }),
			integration: one('integrations', { create: true, required: true }),
		},
	},
	integrations: {
		name: 'integrations',
		attrs: {
			name: str({ max: 100 }),
			description: str({ max: 300 }),
			created: ts(),
			updated: ts(),
		},
		rels: {
			dealExternalReferences: many('deal-external-references', {
				inverse: { type: 'deal-external-references', rel: 'integration' },
			}),
			contactExternalReferences: many('contact-external-references', {
				inverse: { type: 'contact-external-references', rel: 'integration' },
			}),
		},
	},
	'deal-notes': {
		name: 'deal-notes',
		attrs: {
			title: str({ max: 2000, create: true, update: true }),
			detail: str({ create: true, update: true }),
			writtenBy: str({ max: 500 }),
		},
		rels: {
			// Set on create only (POST /deal-notes, from the service's public API description).
			deal: one('deals', { create: true, required: true }),
		},
	},
	'custom-statuses': {
		name: 'custom-statuses',
		attrs: {
			name: str({ max: 64 }),
			sortOrder: int(),
		},
		rels: {},
	},
	contacts: {
		name: 'contacts',
		attrs: contactAttrs,
		rels: {
			contactGroup: one('contact-groups', { create: true }),
			ownership: many('owners'),
			externalReferences: many('contact-external-references', {
				inverse: { type: 'contact-external-references', rel: 'contact' },
			}),
			deals: many('deal-participants'),
			contactAddress: many('contact-address'),
			employments: many('employments'),
		},
	},
	'contact-groups': {
		name: 'contact-groups',
		attrs: {
			name: str(),
			categories: { kind: 'array' },
			utmCampaign: str(),
			created: ts(),
			updated: ts(),
		},
		rels: {
			contacts: many('contacts', { inverse: { type: 'contacts', rel: 'contactGroup' } }),
			adviser: one('advisers'),
		},
	},
	'contact-external-references': {
		name: 'contact-external-references',
		attrs: {
			externalReference: str({ max: 255, nullable: false, update: true }),
		},
		rels: {
			contact: one('contacts'),
			integration: one('integrations'),
		},
	},
	'contact-categories': {
		name: 'contact-categories',
		attrs: {
			name: str({ max: 100, update: true }),
			orderBy: int(),
		},
		rels: {},
	},
	incomes: {
		name: 'incomes',
		attrs: {
			created: ts(),
			updated: ts(),
			description: str({ max: 500, create: true, update: true }),
			value: num({ create: true, update: true }),
			incomeTypeId: int(),
			incomeCategoryId: int(),
			incomeVerification: str(),
			frequency: str(),
			incomeCategory: str(),
			incomeType: str(),
		},
		rels: {
			linkedAsset: one('assets'),
			ownership: many('owners'),
			employment: one('employments'),
		},
	},
	organisations: {
		name: 'organisations',
		attrs: {
			name: str(),
			tradingName: str(),
			abn: str(),
			email: str(),
			phone: str(),
			created: ts(),
			updated: ts(),
		},
		rels: {
			addresses: many('organisation-addresses'),
			customStatuses: many('custom-statuses'),
		},
	},
	'organisation-addresses': {
		name: 'organisation-addresses',
		attrs: {
			isMailing: bool({ update: true }),
			isCustomAddress: bool({ update: true }),
			formattedAddress: str(),
			streetAddress: str(),
			country: str(),
			suburb: str(),
			postCode: str(),
			state: str(),
		},
		rels: {},
	},
	assets: {
		name: 'assets',
		attrs: {
			description: str(),
			value: num(),
			assetType: str(),
			created: ts(),
			updated: ts(),
			// The rest of the public description's `AssetAttributes` (a fact find's assets fill them).
			accountName: str(),
			accountNumber: str(),
			bsb: str(),
			vehicleMake: str(),
			vehicleYear: int(),
			propertyType: str(),
			assetTypeId: int(),
			institution: str(),
			assetSubType: str(),
			assetSubTypeId: int(),
			assetCategory: str(),
			assetCategoryId: int(),
			valuationBasis: str(),
			propertyZoningType: str(),
		},
		rels: {
			addresses: many('financial-address'),
			ownership: many('owners'),
		},
	},
	// A fact find's liabilities and expenses (public description `LiabilityAttributes`, `ExpenseAttributes`).
	liabilities: {
		name: 'liabilities',
		attrs: {
			created: ts(),
			updated: ts(),
			repayment: num(),
			value: num(),
			limit: num(),
			accountName: str(),
			accountNumber: str(),
			bsb: str(),
			interestTaxDeductible: bool(),
			interestRate: num(),
			liabilityTypeId: int(),
			liabilityType: str(),
			liabilitySubTypeId: int(),
			liabilitySubType: str(),
			liabilityCategory: str(),
			liabilityCategoryId: int(),
			loanTerm: int(),
			repaymentFrequency: str(),
			mortgagePriority: str(),
			creditorName: str(),
			loanRepaymentType: str(),
		},
		rels: {
			linkedAsset: one('assets'),
			ownership: many('owners'),
		},
	},
	expenses: {
		name: 'expenses',
		attrs: {
			created: ts(),
			updated: ts(),
			description: str(),
			value: num(),
			expenseTypeId: int(),
			expenseType: str(),
			expenseCategory: str(),
			expenseCategoryId: int(),
			frequency: str(),
		},
		rels: {
			ownership: many('owners'),
		},
	},
	// Who owns an income, asset, liability or expense (public description `OwnerAttributes`; no shares in a fact find).
	owners: {
		name: 'owners',
		attrs: { ownershipPercentage: num(), created: ts(), updated: ts() },
		rels: { contact: one('contacts') },
	},
	// A contact's address (public description `ContactAddressAttributes`), and a fact find's employments (no read endpoint).
	'contact-address': {
		name: 'contact-address',
		attrs: {
			addressType: en(CLIENT_ADDRESS_TYPE, 'ClientAddressType'),
			formattedAddress: str(),
			streetAddress: str(),
			country: str(),
			suburb: str(),
			postCode: str(),
			state: str(),
			created: ts(),
			updated: ts(),
		},
		rels: {},
	},
	employments: {
		name: 'employments',
		attrs: {
			employmentStatus: str(),
			employmentType: str(),
			dateStarted: date(),
			dateEnded: date(),
			employmentRoleName: str(),
			employmentBasis: str(),
			isProbation: bool(),
			businessNumber: str(),
			companyNumber: str(),
			employerName: str(),
			employerType: str(),
			employerPhone: str(),
		},
		rels: { address: one('contact-address') },
	},
	// The lists a fact find's type ids come from (public description `IncomeTypeAttributes`, …).
	'income-categories': { name: 'income-categories', attrs: described(), rels: { incomeTypes: many('income-types', { inverse: { type: 'income-types', rel: 'incomeCategory' } }) } },
	'income-types': { name: 'income-types', attrs: named(), rels: { incomeCategory: one('income-categories') } },
	'asset-categories': { name: 'asset-categories', attrs: described(), rels: {} },
	'asset-types': { name: 'asset-types', attrs: named(), rels: {} },
	'asset-sub-types': { name: 'asset-sub-types', attrs: named(), rels: {} },
	'liability-categories': { name: 'liability-categories', attrs: described(), rels: { liabilityTypes: many('liability-types', { inverse: { type: 'liability-types', rel: 'liabilityCategory' } }) } },
	'liability-types': { name: 'liability-types', attrs: named(), rels: { liabilityCategory: one('liability-categories'), liabilitySubTypes: many('liability-sub-types') } },
	'liability-sub-types': { name: 'liability-sub-types', attrs: named(100), rels: {} },
	'expense-categories': { name: 'expense-categories', attrs: described(), rels: { expenseTypes: many('expense-types', { inverse: { type: 'expense-types', rel: 'expenseCategory' } }) } },
	'expense-types': { name: 'expense-types', attrs: named(), rels: { expenseCategory: one('expense-categories') } },
	'property-types': { name: 'property-types', attrs: { propertyZoningType: str(), name: str({ max: 2000 }), propertyZoningTypeId: int() }, rels: {} },
	'financial-address': {
		name: 'financial-address',
		attrs: {
			formattedAddress: str(),
			streetAddress: str(),
			country: str(),
			suburb: str(),
			postCode: str(),
			state: str(),
		},
		rels: {},
	},
	tasks: {
		name: 'tasks',
		noInclude: true,
		attrs: {
			title: str({ max: 500, update: true }),
			detail: str({ max: 10240, update: true, format: 'html' }),
			progress: en(TASK_PROGRESS, 'InteractiveTaskProgressDto', { update: true, nullable: false }),
			priority: en(TASK_PRIORITY, 'InteractiveTaskPriorityDto', { update: true, nullable: false }),
			dueDate: ts({ update: true, format: 'offset' }),
		},
		rels: {
			assignee: one('advisers', { update: true, required: true }),
			residentialDeal: one('deals', { update: true }),
			contactGroups: many('contact-groups', { update: true }),
			assetFinanceDiversifiedDeal: one('deals', { update: true }),
			commercialFinanceDiversifiedDeal: one('deals', { update: true }),
		},
	},
	// The organisation's advisers, from the service's public API description (swagger
	// `AdviserAttributes`, `AdviserDetailAttributes`, `EnquirySourceAttributes`, `ReferrerAttributes`),
	// not the seed. An `advisers` record is the adviser "family" (a task's assignee takes its id) and
	// has no name; its `adviser-details` record has the names, and its id is the AdviserContactId that
	// the UserId header takes (the public README: "displayed in the API Settings page within MyCRM or
	// from the adviser-details endpoint"). Only the attributes the sandbox fills are listed.
	advisers: {
		name: 'advisers',
		attrs: {
			email: str(),
			status: str(),
			jobTitle: str(),
			isBrokerWebPublic: bool(),
			countryCode: str(),
			created: ts(),
		},
		rels: {
			adviserDetails: one('adviser-details'),
			organisation: one('organisations'),
			contactGroups: many('contact-groups', { inverse: { type: 'contact-groups', rel: 'adviser' } }),
		},
	},
	'adviser-details': {
		name: 'adviser-details',
		attrs: {
			firstName: str({ max: 100 }),
			lastName: str({ max: 100 }),
			preferredName: str({ max: 200 }),
			email: str({ max: 100 }),
			mobilePhone: str({ max: 100 }),
			created: ts(),
			updated: ts(),
		},
		rels: {
			adviser: one('advisers'),
		},
	},
	// The type name is singular (swagger `EnquirySourceEntityType`), the path plural (/enquiry-sources).
	'enquiry-source': {
		name: 'enquiry-source',
		attrs: {
			sourceCategoryId: int(),
			sourceCategoryName: str(),
			sourceId: int(),
			sourceName: str(),
		},
		rels: {},
	},
	referrers: {
		name: 'referrers',
		attrs: {
			referrerOrganisationName: str(),
			referrerName: str(),
		},
		rels: {},
	},
};

/** Types that appear as relationship targets but hold no records in the sandbox. */
for (const empty of [
	'deal-scenario',
	'deal-important-dates',
	'deal-participants',
	'deal-security-title-identity',
	'deal-security-ownership',
	'deal-structure-important-dates',
]) {
	TYPES[empty] = { name: empty, attrs: {}, rels: {} };
}

// deal-securities carry a hidden link to their deal (deals.loanSecurities is its inverse).
TYPES['deal-securities'].rels.deal = { target: 'deals', toMany: false };

/** Relationships that exist in storage only (never rendered, not usable in queries). */
export const HIDDEN_RELS: Readonly<Record<string, ReadonlySet<string>>> = { 'deal-securities': new Set(['deal']) };

export function isHiddenRel(type: string, rel: string): boolean {
	return HIDDEN_RELS[type]?.has(rel) ?? false;
}

// ---------------------------------------------------------------------------------------------
// Endpoints, scopes and the cost model
// ---------------------------------------------------------------------------------------------

export type EndpointKind = 'collection' | 'single' | 'related-single' | 'related-collection' | 'create' | 'update' | 'delete';
export type ScopeAction = 'search' | 'read' | 'create' | 'update' | 'delete';

export interface EndpointDef {
	method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
	/** Path pattern below /jsonapi, `{id}` for the int32 path id. */
	path: string;
	kind: EndpointKind;
	/** Resource type of the first path segment. */
	type: string;
	/** Relationship name for related endpoints. */
	rel?: string;
	/** The scope this endpoint needs (`api.<resource-type>.<action>`). */
	scope: string;
	action: ScopeAction;
	/** Base rate-limit cost before multipliers. */
	baseCost: number;
}

const ep = (
	method: EndpointDef['method'],
	path: string,
	kind: EndpointKind,
	type: string,
	action: ScopeAction,
	rel?: string,
	scopeResource = type,
): EndpointDef => ({
	method,
	path,
	kind,
	type,
	rel,
	scope: `api.${scopeResource}.${action}`,
	action,
	baseCost: BASE_COST[kind],
});

/** A collection search and its single read (`GET /<path>` and `GET /<path>/{id}`), as most of the public description's types have them. */
const searchAndRead = (path: string, type: string = path.slice(1), scopeResource = type): EndpointDef[] => [
	ep('GET', path, 'collection', type, 'search', undefined, scopeResource),
	ep('GET', `${path}/{id}`, 'single', type, 'read', undefined, scopeResource),
];

/** Base costs: collection search 10, single/related fetch 5, create/update 5, delete 1. */
export const BASE_COST: Record<EndpointKind, number> = {
	collection: 10,
	single: 5,
	'related-single': 5,
	'related-collection': 5,
	create: 5,
	update: 5,
	delete: 1,
};

/** The 20 operations of seed section 4.1 with the scope each needs. */
export const ENDPOINTS: readonly EndpointDef[] = [
	ep('GET', '/deals', 'collection', 'deals', 'search'),
	ep('GET', '/deal-structures/{id}/deal', 'related-single', 'deal-structures', 'read', 'deal'),
	ep('PATCH', '/deal-structures/{id}', 'update', 'deal-structures', 'update'),
	ep('GET', '/deal-securities', 'collection', 'deal-securities', 'search'),
	ep('GET', '/deal-external-references', 'collection', 'deal-external-references', 'search'),
	ep('POST', '/deal-external-references', 'create', 'deal-external-references', 'create'),
	ep('GET', '/deals/{id}/dealNotes', 'related-collection', 'deals', 'read', 'dealNotes'),
	ep('GET', '/deals/{id}/customStatus', 'related-single', 'deals', 'read', 'customStatus'),
	ep('PATCH', '/deal-notes/{id}', 'update', 'deal-notes', 'update'),
	ep('DELETE', '/deal-notes/{id}', 'delete', 'deal-notes', 'delete'),
	ep('GET', '/contacts', 'collection', 'contacts', 'search'),
	ep('POST', '/contacts', 'create', 'contacts', 'create'),
	ep('GET', '/contact-external-references/{id}/contact', 'related-single', 'contact-external-references', 'read', 'contact'),
	ep('PATCH', '/contact-external-references/{id}', 'update', 'contact-external-references', 'update'),
	ep('PATCH', '/contact-categories/{id}', 'update', 'contact-categories', 'update'),
	ep('GET', '/incomes', 'collection', 'incomes', 'search'),
	ep('GET', '/organisations/{id}/addresses', 'related-collection', 'organisations', 'read', 'addresses'),
	ep('GET', '/assets/{id}/addresses', 'related-collection', 'assets', 'read', 'addresses'),
	ep('GET', '/leads/{id}', 'single', 'leads', 'read'),
	ep('PATCH', '/tasks/{id}', 'update', 'tasks', 'update'),
];

/**
 * Endpoints outside the 20 operations, served so the README's Custom API Call / Custom Request
 * examples can be proven here. They come from the service's public API description (swagger of
 * `loanmarket/mycrm-api-sample`, `MyCrmSampleClient/swagger.json`: `Integrations_Get`,
 * `DealNote_Post`, `Lead_Post`), not from the seed, and behave like the endpoints of the same kind.
 */
export const PUBLIC_DESCRIPTION_ENDPOINTS: readonly EndpointDef[] = [
	ep('GET', '/integrations', 'collection', 'integrations', 'search'),
	ep('POST', '/deal-notes', 'create', 'deal-notes', 'create'),
	// `Lead_Post`: scope api.leads (the Leads Postman collection) or api.leads.create (Samples.cs).
	ep('POST', '/leads', 'create', 'leads', 'create'),
	// A brokerage's advisers and where leads come from: `Advisers_Get`, `AdviserDetails_Get`,
	// `EnquirySources_Get`, `Referrers_Get` and their single reads. Scopes as Samples.cs names them
	// (api.advisers.search, api.adviser-details.search); the enquiry sources' by their path.
	...searchAndRead('/advisers'),
	...searchAndRead('/adviser-details'),
	...searchAndRead('/enquiry-sources', 'enquiry-source', 'enquiry-sources'),
	...searchAndRead('/referrers'),
	// A whole fact find: `StructuredLead_Post` and `StructuredLead_Get` (sandbox/structuredLeads.ts).
	ep('POST', '/structured-leads', 'create', 'structured-leads', 'create'),
	ep('GET', '/structured-leads/{id}', 'single', 'structured-leads', 'read'),
	// Where a fact find's records are read back: a deal's contacts, a contact's addresses, assets,
	// liabilities, expenses, an income and the owners of each.
	ep('GET', '/deals/{id}/contacts', 'related-collection', 'deals', 'read', 'contacts'),
	ep('GET', '/contacts/{id}/contactAddress', 'related-collection', 'contacts', 'read', 'contactAddress'),
	ep('GET', '/incomes/{id}', 'single', 'incomes', 'read'),
	ep('GET', '/incomes/{id}/ownership', 'related-collection', 'incomes', 'read', 'ownership'),
	...searchAndRead('/assets'),
	ep('GET', '/assets/{id}/ownership', 'related-collection', 'assets', 'read', 'ownership'),
	...searchAndRead('/liabilities'),
	ep('GET', '/liabilities/{id}/ownership', 'related-collection', 'liabilities', 'read', 'ownership'),
	...searchAndRead('/expenses'),
	ep('GET', '/expenses/{id}/ownership', 'related-collection', 'expenses', 'read', 'ownership'),
	// The type lists a fact find's type ids come from, with their categories.
	...searchAndRead('/income-types'),
	...searchAndRead('/income-categories'),
	ep('GET', '/income-categories/{id}/incomeTypes', 'related-collection', 'income-categories', 'read', 'incomeTypes'),
	...searchAndRead('/asset-types'),
	...searchAndRead('/asset-sub-types'),
	...searchAndRead('/asset-categories'),
	...searchAndRead('/liability-types'),
	ep('GET', '/liability-types/{id}/liabilitySubTypes', 'related-collection', 'liability-types', 'read', 'liabilitySubTypes'),
	...searchAndRead('/liability-categories'),
	ep('GET', '/liability-categories/{id}/liabilityTypes', 'related-collection', 'liability-categories', 'read', 'liabilityTypes'),
	...searchAndRead('/expense-types'),
	...searchAndRead('/expense-categories'),
	ep('GET', '/expense-categories/{id}/expenseTypes', 'related-collection', 'expense-categories', 'read', 'expenseTypes'),
	...searchAndRead('/property-types'),
];

/**
 * A record by its id, `GET /jsonapi/<type>/{id}` (swagger `Deals_GetById`, `Contacts_GetById`,
 * `Advisers_GetById`, `Organisations_GetById`; the public description, not the seed): what a
 * webhook notification names (`resource.type`, `resource.id`), read by whoever receives it. Served
 * like the single lead; one the list above already has is not listed twice.
 */
export const RECORD_READ_ENDPOINTS: readonly EndpointDef[] = [
	ep('GET', '/deals/{id}', 'single', 'deals', 'read'),
	ep('GET', '/contacts/{id}', 'single', 'contacts', 'read'),
	ep('GET', '/advisers/{id}', 'single', 'advisers', 'read'),
	ep('GET', '/organisations/{id}', 'single', 'organisations', 'read'),
].filter((read) => !PUBLIC_DESCRIPTION_ENDPOINTS.some((endpoint) => endpoint.method === read.method && endpoint.path === read.path));

/** Every endpoint the sandbox serves. */
export const SERVED_ENDPOINTS: readonly EndpointDef[] = [...ENDPOINTS, ...PUBLIC_DESCRIPTION_ENDPOINTS, ...RECORD_READ_ENDPOINTS];

/**
 * Required scope per endpoint of the 20 operations, as `"METHOD /jsonapi/path"` → scope. DELETE also accepts the
 * `update` action of its resource type.
 */
export const SCOPE_TABLE: Readonly<Record<string, string>> = Object.fromEntries(
	ENDPOINTS.map((e) => [`${e.method} /jsonapi${e.path}`, e.scope]),
);

/**
 * Whether the granted scopes satisfy the endpoint: the exact scope, `api`, `api.<resource-type>`
 * or `api.<action>` (for DELETE the `update` action is accepted as well).
 */
export function scopeSatisfied(granted: readonly string[], endpoint: Pick<EndpointDef, 'type' | 'action'> & Partial<Pick<EndpointDef, 'scope'>>): boolean {
	const actions: ScopeAction[] = endpoint.action === 'delete' ? ['delete', 'update'] : [endpoint.action];
	// The scope's resource: the type's name, or the path's where they differ (enquiry-sources).
	const resource = endpoint.scope?.split('.')[1] ?? endpoint.type;
	const accepted = new Set<string>(['api', `api.${resource}`]);
	for (const action of actions) {
		accepted.add(`api.${resource}.${action}`);
		accepted.add(`api.${action}`);
	}
	return granted.some((scope) => accepted.has(scope));
}

/**
 * Rate-limit cost of a request: the base cost of its kind, ×2 when `page[number]` > 1, ×2 when
 * sorting by anything but `id`/`-id`, ×2 per include level of the deepest include path.
 */
export function requestCost(
	baseCost: number,
	query: { pageNumber?: number; sortKeys?: string[]; includePaths?: string[] },
): number {
	let cost = baseCost;
	if ((query.pageNumber ?? 1) > 1) cost *= 2;
	if (query.sortKeys?.some((key) => key !== 'id' && key !== '-id')) cost *= 2;
	let depth = 0;
	for (const path of query.includePaths ?? []) depth = Math.max(depth, path.split('.').length);
	return cost * 2 ** depth;
}

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 100;
export const MEDIA_TYPE = 'application/vnd.api+json';
