/**
 * POST /jsonapi/leads, from the service's public API description (swagger `Lead_Post`, the Leads
 * Postman collection and the README), not from the seed: "creates a lead, including contact and
 * deal attributes".
 *
 * What the public material says, and how the sandbox fills the gaps it leaves:
 * - The lead's id is the id of the deal it becomes (the samples keep `data.id` as the deal id), a
 *   deal in `NewLeads` allocated to the `UserId` adviser ("a new lead will be allocated to that
 *   adviser").
 * - `contactMatchExisting` (`ExistingContactCheck`) says which existing contact is the lead's
 *   person. The sandbox's reading: the e-mail always takes part (every choice starts with Email),
 *   plus the mobile, the first and last name, or the date of birth as the choice names them; text
 *   compared as SQL Server's default collation does (case-insensitive, trailing spaces ignored);
 *   the oldest such contact is used, else a new contact in a new contact group (allocated to the
 *   adviser). A lead without e-mail never matches. The attribute is a non-nullable .NET enum, so
 *   a lead without it matches as `Email` (the enum's first value).
 * - `externalReference` + `externalIntegration` (an integration *name*): the Postman flow finds the
 *   created deal again through deal-external-references filtered on both, so the lead creates that
 *   reference. An unknown integration is created only when `externalIntegrationAllowCreate` is
 *   true; otherwise the lead is refused with 422 pointing at `externalIntegration`, before
 *   anything is written. A reference without an integration is refused likewise.
 * - `noteTitle` / `noteDetails` become a note on the deal, written by the adviser; `utmCampaign`
 *   goes to a new contact group (the only UTM field a readable type carries).
 * - `sourceId` + `sourceCategoryId` (an enquiry source) and `sourceReferrerId` (a referrer) must be
 *   ids of the organisation's lists (`checkSource`).
 * - The deal is allocated to the adviser of the request's `UserId` (the server has checked it is one
 *   of the organisation's advisers: 403 otherwise).
 * - Every lead attribute but `customStatusName` and `dealStatus` is write-only (never returned).
 */
import type { SandboxState } from './data';
import { ApiError, validationError } from './errors';
import type { Rec } from './store';

/** The comparison the service's database makes: case-insensitive, trailing spaces ignored. */
export function sameText(a: unknown, b: unknown): boolean {
	return typeof a === 'string' && typeof b === 'string' && a.replace(/\s+$/, '').toLowerCase() === b.replace(/\s+$/, '').toLowerCase();
}

export function given(value: unknown): value is string {
	return typeof value === 'string' && value.trim() !== '';
}

/** The contact the lead is for, per `contactMatchExisting`; undefined when none matches. */
function matchingContact(state: SandboxState, attributes: Record<string, unknown>): Rec | undefined {
	if (!given(attributes.email)) return undefined;
	const check = typeof attributes.contactMatchExisting === 'string' ? attributes.contactMatchExisting : 'Email';
	const store = state.store;
	const fits = (contact: Rec): boolean => {
		const a = contact.attributes;
		if (!sameText(a.email, attributes.email)) return false;
		if (check.includes('Mobile') && !sameText(a.mobile, attributes.mobile)) return false;
		if (check.includes('DateOfBirth') && a.dateOfBirth !== attributes.dateOfBirth) return false;
		if (check.endsWith('Name') && !(sameText(a.firstName, attributes.firstName) && sameText(a.lastName, attributes.lastName))) return false;
		return true;
	};
	for (const id of store.table('contacts').ids()) {
		const contact = store.get('contacts', id);
		if (contact !== undefined && fits(contact)) return contact;
	}
	return undefined;
}

/** The integration named `name` (compared as the database does), or undefined. */
function integrationNamed(state: SandboxState, name: string): number | undefined {
	const store = state.store;
	return store
		.table('integrations')
		.ids()
		.find((id) => sameText(store.get('integrations', id)?.attributes.name, name.trim()));
}

const CONTACT_FIELDS = ['title', 'firstName', 'preferredName', 'lastName', 'email', 'mobile', 'dateOfBirth', 'gender', 'maritalStatus', 'hasMarketingConsent', 'isPrimary'];

/**
 * Where the lead came from: `sourceId` and `sourceCategoryId` are an enquiry source's numbers (GET
 * /jsonapi/enquiry-sources), `sourceReferrerId` a referrer's id (GET /jsonapi/referrers). The public
 * description types them and names the lists; what the service does with an id its lists lack is
 * not said: the sandbox refuses it as a JsonApiDotNetCore validation error (422 pointing at the
 * attribute), as it refuses an unknown integration. A category without a source is taken as given.
 */
export function checkSource(state: SandboxState, attributes: Record<string, unknown>): void {
	const store = state.store;
	const sources = store.table('enquiry-source').ids().map((id) => store.get('enquiry-source', id)?.attributes ?? {});
	const { sourceId, sourceCategoryId, sourceReferrerId } = attributes;
	if (sourceId !== undefined && sourceId !== null) {
		const source = sources.find((candidate) => candidate.sourceId === sourceId);
		if (source === undefined) throw new ApiError(422, [validationError('/data/attributes/sourceId', `Enquiry source '${String(sourceId)}' does not exist.`)]);
		if (sourceCategoryId !== undefined && sourceCategoryId !== null && source.sourceCategoryId !== sourceCategoryId) {
			throw new ApiError(422, [
				validationError('/data/attributes/sourceCategoryId', `Enquiry source '${String(sourceId)}' is not in category '${String(sourceCategoryId)}'; its category is '${String(source.sourceCategoryId)}'.`),
			]);
		}
	} else if (sourceCategoryId !== undefined && sourceCategoryId !== null && !sources.some((candidate) => candidate.sourceCategoryId === sourceCategoryId)) {
		throw new ApiError(422, [validationError('/data/attributes/sourceCategoryId', `Enquiry source category '${String(sourceCategoryId)}' does not exist.`)]);
	}
	if (given(sourceReferrerId)) {
		const known = /^\d+$/.test(sourceReferrerId.trim()) && store.get('referrers', Number(sourceReferrerId.trim())) !== undefined;
		if (!known) throw new ApiError(422, [validationError('/data/attributes/sourceReferrerId', `Referrer '${sourceReferrerId}' does not exist.`)]);
	}
}

/**
 * What a lead and a fact find share before anything is written: the source and referrer checked, and
 * the external reference with its integration (an unknown one refused unless it may be created).
 * Returns what `recordLeadParts` writes.
 */
export interface LeadParts {
	reference?: string;
	integrationName?: string;
	integration?: number;
}

export function checkLeadParts(state: SandboxState, attributes: Record<string, unknown>): LeadParts {
	checkSource(state, attributes);
	const reference = given(attributes.externalReference) ? attributes.externalReference : undefined;
	const integrationName = given(attributes.externalIntegration) ? attributes.externalIntegration.trim() : undefined;
	const integration = integrationName === undefined ? undefined : integrationNamed(state, integrationName);
	if (reference !== undefined && integrationName === undefined) {
		throw new ApiError(422, [validationError('/data/attributes/externalIntegration', 'An external reference needs the name of its integration (externalIntegration).')]);
	}
	if (integrationName !== undefined && integration === undefined && attributes.externalIntegrationAllowCreate !== true) {
		throw new ApiError(422, [
			validationError(
				'/data/attributes/externalIntegration',
				`Integration '${integrationName}' does not exist. Set externalIntegrationAllowCreate to true to create it with the lead.`,
			),
		]);
	}
	return { reference, integrationName, integration };
}

/** The lead's deal gets its note (written by the adviser) and its external reference, the integration created when allowed. */
export function recordLeadParts(state: SandboxState, dealId: number, adviserId: number, attributes: Record<string, unknown>, parts: LeadParts): void {
	const store = state.store;
	const stamp = state.stamp();
	let integration = parts.integration;
	if (parts.integrationName !== undefined && integration === undefined) {
		integration = store.table('integrations').nextId();
		store.insert('integrations', { id: integration, attributes: { name: parts.integrationName, description: null, created: stamp, updated: stamp }, rels: {} });
	}
	if (given(attributes.noteTitle) || given(attributes.noteDetails)) {
		store.insert('deal-notes', {
			id: store.table('deal-notes').nextId(),
			attributes: { title: attributes.noteTitle ?? null, detail: attributes.noteDetails ?? null, writtenBy: state.adviserName(adviserId) },
			rels: { deal: dealId },
		});
	}
	if (parts.reference !== undefined && integration !== undefined) {
		store.insert('deal-external-references', {
			id: store.table('deal-external-references').nextId(),
			attributes: { externalReference: parts.reference },
			rels: { deal: dealId, integration },
		});
	}
}

/** Creates the lead (contact, deal, note, external reference) and returns the lead's record. */
export function createLead(state: SandboxState, attributes: Record<string, unknown>, adviserId: number): Rec {
	const store = state.store;
	// Everything that can refuse the lead is checked before anything is written.
	const parts = checkLeadParts(state, attributes);
	const stamp = state.stamp();

	let contact = matchingContact(state, attributes);
	if (contact === undefined) {
		const contactAttributes: Record<string, unknown> = {};
		for (const name of CONTACT_FIELDS) if (attributes[name] !== undefined) contactAttributes[name] = attributes[name];
		contact = state.createContact(contactAttributes, null, adviserId);
		const group = contact.rels.contactGroup;
		if (typeof group === 'number' && given(attributes.utmCampaign)) state.update('contact-groups', group, { utmCampaign: attributes.utmCampaign });
	}

	const dealId = store.table('deals').nextId();
	const name = given(attributes.dealName)
		? attributes.dealName
		: [attributes.lastName, attributes.firstName].filter(given).join(', ') || 'New lead';
	store.insert('deals', {
		id: dealId,
		attributes: { created: stamp, updated: stamp, totalLoanAmount: null, name, dealStatus: 'NewLeads', lenderName: null, dealType: 'Residential' },
		rels: { adviser: adviserId, customStatus: null, contacts: [contact.id] },
	});
	recordLeadParts(state, dealId, adviserId, attributes, parts);
	const lead = store.get('leads', dealId);
	if (lead === undefined) throw new Error(`lead ${dealId} was not created`);
	return lead;
}
