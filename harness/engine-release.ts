/**
 * What n8n-core leaves running once the harness has built an execution context, stopped on request.
 *
 * n8n-core's SSH client pool (SSHClientsManager, made by every execution context for its SSH tunnel
 * helpers) starts a 60-second cleanup interval and a process 'exit' listener in its constructor. In
 * n8n both last as long as the process. In a jest worker they outlive the test file that made them,
 * and through them the file's whole module registry (its copy of n8n-core, the nodes, the sandbox)
 * stays reachable: the worker's heap grew by about 15 MB per engine test file, to about 600 MB, and
 * a worker that big took longer to end than jest waits for it ("A worker process has failed to exit
 * gracefully and has been force exited"). The manager's own shutdown clears both.
 *
 * The harness publishes `releaseEngine` under a global symbol when it is loaded, and
 * test/jest.setup.ts calls it after every test file that loaded it, so a file that never touches
 * n8n-core does not load it to find out.
 */
import { Container } from '@n8n/di';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

export const RELEASE_ENGINE = Symbol.for('n8n-nodes-loan-crm.harness.releaseEngine');

/** Stops n8n-core's SSH client pool of this module registry: its interval and its exit listener. */
export function releaseEngine(): void {
	Container.get(SSHClientsManager).onShutdown();
}

(globalThis as Record<symbol, unknown>)[RELEASE_ENGINE] = releaseEngine;
