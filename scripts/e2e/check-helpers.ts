/** What the e2e's checks share: how a check is recorded, a node's items in a run, the published triggers' reads. */
import type { INodeExecutionData, IRun } from 'n8n-workflow';

import type { LoggedRequest, StoredResource } from '../../sandbox';

/** Records one check: its name, what is wrong (nothing when it passed) and what to show with a failure. */
export type RecordCheck = (name: string, problems: string[], context?: string) => void;

export interface CheckResult {
	name: string;
	problems: string[];
	/** Shown with a failure: what n8n printed, the node's items, … */
	context?: string;
	/** Listed as a known issue (known-issues.ts): the reason. */
	known?: string;
}

/**
 * A leg's checks, recorded as they run (PASS/FAIL printed at once) and summed up at the end: one
 * definition for the single-process and the queue-mode legs. `knownIssue` names the checks that
 * fail for a reason outside the package (they do not fail the run unless `strict`).
 */
export class CheckLog {
	readonly results: CheckResult[] = [];

	constructor(
		private readonly knownIssue: (name: string) => string | undefined = () => undefined,
		private readonly strict = false,
	) {}

	readonly record: RecordCheck = (name, problems, context) => {
		const known = this.knownIssue(name);
		this.results.push({ name, problems, context, known });
		const verdict = problems.length === 0 ? (known ? 'FIXED?' : 'PASS') : known ? 'KNOWN' : 'FAIL';
		console.log(`  ${verdict.padEnd(6)}  ${name}`);
		for (const problem of problems) console.log(`          - ${problem}`);
		if (known && problems.length > 0) console.log(`          (known issue: ${known})`);
		if (known && problems.length === 0) console.log('          listed in scripts/e2e/known-issues.ts but passes now: remove it from the list');
	};

	/** A result that fails the run. */
	isFailure(result: CheckResult): boolean {
		if (result.known) return this.strict ? result.problems.length > 0 : result.problems.length === 0;
		return result.problems.length > 0;
	}

	/** How many checks failed the run so far. */
	get failures(): number {
		return this.results.filter((result) => this.isFailure(result)).length;
	}

	/** The summary at the end of a leg (`where`: "the real n8n 2.30.0", …); the leg's exit code. */
	summary(where: string): number {
		const failed = this.results.filter((result) => this.isFailure(result));
		const known = this.results.filter((result) => result.known && result.problems.length > 0 && !this.strict);
		if (known.length > 0) {
			console.log(`\nKNOWN ISSUES (${known.length}; listed in scripts/e2e/known-issues.ts, not failing the run; LOAN_CRM_E2E_STRICT=1 fails them):`);
			for (const result of known) {
				console.log(`\n! ${result.name}\n    reason: ${result.known}`);
				for (const problem of result.problems) console.log(`    - ${problem}`);
			}
		}
		if (failed.length > 0) {
			console.log(`\nFAILED: ${failed.length} of ${this.results.length} checks`);
			for (const result of failed) {
				console.log(`\n✗ ${result.name}`);
				if (result.known && result.problems.length === 0) console.log('    - listed in scripts/e2e/known-issues.ts but passes: remove the entry');
				for (const problem of result.problems) console.log(`    - ${problem}`);
				if (result.context) console.log(result.context.replace(/^/gm, '    | '));
			}
			console.log(`\n${this.results.length - failed.length} passed, ${failed.length} failed`);
			return 1;
		}
		const passed = this.results.length - known.length;
		console.log(`\n${passed} checks passed in ${where}${known.length ? `, ${known.length} known issue(s)` : ''}.`);
		console.log(`${passed} passed, 0 failed${known.length ? `, ${known.length} skipped` : ''}`);
		return 0;
	}
}

/** The items a node's last run output on its first output, undefined when it did not run. */
export function nodeItems(run: IRun | undefined, nodeName: string): INodeExecutionData[] | undefined {
	const tasks = run?.data.resultData.runData[nodeName];
	if (!tasks || tasks.length === 0) return undefined;
	return tasks[tasks.length - 1].data?.main?.[0] ?? [];
}

/**
 * A read of the published triggers' polls (deals by `updated`, contacts by `created`): they keep
 * polling while other checks run, and those checks leave them out.
 */
export function isPollRead(request: LoggedRequest): boolean {
	return /greaterOrEqual\((updated|created),/.test(request.query.filter ?? '');
}

/** A problem when `actual` is not `expected` (compared as JSON). */
export function same(label: string, actual: unknown, expected: unknown): string[] {
	return JSON.stringify(actual) === JSON.stringify(expected) ? [] : [`${label}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`];
}

/** The id a stored record's to-one relationship points at (undefined when it points nowhere). */
export function relatedId(record: StoredResource | undefined, relationship: string): string | undefined {
	const value = record?.relationships[relationship];
	return value !== null && value !== undefined && !Array.isArray(value) ? value.id : undefined;
}
