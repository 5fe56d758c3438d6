/**
 * The resource types whose IDs are picked From List (a resource locator with a search), and the
 * list each one searches. An ID parameter's label depends on it ("Deal" for a choice, "Deal Note ID"
 * for a number), so the operations (operation.ts), the editor (description/locators.ts) and the
 * searches (execution/methods/listSearch.ts) all read this table.
 *
 * A type with `byName` has a third mode for a value a form, a Switch or an AI agent has in hand (an
 * adviser's e-mail, an enquiry source's name): it is looked up in the same list when the node runs,
 * before the request (execution/lookups.ts), and nothing or several matches fail the item naming
 * the parameter.
 */

/** The list-search methods every action node offers (execution/methods/listSearch.ts). */
export type ListSearchMethod =
	| 'searchDeals'
	| 'searchContacts'
	| 'searchAdvisers'
	| 'searchAdviserFamilies'
	| 'searchEnquirySources'
	| 'searchReferrers'
	| 'searchIncomeTypes'
	| 'searchAssetTypes'
	| 'searchAssetSubTypes'
	| 'searchLiabilityTypes'
	| 'searchLiabilitySubTypes'
	| 'searchExpenseTypes'
	| 'searchPropertyTypes';

/** The By Name mode's name in a saved locator (`{ __rl, mode: 'name', value }`). */
export const BY_NAME_MODE = 'name';

export interface LocatorSpec {
	searchListMethod: ListSearchMethod;
	/** What the list shows and what the search matches, for the placeholder. */
	listPlaceholder: string;
	/** How to find the ID for By ID. */
	idHint: string;
	/** By ID takes any text, not only a whole number: the service types these IDs as text (referrers). */
	textId?: true;
	/**
	 * The parameter keeps its "… ID" label from before it had a list (Update Fields → Assignee ID):
	 * a version 1.1 tool names its argument after the label, and saved tools keep theirs.
	 */
	keepsIdLabel?: true;
	/** The third mode: a name (or an e-mail) looked up in the list before the request. */
	byName?: {
		displayName: string;
		placeholder: string;
		hint: string;
	};
}

const ADVISER_BY_NAME: LocatorSpec['byName'] = {
	displayName: 'By Name or E-mail',
	placeholder: 'e.g. sarah.mitchell@example.com',
	hint: "The adviser's e-mail address, or their name, as in Loan CRM (e.g. from a form or a Switch): looked up when the node runs",
};

/**
 * A fact find's type IDs (service/factFind.ts `picked`): the service's own lists of income, asset,
 * liability, expense and property types. By Name takes the type as the list shows it.
 */
function typeLocator(searchListMethod: ListSearchMethod, what: string, example: string, byName = true): LocatorSpec {
	return {
		searchListMethod,
		listPlaceholder: `Type a ${what} or its category…`,
		idHint: `the number after # in the list: the ${what}'s ID`,
		...(byName
			? {
					byName: {
						displayName: 'By Name',
						placeholder: `e.g. ${example}`,
						hint: `The ${what} as the list shows it ("Category › Type", > works for ›), or the type alone when only one category has it: looked up when the node runs`,
					},
				}
			: {}),
	};
}

/** Resource types whose IDs are picked with a resource locator. */
export const LOCATORS: Record<string, LocatorSpec> = {
	deals: {
		searchListMethod: 'searchDeals',
		listPlaceholder: 'Type a deal name or ID…',
		idHint: 'the number after # in the list, or id from Deal → Get Many',
	},
	// A lead's ID is the ID of the deal it became, so leads are picked from the deals.
	leads: {
		searchListMethod: 'searchDeals',
		listPlaceholder: 'Type the name or ID of the deal the lead became…',
		idHint: 'the ID of the deal the lead became, e.g. id from Deal → Get Many',
	},
	contacts: {
		searchListMethod: 'searchContacts',
		listPlaceholder: 'Type a name, e-mail or ID…',
		idHint: 'the number after # in the list, or id from Contact → Get Many',
	},
	// An adviser as the UserId header takes them: the adviser-details id, the AdviserContactId
	// (public API README: "displayed in the API Settings page within MyCRM or from the
	// adviser-details endpoint"). Allocate To, Request Options → User ID.
	'adviser-details': {
		searchListMethod: 'searchAdvisers',
		listPlaceholder: "Type an adviser's name or e-mail…",
		idHint: "the number after # in the list: the adviser's contact ID (AdviserContactId), as the credential's User ID holds it",
		byName: ADVISER_BY_NAME,
	},
	// An adviser as a task's assignee takes them: the `advisers` id (the adviser family id), another
	// number than the AdviserContactId. The same list, showing that id.
	advisers: {
		searchListMethod: 'searchAdviserFamilies',
		listPlaceholder: "Type an adviser's name or e-mail…",
		idHint: "the number after # in the list: the adviser's ID (not the contact ID the User ID takes), or adviser.id from Deal → Get Many",
		byName: ADVISER_BY_NAME,
		keepsIdLabel: true,
	},
	'enquiry-source': {
		searchListMethod: 'searchEnquirySources',
		listPlaceholder: 'Type a source or its category…',
		idHint: "the number after # in the list: the source's ID (sourceId)",
		byName: {
			displayName: 'By Name',
			placeholder: 'e.g. Online › Website enquiry form',
			hint: 'The source as the list shows it, "Category › Source" (> works for ›), or the source alone when only one category has it: looked up when the node runs',
		},
	},
	'income-types': typeLocator('searchIncomeTypes', 'income type', 'Base salary'),
	'asset-types': typeLocator('searchAssetTypes', 'asset type', 'Real estate'),
	'asset-sub-types': typeLocator('searchAssetSubTypes', 'asset sub-type', 'House'),
	'liability-types': typeLocator('searchLiabilityTypes', 'liability type', 'Credit card'),
	// Listed per liability type (GET /liability-types/{id}/liabilitySubTypes): no name to look up alone.
	'liability-sub-types': { ...typeLocator('searchLiabilitySubTypes', 'liability sub-type', '', false), listPlaceholder: "Choose the Liability Type first, then type a sub-type…" },
	'expense-types': typeLocator('searchExpenseTypes', 'expense type', 'Groceries'),
	'property-types': typeLocator('searchPropertyTypes', 'property type', 'House'),
	referrers: {
		searchListMethod: 'searchReferrers',
		listPlaceholder: "Type a referrer's name or organisation…",
		idHint: 'the ID after # in the list',
		textId: true,
		byName: {
			displayName: 'By Name',
			placeholder: 'e.g. Jane Cooper',
			hint: 'The referrer\'s name, or "Name — Organisation" as the list shows it when two have that name: looked up when the node runs',
		},
	},
};
