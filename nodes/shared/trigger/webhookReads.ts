/**
 * The Webhook Trigger's reads, shared by every notification the n8n process handles for one
 * credential.
 *
 * n8n starts one webhook call per notification, each its own run with its own Requests in Parallel
 * slots (requests/runContext.ts), so a burst of 200 notifications would put 200 reads on the wire at
 * once. Here they go through one gate per credential (the credential's shared slots, keyed like its
 * rate-limit budget and shared token: the credential's fingerprint): at most
 * `WEBHOOK_READS_IN_PARALLEL` reads of that credential are on their way at a time, the others wait in
 * order of arrival. Inside the gate each read is an
 * ordinary `apiRequest`, so it takes its turn in the credential's rate-limit budget
 * (requests/rateBudget.ts) with everything else on the credential (a bulk job, the polling
 * triggers) and waits for the refill the headers imply instead of meeting a 429.
 *
 * One read per record at a time, and never a read too early: a notification for a record whose read
 * is still waiting to be sent joins that read (it will show the record as it is after both
 * notifications); one arriving while the record's read is on its way waits for it and then gets a
 * read of its own (the change it announces may have been made after that read left), which later
 * notifications join in turn. So the service's retries and bursts cost one read per record per
 * wave, never one per notification, and every notification is followed by a read that began after
 * it arrived.
 *
 * Per process, like the rate budget: queue-mode workers never handle webhooks (the main does, or
 * n8n's webhook processes, each with its own gate).
 */
import { DEFAULT_REQUESTS_IN_PARALLEL } from '../requests/policy';
import { inCredentialSlot } from '../requests/runContext';

/**
 * Reads of one credential in flight at once for all webhook calls of the process: the action nodes'
 * default Requests in Parallel, the pace the rate budget is tuned for (the credential's shared slots,
 * requests/runContext.ts `inCredentialSlot`).
 */
export const WEBHOOK_READS_IN_PARALLEL = DEFAULT_REQUESTS_IN_PARALLEL;

interface QueuedRead<T> {
	promise: Promise<T>;
	/** Set when the read takes its place in the gate (its request is about to be sent). */
	sent: boolean;
}

class CredentialReads {
	/** Per record: the read not sent yet, which a new notification joins. */
	readonly waiting = new Map<string, QueuedRead<unknown>>();

	/** Per record: the last read started, which the next one waits for. */
	readonly latest = new Map<string, Promise<unknown>>();

	/** Reads that are waiting or on their way (to let the map go when it is idle). */
	active = 0;
}

const byCredential = new Map<string, CredentialReads>();

/**
 * Reads the record `recordKey` of the credential `credentialKey` with `send`, as the header says:
 * through the credential's gate, one read per record at a time, joining a read not sent yet.
 */
export async function readThroughGate<T>(credentialKey: string, recordKey: string, send: () => Promise<T>): Promise<T> {
	let reads = byCredential.get(credentialKey);
	if (reads === undefined) {
		reads = new CredentialReads();
		byCredential.set(credentialKey, reads);
	}
	const waiting = reads.waiting.get(recordKey) as QueuedRead<T> | undefined;
	if (waiting !== undefined && !waiting.sent) return await waiting.promise;

	const shared = reads;
	const before = shared.latest.get(recordKey);
	const read: QueuedRead<T> = { sent: false, promise: undefined as unknown as Promise<T> };
	read.promise = (async () => {
		if (before !== undefined) await before.catch(() => undefined);
		return await inCredentialSlot(credentialKey, async () => {
			read.sent = true;
			if (shared.waiting.get(recordKey) === read) shared.waiting.delete(recordKey);
			return await send();
		});
	})();
	shared.waiting.set(recordKey, read);
	shared.latest.set(recordKey, read.promise);
	shared.active += 1;
	try {
		return await read.promise;
	} finally {
		shared.active -= 1;
		if (shared.latest.get(recordKey) === read.promise) shared.latest.delete(recordKey);
		if (shared.waiting.get(recordKey) === read) shared.waiting.delete(recordKey);
		if (shared.active === 0 && byCredential.get(credentialKey) === shared) byCredential.delete(credentialKey);
	}
}
