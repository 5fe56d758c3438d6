import type { INodeProperties } from 'n8n-workflow';

import { conditionsProperty } from '../shared/conditions';
import type { ResourceTypeName } from '../shared/schema';

interface TriggerEvent {
	name: string;
	description: string;
	type: ResourceTypeName;
	path: string;
	field: 'created' | 'updated';
}

export const TRIGGER_EVENTS = {
	contactCreated: { name: 'Contact Created', description: 'A new contact was created', type: 'contacts', path: '/contacts', field: 'created' },
	contactUpdated: { name: 'Contact Updated', description: 'A contact was created or changed', type: 'contacts', path: '/contacts', field: 'updated' },
	dealCreated: { name: 'Deal Created', description: 'A new deal was created', type: 'deals', path: '/deals', field: 'created' },
	dealUpdated: { name: 'Deal Updated', description: 'A deal was created or changed, e.g. its status moved', type: 'deals', path: '/deals', field: 'updated' },
} satisfies Record<string, TriggerEvent>;

export function triggerProperties(): INodeProperties[] {
	const events = Object.entries(TRIGGER_EVENTS).map(([value, event]) => ({ name: event.name, value, description: event.description }));
	const defaultEvent = 'dealUpdated';
	const dealEvents = ['dealCreated', 'dealUpdated'];
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
			displayName: 'Filter',
			name: 'filter',
			type: 'string',
			default: '',
			placeholder: "equals(dealStatus,'Settled')",
			description: "Only records matching this expression in the service's syntax start the workflow, e.g. equals(dealStatus,'Settled') for deals that settled",
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
