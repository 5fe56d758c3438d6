/*
 * The release gate of publish.yml (scripts/release/check-version-tag.js): the pushed tag must be
 * `v` + package.json's version and CHANGELOG.md must have a dated section for it.
 */
import { spawnSync } from 'child_process';
import { readFileSync } from 'fs';
import { resolve } from 'path';

const ROOT = resolve(__dirname, '..', '..');
const SCRIPT = resolve(ROOT, 'scripts/release/check-version-tag.js');
const { versionTagProblems } = require(SCRIPT) as { versionTagProblems: (tag: string | undefined, version: string, changelog: string) => string[] };

const { version } = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { version: string };
const CHANGELOG = '# Changelog\n\n## [Unreleased]\n\n## [1.2.3] - 2026-11-22\n\n### Added\n\n- x\n';

function runScript(args: string[], env: Record<string, string> = {}) {
	const { GITHUB_REF_NAME: _ignored, ...base } = process.env;
	const result = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: ROOT, env: { ...base, ...env }, encoding: 'utf8' });
	return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('version tag check', () => {
	it('accepts v<version> with a dated CHANGELOG section', () => {
		expect(versionTagProblems('v1.2.3', '1.2.3', CHANGELOG)).toEqual([]);
		expect(versionTagProblems('refs/tags/v1.2.3', '1.2.3', CHANGELOG)).toEqual([]);
	});

	it.each([
		['1.2.3', 'tag "1.2.3" does not match package.json\'s version 1.2.3: expected tag "v1.2.3"'],
		['v1.2.4', 'tag "v1.2.4" does not match package.json\'s version 1.2.3: expected tag "v1.2.3"'],
		['v1.2.3-beta.1', 'tag "v1.2.3-beta.1" does not match package.json\'s version 1.2.3: expected tag "v1.2.3"'],
		['', 'no tag given: pass the tag as the first argument or set GITHUB_REF_NAME'],
		[undefined, 'no tag given: pass the tag as the first argument or set GITHUB_REF_NAME'],
	])('refuses tag %j for version 1.2.3', (tag, problem) => {
		expect(versionTagProblems(tag, '1.2.3', CHANGELOG)).toEqual([problem]);
	});

	it('refuses a version without a dated CHANGELOG section', () => {
		expect(versionTagProblems('v1.2.4', '1.2.4', CHANGELOG)).toEqual(['CHANGELOG.md has no section "## [1.2.4] - YYYY-MM-DD"']);
		expect(versionTagProblems('v1.2.3', '1.2.3', '## [1.2.3]\n')).toEqual(['CHANGELOG.md has no section "## [1.2.3] - YYYY-MM-DD"']);
	});

	it('as a script: exit 0 for this repository\'s own version, with the tag as argument or GITHUB_REF_NAME', () => {
		expect(runScript([`v${version}`])).toEqual({ status: 0, stdout: `release check: tag v${version} matches package.json ${version} and CHANGELOG.md\n`, stderr: '' });
		expect(runScript([], { GITHUB_REF_NAME: `v${version}` }).status).toBe(0);
	});

	it('as a script: exit 1 naming the expected tag for any other tag', () => {
		expect(runScript(['v99.0.0'])).toEqual({
			status: 1,
			stdout: '',
			stderr: `release check: tag "v99.0.0" does not match package.json's version ${version}: expected tag "v${version}"\n`,
		});
		expect(runScript([]).status).toBe(1);
	});
});
