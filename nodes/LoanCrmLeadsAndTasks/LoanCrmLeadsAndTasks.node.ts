import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { buildProperties } from '../shared/descriptions';
import { route } from '../shared/router';
import { OPERATIONS, RESOURCE_DESCRIPTIONS } from './operations';

export class LoanCrmLeadsAndTasks implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Loan CRM Leads & Tasks',
		name: 'loanCrmLeadsAndTasks',
		icon: { light: 'file:../../icons/loanCrm.svg', dark: 'file:../../icons/loanCrm.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Read leads and update tasks in Loan CRM',
		defaults: { name: 'Loan CRM Leads & Tasks' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'loanCrmOAuth2Api', required: true }],
		properties: buildProperties(OPERATIONS, RESOURCE_DESCRIPTIONS),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return route.call(this, OPERATIONS);
	}
}
