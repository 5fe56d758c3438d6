/**
 * Everything that lasts exactly one run of a node, in one place: one `RunContext` per n8n context
 * object (an execution of the node, a poll, a list search), forgotten with it.
 *
 * - the credential's connection settings, read once;
 * - the request slots: the bound of requests in flight that everything the run pages at once
 *   shares (several input items each paging id ranges still make Requests in Parallel in all);
 * - the run-wide pause after a 429 (the rate-limit budget is shared, so one retry-after holds for
 *   every request of the run, in flight or not);
 * - the first-exchange gate: requests sent in parallel wait for the run's first answer, so a token
 *   missing at the start is fetched once (not once per request in flight), and a failing token
 *   endpoint or a rejected token stops the others before they are sent;
 * - the token state: a 401 that survived n8n's one renewal, or a token the credential could not
 *   get; later requests of the run fail at once with the same error, without asking again.
 *
 * The process-wide sharing of tokens between runs is the credential's (credentials/accessTokens.ts).
 */
import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { serviceBaseUrl } from '../../../credentials/baseUrl';
import type { FailedExchange } from '../errors/apiFailure';
import { Slots } from './parallel';

export type RequestContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export const CREDENTIAL_TYPE = 'loanCrmOAuth2Api';

export interface ConnectionSettings {
	/** The service address without /jsonapi (credentials/baseUrl.ts). */
	baseUrl: string;
	userId: string;
	/** Credential values no error text may contain. */
	secrets: string[];
}

/** A credential value that makes every request impossible; reported per request, with its item. */
export type SettingsProblem = { kind: 'baseUrlNotHttp'; baseUrl: string } | { kind: 'userIdNotWholeNumber'; userId: string };

export type SettingsOutcome = { settings: ConnectionSettings } | { problem: SettingsProblem };

export class RunContext {
	/** A 401 that survived n8n's one token refresh; later requests of the run fail at once. */
	rejectedToken?: FailedExchange;

	/** The credential could not get a token; later requests of the run fail at once, without asking again. */
	tokenProblem?: string;

	private settings?: Promise<SettingsOutcome>;

	private slots?: Slots;

	/** Until then (`Date.now()` ms) no request of the run is sent. */
	private pausedUntil = 0;

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

	/** After a 429: no request of the run is sent for `seconds` (a longer pause already set stays). */
	pauseFor(seconds: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, Date.now() + seconds * 1000);
	}

	/** Waits while the run is paused (the pause may be extended meanwhile). */
	async whilePaused(): Promise<void> {
		for (;;) {
			const wait = this.pausedUntil - Date.now();
			if (wait <= 0) return;
			await sleep(wait);
		}
	}

	/** Runs `work` holding one of the run's `limit` request slots (the first caller sets the limit). */
	async inRequestSlot<T>(limit: number, work: () => Promise<T>): Promise<T> {
		this.slots ??= new Slots(Math.max(1, limit));
		return await this.slots.hold(work);
	}
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
	return { settings: { baseUrl, userId, secrets } };
}
