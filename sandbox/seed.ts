/**
 * Deterministic, realistic-looking data for the sandbox (Australian names, suburbs, lenders).
 *
 * Deals are held as typed-array columns and turned into records on demand; deal structures,
 * deal notes and deal external references are generated on demand from the deal they belong to
 * (see `GeneratedTable` / `ChildTable`); a deal's `dates`, `opportunity`, `splits` and
 * `customStatusName` are computed when asked for. Only changed or created records are stored,
 * so 100 000 deals start in a fraction of a second. Every small table is built eagerly.
 */
import { DAY_MS, Rng, hash32, isoDate, isoTimestamp } from './random';
import { DEAL_TYPE, SYSTEM_STATUS } from './schema';
import type { DealType, SystemStatus } from './schema';
import { ChildTable, GeneratedTable, MapTable, Rec, Store, ViewTable } from './store';
import type { FixtureIds } from './types';

export const FIRST_ID = {
	integrations: 11,
	'custom-statuses': 21,
	'contact-categories': 31,
	organisations: 41,
	advisers: 501,
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
} as const;

/** First adviser contact id (UserId values are 1001, 1002, …). */
export const ADVISER_CONTACT_ID_BASE = 1001;

export interface Sizes {
	deals: number;
	contacts: number;
	incomes: number;
	dealSecurities: number;
}

export const DEFAULT_SIZES: Sizes = { deals: 250, contacts: 120, incomes: 150, dealSecurities: 150 };

export interface SeededData {
	store: Store;
	ids: FixtureIds;
	/** Adviser contact id (UserId) → adviser resource id. */
	adviserByContactId: Map<string, number>;
}

// ---------------------------------------------------------------------------------------------
// Word lists
// ---------------------------------------------------------------------------------------------

const FEMALE_NAMES = [
	'Olivia', 'Charlotte', 'Amelia', 'Isla', 'Mia', 'Chloe', 'Sophie', 'Grace', 'Ruby', 'Zoe',
	'Priya', 'Mei', 'Linh', 'Fatima', 'Giulia', 'Eleni', 'Aroha', 'Matilda', 'Evie', 'Ava',
	'Zoë', 'Siobhán', 'Thi', 'Kirra', 'Maddison', 'Tahlia',
] as const;

const MALE_NAMES = [
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

interface Place {
	suburb: string;
	state: string;
	postCode: string;
}

const PLACES: readonly Place[] = [
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

const STREETS = [
	'George Street', 'King Street', 'Victoria Road', 'Church Street', 'High Street', 'Station Street',
	'Railway Parade', 'Park Avenue', 'Beach Road', 'Elizabeth Street', 'Queen Street', 'Main Road',
	'Bridge Road', 'Ocean Street', 'Wattle Avenue', 'Banksia Crescent', 'Jacaranda Drive', 'Waratah Street',
] as const;

export const LENDERS = [
	'Commonwealth Bank', 'Westpac', 'ANZ', 'NAB', 'Macquarie Bank', 'ING', 'St.George Bank', 'Bankwest',
	'Suncorp Bank', 'Bank of Queensland', 'ME Bank', 'Pepper Money', 'Liberty Financial', 'Athena Home Loans',
	'Bendigo Bank', 'AMP Bank', 'HSBC', 'Heritage Bank', 'Newcastle Permanent', 'La Trobe Financial',
] as const;

const LOAN_PURPOSES = [
	'Owner occupied purchase', 'Investment purchase', 'Refinance', 'Construction', 'Equity release',
	'Debt consolidation', 'First home purchase', 'Bridging finance',
] as const;

const SUMMARY_NOTES = [
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

const NOTE_TITLES = [
	'Initial call', 'Fact find completed', 'Valuation ordered', 'Valuation received', 'Payslips received',
	'Application lodged', 'Conditional approval', 'Loan documents issued', 'Settlement booked',
	'Follow-up call', 'Rate review', 'Client meeting',
] as const;

const NOTE_DETAILS = [
	'Spoke with the client about their borrowing capacity and next steps.',
	'Requested the last two payslips and 3 months of bank statements.',
	'Valuation came in at contract price. LVR is fine.',
	'Lender asked for an explanation of the credit card limit.',
	'Client prefers a 2-year fixed split with an offset on the variable portion.',
	'Settlement agent confirmed the date; docs to be signed by Friday.',
	"Client's accountant will send the 2025 tax return.",
	'Discussed LMI options; client will capitalise the premium.',
] as const;

const STATUS_WEIGHTS: ReadonlyArray<readonly [SystemStatus, number]> = [
	['NewLeads', 14], ['Researching', 8], ['PreApproved', 6], ['ConditionallyApproved', 6],
	['UnconditionallyApproved', 5], ['Lodged', 8], ['InProgress', 10], ['PendingSettlement', 5],
	['Varied', 2], ['Repaid', 3], ['Withdrawn', 4], ['Cancelled', 4], ['Settled', 25],
];

const DEAL_TYPE_WEIGHTS: ReadonlyArray<readonly [DealType, number]> = [
	['Residential', 70], ['Commercial', 8], ['SmallBusiness', 6], ['AssetFinance', 8], ['PersonalLoan', 5], ['DepositBond', 3],
];

const NOTE_COUNT_WEIGHTS: ReadonlyArray<readonly [number, number]> = [[0, 25], [1, 35], [2, 25], [3, 15]];

const AMOUNT_RANGE: Record<DealType, [number, number]> = {
	Residential: [250_000, 1_600_000],
	Commercial: [500_000, 4_000_000],
	SmallBusiness: [50_000, 750_000],
	AssetFinance: [20_000, 150_000],
	PersonalLoan: [5_000, 60_000],
	DepositBond: [20_000, 150_000],
};

const ADVISERS = [
	{ first: 'Sarah', last: 'Mitchell', org: 0 },
	{ first: 'David', last: 'Nguyen', org: 0 },
	{ first: 'Priya', last: 'Sharma', org: 1 },
	{ first: 'Tom', last: "O'Brien", org: 2 },
	{ first: 'Emma', last: 'Wilson', org: 3 },
	{ first: 'Marcus', last: 'Chen', org: 4 },
] as const;

const ORGANISATIONS = [
	{ name: 'Harbour City Home Loans Pty Ltd', trading: 'Harbour City Home Loans', domain: 'harbourcityloans.com.au', place: 0, addresses: 2 },
	{ name: 'Southern Cross Finance Group Pty Ltd', trading: 'Southern Cross Finance', domain: 'southerncrossfinance.com.au', place: 7, addresses: 1 },
	{ name: 'Sunshine Coast Lending Pty Ltd', trading: 'Sunshine Lending', domain: 'sunshinelending.com.au', place: 15, addresses: 2 },
	{ name: 'Swan River Mortgage Co Pty Ltd', trading: 'Swan River Mortgages', domain: 'swanrivermortgages.com.au', place: 20, addresses: 1 },
	{ name: 'Adelaide Hills Finance Pty Ltd', trading: 'Adelaide Hills Finance', domain: 'adelaidehillsfinance.com.au', place: 24, addresses: 0 },
] as const;

/** [name, sortOrder] – ids 21… in this order; sortOrder is deliberately not the id order. */
const CUSTOM_STATUSES: ReadonlyArray<readonly [string, number]> = [
	['Docs requested', 3], ['Awaiting valuation', 5], ['Client reviewing', 2], ['Credit assessment', 6],
	['First contact', 1], ['Settlement booked', 8], ['Waiting on payslips', 4], ['Loan docs issued', 7],
];

const INTEGRATIONS = [
	['MyIntegrationSource', 'Lead source used by the website enquiry form.', 'MIS'],
	['Salesforce', 'Two-way sync with the Salesforce org.', 'SF'],
	['HubSpot CRM', null, 'HS'],
	['Broker Portal', 'Partner portal for referrers.', 'BP'],
] as const;

const CONTACT_CATEGORIES = [
	'VIP', 'First home buyer', 'Investor', 'Refinancer', 'Self-employed', 'Commercial', 'Referral partner', 'Past client',
] as const;

const TASK_TITLES = [
	'Call client re valuation', 'Chase payslips', 'Send fact find', 'Annual review', 'Check fixed rate expiry',
	'Book settlement', 'Follow up conditional approval', 'Prepare credit proposal', 'Birthday call', 'Review LMI quote',
] as const;

const TASK_DETAILS = [
	'<p>Follow up on the <strong>payslips</strong> before Friday.</p>',
	'<p>Client asked for a call after 5pm.</p>',
	'<ul><li>Confirm deposit</li><li>Confirm settlement date</li></ul>',
	null,
	'<p>Rate review: compare with <em>three</em> lenders.</p>',
] as const;

const START_MS = Date.UTC(2024, 0, 1);
const CREATED_END_MS = Date.UTC(2026, 9, 31);
const UPDATED_END_MS = Date.UTC(2026, 10, 15);

// Salts of the per-record random streams.
const SALT = {
	deal: 1,
	split: 2,
	structure: 3,
	note: 4,
	dealMeta: 5,
	ext: 6,
	contact: 7,
	security: 8,
	income: 9,
	asset: 10,
	task: 11,
	group: 12,
	contactExt: 13,
	opportunity: 14,
	dates: 15,
} as const;

/** A timestamp in [from, to): whole seconds for about half the records, milliseconds otherwise. */
function stamp(r: Rng, from: number, to: number): number {
	const ms = from + Math.floor(r.next() * Math.max(1, to - from));
	return r.chance(0.5) ? ms - (ms % 1000) : ms;
}

function emailFor(first: string, last: string, domain: string): string {
	const clean = (s: string) =>
		s
			.normalize('NFD')
			.replace(/[\u0300-\u036f]/g, '')
			.replace(/[^A-Za-z]/g, '')
			.toLowerCase();
	return `${clean(first)}.${clean(last)}@${domain}`;
}

function mobile(r: Rng): string {
	return `+614${r.digits(8)}`;
}

function landline(r: Rng, state: string): string {
	const area: Record<string, string> = { NSW: '2', ACT: '2', VIC: '3', TAS: '3', QLD: '7', WA: '8', SA: '8', NT: '8' };
	return `+61${area[state] ?? '2'}${r.digits(8)}`;
}

function fullAddress(r: Rng, place: Place): { streetAddress: string; formattedAddress: string } {
	const streetAddress = `${r.int(1, 240)} ${r.pick(STREETS)}`;
	return { streetAddress, formattedAddress: `${streetAddress}, ${place.suburb} ${place.state} ${place.postCode}` };
}

function round2(n: number): number {
	return Math.round(n * 100) / 100;
}

/** Monthly-equivalent repayment of an amortising loan, scaled to the repayment frequency. */
function repayment(amount: number, rate: number, years: number, interestOnly: boolean, frequency: string): number {
	const perYear: Record<string, number> = { Yearly: 1, HalfYearly: 2, Quarterly: 4, Monthly: 12, Fortnightly: 26, Weekly: 52, HalfMonthly: 24 };
	const n = perYear[frequency] ?? 12;
	const r = rate / n;
	if (interestOnly || r === 0) return round2(amount * r);
	const periods = years * n;
	return round2((amount * r) / (1 - (1 + r) ** -periods));
}

/** Splits a deal total into `count` structure amounts (deterministic per deal). */
export function splitAmounts(seed: number, dealId: number, count: number, total: number): number[] {
	if (count === 0) return [];
	const r = new Rng(hash32(seed, SALT.split, dealId));
	const weights = Array.from({ length: count }, () => 0.5 + r.next());
	const sum = weights.reduce((a, b) => a + b, 0);
	const amounts = weights.map((w) => Math.round((total * w) / sum / 1000) * 1000);
	amounts[count - 1] = total - amounts.slice(0, -1).reduce((a, b) => a + b, 0);
	return amounts;
}

interface DealFixture {
	status: SystemStatus;
	dealType: DealType;
	notes: number;
	structures: number;
	customStatus: number | null;
	name?: string;
	lender?: string | null;
	adviser?: number;
}

/** Deals 10001–10004 are fixed so tests can rely on them. */
const DEAL_FIXTURES: readonly DealFixture[] = [
	{ status: 'InProgress', dealType: 'Residential', notes: 3, structures: 2, customStatus: FIRST_ID['custom-statuses'] + 1, name: 'Nguyen, Thi & Andrew', lender: 'Westpac', adviser: 0 },
	{ status: 'NewLeads', dealType: 'Residential', notes: 0, structures: 0, customStatus: null, name: 'Taylor, Grace', lender: null, adviser: 0 },
	{ status: 'Settled', dealType: 'Residential', notes: 1, structures: 1, customStatus: FIRST_ID['custom-statuses'] + 5, name: 'Papadopoulos, Nikos & Eleni', lender: 'Commonwealth Bank', adviser: 1 },
	{ status: 'Researching', dealType: 'Residential', notes: 1, structures: 1, customStatus: null, name: "O'Connor, Liam", lender: null, adviser: 2 },
];

/**
 * Builds the store. With `dealIds` (ascending, from `FIRST_ID.deals` up), the deals are the
 * generated ones up to the highest of them, of which only these exist: an id layout with gaps
 * (sandbox/layouts.ts), as if the others had been deleted, with their notes, structures and
 * external references, before the start. `sizes.deals` is then not used.
 */
export function seedStore(seed: number, sizes: Sizes, dealIds?: readonly number[]): SeededData {
	const store = new Store();
	if (dealIds !== undefined && !dealIds.every((id, index) => Number.isInteger(id) && id >= FIRST_ID.deals && (index === 0 || id > dealIds[index - 1]))) {
		throw new Error(`dealIds must be ascending whole numbers from ${FIRST_ID.deals} up`);
	}
	const nDeals = dealIds === undefined ? Math.max(0, Math.floor(sizes.deals)) : dealIds.length === 0 ? 0 : dealIds[dealIds.length - 1] - FIRST_ID.deals + 1;
	const nContacts = Math.max(0, Math.floor(sizes.contacts));
	const nIncomes = Math.max(0, Math.floor(sizes.incomes));
	const nSecurities = Math.max(0, Math.floor(sizes.dealSecurities));
	const base = new Rng(hash32(seed, 99));

	// --- organisations, addresses, advisers, custom statuses, integrations, categories --------------
	const orgs = new MapTable('organisations', FIRST_ID.organisations);
	const orgAddresses = new MapTable('organisation-addresses', FIRST_ID['organisation-addresses']);
	ORGANISATIONS.forEach((o, i) => {
		const id = FIRST_ID.organisations + i;
		const addressIds: number[] = [];
		for (let a = 0; a < o.addresses; a++) {
			const place = PLACES[(o.place + a * 3) % PLACES.length];
			const address = fullAddress(base, place);
			const addressId = orgAddresses.nextId();
			orgAddresses.insert({
				id: addressId,
				attributes: {
					isMailing: a === 0,
					isCustomAddress: a === 1 ? true : null,
					formattedAddress: `${a === 0 ? `Level ${base.int(1, 12)}, ` : ''}${address.formattedAddress}`,
					streetAddress: address.streetAddress,
					country: 'Australia',
					suburb: place.suburb,
					postCode: place.postCode,
					state: place.state,
				},
				rels: {},
			});
			addressIds.push(addressId);
		}
		const created = stamp(base, START_MS - 400 * DAY_MS, START_MS);
		orgs.insert({
			id,
			attributes: {
				name: o.name,
				tradingName: o.trading,
				abn: `${base.int(10, 99)} ${base.digits(3)} ${base.digits(3)} ${base.digits(3)}`,
				email: `info@${o.domain}`,
				phone: landline(base, PLACES[o.place].state),
				created: isoTimestamp(created),
				updated: isoTimestamp(stamp(base, created, UPDATED_END_MS)),
			},
			rels: {
				addresses: addressIds,
				customStatuses: i === 0 ? CUSTOM_STATUSES.map((_, s) => FIRST_ID['custom-statuses'] + s) : [],
			},
		});
	});
	store.addTable(orgs);
	store.addTable(orgAddresses);

	const advisers = new MapTable('advisers', FIRST_ID.advisers);
	const adviserByContactId = new Map<string, number>();
	const adviserNames = new Map<number, string>();
	ADVISERS.forEach((a, i) => {
		const id = FIRST_ID.advisers + i;
		const org = ORGANISATIONS[a.org];
		const created = stamp(base, START_MS - 700 * DAY_MS, START_MS);
		advisers.insert({
			id,
			attributes: {
				firstName: a.first,
				lastName: a.last,
				preferredName: null,
				email: emailFor(a.first, a.last, org.domain),
				mobile: mobile(base),
				isBrokerWebPublic: i !== ADVISERS.length - 1,
				created: isoTimestamp(created),
				updated: isoTimestamp(stamp(base, created, UPDATED_END_MS)),
			},
			rels: { organisation: FIRST_ID.organisations + a.org },
		});
		adviserByContactId.set(String(ADVISER_CONTACT_ID_BASE + i), id);
		adviserNames.set(id, `${a.first} ${a.last}`);
	});
	store.addTable(advisers);
	const adviserIds = ADVISERS.map((_, i) => FIRST_ID.advisers + i);

	const statuses = new MapTable('custom-statuses', FIRST_ID['custom-statuses']);
	CUSTOM_STATUSES.forEach(([name, sortOrder], i) => {
		statuses.insert({ id: FIRST_ID['custom-statuses'] + i, attributes: { name, sortOrder }, rels: {} });
	});
	store.addTable(statuses);
	const statusIds = CUSTOM_STATUSES.map((_, i) => FIRST_ID['custom-statuses'] + i);

	const integrations = new MapTable('integrations', FIRST_ID.integrations);
	INTEGRATIONS.forEach(([name, description], i) => {
		const created = stamp(base, START_MS - 300 * DAY_MS, START_MS);
		integrations.insert({
			id: FIRST_ID.integrations + i,
			attributes: { name, description, created: isoTimestamp(created), updated: isoTimestamp(created + DAY_MS) },
			rels: {},
		});
	});
	store.addTable(integrations);
	const integrationIds = INTEGRATIONS.map((_, i) => FIRST_ID.integrations + i);

	const categories = new MapTable('contact-categories', FIRST_ID['contact-categories']);
	CONTACT_CATEGORIES.forEach((name, i) => {
		categories.insert({ id: FIRST_ID['contact-categories'] + i, attributes: { name, orderBy: i + 1 }, rels: {} });
	});
	store.addTable(categories);

	// --- contacts and contact groups ------------------------------------------------------------------
	const contacts = new MapTable('contacts', FIRST_ID.contacts);
	const groups = new MapTable('contact-groups', FIRST_ID['contact-groups']);
	const contactRefs = new MapTable('contact-external-references', FIRST_ID['contact-external-references']);
	let contactIndex = 0;
	while (contactIndex < nContacts) {
		const groupId = groups.nextId();
		const gr = new Rng(hash32(seed, SALT.group, groupId));
		const members = Math.min(nContacts - contactIndex, gr.weighted([[1, 45], [2, 45], [3, 10]] as const));
		const familyName = gr.pick(LAST_NAMES);
		const place = gr.pick(PLACES);
		const groupCreated = stamp(gr, START_MS, CREATED_END_MS);
		const firstNames: string[] = [];
		for (let m = 0; m < members; m++) {
			const id = FIRST_ID.contacts + contactIndex;
			const r = new Rng(hash32(seed, SALT.contact, id));
			const isChild = m === 2;
			const lastName = contactIndex === 1 ? "O'Brien" : familyName;
			const gender = r.weighted([['Female', 48], ['Male', 48], ['Undisclosed', 4]] as const);
			const first = r.pick(gender === 'Female' ? FEMALE_NAMES : gender === 'Male' ? MALE_NAMES : FIRST_NAMES);
			firstNames.push(first);
			const created = m === 0 ? groupCreated : stamp(r, groupCreated, CREATED_END_MS);
			const dob = isChild ? stamp(r, Date.UTC(2010, 0, 1), Date.UTC(2020, 0, 1)) : stamp(r, Date.UTC(1950, 0, 1), Date.UTC(2003, 0, 1));
			contacts.insert({
				id,
				attributes: {
					mobile: isChild ? null : mobile(r),
					homePhone: r.chance(0.3) ? landline(r, place.state) : null,
					businessPhone: r.chance(0.15) ? landline(r, place.state) : null,
					title: isChild ? null : r.pick(gender === 'Male' ? ['Mr', 'Mr', 'Dr'] : ['Ms', 'Mrs', 'Miss', 'Dr']),
					firstName: first,
					middleName: r.chance(0.3) ? r.pick(gender === 'Female' ? FEMALE_NAMES : MALE_NAMES) : null,
					lastName,
					preferredName: r.chance(0.15) ? first.slice(0, 3) : null,
					email: isChild ? null : emailFor(first, lastName, r.pick(['gmail.com', 'outlook.com', 'bigpond.com', 'icloud.com', 'yahoo.com.au'])),
					secondaryEmail: r.chance(0.1) ? emailFor(first, lastName, 'work.example.com.au') : null,
					maritalStatus: isChild ? 'Single' : r.pick(members > 1 ? ['Married', 'DeFacto'] : ['Single', 'Separated', 'Divorced', 'Widowed', 'Single']),
					gender,
					hasMarketingConsent: r.chance(0.6),
					dateOfBirth: isoDate(dob),
					isPrimary: m === 0,
					role: isChild ? 'Child' : r.chance(0.03) ? 'Other' : 'Adult',
					created: isoTimestamp(created),
					updated: isoTimestamp(stamp(r, created, UPDATED_END_MS)),
				},
				rels: { contactGroup: groupId },
			});
			if (contactIndex === 0 || r.chance(0.5)) {
				const integration = contactIndex === 0 ? integrationIds[0] : r.pick(integrationIds);
				const prefix = INTEGRATIONS[integration - FIRST_ID.integrations][2];
				contactRefs.insert({
					id: contactRefs.nextId(),
					attributes: { externalReference: contactIndex === 0 ? 'CUST-0001' : `${prefix}-C${r.digits(6)}` },
					rels: { contact: id, integration },
				});
			}
			contactIndex++;
		}
		const cats: string[] = [];
		if (gr.chance(0.5)) cats.push(gr.pick(CONTACT_CATEGORIES));
		if (gr.chance(0.2)) {
			const extra = gr.pick(CONTACT_CATEGORIES);
			if (!cats.includes(extra)) cats.push(extra);
		}
		groups.insert({
			id: groupId,
			attributes: {
				name: `${familyName}, ${firstNames.slice(0, 2).join(' & ')}`,
				categories: cats,
				utmCampaign: gr.chance(0.2) ? gr.pick(['spring-refi-2026', 'fhb-webinar', 'google-ads-brand']) : null,
				created: isoTimestamp(groupCreated),
				updated: isoTimestamp(stamp(gr, groupCreated, UPDATED_END_MS)),
			},
			rels: { adviser: gr.pick(adviserIds) },
		});
	}
	store.addTable(contacts);
	store.addTable(groups);
	store.addTable(contactRefs);
	const groupIds = [...groups.ids()];

	// --- assets, financial addresses, incomes -------------------------------------------------------
	const nAssets = Math.max(20, Math.ceil(nContacts / 2));
	const assets = new MapTable('assets', FIRST_ID.assets);
	const finAddresses = new MapTable('financial-address', FIRST_ID['financial-address']);
	const realEstate: number[] = [];
	for (let i = 0; i < nAssets; i++) {
		const id = FIRST_ID.assets + i;
		const r = new Rng(hash32(seed, SALT.asset, id));
		const assetType =
			i === 0 ? 'RealEstate' : i === 1 ? 'MotorVehicle' : r.weighted([['RealEstate', 40], ['MotorVehicle', 20], ['Savings', 20], ['Shares', 10], ['Superannuation', 10]] as const);
		const addresses: number[] = [];
		let description: string;
		let value: number;
		if (assetType === 'RealEstate') {
			const place = r.pick(PLACES);
			const address = fullAddress(r, place);
			const addressId = finAddresses.nextId();
			finAddresses.insert({
				id: addressId,
				attributes: { ...address, country: 'Australia', suburb: place.suburb, postCode: place.postCode, state: place.state },
				rels: {},
			});
			addresses.push(addressId);
			description = `${r.pick(['House', 'Unit', 'Townhouse', 'Apartment'])} – ${address.formattedAddress}`;
			value = r.amount(450_000, 2_500_000, 5000);
			realEstate.push(id);
		} else if (assetType === 'MotorVehicle') {
			description = `${r.int(2012, 2026)} ${r.pick(['Toyota RAV4', 'Mazda CX-5', 'Ford Ranger', 'Tesla Model 3', 'Hyundai i30', 'Kia Sportage'])}`;
			value = r.amount(8_000, 75_000, 500);
		} else if (assetType === 'Savings') {
			description = `${r.pick(LENDERS)} savings account`;
			value = r.amount(2_000, 150_000, 10);
		} else if (assetType === 'Shares') {
			description = 'Share portfolio';
			value = r.amount(5_000, 400_000, 100);
		} else {
			description = `${r.pick(['AustralianSuper', 'Hostplus', 'REST', 'UniSuper'])} balance`;
			value = r.amount(20_000, 900_000, 100);
		}
		const created = stamp(r, START_MS, CREATED_END_MS);
		assets.insert({
			id,
			attributes: { description, value, assetType, created: isoTimestamp(created), updated: isoTimestamp(stamp(r, created, UPDATED_END_MS)) },
			rels: { addresses },
		});
	}
	store.addTable(assets);
	store.addTable(finAddresses);

	const incomes = new MapTable('incomes', FIRST_ID.incomes);
	const INCOME_TYPES = [
		['Base salary', 'Employment', 1, 1],
		['Overtime', 'Employment', 2, 1],
		['Bonus', 'Employment', 3, 1],
		['Rental income', 'Rental', 10, 2],
		['Government benefit', 'Other', 20, 3],
		['Dividends', 'Other', 21, 3],
		['Self-employed income', 'Self employment', 30, 4],
	] as const;
	for (let i = 0; i < nIncomes; i++) {
		const id = FIRST_ID.incomes + i;
		const r = new Rng(hash32(seed, SALT.income, id));
		const [incomeType, incomeCategory, incomeTypeId, incomeCategoryId] = r.weighted(
			INCOME_TYPES.map((t, k) => [t, [50, 10, 8, 15, 5, 5, 7][k]] as const),
		);
		const frequency = incomeType === 'Base salary' ? r.pick(['Annually', 'Monthly', 'Fortnightly']) : r.pick(['Annually', 'Monthly', 'Weekly']);
		const annual = incomeType === 'Base salary' ? r.amount(55_000, 240_000, 500) : r.amount(2_000, 60_000, 100);
		const divisor: Record<string, number> = { Annually: 1, Monthly: 12, Fortnightly: 26, Weekly: 52 };
		const created = stamp(r, START_MS, CREATED_END_MS);
		incomes.insert({
			id,
			attributes: {
				created: isoTimestamp(created),
				updated: isoTimestamp(stamp(r, created, UPDATED_END_MS)),
				description: incomeType === 'Base salary' ? `Base salary – ${r.pick(['Woolworths', 'NSW Health', 'Telstra', 'BHP', 'Atlassian', 'Qantas', 'Department of Education'])}` : incomeType,
				value: round2(annual / divisor[frequency]),
				incomeTypeId,
				incomeCategoryId,
				incomeVerification: r.pick(['Payslips', 'Tax return', 'Bank statements', 'Not verified']),
				frequency,
				incomeCategory,
				incomeType,
			},
			rels: {
				linkedAsset: incomeType === 'Rental income' && realEstate.length ? r.pick(realEstate) : null,
			},
		});
	}
	store.addTable(incomes);

	// --- deals (columns; records are built on demand) --------------------------------------------------
	const structureStart = new Int32Array(nDeals + 1);
	const noteStart = new Int32Array(nDeals + 1);
	const refStart = new Int32Array(nDeals + 1);
	const refIntegrationList: number[] = [];
	const baseTotals = new Float64Array(nDeals);
	const createdCol = new Float64Array(nDeals);
	const updatedCol = new Float64Array(nDeals);
	const statusCol = new Uint8Array(nDeals);
	const typeCol = new Uint8Array(nDeals);
	const lenderCol = new Uint8Array(nDeals); // 0 = none, else index + 1
	const customStatusCol = new Int32Array(nDeals); // 0 = none
	const adviserCol = new Int32Array(nDeals);
	const lastNameCol = new Uint8Array(nDeals);
	const firstNameCol = new Uint8Array(nDeals);
	const secondNameCol = new Uint8Array(nDeals); // 255 = none
	const contact1Col = new Int32Array(nDeals); // 0 = none
	const contact2Col = new Int32Array(nDeals);
	const fixtureNames = new Map<number, string>();
	const contactIds = [...contacts.ids()];
	const r = new Rng(0);
	const indexOf = <T>(list: readonly T[], value: T) => list.indexOf(value);
	for (let i = 0; i < nDeals; i++) {
		const id = FIRST_ID.deals + i;
		r.reseed(hash32(seed, SALT.deal, id));
		const fixture = DEAL_FIXTURES[i] as DealFixture | undefined;
		const status = fixture?.status ?? r.weighted(STATUS_WEIGHTS);
		const dealType = fixture?.dealType ?? r.weighted(DEAL_TYPE_WEIGHTS);
		const early = status === 'NewLeads' || status === 'Researching';
		const structures =
			fixture?.structures ?? (status === 'NewLeads' && r.chance(0.6) ? 0 : 1 + (r.chance(0.35) ? 1 : 0) + (r.chance(0.1) ? 1 : 0));
		const notes = fixture?.notes ?? r.weighted(NOTE_COUNT_WEIGHTS);
		structureStart[i + 1] = structureStart[i] + structures;
		noteStart[i + 1] = noteStart[i] + notes;
		const range = AMOUNT_RANGE[dealType];
		baseTotals[i] = r.amount(range[0], range[1], 1000);
		statusCol[i] = indexOf(SYSTEM_STATUS, status);
		typeCol[i] = indexOf(DEAL_TYPE, dealType);
		firstNameCol[i] = Math.floor(r.next() * FIRST_NAMES.length);
		lastNameCol[i] = Math.floor(r.next() * LAST_NAMES.length);
		secondNameCol[i] = r.chance(0.3) ? Math.floor(r.next() * FIRST_NAMES.length) : 255;
		if (fixture?.name) fixtureNames.set(i, fixture.name);
		lenderCol[i] = fixture ? (fixture.lender ? LENDERS.indexOf(fixture.lender as (typeof LENDERS)[number]) + 1 : 0) : early && r.chance(0.5) ? 0 : 1 + Math.floor(r.next() * LENDERS.length);
		customStatusCol[i] = (fixture ? fixture.customStatus : r.chance(0.4) ? r.pick(statusIds) : null) ?? 0;
		adviserCol[i] = fixture?.adviser !== undefined ? adviserIds[fixture.adviser] : r.pick(adviserIds);
		const created = stamp(r, START_MS, CREATED_END_MS);
		createdCol[i] = created;
		// about 30% of deals were touched in the last 30 days of the data window
		updatedCol[i] = r.chance(0.3)
			? stamp(r, Math.max(created, UPDATED_END_MS - 30 * DAY_MS), UPDATED_END_MS)
			: stamp(r, created, created + (UPDATED_END_MS - created) * r.next() + 1000);
		if (contactIds.length) {
			const a = r.pick(contactIds);
			const b = r.chance(0.3) ? r.pick(contactIds) : 0;
			contact1Col[i] = b && b < a ? b : a;
			contact2Col[i] = b && b !== a ? (b < a ? a : b) : 0;
		}
		// external references: about one deal in three
		r.reseed(hash32(seed, SALT.ext, id));
		let refs = 0;
		if (i === 0) {
			refIntegrationList.push(integrationIds[0]);
			refs = 1;
		} else if (i === 2) {
			refIntegrationList.push(integrationIds[1]);
			refs = 1;
		} else if (i >= DEAL_FIXTURES.length && r.chance(0.33)) {
			const first = r.pick(integrationIds);
			refIntegrationList.push(first);
			refs = 1;
			if (r.chance(0.1)) {
				const other = r.pick(integrationIds);
				if (other !== first) {
					refIntegrationList.push(other);
					refs = 2;
				}
			}
		}
		refStart[i + 1] = refStart[i] + refs;
	}
	const dealName = (i: number): string => {
		const fixed = fixtureNames.get(i);
		if (fixed) return fixed;
		const last = LAST_NAMES[lastNameCol[i]];
		const first = FIRST_NAMES[firstNameCol[i]];
		return secondNameCol[i] === 255 ? `${last}, ${first}` : `${last}, ${first} & ${FIRST_NAMES[secondNameCol[i]]}`;
	};
	const deals = new GeneratedTable('deals', FIRST_ID.deals, nDeals, (id) => {
		const i = id - FIRST_ID.deals;
		return {
			id,
			attributes: {
				created: isoTimestamp(createdCol[i]),
				updated: isoTimestamp(updatedCol[i]),
				totalLoanAmount: structureStart[i + 1] === structureStart[i] ? null : baseTotals[i],
				name: dealName(i),
				dealStatus: SYSTEM_STATUS[statusCol[i]],
				lenderName: lenderCol[i] === 0 ? null : LENDERS[lenderCol[i] - 1],
				dealType: DEAL_TYPE[typeCol[i]],
			},
			rels: {
				adviser: adviserCol[i],
				customStatus: customStatusCol[i] || null,
				contacts: contact1Col[i] ? (contact2Col[i] ? [contact1Col[i], contact2Col[i]] : [contact1Col[i]]) : [],
			},
		};
	});
	store.addTable(deals);
	const refIntegrations = Int32Array.from(refIntegrationList);
	store.addTable(
		new ChildTable('deal-external-references', 'deal', FIRST_ID['deal-external-references'], FIRST_ID.deals, refStart, (id, dealId, _index, offset) => {
			const integration = refIntegrations[offset];
			const prefix = INTEGRATIONS[integration - FIRST_ID.integrations][2];
			return {
				id,
				attributes: { externalReference: dealId === FIRST_ID.deals ? 'ABC1234' : `${prefix}-${String(dealId).padStart(7, '0')}` },
				rels: { deal: dealId, integration },
			};
		}),
	);
	store.addTable(new ViewTable('leads', deals, (rec) => ({
		id: rec.id,
		attributes: {
			customStatusName: store.attribute('deals', rec, 'customStatusName'),
			dealStatus: rec.attributes.dealStatus,
		},
		rels: {},
	})));

	const dealCreatedMs = (dealId: number): number => {
		const deal = store.get('deals', dealId);
		return deal ? Date.parse(String(deal.attributes.created)) : START_MS;
	};

	// deal structures (generated on demand)
	const generateStructure = (id: number, dealId: number, index: number): Rec => {
		const dealIndex = dealId - FIRST_ID.deals;
		const count = structureStart[dealIndex + 1] - structureStart[dealIndex];
		const amount = splitAmounts(seed, dealId, count, baseTotals[dealIndex])[index];
		const r = new Rng(hash32(seed, SALT.structure, id));
		const loanStructureType = r.weighted([['PrincipalInterest', 70], ['InterestOnly', 20], ['RevolvingCredit', 5], ['Offset', 5]] as const);
		const interestOnly = loanStructureType === 'InterestOnly';
		const fixed = loanStructureType !== 'RevolvingCredit' && r.chance(0.4);
		const rateTermYears = fixed ? r.int(1, 5) : null;
		const interestRate = Math.round((fixed ? 0.0539 + r.next() * 0.011 : 0.0579 + r.next() * 0.012) * 10000) / 10000;
		const loanTermYears = interestOnly ? 30 : r.pick([30, 30, 30, 25, 20]);
		const repaymentFrequency = r.weighted([['Monthly', 70], ['Fortnightly', 20], ['Weekly', 10]] as const);
		const lmiPremium = r.chance(0.2) ? r.amount(2_000, 25_000, 1) : 0;
		const begin = dealCreatedMs(dealId) + r.int(20, 90) * DAY_MS;
		const interestOnlyTermYears = interestOnly ? r.int(1, 5) : null;
		return {
			id,
			attributes: {
				rateTermYears,
				loanStructureType,
				interestRate,
				amount,
				rateType: fixed ? 'Fixed' : 'Variable',
				paymentAmount: repayment(amount, interestRate, loanTermYears, interestOnly, repaymentFrequency),
				accountNumber: r.chance(0.6) ? `${r.digits(3)}-${r.digits(3)} ${r.digits(8)}` : null,
				capitaliseLmi: lmiPremium > 0 && r.chance(0.7),
				isLinkRateExpiry: fixed && r.chance(0.3),
				repaymentFrequency,
				lmiPremium,
				fixedRateExpiryDate: fixed ? isoDate(begin + (rateTermYears ?? 0) * 365 * DAY_MS) : null,
				fixedRateBeginDate: fixed ? isoDate(begin) : null,
				loanTermYears,
				interestOnlyTermYears,
				rateTypePeriodMonths: fixed ? (rateTermYears ?? 0) * 12 : null,
				interestOnlyExpiryDate: interestOnly ? isoDate(begin + (interestOnlyTermYears ?? 0) * 365 * DAY_MS) : null,
			},
			rels: { deal: dealId },
		};
	};
	store.addTable(new ChildTable('deal-structures', 'deal', FIRST_ID['deal-structures'], FIRST_ID.deals, structureStart, generateStructure));

	const generateNote = (id: number, dealId: number, index: number): Rec => {
		const r = new Rng(hash32(seed, SALT.note, id));
		const deal = store.get('deals', dealId);
		const adviser = typeof deal?.rels.adviser === 'number' ? deal.rels.adviser : adviserIds[0];
		const fixtureNote = dealId === FIRST_ID.deals && index === 0;
		return {
			id,
			attributes: {
				title: fixtureNote ? 'Initial call' : r.pick(NOTE_TITLES),
				detail: fixtureNote
					? 'Client\'s "preferred" lender is ANZ — rate must beat 5.89% ✓\nSecond line of the note.'
					: r.pick(NOTE_DETAILS),
				writtenBy: adviserNames.get(adviser) ?? null,
			},
			rels: { deal: dealId },
		};
	};
	store.addTable(new ChildTable('deal-notes', 'deal', FIRST_ID['deal-notes'], FIRST_ID.deals, noteStart, generateNote));

	// lazily computed deal attributes
	const DATE_KEYS = [
		'settled', 'lodged', 'financeClause', 'notProceeding', 'approved', 'preApproved', 'conditionallyApproved', 'preApprovedExpiry', 'estimatedSettled',
	] as const;
	store.materializers.set('deals', {
		customStatusName: (rec) => {
			const statusId = rec.rels.customStatus;
			return typeof statusId === 'number' ? (store.get('custom-statuses', statusId)?.attributes.name ?? null) : null;
		},
		dates: (rec) => {
			const dates: Record<string, string | null> = Object.fromEntries(DATE_KEYS.map((k) => [k, null]));
			if (rec.id - FIRST_ID.deals >= nDeals) return dates;
			const r = new Rng(hash32(seed, SALT.dates, rec.id));
			const status = String(rec.attributes.dealStatus);
			const created = Date.parse(String(rec.attributes.created));
			const day = (from: number, min: number, max: number) => from + r.int(min, max) * DAY_MS;
			const submitted = ['Lodged', 'ConditionallyApproved', 'UnconditionallyApproved', 'PendingSettlement', 'Settled', 'Varied', 'Repaid'];
			const conditional = submitted.slice(1);
			const approved = conditional.slice(1);
			const settled = ['Settled', 'Varied', 'Repaid'];
			if (status === 'PreApproved') {
				const pre = day(created, 10, 30);
				dates.preApproved = isoDate(pre);
				dates.preApprovedExpiry = isoDate(pre + 90 * DAY_MS);
			}
			if (submitted.includes(status)) {
				const lodged = day(created, 5, 40);
				dates.lodged = isoDate(lodged);
				dates.financeClause = isoDate(lodged + 21 * DAY_MS);
				let last = lodged;
				if (conditional.includes(status)) {
					last = day(lodged, 5, 15);
					dates.conditionallyApproved = isoDate(last);
				}
				if (approved.includes(status)) {
					last = day(last, 5, 20);
					dates.approved = isoDate(last);
				}
				const settlement = day(last, 14, 42);
				dates.estimatedSettled = isoDate(settlement);
				if (settled.includes(status)) dates.settled = isoDate(settlement);
			}
			if (status === 'Withdrawn' || status === 'Cancelled') dates.notProceeding = isoDate(day(created, 10, 90));
			return dates;
		},
		opportunity: (rec) => {
			const index = rec.id - FIRST_ID.deals;
			if (index >= nDeals) return { proposedLoanAmount: null, securityAmount: null, summaryNotes: null, loanPurpose: null };
			const r = new Rng(hash32(seed, SALT.opportunity, rec.id));
			const proposed = Math.round((baseTotals[index] * (0.9 + r.next() * 0.2)) / 1000) * 1000;
			return {
				proposedLoanAmount: proposed,
				securityAmount: Math.round(proposed / (0.55 + r.next() * 0.35) / 5000) * 5000,
				summaryNotes: r.pick(SUMMARY_NOTES),
				loanPurpose: r.pick(LOAN_PURPOSES),
			};
		},
		splits: (rec) =>
			store.inverse('deal-structures', 'deal', rec.id).map((structureId) => {
				const s = store.get('deal-structures', structureId)?.attributes ?? {};
				const amount = typeof s.amount === 'number' ? s.amount : null;
				const lmi = typeof s.lmiPremium === 'number' ? s.lmiPremium : null;
				const interestOnly = s.loanStructureType === 'InterestOnly';
				const begin = (s.fixedRateBeginDate as string | null) ?? null;
				return {
					loanTermYears: s.loanTermYears ?? null,
					rateType: s.rateType ?? null,
					loanStructureType: s.loanStructureType ?? null,
					amount,
					capitaliseLmi: s.capitaliseLmi ?? null,
					lmiPremium: lmi,
					amountInclLmi: amount === null ? null : amount + (s.capitaliseLmi && lmi ? lmi : 0),
					interestRate: s.interestRate ?? null,
					rateTypePeriodMonths: s.rateTypePeriodMonths ?? null,
					paymentAmount: s.paymentAmount ?? null,
					fixedRateStartDate: begin,
					fixedRateEndDate: s.fixedRateExpiryDate ?? null,
					interestOnlyStartDate: interestOnly ? (begin ?? isoDate(dealCreatedMs(rec.id) + 30 * DAY_MS)) : null,
					interestOnlyEndDate: interestOnly ? (s.interestOnlyExpiryDate ?? null) : null,
					repaymentHolidayStartDate: null,
					repaymentHolidayEndDate: null,
				};
			}),
	});

	// --- deal securities --------------------------------------------------------------------------------
	const securities = new MapTable('deal-securities', FIRST_ID['deal-securities']);
	for (let i = 0; i < nSecurities; i++) {
		const id = FIRST_ID['deal-securities'] + i;
		const r = new Rng(hash32(seed, SALT.security, id));
		const deal = nDeals === 0 ? null : i === 0 ? FIRST_ID.deals : FIRST_ID.deals + (hash32(seed, SALT.security, i) % nDeals);
		const place = r.pick(PLACES);
		const construction = r.chance(0.1);
		const contract = r.amount(400_000, 2_400_000, 5000);
		const access = r.pick(['Other', 'LoanParty'] as const);
		securities.insert({
			id,
			attributes: {
				contactForAccess: access,
				isPreApproval: r.chance(0.15),
				licensedRealEstateAgentContract: r.chance(0.7),
				isElectronicTransfer: r.chance(0.8),
				isAnnualPropertyTax: r.chance(0.1),
				contractPrice: contract,
				landValue: Math.round((contract * (0.3 + r.next() * 0.4)) / 1000) * 1000,
				currentValue: Math.round((contract * (0.95 + r.next() * 0.15)) / 1000) * 1000,
				futureValue: construction ? Math.round((contract * 1.25) / 1000) * 1000 : null,
				buildAmount: construction ? r.amount(250_000, 700_000, 1000) : null,
				contractDate: isoDate(stamp(r, START_MS, CREATED_END_MS)),
				propertyState: place.state,
				titleType: r.pick(['Torrens', 'Strata', 'Community']),
				title: r.pick(['Freehold', 'Leasehold']),
				valuationBasis: r.pick(['Contract of sale', 'Desktop valuation', 'Full valuation']),
				propertyType: r.pick(['House', 'Unit', 'Townhouse', 'Vacant land']),
				propertyZoning: r.pick(['Residential', 'Rural residential', 'Commercial']),
				propertyHolding: r.pick(['Sole', 'Joint tenants', 'Tenants in common']),
				propertyPrimaryPurpose: r.pick(['Owner occupied', 'Investment']),
				propertyStatus: construction ? 'To be built' : r.pick(['Established', 'New']),
				constructionType: construction ? 'Full construction' : null,
				constructionCategory: construction ? 'Residential' : null,
				propertyTransaction: r.pick(['Purchase', 'Refinance', 'Existing security']),
				securityType: r.pick(['Primary', 'Additional']),
				propertySuburb: place.suburb,
				accessFaxNumber: null,
				accessFaxAreaCode: null,
				accessMobileNumber: access === 'Other' ? `04${r.digits(8)}` : null,
				accessMobileAreaCode: null,
				accessPhoneNumber: access === 'Other' && r.chance(0.3) ? r.digits(8) : null,
				accessPhoneAreaCode: access === 'Other' ? `0${landline(r, place.state).charAt(3)}` : null,
				accessContactFirstName: access === 'Other' ? r.pick(FIRST_NAMES) : null,
				accessContactLastName: access === 'Other' ? r.pick(LAST_NAMES) : null,
				accessContactTitle: access === 'Other' ? r.pick(['Mr', 'Ms', 'Mrs']) : null,
			},
			rels: { deal, asset: realEstate.length && r.chance(0.4) ? r.pick(realEstate) : null },
		});
	}
	store.addTable(securities);

	// --- tasks ------------------------------------------------------------------------------------------
	const tasks = new MapTable('tasks', FIRST_ID.tasks);
	for (let i = 0; i < 40; i++) {
		const id = FIRST_ID.tasks + i;
		const r = new Rng(hash32(seed, SALT.task, id));
		const due = stamp(r, Date.UTC(2026, 8, 1), Date.UTC(2027, 2, 1));
		const offset = r.pick(['+10:00', '+11:00', '+08:00']);
		const local = new Date(due + Number(offset.slice(1, 3)) * 3_600_000).toISOString().slice(0, 19);
		let residentialDeal: number | null = null;
		let taskGroups: number[] = [];
		if (i === 0) taskGroups = groupIds.slice(0, 1);
		else if (i === 1) residentialDeal = nDeals ? FIRST_ID.deals : null;
		else if (r.chance(0.5) && nDeals) residentialDeal = FIRST_ID.deals + r.int(0, nDeals - 1);
		else if (groupIds.length) taskGroups = r.chance(0.8) ? [r.pick(groupIds)] : [...new Set([r.pick(groupIds), r.pick(groupIds)])].sort((a, b) => a - b);
		tasks.insert({
			id,
			attributes: {
				title: i === 0 ? 'Call client re valuation' : r.pick(TASK_TITLES),
				detail: r.pick(TASK_DETAILS),
				progress: r.weighted([['NotStarted', 40], ['InProgress', 25], ['Completed', 25], ['OnHold', 5], ['NotRequired', 5]] as const),
				priority: r.weighted([['Normal', 50], ['Medium', 25], ['High', 18], ['Critical', 7]] as const),
				dueDate: `${local}${offset}`,
			},
			rels: {
				assignee: i < 2 ? adviserIds[0] : r.pick(adviserIds),
				residentialDeal,
				contactGroups: taskGroups,
				assetFinanceDiversifiedDeal: null,
				commercialFinanceDiversifiedDeal: null,
			},
		});
	}
	store.addTable(tasks);

	const s = (n: number | undefined) => (n === undefined ? '' : String(n));
	const firstOf = (type: string) => s(store.table(type).ids()[0]);
	const ids: FixtureIds = {
		dealWithNotes: s(FIRST_ID.deals),
		dealWithCustomStatus: s(FIRST_ID.deals),
		dealWithoutCustomStatus: s(FIRST_ID.deals + 1),
		dealWithoutNotes: s(FIRST_ID.deals + 1),
		settledDeal: s(FIRST_ID.deals + 2),
		dealWithApostrophe: s(FIRST_ID.deals + 3),
		dealStructure: s(FIRST_ID['deal-structures']),
		lockedDealStructure: s(FIRST_ID['deal-structures'] + 2),
		dealNote: s(FIRST_ID['deal-notes']),
		dealSecurity: firstOf('deal-securities'),
		dealExternalReference: s(FIRST_ID['deal-external-references']),
		contact: firstOf('contacts'),
		contactWithApostrophe: s(nContacts > 1 ? FIRST_ID.contacts + 1 : undefined),
		contactGroup: firstOf('contact-groups'),
		contactExternalReference: firstOf('contact-external-references'),
		contactCategory: s(FIRST_ID['contact-categories']),
		customStatus: s(FIRST_ID['custom-statuses']),
		income: firstOf('incomes'),
		organisation: s(FIRST_ID.organisations),
		organisationWithoutAddresses: s(FIRST_ID.organisations + 4),
		asset: s(FIRST_ID.assets),
		assetWithoutAddresses: s(FIRST_ID.assets + 1),
		lead: s(FIRST_ID.deals),
		task: s(FIRST_ID.tasks),
		taskWithDeal: s(FIRST_ID.tasks + 1),
		integration: s(FIRST_ID.integrations),
		otherIntegration: s(FIRST_ID.integrations + 2),
		adviser: s(FIRST_ID.advisers),
		adviserContactId: String(ADVISER_CONTACT_ID_BASE),
		adviserContactIds: [...adviserByContactId.keys()],
	};
	if (dealIds !== undefined) {
		const live = new Set(dealIds);
		(store.table('deals') as GeneratedTable).retain((id) => live.has(id));
		for (const type of ['deal-structures', 'deal-notes', 'deal-external-references']) {
			const children = store.table(type) as ChildTable;
			children.retain((id) => live.has(children.parentOf(id) ?? 0));
		}
	}
	return { store, ids, adviserByContactId };
}
