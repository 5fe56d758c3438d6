/**
 * The sandbox's seed as data: the fixed records (organisations, advisers, custom statuses,
 * integrations, contact categories, the deals and texts tests rely on) and the word lists, weights
 * and ranges the generated records draw from. Rows only: sandbox/seed-builders.ts and
 * sandbox/seed-deals.ts turn them into stored records, sandbox/seed.ts lists the types in the order
 * they are built and says how to add one.
 */
import type { DealType, SystemStatus } from './schema';
import type { RelValue } from './store';

/** The first id of each seeded type. Distinct bases, so an id of one type given as another's is caught. */
export const FIRST_ID = {
	integrations: 11,
	'custom-statuses': 21,
	'contact-categories': 31,
	organisations: 41,
	// Public-description types (swagger of loanmarket/mycrm-api-sample), beyond the seed.
	'enquiry-source': 201,
	referrers: 301,
	advisers: 501,
	// An adviser's details record's id is the AdviserContactId, the UserId header's value.
	'adviser-details': 1001,
	deals: 10001,
	'deal-structures': 2_000_001,
	'deal-notes': 3_000_001,
	'deal-external-references': 4_000_001,
	'deal-securities': 5_000_001,
	contacts: 6_000_001,
	'contact-groups': 6_500_001,
	'contact-external-references': 7_000_001,
	incomes: 7_500_001,
	assets: 8_000_001,
	'financial-address': 8_500_001,
	'organisation-addresses': 9_000_001,
	tasks: 9_500_001,
	// A fact find's records (POST /structured-leads), none seeded: each type with its own id base.
	'contact-address': 6_800_001,
	employments: 6_900_001,
	liabilities: 8_200_001,
	expenses: 8_300_001,
	owners: 8_400_001,
} as const;

export type SeededType = keyof typeof FIRST_ID;

/** The id of the `index`-th seeded record of `type` (seeded records are numbered from FIRST_ID in order). */
export function idOf(type: SeededType, index: number): number {
	return FIRST_ID[type] + index;
}

/** First adviser contact id (UserId values are 1001, 1002, …): the first adviser-details id. */
export const ADVISER_CONTACT_ID_BASE = FIRST_ID['adviser-details'];

/** A record to seed, before it has an id: its stored attributes and its relationships (ids of the records they point at). */
export interface SeedRow {
	attributes: Record<string, unknown>;
	rels?: Record<string, RelValue>;
}

/** Timestamps lie between these (created up to CREATED_END_MS, updated up to UPDATED_END_MS). */
export const START_MS = Date.UTC(2024, 0, 1);
export const CREATED_END_MS = Date.UTC(2026, 9, 31);
export const UPDATED_END_MS = Date.UTC(2026, 10, 15);

/**
 * Salts of the per-record random streams: a generated record draws from `hash32(seed, salt, id)`,
 * so it looks the same whether it is built at the start or when a page is served. A new type takes
 * a number of its own.
 */
export const SALT = {
	deal: 1,
	split: 2,
	structure: 3,
	note: 4,
	ext: 6,
	contact: 7,
	security: 8,
	income: 9,
	asset: 10,
	task: 11,
	group: 12,
	adviser: 13,
	opportunity: 14,
	dates: 15,
} as const;

// ---------------------------------------------------------------------------------------------
// Fixed records
// ---------------------------------------------------------------------------------------------

export interface Place {
	suburb: string;
	state: string;
	postCode: string;
}

export const PLACES: readonly Place[] = [
	{ suburb: 'Parramatta', state: 'NSW', postCode: '2150' },
	{ suburb: 'Chatswood', state: 'NSW', postCode: '2067' },
	{ suburb: 'Bondi', state: 'NSW', postCode: '2026' },
	{ suburb: 'Newtown', state: 'NSW', postCode: '2042' },
	{ suburb: 'Penrith', state: 'NSW', postCode: '2750' },
	{ suburb: 'Newcastle', state: 'NSW', postCode: '2300' },
	{ suburb: 'Wollongong', state: 'NSW', postCode: '2500' },
	{ suburb: 'Richmond', state: 'VIC', postCode: '3121' },
	{ suburb: 'Fitzroy', state: 'VIC', postCode: '3065' },
	{ suburb: 'Box Hill', state: 'VIC', postCode: '3128' },
	{ suburb: 'Geelong', state: 'VIC', postCode: '3220' },
	{ suburb: 'St Kilda', state: 'VIC', postCode: '3182' },
	{ suburb: 'Ballarat', state: 'VIC', postCode: '3350' },
	{ suburb: 'Fortitude Valley', state: 'QLD', postCode: '4006' },
	{ suburb: 'Paddington', state: 'QLD', postCode: '4064' },
	{ suburb: 'Southport', state: 'QLD', postCode: '4215' },
	{ suburb: 'Toowoomba', state: 'QLD', postCode: '4350' },
	{ suburb: 'Cairns City', state: 'QLD', postCode: '4870' },
	{ suburb: 'Townsville City', state: 'QLD', postCode: '4810' },
	{ suburb: 'Subiaco', state: 'WA', postCode: '6008' },
	{ suburb: 'Fremantle', state: 'WA', postCode: '6160' },
	{ suburb: 'Joondalup', state: 'WA', postCode: '6027' },
	{ suburb: 'Mandurah', state: 'WA', postCode: '6210' },
	{ suburb: 'Glenelg', state: 'SA', postCode: '5045' },
	{ suburb: 'Norwood', state: 'SA', postCode: '5067' },
	{ suburb: 'Sandy Bay', state: 'TAS', postCode: '7005' },
	{ suburb: 'Launceston', state: 'TAS', postCode: '7250' },
	{ suburb: 'Braddon', state: 'ACT', postCode: '2612' },
	{ suburb: 'Belconnen', state: 'ACT', postCode: '2617' },
	{ suburb: 'Darwin City', state: 'NT', postCode: '0800' },
];

/** Organisations 41…: `place` indexes PLACES (where the first address is); `addresses` is how many they have. */
export const ORGANISATIONS: ReadonlyArray<{
	name: string;
	trading: string;
	domain: string;
	place: number;
	addresses: number;
	/** The organisation whose custom statuses CUSTOM_STATUSES are. */
	ownsCustomStatuses?: true;
}> = [
	{ name: 'Harbour City Home Loans Pty Ltd', trading: 'Harbour City Home Loans', domain: 'harbourcityloans.com.au', place: 0, addresses: 2, ownsCustomStatuses: true },
	{ name: 'Southern Cross Finance Group Pty Ltd', trading: 'Southern Cross Finance', domain: 'southerncrossfinance.com.au', place: 7, addresses: 1 },
	{ name: 'Sunshine Coast Lending Pty Ltd', trading: 'Sunshine Lending', domain: 'sunshinelending.com.au', place: 15, addresses: 2 },
	{ name: 'Swan River Mortgage Co Pty Ltd', trading: 'Swan River Mortgages', domain: 'swanrivermortgages.com.au', place: 20, addresses: 1 },
	{ name: 'Adelaide Hills Finance Pty Ltd', trading: 'Adelaide Hills Finance', domain: 'adelaidehillsfinance.com.au', place: 24, addresses: 0 },
];

/**
 * An adviser as the public API description has one: an `advisers` record (the adviser "family" id,
 * what a task's assignee takes; `email`, `status`, `jobTitle`, …; no name) and its `adviser-details`
 * record (names, e-mail, phones), whose id is the AdviserContactId the UserId header takes. `status`
 * is free text in the description; the sandbox uses Active and Inactive. `org` indexes ORGANISATIONS.
 */
export interface AdviserRow {
	first: string;
	last: string;
	org: number;
	isBrokerWebPublic: boolean;
	status: 'Active' | 'Inactive';
	jobTitle: string;
}

/** Advisers 501… (details, i.e. UserId, 1001…), drawn from the shared stream (seed-builders.ts `advisers`). */
export const ADVISERS: readonly AdviserRow[] = [
	{ first: 'Sarah', last: 'Mitchell', org: 0, isBrokerWebPublic: true, status: 'Active', jobTitle: 'Principal Adviser' },
	{ first: 'David', last: 'Nguyen', org: 0, isBrokerWebPublic: true, status: 'Active', jobTitle: 'Mortgage Broker' },
	{ first: 'Priya', last: 'Sharma', org: 1, isBrokerWebPublic: true, status: 'Active', jobTitle: 'Mortgage Broker' },
	{ first: 'Tom', last: "O'Brien", org: 2, isBrokerWebPublic: true, status: 'Active', jobTitle: 'Finance Broker' },
	{ first: 'Emma', last: 'Wilson', org: 3, isBrokerWebPublic: true, status: 'Active', jobTitle: 'Mortgage Broker' },
	{ first: 'Marcus', last: 'Chen', org: 4, isBrokerWebPublic: false, status: 'Inactive', jobTitle: 'Credit Analyst' },
];

/**
 * Advisers who joined the first organisation after the records above were drawn (507…, details
 * 1007…): no deal, contact group or task is theirs yet, so seeding them last changes no other record.
 * Enough advisers of one brokerage to route leads to (examples/lead-routing.json), one inactive.
 */
export const JOINED_ADVISERS: readonly AdviserRow[] = [
	{ first: 'Aisha', last: 'Rahman', org: 0, isBrokerWebPublic: true, status: 'Active', jobTitle: 'Mortgage Broker' },
	{ first: 'Liam', last: "O'Sullivan", org: 0, isBrokerWebPublic: true, status: 'Active', jobTitle: 'Associate Broker' },
	{ first: 'Grace', last: 'Taylor', org: 0, isBrokerWebPublic: false, status: 'Inactive', jobTitle: 'Mortgage Broker' },
];

/**
 * Enquiry sources 201… (`GET /jsonapi/enquiry-sources`, swagger `EnquirySourceAttributes`): each a
 * source within a category; a lead's `sourceId` and `sourceCategoryId` take these numbers. The
 * resource's own id is another number (the description types it as text). "Other" is a source of
 * two categories: a name alone does not always say which one.
 */
export const ENQUIRY_SOURCES: ReadonlyArray<{ categoryId: number; category: string; sourceId: number; source: string }> = [
	{ categoryId: 1, category: 'Self Generated', sourceId: 11, source: 'Referral from existing client' },
	{ categoryId: 1, category: 'Self Generated', sourceId: 12, source: 'Past client' },
	{ categoryId: 1, category: 'Self Generated', sourceId: 13, source: 'Personal network' },
	{ categoryId: 1, category: 'Self Generated', sourceId: 19, source: 'Other' },
	{ categoryId: 2, category: 'Online', sourceId: 21, source: 'Website enquiry form' },
	{ categoryId: 2, category: 'Online', sourceId: 22, source: 'Google Ads' },
	{ categoryId: 2, category: 'Online', sourceId: 23, source: 'Facebook lead ad' },
	{ categoryId: 2, category: 'Online', sourceId: 24, source: 'Comparison site' },
	{ categoryId: 3, category: 'Referral Partner', sourceId: 31, source: 'Real estate agent' },
	{ categoryId: 3, category: 'Referral Partner', sourceId: 32, source: 'Accountant' },
	{ categoryId: 3, category: 'Referral Partner', sourceId: 33, source: 'Financial planner' },
	{ categoryId: 4, category: 'Marketing', sourceId: 41, source: 'Seminar' },
	{ categoryId: 4, category: 'Marketing', sourceId: 42, source: 'Letterbox drop' },
	{ categoryId: 4, category: 'Marketing', sourceId: 49, source: 'Other' },
];

/**
 * Referrers 301… (`GET /jsonapi/referrers`, swagger `ReferrerAttributes`): a person and the
 * organisation they refer for; a lead's `sourceReferrerId` takes the id. Two are called Jane Cooper.
 */
export const REFERRERS: ReadonlyArray<{ name: string; organisation: string | null }> = [
	{ name: 'Jane Cooper', organisation: 'Ray White Parramatta' },
	{ name: 'Ben Walsh', organisation: 'McGrath Bondi' },
	{ name: 'Priya Patel', organisation: 'Patel & Co Accountants' },
	{ name: 'Jane Cooper', organisation: 'Cooper Financial Planning' },
	{ name: "Mark O'Sullivan", organisation: 'LJ Hooker Chatswood' },
	{ name: 'Chris Lee', organisation: null },
];

/** Custom statuses 21… of the first organisation; sortOrder is deliberately not the id order. */
export const CUSTOM_STATUSES: readonly SeedRow[] = [
	{ attributes: { name: 'Docs requested', sortOrder: 3 } },
	{ attributes: { name: 'Awaiting valuation', sortOrder: 5 } },
	{ attributes: { name: 'Client reviewing', sortOrder: 2 } },
	{ attributes: { name: 'Credit assessment', sortOrder: 6 } },
	{ attributes: { name: 'First contact', sortOrder: 1 } },
	{ attributes: { name: 'Settlement booked', sortOrder: 8 } },
	{ attributes: { name: 'Waiting on payslips', sortOrder: 4 } },
	{ attributes: { name: 'Loan docs issued', sortOrder: 7 } },
];

/** Integrations 11…; `prefix` starts the external references made for them. */
export const INTEGRATIONS: ReadonlyArray<{ name: string; description: string | null; prefix: string }> = [
	{ name: 'MyIntegrationSource', description: 'Lead source used by the website enquiry form.', prefix: 'MIS' },
	{ name: 'Salesforce', description: 'Two-way sync with the Salesforce org.', prefix: 'SF' },
	{ name: 'HubSpot CRM', description: null, prefix: 'HS' },
	{ name: 'Broker Portal', description: 'Partner portal for referrers.', prefix: 'BP' },
];

/** Contact categories 31…. */
export const CONTACT_CATEGORIES: readonly SeedRow[] = [
	{ attributes: { name: 'VIP', orderBy: 1 } },
	{ attributes: { name: 'First home buyer', orderBy: 2 } },
	{ attributes: { name: 'Investor', orderBy: 3 } },
	{ attributes: { name: 'Refinancer', orderBy: 4 } },
	{ attributes: { name: 'Self-employed', orderBy: 5 } },
	{ attributes: { name: 'Commercial', orderBy: 6 } },
	{ attributes: { name: 'Referral partner', orderBy: 7 } },
	{ attributes: { name: 'Past client', orderBy: 8 } },
];

/** The names a contact group's `categories` are picked from. */
export const CONTACT_CATEGORY_NAMES = CONTACT_CATEGORIES.map((row) => String(row.attributes.name));

// ---------------------------------------------------------------------------------------------
// Records tests rely on (FixtureIds in sandbox/types.ts)
// ---------------------------------------------------------------------------------------------

export interface DealFixture {
	status: SystemStatus;
	dealType: DealType;
	notes: number;
	structures: number;
	/** Index in CUSTOM_STATUSES, or null. */
	customStatus: number | null;
	name: string;
	lender: string | null;
	/** Index in ADVISERS. */
	adviser: number;
}

/** Deals 10001–10004: fixed so tests can rely on them; the generated deals follow. */
export const DEAL_FIXTURES: readonly DealFixture[] = [
	{ status: 'InProgress', dealType: 'Residential', notes: 3, structures: 2, customStatus: 1, name: 'Nguyen, Thi & Andrew', lender: 'Westpac', adviser: 0 },
	{ status: 'NewLeads', dealType: 'Residential', notes: 0, structures: 0, customStatus: null, name: 'Taylor, Grace', lender: null, adviser: 0 },
	{ status: 'Settled', dealType: 'Residential', notes: 1, structures: 1, customStatus: 5, name: 'Papadopoulos, Nikos & Eleni', lender: 'Commonwealth Bank', adviser: 1 },
	{ status: 'Researching', dealType: 'Residential', notes: 1, structures: 1, customStatus: null, name: "O'Connor, Liam", lender: null, adviser: 2 },
];

/** The first deal's first note (a quote, a dash, a percentage, a tick and a line break). */
export const FIRST_DEAL_NOTE = { title: 'Initial call', detail: 'Client\'s "preferred" lender is ANZ — rate must beat 5.89% ✓\nSecond line of the note.' };

/** The first deal's external reference (of the first integration); the third deal has one of the second. */
export const FIRST_DEAL_REFERENCE = 'ABC1234';

/** The first contact's external reference (of the first integration). */
export const FIRST_CONTACT_REFERENCE = 'CUST-0001';

/** The second contact's last name, whatever its family is called. */
export const SECOND_CONTACT_LAST_NAME = "O'Brien";

/** The first task's title (it has one contact group and no deal; the second task has the first deal). */
export const FIRST_TASK_TITLE = 'Call client re valuation';

// ---------------------------------------------------------------------------------------------
// Word lists, weights and ranges of the generated records
// ---------------------------------------------------------------------------------------------

export const FEMALE_NAMES = [
	'Olivia', 'Charlotte', 'Amelia', 'Isla', 'Mia', 'Chloe', 'Sophie', 'Grace', 'Ruby', 'Zoe',
	'Priya', 'Mei', 'Linh', 'Fatima', 'Giulia', 'Eleni', 'Aroha', 'Matilda', 'Evie', 'Ava',
	'Zoë', 'Siobhán', 'Thi', 'Kirra', 'Maddison', 'Tahlia',
] as const;

export const MALE_NAMES = [
	'James', 'William', 'Jack', 'Noah', 'Thomas', 'Lachlan', 'Ethan', 'Liam', 'Oliver', 'Cooper',
	'Arjun', 'Wei', 'Minh', 'Ahmed', 'Luca', 'Nikos', 'Sione', 'Hamish', 'Harrison', 'Riley',
	'José', 'Rahul', 'Jarrah', 'Brodie', 'Andrew',
] as const;

export const FIRST_NAMES = [...FEMALE_NAMES, ...MALE_NAMES] as const;

export const LAST_NAMES = [
	'Smith', 'Jones', 'Williams', 'Brown', 'Wilson', 'Taylor', 'Nguyen', 'Johnson', 'Martin', 'White',
	'Anderson', 'Walker', 'Thompson', 'Harris', 'Lee', 'Ryan', 'Robinson', 'Kelly', 'King', 'Tran',
	'Patel', 'Singh', 'Chen', 'Wang', 'Papadopoulos', 'Rossi', "O'Connor", "O'Brien", "D'Souza", 'McDonald',
	'MacKenzie', 'Campbell', 'Murphy', 'Clarke', 'Hughes', 'Le', 'Pham', 'Kaur', 'Sharma', 'Fitzgerald',
	'Novak', 'Kowalski', 'Haddad', 'Nakamura', 'Te Whare', 'Van der Berg', 'Müller', 'Ferreira', 'Ahmadi', 'Lim',
] as const;

export const STREETS = [
	'George Street', 'King Street', 'Victoria Road', 'Church Street', 'High Street', 'Station Street',
	'Railway Parade', 'Park Avenue', 'Beach Road', 'Elizabeth Street', 'Queen Street', 'Main Road',
	'Bridge Road', 'Ocean Street', 'Wattle Avenue', 'Banksia Crescent', 'Jacaranda Drive', 'Waratah Street',
] as const;

export const LENDERS = [
	'Commonwealth Bank', 'Westpac', 'ANZ', 'NAB', 'Macquarie Bank', 'ING', 'St.George Bank', 'Bankwest',
	'Suncorp Bank', 'Bank of Queensland', 'ME Bank', 'Pepper Money', 'Liberty Financial', 'Athena Home Loans',
	'Bendigo Bank', 'AMP Bank', 'HSBC', 'Heritage Bank', 'Newcastle Permanent', 'La Trobe Financial',
] as const;

/** Area codes of landlines by state (+61 <code> …). */
export const AREA_CODES: Record<string, string> = { NSW: '2', ACT: '2', VIC: '3', TAS: '3', QLD: '7', WA: '8', SA: '8', NT: '8' };

// --- contacts and contact groups ---

export const GROUP_SIZE_WEIGHTS: ReadonlyArray<readonly [number, number]> = [[1, 45], [2, 45], [3, 10]];
export const GENDER_WEIGHTS = [['Female', 48], ['Male', 48], ['Undisclosed', 4]] as const;
export const MALE_TITLES = ['Mr', 'Mr', 'Dr'] as const;
export const FEMALE_TITLES = ['Ms', 'Mrs', 'Miss', 'Dr'] as const;
export const MARITAL_STATUS_COUPLE = ['Married', 'DeFacto'] as const;
export const MARITAL_STATUS_SINGLE = ['Single', 'Separated', 'Divorced', 'Widowed', 'Single'] as const;
export const EMAIL_DOMAINS = ['gmail.com', 'outlook.com', 'bigpond.com', 'icloud.com', 'yahoo.com.au'] as const;
export const WORK_EMAIL_DOMAIN = 'work.example.com.au';
export const UTM_CAMPAIGNS = ['spring-refi-2026', 'fhb-webinar', 'google-ads-brand'] as const;

// --- assets and incomes ---

export const ASSET_TYPE_WEIGHTS = [['RealEstate', 40], ['MotorVehicle', 20], ['Savings', 20], ['Shares', 10], ['Superannuation', 10]] as const;
export const DWELLINGS = ['House', 'Unit', 'Townhouse', 'Apartment'] as const;
export const VEHICLES = ['Toyota RAV4', 'Mazda CX-5', 'Ford Ranger', 'Tesla Model 3', 'Hyundai i30', 'Kia Sportage'] as const;
export const SUPER_FUNDS = ['AustralianSuper', 'Hostplus', 'REST', 'UniSuper'] as const;

/** Income types with their category, the service's ids for both, and how often they are drawn. */
export const INCOME_TYPES = [
	{ incomeType: 'Base salary', incomeCategory: 'Employment', incomeTypeId: 1, incomeCategoryId: 1, weight: 50 },
	{ incomeType: 'Overtime', incomeCategory: 'Employment', incomeTypeId: 2, incomeCategoryId: 1, weight: 10 },
	{ incomeType: 'Bonus', incomeCategory: 'Employment', incomeTypeId: 3, incomeCategoryId: 1, weight: 8 },
	{ incomeType: 'Rental income', incomeCategory: 'Rental', incomeTypeId: 10, incomeCategoryId: 2, weight: 15 },
	{ incomeType: 'Government benefit', incomeCategory: 'Other', incomeTypeId: 20, incomeCategoryId: 3, weight: 5 },
	{ incomeType: 'Dividends', incomeCategory: 'Other', incomeTypeId: 21, incomeCategoryId: 3, weight: 5 },
	{ incomeType: 'Self-employed income', incomeCategory: 'Self employment', incomeTypeId: 30, incomeCategoryId: 4, weight: 7 },
] as const;
export const SALARY_FREQUENCIES = ['Annually', 'Monthly', 'Fortnightly'] as const;
export const OTHER_INCOME_FREQUENCIES = ['Annually', 'Monthly', 'Weekly'] as const;
export const PERIODS_PER_YEAR: Record<string, number> = { Annually: 1, Monthly: 12, Fortnightly: 26, Weekly: 52 };
export const EMPLOYERS = ['Woolworths', 'NSW Health', 'Telstra', 'BHP', 'Atlassian', 'Qantas', 'Department of Education'] as const;
export const INCOME_VERIFICATIONS = ['Payslips', 'Tax return', 'Bank statements', 'Not verified'] as const;

// --- deals and what belongs to them ---

export const STATUS_WEIGHTS: ReadonlyArray<readonly [SystemStatus, number]> = [
	['NewLeads', 14], ['Researching', 8], ['PreApproved', 6], ['ConditionallyApproved', 6],
	['UnconditionallyApproved', 5], ['Lodged', 8], ['InProgress', 10], ['PendingSettlement', 5],
	['Varied', 2], ['Repaid', 3], ['Withdrawn', 4], ['Cancelled', 4], ['Settled', 25],
];

export const DEAL_TYPE_WEIGHTS: ReadonlyArray<readonly [DealType, number]> = [
	['Residential', 70], ['Commercial', 8], ['SmallBusiness', 6], ['AssetFinance', 8], ['PersonalLoan', 5], ['DepositBond', 3],
];

export const NOTE_COUNT_WEIGHTS: ReadonlyArray<readonly [number, number]> = [[0, 25], [1, 35], [2, 25], [3, 15]];

export const AMOUNT_RANGE: Record<DealType, [number, number]> = {
	Residential: [250_000, 1_600_000],
	Commercial: [500_000, 4_000_000],
	SmallBusiness: [50_000, 750_000],
	AssetFinance: [20_000, 150_000],
	PersonalLoan: [5_000, 60_000],
	DepositBond: [20_000, 150_000],
};

export const LOAN_PURPOSES = [
	'Owner occupied purchase', 'Investment purchase', 'Refinance', 'Construction', 'Equity release',
	'Debt consolidation', 'First home purchase', 'Bridging finance',
] as const;

export const SUMMARY_NOTES = [
	'Client wants to refinance to a lower rate and consolidate a car loan.',
	'First home buyers; 10% deposit plus the first home owner grant.',
	'Upgrading to a larger home in the same suburb.',
	'Investor purchasing a second unit; interest-only preferred.',
	'Construction loan for a knockdown rebuild.',
	'Self-employed; two years of tax returns available.',
	'Bridging finance needed while the current home sells.',
	'Releasing equity for renovations and a new kitchen.',
	"Clients' parents are acting as guarantors.",
	'Fixed rate expiring in March; wants offset account.',
] as const;

export const NOTE_TITLES = [
	'Initial call', 'Fact find completed', 'Valuation ordered', 'Valuation received', 'Payslips received',
	'Application lodged', 'Conditional approval', 'Loan documents issued', 'Settlement booked',
	'Follow-up call', 'Rate review', 'Client meeting',
] as const;

export const NOTE_DETAILS = [
	'Spoke with the client about their borrowing capacity and next steps.',
	'Requested the last two payslips and 3 months of bank statements.',
	'Valuation came in at contract price. LVR is fine.',
	'Lender asked for an explanation of the credit card limit.',
	'Client prefers a 2-year fixed split with an offset on the variable portion.',
	'Settlement agent confirmed the date; docs to be signed by Friday.',
	"Client's accountant will send the 2025 tax return.",
	'Discussed LMI options; client will capitalise the premium.',
] as const;

export const LOAN_STRUCTURE_WEIGHTS = [['PrincipalInterest', 70], ['InterestOnly', 20], ['RevolvingCredit', 5], ['Offset', 5]] as const;
export const LOAN_TERMS_YEARS = [30, 30, 30, 25, 20] as const;
export const REPAYMENT_FREQUENCY_WEIGHTS = [['Monthly', 70], ['Fortnightly', 20], ['Weekly', 10]] as const;
/** Repayments a year per repayment frequency. */
export const REPAYMENTS_PER_YEAR: Record<string, number> = { Yearly: 1, HalfYearly: 2, Quarterly: 4, Monthly: 12, Fortnightly: 26, Weekly: 52, HalfMonthly: 24 };

/** The milestone dates of a deal's `dates`, in the order the service lists them. */
export const DEAL_DATE_KEYS = [
	'settled', 'lodged', 'financeClause', 'notProceeding', 'approved', 'preApproved', 'conditionallyApproved', 'preApprovedExpiry', 'estimatedSettled',
] as const;

/** Deal statuses after lodgement, after conditional approval, after approval and after settlement. */
export const SUBMITTED_STATUSES = ['Lodged', 'ConditionallyApproved', 'UnconditionallyApproved', 'PendingSettlement', 'Settled', 'Varied', 'Repaid'];
export const CONDITIONALLY_APPROVED_STATUSES = SUBMITTED_STATUSES.slice(1);
export const APPROVED_STATUSES = CONDITIONALLY_APPROVED_STATUSES.slice(1);
export const SETTLED_STATUSES = ['Settled', 'Varied', 'Repaid'];

/** The choices of a deal security's attributes. */
export const SECURITY_CHOICES = {
	contactForAccess: ['Other', 'LoanParty'],
	titleType: ['Torrens', 'Strata', 'Community'],
	title: ['Freehold', 'Leasehold'],
	valuationBasis: ['Contract of sale', 'Desktop valuation', 'Full valuation'],
	propertyType: ['House', 'Unit', 'Townhouse', 'Vacant land'],
	propertyZoning: ['Residential', 'Rural residential', 'Commercial'],
	propertyHolding: ['Sole', 'Joint tenants', 'Tenants in common'],
	propertyPrimaryPurpose: ['Owner occupied', 'Investment'],
	propertyStatus: ['Established', 'New'],
	propertyTransaction: ['Purchase', 'Refinance', 'Existing security'],
	securityType: ['Primary', 'Additional'],
	accessContactTitle: ['Mr', 'Ms', 'Mrs'],
} as const;

// --- tasks ---

/** How many tasks are seeded. */
export const TASK_COUNT = 40;
export const TASK_DUE_FROM_MS = Date.UTC(2026, 8, 1);
export const TASK_DUE_TO_MS = Date.UTC(2027, 2, 1);
export const TASK_UTC_OFFSETS = ['+10:00', '+11:00', '+08:00'] as const;

export const TASK_TITLES = [
	'Call client re valuation', 'Chase payslips', 'Send fact find', 'Annual review', 'Check fixed rate expiry',
	'Book settlement', 'Follow up conditional approval', 'Prepare credit proposal', 'Birthday call', 'Review LMI quote',
] as const;

export const TASK_DETAILS = [
	'<p>Follow up on the <strong>payslips</strong> before Friday.</p>',
	'<p>Client asked for a call after 5pm.</p>',
	'<ul><li>Confirm deposit</li><li>Confirm settlement date</li></ul>',
	null,
	'<p>Rate review: compare with <em>three</em> lenders.</p>',
] as const;

export const TASK_PROGRESS_WEIGHTS = [['NotStarted', 40], ['InProgress', 25], ['Completed', 25], ['OnHold', 5], ['NotRequired', 5]] as const;
export const TASK_PRIORITY_WEIGHTS = [['Normal', 50], ['Medium', 25], ['High', 18], ['Critical', 7]] as const;

// --- the type lists of a fact find (public description `IncomeTypeAttributes`, …) ---

/**
 * The lists a fact find's type ids come from, each record with the id the service gives it. Income
 * types and categories are the seeded incomes' own (INCOME_TYPES), so an income read back names its
 * type as a seeded one does. A type points at its category (`incomeCategory`, …); a liability type
 * lists its sub-types; a property type names its zoning. Asset types have no category in the
 * description (asset categories are a list of their own).
 */
export interface TypeRow {
	id: number;
	name: string;
	category?: number;
	subTypes?: readonly number[];
}

export const INCOME_CATEGORIES: ReadonlyArray<{ id: number; description: string }> = [
	{ id: 1, description: 'Employment' },
	{ id: 2, description: 'Rental' },
	{ id: 3, description: 'Other' },
	{ id: 4, description: 'Self employment' },
];
export const INCOME_TYPE_ROWS: readonly TypeRow[] = [...INCOME_TYPES]
	.sort((a, b) => a.incomeTypeId - b.incomeTypeId)
	.map((type) => ({ id: type.incomeTypeId, name: type.incomeType, category: type.incomeCategoryId }));

export const ASSET_CATEGORIES: ReadonlyArray<{ id: number; description: string }> = [
	{ id: 1, description: 'Property' },
	{ id: 2, description: 'Vehicles' },
	{ id: 3, description: 'Savings and investments' },
	{ id: 4, description: 'Superannuation' },
	{ id: 5, description: 'Other' },
];
export const ASSET_TYPE_ROWS: readonly TypeRow[] = [
	{ id: 1, name: 'Real estate' },
	{ id: 2, name: 'Motor vehicle' },
	{ id: 3, name: 'Savings account' },
	{ id: 4, name: 'Shares' },
	{ id: 5, name: 'Superannuation' },
	{ id: 6, name: 'Home contents' },
	{ id: 9, name: 'Other' },
];
export const ASSET_SUB_TYPE_ROWS: readonly TypeRow[] = [
	{ id: 1, name: 'House' },
	{ id: 2, name: 'Unit' },
	{ id: 3, name: 'Townhouse' },
	{ id: 4, name: 'Vacant land' },
	{ id: 5, name: 'Car' },
	{ id: 6, name: 'Motorbike' },
];

export const LIABILITY_CATEGORIES: ReadonlyArray<{ id: number; description: string }> = [
	{ id: 1, description: 'Loans' },
	{ id: 2, description: 'Credit' },
	{ id: 3, description: 'Other' },
];
export const LIABILITY_SUB_TYPE_ROWS: readonly TypeRow[] = [
	{ id: 1, name: 'Owner occupied' },
	{ id: 2, name: 'Investment' },
	{ id: 3, name: 'Line of credit' },
	{ id: 4, name: 'Standard' },
	{ id: 5, name: 'Low rate' },
	{ id: 6, name: 'Rewards' },
];
export const LIABILITY_TYPE_ROWS: readonly TypeRow[] = [
	{ id: 1, name: 'Mortgage loan', category: 1, subTypes: [1, 2, 3] },
	{ id: 2, name: 'Personal loan', category: 1 },
	{ id: 3, name: 'Car loan', category: 1 },
	{ id: 4, name: 'Credit card', category: 2, subTypes: [4, 5, 6] },
	{ id: 5, name: 'Store card', category: 2 },
	{ id: 6, name: 'HECS-HELP debt', category: 3 },
	{ id: 7, name: 'Tax debt', category: 3 },
];

export const EXPENSE_CATEGORIES: ReadonlyArray<{ id: number; description: string }> = [
	{ id: 1, description: 'Living expenses' },
	{ id: 2, description: 'Housing' },
	{ id: 3, description: 'Other' },
];
export const EXPENSE_TYPE_ROWS: readonly TypeRow[] = [
	{ id: 1, name: 'Groceries', category: 1 },
	{ id: 2, name: 'Utilities', category: 1 },
	{ id: 3, name: 'Transport', category: 1 },
	{ id: 4, name: 'Insurance', category: 1 },
	{ id: 5, name: 'Childcare', category: 1 },
	{ id: 6, name: 'Rent', category: 2 },
	{ id: 7, name: 'Council rates', category: 2 },
	{ id: 8, name: 'Entertainment', category: 3 },
	{ id: 9, name: 'Other', category: 3 },
	{ id: 10, name: 'General living expenses', category: 1 },
];

export const PROPERTY_TYPE_ROWS: ReadonlyArray<{ id: number; name: string; zoning: string; zoningId: number }> = [
	{ id: 1, name: 'House', zoning: 'Residential', zoningId: 1 },
	{ id: 2, name: 'Unit', zoning: 'Residential', zoningId: 1 },
	{ id: 3, name: 'Townhouse', zoning: 'Residential', zoningId: 1 },
	{ id: 4, name: 'Vacant land', zoning: 'Residential', zoningId: 1 },
	{ id: 5, name: 'Office', zoning: 'Commercial', zoningId: 2 },
	{ id: 6, name: 'Farm', zoning: 'Rural', zoningId: 3 },
];
