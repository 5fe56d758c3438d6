/**
 * A test file's n8n-core must not outlive the file: n8n-core's SSH client pool, made by every
 * execution context, holds an interval and a process 'exit' listener that would keep the file's
 * modules alive in the jest worker (harness/engine-release.ts). test/jest.setup.ts releases it
 * after every file that loaded the harness.
 */
import { Container } from '@n8n/di';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

import { runNode } from '../../harness';
import { RELEASE_ENGINE, releaseEngine } from '../../harness/engine-release';

// The manager's fields this test reads (private in n8n-core's typings).
interface ManagerInternals {
	cleanupTimer: NodeJS.Timeout & { _destroyed?: boolean };
	onProcessExit: () => void;
}

describe("releasing n8n-core's engine after a test file", () => {
	it('a node run leaves the SSH pool running; releaseEngine stops its interval and its exit listener', async () => {
		const result = await runNode({ nodeType: 'harnessThrow', parameters: { message: 'unused' }, input: [{ n: 1 }] });
		expect(result.items.map((item) => item.json)).toEqual([{ n: 1, passed: true }]);
		const manager = Container.get(SSHClientsManager) as unknown as ManagerInternals;
		expect(process.listeners('exit')).toContain(manager.onProcessExit);
		expect(manager.cleanupTimer._destroyed).toBe(false);

		releaseEngine();
		expect(process.listeners('exit')).not.toContain(manager.onProcessExit);
		expect(manager.cleanupTimer._destroyed).toBe(true);
	});

	it('the harness publishes the release, and jest runs test/jest.setup.ts (which calls it) after every file', () => {
		expect((globalThis as Record<symbol, unknown>)[RELEASE_ENGINE]).toBe(releaseEngine);
		const config = require('../../jest.config.js') as { setupFilesAfterEnv?: string[] };
		expect(config.setupFilesAfterEnv).toEqual(['<rootDir>/test/jest.setup.ts']);
	});
});
