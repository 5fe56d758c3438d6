/**
 * The resource types whose IDs are picked From List (a resource locator with a search), and the
 * list each one searches. An ID parameter's label depends on it ("Deal" for a choice, "Deal Note ID"
 * for a number), so the operations (operation.ts), the editor (description/locators.ts) and the
 * searches (execution/methods/listSearch.ts) all read this table.
 */

/** The list-search methods every action node offers (execution/methods/listSearch.ts). */
export type ListSearchMethod = 'searchDeals' | 'searchContacts';

interface LocatorSpec {
	searchListMethod: ListSearchMethod;
	/** What the list shows and what the search matches, for the placeholder. */
	listPlaceholder: string;
	/** How to find the ID for By ID. */
	idHint: string;
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
};
