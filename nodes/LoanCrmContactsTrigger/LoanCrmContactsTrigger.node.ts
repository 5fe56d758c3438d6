import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { CONTACT_EVENTS, eventSubtitle } from '../shared/trigger/events';
import { pollerOf, triggerNodeBase } from '../shared/trigger/triggerNode';

/**
 * Contact Created / Contact Updated, found inside Loan CRM Contacts in n8n's nodes panel (paired by
 * type name), which shows this description for the pair.
 */
export class LoanCrmContactsTrigger implements INodeType {
	description: INodeTypeDescription = {
		...triggerNodeBase({
			displayName: 'Loan CRM Contacts Trigger',
			name: 'loanCrmContactsTrigger',
			watches: 'Contacts',
			description: 'Find, create and update contacts and their external references and categories in Loan CRM, or start a workflow when a contact is created or changes',
			events: CONTACT_EVENTS,
			defaultEvent: 'contactCreated',
		}),
		// Here, where n8n's lint looks for them (as in the action nodes): it checks the icon files exist.
		icon: { light: 'file:../../icons/loanCrm.svg', dark: 'file:../../icons/loanCrm.dark.svg' },
		subtitle: eventSubtitle(CONTACT_EVENTS),
	};

	poll = pollerOf(CONTACT_EVENTS);
}
