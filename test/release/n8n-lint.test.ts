/*
 * n8n Cloud eligibility of the package sources. `n8n-node lint` (in `npm test`) lints with our
 * eslint.config.mjs, which narrows n8n's config to package.json, credentials/ and nodes/ because
 * the verbatim default would also apply node-only rules to tests and scripts. This test lints the
 * package sources with the verbatim default file `n8n-node cloud-support enable` writes, so that the
 * sources stay clean under it: zero errors and zero warnings.
 */
import { spawnSync } from 'child_process';
import { readFileSync } from 'fs';
import { resolve } from 'path';

const ROOT = resolve(__dirname, '..', '..');
const NODE_CLI = resolve(ROOT, 'node_modules/@n8n/node-cli');
const DEFAULT_CONFIG = resolve(NODE_CLI, 'dist/template/templates/shared/default/eslint.config.mjs');

describe("n8n's default (n8n Cloud) lint config on the package sources", () => {
	it('is the two-line default n8n-node writes', () => {
		expect(readFileSync(DEFAULT_CONFIG, 'utf8').replace(/\s+/g, ' ').trim()).toBe("import { config } from '@n8n/node-cli/eslint'; export default config;");
	});

	it('finds nothing in package.json, credentials/ and nodes/', () => {
		// A child process: the config is ESM, which jest's module sandbox cannot import. Without jest's
		// NODE_ENV=test, which switches eslint-plugin-n8n-nodes-base into its own self-test mode.
		const { NODE_ENV: _jest, ...env } = process.env;
		const run = spawnSync(
			process.execPath,
			[resolve(ROOT, 'node_modules/eslint/bin/eslint.js'), '--config', DEFAULT_CONFIG, '--format', 'json', 'package.json', 'credentials', 'nodes'],
			{ cwd: ROOT, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
		);
		expect(run.stderr).toBe('');
		const results = JSON.parse(run.stdout) as { filePath: string; messages: { line: number; ruleId: string | null; message: string }[] }[];
		const findings = results.flatMap((result) =>
			result.messages.map((message) => `${result.filePath.slice(ROOT.length + 1)}:${message.line} ${message.ruleId} ${message.message}`),
		);
		expect(results.length).toBeGreaterThan(20);
		expect(findings).toEqual([]);
	}, 120_000);
});
