/**
 * The Loan CRM Deals Trigger across n8n restarts and a killed poll, under `n8n start` (issue 21):
 *
 *   1. published, started: a change is emitted (the trigger is live);
 *   2. n8n stopped (SIGTERM); 60 deals change meanwhile, one of them twice; n8n started again:
 *      each change emitted once (the twice-changed deal once, as it is now), in change order,
 *      over several polls (at most 25 records a poll), and nothing again in the polls after;
 *   3. 250 more deals change; every request now takes 2.5 s, so a poll is under way for seconds;
 *      n8n is killed (SIGKILL) while the first poll that sees them waits for its second answer,
 *      before it emitted anything; started again: each of the 250 emitted once, nothing twice.
 *
 * Each run uses its own sandbox (1,000 deals) and its own n8n user folder (its own SQLite database
 * and static data). run.ts runs it on one n8n version, twice: with n8n's durable poll cursors (the
 * trigger's state committed with each execution by the durable scheduler) and without (static data
 * saved by the poller).
 */
import type { IDataObject } from 'n8n-workflow';

import type { LoggedRequest, Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import type { RecordCheck } from './check-helpers';
import type { N8nInstall } from './install';
import { DURABLE_CURSOR_ENV, N8nInstance, freePort, installPackage, startSink } from './n8n';
import { log, sleep, tail, waitFor } from './util';
import type { CredentialRef } from './workflows';
import { RESTART_MARK, WORKFLOW_IDS, restartWorkflow } from './workflows';

/** A request of this scenario's trigger (its Filter carries the mark). */
function isRestartPoll(request: LoggedRequest): boolean {
	return request.method === 'GET' && request.path === '/jsonapi/deals' && (request.query.filter ?? '').includes(RESTART_MARK);
}

/** The ids of `changed`, in the service's change order (stamp, then id). */
function changeOrder(sandbox: Sandbox, changed: string[]): string[] {
	const stamp = (id: string) => Date.parse(String(sandbox.data.get('deals', id)?.attributes.updated));
	return [...changed].sort((a, b) => stamp(a) - stamp(b) || Number(a) - Number(b));
}

/** What the sink received of these deals: problems if any came twice, is missing, or came out of order. */
function exactlyOnce(received: IDataObject[], expected: string[], label: string): string[] {
	const wanted = new Set(expected);
	const got = received.map((item) => String(item.id)).filter((id) => wanted.has(id));
	const problems: string[] = [];
	const counts = new Map<string, number>();
	for (const id of got) counts.set(id, (counts.get(id) ?? 0) + 1);
	const twice = [...counts].filter(([, count]) => count > 1).map(([id]) => id);
	const missing = expected.filter((id) => !counts.has(id));
	if (twice.length > 0) problems.push(`${label}: ${twice.length} deal(s) emitted more than once, e.g. ${twice.slice(0, 5).join(', ')}`);
	if (missing.length > 0) problems.push(`${label}: ${missing.length} of ${expected.length} change(s) never emitted, e.g. ${missing.slice(0, 5).join(', ')}`);
	if (twice.length === 0 && missing.length === 0 && got.join(',') !== expected.join(',')) problems.push(`${label}: emitted out of change order`);
	return problems;
}

export async function checkRestarts(install: N8nInstall, pack: { tarball: string; name: string; version: string }, durable: boolean, record: RecordCheck): Promise<void> {
	const label = `restarts (durable poll cursors ${durable ? 'on' : 'off'})`;
	const sandbox = await startSandbox({ sizes: { deals: 1000 } });
	const credential: CredentialRef = { id: 'lcE2eRestartCred', name: 'Loan CRM sandbox (restarts)' };
	const port = await freePort();
	const sink = await startSink('/loan-crm-restarts');
	const n8n = await new N8nInstance(install).init({ port });
	if (durable) Object.assign(n8n.env, DURABLE_CURSOR_ENV);
	const polls = () => sandbox.apiRequests().filter(isRestartPoll);
	const deals = sandbox.data.list('deals').slice(100);
	let next = 0;
	const change = (count: number, what: string): string[] =>
		deals.slice(next, (next += count)).map((deal, index) => {
			sandbox.data.updateDeal(deal.id, { name: `${RESTART_MARK} ${what} ${index}` });
			return deal.id;
		});
	const nextPolls = async (count: number, timeoutMs = 30_000) => {
		const before = polls().length;
		return await waitFor(() => polls().length >= before + count, timeoutMs);
	};
	try {
		await installPackage(n8n.userFolder, pack);
		await n8n.importSandboxCredentials(sandbox, credential);
		await n8n.importWorkflows([restartWorkflow(sink.url, credential)], 'restart-workflow.json');
		await n8n.publish(WORKFLOW_IDS.restart);

		// 1. Live.
		await n8n.start();
		const problems: string[] = [];
		if (!(await nextPolls(2))) problems.push('fewer than two polls within 30 s of n8n start');
		const [live] = change(1, 'live');
		if (!(await waitFor(() => sink.received.some((item) => item.id === live), 30_000))) problems.push(`the change of deal ${live} before the restart was not emitted within 30 s`);
		record(`${label}: the trigger runs and emits a change`, problems, tail(n8n.serverOutput, 30));

		// 2. Stopped while deals change.
		await n8n.stop();
		const stopped = change(60, 'while stopped');
		const twice = stopped[7];
		sandbox.data.updateDeal(twice, { name: `${RESTART_MARK} while stopped, changed again` });
		const expectedStopped = changeOrder(sandbox, stopped);
		log(`${label}: n8n stopped; changed ${stopped.length} deals (deal ${twice} twice); starting n8n again`);
		const pollsBefore = polls().length;
		await n8n.start();
		const restart: string[] = [];
		await waitFor(() => stopped.every((id) => sink.received.some((item) => item.id === id)), 90_000);
		await nextPolls(2);
		await sleep(1500);
		restart.push(...exactlyOnce(sink.received, expectedStopped, 'changes made while n8n was stopped'));
		const last = sink.received.filter((item) => item.id === twice).at(-1);
		if (last?.name !== `${RESTART_MARK} while stopped, changed again`) restart.push(`deal ${twice} was emitted as ${JSON.stringify(last?.name)}, not as it is now`);
		if (sink.received.filter((item) => item.id === live).length !== 1) restart.push(`deal ${live} (changed before the stop) was emitted again after the restart`);
		const emittingPolls = Math.ceil(stopped.length / 25);
		if (polls().length - pollsBefore < emittingPolls) restart.push(`only ${polls().length - pollsBefore} poll request(s) after the restart; ${stopped.length} changes at 25 a poll need ${emittingPolls} polls`);
		record(`${label}: ${stopped.length} changes made while n8n was stopped are each emitted once after the restart, in change order`, restart, tail(n8n.serverOutput, 30));

		// 3. Killed during a long poll.
		const killed: string[] = [];
		sandbox.setLatency({ ms: 2500, jitterMs: 0 });
		const before = sandbox.requests.length;
		const batch = change(250, 'before the kill');
		const expectedBatch = changeOrder(sandbox, batch);
		const receivedBefore = sink.received.length;
		// The first poll that sees them: its first (id-order) page is full, so it reads on in change
		// order; kill while that second request is still waiting for its answer.
		const inFlight = () => sandbox.requests.slice(before).find((request) => isRestartPoll(request) && request.query.sort === 'updated,id' && request.status === 0);
		if (!(await waitFor(() => inFlight() !== undefined, 60_000, 50))) killed.push('no poll read the new changes in change order within 60 s');
		await n8n.kill();
		sandbox.setLatency(false);
		const emittedBeforeKill = sink.received.slice(receivedBefore).filter((item) => batch.includes(String(item.id))).length;
		if (emittedBeforeKill > 0) killed.push(`${emittedBeforeKill} of the new changes were emitted before the kill (the kill came too late to cut a poll)`);
		log(`${label}: n8n killed during a poll (request ${inFlight()?.seq ?? '?'} unanswered); starting n8n again`);
		await n8n.start();
		await waitFor(() => batch.every((id) => sink.received.some((item) => item.id === id)), 150_000);
		await nextPolls(2);
		await sleep(1500);
		killed.push(...exactlyOnce(sink.received.slice(receivedBefore), expectedBatch, 'changes a killed poll was reading'));
		killed.push(...exactlyOnce(sink.received, expectedStopped, 'the earlier changes').filter((problem) => problem.includes('more than once')));
		record(`${label}: a poll killed part-way (SIGKILL) loses nothing; after the restart its ${batch.length} changes are each emitted once`, killed, tail(n8n.serverOutput, 30));
	} catch (error) {
		record(`${label}: scenario ran`, [String(error).split('\n').slice(0, 3).join(' ')], tail(n8n.serverOutput, 40));
	} finally {
		sandbox.setLatency(false);
		await n8n.stop().catch(() => undefined);
		sink.server.close();
		await sandbox.close();
		n8n.remove();
	}
}
