/**
 * Runs in every test file (jest.config.js setupFilesAfterEnv): no test waits on the machine's
 * clock, and a clean end of each worker.
 *
 * - The real-time guard: every timer a test file sets (setTimeout, setInterval: the test's own, the
 *   sandbox's latency and delays on the machine's clock, n8n-workflow's `sleep`, n8n's HTTP client's
 *   timeouts) is counted when it fires. A test whose fired timers of 2 ms or more add up to more than
 *   50 ms fails, naming them: a wait belongs on the test clock (harness/clock.ts), which moves
 *   instead. Timers under 2 ms are "after this turn", not waits; a timer that is cleared before it
 *   fires was never waited for. `MUST_REALLY_WAIT` lists the only tests allowed more, and why. The
 *   bench, which measures real time, is not run by jest.
 * - After the file, it stops what n8n-core left running for it, if the file loaded the engine
 *   harness (harness/engine-release.ts says why: otherwise each file's modules stay alive in the
 *   worker until it ends).
 * - In a worker process (forked by jest, so it has an IPC channel; never in `jest -i`), the worker
 *   ends with `reallyExit` once Node has emitted 'exit': the process then skips tearing down its
 *   heap object by object, which took 250-600 ms for a worker of 400-900 MB on 2 cores, while jest
 *   force-kills a worker that is not gone 500 ms after it asked it to end ("A worker process has
 *   failed to exit gracefully"). Only the exit of a worker that has already finished every file is
 *   shortened; its exit code is kept.
 */
import { runInThisContext } from 'vm';

/** The most a test may wait on the machine's clock, in all (ms). */
const REAL_WAIT_BUDGET_MS = 50;
/** Shorter timers are "after this turn of the event loop" (the test clock's own, n8n's), not waits. */
const SHORTEST_WAIT_MS = 2;

/**
 * The tests that must really wait, each with the one timer it may wait for besides the budget (up to
 * `upToMs`) and why. Nothing of ours can move these: they are n8n's HTTP client's own timeouts
 * (follow-redirects' request timer).
 */
const MUST_REALLY_WAIT: ReadonlyArray<{ file: string; test: string; upToMs: number; why: string }> = [
	{
		file: 'test/reliability/faults.test.ts',
		test: 'token endpoint slow past the timeout: fails instead of hanging',
		upToMs: 10_000,
		why: "the credential's token request gives up after its 10-second timeout in n8n's HTTP client; only that shows it does not hang",
	},
	{
		file: 'test/engine/custom-api-call.test.ts',
		test: 'a GET answered 404, a POST that timed out and a POST whose connection dropped: each sent once, no new token',
		upToMs: 300,
		why: "the HTTP Request node's Timeout option (300 ms here) is n8n's HTTP client's timer; only a real timeout shows the POST is not sent again",
	},
];

interface RealWait {
	ms: number;
	/** Who set the timer: the first stack frame outside this file. */
	where: string;
}

/** Timers that fired, per test that set them ('' for the file's hooks). */
const realWaits = new Map<string, RealWait[]>();
const testPath = (): string => String(expect.getState().testPath ?? '').replace(/\\/g, '/');
const currentTest = (): string => expect.getState().currentTestName ?? '';

function allowedFor(test: string): number {
	const path = testPath();
	const entry = MUST_REALLY_WAIT.find((allowed) => path.endsWith(allowed.file) && test.endsWith(allowed.test));
	return entry?.upToMs ?? 0;
}

/** What the guard holds against `test`: undefined when it waited no longer than it may. */
function realWaitVerdict(test: string): string | undefined {
	const counted = [...(realWaits.get(test) ?? [])];
	// An allowed test's one long wait is not counted.
	const allowed = allowedFor(test);
	const longest = counted.reduce<RealWait | undefined>((found, wait) => (found === undefined || wait.ms > found.ms ? wait : found), undefined);
	if (longest !== undefined && longest.ms <= allowed) counted.splice(counted.indexOf(longest), 1);
	const total = counted.reduce((sum, wait) => sum + wait.ms, 0);
	if (total <= REAL_WAIT_BUDGET_MS) return undefined;
	const list = counted.map((wait) => `${Math.round(wait.ms)} ms at ${wait.where}`).join('; ');
	return `Waited ${Math.round(total)} ms on the machine's clock (more than ${REAL_WAIT_BUDGET_MS} ms): ${list}. Move the wait to the test clock (harness/clock.ts: useSandbox's clock, TestClock.install, a sandbox on the clock), or add the test to MUST_REALLY_WAIT in test/jest.setup.ts with the reason it must really wait.`;
}

function timerSetter<T extends typeof setTimeout | typeof setInterval>(original: T): T {
	const wrapped = function (this: unknown, handler: unknown, ms?: number, ...args: unknown[]) {
		const delay = Number(ms) || 0;
		if (delay < SHORTEST_WAIT_MS || typeof handler !== 'function') return (original as (...a: unknown[]) => unknown).call(this, handler, ms, ...args);
		const test = currentTest();
		const frames = (new Error().stack ?? '').split('\n').slice(2);
		const where = (frames.find((frame) => !frame.includes('jest.setup')) ?? '').trim().replace(/^at /, '');
		const fired = (...fireArgs: unknown[]): unknown => {
			const list = realWaits.get(test) ?? [];
			list.push({ ms: delay, where });
			realWaits.set(test, list);
			return (handler as (...a: unknown[]) => unknown)(...fireArgs);
		};
		return (original as (...a: unknown[]) => unknown).call(this, fired, ms, ...args);
	};
	return Object.assign(wrapped, original) as unknown as T;
}

globalThis.setTimeout = timerSetter(globalThis.setTimeout);
globalThis.setInterval = timerSetter(globalThis.setInterval);

/** For test/harness/real-time-guard.test.ts: what the guard holds against the current test, and a pardon. */
(globalThis as Record<symbol, unknown>)[Symbol.for('n8n-nodes-loan-crm.jest.realTimeGuard')] = {
	verdict: (): string | undefined => realWaitVerdict(currentTest()),
	pardon: (): void => {
		realWaits.delete(currentTest());
	},
};

afterEach(() => {
	const test = currentTest();
	const verdict = realWaitVerdict(test);
	realWaits.delete(test);
	if (verdict !== undefined) throw new Error(verdict);
});

afterAll(() => {
	// Timers set by one test that fired only after it, or by the file's hooks.
	const late = [...realWaits.keys()].map((test) => [test, realWaitVerdict(test)] as const).filter(([, verdict]) => verdict !== undefined);
	realWaits.clear();
	if (late.length > 0) throw new Error(late.map(([test, verdict]) => `${test === '' ? 'the file\'s hooks' : test}: ${verdict}`).join('\n'));
});

const RELEASE_ENGINE = Symbol.for('n8n-nodes-loan-crm.harness.releaseEngine');
const FAST_EXIT = Symbol.for('n8n-nodes-loan-crm.jest.fastExit');

afterAll(() => {
	const release = (globalThis as Record<symbol, unknown>)[RELEASE_ENGINE];
	if (typeof release === 'function') (release as () => void)();
});

// A test file sees a copy of `process` made by jest; the worker's own is the one of Node's main context.
const workerProcess = runInThisContext('process') as NodeJS.Process & { reallyExit(code: number): never } & Record<symbol, boolean>;
if (typeof workerProcess.send === 'function' && workerProcess[FAST_EXIT] !== true) {
	workerProcess[FAST_EXIT] = true;
	workerProcess.on('exit', (code) => workerProcess.reallyExit(code ?? 0));
}
