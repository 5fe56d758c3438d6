/**
 * Separate n8n processes in one jest file, for what depends on being separate (queue-mode workers
 * and the main, issue 40): each process has its own copy of the package's modules (its rate-limit
 * budgets, its shared tokens) and of the harness that runs them, loaded with `jest.isolateModules`,
 * as a process of its own would have. n8n's own libraries are shared: they keep nothing of the
 * package's, and one copy of n8n-core's services is what the harness releases after the file.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { TestClock } from '../../harness/clock';

type Harness = typeof import('../../harness');
type RateBudgetModule = typeof import('../../nodes/shared/requests/rateBudget');
type PackageClockModule = typeof import('../../credentials/clock');

/** Modules every process shares, as loaded by this file. */
const SHARED: Record<string, unknown> = {
	'n8n-workflow': require('n8n-workflow'),
	'n8n-core': require('n8n-core'),
	'@n8n/di': require('@n8n/di'),
	'n8n-core/dist/execution-engine/ssh-clients-manager': require('n8n-core/dist/execution-engine/ssh-clients-manager'),
};

export interface SeparateProcess {
	name: string;
	harness: Harness;
	/** This process's copy of requests/rateBudget.ts: its budgets. */
	rateBudget: RateBudgetModule;
	/** This process's copy of the package's one clock (credentials/clock.ts). */
	packageClock: PackageClockModule;
	/** Its credential store, holding the one credential every process uses (the same values). */
	store: InstanceType<Harness['CredentialStore']>;
}

/** A process of its own, with `credential` (the same values in every process: one credential). */
export function separateProcess(name: string, credential: ICredentialDataDecryptedObject): SeparateProcess {
	let loaded: { harness: Harness; rateBudget: RateBudgetModule; packageClock: PackageClockModule } | undefined;
	jest.isolateModules(() => {
		for (const [moduleName, shared] of Object.entries(SHARED)) jest.doMock(moduleName, () => shared);
		const harness = require('../../harness') as Harness;
		// The harness loads the package's nodes and credential on first use: load them here, in this
		// process's copy of the modules, not later in the file's.
		harness.defaultRegistry();
		loaded = {
			harness,
			rateBudget: require('../../nodes/shared/requests/rateBudget') as RateBudgetModule,
			packageClock: require('../../credentials/clock') as PackageClockModule,
		};
	});
	if (loaded === undefined) throw new Error('jest.isolateModules did not run');
	const store = new loaded.harness.CredentialStore();
	store.add('loanCrmOAuth2Api', credential);
	return { name, ...loaded, store };
}

/**
 * Makes `clock` (the one virtual clock of these tests, which the sandbox reads too) every process's
 * package clock (each process reads its own copy of credentials/clock.ts): their runs, rate budgets
 * and credentials read it. It moves by itself whenever no process has a request on its way
 * (harness/clock.ts), so hours of pacing run in seconds and nothing waits on real time. The
 * returned function puts every process's clock back.
 */
export function shareClock(processes: SeparateProcess[], clock: TestClock): () => void {
	const restores = processes.map((process) => process.packageClock.usePackageClock(clock));
	clock.autoAdvance(() => processes.some((process) => process.rateBudget.rateLimitedRequestsInFlight() > 0));
	return () => restores.reverse().forEach((restore) => restore());
}

/** The access token a process's requests carry (its store keeps the one it fetched). */
export function tokenOf(process: SeparateProcess): string {
	const token = process.store.firstOfType('loanCrmOAuth2Api')?.data.accessToken;
	if (typeof token !== 'string' || token === '') throw new Error(`${process.name} holds no token yet`);
	return token;
}
