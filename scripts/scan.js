#!/usr/bin/env node
/*
 * Local run of n8n's verification scan (`npm run scan`), no network.
 *
 * n8n verifies community packages with @n8n/scan-community-package. Its CLI downloads a published
 * package and its provenance-attested source, then lints both with `analyzePackage(dir, patterns)`:
 *   - the tarball:  analyzePackage(unpacked, ['**\/*.js', 'package.json'])
 *   - the source:   analyzePackage(checkout, SOURCE_FILE_PATTERNS)
 *                   = ['package.json', '{nodes,credentials}/**\/*.{js,ts,json}']
 * with its own pinned rule plugins, `no-console: error`, and `allowInlineConfig: false`, so
 * `// eslint-disable` comments do not silence anything. Any error fails; warnings do not.
 * This script does the same two legs on our package: (a) `npm pack --json --ignore-scripts` into a
 * temp dir, unpacked with `tar --strip-components=1` exactly as the scanner does; (b) this repo's
 * source tree. It also checks that every file listed in package.json `n8n` is in the tarball
 * (our own check: a missing one is n8n's "Cannot find module").
 *
 * How the scanner module is loaded (it is not meant to be imported):
 *   - The package has no `main`/`exports`, only `bin: scanner/cli.mjs`. We resolve its package.json
 *     and import `scanner/scanner.mjs` by file URL; it is ESM, so a dynamic import() from CommonJS.
 *   - It is installed by plain npm: `.npmrc` sets `ignore-scripts=true`, which also skips
 *     eslint-plugin-n8n-nodes-base's pnpm-only `preinstall`. Its pinned plugins
 *     (community-nodes 0.29.0, n8n-nodes-base 1.16.7) and typescript 7 sit in its own
 *     node_modules; eslint, @typescript-eslint/parser, fast-glob, tmp, axios and semver are
 *     resolved from the hoisted top level. We only ever call analyzePackage, never the network code.
 *   - Importing it creates a temp dir (`tmp.dirSync`) that is never removed. We point TMPDIR at our
 *     own temp dir for the import, so that dir is deleted with ours.
 *   - analyzePackage only returns a pass flag and stylish text. To report files scanned and each
 *     finding, we wrap `ESLint.prototype.lintFiles` of the scanner's eslint (resolved from the
 *     scanner's folder, the same module instance) to keep a copy of the results. The verdict is
 *     still analyzePackage's own; if the wrap ever stops seeing results we print its text instead.
 *
 * Exit: 0 clean, 1 scan errors, 2 could not run (no build, scanner missing, npm pack failed).
 */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { createRequire } = require('module');
const { pathToFileURL } = require('url');

const ROOT = path.resolve(__dirname, '..');
// The tarball leg's patterns, as in the scanner's analyzePackageByName (not exported there).
const TARBALL_PATTERNS = ['**/*.js', 'package.json'];

class SetupError extends Error {}

function rel(file, base) {
	const r = path.relative(base, file);
	return r.startsWith('..') ? file : r.split(path.sep).join('/');
}

function ms(since) {
	return `${((Date.now() - since) / 1000).toFixed(1)}s`;
}

function checkBuilt() {
	const dist = path.join(ROOT, 'dist');
	const hasJs = (dir) =>
		fs.existsSync(dir) &&
		fs.readdirSync(dir, { withFileTypes: true }).some((e) =>
			e.isDirectory() ? hasJs(path.join(dir, e.name)) : e.name.endsWith('.js'),
		);
	if (!hasJs(dist)) {
		throw new SetupError('dist/ has no compiled .js files: run npm run build first');
	}
}

async function loadScanner(tmpRoot) {
	let pkgJson;
	try {
		pkgJson = require.resolve('@n8n/scan-community-package/package.json', { paths: [ROOT] });
	} catch {
		throw new SetupError('@n8n/scan-community-package is not installed: run npm ci');
	}
	const scannerFile = path.join(path.dirname(pkgJson), 'scanner', 'scanner.mjs');
	const scannerRequire = createRequire(scannerFile);

	const savedTmp = process.env.TMPDIR;
	process.env.TMPDIR = tmpRoot;
	let scanner;
	try {
		scanner = await import(pathToFileURL(scannerFile).href);
	} catch (error) {
		throw new SetupError(`cannot load ${scannerFile}: ${error.message}`);
	} finally {
		if (savedTmp === undefined) delete process.env.TMPDIR;
		else process.env.TMPDIR = savedTmp;
	}
	if (typeof scanner.analyzePackage !== 'function' || !Array.isArray(scanner.SOURCE_FILE_PATTERNS)) {
		throw new SetupError(`${scannerFile} no longer exports analyzePackage/SOURCE_FILE_PATTERNS`);
	}

	// Keep a copy of what the scanner's ESLint returns.
	const captured = { results: null };
	const { ESLint } = scannerRequire('eslint');
	const lintFiles = ESLint.prototype.lintFiles;
	ESLint.prototype.lintFiles = async function (...args) {
		const results = await lintFiles.apply(this, args);
		captured.results = results;
		return results;
	};
	return { scanner, captured, version: require(pkgJson).version };
}

function packTarball(tmpRoot) {
	const packDir = path.join(tmpRoot, 'pack');
	fs.mkdirSync(packDir);
	const pack = spawnSync(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', packDir],
		{ cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
	);
	if (pack.status !== 0) {
		throw new SetupError(`npm pack failed:\n${pack.stderr || pack.stdout}`);
	}
	let info;
	try {
		info = JSON.parse(pack.stdout)[0];
	} catch {
		throw new SetupError(`npm pack --json printed no JSON:\n${pack.stdout}`);
	}
	const tarball = path.join(packDir, info.filename);
	const packageDir = path.join(tmpRoot, 'package');
	fs.mkdirSync(packageDir);
	const tar = spawnSync('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1'], {
		encoding: 'utf8',
	});
	if (tar.status !== 0) {
		throw new SetupError(`tar extraction failed: ${tar.stderr}`);
	}
	return { packageDir, filename: info.filename, entryCount: info.entryCount, size: info.size };
}

/** Our own check: every file package.json `n8n` lists must be in the tarball. */
function missingListedFiles(packageDir) {
	const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
	const findings = [];
	for (const key of ['credentials', 'nodes']) {
		(pkg.n8n?.[key] ?? []).forEach((file, i) => {
			if (!fs.existsSync(path.join(packageDir, file))) {
				findings.push({
					file: 'package.json',
					line: 0,
					column: 0,
					severity: 2,
					ruleId: 'scan.js/listed-file-missing',
					message: `n8n.${key}[${i}] "${file}" is not in the packed tarball (build it, or fix the path)`,
				});
			}
		});
	}
	return findings;
}

async function runTarget({ scanner, captured }, label, dir, patterns, extraFindings = []) {
	const started = Date.now();
	captured.results = null;
	const result = await scanner.analyzePackage(dir, patterns);
	const results = captured.results;

	const findings = [...extraFindings];
	if (results) {
		for (const r of results) {
			for (const m of r.messages) {
				findings.push({
					file: rel(r.filePath, dir),
					line: m.line ?? 0,
					column: m.column ?? 0,
					severity: m.severity,
					ruleId: m.ruleId ?? (m.fatal ? 'parse-error' : '(none)'),
					message: m.message,
				});
			}
		}
	}
	const errors = findings.filter((f) => f.severity === 2).length;
	const warnings = findings.length - errors;
	const files = results ? results.length : result.message === 'No files found to analyze' ? 0 : '?';
	const passed = result.passed && errors === 0;

	console.log(
		`${passed ? 'PASS' : 'FAIL'} ${label}: ${files} files scanned, ${errors} errors, ${warnings} warnings (${ms(started)})`,
	);
	findings
		.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column)
		.forEach((f) => {
			const where = f.line ? `${f.file}:${f.line}:${f.column}` : f.file;
			console.log(`  ${where}  ${f.severity === 2 ? 'error' : 'warning'}  ${f.ruleId}  ${f.message}`);
		});
	if (!result.passed && (!results || errors === 0)) {
		// The wrap saw nothing (or the scanner itself failed): show the scanner's own report.
		console.log(`  scanner: ${result.message ?? 'failed'}`);
		if (result.details) console.log(result.details.replace(/^/gm, '  '));
	}
	return passed;
}

async function main() {
	const started = Date.now();
	const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-scan-'));
	const cleanup = () => fs.rmSync(tmpRoot, { recursive: true, force: true });
	process.once('SIGINT', () => {
		cleanup();
		process.exit(130);
	});
	try {
		checkBuilt();
		const loaded = await loadScanner(tmpRoot);
		const packed = packTarball(tmpRoot);
		console.log(
			`n8n scan (@n8n/scan-community-package ${loaded.version}, inline eslint-disable ignored)`,
		);

		const tarballOk = await runTarget(
			loaded,
			`tarball ${packed.filename} [${TARBALL_PATTERNS.join(', ')}]`,
			packed.packageDir,
			TARBALL_PATTERNS,
			missingListedFiles(packed.packageDir),
		);
		const sourceOk = await runTarget(
			loaded,
			`source tree [${loaded.scanner.SOURCE_FILE_PATTERNS.join(', ')}]`,
			ROOT,
			loaded.scanner.SOURCE_FILE_PATTERNS,
		);

		const ok = tarballOk && sourceOk;
		console.log(`${ok ? 'scan passed' : 'scan FAILED'} in ${ms(started)}`);
		return ok ? 0 : 1;
	} catch (error) {
		if (error instanceof SetupError) {
			console.error(`scan: ${error.message}`);
			return 2;
		}
		throw error;
	} finally {
		cleanup();
	}
}

main().then(
	(code) => {
		process.exitCode = code;
	},
	(error) => {
		console.error(error);
		process.exitCode = 2;
	},
);
