/**
 * When Rate Limited, Wait Up To (Minutes): one parameter, shown in every action node's Request
 * Options and every trigger's Options. The pacing itself is the transport's (requests/rateBudget.ts).
 */
import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_RATE_LIMIT_WAIT_MINUTES, MAX_RATE_LIMIT_WAIT_MINUTES, RATE_LIMIT_WAIT_LABEL, RATE_LIMIT_WAIT_OPTION } from '../requests/policy';

export function rateLimitWaitProperty(): INodeProperties {
	return {
		displayName: RATE_LIMIT_WAIT_LABEL,
		name: RATE_LIMIT_WAIT_OPTION,
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_RATE_LIMIT_WAIT_MINUTES },
		default: DEFAULT_RATE_LIMIT_WAIT_MINUTES,
		description: `Loan CRM meters each client with a token budget per 5 minutes. This node paces its requests to the budget the service reports, together with every workflow using this credential, and waits for the budget to refill instead of failing. A request that would wait longer than this fails with how long the service asked to wait. 0 fails at once when rate limited. The default, ${DEFAULT_RATE_LIMIT_WAIT_MINUTES}, lets a job of any size finish.`,
	};
}
