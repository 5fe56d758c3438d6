// The lint rules for the repository's tools: tests, scripts, the sandbox and harness, not the package.
//
// The root eslint.config.mjs is n8n's two-line default, byte for byte what `n8n-node cloud-support
// enable` writes: `package.json` has `"strict": true`, and strict mode makes `n8n-node lint` refuse any
// other root config. That default applies n8n's node-only rules (no `process`, timers, `console`,
// `child_process`, restricted imports) to every .ts file below it. Tests and scripts are Node programs
// that need all of those, so each tool folder has its own `eslint.config.mjs`, one line re-exporting
// this file, and `npm run lint` (scripts/lint.js) runs `n8n-node lint` with
// `ESLINT_FLAGS=unstable_config_lookup_from_file`: ESLint then lints each file with the nearest
// `eslint.config.*` above it (ESLint 10's default behaviour). nodes/, credentials/ and package.json
// have no config of their own and get n8n's default unchanged. test/release/n8n-lint.test.ts proves
// both halves on a scratch tree through the same command.
//
// A new tool folder `<dir>/` gets these rules with one file, `<dir>/eslint.config.mjs`:
//     export { default } from '../eslint.tools.mjs';
// Patterns here are relative to the folder of the config that re-exports them.
import tsParser from '@typescript-eslint/parser';

// Type-agnostic basics. Core `no-unused-vars` is for JS only: on TypeScript it misreports
// parameters of function types, interfaces and overloads, enum members and parameter properties.
// Type errors are `npm run typecheck`'s job.
const basics = {
	'no-debugger': 'error',
	'no-dupe-keys': 'error',
	'no-duplicate-case': 'error',
	'no-unreachable': 'error',
	'no-self-assign': 'error',
};

// Node.js globals for the plain JS files (no `globals` package: it is not a direct dependency).
const nodeGlobals = Object.fromEntries(
	[
		'Buffer',
		'URL',
		'URLSearchParams',
		'__dirname',
		'__filename',
		'clearInterval',
		'clearTimeout',
		'console',
		'exports',
		'module',
		'process',
		'require',
		'setImmediate',
		'setInterval',
		'setTimeout',
		'structuredClone',
	].map((name) => [name, 'readonly']),
);

// Every finding is an error (never a warning), so a bad tool file fails `npm run lint`.
const linterOptions = { reportUnusedDisableDirectives: 'error' };

export default [
	{
		files: ['**/*.ts'],
		languageOptions: { parser: tsParser, sourceType: 'module' },
		linterOptions,
		rules: basics,
	},
	{
		files: ['**/*.{js,cjs,mjs}'],
		languageOptions: { ecmaVersion: 2022, sourceType: 'commonjs', globals: nodeGlobals },
		linterOptions,
		rules: {
			...basics,
			'no-undef': 'error',
			'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
		},
	},
	{
		files: ['**/*.mjs'],
		languageOptions: { sourceType: 'module' },
	},
];
