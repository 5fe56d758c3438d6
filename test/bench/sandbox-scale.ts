/**
 * Section 8: the sandbox itself at 100,000 deals against 1,000, in one worker process (the
 * sandbox in-process, as the tests start it): how long it takes to start (seeding), and how long a
 * keyset page deep in the id space takes. Ratios in one run, so a slower machine moves both sides:
 * a sandbox that scanned its table for a keyset page would show the 100× in the second ratio.
 * These were wall-clock bounds in test/sandbox/data.test.ts (< 3 s, < 60 ms a page).
 */
import { performance } from 'perf_hooks';

import { startSandbox } from '../../sandbox';
import { token } from '../sandbox/testkit';

export interface SandboxScaleSample {
	deals: number;
	startMs: number;
	/** Mean of `pages` keyset pages (100 deals each) from the middle of the id space. */
	pageMs: number;
}

async function measure(deals: number, pages: number): Promise<SandboxScaleSample> {
	const started = performance.now();
	const sandbox = await startSandbox({ sizes: { deals } });
	const startMs = performance.now() - started;
	try {
		const accessToken = await token(sandbox);
		const headers = { accept: 'application/vnd.api+json', authorization: `Bearer ${accessToken}`, userid: sandbox.userId };
		const ids = sandbox.data.idsOf('deals');
		let last = ids[Math.max(0, Math.floor(ids.length / 2) - pages * 100)];
		// One page first, so connection set-up is not in the figure.
		await fetch(`${sandbox.baseUrl}/jsonapi/deals?filter=${encodeURIComponent(`greaterThan(id,'${last}')`)}`, { headers }).then((response) => response.arrayBuffer());
		const pagesStarted = performance.now();
		for (let page = 0; page < pages; page++) {
			const response = await fetch(`${sandbox.baseUrl}/jsonapi/deals?filter=${encodeURIComponent(`greaterThan(id,'${last}')`)}`, { headers });
			const document = (await response.json()) as { data?: Array<{ id: string }> };
			if (document.data?.length !== 100) throw new Error(`a keyset page of ${deals} deals held ${document.data?.length ?? `no data (${response.status})`}`);
			last = document.data[99].id;
		}
		return { deals, startMs, pageMs: (performance.now() - pagesStarted) / pages };
	} finally {
		await sandbox.close();
	}
}

/** `runs` pairs of (small, large), alternating which goes first. */
export async function sandboxScale(sizes: [number, number], runs: number, pages: number): Promise<SandboxScaleSample[]> {
	const samples: SandboxScaleSample[] = [];
	for (let run = 0; run < runs; run++) {
		const order = run % 2 === 0 ? sizes : ([sizes[1], sizes[0]] as const);
		for (const deals of order) samples.push(await measure(deals, pages));
	}
	return samples;
}
