#!/usr/bin/env node
/*
 * `npm run lint` (also inside `npm test`): n8n's own `n8n-node lint`, once, over the whole repository.
 *
 * - Strict mode (`"strict": true` in package.json): `n8n-node lint` first checks that eslint.config.mjs
 *   is n8n's default, then runs `npm exec -- eslint .` with our environment.
 * - `ESLINT_FLAGS=unstable_config_lookup_from_file` (added here, so it works on every OS) makes that
 *   ESLint lint each file with the nearest `eslint.config.*` above it: nodes/, credentials/ and
 *   package.json with n8n's default at the root, test/ and scripts/ with their own one-line configs
 *   (see eslint.tools.mjs). ESLint 10 does this without the flag.
 * - Zero warnings: `n8n-node lint` fails on errors only, so this script reads ESLint's summary line
 *   from its output and fails on any warning too, instead of linting everything a second time with
 *   `eslint --max-warnings 0`.
 *
 * Arguments are passed on (`npm run lint -- --fix`). Exit: n8n-node lint's code, or 1 on warnings.
 */
'use strict';

const path = require('path');
const { spawn } = require('child_process');

const ROOT = path.resolve(__dirname, '..');
const FLAG = 'unstable_config_lookup_from_file';
// The package's `exports` hide its bin from require.resolve; npm installs it at the top level.
const N8N_NODE = path.join(ROOT, 'node_modules', '@n8n', 'node-cli', 'bin', 'n8n-node.mjs');

const flags = (process.env.ESLINT_FLAGS ?? '').split(',').map((flag) => flag.trim()).filter(Boolean);
const env = { ...process.env, ESLINT_FLAGS: [...new Set([...flags, FLAG])].join(',') };

const child = spawn(process.execPath, [N8N_NODE, 'lint', ...process.argv.slice(2)], {
	cwd: ROOT,
	env,
	stdio: ['inherit', 'pipe', 'pipe'],
});
let output = '';
for (const [stream, target] of [
	[child.stdout, process.stdout],
	[child.stderr, process.stderr],
]) {
	stream.on('data', (chunk) => {
		output += chunk;
		target.write(chunk);
	});
}
child.on('error', (error) => {
	console.error(`lint: cannot run ${N8N_NODE}: ${error.message} (run npm ci)`);
	process.exitCode = 2;
});
child.on('close', (code, signal) => {
	if (signal) {
		process.kill(process.pid, signal);
		return;
	}
	// ESLint's stylish summary, e.g. "✖ 3 problems (0 errors, 3 warnings)"; colours stripped.
	const summary = output.replace(/\u001b\[[0-9;]*m/g, '').match(/\((\d+) errors?, (\d+) warnings?\)/);
	const warnings = summary ? Number(summary[2]) : 0;
	if (code === 0 && warnings > 0) {
		console.error(`lint: ${warnings} warning(s); none are allowed`);
		process.exitCode = 1;
		return;
	}
	if (code === 0) console.log('lint passed: n8n-node lint (strict mode), no errors or warnings');
	process.exitCode = code ?? 1;
});
