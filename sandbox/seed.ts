/**
 * The sandbox's records: deterministic, realistic-looking data (Australian names, suburbs, lenders)
 * for one seed, built as data plus builders:
 *
 *   seed-data.ts       the rows: fixed records, the records tests rely on, word lists, weights, ranges
 *   seed-builders.ts   rows into stored records (fixedRows, generateRows, addRow), and the types
 *                      but the deals
 *   seed-deals.ts      deals as columns, their structures, notes and external references on demand,
 *                      leads, the deals' computed attributes
 *   seed.ts            SEED_STEPS (which types, in which order), the fixture ids, seedStore
 *
 * Adding a seeded resource type (say referrers, or webhooks):
 *
 *   1. seed-data.ts: its first id in FIRST_ID (a base of its own), and its rows, one `SeedRow` per
 *      record: `{ attributes: { … }, rels: { adviser: idOf('advisers', 2) } }` (a to-many
 *      relationship is an array of ids). Record i gets the id FIRST_ID[type] + i.
 *   2. SEED_STEPS below: `(ctx) => fixedRows(ctx, 'referrers', REFERRERS)`, after the types its rows
 *      point at. Rows drawn at random instead: `(ctx) => generateRows(ctx, 'referrers', count,
 *      SALT.referrer, (r, id, index) => row)` with a new SALT entry, drawing only from `r` (its own
 *      stream), never from `ctx.shared`: then no existing record changes.
 *   3. Its resource type and endpoints in schema.ts (written from the contract, like the rest), a
 *      FixtureIds entry (types.ts) when tests name one of its records, and its line in
 *      test/sandbox/seed.test.ts (the other lines stay as they are, unless the schema gives the
 *      types it points at a relationship back to it).
 */
import type { FixtureIds } from './types';
import type { SeedContext, SeedStep } from './seed-builders';
import { advisers, assets, contactGroups, dealSecurities, enquirySources, factFindTypes, fixedRows, incomes, integrations, joinedAdvisers, organisations, referrers, seededIds, tasks } from './seed-builders';
import { deals } from './seed-deals';
import { ADVISER_CONTACT_ID_BASE, CONTACT_CATEGORIES, CUSTOM_STATUSES, FIRST_ID, idOf } from './seed-data';
import type { SeededType } from './seed-data';
import { Rng, hash32 } from './random';
import { Store } from './store';

export { ADVISER_CONTACT_ID_BASE, FIRST_ID, FIRST_NAMES, LAST_NAMES, LENDERS } from './seed-data';

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
	/** Adviser contact id (UserId: an adviser-details id) → adviser resource id. */
	adviserByContactId: Map<string, number>;
}

/**
 * The seeded types, in the order they are built: a step may point at the records of the steps above
 * it. Organisations, advisers and integrations draw from the shared stream in this order.
 */
const SEED_STEPS: readonly SeedStep[] = [
	organisations, // and their organisation-addresses
	advisers, // and their adviser-details
	(ctx) => fixedRows(ctx, 'custom-statuses', CUSTOM_STATUSES),
	integrations,
	(ctx) => fixedRows(ctx, 'contact-categories', CONTACT_CATEGORIES),
	contactGroups, // their contacts, and the contacts' external references
	assets, // real estate with its financial-address
	incomes,
	deals, // deal-external-references, leads, deal-structures, deal-notes
	dealSecurities,
	tasks,
	// From the service's public API description: types no other seeded record points at (yet).
	joinedAdvisers, // and their adviser-details
	enquirySources,
	referrers,
	factFindTypes, // the type lists of a fact find, and the empty tables of the records it creates
];

/** The records tests rely on, by what they are (sandbox/types.ts says what each is). */
function fixtureIds(ctx: SeedContext): FixtureIds {
	const first = (type: SeededType) => String(seededIds(ctx, type)[0] ?? '');
	const id = (type: SeededType, index = 0) => String(idOf(type, index));
	return {
		dealWithNotes: id('deals'),
		dealWithCustomStatus: id('deals'),
		dealWithoutCustomStatus: id('deals', 1),
		dealWithoutNotes: id('deals', 1),
		settledDeal: id('deals', 2),
		dealWithApostrophe: id('deals', 3),
		dealStructure: id('deal-structures'),
		lockedDealStructure: id('deal-structures', 2),
		dealNote: id('deal-notes'),
		dealSecurity: first('deal-securities'),
		dealExternalReference: id('deal-external-references'),
		contact: first('contacts'),
		contactWithApostrophe: ctx.counts.contacts > 1 ? id('contacts', 1) : '',
		contactGroup: first('contact-groups'),
		contactExternalReference: first('contact-external-references'),
		contactCategory: id('contact-categories'),
		customStatus: id('custom-statuses'),
		income: first('incomes'),
		organisation: id('organisations'),
		organisationWithoutAddresses: id('organisations', 4),
		asset: id('assets'),
		assetWithoutAddresses: id('assets', 1),
		lead: id('deals'),
		task: id('tasks'),
		taskWithDeal: id('tasks', 1),
		integration: id('integrations'),
		otherIntegration: id('integrations', 2),
		adviser: id('advisers'),
		adviserContactId: String(ADVISER_CONTACT_ID_BASE),
		adviserContactIds: seededIds(ctx, 'adviser-details').map(String),
		referrer: id('referrers'),
	};
}

/**
 * Builds the store. With `dealIds` (ascending, from `FIRST_ID.deals` up), the deals are the
 * generated ones up to the highest of them, of which only these exist: an id layout with gaps
 * (sandbox/layouts.ts), as if the others had been deleted, with their notes, structures and
 * external references, before the start. `sizes.deals` is then not used.
 */
export function seedStore(seed: number, sizes: Sizes, dealIds?: readonly number[]): SeededData {
	if (dealIds !== undefined && !dealIds.every((id, index) => Number.isInteger(id) && id >= FIRST_ID.deals && (index === 0 || id > dealIds[index - 1]))) {
		throw new Error(`dealIds must be ascending whole numbers from ${FIRST_ID.deals} up`);
	}
	const whole = (n: number) => Math.max(0, Math.floor(n));
	const ctx: SeedContext = {
		seed,
		store: new Store(),
		shared: new Rng(hash32(seed, 99)),
		counts: {
			deals: dealIds === undefined ? whole(sizes.deals) : dealIds.length === 0 ? 0 : dealIds[dealIds.length - 1] - FIRST_ID.deals + 1,
			contacts: whole(sizes.contacts),
			incomes: whole(sizes.incomes),
			dealSecurities: whole(sizes.dealSecurities),
		},
		dealIds,
	};
	for (const step of SEED_STEPS) step(ctx);
	const details = ctx.store.table('adviser-details');
	const adviserByContactId = new Map(details.ids().map((id) => [String(id), details.get(id)?.rels.adviser as number]));
	return { store: ctx.store, ids: fixtureIds(ctx), adviserByContactId };
}
