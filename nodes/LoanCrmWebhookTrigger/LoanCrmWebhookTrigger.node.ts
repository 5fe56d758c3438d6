import type { IHookFunctions, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { webhookTriggerNodeBase } from '../shared/trigger/triggerNode';
import { dealEventSubtitle, handleNotification, notificationWebhook, webhookLifecycle, webhookTriggerProperties } from '../shared/trigger/webhookTrigger';

/**
 * Instant events from Loan CRM's own webhooks, which its team sets up on request (beyond the seed:
 * the service's public README, "Real-time Updates via Webhooks"). A notification names a record;
 * the node answers at once, reads the record itself and emits each change once
 * (nodes/shared/trigger/webhookTrigger.ts). Not paired with an action node, so the nodes panel lists
 * it on its own, beside the other Loan CRM triggers.
 */
export class LoanCrmWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		...webhookTriggerNodeBase({
			displayName: 'Loan CRM Webhook Trigger',
			name: 'loanCrmWebhookTrigger',
			description: 'Start a workflow the moment Loan CRM notifies a change of a deal, contact, adviser or organisation (webhooks its team sets up)',
			documentation: 'instant-events-with-webhooks',
		}),
		// Here, where n8n's lint looks for them.
		icon: { light: 'file:../../icons/loanCrm.svg', dark: 'file:../../icons/loanCrm.dark.svg' },
		subtitle: dealEventSubtitle(),
		webhooks: [notificationWebhook()],
		properties: webhookTriggerProperties(),
	};

	// Loan CRM has no subscription API: nothing is registered remotely (see webhookLifecycle).
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await webhookLifecycle.checkExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await webhookLifecycle.create.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await webhookLifecycle.delete.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await handleNotification(this);
	}
}
