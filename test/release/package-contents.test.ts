/*
 * What `npm pack` puts in the published tarball: LICENSE, README.md, CHANGELOG.md, package.json and
 * dist/ only (no sources, tests, scripts or configs). The MIT licence and the rest of n8n's
 * verification guidelines: verification.test.ts.
 */
import { spawnSync } from 'child_process';
import { existsSync, readFileSync } from 'fs';
import { resolve } from 'path';

const ROOT = resolve(__dirname, '..', '..');

function packedFiles(): string[] {
	if (!existsSync(resolve(ROOT, 'dist'))) throw new Error('dist/ is missing: run `npm run build` before this test (npm test does).');
	const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
	if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
	const [info] = JSON.parse(pack.stdout) as { files: { path: string }[] }[];
	return info.files.map((file) => file.path).sort();
}

describe('npm pack', () => {
	it('contains LICENSE, README, CHANGELOG, package.json and dist only, and every dist file', () => {
		const files = packedFiles();
		expect(files.filter((file) => !file.startsWith('dist/'))).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json']);
		const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { n8n: { nodes: string[]; credentials: string[] } };
		for (const listed of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) expect(files).toContain(listed);
		expect(files).toEqual(expect.arrayContaining(['dist/icons/loanCrm.svg', 'dist/icons/loanCrm.dark.svg']));
		expect(files.filter((file) => /\.test\.|^dist\/test\/|^dist\/scripts\//.test(file))).toEqual([]);
	});
});
