/**
 * Description snapshots (test/description/snapshots/*.txt, compact.ts): what users see is compared
 * with the committed file, and a difference is reported as the lines that changed, with the command
 * that accepts it.
 */
import { existsSync, readFileSync, writeFileSync } from 'fs';
import { join, resolve } from 'path';

const SNAPSHOTS = resolve(__dirname, 'snapshots');
const UPDATE_COMMAND = 'npx jest test/description -u';

/** Whether jest runs with -u / --updateSnapshot. */
function updating(): boolean {
	const state = expect.getState() as { snapshotState?: { _updateSnapshot?: string } };
	return state.snapshotState?._updateSnapshot === 'all';
}

export function methodNames(instance: object): string[] {
	return Object.getOwnPropertyNames(Object.getPrototypeOf(instance)).filter((name) => name !== 'constructor').sort();
}

/** Where two texts differ, line by line: `- old` / `+ new` around the first differences, at most `max` lines. */
export function lineDifferences(before: string, after: string, max = 30): string[] {
	const old = before.split('\n');
	const now = after.split('\n');
	const kept = new Set(old);
	const had = new Set(now);
	return [...old.filter((line) => !had.has(line)).map((line) => `- ${line}`), ...now.filter((line) => !kept.has(line)).map((line) => `+ ${line}`)].slice(0, max);
}

/** A compact snapshot (test/description/snapshots/<name>.txt, one line per parameter; compact.ts). */
export function checkTextSnapshot(name: string, lines: readonly string[]): void {
	const file = join(SNAPSHOTS, `${name}.txt`);
	const text = `${lines.join('\n')}\n`;
	if (updating()) {
		writeFileSync(file, text);
		return;
	}
	if (!existsSync(file)) {
		throw new Error(`No description snapshot ${file}. Create it with \`${UPDATE_COMMAND}\` and commit it.`);
	}
	const committed = readFileSync(file, 'utf8');
	if (committed === text) return;
	const changes = lineDifferences(committed, text);
	throw new Error(
		[
			`What users see of ${name} differs from the committed snapshot test/description/snapshots/${name}.txt:`,
			...(changes.length > 0 ? changes.map((change) => `  ${change}`) : ['  (the same lines in another order)']),
			'',
			`If the change is intended, update the snapshot with \`${UPDATE_COMMAND}\` and commit the file with your change.`,
		].join('\n'),
	);
}
