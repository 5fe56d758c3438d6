import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CONTACT_EVENTS, eventSubtitle, triggerProperties } from '../shared/trigger/events';
import { pollTrigger } from '../shared/trigger/poll';
import { readmeSection } from '../shared/description/documentation';

/**
 * Contact Created / Contact Updated, found inside Loan CRM Contacts in n8n's nodes panel (paired by
 * type name), which shows this description for the pair.
 */
export class LoanCrmContactsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Loan CRM Contacts Trigger',
		name: 'loanCrmContactsTrigger',
		icon: { light: 'file:../../icons/loanCrm.svg', dark: 'file:../../icons/loanCrm.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: eventSubtitle(CONTACT_EVENTS),
		description: 'Find, create and update contacts and their external references and categories in Loan CRM, or start a workflow when a contact is created or changes',
		documentationUrl: readmeSection('loan-crm-deals-and-contacts-triggers'),
		defaults: { name: 'Loan CRM Contacts Trigger' },
		polling: true,
		triggerPanel: false,
		activationMessage: 'Your workflow will now check Loan CRM for contact changes at every poll time and run once for each change it finds (large backlogs over several runs, in order).',
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'loanCrmOAuth2Api', required: true }],
		properties: triggerProperties(CONTACT_EVENTS, 'contactCreated'),
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollTrigger(this, CONTACT_EVENTS);
	}
}
