import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { FeedQuery, FeedState } from './changeFeed';
import { fingerprint, latestRecord, pollRecordChanges } from './changeFeed';
import { anyOf, queryFromOptions } from '../shared/input/query';
import { DEAL_STATUSES, RESOURCE_TYPES } from '../shared/service/schema';
import type { TransitionSelection, TransitionState } from './statusTransitions';
import { MAX_REMEMBERED_DEALS, pollStatusTransitions } from './statusTransitions';
import { invalidParameter } from '../shared/errors/factory';
import { readmeSection } from '../shared/description/documentation';
import { TRIGGER_EVENTS, triggerProperties } from './events';

const DEFAULT_SAFETY_WINDOW_SECONDS = 120;

/** A status list from the multi-select, or from an expression (an array or comma-separated text). */
function statusList(context: IPollFunctions, name: string, label: string): string[] {
	const value = context.getNodeParameter(name, []) as unknown;
	const entries = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
	if (entries === undefined) throw invalidParameter(context.getNode(), label, 'must be a list of deal statuses such as Settled');
	const statuses = entries.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
	for (const status of statuses) {
		if (!(DEAL_STATUSES as readonly string[]).includes(status)) {
			throw invalidParameter(
				context.getNode(),
				label,
				`has "${status.slice(0, 60)}", which is not a deal status; use one of ${DEAL_STATUSES.join(', ')}`,
			);
		}
	}
	return [...new Set(statuses)];
}

/** Replaces the node's static data with `state` (keys of another event's state are removed). */
function store(staticData: IDataObject, state: object): void {
	for (const key of Object.keys(staticData)) {
		if (!(key in state)) delete staticData[key];
	}
	Object.assign(staticData, state);
}

export class LoanCrmTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Loan CRM Deals & Contacts Trigger',
		name: 'loanCrmTrigger',
		icon: { light: 'file:../../icons/loanCrm.svg', dark: 'file:../../icons/loanCrm.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"]}}',
		description: 'Starts the workflow when deals or contacts are created or change in Loan CRM',
		documentationUrl: readmeSection('loan-crm-trigger'),
		defaults: { name: 'Loan CRM Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'loanCrmOAuth2Api', required: true }],
		properties: triggerProperties(),
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const eventName = this.getNodeParameter('event') as string;
		const event = TRIGGER_EVENTS[eventName];
		if (event === undefined) throw invalidParameter(this.getNode(), 'Event', `has "${String(eventName).slice(0, 60)}", which is not an event of this trigger`);
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
		const windowSeconds = typeof options.safetyWindow === 'number' ? options.safetyWindow : DEFAULT_SAFETY_WINDOW_SECONDS;
		const query: FeedQuery = { path: event.path, type: event.type, field: event.field, filter, windowMs: windowSeconds * 1000 };
		const statusField = event.statusField;
		const selection: TransitionSelection | undefined =
			statusField === undefined
				? undefined
				: { to: statusList(this, 'toStatuses', 'To Status'), from: statusList(this, 'fromStatuses', 'From Status') };
		// State made for other settings (event, filter, statuses) is not reused: a fresh baseline.
		const settings = fingerprint({ event: eventName, filter: filter ?? '', to: selection?.to ?? [], from: selection?.from ?? [] });

		if (this.getMode() === 'manual') {
			const toFilter =
				selection !== undefined && statusField !== undefined && selection.to.length > 0
					? anyOf(statusField, selection.to)
					: undefined;
			const sample = await latestRecord(this, query, toFilter);
			const items =
				statusField === undefined ? sample : sample.map((item) => ({ ...item, previousStatus: null, statusChangedAt: item[event.field] ?? null }));
			return items.length > 0 ? [this.helpers.returnJsonArray(items)] : null;
		}

		const staticData = this.getWorkflowStaticData('node');
		if (selection !== undefined && statusField !== undefined) {
			const result = await pollStatusTransitions(this, { ...query, statusField }, selection, settings, staticData as TransitionState, Date.now());
			if (result.forgotten > 0) {
				this.logger.warn(
					`Loan CRM Trigger "${this.getNode().name}" remembers at most ${MAX_REMEMBERED_DEALS} deals and forgot ${result.forgotten} in the watched statuses; if one of them changes while in a To status it is emitted once with previousStatus null. Narrow the statuses or add a Filter.`,
				);
			}
			if (result.state !== undefined) store(staticData, result.state);
			return result.emit.length > 0 ? [this.helpers.returnJsonArray(result.emit)] : null;
		}
		const { emit, state } = await pollRecordChanges(this, query, settings, staticData as FeedState, Date.now());
		if (state !== undefined) store(staticData, state);
		return emit.length > 0 ? [this.helpers.returnJsonArray(emit)] : null;
	}
}
