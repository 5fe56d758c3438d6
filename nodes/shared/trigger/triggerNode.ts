/**
 * What every Loan CRM trigger type shares, in one place (as actionNode.ts is for the action nodes):
 * group, versions, credential, polling, the parameters of the events it offers, and its poll. A
 * trigger node file states what differs (its names, written out so that a search for the type name
 * finds the file; what it watches, its panel description, its events and its default event) and its
 * icon and subtitle, which n8n's lint looks for in the node file.
 */
import type { INodeExecutionData, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { readmeSection } from '../description/documentation';
import { NODE_VERSIONS } from '../service/versions';
import { CREDENTIAL_TYPE } from '../requests/runContext';
import { triggerProperties } from './events';
import { pollTrigger } from './poll';

export interface TriggerTypeSpec {
	/** The name the editor shows ("Loan CRM Deals Trigger"), also a new node's name. */
	displayName: string;
	/** The node type name saved in workflows (`loanCrmDealsTrigger`): public, never changed. */
	name: string;
	/** What it watches: "Deals", "Contacts", or "" for the legacy Loan CRM Trigger (deals and contacts). */
	watches: 'Deals' | 'Contacts' | '';
	/** What the nodes panel shows for the trigger (and, for a paired trigger, for its action node). */
	description: string;
	events: readonly string[];
	defaultEvent: string;
	/**
	 * The first trigger type, kept for saved workflows exactly as it was: hidden from the nodes panel,
	 * version 1 only, n8n's own trigger panel and activation message.
	 */
	legacy?: boolean;
}

/** The words of the activation message for the records a trigger watches ("deal", "contact", "deal or contact"). */
function changeWords(watches: TriggerTypeSpec['watches']): string {
	return watches === '' ? 'deal or contact' : watches.toLowerCase().replace(/s$/, '');
}

/** A trigger type's description but its icon and subtitle (which the node file states, where n8n's lint looks for them). */
export function triggerNodeBase(spec: TriggerTypeSpec): Omit<INodeTypeDescription, 'icon' | 'subtitle'> {
	const { displayName } = spec;
	return {
		displayName,
		name: spec.name,
		...(spec.legacy === true ? { hidden: true } : {}),
		group: ['trigger'],
		// No defaultVersion: the editor gives new nodes the last version; saved ones keep theirs.
		version: spec.legacy === true ? 1 : [...NODE_VERSIONS],
		description: spec.description,
		documentationUrl: readmeSection('loan-crm-deals-and-contacts-triggers'),
		defaults: { name: displayName },
		polling: true,
		...(spec.legacy === true
			? {}
			: {
					triggerPanel: false,
					// n8n starts one execution per poll that finds changes, with an item per change.
					activationMessage: `Your workflow will now check Loan CRM for ${changeWords(spec.watches)} changes at every poll time and run once for each poll that finds any, with one item per change (a large backlog continues over the next polls, in order).`,
				}),
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: triggerProperties(spec.events, spec.defaultEvent, spec.legacy !== true),
	};
}

/** A trigger type's `poll` (n8n calls it with the poll's context as `this`). */
export function pollerOf(events: readonly string[]): (this: IPollFunctions) => Promise<INodeExecutionData[][] | null> {
	return async function poll(this: IPollFunctions) {
		return await pollTrigger(this, events);
	};
}
