/**
 * The concurrency primitives on their own (nodes/shared/requests/parallel.ts), driven by promises
 * the test settles itself: no timers, no wall clock.
 */
import { Slots, forEachIndex, inParallel } from '../../nodes/shared/requests/parallel';

/** A promise the test settles by hand. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
	let resolve = (): void => undefined;
	let reject = (_error: Error): void => undefined;
	const promise = new Promise<void>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	return { promise, resolve, reject };
}

/** Lets every queued promise callback run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** forEachIndex as the router uses it: tasks record a failure, and the run stops after the first. */
function runItems(count: number, concurrency: number, keys: Array<string | undefined>, continueOnFail = false) {
	const started: number[] = [];
	const gates = Array.from({ length: count }, () => deferred());
	let firstFailure: number | undefined;
	const done = forEachIndex(
		count,
		concurrency,
		async (index) => {
			started.push(index);
			try {
				await gates[index].promise;
			} catch {
				if (!continueOnFail && (firstFailure === undefined || index < firstFailure)) firstFailure = index;
			}
		},
		{ keyOf: (index) => keys[index], stopAfter: () => firstFailure },
	);
	return { started, gates, done, failure: () => firstFailure };
}

describe('forEachIndex', () => {
	it('starts at most `concurrency` tasks at once, in index order', async () => {
		const run = runItems(6, 3, []);
		await settle();
		expect(run.started).toEqual([0, 1, 2]);
		run.gates[1].resolve();
		await settle();
		expect(run.started).toEqual([0, 1, 2, 3]);
		for (const gate of run.gates) gate.resolve();
		await run.done;
		expect(run.started).toEqual([0, 1, 2, 3, 4, 5]);
	});

	it('runs tasks of one key one after the other, in index order', async () => {
		const run = runItems(4, 4, ['a', 'b', 'a', 'a']);
		await settle();
		// 2 and 3 wait for 0 (and 2) although slots are free.
		expect(run.started).toEqual([0, 1]);
		run.gates[0].resolve();
		await settle();
		expect(run.started).toEqual([0, 1, 2]);
		run.gates[2].resolve();
		await settle();
		expect(run.started).toEqual([0, 1, 2, 3]);
		run.gates[1].resolve();
		run.gates[3].resolve();
		await run.done;
	});

	it('does not start a task whose same-key predecessor failed and stopped the run', async () => {
		// Items 1 and 3 write the same record; 3 is already waiting for 1 when 1 fails.
		const run = runItems(4, 4, ['x', 'r', 'y', 'r']);
		await settle();
		expect(run.started).toEqual([0, 1, 2]);
		run.gates[1].reject(new Error('422'));
		await settle();
		expect(run.failure()).toBe(1);
		// 3's gate too, so that a wrongly started 3 fails this test instead of hanging it.
		for (const index of [0, 2, 3]) run.gates[index].resolve();
		await run.done;
		expect(run.started).toEqual([0, 1, 2]);
	});

	it('with Continue On Fail, the same-key task still runs after its predecessor failed', async () => {
		const run = runItems(4, 4, ['x', 'r', 'y', 'r'], true);
		await settle();
		run.gates[1].reject(new Error('422'));
		await settle();
		expect(run.started).toEqual([0, 1, 2, 3]);
		for (const index of [0, 2, 3]) run.gates[index].resolve();
		await run.done;
		expect(run.failure()).toBeUndefined();
	});

	it('starts nothing after the index that stopped the run', async () => {
		const run = runItems(8, 2, []);
		await settle();
		run.gates[0].reject(new Error('boom'));
		await settle();
		run.gates[1].resolve();
		await run.done;
		expect(run.started).toEqual([0, 1]);
	});
});

describe('Slots', () => {
	it('lets at most `free` holders in at once, the others in order of arrival', async () => {
		const slots = new Slots(2);
		const gates = Array.from({ length: 5 }, () => deferred());
		const entered: number[] = [];
		let inside = 0;
		let peak = 0;
		const all = gates.map((gate, index) =>
			slots.hold(async () => {
				entered.push(index);
				inside += 1;
				peak = Math.max(peak, inside);
				await gate.promise;
				inside -= 1;
			}),
		);
		await settle();
		expect(entered).toEqual([0, 1]);
		gates[1].resolve();
		await settle();
		expect(entered).toEqual([0, 1, 2]);
		for (const gate of gates) gate.resolve();
		await Promise.all(all);
		expect(entered).toEqual([0, 1, 2, 3, 4]);
		expect(peak).toBe(2);
	});
});

describe('inParallel', () => {
	it('runs the worker in that many loops at once and resolves when all have returned', async () => {
		const release = deferred();
		const returned: number[] = [];
		let loops = 0;
		const done = inParallel(3, async () => {
			const loop = loops++;
			await release.promise;
			returned.push(loop);
		});
		await settle();
		expect(loops).toBe(3);
		expect(returned).toEqual([]);
		release.resolve();
		await done;
		expect(returned.sort()).toEqual([0, 1, 2]);
	});
});
