#!/usr/bin/env node
/*
 * Release gate run by .github/workflows/publish.yml before anything is published:
 *   node scripts/release/check-version-tag.js <tag>      (default: $GITHUB_REF_NAME)
 * Passes only when the tag is exactly `v` + package.json's version and CHANGELOG.md has a dated
 * section for that version (`## [1.2.3] - 2026-11-22`). Exit 0 when it passes, 1 with the reason
 * otherwise, so a mistyped or stale tag never publishes.
 */
'use strict';

const fs = require('fs');
const path = require('path');

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/**
 * @param {string | undefined} tag the pushed tag, e.g. `v0.1.0` (a `refs/tags/` prefix is tolerated)
 * @param {string} version package.json's version
 * @param {string} changelog CHANGELOG.md's text
 * @returns {string[]} the problems; empty when the tag may be published
 */
function versionTagProblems(tag, version, changelog) {
	const problems = [];
	if (!SEMVER.test(version)) problems.push(`package.json version "${version}" is not a semantic version (x.y.z)`);
	const name = (tag ?? '').trim().replace(/^refs\/tags\//, '');
	if (name === '') {
		problems.push('no tag given: pass the tag as the first argument or set GITHUB_REF_NAME');
	} else if (name !== `v${version}`) {
		problems.push(`tag "${name}" does not match package.json's version ${version}: expected tag "v${version}"`);
	}
	const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	if (!new RegExp(`^## \\[${escaped}\\] - \\d{4}-\\d{2}-\\d{2}\\s*$`, 'm').test(changelog)) {
		problems.push(`CHANGELOG.md has no section "## [${version}] - YYYY-MM-DD"`);
	}
	return problems;
}

function main(argv, env, root) {
	const tag = argv[0] ?? env.GITHUB_REF_NAME;
	const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const changelogFile = path.join(root, 'CHANGELOG.md');
	const changelog = fs.existsSync(changelogFile) ? fs.readFileSync(changelogFile, 'utf8') : '';
	const problems = versionTagProblems(tag, String(version), changelog);
	if (problems.length > 0) {
		for (const problem of problems) console.error(`release check: ${problem}`);
		return 1;
	}
	console.log(`release check: tag ${tag} matches package.json ${version} and CHANGELOG.md`);
	return 0;
}

if (require.main === module) {
	process.exitCode = main(process.argv.slice(2), process.env, path.resolve(__dirname, '..', '..'));
}

module.exports = { versionTagProblems };
