import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { ALL_EVENTS, eventSubtitle } from '../shared/trigger/events';
import { pollerOf, triggerNodeBase } from '../shared/trigger/triggerNode';

/**
 * The first trigger type, for deals and contacts alike. Hidden from the nodes panel since the
 * Loan CRM Deals Trigger and Loan CRM Contacts Trigger took its place; saved workflows keep running
 * it unchanged (same parameters, default event and state).
 */
export class LoanCrmTrigger implements INodeType {
	description: INodeTypeDescription = {
		...triggerNodeBase({
			displayName: 'Loan CRM Trigger',
			name: 'loanCrmTrigger',
			watches: '',
			legacy: true,
			description: 'Starts the workflow when deals or contacts are created or change in Loan CRM',
			events: ALL_EVENTS,
			defaultEvent: 'dealUpdated',
		}),
		// Here, where n8n's lint looks for them (as in the action nodes): it checks the icon files exist.
		icon: { light: 'file:../../icons/loanCrm.svg', dark: 'file:../../icons/loanCrm.dark.svg' },
		subtitle: eventSubtitle(ALL_EVENTS),
	};

	poll = pollerOf(ALL_EVENTS);
}
