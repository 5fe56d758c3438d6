/**
 * The concurrency primitives the package is built from, and nothing else: no n8n context, no
 * parameters, no per-run state (that is runContext.ts). The router runs input items with
 * `forEachIndex` (loops of `inParallel`), and a run's request bound is a `Slots` (runContext.ts,
 * held by the transport for each request).
 */

/**
 * Runs `worker` in `concurrency` loops at once and resolves when all of them have returned. Each
 * loop asks for its own work, so a loop that finishes early takes the next piece instead of idling.
 */
export async function inParallel(concurrency: number, worker: () => Promise<void>): Promise<void> {
	const loops: Array<Promise<void>> = [];
	for (let i = 0; i < Math.max(1, concurrency); i++) loops.push(worker());
	await Promise.all(loops);
}

/**
 * Calls `task` for 0 … count-1, at most `concurrency` at once, starting them in index order.
 * Tasks that share a key run one after the other, in index order (two items writing one record,
 * or two creates that look for the same record first).
 * `stopAfter()` is asked before each start: once it returns an index, later indexes are not started.
 * A task that waited for an earlier task of its key asks again after that wait, so a failure there
 * (or anywhere before it) stops it too: a second write to a record is never sent after the run
 * stopped at the first one.
 */
export async function forEachIndex(
	count: number,
	concurrency: number,
	task: (index: number) => Promise<void>,
	options: { keyOf?: (index: number) => string | undefined; stopAfter?: () => number | undefined } = {},
): Promise<void> {
	let next = 0;
	const lastOfKey = new Map<string, Promise<void>>();
	const stopped = (index: number): boolean => {
		const stop = options.stopAfter?.();
		return stop !== undefined && index > stop;
	};
	await inParallel(Math.min(concurrency, count), async () => {
		for (;;) {
			const index = next;
			if (index >= count || stopped(index)) return;
			next += 1;
			const key = options.keyOf?.(index);
			const previous = key === undefined ? undefined : lastOfKey.get(key);
			let finished = (): void => undefined;
			if (key !== undefined) lastOfKey.set(key, new Promise<void>((resolve) => (finished = resolve)));
			try {
				if (previous !== undefined) {
					await previous;
					// Every later index is past the stop too, so this loop has nothing left to start.
					if (stopped(index)) return;
				}
				await task(index);
			} finally {
				finished();
			}
		}
	});
}

/** At most `free` holders at once; the others wait in order of arrival. */
export class Slots {
	private waiting: Array<() => void> = [];

	constructor(private free: number) {}

	async hold<T>(work: () => Promise<T>): Promise<T> {
		if (this.free > 0) this.free -= 1;
		else await new Promise<void>((resolve) => this.waiting.push(resolve));
		try {
			return await work();
		} finally {
			const next = this.waiting.shift();
			if (next) next();
			else this.free += 1;
		}
	}
}
