/**
 * The change feed's cursor arithmetic (pure functions): where the next read starts — the settled
 * position, min(drain cursor, since − window), never before the horizon — and which fingerprints
 * are kept. (Behaviour over real polls: test/engine/trigger*.test.ts.)
 */
import { MAX_SEEN, readBudget, readStart, trimSeen } from '../../nodes/shared/trigger/changeFeed';

const T = Date.parse('2026-11-20T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const W = 120_000;

describe('readStart', () => {
	it('reads one safety window back when nothing is draining, never before the horizon', () => {
		expect(readStart({ since: iso(T) }, W)).toEqual({ at: iso(T - W) });
		expect(readStart({ since: iso(T), horizon: iso(T - 1000) }, W)).toEqual({ at: iso(T - 1000) });
	});

	it('continues right after a drain cursor older than the window, and re-reads the window when the cursor lies within it', () => {
		const old = { at: '2026-11-20T09:00:00Z', id: '42' };
		expect(readStart({ since: iso(T), drain: old }, W)).toEqual(old);
		const young = { at: '2026-11-20T09:59:30Z', id: '42' };
		expect(readStart({ since: iso(T), drain: young }, W)).toEqual({ at: iso(T - W) });
		// At the same instant the window's start (inclusive) comes first: it reads more, never less.
		expect(readStart({ since: iso(T), drain: { at: iso(T - W), id: '1' } }, W)).toEqual({ at: iso(T - W) });
	});
});

describe('trimSeen', () => {
	const seenAt = (stamps: number[]) => Object.fromEntries(stamps.map((at, index) => [`${10_000 + index}.h`, at]));

	it('keeps what the next read can meet again, drops what lies before its start', () => {
		const seen = seenAt([T - W - 5000, T - W, T - 1000]);
		expect(trimSeen(seen, { since: iso(T) }, W, MAX_SEEN).seen).toEqual({ '10001.h': T - W, '10002.h': T - 1000 });
	});

	it('above the cap: keeps the newest and moves the horizon past the dropped, so none can repeat', () => {
		const seen = seenAt([T - 5000, T - 4000, T - 3000, T - 2000]);
		const trimmed = trimSeen(seen, { since: iso(T) }, W, 2);
		expect(trimmed.seen).toEqual({ '10002.h': T - 3000, '10003.h': T - 2000 });
		expect(trimmed.horizon).toBe(iso(T - 4000 + 1));
	});

	it('while draining, never moves the horizon onto the cursor stamp (unread records may share it)', () => {
		const drain = { at: iso(T - 2000), id: '10003' };
		const seen = seenAt([T - 2000, T - 2000, T - 2000, T - 2000]);
		const trimmed = trimSeen(seen, { since: iso(T), drain }, W, 2);
		expect(Object.keys(trimmed.seen)).toHaveLength(4);
		expect(trimmed.horizon).toBeUndefined();
		// A cut before the cursor's stamp is safe.
		const earlier = trimSeen(seenAt([T - 5000, T - 4000, T - 2000, T - 2000]), { since: iso(T), drain }, W, 2);
		expect(earlier.horizon).toBe(iso(T - 4000 + 1));
	});

	it('one poll reads at most readBudget pages, so fingerprints stay far below the cap', () => {
		expect(readBudget(5000) * 100).toBeLessThan(MAX_SEEN);
	});
});
