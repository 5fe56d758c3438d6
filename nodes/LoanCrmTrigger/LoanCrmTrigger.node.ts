import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ALL_EVENTS, eventSubtitle, triggerProperties } from '../shared/trigger/events';
import { pollTrigger } from '../shared/trigger/poll';
import { readmeSection } from '../shared/description/documentation';

/**
 * The first trigger type, for deals and contacts alike. Hidden from the nodes panel since the
 * Loan CRM Deals Trigger and Loan CRM Contacts Trigger took its place; saved workflows keep running
 * it unchanged (same parameters, default event and state).
 */
export class LoanCrmTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Loan CRM Trigger',
		name: 'loanCrmTrigger',
		hidden: true,
		icon: { light: 'file:../../icons/loanCrm.svg', dark: 'file:../../icons/loanCrm.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: eventSubtitle(ALL_EVENTS),
		description: 'Starts the workflow when deals or contacts are created or change in Loan CRM',
		documentationUrl: readmeSection('loan-crm-deals-and-contacts-triggers'),
		defaults: { name: 'Loan CRM Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'loanCrmOAuth2Api', required: true }],
		properties: triggerProperties(ALL_EVENTS, 'dealUpdated'),
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollTrigger(this, ALL_EVENTS);
	}
}
