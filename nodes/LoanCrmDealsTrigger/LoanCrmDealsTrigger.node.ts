import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { DEAL_EVENTS, eventSubtitle } from '../shared/trigger/events';
import { pollerOf, triggerNodeBase } from '../shared/trigger/triggerNode';

/**
 * Deal Created / Deal Status Changed / Deal Updated. n8n's nodes panel pairs a trigger with the
 * action node whose type name is its own without "Trigger", so this one is found inside Loan CRM
 * Deals, and the panel shows this description for the pair.
 */
export class LoanCrmDealsTrigger implements INodeType {
	description: INodeTypeDescription = {
		...triggerNodeBase({
			displayName: 'Loan CRM Deals Trigger',
			name: 'loanCrmDealsTrigger',
			watches: 'Deals',
			description: 'Read and change deals and their loan structures, securities, notes and incomes in Loan CRM, or start a workflow when a deal is created, changes or moves to a status',
			events: DEAL_EVENTS,
			defaultEvent: 'dealStatusChanged',
		}),
		// Here, where n8n's lint looks for them (as in the action nodes): it checks the icon files exist.
		icon: { light: 'file:../../icons/loanCrm.svg', dark: 'file:../../icons/loanCrm.dark.svg' },
		subtitle: eventSubtitle(DEAL_EVENTS),
	};

	poll = pollerOf(DEAL_EVENTS);
}
