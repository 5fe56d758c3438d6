import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { DEAL_EVENTS, eventSubtitle, triggerProperties } from '../shared/trigger/events';
import { pollTrigger } from '../shared/trigger/poll';
import { readmeSection } from '../shared/description/documentation';

/**
 * Deal Created / Deal Status Changed / Deal Updated. n8n's nodes panel pairs a trigger with the
 * action node whose type name is its own without "Trigger", so this one is found inside Loan CRM
 * Deals, and the panel shows this description for the pair.
 */
export class LoanCrmDealsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Loan CRM Deals Trigger',
		name: 'loanCrmDealsTrigger',
		icon: { light: 'file:../../icons/loanCrm.svg', dark: 'file:../../icons/loanCrm.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: eventSubtitle(DEAL_EVENTS),
		description: 'Read and change deals and their loan structures, securities, notes and incomes in Loan CRM, or start a workflow when a deal is created, changes or moves to a status',
		documentationUrl: readmeSection('loan-crm-deals-and-contacts-triggers'),
		defaults: { name: 'Loan CRM Deals Trigger' },
		polling: true,
		triggerPanel: false,
		activationMessage: 'Your workflow will now check Loan CRM for deal changes at every poll time and run once for each change it finds (large backlogs over several runs, in order).',
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'loanCrmOAuth2Api', required: true }],
		properties: triggerProperties(DEAL_EVENTS, 'dealStatusChanged'),
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollTrigger(this, DEAL_EVENTS);
	}
}
