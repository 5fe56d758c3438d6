/**
 * A lively sandbox, for `npm run dev -- --lively` and `npm run sandbox -- --lively`: the seeded data
 * changes by itself every few seconds, so a published trigger has something to report. One change per
 * step, three kinds in turn:
 *
 *   1. a deal moves along the pipeline: the deal that entered PendingSettlement two deal steps ago
 *      settles, and the next submitted deal (Lodged … UnconditionallyApproved) enters
 *      PendingSettlement. Every deal thus spends two deal steps (one minute at the default pace) in
 *      PendingSettlement, long enough for a poll at n8n's default pace (every minute) to see it there,
 *      so its settlement reports `previousStatus: 'PendingSettlement'`;
 *   2. a contact is created (Contact Created, Contact Updated);
 *   3. a deal's lender changes (Deal Updated fires; Deal Status Changed does not).
 *
 * A move keeps the deal's dates coherent with its status and the service's clock (`datesAfterMove`):
 * a settlement is dated the day it happens, and the milestones of the stages passed (lodged,
 * conditionally approved, approved) are set, in pipeline order, never after that day — so a
 * workflow posting a settlement posts today's date.
 *
 * Everything goes through the sandbox's own data layer (`sandbox.data`), which stamps `updated` with
 * the service's clock, exactly as the API's writes do. Nothing here comes from `nodes/`. Tasks are
 * left alone: the service has no way to read them, so no node or trigger could show the change.
 */
import { SYSTEM_STATUS } from './schema';
import { FIRST_NAMES, LAST_NAMES, LENDERS } from './seed';
import type { DealDates, SandboxData } from './types';

/** Seconds between two changes, unless told otherwise. */
export const DEFAULT_LIVELY_SECONDS = 10;

/** Deal steps a deal stays in PendingSettlement before it settles. */
export const SETTLE_AFTER_DEAL_STEPS = 2;

const PENDING = 'PendingSettlement';
const SETTLED = 'Settled';
/** The submitted stages before PendingSettlement, in pipeline order (schema.ts SYSTEM_STATUS). */
const MOVABLE: readonly string[] = SYSTEM_STATUS.slice(SYSTEM_STATUS.indexOf('Lodged'), SYSTEM_STATUS.indexOf(PENDING));

/** The dated milestones of the pipeline, in order: the status that reaches each and its date. */
const MILESTONES: ReadonlyArray<[string, 'lodged' | 'conditionallyApproved' | 'approved' | 'settled']> = [
	['Lodged', 'lodged'],
	['ConditionallyApproved', 'conditionallyApproved'],
	['UnconditionallyApproved', 'approved'],
	[SETTLED, 'settled'],
];

/**
 * A deal's dates after it moved to `status` on `today` (YYYY-MM-DD): each milestone the status has
 * passed keeps its date if it had one, else gets today's, and none is after today or before the one
 * that comes first; a settlement is dated today; milestones not reached are empty.
 */
export function datesAfterMove(dates: DealDates, status: string, today: string): DealDates {
	const reached = (SYSTEM_STATUS as readonly string[]).indexOf(status);
	const next: DealDates = { ...dates };
	let earliest = '';
	for (const [milestone, key] of MILESTONES) {
		if ((SYSTEM_STATUS as readonly string[]).indexOf(milestone) > reached) {
			next[key] = null;
			continue;
		}
		let date = key === 'settled' && status === SETTLED ? today : (next[key] ?? today);
		if (date > today) date = today;
		if (date < earliest) date = earliest;
		next[key] = date;
		earliest = date;
	}
	return next;
}

export type LivelyChange =
	| { kind: 'dealSettled'; dealId: string; name: string }
	| { kind: 'dealPending'; dealId: string; name: string; from: string }
	| { kind: 'contactCreated'; contactId: string; name: string }
	| { kind: 'dealEdited'; dealId: string; name: string; lenderName: string };

/** One line for the terminal. */
export function describeChange(change: LivelyChange): string {
	switch (change.kind) {
		case 'dealSettled':
			return `deal ${change.dealId} (${change.name}) ${PENDING} → ${SETTLED}`;
		case 'dealPending':
			return `deal ${change.dealId} (${change.name}) ${change.from} → ${PENDING}`;
		case 'contactCreated':
			return `contact ${change.contactId} (${change.name}) created`;
		case 'dealEdited':
			return `deal ${change.dealId} (${change.name}) lender → ${change.lenderName}`;
	}
}

export interface LivelyData {
	/** The next step now; what it changed (a deal step may settle one deal and move another). */
	step(): LivelyChange[];
	/** Deals in PendingSettlement waiting to settle, oldest first. */
	pending(): readonly string[];
}

/** The changes, step by step, without a timer (tests call `step()`). */
export function livelyData(data: SandboxData): LivelyData {
	const dealIds = data.idsOf('deals');
	const pending: string[] = [];
	let steps = 0;
	// Newest deals first: the ones a user sees at the top of a list.
	let moveCursor = dealIds.length;
	let editCursor = 0;

	const nextMovable = () => {
		for (let tries = 0; tries < dealIds.length; tries += 1) {
			moveCursor = (moveCursor - 1 + dealIds.length) % dealIds.length;
			const deal = data.get('deals', dealIds[moveCursor]);
			if (deal !== undefined && MOVABLE.includes(String(deal.attributes.dealStatus)) && !pending.includes(deal.id)) return deal;
		}
		return undefined;
	};

	/** The deal's dates once it moves to `status` now (the service's clock, UTC day). */
	const movedDates = (id: string, status: string): DealDates =>
		datesAfterMove(data.get('deals', id)?.attributes.dates as DealDates, status, data.now().toISOString().slice(0, 10));

	const dealStep = (): LivelyChange[] => {
		const changes: LivelyChange[] = [];
		if (pending.length >= SETTLE_AFTER_DEAL_STEPS) {
			const id = pending.shift() as string;
			// Only a deal still where this mode left it: someone may have moved it meanwhile.
			if (data.get('deals', id)?.attributes.dealStatus === PENDING) {
				const deal = data.updateDeal(id, { dealStatus: SETTLED, dates: movedDates(id, SETTLED) });
				changes.push({ kind: 'dealSettled', dealId: id, name: String(deal.attributes.name) });
			}
		}
		const next = nextMovable();
		if (next !== undefined) {
			data.updateDeal(next.id, { dealStatus: PENDING, dates: movedDates(next.id, PENDING) });
			pending.push(next.id);
			changes.push({ kind: 'dealPending', dealId: next.id, name: String(next.attributes.name), from: String(next.attributes.dealStatus) });
		}
		return changes;
	};

	const contactStep = (): LivelyChange[] => {
		const first = FIRST_NAMES[steps % FIRST_NAMES.length];
		const last = LAST_NAMES[(steps * 7) % LAST_NAMES.length];
		const local = `${first}.${last}`.normalize('NFD').replace(/[^A-Za-z.]/g, '').toLowerCase();
		const contact = data.createContact({ firstName: first, lastName: last, email: `${local}.${steps}@example.com` });
		return [{ kind: 'contactCreated', contactId: contact.id, name: `${last}, ${first}` }];
	};

	const editStep = (): LivelyChange[] => {
		for (let tries = 0; tries < dealIds.length; tries += 1) {
			// Strides through the deals, so edits spread over the whole book.
			editCursor = (editCursor + 97) % dealIds.length;
			const deal = data.get('deals', dealIds[editCursor]);
			if (deal === undefined || pending.includes(deal.id)) continue;
			const start = steps % LENDERS.length;
			const lenderName = [...LENDERS.slice(start), ...LENDERS.slice(0, start)].find((lender) => lender !== deal.attributes.lenderName) as string;
			data.updateDeal(deal.id, { lenderName });
			return [{ kind: 'dealEdited', dealId: deal.id, name: String(deal.attributes.name), lenderName }];
		}
		return [];
	};

	return {
		step() {
			const kind = steps % 3;
			const changes = kind === 0 ? dealStep() : kind === 1 ? contactStep() : editStep();
			steps += 1;
			return changes;
		},
		pending: () => [...pending],
	};
}

export interface Lively {
	stop(): void;
}

/** One step every `everySeconds`, each change reported to `report`; the timer does not keep the process alive. */
export function startLively(data: SandboxData, everySeconds = DEFAULT_LIVELY_SECONDS, report: (line: string) => void = () => undefined): Lively {
	const lively = livelyData(data);
	const timer = setInterval(() => {
		for (const change of lively.step()) report(describeChange(change));
	}, everySeconds * 1000);
	timer.unref();
	return { stop: () => clearInterval(timer) };
}
