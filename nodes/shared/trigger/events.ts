import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { conditionsProperty } from '../description/conditions';
import type { ResourceTypeName } from '../service/schema';
import { DEAL_STATUSES } from '../service/schema';
import { optionList } from '../description/fieldProperties';
import { forVariants, forVersions } from '../description/versions';
import type { NodeVersion } from '../service/versions';
import { DEFAULT_MAX_RECORDS_PER_POLL, MAX_RECORDS_PER_POLL_CEILING } from './changeFeed';
import { rateLimitWaitProperty } from '../description/rateLimitWait';

interface TriggerEvent {
	name: string;
	/**
	 * What the nodes panel lists under the node's Triggers (n8n's `action`): "On" and the event's
	 * name, so the entry picked and the event the node opens with read the same.
	 */
	action: string;
	description: string;
	type: ResourceTypeName;
	path: string;
	field: 'created' | 'updated';
	/** Set for status-transition events: the attribute whose moves are emitted. */
	statusField?: 'dealStatus';
}

export const TRIGGER_EVENTS: Record<string, TriggerEvent> = {
	contactCreated: { name: 'Contact Created', action: 'On contact created', description: 'A new contact was created', type: 'contacts', path: '/contacts', field: 'created' },
	contactUpdated: {
		name: 'Contact Updated',
		action: 'On contact updated',
		description: 'A contact was created or changed in any way',
		type: 'contacts',
		path: '/contacts',
		field: 'updated',
	},
	dealCreated: { name: 'Deal Created', action: 'On deal created', description: 'A new deal was created', type: 'deals', path: '/deals', field: 'created' },
	dealStatusChanged: {
		name: 'Deal Status Changed',
		action: 'On deal status changed (e.g. settled)',
		description: "A deal's status moved into (or out of) the selected statuses; edits that keep the status never fire",
		type: 'deals',
		path: '/deals',
		field: 'updated',
		statusField: 'dealStatus',
	},
	dealUpdated: {
		name: 'Deal Updated',
		action: 'On deal updated',
		description: 'A deal was created or changed in any way (every edit fires)',
		type: 'deals',
		path: '/deals',
		field: 'updated',
	},
};

/** The events each trigger type offers (the legacy Loan CRM Trigger offers them all). */
export const DEAL_EVENTS: readonly string[] = ['dealCreated', 'dealStatusChanged', 'dealUpdated'];
export const CONTACT_EVENTS: readonly string[] = ['contactCreated', 'contactUpdated'];
export const ALL_EVENTS: readonly string[] = Object.keys(TRIGGER_EVENTS);

/**
 * The canvas subtitle: the chosen event's name (n8n shows a subtitle expression's result as is, so
 * `$parameter["event"]` alone would show its value, e.g. "dealStatusChanged").
 */
export function eventSubtitle(offered: readonly string[]): string {
	const chain = offered.map((value) => `$parameter["event"] === ${JSON.stringify(value)} ? ${JSON.stringify(TRIGGER_EVENTS[value].name)} : `).join('');
	return `={{ ${chain}$parameter["event"] }}`;
}

/** An event's entries in an Event parameter: name, value, description and the nodes panel's entry. */
export function eventOptions(offered: readonly string[]): INodePropertyOptions[] {
	return offered.map((value) => ({ name: TRIGGER_EVENTS[value].name, value, description: TRIGGER_EVENTS[value].description, action: TRIGGER_EVENTS[value].action }));
}

/** Deal Status Changed's To Status, shown when `show` holds (its statuses in the pipeline's order). */
export function toStatusProperty(show: NonNullable<IDisplayOptions['show']>, defaultStatuses: string[] = []): INodeProperties {
	return {
		displayName: 'To Status',
		name: 'toStatuses',
		type: 'multiOptions',
		options: optionList(DEAL_STATUSES, true),
		default: [...defaultStatuses],
		description: 'Fire when a deal moves into one of these statuses. Empty: into any status.',
		displayOptions: { show },
	};
}

/** Deal Status Changed's From Status, shown when `show` holds. */
export function fromStatusProperty(show: NonNullable<IDisplayOptions['show']>): INodeProperties {
	return {
		displayName: 'From Status',
		name: 'fromStatuses',
		type: 'multiOptions',
		options: optionList(DEAL_STATUSES, true),
		default: [],
		description: 'Fire only when a deal moves out of one of these statuses. Empty: from any status, including deals not seen before.',
		displayOptions: { show },
	};
}

/** Simplify of a trigger's deal items (trigger/output.ts): the summary, or every field. */
export function simplifyProperty(displayOptions?: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description:
			'Whether to return only the fields people look at first (name, status, previous status, amount, lender, key dates), flat, one table row per deal. Off returns every field, nested ones included.',
		...(displayOptions === undefined ? {} : { displayOptions }),
	};
}

/**
 * The trigger's parameters for the events it offers: Event, To/From Status (Deal Status Changed),
 * Filter, Simplify (deal events, from version 1.1, for a trigger that has versions) and Options.
 * Statuses are listed in the order of the resource table (the pipeline's), as in Conditions.
 */
export function triggerProperties(offered: readonly string[], defaultEvent: string, versioned: boolean): INodeProperties[] {
	const events = eventOptions(offered);
	const offeredOf = (type: ResourceTypeName) => offered.filter((value) => TRIGGER_EVENTS[value].type === type);
	const [dealEvents, contactEvents] = [offeredOf('deals'), offeredOf('contacts')];
	const conditions = (type: ResourceTypeName, shownFor: string[]): INodeProperties =>
		conditionsProperty(type, {
			name: type === 'deals' ? 'dealConditions' : 'contactConditions',
			description: 'Only records matching all these conditions start the workflow',
			displayOptions: { show: { '/event': shownFor } },
		});
	const toStatus = toStatusProperty({ event: ['dealStatusChanged'] });
	const fromStatus = fromStatusProperty({ event: ['dealStatusChanged'] });
	// From version 1.1 a new node starts at Settled, what "On deal status changed (e.g. settled)" in
	// the nodes panel promises (the panel sets only the event); version 1 keeps its empty default.
	const statuses: INodeProperties[] = offered.includes('dealStatusChanged')
		? [...(versioned ? forVersions(toStatus, { v1_1: { default: ['Settled'] } }) : [toStatus]), fromStatus]
		: [];
	const filter: INodeProperties =
		dealEvents.length > 0
			? {
					displayName: 'Filter',
					name: 'filter',
					type: 'string',
					default: '',
					placeholder: "equals(lenderName,'ANZ')",
					description:
						"Only records matching this expression in the service's syntax start the workflow, e.g. equals(lenderName,'ANZ'). To react when a deal reaches a status, use the Deal Status Changed event rather than a filter on dealStatus.",
				}
			: {
					displayName: 'Filter',
					name: 'filter',
					type: 'string',
					default: '',
					placeholder: "equals(hasMarketingConsent,'true')",
					description: "Only records matching this expression in the service's syntax start the workflow, e.g. equals(hasMarketingConsent,'true')",
				};
	// From version 1.1 a deal item is its summary (trigger/output.ts); version 1 has no such parameter.
	const simplify: INodeProperties[] =
		versioned && dealEvents.length > 0
			? [simplifyProperty({ show: { '@version': [{ _cnd: { gte: 1.1 } }] } })]
			: [];
	const options = (version: NodeVersion): INodeProperties => ({
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			...(contactEvents.length > 0 ? [conditions('contacts', contactEvents)] : []),
			...(dealEvents.length > 0 ? [conditions('deals', dealEvents)] : []),
			{
				displayName: 'Max Records per Poll',
				name: 'maxRecordsPerPoll',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_RECORDS_PER_POLL_CEILING, numberPrecision: 0 },
				default: DEFAULT_MAX_RECORDS_PER_POLL,
				description: `Most records one poll emits (one execution). A larger backlog, e.g. a bulk import, continues at the next polls, in change order, nothing skipped. Up to ${MAX_RECORDS_PER_POLL_CEILING}.`,
			},
			{
				displayName: 'Safety Window (Seconds)',
				name: 'safetyWindow',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 120,
				description: 'How far back each poll re-reads, to catch records whose timestamps arrive late; repeats are skipped',
			},
			rateLimitWaitProperty(version),
		],
	});
	return [
		{
			displayName: 'Event',
			name: 'event',
			type: 'options',
			noDataExpression: true,
			options: events,
			default: defaultEvent,
		},
		...statuses,
		filter,
		...simplify,
		// The rate-limit wait's label is the version's (1.2: shorter, the unit shown).
		...(versioned ? forVariants(({ version }) => options(version)) : [options(1)]),
	];
}
