/**
 * The builders that turn the seed's rows (sandbox/seed-data.ts) into stored records, and the seed
 * steps of every type but the deals (sandbox/seed-deals.ts):
 *
 * - `fixedRows(ctx, type, rows, toRow?)`: one record per data row, ids FIRST_ID[type] + index;
 * - `generateRows(ctx, type, count, salt, toRow)`: `count` records, each drawn from its own stream
 *   (`hash32(seed, salt, id)`), so a record does not depend on how many others there are;
 * - `addRow(ctx, type, row)`: a record that comes with another (an organisation's address, a
 *   contact's external reference), with the next id of its type.
 *
 * A record's attributes are written in the order of the service's contract; where a value is drawn
 * at random, the order of the draws is the order of the attributes (changing it changes the data).
 */
import { DAY_MS, Rng, hash32, isoDate, isoTimestamp } from './random';
import {
	ADVISERS, AREA_CODES, JOINED_ADVISERS, ENQUIRY_SOURCES, REFERRERS, ASSET_TYPE_WEIGHTS, CONTACT_CATEGORY_NAMES, CREATED_END_MS, CUSTOM_STATUSES, DWELLINGS, EMAIL_DOMAINS, EMPLOYERS,
	FEMALE_NAMES, FEMALE_TITLES, FIRST_CONTACT_REFERENCE, FIRST_ID, FIRST_NAMES, FIRST_TASK_TITLE, GENDER_WEIGHTS, GROUP_SIZE_WEIGHTS,
	INCOME_TYPES, INCOME_VERIFICATIONS, INTEGRATIONS, LAST_NAMES, LENDERS, MALE_NAMES, MALE_TITLES, MARITAL_STATUS_COUPLE,
	MARITAL_STATUS_SINGLE, ORGANISATIONS, OTHER_INCOME_FREQUENCIES, PERIODS_PER_YEAR, PLACES, SALARY_FREQUENCIES, SALT,
	SECOND_CONTACT_LAST_NAME, SECURITY_CHOICES, START_MS, STREETS, SUPER_FUNDS, TASK_COUNT, TASK_DETAILS, TASK_DUE_FROM_MS, TASK_DUE_TO_MS,
	TASK_PRIORITY_WEIGHTS, TASK_PROGRESS_WEIGHTS, TASK_TITLES, TASK_UTC_OFFSETS, UPDATED_END_MS, UTM_CAMPAIGNS, VEHICLES, WORK_EMAIL_DOMAIN,
	idOf,
} from './seed-data';
import type { AdviserRow, Place, SeedRow, SeededType, TypeRow } from './seed-data';
import {
	ASSET_CATEGORIES, ASSET_SUB_TYPE_ROWS, ASSET_TYPE_ROWS, EXPENSE_CATEGORIES, EXPENSE_TYPE_ROWS, INCOME_CATEGORIES, INCOME_TYPE_ROWS, LIABILITY_CATEGORIES,
	LIABILITY_SUB_TYPE_ROWS, LIABILITY_TYPE_ROWS, PROPERTY_TYPE_ROWS,
} from './seed-data';
import { MapTable } from './store';
import type { Store } from './store';

/** What the seed steps share: the store being filled, the seed and the sizes. */
export interface SeedContext {
	seed: number;
	store: Store;
	/**
	 * The one stream that is not per record: organisations (with their addresses), advisers and
	 * integrations draw from it, in that order. New types draw from their own streams instead
	 * (`generateRows`, or `stream`), so adding one changes no existing record.
	 */
	shared: Rng;
	/** Records to generate (whole numbers). `deals` is the id span when `dealIds` is given. */
	counts: { deals: number; contacts: number; incomes: number; dealSecurities: number };
	/** The deal ids that exist (sandbox/layouts.ts), when not all of the span. */
	dealIds?: readonly number[];
}

/** A seed step: builds one type, with the types its records come with, into the store. */
export type SeedStep = (ctx: SeedContext) => void;

/** The table of a seeded type, created (ids from FIRST_ID[type]) and added to the store on first use. */
function tableOf(ctx: SeedContext, type: SeededType): MapTable {
	const existing = ctx.store.tables.get(type);
	if (existing instanceof MapTable) return existing;
	const table = new MapTable(type, FIRST_ID[type]);
	ctx.store.addTable(table);
	return table;
}

/** Stores `row` as the next record of `type`; its id. */
export function addRow(ctx: SeedContext, type: SeededType, row: SeedRow): number {
	const table = tableOf(ctx, type);
	const id = table.nextId();
	table.insert({ id, attributes: row.attributes, rels: row.rels ?? {} });
	return id;
}

/** Seeds `type` from data: the i-th item becomes the record FIRST_ID[type] + i, through `toRow` unless it is a row already. */
export function fixedRows(ctx: SeedContext, type: SeededType, rows: readonly SeedRow[]): void;
export function fixedRows<T>(ctx: SeedContext, type: SeededType, items: readonly T[], toRow: (item: T, index: number) => SeedRow): void;
export function fixedRows<T>(ctx: SeedContext, type: SeededType, items: readonly T[], toRow?: (item: T, index: number) => SeedRow): void {
	tableOf(ctx, type);
	items.forEach((item, index) => addRow(ctx, type, toRow ? toRow(item, index) : (item as unknown as SeedRow)));
}

/** The random stream of one record: `hash32(seed, salt, id)`. */
export function stream(ctx: SeedContext, salt: number, id: number): Rng {
	return new Rng(hash32(ctx.seed, salt, id));
}

/** Seeds `count` generated records of `type`, ids FIRST_ID[type] + index, each drawing from its own stream. */
export function generateRows(ctx: SeedContext, type: SeededType, count: number, salt: number, toRow: (r: Rng, id: number, index: number) => SeedRow): void {
	tableOf(ctx, type);
	for (let index = 0; index < count; index++) {
		const id = idOf(type, index);
		addRow(ctx, type, toRow(stream(ctx, salt, id), id, index));
	}
}

/** The ids of the seeded records of `type`, ascending. */
export function seededIds(ctx: SeedContext, type: SeededType): number[] {
	return [...ctx.store.table(type).ids()];
}

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

/** A timestamp in [from, to): whole seconds for about half the records, milliseconds otherwise. */
export function stamp(r: Rng, from: number, to: number): number {
	const ms = from + Math.floor(r.next() * Math.max(1, to - from));
	return r.chance(0.5) ? ms - (ms % 1000) : ms;
}

export function emailFor(first: string, last: string, domain: string): string {
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
	return `+61${AREA_CODES[state] ?? '2'}${r.digits(8)}`;
}

function fullAddress(r: Rng, place: Place): { streetAddress: string; formattedAddress: string } {
	const streetAddress = `${r.int(1, 240)} ${r.pick(STREETS)}`;
	return { streetAddress, formattedAddress: `${streetAddress}, ${place.suburb} ${place.state} ${place.postCode}` };
}

export function round2(n: number): number {
	return Math.round(n * 100) / 100;
}

/** `{ country, suburb, postCode, state }` of a place. */
function placeAttributes(place: Place) {
	return { country: 'Australia', suburb: place.suburb, postCode: place.postCode, state: place.state };
}

// ---------------------------------------------------------------------------------------------
// Organisations, advisers, custom statuses, integrations, contact categories
// ---------------------------------------------------------------------------------------------

/** Organisations 41… with their addresses, from the shared stream: each organisation's addresses, then the organisation. */
export const organisations: SeedStep = (ctx) =>
	fixedRows(ctx, 'organisations', ORGANISATIONS, (o) => {
		const r = ctx.shared;
		const addresses: number[] = [];
		for (let a = 0; a < o.addresses; a++) {
			const place = PLACES[(o.place + a * 3) % PLACES.length];
			const address = fullAddress(r, place);
			const { country, suburb, postCode, state } = placeAttributes(place);
			const formattedAddress = `${a === 0 ? `Level ${r.int(1, 12)}, ` : ''}${address.formattedAddress}`;
			addresses.push(
				addRow(ctx, 'organisation-addresses', {
					attributes: { isMailing: a === 0, isCustomAddress: a === 1 ? true : null, formattedAddress, streetAddress: address.streetAddress, country, suburb, postCode, state },
				}),
			);
		}
		const created = stamp(r, START_MS - 400 * DAY_MS, START_MS);
		return {
			attributes: {
				name: o.name,
				tradingName: o.trading,
				abn: `${r.int(10, 99)} ${r.digits(3)} ${r.digits(3)} ${r.digits(3)}`,
				email: `info@${o.domain}`,
				phone: landline(r, PLACES[o.place].state),
				created: isoTimestamp(created),
				updated: isoTimestamp(stamp(r, created, UPDATED_END_MS)),
			},
			rels: { addresses, customStatuses: o.ownsCustomStatuses ? CUSTOM_STATUSES.map((_, s) => idOf('custom-statuses', s)) : [] },
		};
	});

/**
 * Advisers 501… of their organisations, from the shared stream, each with its adviser-details record
 * (1001…: the AdviserContactId). The draws and their order are the ones made when an adviser was one
 * record with its name (created, the mobile, updated), so the records drawn after them stay the same.
 */
export const advisers: SeedStep = (ctx) =>
	fixedRows(ctx, 'advisers', ADVISERS, (a) => {
		const r = ctx.shared;
		const created = stamp(r, START_MS - 700 * DAY_MS, START_MS);
		const phone = mobile(r);
		const updated = stamp(r, created, UPDATED_END_MS);
		return adviserRow(ctx, a, { created, updated, phone });
	});

/**
 * The advisers who joined later (JOINED_ADVISERS, 507…, details 1007…), after every other type: no
 * record was allocated to them, and each draws from its own stream.
 */
export const joinedAdvisers: SeedStep = (ctx) =>
	JOINED_ADVISERS.forEach((a, index) => {
		const r = stream(ctx, SALT.adviser, idOf('advisers', ADVISERS.length + index));
		const created = stamp(r, CREATED_END_MS - 90 * DAY_MS, CREATED_END_MS);
		addRow(ctx, 'advisers', adviserRow(ctx, a, { created, updated: created, phone: mobile(r) }));
	});

/** An advisers record (public description `AdviserAttributes`) and its adviser-details record (`AdviserDetailAttributes`), linked both ways. */
function adviserRow(ctx: SeedContext, a: AdviserRow, drawn: { created: number; updated: number; phone: string }): SeedRow {
	const email = emailFor(a.first, a.last, ORGANISATIONS[a.org].domain);
	const adviserId = tableOf(ctx, 'advisers').nextId();
	const details = addRow(ctx, 'adviser-details', {
		attributes: {
			firstName: a.first,
			lastName: a.last,
			preferredName: null,
			email,
			mobilePhone: drawn.phone,
			created: isoTimestamp(drawn.created),
			updated: isoTimestamp(drawn.updated),
		},
		rels: { adviser: adviserId },
	});
	return {
		attributes: {
			email,
			status: a.status,
			jobTitle: a.jobTitle,
			isBrokerWebPublic: a.isBrokerWebPublic,
			countryCode: 'AU',
			created: isoTimestamp(drawn.created),
		},
		rels: { organisation: idOf('organisations', a.org), adviserDetails: details },
	};
}

/** An adviser's name as a note's `writtenBy` shows it; null for an id that is not a seeded adviser. */
export function adviserName(adviserId: number): string | null {
	const adviser = [...ADVISERS, ...JOINED_ADVISERS][adviserId - FIRST_ID.advisers];
	return adviser === undefined ? null : `${adviser.first} ${adviser.last}`;
}

/** Enquiry sources 201…: fixed rows, nothing drawn. */
export const enquirySources: SeedStep = (ctx) =>
	fixedRows(ctx, 'enquiry-source', ENQUIRY_SOURCES, (e) => ({
		attributes: { sourceCategoryId: e.categoryId, sourceCategoryName: e.category, sourceId: e.sourceId, sourceName: e.source },
	}));

/** Referrers 301…: fixed rows, nothing drawn. */
export const referrers: SeedStep = (ctx) =>
	fixedRows(ctx, 'referrers', REFERRERS, (r) => ({ attributes: { referrerOrganisationName: r.organisation, referrerName: r.name } }));

/** Integrations 11…, from the shared stream. */
export const integrations: SeedStep = (ctx) =>
	fixedRows(ctx, 'integrations', INTEGRATIONS, ({ name, description }) => {
		const created = stamp(ctx.shared, START_MS - 300 * DAY_MS, START_MS);
		return { attributes: { name, description, created: isoTimestamp(created), updated: isoTimestamp(created + DAY_MS) } };
	});

/** The `prefix` of an integration's external references. */
export function integrationPrefix(integrationId: number): string {
	return INTEGRATIONS[integrationId - FIRST_ID.integrations].prefix;
}

// ---------------------------------------------------------------------------------------------
// Contacts: contact groups (families of 1–3) with their contacts and the contacts' external references
// ---------------------------------------------------------------------------------------------

/**
 * Contact groups until there are `counts.contacts` contacts. A group draws from its own stream (its
 * size, family name, place, categories, adviser), each contact from its own (and its external
 * reference from the contact's).
 */
export const contactGroups: SeedStep = (ctx) => {
	tableOf(ctx, 'contacts');
	tableOf(ctx, 'contact-groups');
	tableOf(ctx, 'contact-external-references');
	const adviserIds = seededIds(ctx, 'advisers');
	const integrationIds = seededIds(ctx, 'integrations');
	const total = ctx.counts.contacts;
	let index = 0;
	while (index < total) {
		const groupId = tableOf(ctx, 'contact-groups').nextId();
		const gr = stream(ctx, SALT.group, groupId);
		const members = Math.min(total - index, gr.weighted(GROUP_SIZE_WEIGHTS));
		const family = { name: gr.pick(LAST_NAMES), place: gr.pick(PLACES), created: stamp(gr, START_MS, CREATED_END_MS), members };
		const firstNames: string[] = [];
		for (let member = 0; member < members; member++, index++) {
			const id = idOf('contacts', index);
			const r = stream(ctx, SALT.contact, id);
			const contact = contactRow(r, index, member, family, groupId);
			firstNames.push(String(contact.attributes.firstName));
			addRow(ctx, 'contacts', contact);
			if (index === 0 || r.chance(0.5)) {
				const integration = index === 0 ? integrationIds[0] : r.pick(integrationIds);
				const externalReference = index === 0 ? FIRST_CONTACT_REFERENCE : `${integrationPrefix(integration)}-C${r.digits(6)}`;
				addRow(ctx, 'contact-external-references', { attributes: { externalReference }, rels: { contact: id, integration } });
			}
		}
		const categories: string[] = [];
		if (gr.chance(0.5)) categories.push(gr.pick(CONTACT_CATEGORY_NAMES));
		if (gr.chance(0.2)) {
			const extra = gr.pick(CONTACT_CATEGORY_NAMES);
			if (!categories.includes(extra)) categories.push(extra);
		}
		const attributes = {
			name: `${family.name}, ${firstNames.slice(0, 2).join(' & ')}`,
			categories,
			utmCampaign: gr.chance(0.2) ? gr.pick(UTM_CAMPAIGNS) : null,
			created: isoTimestamp(family.created),
			updated: isoTimestamp(stamp(gr, family.created, UPDATED_END_MS)),
		};
		addRow(ctx, 'contact-groups', { attributes, rels: { adviser: gr.pick(adviserIds) } });
	}
};

/** The `member`-th contact of a family (the third is a child), the `index`-th contact overall. */
function contactRow(r: Rng, index: number, member: number, family: { name: string; place: Place; created: number; members: number }, groupId: number): SeedRow {
	const isChild = member === 2;
	const lastName = index === 1 ? SECOND_CONTACT_LAST_NAME : family.name;
	const gender = r.weighted(GENDER_WEIGHTS);
	const first = r.pick(gender === 'Female' ? FEMALE_NAMES : gender === 'Male' ? MALE_NAMES : FIRST_NAMES);
	const created = member === 0 ? family.created : stamp(r, family.created, CREATED_END_MS);
	const dob = isChild ? stamp(r, Date.UTC(2010, 0, 1), Date.UTC(2020, 0, 1)) : stamp(r, Date.UTC(1950, 0, 1), Date.UTC(2003, 0, 1));
	const state = family.place.state;
	return {
		attributes: {
			mobile: isChild ? null : mobile(r),
			homePhone: r.chance(0.3) ? landline(r, state) : null,
			businessPhone: r.chance(0.15) ? landline(r, state) : null,
			title: isChild ? null : r.pick(gender === 'Male' ? MALE_TITLES : FEMALE_TITLES),
			firstName: first,
			middleName: r.chance(0.3) ? r.pick(gender === 'Female' ? FEMALE_NAMES : MALE_NAMES) : null,
			lastName,
			preferredName: r.chance(0.15) ? first.slice(0, 3) : null,
			email: isChild ? null : emailFor(first, lastName, r.pick(EMAIL_DOMAINS)),
			secondaryEmail: r.chance(0.1) ? emailFor(first, lastName, WORK_EMAIL_DOMAIN) : null,
			maritalStatus: isChild ? 'Single' : r.pick(family.members > 1 ? MARITAL_STATUS_COUPLE : MARITAL_STATUS_SINGLE),
			gender,
			hasMarketingConsent: r.chance(0.6),
			dateOfBirth: isoDate(dob),
			isPrimary: member === 0,
			role: isChild ? 'Child' : r.chance(0.03) ? 'Other' : 'Adult',
			created: isoTimestamp(created),
			updated: isoTimestamp(stamp(r, created, UPDATED_END_MS)),
		},
		rels: { contactGroup: groupId },
	};
}

// ---------------------------------------------------------------------------------------------
// Assets (real estate with its financial-address), incomes
// ---------------------------------------------------------------------------------------------

/** max(20, contacts ÷ 2) assets; the first is real estate, the second a vehicle. */
export const assets: SeedStep = (ctx) =>
	generateRows(ctx, 'assets', Math.max(20, Math.ceil(ctx.counts.contacts / 2)), SALT.asset, (r, _id, index) => {
		const assetType = index === 0 ? 'RealEstate' : index === 1 ? 'MotorVehicle' : r.weighted(ASSET_TYPE_WEIGHTS);
		const addresses: number[] = [];
		let description: string;
		let value: number;
		if (assetType === 'RealEstate') {
			const place = r.pick(PLACES);
			const address = fullAddress(r, place);
			addresses.push(addRow(ctx, 'financial-address', { attributes: { ...address, ...placeAttributes(place) } }));
			description = `${r.pick(DWELLINGS)} – ${address.formattedAddress}`;
			value = r.amount(450_000, 2_500_000, 5000);
		} else if (assetType === 'MotorVehicle') {
			description = `${r.int(2012, 2026)} ${r.pick(VEHICLES)}`;
			value = r.amount(8_000, 75_000, 500);
		} else if (assetType === 'Savings') {
			description = `${r.pick(LENDERS)} savings account`;
			value = r.amount(2_000, 150_000, 10);
		} else if (assetType === 'Shares') {
			description = 'Share portfolio';
			value = r.amount(5_000, 400_000, 100);
		} else {
			description = `${r.pick(SUPER_FUNDS)} balance`;
			value = r.amount(20_000, 900_000, 100);
		}
		const created = stamp(r, START_MS, CREATED_END_MS);
		return {
			attributes: { description, value, assetType, created: isoTimestamp(created), updated: isoTimestamp(stamp(r, created, UPDATED_END_MS)) },
			rels: { addresses },
		};
	});

/** The real estate assets (incomes and deal securities point at them). */
export function realEstateIds(ctx: SeedContext): number[] {
	return seededIds(ctx, 'assets').filter((id) => ctx.store.get('assets', id)?.attributes.assetType === 'RealEstate');
}

export const incomes: SeedStep = (ctx) => {
	const realEstate = realEstateIds(ctx);
	generateRows(ctx, 'incomes', ctx.counts.incomes, SALT.income, (r) => {
		const { incomeType, incomeCategory, incomeTypeId, incomeCategoryId } = r.weighted(INCOME_TYPES.map((type) => [type, type.weight] as const));
		const salary = incomeType === 'Base salary';
		const frequency = r.pick(salary ? SALARY_FREQUENCIES : OTHER_INCOME_FREQUENCIES);
		const annual = salary ? r.amount(55_000, 240_000, 500) : r.amount(2_000, 60_000, 100);
		const created = stamp(r, START_MS, CREATED_END_MS);
		return {
			attributes: {
				created: isoTimestamp(created),
				updated: isoTimestamp(stamp(r, created, UPDATED_END_MS)),
				description: salary ? `Base salary – ${r.pick(EMPLOYERS)}` : incomeType,
				value: round2(annual / PERIODS_PER_YEAR[frequency]),
				incomeTypeId,
				incomeCategoryId,
				incomeVerification: r.pick(INCOME_VERIFICATIONS),
				frequency,
				incomeCategory,
				incomeType,
			},
			rels: { linkedAsset: incomeType === 'Rental income' && realEstate.length ? r.pick(realEstate) : null },
		};
	});
};

// ---------------------------------------------------------------------------------------------
// Deal securities, tasks (after the deals, whose ids they point at)
// ---------------------------------------------------------------------------------------------

/** Deal securities: the first of the first deal, the others of a deal picked by their index; some of a real estate asset. */
export const dealSecurities: SeedStep = (ctx) => {
	const realEstate = realEstateIds(ctx);
	const deals = ctx.counts.deals;
	const choices = SECURITY_CHOICES;
	generateRows(ctx, 'deal-securities', ctx.counts.dealSecurities, SALT.security, (r, _id, index) => {
		const deal = deals === 0 ? null : index === 0 ? FIRST_ID.deals : FIRST_ID.deals + (hash32(ctx.seed, SALT.security, index) % deals);
		const place = r.pick(PLACES);
		const construction = r.chance(0.1);
		const contract = r.amount(400_000, 2_400_000, 5000);
		const access = r.pick(choices.contactForAccess);
		const other = access === 'Other';
		return {
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
				titleType: r.pick(choices.titleType),
				title: r.pick(choices.title),
				valuationBasis: r.pick(choices.valuationBasis),
				propertyType: r.pick(choices.propertyType),
				propertyZoning: r.pick(choices.propertyZoning),
				propertyHolding: r.pick(choices.propertyHolding),
				propertyPrimaryPurpose: r.pick(choices.propertyPrimaryPurpose),
				propertyStatus: construction ? 'To be built' : r.pick(choices.propertyStatus),
				constructionType: construction ? 'Full construction' : null,
				constructionCategory: construction ? 'Residential' : null,
				propertyTransaction: r.pick(choices.propertyTransaction),
				securityType: r.pick(choices.securityType),
				propertySuburb: place.suburb,
				accessFaxNumber: null,
				accessFaxAreaCode: null,
				accessMobileNumber: other ? `04${r.digits(8)}` : null,
				accessMobileAreaCode: null,
				accessPhoneNumber: other && r.chance(0.3) ? r.digits(8) : null,
				accessPhoneAreaCode: other ? `0${landline(r, place.state).charAt(3)}` : null,
				accessContactFirstName: other ? r.pick(FIRST_NAMES) : null,
				accessContactLastName: other ? r.pick(LAST_NAMES) : null,
				accessContactTitle: other ? r.pick(choices.accessContactTitle) : null,
			},
			rels: { deal, asset: realEstate.length && r.chance(0.4) ? r.pick(realEstate) : null },
		};
	});
};

/** Tasks: the first with one contact group and no deal, the second on the first deal, the rest on a deal or on contact groups. */
export const tasks: SeedStep = (ctx) => {
	const adviserIds = seededIds(ctx, 'advisers');
	const groupIds = seededIds(ctx, 'contact-groups');
	const deals = ctx.counts.deals;
	generateRows(ctx, 'tasks', TASK_COUNT, SALT.task, (r, _id, index) => {
		const due = stamp(r, TASK_DUE_FROM_MS, TASK_DUE_TO_MS);
		const offset = r.pick(TASK_UTC_OFFSETS);
		const local = new Date(due + Number(offset.slice(1, 3)) * 3_600_000).toISOString().slice(0, 19);
		let residentialDeal: number | null = null;
		let contactGroups: number[] = [];
		if (index === 0) contactGroups = groupIds.slice(0, 1);
		else if (index === 1) residentialDeal = deals ? FIRST_ID.deals : null;
		else if (r.chance(0.5) && deals) residentialDeal = FIRST_ID.deals + r.int(0, deals - 1);
		else if (groupIds.length) contactGroups = r.chance(0.8) ? [r.pick(groupIds)] : [...new Set([r.pick(groupIds), r.pick(groupIds)])].sort((a, b) => a - b);
		return {
			attributes: {
				title: index === 0 ? FIRST_TASK_TITLE : r.pick(TASK_TITLES),
				detail: r.pick(TASK_DETAILS),
				progress: r.weighted(TASK_PROGRESS_WEIGHTS),
				priority: r.weighted(TASK_PRIORITY_WEIGHTS),
				dueDate: `${local}${offset}`,
			},
			rels: {
				assignee: index < 2 ? adviserIds[0] : r.pick(adviserIds),
				residentialDeal,
				contactGroups,
				assetFinanceDiversifiedDeal: null,
				commercialFinanceDiversifiedDeal: null,
			},
		};
	});
};

// ---------------------------------------------------------------------------------------------
// A fact find: the type lists its ids come from, and the tables of the records it creates
// ---------------------------------------------------------------------------------------------

/** A list whose records carry the service's own ids (a type list: 1, 2, 10, …). */
function listTable(ctx: SeedContext, type: string, rows: ReadonlyArray<{ id: number; attributes: Record<string, unknown>; rels?: SeedRow['rels'] }>): void {
	const table = new MapTable(type, 1);
	ctx.store.addTable(table);
	for (const row of rows) table.insert({ id: row.id, attributes: row.attributes, rels: row.rels ?? {} });
}

const categoryRows = (rows: ReadonlyArray<{ id: number; description: string }>) => rows.map((row) => ({ id: row.id, attributes: { description: row.description } }));
const typeRows = (rows: readonly TypeRow[], category?: string) =>
	rows.map((row) => ({
		id: row.id,
		attributes: { name: row.name },
		rels: {
			...(category === undefined ? {} : { [category]: row.category ?? null }),
			...(row.subTypes === undefined ? {} : { liabilitySubTypes: [...row.subTypes] }),
		},
	}));

/** The type lists (public description `IncomeTypeAttributes`, `AssetTypeAttributes`, …), fixed rows. */
export const factFindTypes: SeedStep = (ctx) => {
	listTable(ctx, 'income-categories', categoryRows(INCOME_CATEGORIES));
	listTable(ctx, 'income-types', typeRows(INCOME_TYPE_ROWS, 'incomeCategory'));
	listTable(ctx, 'asset-categories', categoryRows(ASSET_CATEGORIES));
	listTable(ctx, 'asset-types', typeRows(ASSET_TYPE_ROWS));
	listTable(ctx, 'asset-sub-types', typeRows(ASSET_SUB_TYPE_ROWS));
	listTable(ctx, 'liability-categories', categoryRows(LIABILITY_CATEGORIES));
	listTable(ctx, 'liability-sub-types', typeRows(LIABILITY_SUB_TYPE_ROWS));
	listTable(ctx, 'liability-types', typeRows(LIABILITY_TYPE_ROWS, 'liabilityCategory'));
	listTable(ctx, 'expense-categories', categoryRows(EXPENSE_CATEGORIES));
	listTable(ctx, 'expense-types', typeRows(EXPENSE_TYPE_ROWS, 'expenseCategory'));
	listTable(
		ctx,
		'property-types',
		PROPERTY_TYPE_ROWS.map((row) => ({ id: row.id, attributes: { propertyZoningType: row.zoning, name: row.name, propertyZoningTypeId: row.zoningId } })),
	);
	// The records a fact find creates start empty, each type at its own id base.
	for (const type of ['contact-address', 'employments', 'liabilities', 'expenses', 'owners'] as const) tableOf(ctx, type);
};
