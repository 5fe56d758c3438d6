import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { actionNodeBase, actionSubtitle } from '../shared/description/actionNode';
import { ACTION_NODES_DOCUMENTATION } from '../shared/description/documentation';
import { listSearch } from '../shared/execution/methods/listSearch';
import { route } from '../shared/execution/router';
import { resolveOperations } from '../shared/operation/operation';
import { DEFAULTS, OPERATIONS, RESOURCE_DESCRIPTIONS } from './operations';

/** The catalogue resolved once: the description and every run read the same operations. */
const operations = resolveOperations(OPERATIONS);

export class LoanCrmContacts implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Loan CRM Contacts',
		name: 'loanCrmContacts',
		icon: { light: 'file:../../icons/loanCrm.svg', dark: 'file:../../icons/loanCrm.dark.svg' },
		description: 'Find and create contacts, read contacts by external reference and update external references and contact categories in Loan CRM',
		// From version 1.2 the operation in words ("Create deal note"); before, "create: dealNote".
		subtitle: actionSubtitle(operations),
		documentationUrl: ACTION_NODES_DOCUMENTATION,
		// n8n adds this node's AI-agent tool copy as the node type loanCrmContactsTool (toolDescription.ts).
		usableAsTool: true,
		// New nodes are named by their action ("Get many deals"), tools "<action> in Loan CRM" (see toolDescription.ts).
		defaults: { name: 'Loan CRM' },
		...actionNodeBase(operations, RESOURCE_DESCRIPTIONS, DEFAULTS),
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return route.call(this, operations);
	}
}
