/**
 * The real-time guard of test/jest.setup.ts: a test that waits on the machine's clock (a timer of
 * more than 50 ms, or waits that add up to more) fails, naming the waits; the test clock moves
 * instead and costs nothing. Each case below waits on purpose and reads the guard's verdict on
 * itself, which pardons it: the verdict is what the guard's afterEach would have thrown.
 */
import { TestClock } from '../../harness/clock';
import { startSandbox } from '../../sandbox';

const guard = (globalThis as Record<symbol, unknown>)[Symbol.for('n8n-nodes-loan-crm.jest.realTimeGuard')] as {
	verdict(): string | undefined;
	pardon(): void;
};

/** What the guard's afterEach would throw for this test; the test is pardoned. */
function verdict(): string | undefined {
	const found = guard.verdict();
	guard.pardon();
	return found;
}

it('catches a timer longer than 50 ms, saying how long it was and who set it', async () => {
	await new Promise((resolve) => setTimeout(resolve, 60));
	expect(verdict()).toMatch(/^Waited 60 ms on the machine's clock \(more than 50 ms\): 60 ms at .*real-time-guard\.test\.ts:\d+:\d+.*Move the wait to the test clock/);
});

it("catches waits that add up: a sandbox playing 20 ms of latency on the machine's clock, three requests", async () => {
	const sandbox = await startSandbox({ sizes: { deals: 5, contacts: 5, incomes: 1, dealSecurities: 1 }, latency: { ms: 20 } });
	try {
		for (let request = 0; request < 3; request++) await fetch(`${sandbox.baseUrl}/jsonapi/deals`);
		expect(verdict()).toMatch(/^Waited 60 ms on the machine's clock \(more than 50 ms\): 20 ms at .*sandbox[/\\]clock\.ts.*; 20 ms at .*; 20 ms at /);
	} finally {
		await sandbox.close();
	}
});

it('lets pass a timer cleared before it fires, timers under 2 ms, and 50 ms in all', async () => {
	clearTimeout(setTimeout(() => undefined, 10_000));
	for (let turn = 0; turn < 30; turn++) await new Promise((resolve) => setTimeout(resolve, 1));
	await new Promise((resolve) => setTimeout(resolve, 50));
	expect(verdict()).toBeUndefined();
});

it('finds nothing against a wait on the test clock, however long', async () => {
	const clock = TestClock.stopped();
	const sandbox = await startSandbox({ sizes: { deals: 5, contacts: 5, incomes: 1, dealSecurities: 1 }, latency: { ms: 60_000 }, clock });
	try {
		const answered = fetch(`${sandbox.baseUrl}/jsonapi/deals`);
		while (sandbox.heldRequests() === 0) await new Promise((resolve) => setImmediate(resolve));
		clock.advance(60_000);
		expect((await answered).status).toBe(401);
		const hour = clock.sleep(3_600_000);
		clock.advance(3_600_000);
		await hour;
		expect(verdict()).toBeUndefined();
	} finally {
		await sandbox.close();
	}
});
