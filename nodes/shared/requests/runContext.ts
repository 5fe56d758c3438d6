/**
 * Everything that lasts exactly one run of a node, in one place: one `RunContext` per n8n context
 * object (an execution of the node, a poll, a list search, a webhook call), forgotten with it.
 *
 * - the credential's connection settings, read once;
 * - Requests in Parallel and its request slots: every request the run sends holds one while it is
 *   on its way (transport.ts), so input items handled at once, each paging id ranges at once, make
 *   Requests in Parallel in all; this is the one place that bound is kept;
 * - how long a request may wait for the rate-limit budget (the node's When Rate Limited option;
 *   the budget itself is the credential's, shared by the process: rateBudget.ts);
 * - the first-exchange gate: requests sent in parallel wait for the run's first answer, so a token
 *   missing at the start is fetched once (not once per request in flight), and a failing token
 *   endpoint or a rejected token stops the others before they are sent;
 * - the token state: a 401 that survived n8n's one renewal, or a token the credential could not
 *   get; later requests of the run fail at once with the same error, without asking again;
 * - the clock: the package's one time source (credentials/clock.ts) as the run started. Everything
 *   the run times reads `run.clock`: the transport's waits, the rate-limit budget, the triggers'
 *   polls and their cursors;
 * - the records looked up by name before the requests that need them (an adviser by e-mail, an
 *   enquiry source's category), each once.
 *
 * And one thing that outlasts runs: the credential's shared slots (`inCredentialSlot`), Requests in
 * Parallel for the one-request runs n8n starts side by side (webhook calls).
 *
 * The process-wide sharing of tokens between runs is the credential's (credentials/accessTokens.ts).
 */
import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';

import { credentialFingerprint } from '../../../credentials/accessTokens';
import { serviceBaseUrl } from '../../../credentials/baseUrl';
import type { Clock } from '../../../credentials/clock';
import { packageClock } from '../../../credentials/clock';
import type { FailedExchange } from '../errors/apiFailure';
import { Slots } from './parallel';
import { DEFAULT_RATE_LIMIT_WAIT_MINUTES, DEFAULT_REQUESTS_IN_PARALLEL } from './policy';

/**
 * The n8n contexts a request is sent from: an execution, a poll, a list search, and a webhook call
 * (the Webhook Trigger reads the record a notification names; each call is its own run).
 */
export type RequestContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions | IWebhookFunctions;

export const CREDENTIAL_TYPE = 'loanCrmOAuth2Api';

export interface ConnectionSettings {
	/** The service address without /jsonapi (credentials/baseUrl.ts). */
	baseUrl: string;
	userId: string;
	/** Credential values no error text may contain. */
	secrets: string[];
	/** Which rate-limit budget the requests spend: the fingerprint of the credential values, as for the shared tokens. */
	budgetKey: string;
}

/** A credential value that makes every request impossible; reported per request, with its item. */
export type SettingsProblem = { kind: 'baseUrlNotHttp'; baseUrl: string } | { kind: 'userIdNotWholeNumber'; userId: string };

export type SettingsOutcome = { settings: ConnectionSettings } | { problem: SettingsProblem };

export class RunContext {
	/** What the run reads the time from and waits on: the package's clock when the run started. */
	readonly clock: Clock = packageClock();

	/** A 401 that survived n8n's one token refresh; later requests of the run fail at once. */
	rejectedToken?: FailedExchange;

	/** The credential could not get a token; later requests of the run fail at once, without asking again. */
	tokenProblem?: string;

	private settings?: Promise<SettingsOutcome>;

	private slots?: Slots;

	/**
	 * The most requests the run has on their way at once. Set by the action node from Request
	 * Options → Requests in Parallel before its first request; a poll or a list search keeps the
	 * default (they send one request at a time).
	 */
	requestsInParallel = DEFAULT_REQUESTS_IN_PARALLEL;

	/**
	 * The longest a request of the run waits for the rate-limit budget (ms); 0: never wait, a 429
	 * fails at once. Set by the node from its When Rate Limited option.
	 */
	rateLimitWaitMs = DEFAULT_RATE_LIMIT_WAIT_MINUTES * 60_000;

	/** The option as the node shows it, for the message of a wait longer than it allows. */
	rateLimitWaitOption = 'Request Options → When Rate Limited, Wait Up To (Minutes)';

	/**
	 * Records looked up by name (or number) before the requests that need them, by type and value
	 * (execution/lookups.ts): each asked for once per run, whatever the number of items.
	 */
	readonly lookups = new Map<string, Promise<unknown>>();

	/** Settles when the run's first request has its answer. */
	private firstExchange?: Promise<void>;

	constructor(private readonly context: RequestContext) {}

	/** The credential's connection values, read and checked once per run. */
	async connectionSettings(): Promise<SettingsOutcome> {
		this.settings ??= readSettings(this.context);
		return await this.settings;
	}

	/**
	 * Runs the run's first exchange alone: every request that arrives meanwhile waits for its
	 * answer (whatever it was) before it is sent.
	 */
	async afterFirstExchange<T>(exchange: () => Promise<T>): Promise<T> {
		if (this.firstExchange !== undefined) {
			await this.firstExchange;
			return await exchange();
		}
		let answered = (): void => undefined;
		this.firstExchange = new Promise<void>((resolve) => (answered = resolve));
		try {
			return await exchange();
		} finally {
			answered();
		}
	}

	/**
	 * Runs `work` holding one of the run's Requests in Parallel slots; waits for one to be free.
	 * Only the transport takes slots, one per request and never two at once, so no holder waits
	 * for another slot while it holds one.
	 */
	async inRequestSlot<T>(work: () => Promise<T>): Promise<T> {
		this.slots ??= new Slots(Math.max(1, this.requestsInParallel));
		return await this.slots.hold(work);
	}
}

/**
 * Requests in Parallel across runs of one credential, for runs that n8n starts side by side and that
 * send one request each: the Webhook Trigger's calls, one per notification (trigger/webhookReads.ts).
 * A run's own slots bound nothing there, so these do: one bound per credential (its fingerprint, as
 * for the rate budget and the shared token) in the process, the action nodes' default.
 */
const credentialSlots = new Map<string, Slots>();

/** Runs `work` holding one of the credential's shared slots (at most DEFAULT_REQUESTS_IN_PARALLEL at once); waits for one to be free. */
export async function inCredentialSlot<T>(budgetKey: string, work: () => Promise<T>): Promise<T> {
	let slots = credentialSlots.get(budgetKey);
	if (slots === undefined) {
		slots = new Slots(DEFAULT_REQUESTS_IN_PARALLEL);
		credentialSlots.set(budgetKey, slots);
	}
	return await slots.hold(work);
}

const runs = new WeakMap<RequestContext, RunContext>();

/** The run context of this n8n context, made on first use. */
export function runContextOf(context: RequestContext): RunContext {
	let run = runs.get(context);
	if (run === undefined) {
		run = new RunContext(context);
		runs.set(context, run);
	}
	return run;
}

async function readSettings(context: RequestContext): Promise<SettingsOutcome> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = serviceBaseUrl(credentials.baseUrl);
	if (!/^https?:\/\/[^\s/]+/i.test(baseUrl)) {
		return { problem: { kind: 'baseUrlNotHttp', baseUrl: String(credentials.baseUrl ?? '').trim() } };
	}
	const userId = String(credentials.userId ?? '').trim();
	if (!/^\d{1,10}$/.test(userId)) return { problem: { kind: 'userIdNotWholeNumber', userId } };
	const secrets = [credentials.clientSecret, credentials.accessToken]
		.map((value) => (typeof value === 'string' ? value : ''))
		.filter((value) => value.length > 0);
	return { settings: { baseUrl, userId, secrets, budgetKey: credentialFingerprint(credentials) } };
}
