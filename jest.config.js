/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	globalSetup: '<rootDir>/test/jest.global-setup.ts',
	globalTeardown: '<rootDir>/test/jest.global-teardown.ts',
	setupFilesAfterEnv: ['<rootDir>/test/jest.setup.ts'],
	testTimeout: 30000,
	// One worker per core. Jest's default (cores - 1) runs the files one at a time on a 2-core machine.
	maxWorkers: require('os').availableParallelism(),
	// A worker whose heap is over 300 MB after a test file is replaced by a fresh one. Jest gives an
	// ending worker 500 ms before it kills it ("A worker process has failed to exit gracefully"), and
	// a process of 800 MB took 500-600 ms just to end on 2 cores; the engine files each load their own
	// n8n-core, so a worker that ran many of them grew that big. Smaller heaps also collect faster:
	// the whole run took 176 s with the limit against 221 s without, on the same busy machine.
	workerIdleMemoryLimit: '300MB',
};
