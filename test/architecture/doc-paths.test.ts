/**
 * The docs name only files and folders that exist: every repository path a README or CONTRIBUTING
 * names (in backticks, a link, or a code block) must be in the tree. CHANGELOG.md is history and
 * may name files that have since gone, so it is not checked.
 */
import { existsSync, readdirSync, readFileSync } from 'fs';
import { dirname, join, relative } from 'path';

import { REPO_ROOT } from '../../harness';

/** Every Markdown file of the repository but the CHANGELOG. */
function markdownFiles(folder = ''): string[] {
	return readdirSync(join(REPO_ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
		const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
		if (entry.isDirectory()) return ['node_modules', 'dist', '.git', 'coverage'].includes(entry.name) ? [] : markdownFiles(path);
		return entry.name.endsWith('.md') && path !== 'CHANGELOG.md' ? [path] : [];
	});
}
const DOCS = markdownFiles();
const TOP_FOLDERS = ['nodes', 'credentials', 'test', 'harness', 'scripts', 'sandbox', 'examples', 'docs', 'icons', '.ci', '.github'];
/** A path starting at one of the repository's folders; placeholders (`<Node>`, `*`, `{a,b}`) are not paths. */
const PATH = new RegExp(`(?<![\\w./-])((?:${TOP_FOLDERS.map((folder) => folder.replace('.', '\\.')).join('|')})/[\\w./@-]*[\\w/])`, 'g');
/** Paths that are made by a run, not kept in the repository. */
const GENERATED = [/^test\/bench\/results/, /^dist\//];

export function namedPaths(text: string): string[] {
	const found = new Set<string>();
	for (const match of text.matchAll(PATH)) {
		const path = match[1].replace(/[.]+$/, '');
		const after = text.slice((match.index ?? 0) + match[0].length, (match.index ?? 0) + match[0].length + 1);
		if (['<', '*', '{', '…'].includes(after)) continue;
		found.add(path);
	}
	return [...found];
}

describe('paths the docs name', () => {
	it.each(DOCS)('%s names only paths that exist', (doc) => {
		const text = readFileSync(join(REPO_ROOT, doc), 'utf8');
		const missing = namedPaths(text).filter((path) => !GENERATED.some((pattern) => pattern.test(path)) && !existsSync(join(REPO_ROOT, path)) && !existsSync(join(REPO_ROOT, dirname(doc), path)));
		expect(missing.map((path) => `${doc} names ${relative('.', path)}, which does not exist`)).toEqual([]);
	});

	it('finds the paths a doc names, and would catch a missing one', () => {
		expect(namedPaths('see `test/engine/trigger-capacity.test.ts` and [x](nodes/shared/paging/keyRanges.ts), not nodes/<Node>/operations.ts')).toEqual([
			'test/engine/trigger-capacity.test.ts',
			'nodes/shared/paging/keyRanges.ts',
		]);
		expect(existsSync(join(REPO_ROOT, 'test/engine/trigger-capacity.test.ts'))).toBe(false);
	});
});
