/**
 * Public types of the sandbox service (re-exported from `index.ts`).
 */
import type { IncomingMessage, ServerResponse } from 'http';

import type { SandboxClock } from './clock';
import type { WebhookDeliveries } from './webhooks';

export type { SandboxClock } from './clock';

export interface SandboxOptions {
	/**
	 * Record counts. Defaults: deals 250, contacts 120, incomes 150, dealSecurities 150. Deal
	 * structures (0–3 per deal), deal notes (0–3 per deal) and deal external references (about one
	 * per three deals) follow the deal count. Works up to deals 100_000 (structures and notes are
	 * generated on demand).
	 */
	sizes?: Partial<{ deals: number; contacts: number; incomes: number; dealSecurities: number }>;
	/**
	 * Deals with exactly these ids (ascending, from 10001 up) instead of `sizes.deals` consecutive
	 * ones: an id layout with gaps, as a multi-tenant service shows one adviser (`idLayout` in
	 * layouts.ts). The deals in between exist as if deleted before the start (with their notes,
	 * structures and external references); `data.reset()` keeps the layout.
	 */
	dealIds?: readonly number[];
	/** Token-bucket rate limiting; off by default. */
	rateLimit?: false | RateLimitConfig;
	/** Access token lifetime (seconds of `clock`); default 3600. */
	tokenLifetimeSeconds?: number;
	/**
	 * The sandbox's one clock. `now()` (ms since the epoch) is the service's clock: token expiry,
	 * the rate-limit bucket's refill and `retry-after`, the `Date` header of every answer, the
	 * `created`/`updated` stamps of records changed through the API or the data helpers, and the
	 * times in the request log. `sleep(ms)`, when it has one, holds requests for played latency and
	 * delay faults (without it: the server's own timers on the machine's clock).
	 *
	 * Default: the machine's clock. Tests pass the clock they move (harness/clock.ts TestClock), the
	 * same one the nodes read; the CLI's `--clock-offset` passes one that runs ahead or behind the
	 * machine's (`offsetClock`).
	 */
	clock?: SandboxClock;
	/** Count totals: adds `meta.total` and `links.last` to collection documents. Default false. */
	countTotals?: boolean;
	/** Which client authentication the ready client accepts; default 'any'. */
	clientAuth?: 'any' | 'header' | 'body';
	/** Port to listen on (default 0: a free port). */
	port?: number;
	/** Seed of the data generator (default 20261121). */
	seed?: number;
	/** Status of a successful PATCH: 200 with the document (default) or 204 without a body. */
	patchStatus?: 200 | 204;
	/** Network latency to play: off by default (loopback). */
	latency?: false | LatencyConfig;
}

/**
 * A network round trip played by the sandbox: every request (API and token endpoint, faults too)
 * is held for `ms` ± up to `jitterMs` (uniform) after it has arrived, before it is handled.
 */
export interface LatencyConfig {
	ms: number;
	jitterMs?: number;
}

export interface LoggedRequest {
	method: string;
	/** Path without the query, e.g. `/jsonapi/deals`. */
	path: string;
	/** Exactly as received after '?', '' if none. */
	rawQuery: string;
	/**
	 * Decoded query parameters (`+` decoded as a space). A key that is repeated has its values
	 * joined with '\n' in order; a parameter that could not be decoded is kept raw.
	 */
	query: Record<string, string>;
	/** Request headers with lower-cased names; repeated headers are joined with ', '. */
	headers: Record<string, string>;
	/** Raw request body ('' if none). */
	body: string;
	/** Parsed body when it parsed as JSON (API requests) or the decoded form (token requests). */
	json?: unknown;
	/** Status the sandbox answered (0 when the connection was dropped). */
	status: number;
	/** The ids of the primary data of a collection it answered, in order. */
	dataIds?: string[];
	kind: 'token' | 'api';
	/** Rate-limit cost charged (API requests that passed authentication). */
	cost?: number;
	/** Name of the injected fault that answered, e.g. 'status:503', 'drop', 'malformedJson', 'html', 'delay', 'custom'. */
	fault?: string;
	/** The sandbox's clock (ms) when the request had arrived in full. */
	receivedAt: number;
	/** The sandbox's clock (ms) when it began to handle the request (after the played latency). */
	handledAt: number;
	/** Arrival order (1, 2, …) of every request, API and token alike, since the sandbox started. */
	seq: number;
	/**
	 * The `seq` of every request the sandbox was still answering when this one arrived in full:
	 * requests in flight counted where they land, not inferred from timings. 1 + its length is how
	 * many requests the sandbox was handling at that moment, this one included.
	 */
	inFlightAtArrival: number[];
	/** The latency played before handling it, as drawn (0 with latency off). */
	latencyMs: number;
}

export type Fault =
	| { status: number; body?: unknown; headers?: Record<string, string> }
	| { kind: 'drop' }
	| { kind: 'malformedJson' }
	| { kind: 'html'; status?: number }
	/** Holds the request `ms` on the sandbox's clock, then answers it normally, or as the fault `then`. */
	| { kind: 'delay'; ms: number; then?: Fault }
	| { kind: 'custom'; handle: (req: IncomingMessage, res: ServerResponse, body: string) => void };

export interface FaultMatch {
	/** HTTP method (case-insensitive). */
	method?: string;
	/** Exact path (without query) or a RegExp tested against the path. */
	path?: string | RegExp;
	kind?: 'token' | 'api';
}

/** A token bucket on the sandbox's clock: `capacity` tokens, refilled at `refillPerSecond`. */
export interface RateLimitConfig {
	capacity: number;
	refillPerSecond: number;
}

/** A relationship value as returned by the data helpers. */
export type ResourceIdentifier = { type: string; id: string };
export type RelationshipValue = ResourceIdentifier | null | ResourceIdentifier[];

/** A stored record as the data helpers return it (a deep copy; changing it changes nothing). */
export interface StoredResource<A = Record<string, unknown>> {
	type: string;
	id: string;
	attributes: A;
	relationships: Record<string, RelationshipValue>;
}

export interface DealDates {
	settled: string | null;
	lodged: string | null;
	financeClause: string | null;
	notProceeding: string | null;
	approved: string | null;
	preApproved: string | null;
	conditionallyApproved: string | null;
	preApprovedExpiry: string | null;
	estimatedSettled: string | null;
}

export interface DealOpportunity {
	proposedLoanAmount: number | null;
	securityAmount: number | null;
	summaryNotes: string | null;
	loanPurpose: string | null;
}

export interface DealSplit {
	loanTermYears: number | null;
	rateType: string | null;
	loanStructureType: string | null;
	amount: number | null;
	capitaliseLmi: boolean | null;
	lmiPremium: number | null;
	amountInclLmi: number | null;
	interestRate: number | null;
	rateTypePeriodMonths: number | null;
	paymentAmount: number | null;
	fixedRateStartDate: string | null;
	fixedRateEndDate: string | null;
	interestOnlyStartDate: string | null;
	interestOnlyEndDate: string | null;
	repaymentHolidayStartDate: string | null;
	repaymentHolidayEndDate: string | null;
}

export interface DealAttributes {
	created: string;
	updated: string;
	dates: DealDates;
	totalLoanAmount: number | null;
	name: string | null;
	dealStatus: string;
	opportunity: DealOpportunity;
	splits: DealSplit[];
	lenderName: string | null;
	customStatusName: string | null;
	dealType: string | null;
}

export interface ContactAttributes {
	mobile: string | null;
	homePhone: string | null;
	businessPhone: string | null;
	title: string | null;
	firstName: string | null;
	middleName: string | null;
	lastName: string | null;
	preferredName: string | null;
	email: string | null;
	secondaryEmail: string | null;
	maritalStatus: string | null;
	gender: string | null;
	hasMarketingConsent: boolean | null;
	dateOfBirth: string | null;
	isPrimary: boolean | null;
	role: string | null;
	created: string;
	updated: string;
}

/** Attribute shape of a resource type: typed for deals and contacts, a plain record otherwise. */
export type AttributesOf<T extends string> = T extends 'deals'
	? DealAttributes
	: T extends 'contacts'
		? ContactAttributes
		: Record<string, unknown>;

/** Well-known records for fixtures (ids as strings, as they appear in documents). */
export interface FixtureIds {
	/** A pre-submission deal with 3 notes, 2 structures, a custom status and external reference 'ABC1234' (integration `integration`). */
	dealWithNotes: string;
	/** Same deal as dealWithNotes. */
	dealWithCustomStatus: string;
	/** A NewLeads deal without custom status, notes, structures or external references. */
	dealWithoutCustomStatus: string;
	/** Same deal as dealWithoutCustomStatus. */
	dealWithoutNotes: string;
	/** A Settled deal (its structure is not writable). */
	settledDeal: string;
	/** A deal whose name contains an apostrophe ("O'Connor, Liam"). */
	dealWithApostrophe: string;
	/** A structure of dealWithNotes (writable: the deal is pre-submission). */
	dealStructure: string;
	/** A structure of settledDeal (PATCH answers 422). */
	lockedDealStructure: string;
	/** A note of dealWithNotes. */
	dealNote: string;
	dealSecurity: string;
	/** The external reference 'ABC1234' of dealWithNotes. */
	dealExternalReference: string;
	contact: string;
	/** A contact whose last name is "O'Brien". */
	contactWithApostrophe: string;
	contactGroup: string;
	/** An external reference of `contact`. */
	contactExternalReference: string;
	contactCategory: string;
	customStatus: string;
	income: string;
	/** An organisation with two addresses. */
	organisation: string;
	organisationWithoutAddresses: string;
	/** An asset with one address. */
	asset: string;
	assetWithoutAddresses: string;
	/** The lead of dealWithNotes (lead id = deal id). */
	lead: string;
	/** A task with exactly one contact group and no deal (can be promoted with residentialDeal). */
	task: string;
	/** A task linked to dealWithNotes through residentialDeal. */
	taskWithDeal: string;
	/** 'MyIntegrationSource'. */
	integration: string;
	/** Another integration with no external reference on dealWithNotes or dealWithoutCustomStatus. */
	otherIntegration: string;
	/** Adviser resource id (adviser family id, used as task assignee). */
	adviser: string;
	/** The adviser contact id of `adviser`: the ready client's UserId. */
	adviserContactId: string;
	/** Every adviser contact id that the UserId header accepts (the adviser-details ids, inactive advisers' too). */
	adviserContactIds: string[];
	/** A referrer (Jane Cooper of Ray White Parramatta): a lead's sourceReferrerId. */
	referrer: string;
}

/**
 * In-process access to the sandbox's records (for tests).
 *
 * - `get(type, id)` / `list(type)` / `idsOf(type)` / `count(type)`: read any stored record by
 *   type and id (deep copies, every attribute including computed ones; relationships as
 *   identifiers). `list` materialises every record of the type: fine for small sizes.
 * - `createDeal(attrs?)`, `updateDeal(id, attrs)`, `createContact(attrs?, contactGroupId?)`,
 *   `updateContact(id, attrs)`: change records the way the service would; `created`/`updated` are
 *   stamped with the sandbox clock (`now()`), unless given in `attrs`. Attribute names are the
 *   API's; for deals `customStatusId` / `adviserId`, for contacts `contactGroupId` may be passed too.
 * - `now()`: the service's clock (SandboxOptions.clock), as a Date.
 * - `ids`: fixture ids.
 * - `reset()`: back to the generated state (created records dropped, changes undone).
 */
export interface SandboxData {
	readonly ids: FixtureIds;
	types(): string[];
	get<T extends string>(type: T, id: string | number): StoredResource<AttributesOf<T>> | undefined;
	list<T extends string>(type: T): StoredResource<AttributesOf<T>>[];
	idsOf(type: string): string[];
	count(type: string): number;
	createDeal(
		attrs?: Partial<DealAttributes> & { customStatusId?: string | number | null; adviserId?: string | number },
	): StoredResource<DealAttributes>;
	updateDeal(
		id: string | number,
		attrs: Partial<DealAttributes> & { customStatusId?: string | number | null; adviserId?: string | number },
	): StoredResource<DealAttributes>;
	createContact(
		attrs?: Partial<ContactAttributes> & { contactGroupId?: string | number },
	): StoredResource<ContactAttributes>;
	updateContact(id: string | number, attrs: Partial<ContactAttributes>): StoredResource<ContactAttributes>;
	/** Removes a deal (as if deleted in the CRM); false when there was none. */
	deleteDeal(id: string | number): boolean;
	now(): Date;
	reset(): void;
}

export interface Sandbox {
	/** 'http://127.0.0.1:<port>' (no /jsonapi). */
	baseUrl: string;
	/** `${baseUrl}/oauth2/token`. */
	tokenUrl: string;
	clientId: string;
	clientSecret: string;
	/** Adviser contact id of the ready client, e.g. '1001'. */
	userId: string;
	/** Every request, in order of arrival (token endpoint and API). */
	requests: LoggedRequest[];
	apiRequests(): LoggedRequest[];
	tokenRequests(): LoggedRequest[];
	clearLog(): void;
	/** Every access token ever issued. */
	issuedTokens(): string[];
	/** The next `times` (default 1; Infinity allowed) matching requests get the fault (checked before auth). */
	injectFault(match: FaultMatch, fault: Fault, times?: number): void;
	clearFaults(): void;
	expireAllTokens(): void;
	revokeToken(token: string): void;
	/** Lifetime of the tokens issued from now on (seconds; `expires_in`); tokens already issued keep theirs. */
	tokenLifetimeSeconds: number;
	setRateLimit(cfg: false | RateLimitConfig): void;
	/** Turn the played network latency on (or off with false) at run time. */
	setLatency(cfg: false | LatencyConfig): void;
	/** Requests (of this kind) held right now by played latency or a delay fault, on the sandbox's clock. */
	heldRequests(kind?: 'token' | 'api'): number;
	/**
	 * Called with each request just before the sandbox handles it (after the played latency): lets a
	 * test change records between the requests of one execution.
	 */
	beforeHandle?: (request: LoggedRequest) => void;
	/** Total rate-limit cost charged since start/reset (counted even when the limiter is off). */
	rateLimitSpent(): number;
	resetRateLimitSpent(): void;
	/** If set, absolute links use this host (or origin, when it contains '://') instead of the Host header. */
	linkHost?: string;
	/** Status of a successful PATCH: 200 with the document or 204 without a body. */
	patchStatus: 200 | 204;
	/** Turn meta.total / links.last on or off at run time. */
	countTotals: boolean;
	/**
	 * Registers another client. `scopes` limits which scopes it may request (default: any);
	 * `clientAuth` which client authentication it accepts (default 'any').
	 */
	addClient(options?: { scopes?: string[]; clientAuth?: 'any' | 'header' | 'body'; clientId?: string; clientSecret?: string }): {
		clientId: string;
		clientSecret: string;
	};
	/** The service's webhooks: subscribe an address to record types; every notification sent (webhooks.ts). */
	webhooks: WebhookDeliveries;
	data: SandboxData;
	close(): Promise<void>;
}
