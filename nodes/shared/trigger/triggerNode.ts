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
		...triggerConnections(),
		properties: triggerProperties(spec.events, spec.defaultEvent, spec.legacy !== true),
	};
}

/** What every trigger type connects: no input, one output, the package's credential. */
function triggerConnections(): Pick<INodeTypeDescription, 'inputs' | 'outputs' | 'credentials'> {
	return { inputs: [], outputs: [NodeConnectionTypes.Main], credentials: [{ name: CREDENTIAL_TYPE, required: true }] };
}

export interface WebhookTriggerTypeSpec {
	/** The name the editor shows, also a new node's name. */
	displayName: string;
	/** The node type name saved in workflows: public, never changed. */
	name: string;
	/** What the nodes panel shows for it. */
	description: string;
	/** The README section its Docs link opens. */
	documentation: string;
}

/**
 * The Webhook Trigger's description but what its node file states (icon, subtitle, its webhook and
 * its parameters, where n8n's lint looks for them): group, version, credential, the activation
 * message. Version 1 gives the items the polling triggers give at their newest version (1.2, whose items are
 * 1.1's) and shows their 1.2 words (webhookTrigger.ts POLLING_WORDS).
 */
export function webhookTriggerNodeBase(spec: WebhookTriggerTypeSpec): Omit<INodeTypeDescription, 'icon' | 'subtitle' | 'webhooks' | 'properties'> {
	return {
		displayName: spec.displayName,
		name: spec.name,
		group: ['trigger'],
		version: 1,
		description: spec.description,
		documentationUrl: readmeSection(spec.documentation),
		defaults: { name: spec.displayName },
		// n8n's panel for webhook triggers ("listen", the Test URL while listening), in Loan CRM's words.
		triggerPanel: {
			header: '',
			executionsHelp: {
				inactive:
					"Loan CRM's notifications come to this node's URLs (Webhook URLs above). <br /> <br /> <b>While you build the workflow</b>, click 'listen' and send a notification to the Test URL (from the sandbox: <code>npm run sandbox -- --webhook &lt;Test URL&gt;</code>); the execution shows up in the editor. <br /> <br /> <b>To run it for real</b>, publish the workflow and send the Production URL to Loan CRM's team, asking for webhooks for the records under Resources. Those executions show up in the executions list.",
				active:
					"Loan CRM's notifications come to this node's URLs (Webhook URLs above). <br /> <br /> <b>While you build the workflow</b>, click 'listen' and send a notification to the Test URL; the execution shows up in the editor. <br /> <br /> <b>The workflow is published</b>: notifications to the Production URL run it and show up in the <a data-key=\"executions\">executions list</a>, once Loan CRM's team has set up webhooks for that URL.",
			},
			activationHint: "Once the workflow is built, publish it and send the Production URL to Loan CRM's team: they set up the webhooks (Loan CRM has no way for n8n to register them).",
		},
		// Loan CRM has no subscription API: n8n registers nothing there, the user sends the URL.
		activationMessage:
			"Your workflow now answers Loan CRM's notifications at this node's Production URL and runs once for each change they announce. Loan CRM sends them only to addresses its team has configured: send them the Production URL (open the node, Webhook URLs → Production URL) and the records chosen under Resources. n8n's log repeats both.",
		...triggerConnections(),
	};
}

/** A trigger type's `poll` (n8n calls it with the poll's context as `this`). */
export function pollerOf(events: readonly string[]): (this: IPollFunctions) => Promise<INodeExecutionData[][] | null> {
	return async function poll(this: IPollFunctions) {
		return await pollTrigger(this, events);
	};
}
