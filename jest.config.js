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
};
