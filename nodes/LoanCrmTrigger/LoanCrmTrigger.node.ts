import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { FeedState } from '../shared/changeFeed';
import { latestRecord, pollChanges } from '../shared/changeFeed';
import { queryFromOptions } from '../shared/query';
import { RESOURCE_TYPES } from '../shared/schema';
import { TRIGGER_EVENTS, triggerProperties } from './events';

export class LoanCrmTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Loan CRM Deals & Contacts Trigger',
		name: 'loanCrmTrigger',
		icon: { light: 'file:../../icons/loanCrm.svg', dark: 'file:../../icons/loanCrm.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"]}}',
		description: 'Starts the workflow when deals or contacts are created or change in Loan CRM',
		defaults: { name: 'Loan CRM Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'loanCrmOAuth2Api', required: true }],
		properties: triggerProperties(),
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const event = TRIGGER_EVENTS[this.getNodeParameter('event') as keyof typeof TRIGGER_EVENTS];
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const { filter } = queryFromOptions(
			this.getNode(),
			event.type,
			RESOURCE_TYPES[event.type],
			{
				filter: this.getNodeParameter('filter', '') as string,
				conditions: event.type === 'deals' ? options.dealConditions : options.contactConditions,
			},
			this.getTimezone(),
			undefined,
			{ filter: 'Filter', conditions: 'Options → Conditions' },
		);
		const windowSeconds = typeof options.safetyWindow === 'number' ? options.safetyWindow : 120;
		const query = { path: event.path, field: event.field, filter, windowMs: windowSeconds * 1000, maxSeen: 20_000 };

		if (this.getMode() === 'manual') {
			const sample = await latestRecord(this, query);
			return sample.length > 0 ? [this.helpers.returnJsonArray(sample)] : null;
		}

		const staticData = this.getWorkflowStaticData('node') as FeedState & IDataObject;
		const { emit, state } = await pollChanges(this, query, staticData, Date.now());
		staticData.since = state.since;
		staticData.seen = state.seen;
		return emit.length > 0 ? [this.helpers.returnJsonArray(emit)] : null;
	}
}
