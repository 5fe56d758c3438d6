/**
 * Runs in every test file (jest.config.js setupFilesAfterEnv), for a clean end of each worker.
 *
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
