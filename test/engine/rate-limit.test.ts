/**
 * Bulk work inside the service's rate limit, through n8n-core's engine against the sandbox's token
 * bucket (cost per kind of request, a capacity that refills over 5 minutes, 429 with retry-after).
 * The bucket, the credential and the nodes' budget read one virtual clock that moves by itself
 * whenever every request waits for it (harness/clock.ts): hours of pacing run in seconds and nothing
 * sleeps.
 *
 * What is counted: items out, records the sandbox holds, requests it received (429s among them),
 * tokens it charged, and the virtual time against the budget floor (tokens charged ÷ refill rate).
 * The full-size jobs (10,000 writes, a Return All of 50,000) are in `npm run bench`.
 */
import type { IDataObject } from 'n8n-workflow';

import { runPoll } from '../../harness';
import { TestClock } from '../../harness/clock';
import { RATE_LIMIT_WINDOW_SECONDS } from '../../nodes/shared/requests/rateBudget';
import type { LoggedRequest } from '../../sandbox';
import { jsonOf, useSandbox } from './helpers';

/** 100 tokens per 5 minutes: a contact create costs 5, a page of a search 10. */
const CAPACITY = 100;
const BUCKET = { capacity: CAPACITY, refillPerSecond: CAPACITY / RATE_LIMIT_WINDOW_SECONDS };
const DEALS = 3000;

const clock = TestClock.virtual();
const env = useSandbox({ sizes: { deals: DEALS, contacts: 20, incomes: 5, dealSecurities: 5 }, clock });

beforeEach(() => {
	// A full bucket, the sandbox's records as generated.
	env.sandbox.setRateLimit(BUCKET);
	env.sandbox.resetRateLimitSpent();
	env.sandbox.data.reset();
});

/** Contact → Create as a new node has it (version 1.2): its key fields on top. */
const createContacts = (tag: string) => ({
	resource: 'contact',
	operation: 'create',
	firstName: `={{ "${tag} " + $json.n }}`,
	lastName: 'Bulk',
	email: `={{ "${tag}" + $json.n + "@example.com" }}`,
});
const inputOf = (count: number) => Array.from({ length: count }, (_, n) => ({ n }));

interface Measured {
	seconds: number;
	tokens: number;
	/** Virtual seconds ÷ the budget floor: tokens charged ÷ refill rate. */
	ofFloor: number;
	tooManyRequests: number;
	refillPeriods: number;
}

/** Runs `work` and measures it on the virtual clock and in the sandbox's log. */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; measure: Measured; requests: LoggedRequest[] }> {
	const started = clock.now();
	const result = await work();
	const seconds = (clock.now() - started) / 1000;
	const requests = env.sandbox.apiRequests();
	const tokens = env.sandbox.rateLimitSpent();
	const floor = tokens / BUCKET.refillPerSecond;
	return {
		result,
		requests,
		measure: {
			seconds,
			tokens,
			ofFloor: seconds / floor,
			tooManyRequests: requests.filter((request) => request.status === 429).length,
			refillPeriods: Math.ceil(seconds / RATE_LIMIT_WINDOW_SECONDS),
		},
	};
}

/** Every created contact's first name, once per record the sandbox holds. */
function createdNames(tag: string): string[] {
	return env.sandbox.data
		.list('contacts')
		.map((contact) => String(contact.attributes.firstName))
		.filter((name) => name.startsWith(`${tag} `));
}

/** The pacing bounds every job here must meet. */
function expectPaced(measure: Measured): void {
	// Nobody beats the bucket: what it held at the start plus what it refilled.
	expect(measure.seconds).toBeGreaterThanOrEqual((measure.tokens - CAPACITY) / BUCKET.refillPerSecond - 1);
	expect(measure.ofFloor).toBeLessThanOrEqual(1.2);
	expect(measure.tooManyRequests).toBeLessThanOrEqual(measure.refillPeriods);
}

describe('a bulk write job many times the bucket', () => {
	it('creates 1,000 contacts (50 buckets\' worth): 0 failed, 0 lost, 0 repeated, within 1.2× of the budget floor', async () => {
		const { result, measure, requests } = await measured(async () => await env.run('loanCrmContacts', createContacts('Solo'), { input: inputOf(1000) }));
		expect(result.error).toBeUndefined();
		const items = jsonOf(result);
		expect(items).toHaveLength(1000);
		expect(items.map((item) => item.firstName)).toEqual(inputOf(1000).map(({ n }) => `Solo ${n}`));
		const names = createdNames('Solo');
		expect(names).toHaveLength(1000);
		expect(new Set(names).size).toBe(1000);
		const processed = requests.filter((request) => request.method === 'POST' && request.status === 201);
		expect(processed).toHaveLength(1000);
		expect(measure.tokens).toBe(5000);
		expectPaced(measure);
		// Paced to the headers: the budget is never overrun by more than what was already on its way.
		expect(measure.tooManyRequests).toBe(0);
	}, 180_000);

	it('two executions of one credential at once share the budget: both finish, nothing repeated, the 429s counted', async () => {
		const { result, measure } = await measured(
			async () =>
				await Promise.all([
					env.run('loanCrmContacts', createContacts('First'), { input: inputOf(400) }),
					env.run('loanCrmContacts', createContacts('Second'), { input: inputOf(400) }),
				]),
		);
		for (const run of result) {
			expect(run.error).toBeUndefined();
			expect(jsonOf(run)).toHaveLength(400);
		}
		for (const tag of ['First', 'Second']) {
			const names = createdNames(tag);
			expect(names).toHaveLength(400);
			expect(new Set(names).size).toBe(400);
		}
		expect(measure.tokens).toBe(4000);
		expectPaced(measure);
	}, 180_000);

	it('a trigger polling during the job takes turns with it, never waiting a whole refill period', async () => {
		// A poll of Contact Created spends about 50 tokens (3 searches, two sorted by created): a
		// bucket of 300 here, so that the poll's own cost is a small part of it, as with real budgets.
		env.sandbox.setRateLimit({ ...BUCKET, capacity: 300, refillPerSecond: 1 });
		const staticData: IDataObject = {};
		const pollWaits: number[] = [];
		let done = false;
		const job = env.run('loanCrmContacts', createContacts('Polled'), { input: inputOf(600) }).finally(() => (done = true));
		while (!done) {
			await clock.sleep(RATE_LIMIT_WINDOW_SECONDS * 1000);
			if (done) break;
			const started = clock.now();
			await runPoll({ nodeType: 'loanCrmContactsTrigger', parameters: { event: 'contactCreated' }, credentials: env.store, staticData });
			pollWaits.push((clock.now() - started) / 1000);
		}
		const result = await job;
		expect(result.error).toBeUndefined();
		expect(createdNames('Polled')).toHaveLength(600);
		expect(new Set(createdNames('Polled')).size).toBe(600);
		expect(pollWaits.length).toBeGreaterThanOrEqual(3);
		for (const wait of pollWaits) expect(wait).toBeLessThan(RATE_LIMIT_WINDOW_SECONDS);
	}, 180_000);

	it('with a dropped connection on one create (Continue On Fail): that item fails, unrepeated; every other is created once', async () => {
		env.sandbox.injectFault({ method: 'POST', path: '/jsonapi/contacts' }, { kind: 'delay', ms: 0 }, 300);
		env.sandbox.injectFault({ method: 'POST', path: '/jsonapi/contacts' }, { kind: 'drop' }, 1);
		const { result, measure, requests } = await measured(async () => await env.run('loanCrmContacts', createContacts('Faulty'), { input: inputOf(600), continueOnFail: true }));
		const items = jsonOf(result);
		expect(items).toHaveLength(600);
		const failed = items.filter((item) => item.error !== undefined);
		expect(failed).toHaveLength(1);
		expect(String(failed[0].error)).toMatch(/connection/i);
		expect(requests.filter((request) => request.method === 'POST')).toHaveLength(600);
		const names = createdNames('Faulty');
		expect(names).toHaveLength(599);
		expect(new Set(names).size).toBe(599);
		expectPaced(measure);
	}, 180_000);
});

describe('Return All many times the bucket', () => {
	it(`reads all ${DEALS} deals (3 buckets' worth of pages), with a 503 and a dropped connection on the way: 0 failed, 0 lost, 0 repeated`, async () => {
		env.sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { kind: 'delay', ms: 0 }, 7);
		env.sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { status: 503 }, 1);
		env.sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { kind: 'delay', ms: 0 }, 7);
		env.sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { kind: 'drop' }, 1);
		const { result, measure, requests } = await measured(async () => await env.run('loanCrmDeals', { resource: 'deal', operation: 'getMany', returnAll: true }));
		expect(result.error).toBeUndefined();
		const ids = jsonOf(result).map((item) => Number(item.id));
		expect(ids).toHaveLength(DEALS);
		expect(new Set(ids).size).toBe(DEALS);
		expect(requests.filter((request) => request.fault !== undefined && request.fault !== 'delay')).toHaveLength(2);
		expect(measure.tokens).toBeGreaterThanOrEqual((DEALS / 100) * 10);
		expectPaced(measure);
	}, 180_000);
});

describe('When Rate Limited', () => {
	it('waits out a retry-after of an hour when allowed 61 minutes, and fails at once with the default', async () => {
		env.sandbox.injectFault({ path: '/jsonapi/deals' }, { status: 429, headers: { 'retry-after': '3600' } });
		const started = clock.now();
		const patient = await env.run('loanCrmDeals', { resource: 'deal', operation: 'getMany', limit: 2, requestOptions: { rateLimitWaitMinutes: 61 } });
		expect(patient.error).toBeUndefined();
		expect(jsonOf(patient)).toHaveLength(2);
		expect(clock.now() - started).toBeGreaterThanOrEqual(3_600_000);
		expect(env.sandbox.apiRequests().map((request) => request.status)).toEqual([429, 200]);
	}, 180_000);

	it('with a limit shorter than the refill, the job stops at the first request that would wait longer, which is never sent', async () => {
		// 40 creates need 200 tokens, the bucket holds 100 and refills 1 token every 3 s. A create goes
		// while the bucket covers it and room for one more (5 + 5), waiting at most 0.1 minutes (6 s,
		// 2 tokens of refill): the bucket covers ⌊(100 + 2 − 5) ÷ 5⌋ = 19 creates, and the 20th would
		// wait 15 s for its 5 tokens. So exactly 19 are sent, each created once, and the job stops.
		const result = await env.run('loanCrmContacts', { ...createContacts('Hasty'), requestOptions: { rateLimitWaitMinutes: 0.1 } }, { input: inputOf(40) });
		expect(result.error?.message).toBe('Loan CRM rate limit: the wait is longer than When Rate Limited allows');
		expect(result.error?.description).toMatch(
			/^The rate-limit budget \(\d+ of 100 tokens left, refilled over 5 minutes\) covers this request in 15 seconds\. This node waits at most 0\.1 minute\(s\) \("Request Options → Rate Limit Wait \(Minutes\)"\)\. Nothing more was sent for it\./,
		);
		const posts = env.sandbox.apiRequests().filter((request) => request.method === 'POST');
		expect(posts).toHaveLength(Math.floor((CAPACITY + 6 * BUCKET.refillPerSecond - 5) / 5));
		expect(posts.every((request) => request.status === 201)).toBe(true);
		expect(createdNames('Hasty')).toHaveLength(posts.length);
	}, 180_000);

	it('30 429s in a row with short retry-afters: the request is repeated each time and finishes well within the wait (no count of attempts)', async () => {
		env.sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { status: 429, headers: { 'retry-after': '1' } }, 30);
		const started = clock.now();
		const result = await env.run('loanCrmDeals', { resource: 'deal', operation: 'getMany', limit: 2 });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toHaveLength(2);
		const statuses = env.sandbox.apiRequests().map((request) => request.status);
		expect(statuses).toEqual([...Array.from({ length: 30 }, () => 429), 200]);
		// Each 429 held the request its retry-after (1 s): 30 s in all, far below the default 10 minutes.
		expect(clock.now() - started).toBeGreaterThanOrEqual(30_000);
		expect(clock.now() - started).toBeLessThan(10 * 60_000);
	}, 180_000);

	it('429s that keep coming: the request gives up only when its waits would pass When Rate Limited in all, saying how long it waited', async () => {
		env.sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { status: 429, headers: { 'retry-after': '50' } }, Infinity);
		const started = clock.now();
		const result = await env.run('loanCrmDeals', { resource: 'deal', operation: 'getMany', limit: 2, requestOptions: { rateLimitWaitMinutes: 3 } });
		// 3 minutes allow three waits of 50 s (150 s) and not a fourth (200 s): 4 requests, every one refused with 429.
		const statuses = env.sandbox.apiRequests().map((request) => request.status);
		expect(statuses).toEqual([429, 429, 429, 429]);
		expect(result.error?.message).toBe('Loan CRM rate limit: the wait is longer than When Rate Limited allows');
		expect(result.error?.description).toMatch(
			/^The service asked to wait 50 seconds \(retry-after of a 429\)\. The request had already waited 2 minutes 30 seconds in all, through 4 429 answer\(s\)\. This node waits at most 3 minute\(s\) \("Request Options → Rate Limit Wait \(Minutes\)"\)\. The service refused it with 429, so it was not processed; it was not sent again\./,
		);
		// It gave up at once when the next wait would not fit, not after waiting it.
		expect(clock.now() - started).toBeGreaterThanOrEqual(150_000);
		expect(clock.now() - started).toBeLessThan(200_000);
	}, 180_000);
});
