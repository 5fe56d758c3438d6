/**
 * The deals and what belongs to them, built for size: each deal's fields are drawn once into
 * typed-array columns (`DealColumns`) and its record is made from them when asked for; its structures,
 * notes and external references are generated on demand from the deal they belong to (`ChildTable`),
 * the lead is a view of the deal, and a deal's `dates`, `opportunity`, `splits` and
 * `customStatusName` are computed when read. Only changed or created records are stored, so 100 000
 * deals start in a fraction of a second. Deals 10001–10004 are DEAL_FIXTURES (seed-data.ts).
 */
import { DAY_MS, Rng, hash32, isoDate, isoTimestamp } from './random';
import { DEAL_TYPE, SYSTEM_STATUS } from './schema';
import type { SeedContext, SeedStep } from './seed-builders';
import { adviserName, integrationPrefix, round2, seededIds, stamp, stream } from './seed-builders';
import {
	AMOUNT_RANGE, APPROVED_STATUSES, CONDITIONALLY_APPROVED_STATUSES, CREATED_END_MS, DEAL_DATE_KEYS, DEAL_FIXTURES, DEAL_TYPE_WEIGHTS,
	FIRST_DEAL_NOTE, FIRST_DEAL_REFERENCE, FIRST_ID, FIRST_NAMES, LAST_NAMES, LENDERS, LOAN_PURPOSES, LOAN_STRUCTURE_WEIGHTS, LOAN_TERMS_YEARS,
	NOTE_COUNT_WEIGHTS, NOTE_DETAILS, NOTE_TITLES, REPAYMENTS_PER_YEAR, REPAYMENT_FREQUENCY_WEIGHTS, SALT, SETTLED_STATUSES, START_MS,
	STATUS_WEIGHTS, SUBMITTED_STATUSES, SUMMARY_NOTES, UPDATED_END_MS, idOf,
} from './seed-data';
import { ChildTable, GeneratedTable, ViewTable } from './store';
import type { Rec, Store } from './store';

/** What is drawn once per generated deal; deal i is the deal FIRST_ID.deals + i. */
interface DealColumns {
	count: number;
	/** Prefix offsets of the deals' children: deal i has children start[i] … start[i + 1] - 1. */
	structureStart: Int32Array;
	noteStart: Int32Array;
	refStart: Int32Array;
	/** The integration of each external reference, in child order. */
	refIntegrations: Int32Array;
	/** The deal's total, split over its structures. */
	baseTotals: Float64Array;
	created: Float64Array;
	updated: Float64Array;
	status: Uint8Array;
	type: Uint8Array;
	/** 0 = none, else index in LENDERS + 1. */
	lender: Uint8Array;
	/** 0 = none. */
	customStatus: Int32Array;
	adviser: Int32Array;
	lastName: Uint8Array;
	firstName: Uint8Array;
	/** 255 = none. */
	secondName: Uint8Array;
	/** 0 = none. */
	contact1: Int32Array;
	contact2: Int32Array;
}

/** Draws every generated deal's columns: the deal from its stream, its external references from another. */
function drawDeals(ctx: SeedContext): DealColumns {
	const n = ctx.counts.deals;
	const columns: DealColumns = {
		count: n,
		structureStart: new Int32Array(n + 1),
		noteStart: new Int32Array(n + 1),
		refStart: new Int32Array(n + 1),
		refIntegrations: new Int32Array(0),
		baseTotals: new Float64Array(n),
		created: new Float64Array(n),
		updated: new Float64Array(n),
		status: new Uint8Array(n),
		type: new Uint8Array(n),
		lender: new Uint8Array(n),
		customStatus: new Int32Array(n),
		adviser: new Int32Array(n),
		lastName: new Uint8Array(n),
		firstName: new Uint8Array(n),
		secondName: new Uint8Array(n),
		contact1: new Int32Array(n),
		contact2: new Int32Array(n),
	};
	const adviserIds = seededIds(ctx, 'advisers');
	const statusIds = seededIds(ctx, 'custom-statuses');
	const integrationIds = seededIds(ctx, 'integrations');
	const contactIds = seededIds(ctx, 'contacts');
	const refIntegrations: number[] = [];
	// One stream object, reseeded per deal: this loop runs once per deal at start-up.
	const r = new Rng(0);
	for (let i = 0; i < n; i++) {
		const id = FIRST_ID.deals + i;
		r.reseed(hash32(ctx.seed, SALT.deal, id));
		const fixture = DEAL_FIXTURES[i];
		const status = fixture?.status ?? r.weighted(STATUS_WEIGHTS);
		const dealType = fixture?.dealType ?? r.weighted(DEAL_TYPE_WEIGHTS);
		const early = status === 'NewLeads' || status === 'Researching';
		const structures = fixture?.structures ?? (status === 'NewLeads' && r.chance(0.6) ? 0 : 1 + (r.chance(0.35) ? 1 : 0) + (r.chance(0.1) ? 1 : 0));
		const notes = fixture?.notes ?? r.weighted(NOTE_COUNT_WEIGHTS);
		columns.structureStart[i + 1] = columns.structureStart[i] + structures;
		columns.noteStart[i + 1] = columns.noteStart[i] + notes;
		const range = AMOUNT_RANGE[dealType];
		columns.baseTotals[i] = r.amount(range[0], range[1], 1000);
		columns.status[i] = SYSTEM_STATUS.indexOf(status);
		columns.type[i] = DEAL_TYPE.indexOf(dealType);
		columns.firstName[i] = Math.floor(r.next() * FIRST_NAMES.length);
		columns.lastName[i] = Math.floor(r.next() * LAST_NAMES.length);
		columns.secondName[i] = r.chance(0.3) ? Math.floor(r.next() * FIRST_NAMES.length) : 255;
		if (fixture) {
			columns.lender[i] = fixture.lender ? LENDERS.indexOf(fixture.lender as (typeof LENDERS)[number]) + 1 : 0;
			columns.customStatus[i] = fixture.customStatus === null ? 0 : idOf('custom-statuses', fixture.customStatus);
			columns.adviser[i] = adviserIds[fixture.adviser];
		} else {
			columns.lender[i] = early && r.chance(0.5) ? 0 : 1 + Math.floor(r.next() * LENDERS.length);
			columns.customStatus[i] = r.chance(0.4) ? r.pick(statusIds) : 0;
			columns.adviser[i] = r.pick(adviserIds);
		}
		const created = stamp(r, START_MS, CREATED_END_MS);
		columns.created[i] = created;
		// about 30% of deals were touched in the last 30 days of the data window
		columns.updated[i] = r.chance(0.3)
			? stamp(r, Math.max(created, UPDATED_END_MS - 30 * DAY_MS), UPDATED_END_MS)
			: stamp(r, created, created + (UPDATED_END_MS - created) * r.next() + 1000);
		if (contactIds.length) {
			const a = r.pick(contactIds);
			const b = r.chance(0.3) ? r.pick(contactIds) : 0;
			columns.contact1[i] = b && b < a ? b : a;
			columns.contact2[i] = b && b !== a ? (b < a ? a : b) : 0;
		}
		// external references: the first and third deals one each, about one generated deal in three
		r.reseed(hash32(ctx.seed, SALT.ext, id));
		const before = refIntegrations.length;
		if (i === 0) refIntegrations.push(integrationIds[0]);
		else if (i === 2) refIntegrations.push(integrationIds[1]);
		else if (i >= DEAL_FIXTURES.length && r.chance(0.33)) {
			const first = r.pick(integrationIds);
			refIntegrations.push(first);
			if (r.chance(0.1)) {
				const other = r.pick(integrationIds);
				if (other !== first) refIntegrations.push(other);
			}
		}
		columns.refStart[i + 1] = columns.refStart[i] + (refIntegrations.length - before);
	}
	columns.refIntegrations = Int32Array.from(refIntegrations);
	return columns;
}

function dealName(columns: DealColumns, i: number): string {
	const fixture = DEAL_FIXTURES[i];
	if (fixture) return fixture.name;
	const last = LAST_NAMES[columns.lastName[i]];
	const first = FIRST_NAMES[columns.firstName[i]];
	return columns.secondName[i] === 255 ? `${last}, ${first}` : `${last}, ${first} & ${FIRST_NAMES[columns.secondName[i]]}`;
}

function dealRecord(columns: DealColumns, id: number): Rec {
	const i = id - FIRST_ID.deals;
	const contact1 = columns.contact1[i];
	const contact2 = columns.contact2[i];
	return {
		id,
		attributes: {
			created: isoTimestamp(columns.created[i]),
			updated: isoTimestamp(columns.updated[i]),
			totalLoanAmount: columns.structureStart[i + 1] === columns.structureStart[i] ? null : columns.baseTotals[i],
			name: dealName(columns, i),
			dealStatus: SYSTEM_STATUS[columns.status[i]],
			lenderName: columns.lender[i] === 0 ? null : LENDERS[columns.lender[i] - 1],
			dealType: DEAL_TYPE[columns.type[i]],
		},
		rels: {
			adviser: columns.adviser[i],
			customStatus: columns.customStatus[i] || null,
			contacts: contact1 ? (contact2 ? [contact1, contact2] : [contact1]) : [],
		},
	};
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

/** Monthly-equivalent repayment of an amortising loan, scaled to the repayment frequency. */
function repayment(amount: number, rate: number, years: number, interestOnly: boolean, frequency: string): number {
	const n = REPAYMENTS_PER_YEAR[frequency] ?? 12;
	const r = rate / n;
	if (interestOnly || r === 0) return round2(amount * r);
	const periods = years * n;
	return round2((amount * r) / (1 - (1 + r) ** -periods));
}

/** When the deal (as stored now) was created; the start of the data window for one that is gone. */
function dealCreatedMs(store: Store, dealId: number): number {
	const deal = store.get('deals', dealId);
	return deal ? Date.parse(String(deal.attributes.created)) : START_MS;
}

/** The `index`-th structure of a deal: its share of the deal's total, its own terms. */
function structureRecord(ctx: SeedContext, columns: DealColumns, id: number, dealId: number, index: number): Rec {
	const dealIndex = dealId - FIRST_ID.deals;
	const count = columns.structureStart[dealIndex + 1] - columns.structureStart[dealIndex];
	const amount = splitAmounts(ctx.seed, dealId, count, columns.baseTotals[dealIndex])[index];
	const r = stream(ctx, SALT.structure, id);
	const loanStructureType = r.weighted(LOAN_STRUCTURE_WEIGHTS);
	const interestOnly = loanStructureType === 'InterestOnly';
	const fixed = loanStructureType !== 'RevolvingCredit' && r.chance(0.4);
	const rateTermYears = fixed ? r.int(1, 5) : null;
	const interestRate = Math.round((fixed ? 0.0539 + r.next() * 0.011 : 0.0579 + r.next() * 0.012) * 10000) / 10000;
	const loanTermYears = interestOnly ? 30 : r.pick(LOAN_TERMS_YEARS);
	const repaymentFrequency = r.weighted(REPAYMENT_FREQUENCY_WEIGHTS);
	const lmiPremium = r.chance(0.2) ? r.amount(2_000, 25_000, 1) : 0;
	const begin = dealCreatedMs(ctx.store, dealId) + r.int(20, 90) * DAY_MS;
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
}

/** The `index`-th note of a deal, written by the deal's adviser (as the deal is stored now). */
function noteRecord(ctx: SeedContext, id: number, dealId: number, index: number): Rec {
	const r = stream(ctx, SALT.note, id);
	const deal = ctx.store.get('deals', dealId);
	const adviser = typeof deal?.rels.adviser === 'number' ? deal.rels.adviser : FIRST_ID.advisers;
	const fixtureNote = dealId === FIRST_ID.deals && index === 0;
	return {
		id,
		attributes: {
			title: fixtureNote ? FIRST_DEAL_NOTE.title : r.pick(NOTE_TITLES),
			detail: fixtureNote ? FIRST_DEAL_NOTE.detail : r.pick(NOTE_DETAILS),
			writtenBy: adviserName(adviser),
		},
		rels: { deal: dealId },
	};
}

function externalReferenceRecord(columns: DealColumns, id: number, dealId: number, offset: number): Rec {
	const integration = columns.refIntegrations[offset];
	const externalReference = dealId === FIRST_ID.deals ? FIRST_DEAL_REFERENCE : `${integrationPrefix(integration)}-${String(dealId).padStart(7, '0')}`;
	return { id, attributes: { externalReference }, rels: { deal: dealId, integration } };
}

/** A deal's milestone dates, coherent with its status (drawn from the deal's own stream). */
function dealDates(ctx: SeedContext, columns: DealColumns, rec: Rec): Record<string, string | null> {
	const dates: Record<string, string | null> = Object.fromEntries(DEAL_DATE_KEYS.map((k) => [k, null]));
	if (rec.id - FIRST_ID.deals >= columns.count) return dates;
	const r = stream(ctx, SALT.dates, rec.id);
	const status = String(rec.attributes.dealStatus);
	const created = Date.parse(String(rec.attributes.created));
	const day = (from: number, min: number, max: number) => from + r.int(min, max) * DAY_MS;
	if (status === 'PreApproved') {
		const pre = day(created, 10, 30);
		dates.preApproved = isoDate(pre);
		dates.preApprovedExpiry = isoDate(pre + 90 * DAY_MS);
	}
	if (SUBMITTED_STATUSES.includes(status)) {
		const lodged = day(created, 5, 40);
		dates.lodged = isoDate(lodged);
		dates.financeClause = isoDate(lodged + 21 * DAY_MS);
		let last = lodged;
		if (CONDITIONALLY_APPROVED_STATUSES.includes(status)) {
			last = day(lodged, 5, 15);
			dates.conditionallyApproved = isoDate(last);
		}
		if (APPROVED_STATUSES.includes(status)) {
			last = day(last, 5, 20);
			dates.approved = isoDate(last);
		}
		const settlement = day(last, 14, 42);
		dates.estimatedSettled = isoDate(settlement);
		if (SETTLED_STATUSES.includes(status)) dates.settled = isoDate(settlement);
	}
	if (status === 'Withdrawn' || status === 'Cancelled') dates.notProceeding = isoDate(day(created, 10, 90));
	return dates;
}

function dealOpportunity(ctx: SeedContext, columns: DealColumns, rec: Rec): Record<string, unknown> {
	const index = rec.id - FIRST_ID.deals;
	if (index >= columns.count) return { proposedLoanAmount: null, securityAmount: null, summaryNotes: null, loanPurpose: null };
	const r = stream(ctx, SALT.opportunity, rec.id);
	const proposed = Math.round((columns.baseTotals[index] * (0.9 + r.next() * 0.2)) / 1000) * 1000;
	return {
		proposedLoanAmount: proposed,
		securityAmount: Math.round(proposed / (0.55 + r.next() * 0.35) / 5000) * 5000,
		summaryNotes: r.pick(SUMMARY_NOTES),
		loanPurpose: r.pick(LOAN_PURPOSES),
	};
}

/** A deal's `splits`: its current structures, as the deal shows them. */
function dealSplits(store: Store, rec: Rec): Array<Record<string, unknown>> {
	return store.inverse('deal-structures', 'deal', rec.id).map((structureId) => {
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
			interestOnlyStartDate: interestOnly ? (begin ?? isoDate(dealCreatedMs(store, rec.id) + 30 * DAY_MS)) : null,
			interestOnlyEndDate: interestOnly ? (s.interestOnlyExpiryDate ?? null) : null,
			repaymentHolidayStartDate: null,
			repaymentHolidayEndDate: null,
		};
	});
}

/**
 * Deals (`counts.deals` of them, or the span of `dealIds`), their external references, leads,
 * structures and notes, and the deals' computed attributes. With `dealIds`, only those deals exist:
 * the others are gone before the start, with their structures, notes and external references.
 */
export const deals: SeedStep = (ctx) => {
	const store = ctx.store;
	const columns = drawDeals(ctx);
	const dealTable = new GeneratedTable('deals', FIRST_ID.deals, columns.count, (id) => dealRecord(columns, id));
	store.addTable(dealTable);
	store.addTable(new ChildTable('deal-external-references', 'deal', FIRST_ID['deal-external-references'], FIRST_ID.deals, columns.refStart, (id, dealId, _index, offset) => externalReferenceRecord(columns, id, dealId, offset)));
	store.addTable(
		new ViewTable('leads', dealTable, (rec) => ({
			id: rec.id,
			attributes: { customStatusName: store.attribute('deals', rec, 'customStatusName'), dealStatus: rec.attributes.dealStatus },
			rels: {},
		})),
	);
	// A fact find (POST /structured-leads) is a lead too: the same view of its deal.
	store.addTable(
		new ViewTable('structured-leads', dealTable, (rec) => ({
			id: rec.id,
			attributes: { customStatusName: store.attribute('deals', rec, 'customStatusName'), dealStatus: rec.attributes.dealStatus },
			rels: {},
		})),
	);
	store.addTable(new ChildTable('deal-structures', 'deal', FIRST_ID['deal-structures'], FIRST_ID.deals, columns.structureStart, (id, dealId, index) => structureRecord(ctx, columns, id, dealId, index)));
	store.addTable(new ChildTable('deal-notes', 'deal', FIRST_ID['deal-notes'], FIRST_ID.deals, columns.noteStart, (id, dealId, index) => noteRecord(ctx, id, dealId, index)));
	store.materializers.set('deals', {
		customStatusName: (rec) => {
			const statusId = rec.rels.customStatus;
			return typeof statusId === 'number' ? (store.get('custom-statuses', statusId)?.attributes.name ?? null) : null;
		},
		dates: (rec) => dealDates(ctx, columns, rec),
		opportunity: (rec) => dealOpportunity(ctx, columns, rec),
		splits: (rec) => dealSplits(store, rec),
	});
	if (ctx.dealIds !== undefined) {
		const live = new Set(ctx.dealIds);
		dealTable.retain((id) => live.has(id));
		for (const type of ['deal-structures', 'deal-notes', 'deal-external-references']) {
			const children = store.table(type) as ChildTable;
			children.retain((id) => live.has(children.parentOf(id) ?? 0));
		}
	}
};
