/**
 * Section 9: bulk jobs paced to the service's rate limit. One job per process (worker.ts), each
 * with the sandbox in the same process: its token bucket (cost per kind of request, CAPACITY tokens
 * refilled over 5 minutes, 429 with retry-after) and the nodes' budget read one virtual clock
 * (harness/clock.ts), so a job of hours runs in seconds.
 *
 * Reported per job: virtual time ÷ the budget floor (tokens charged ÷ refill rate; a job cannot
 * beat (tokens − CAPACITY) ÷ refill rate, the bucket's first fill being free), 429s met against
 * refill periods, tokens, items failed / lost / repeated, and the wall time it took to simulate.
 */
import type { IDataObject } from 'n8n-workflow';

import { CredentialStore, runNode, runPoll, sandboxCredential } from '../../harness';
import { TestClock, waitsPassByThemselves } from '../../harness/clock';
import { RATE_LIMIT_WINDOW_SECONDS } from '../../nodes/shared/requests/rateBudget';
import { startSandbox } from '../../sandbox';
import type { Sandbox } from '../../sandbox';

/** Tokens per 5 minutes in every job. */
export const PACING_CAPACITY = 1000;

export type PacingJobName = 'writes' | 'returnAll' | 'twoExecutions' | 'jobWhilePolling';

export interface PacingCase {
	name: PacingJobName;
	label: string;
	/** The bucket: tokens per 5 minutes. */
	capacity: number;
	virtualSeconds: number;
	wallMs: number;
	tokens: number;
	floorSeconds: number;
	ofFloor: number;
	/** Virtual time ÷ (tokens − capacity) ÷ refill rate: what no client can beat. */
	ofStrictFloor: number;
	tooManyRequests: number;
	refillPeriods: number;
	requests: number;
	items: number;
	failed: number;
	lost: number;
	repeated: number;
	/** jobWhilePolling: the longest a poll took (virtual seconds), and how many polls ran. */
	longestPollSeconds?: number;
	polls?: number;
}

const contactsInput = (count: number) => Array.from({ length: count }, (_, n) => ({ n }));
const createContacts = (tag: string) => ({
	resource: 'contact',
	operation: 'create',
	additionalFields: { firstName: `={{ "${tag} " + $json.n }}`, lastName: 'Bulk', email: `={{ "${tag}" + $json.n + "@example.com" }}` },
});

/** Items failed, lost (no record and no failed item) and repeated (more than one record) for a create job. */
function createOutcome(sandbox: Sandbox, tag: string, count: number, output: IDataObject[]): { failed: number; lost: number; repeated: number } {
	const names = sandbox.data
		.list('contacts')
		.map((contact) => String(contact.attributes.firstName))
		.filter((name) => name.startsWith(`${tag} `));
	const perName = new Map<string, number>();
	for (const name of names) perName.set(name, (perName.get(name) ?? 0) + 1);
	const failed = output.filter((item) => item.error !== undefined).length;
	let lost = 0;
	let repeated = 0;
	for (let n = 0; n < count; n++) {
		const times = perName.get(`${tag} ${n}`) ?? 0;
		if (times > 1) repeated += times - 1;
	}
	lost = count - perName.size - failed;
	return { failed, lost: Math.max(0, lost), repeated };
}

export async function pacingJob(name: PacingJobName, writes: number, deals: number): Promise<PacingCase> {
	// One virtual clock for the nodes, the credential and the sandbox, put back when the job ends.
	const clock = TestClock.virtual();
	const restoreClock = clock.install();
	const refillPerSecond = PACING_CAPACITY / RATE_LIMIT_WINDOW_SECONDS;
	const sandbox = await startSandbox({
		sizes: { deals: name === 'returnAll' ? deals : 100, contacts: 10, incomes: 5, dealSecurities: 5 },
		rateLimit: { capacity: PACING_CAPACITY, refillPerSecond },
		clock,
	});
	waitsPassByThemselves(clock, sandbox);
	try {
		const store = new CredentialStore();
		store.add('loanCrmOAuth2Api', sandboxCredential(sandbox));
		const started = clock.now();
		const wallStarted = Date.now();
		let label = '';
		let outcome = { items: 0, failed: 0, lost: 0, repeated: 0 };
		let polls: number[] | undefined;
		const writeJob = async (tag: string, count: number) => {
			const result = await runNode({ nodeType: 'loanCrmContacts', parameters: createContacts(tag), credentials: store, input: contactsInput(count), continueOnFail: true });
			const output = result.items.map((item) => item.json);
			return { items: output.length, ...createOutcome(sandbox, tag, count, output) };
		};
		const add = (a: typeof outcome, b: typeof outcome) => ({ items: a.items + b.items, failed: a.failed + b.failed, lost: a.lost + b.lost, repeated: a.repeated + b.repeated });
		switch (name) {
			case 'writes':
				label = `${writes.toLocaleString('en')} contact creates, one execution`;
				outcome = await writeJob('Bulk', writes);
				break;
			case 'twoExecutions': {
				label = `2 × ${(writes / 2).toLocaleString('en')} contact creates at once, one credential`;
				const [first, second] = await Promise.all([writeJob('First', writes / 2), writeJob('Second', writes / 2)]);
				outcome = add(first, second);
				break;
			}
			case 'jobWhilePolling': {
				label = `${(writes / 2).toLocaleString('en')} contact creates while Contact Created polls every 5 min`;
				polls = [];
				let done = false;
				const job = writeJob('Polled', writes / 2).finally(() => (done = true));
				const staticData: IDataObject = {};
				while (!done) {
					await clock.sleep(RATE_LIMIT_WINDOW_SECONDS * 1000);
					if (done) break;
					const pollStarted = clock.now();
					await runPoll({ nodeType: 'loanCrmContactsTrigger', parameters: { event: 'contactCreated' }, credentials: store, staticData });
					polls.push((clock.now() - pollStarted) / 1000);
				}
				outcome = await job;
				break;
			}
			case 'returnAll': {
				label = `Return All of ${deals.toLocaleString('en')} deals, a 503 and a dropped connection on the way`;
				sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { kind: 'delay', ms: 0 }, 40);
				sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { status: 503 }, 1);
				sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { kind: 'delay', ms: 0 }, 40);
				sandbox.injectFault({ method: 'GET', path: '/jsonapi/deals' }, { kind: 'drop' }, 1);
				const result = await runNode({ nodeType: 'loanCrmDeals', parameters: { resource: 'deal', operation: 'getMany', returnAll: true }, credentials: store });
				const ids = result.items.map((item) => Number(item.json.id));
				const distinct = new Set(ids).size;
				outcome = { items: ids.length, failed: result.error === undefined ? 0 : 1, lost: deals - distinct, repeated: ids.length - distinct };
				break;
			}
		}
		const virtualSeconds = (clock.now() - started) / 1000;
		const requests = sandbox.apiRequests();
		const tokens = sandbox.rateLimitSpent();
		const floorSeconds = tokens / refillPerSecond;
		return {
			name,
			label,
			capacity: PACING_CAPACITY,
			virtualSeconds,
			wallMs: Date.now() - wallStarted,
			tokens,
			floorSeconds,
			ofFloor: virtualSeconds / floorSeconds,
			ofStrictFloor: virtualSeconds / Math.max(1, (tokens - PACING_CAPACITY) / refillPerSecond),
			tooManyRequests: requests.filter((request) => request.status === 429).length,
			refillPeriods: Math.ceil(virtualSeconds / RATE_LIMIT_WINDOW_SECONDS),
			requests: requests.length,
			...outcome,
			...(polls === undefined ? {} : { polls: polls.length, longestPollSeconds: Math.max(0, ...polls) }),
		};
	} finally {
		await sandbox.close();
		restoreClock();
	}
}
