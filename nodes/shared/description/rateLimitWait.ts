/**
 * The rate-limit wait: one parameter, shown in every action node's Request Options and every
 * trigger's Options. The pacing itself is the transport's (requests/rateBudget.ts). Its label is
 * the version's (requests/policy.ts `rateLimitWaitLabel`): "Rate Limit Wait (Minutes)" from 1.2,
 * whole at 1440×900, where "When Rate Limited, Wait Up To (Minutes)" was cut before its unit.
 */
import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_RATE_LIMIT_WAIT_MINUTES, MAX_RATE_LIMIT_WAIT_MINUTES, RATE_LIMIT_WAIT_OPTION, rateLimitWaitLabel } from '../requests/policy';
import type { NodeVersion } from '../service/versions';
import { SINCE } from '../service/versions';

export function rateLimitWaitProperty(version: NodeVersion): INodeProperties {
	const plain = version >= SINCE.plainWords;
	return {
		displayName: rateLimitWaitLabel({ typeVersion: version }),
		name: RATE_LIMIT_WAIT_OPTION,
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_RATE_LIMIT_WAIT_MINUTES },
		default: DEFAULT_RATE_LIMIT_WAIT_MINUTES,
		description: plain
			? `How many minutes a request may wait when Loan CRM's rate limit is reached. Loan CRM meters each client with a token budget per 5 minutes; this node paces its requests to it, together with every workflow using this credential, and waits for the budget to refill instead of failing. A request that would wait longer than these minutes fails, saying how long the service asked to wait. 0 fails at once when rate limited. The default, ${DEFAULT_RATE_LIMIT_WAIT_MINUTES} minutes, lets a job of any size finish.`
			: `Loan CRM meters each client with a token budget per 5 minutes. This node paces its requests to the budget the service reports, together with every workflow using this credential, and waits for the budget to refill instead of failing. A request that would wait longer than this fails with how long the service asked to wait. 0 fails at once when rate limited. The default, ${DEFAULT_RATE_LIMIT_WAIT_MINUTES}, lets a job of any size finish.`,
	};
}
