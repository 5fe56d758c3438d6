/**
 * Sandbox service: an in-process HTTP emulation of the loan-deal CRM (JSON:API over
 * JsonApiDotNetCore, OAuth 2.0 client credentials), written from the contract documents only.
 *
 *   const sandbox = await startSandbox({ sizes: { deals: 1000 } });
 *   // sandbox.baseUrl, sandbox.tokenUrl, sandbox.clientId, sandbox.clientSecret, sandbox.userId
 *   await sandbox.close();
 *
 * See README.md in this folder for the behaviour in detail.
 */
export { startSandbox } from './server';
export { MACHINE_CLOCK, offsetClock } from './clock';
export { DEFAULT_LIVELY_SECONDS, SETTLE_AFTER_DEAL_STEPS, describeChange, livelyData, startLively } from './lively';
export type { Lively, LivelyChange, LivelyData } from './lively';
export type {
	AttributesOf,
	ContactAttributes,
	DealAttributes,
	DealDates,
	DealOpportunity,
	DealSplit,
	Fault,
	FaultMatch,
	FixtureIds,
	LatencyConfig,
	LoggedRequest,
	RateLimitConfig,
	RelationshipValue,
	ResourceIdentifier,
	Sandbox,
	SandboxClock,
	SandboxData,
	SandboxOptions,
	StoredResource,
} from './types';
export {
	BASE_COST,
	CONTACT_ACCESS_TYPE,
	CONTACT_ROLE,
	DEAL_TYPE,
	DEFAULT_PAGE_SIZE,
	ENDPOINTS,
	PUBLIC_DESCRIPTION_ENDPOINTS,
	RECORD_READ_ENDPOINTS,
	FREQUENCY_TYPE,
	GENDER,
	LOAN_STRUCTURE_TYPE,
	MARITAL_STATUS,
	MAX_PAGE_SIZE,
	MEDIA_TYPE,
	PRE_SUBMISSION_STATUSES,
	SCOPE_TABLE,
	SERVED_ENDPOINTS,
	SYSTEM_STATUS,
	TASK_PRIORITY,
	TASK_PROGRESS,
	TYPES,
	requestCost,
	scopeSatisfied,
} from './schema';
export type { AttrDef, EndpointDef, EndpointKind, RelDef, ScopeAction, TypeDef } from './schema';
export { DEFAULT_SIZES, FIRST_ID } from './seed';
export { ID_LAYOUTS, ID_LAYOUT_DESCRIPTIONS, idLayout } from './layouts';
export type { IdLayout } from './layouts';
export { RETRY_DELAYS_MS, WEBHOOK_ADMIN_PATH, WEBHOOK_TYPES, WebhookDeliveries } from './webhooks';
export type { DeliveryAttempt, SubscriptionInput, WebhookDelivery, WebhookSubscription } from './webhooks';
