/*
 * n8n strict mode and n8n Cloud eligibility, and the tools' own lint.
 *
 * package.json has `"strict": true` and the root eslint.config.mjs is n8n's default, so `n8n-node
 * cloud-support` reports the package eligible and `n8n-node lint` lints nodes/, credentials/ and
 * package.json with n8n's unchanged rules. test/ and scripts/ have one-line configs re-exporting
 * eslint.tools.mjs, which `npm run lint` (scripts/lint.js → n8n-node lint → eslint, with
 * ESLINT_FLAGS=unstable_config_lookup_from_file) applies to them. The scratch-tree tests below run
 * that same `npm run lint` on a copy of those files plus fixtures written here, proving that a tool
 * file breaking the tool rules fails it, that the node rules do not reach the tools but still reach
 * nodes/, and that a warning fails it too. The repository's own lint runs earlier in `npm test`.
 */
import { spawnSync } from 'child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { dirname, join, resolve } from 'path';

const ROOT = resolve(__dirname, '..', '..');
const N8N_NODE = resolve(ROOT, 'node_modules/@n8n/node-cli/bin/n8n-node.mjs');
// What `n8n-node cloud-support enable` writes (node-cli's commands/cloud-support.js, 0.48.3).
const CLOUD_DEFAULT = "import { config } from '@n8n/node-cli/eslint';\n\nexport default config;\n";
// Everything `npm run lint` reads besides the files it lints.
const LINT_SETUP = ['package.json', 'tsconfig.json', 'eslint.config.mjs', 'eslint.tools.mjs', 'test/eslint.config.mjs', 'scripts/eslint.config.mjs', 'scripts/lint.js'];

// Without jest's NODE_ENV=test, which switches eslint-plugin-n8n-nodes-base into its own self-test mode.
const { NODE_ENV: _jest, ...ENV } = process.env;
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

function run(command: string, args: string[], cwd: string) {
	const result = spawnSync(command, args, { cwd, env: ENV, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
	return { status: result.status, output: plain(`${result.stdout}${result.stderr}`) };
}

/** ESLint's stylish report from the output, as `relative/path: ruleId …` (one line per file). */
function findings(output: string, base: string): string[] {
	const byFile: string[] = [];
	let file = '';
	for (const line of output.split('\n')) {
		if (line.startsWith(`${base}/`)) {
			file = line.slice(base.length + 1).trim();
			byFile.push(`${file}:`);
		} else if (file && /^\s+\d+:\d+\s+(error|warning)\s/.test(line)) {
			// An unused `eslint-disable` comment has no rule id; its message ends with the rule it names.
			const rule = line.includes('Unused eslint-disable directive') ? '(unused eslint-disable)' : line.trim().split(/\s+/).pop();
			byFile[byFile.length - 1] += ` ${rule}`;
		}
	}
	return byFile.sort();
}

// A Node program's everyday needs, each one forbidden in n8n node code.
const TOOL_TS = `import { spawnSync } from 'child_process';
import { readFileSync } from 'fs';

export function later(): void {
	setTimeout(() => console.log(process.env.HOME, readFileSync, spawnSync), 1);
}
`;
const TOOL_JS = `'use strict';
const { spawnSync } = require('child_process');
setTimeout(() => console.log(process.argv, spawnSync), 1);
`;

describe('n8n strict mode', () => {
	let scratch: string;
	beforeEach(() => {
		scratch = mkdtempSync(join(tmpdir(), 'loan-crm-lint-'));
	});
	afterEach(() => rmSync(scratch, { recursive: true, force: true }));

	function tree(files: Record<string, string>): void {
		for (const file of LINT_SETUP) cpSync(resolve(ROOT, file), join(scratch, file));
		symlinkSync(resolve(ROOT, 'node_modules'), join(scratch, 'node_modules'), 'dir');
		for (const [file, text] of Object.entries(files)) {
			mkdirSync(dirname(join(scratch, file)), { recursive: true });
			writeFileSync(join(scratch, file), text);
		}
	}

	it('root eslint.config.mjs is byte for byte what `n8n-node cloud-support enable` writes, package.json unchanged by it', () => {
		cpSync(resolve(ROOT, 'package.json'), join(scratch, 'package.json'));
		writeFileSync(join(scratch, 'eslint.config.mjs'), 'export default [];\n');
		const enable = run(process.execPath, [N8N_NODE, 'cloud-support', 'enable'], scratch);
		expect(enable.output).toContain('Cloud support enabled');
		expect(readFileSync(join(scratch, 'eslint.config.mjs'), 'utf8')).toBe(CLOUD_DEFAULT);
		expect(readFileSync(resolve(ROOT, 'eslint.config.mjs'), 'utf8')).toBe(CLOUD_DEFAULT);
		// `enable` sets n8n.strict and reformats the file with prettier; the content must be ours already.
		expect(JSON.parse(readFileSync(join(scratch, 'package.json'), 'utf8'))).toEqual(JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')));
	});

	it('`n8n-node cloud-support` reports the package eligible for n8n Cloud', () => {
		const status = run(process.execPath, [N8N_NODE, 'cloud-support'], ROOT);
		expect(status.output).toMatch(/Strict mode: enabled[\s│]+• ESLint config: using default config[\s│]+• Status: eligible for n8n Cloud verification/);
		expect(status.output).not.toContain('NOT eligible');
	});

	it('`npm run lint`: node rules stay off the tools and on nodes/; a warning fails it', () => {
		tree({
			'test/tool.test.ts': TOOL_TS,
			'scripts/tool.ts': TOOL_TS,
			'scripts/tool.js': TOOL_JS,
			'nodes/Scratch/warning.ts': '// eslint-disable-next-line no-console\nexport const answer = 42;\n',
		});
		const lint = run('npm', ['run', 'lint'], scratch);
		expect(findings(lint.output, scratch)).toEqual(['nodes/Scratch/warning.ts: (unused eslint-disable)']);
		expect(lint.output).toContain('(0 errors, 1 warning)');
		expect(lint.output).toContain('lint: 1 warning(s); none are allowed');
		expect(lint.status).toBe(1);
	}, 120_000);

	it('`npm run lint`: a test or script breaking the tools ruleset fails it, and node code breaking n8n rules', () => {
		tree({
			'test/tool.test.ts': TOOL_TS,
			'test/bad.test.ts': "it('stops', () => {\n\tdebugger;\n});\n",
			'scripts/bad.js': "'use strict';\nmodule.exports = { mode: 'a', mode: 'b', other: undefinedName };\n",
			'nodes/Scratch/tool.ts': TOOL_TS,
		});
		const lint = run('npm', ['run', 'lint'], scratch);
		expect(findings(lint.output, scratch)).toEqual([
			'nodes/Scratch/tool.ts: @n8n/community-nodes/no-restricted-imports @n8n/community-nodes/no-restricted-imports @n8n/community-nodes/no-restricted-globals no-console @n8n/community-nodes/no-restricted-globals',
			'scripts/bad.js: no-dupe-keys no-undef',
			'test/bad.test.ts: no-debugger',
		]);
		expect(lint.status).not.toBe(0);
	}, 120_000);
});
