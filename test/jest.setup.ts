/**
 * Runs in every test file (jest.config.js setupFilesAfterEnv). After the file, it stops what
 * n8n-core left running for it, if the file loaded the engine harness (harness/engine-release.ts
 * says why: otherwise each file's modules stay alive in the worker until it ends).
 */
const RELEASE_ENGINE = Symbol.for('n8n-nodes-loan-crm.harness.releaseEngine');

afterAll(() => {
	const release = (globalThis as Record<symbol, unknown>)[RELEASE_ENGINE];
	if (typeof release === 'function') (release as () => void)();
});
