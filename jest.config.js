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
	// ending worker 500 ms before it kills it ("A worker process has failed to exit gracefully"); a
	// worker that had run many engine files (each loads its own n8n-core) reached 800-960 MB and took
	// 590-650 ms to end on 2 cores. With the limit and test/jest.setup.ts's short exit, workers of
	// about 450 MB ended in 80-250 ms. Replacing workers costs a little: quiet runs took 150-191 s with
	// the limit, 157 s without (and force-exited).
	workerIdleMemoryLimit: '300MB',
};
