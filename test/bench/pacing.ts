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
import { resolve, sep } from 'path';

import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { CredentialStore, REPO_ROOT, runNode, runPoll, sandboxCredential } from '../../harness';
import { TestClock, waitsPassByThemselves } from '../../harness/clock';
import { RATE_LIMIT_WINDOW_SECONDS } from '../../nodes/shared/requests/rateBudget';
import { startSandbox } from '../../sandbox';
import type { LoggedRequest, Sandbox } from '../../sandbox';

/** Tokens per 5 minutes in every job. */
export const PACING_CAPACITY = 1000;

export type PacingJobName = 'writes' | 'returnAll' | 'twoExecutions' | 'jobWhilePolling';
export type PacingProcessesJobName = 'twoProcesses' | 'fourProcesses';

/** One n8n process of a several-process job: how long it ran and the 429s it met (by the token its requests carried). */
export interface PacingProcess {
	name: string;
	seconds: number;
	tooManyRequests: number;
	refillPeriods: number;
	/** ⌈its duration ÷ the refill period⌉ + 1. */
	bound: number;
}

export interface PacingCase {
	name: PacingJobName | PacingProcessesJobName;
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
	/** jobWhilePolling and the several-process jobs: the longest a poll took (virtual seconds), and how many polls ran. */
	longestPollSeconds?: number;
	polls?: number;
	/** The several-process jobs: each process (the workers and the main that polls). */
	processes?: PacingProcess[];
}

const contactsInput = (count: number) => Array.from({ length: count }, (_, n) => ({ n }));
/** Contact → Create as a new node has it (version 1.2: its key fields on top). */
const createContacts = (tag: string) => ({
	resource: 'contact',
	operation: 'create',
	firstName: `={{ "${tag} " + $json.n }}`,
	lastName: 'Bulk',
	email: `={{ "${tag}" + $json.n + "@example.com" }}`,
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

/** The refill rate every pacing job's bucket has: PACING_CAPACITY per refill period (the documented 5 minutes). */
const PACING_REFILL_PER_SECOND = PACING_CAPACITY / RATE_LIMIT_WINDOW_SECONDS;

/** What the sandbox's bucket saw of a job that took `virtualSeconds`, against the floor its spend sets. */
function bucketFigures(sandbox: Sandbox, virtualSeconds: number, wallStarted: number) {
	const requests = sandbox.apiRequests();
	const tokens = sandbox.rateLimitSpent();
	const floorSeconds = tokens / PACING_REFILL_PER_SECOND;
	return {
		capacity: PACING_CAPACITY,
		virtualSeconds,
		wallMs: Date.now() - wallStarted,
		tokens,
		floorSeconds,
		ofFloor: virtualSeconds / floorSeconds,
		ofStrictFloor: virtualSeconds / Math.max(1, (tokens - PACING_CAPACITY) / PACING_REFILL_PER_SECOND),
		tooManyRequests: requests.filter((request) => request.status === 429).length,
		refillPeriods: Math.ceil(virtualSeconds / RATE_LIMIT_WINDOW_SECONDS),
		requests: requests.length,
	};
}

export async function pacingJob(name: PacingJobName, writes: number, deals: number): Promise<PacingCase> {
	// One virtual clock for the nodes, the credential and the sandbox, put back when the job ends.
	const clock = TestClock.virtual();
	const restoreClock = clock.install();
	const sandbox = await startSandbox({
		sizes: { deals: name === 'returnAll' ? deals : 100, contacts: 10, incomes: 5, dealSecurities: 5 },
		rateLimit: { capacity: PACING_CAPACITY, refillPerSecond: PACING_REFILL_PER_SECOND },
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
		return {
			name,
			label,
			...bucketFigures(sandbox, (clock.now() - started) / 1000, wallStarted),
			...outcome,
			...(polls === undefined ? {} : { polls: polls.length, longestPollSeconds: Math.max(0, ...polls) }),
		};
	} finally {
		await sandbox.close();
		restoreClock();
	}
}

// ---------------------------------------------------------------------------------------------
// Several n8n processes on one credential (queue mode): each with its own copy of the package's
// modules (its rate-limit budgets, its tokens), nothing shared but the sandbox's answers.

type Harness = typeof import('../../harness');
type RateBudgetModule = typeof import('../../nodes/shared/requests/rateBudget');
type PackageClockModule = typeof import('../../credentials/clock');

interface BenchProcess {
	name: string;
	harness: Harness;
	rateBudget: RateBudgetModule;
	/** This process's copy of the package's one clock (credentials/clock.ts). */
	packageClock: PackageClockModule;
	store: InstanceType<Harness['CredentialStore']>;
}

/**
 * A process of its own: the package's modules and the harness that runs them loaded afresh (their
 * entries dropped from Node's module cache first; the copies loaded before keep theirs), n8n's own
 * libraries shared, as they keep nothing of the package's. test/engine/processes.ts does the same
 * under jest, with jest.isolateModules.
 */
function separateProcess(name: string, credential: ICredentialDataDecryptedObject): BenchProcess {
	const ours = ['nodes', 'credentials', 'harness'].map((folder) => resolve(REPO_ROOT, folder) + sep);
	for (const path of Object.keys(require.cache)) if (ours.some((folder) => path.startsWith(folder))) delete require.cache[path];
	const harness = require('../../harness') as Harness;
	harness.defaultRegistry();
	const rateBudget = require('../../nodes/shared/requests/rateBudget') as RateBudgetModule;
	const packageClock = require('../../credentials/clock') as PackageClockModule;
	const store = new harness.CredentialStore();
	store.add('loanCrmOAuth2Api', credential);
	return { name, harness, rateBudget, packageClock, store };
}

interface ProcessJob {
	process: BenchProcess;
	label: string;
	nodeType: string;
	parameters: INodeParameters;
	input: IDataObject[];
	/** Items failed, lost and repeated, from the output and what the sandbox received. */
	check: (output: IDataObject[], log: LoggedRequest[]) => { failed: number; lost: number; repeated: number };
}

const countOnce = (expected: string[], seen: string[]) => {
	const times = new Map<string, number>();
	for (const key of seen) times.set(key, (times.get(key) ?? 0) + 1);
	let lost = 0;
	let repeated = 0;
	for (const key of expected) {
		const count = times.get(key) ?? 0;
		if (count === 0) lost += 1;
		if (count > 1) repeated += count - 1;
	}
	return { lost, repeated };
};

/**
 * Section 9's several-process jobs: 2 workers (task updates; lead reads) or 4 (task updates; lead
 * reads; two executions of contact creates on one worker; deal searches), each item count scaled
 * from `items`, while the main polls the Contacts Trigger every 5 virtual minutes.
 */
export async function pacingProcessesJob(name: PacingProcessesJobName, items: number): Promise<PacingCase> {
	// One virtual clock for the sandbox and every process's copy of the package (each reads its own
	// credentials/clock.ts), put back when the job ends.
	const clock = TestClock.virtual();
	const sandbox = await startSandbox({ sizes: { deals: Math.max(items, 1000), contacts: 10, incomes: 5, dealSecurities: 5 }, clock });
	const restoreClocks: Array<() => void> = [];
	try {
		const credential = sandboxCredential(sandbox);
		const count = name === 'twoProcesses' ? 2 : 4;
		const workers = Array.from({ length: count }, (_, index) => separateProcess(`worker ${index + 1}`, credential));
		const main = separateProcess('main', credential);
		const everyone = [...workers, main];
		for (const process of everyone) restoreClocks.push(process.packageClock.usePackageClock(clock));
		clock.autoAdvance(() => everyone.some((process) => process.rateBudget.rateLimitedRequestsInFlight() > 0));
		sandbox.setRateLimit({ capacity: PACING_CAPACITY, refillPerSecond: PACING_REFILL_PER_SECOND });

		const tasks = sandbox.data.list('tasks').map((task) => String(task.id));
		const deals = sandbox.data.list('deals').map((deal) => String(deal.id));
		const taskUpdates = (process: BenchProcess, n: number): ProcessJob => ({
			process,
			label: `${n.toLocaleString('en')} task updates`,
			nodeType: 'loanCrmLeadsAndTasks',
			parameters: { resource: 'task', operation: 'update', taskId: '={{ $json.taskId }}', updateFields: { detail: '={{ "Bulk update " + $json.n }}' } },
			input: Array.from({ length: n }, (_, index) => ({ n: index, taskId: tasks[index % tasks.length] })),
			check: (output, log) => {
				const details = log.filter((request) => request.method === 'PATCH' && request.status === 200).map((request) => String((request.json as { data: { attributes: { detail: string } } }).data.attributes.detail));
				return { failed: output.filter((item) => item.error !== undefined).length, ...countOnce(Array.from({ length: n }, (_, index) => `Bulk update ${index}`), details) };
			},
		});
		const leadReads = (process: BenchProcess, n: number): ProcessJob => ({
			process,
			label: `${n.toLocaleString('en')} lead reads`,
			nodeType: 'loanCrmLeadsAndTasks',
			parameters: { resource: 'lead', operation: 'get', leadId: '={{ $json.leadId }}' },
			input: deals.slice(0, n).map((leadId) => ({ leadId })),
			check: (output) => ({ failed: output.filter((item) => item.error !== undefined).length, ...countOnce(deals.slice(0, n), output.filter((item) => item.error === undefined).map((item) => String(item.id))) }),
		});
		const contactCreates = (process: BenchProcess, tag: string, n: number): ProcessJob => ({
			process,
			label: `${n.toLocaleString('en')} contact creates`,
			nodeType: 'loanCrmContacts',
			parameters: createContacts(tag),
			input: contactsInput(n),
			check: (output) => {
				const outcome = createOutcome(sandbox, tag, n, output);
				return outcome;
			},
		});
		const dealSearches = (process: BenchProcess, n: number): ProcessJob => ({
			process,
			label: `${n.toLocaleString('en')} deal searches`,
			nodeType: 'loanCrmDeals',
			parameters: { resource: 'deal', operation: 'getMany', returnAll: false, limit: 1, options: { filter: "={{ \"equals(id,'\" + $json.dealId + \"')\" }}" } },
			input: deals.slice(0, n).map((dealId) => ({ dealId })),
			check: (output) => ({ failed: output.filter((item) => item.error !== undefined).length, ...countOnce(deals.slice(0, n), output.filter((item) => item.error === undefined).map((item) => String(item.id))) }),
		});
		const jobs =
			count === 2
				? [taskUpdates(workers[0], items), leadReads(workers[1], items)]
				: [
						taskUpdates(workers[0], Math.round(items * 0.75)),
						leadReads(workers[1], Math.round(items * 0.5)),
						contactCreates(workers[2], 'First', Math.round(items * 0.375)),
						contactCreates(workers[2], 'Second', Math.round(items * 0.375)),
						dealSearches(workers[3], Math.round(items * 0.25)),
					];

		const started = clock.now();
		const wallStarted = Date.now();
		const ended = new Map<BenchProcess, number>();
		// A poll starts with the first request to arrive once its time has come: a sleep until then
		// would be a sleeper far ahead, which the self-moving clock jumps to between two requests.
		const polls: Array<Promise<number>> = [];
		const staticData: IDataObject = {};
		let nextPoll = started + RATE_LIMIT_WINDOW_SECONDS * 1000;
		let polling = false;
		let done = false;
		sandbox.beforeHandle = () => {
			if (done || polling || clock.now() < nextPoll) return;
			polling = true;
			polls.push(
				(async () => {
					const pollStarted = clock.now();
					await main.harness.runPoll({ nodeType: 'loanCrmContactsTrigger', parameters: { event: 'contactCreated' }, credentials: main.store, staticData });
					ended.set(main, clock.now());
					nextPoll = clock.now() + RATE_LIMIT_WINDOW_SECONDS * 1000;
					polling = false;
					return (clock.now() - pollStarted) / 1000;
				})(),
			);
		};
		const outputs = await Promise.all(
			jobs.map(async (job) => {
				const result = await job.process.harness.runNode({ nodeType: job.nodeType, parameters: job.parameters, credentials: job.process.store, input: job.input, continueOnFail: true });
				ended.set(job.process, Math.max(ended.get(job.process) ?? 0, clock.now()));
				return result.items.map((item) => item.json);
			}),
		);
		done = true;
		const pollSeconds = await Promise.all(polls);
		sandbox.beforeHandle = undefined;

		const requests = sandbox.apiRequests();
		const processes = everyone.map((process): PacingProcess => {
			const seconds = ((ended.get(process) ?? started) - started) / 1000;
			const bearer = `Bearer ${String(process.store.firstOfType('loanCrmOAuth2Api')?.data.accessToken ?? '')}`;
			return {
				name: process.name,
				seconds,
				tooManyRequests: requests.filter((request) => request.status === 429 && request.headers.authorization === bearer).length,
				refillPeriods: Math.ceil(seconds / RATE_LIMIT_WINDOW_SECONDS),
				bound: Math.ceil(seconds / RATE_LIMIT_WINDOW_SECONDS) + 1,
			};
		});
		const outcome = jobs.reduce(
			(sum, job, index) => {
				const checked = job.check(outputs[index], requests);
				return { items: sum.items + outputs[index].length, failed: sum.failed + checked.failed, lost: sum.lost + checked.lost, repeated: sum.repeated + checked.repeated };
			},
			{ items: 0, failed: 0, lost: 0, repeated: 0 },
		);
		const byWorker = workers.map((worker) => jobs.filter((job) => job.process === worker).map((job) => job.label).join(' + '));
		return {
			name,
			label: `${count} workers (${byWorker.join('; ')}) and the main polling Contact Created every 5 min, one credential`,
			...bucketFigures(sandbox, (Math.max(...ended.values()) - started) / 1000, wallStarted),
			...outcome,
			polls: pollSeconds.length,
			longestPollSeconds: Math.max(0, ...pollSeconds),
			processes,
		};
	} finally {
		await sandbox.close();
		for (const restore of restoreClocks.reverse()) restore();
	}
}
