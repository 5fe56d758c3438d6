import type { INodeProperties } from 'n8n-workflow';

import { conditionsProperty } from '../shared/description/conditions';
import type { ResourceTypeName } from '../shared/service/schema';
import { DEAL_STATUSES } from '../shared/service/schema';
import { displayNameOf } from '../shared/service/catalogue';
import { DEFAULT_MAX_RECORDS_PER_POLL, MAX_RECORDS_PER_POLL_CEILING } from './changeFeed';

interface TriggerEvent {
	name: string;
	description: string;
	type: ResourceTypeName;
	path: string;
	field: 'created' | 'updated';
	/** Set for status-transition events: the attribute whose moves are emitted. */
	statusField?: 'dealStatus';
}

export const TRIGGER_EVENTS: Record<string, TriggerEvent> = {
	contactCreated: { name: 'Contact Created', description: 'A new contact was created', type: 'contacts', path: '/contacts', field: 'created' },
	contactUpdated: { name: 'Contact Updated', description: 'A contact was created or changed in any way', type: 'contacts', path: '/contacts', field: 'updated' },
	dealCreated: { name: 'Deal Created', description: 'A new deal was created', type: 'deals', path: '/deals', field: 'created' },
	dealStatusChanged: {
		name: 'Deal Status Changed',
		description: "A deal's status moved into (or out of) the selected statuses; edits that keep the status never fire",
		type: 'deals',
		path: '/deals',
		field: 'updated',
		statusField: 'dealStatus',
	},
	dealUpdated: { name: 'Deal Updated', description: 'A deal was created or changed in any way (every edit fires)', type: 'deals', path: '/deals', field: 'updated' },
};

/** The deal statuses to pick from, alphabetical as n8n lists options. */
const DEAL_STATUS_OPTIONS = [...DEAL_STATUSES]
	.map((status) => ({ name: displayNameOf(status), value: status }))
	.sort((a, b) => a.name.localeCompare(b.name));

export function triggerProperties(): INodeProperties[] {
	const events = Object.entries(TRIGGER_EVENTS).map(([value, event]) => ({ name: event.name, value, description: event.description }));
	const defaultEvent = 'dealUpdated';
	const dealEvents = ['dealCreated', 'dealStatusChanged', 'dealUpdated'];
	const contactEvents = ['contactCreated', 'contactUpdated'];
	const conditions = (type: ResourceTypeName, shownFor: string[]): INodeProperties =>
		conditionsProperty(type, {
			name: type === 'deals' ? 'dealConditions' : 'contactConditions',
			description: 'Only records matching all these conditions start the workflow',
			displayOptions: { show: { '/event': shownFor } },
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
		{
			displayName: 'To Status',
			name: 'toStatuses',
			type: 'multiOptions',
			options: DEAL_STATUS_OPTIONS,
			default: [],
			description: 'Fire when a deal moves into one of these statuses. Empty: into any status.',
			displayOptions: { show: { event: ['dealStatusChanged'] } },
		},
		{
			displayName: 'From Status',
			name: 'fromStatuses',
			type: 'multiOptions',
			options: DEAL_STATUS_OPTIONS,
			default: [],
			description: 'Fire only when a deal moves out of one of these statuses. Empty: from any status, including deals not seen before.',
			displayOptions: { show: { event: ['dealStatusChanged'] } },
		},
		{
			displayName: 'Filter',
			name: 'filter',
			type: 'string',
			default: '',
			placeholder: "equals(lenderName,'ANZ')",
			description: "Only records matching this expression in the service's syntax start the workflow, e.g. equals(lenderName,'ANZ'). To react when a deal reaches a status, use the Deal Status Changed event rather than a filter on dealStatus.",
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				conditions('contacts', contactEvents),
				conditions('deals', dealEvents),
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
			],
		},
	];
}
