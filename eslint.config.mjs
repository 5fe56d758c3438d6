// ESLint flat config for n8n-nodes-loan-crm (`npm run lint` = `eslint --max-warnings 0 .`).
//
// Package sources (package.json, credentials/, nodes/) get the rules n8n's verification scanner
// (@n8n/scan-community-package, see scripts/scan.js) and `n8n-node lint` apply:
//   - @n8n/eslint-plugin-community-nodes `recommended`
//   - eslint-plugin-n8n-nodes-base `community` (package.json), `credentials` (credentials/**/*.ts)
//     and `nodes` (nodes/**/*.ts), with the scanner's five off-overrides
//   - `no-console: error`
// Because of `--max-warnings 0`, the plugins' warn-level rules fail lint too (the scanner only
// fails on errors). This config uses the plugin versions in our devDependencies; scripts/scan.js
// runs the scanner with its own pinned copies, so both gates are checked.
//
// Tests, scripts and tool configs get a light, non-n8n ruleset.
import tsParser from '@typescript-eslint/parser';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

const PACKAGE_SOURCES = ['package.json', '{credentials,nodes}/**/*.{ts,js,json}'];
const CREDENTIAL_SOURCES = ['credentials/**/*.ts'];
const NODE_SOURCES = ['nodes/**/*.ts'];
const TEST_TS = ['test/**/*.ts', 'scripts/**/*.ts'];
const TOOL_JS = [
	'scripts/**/*.{js,cjs,mjs}',
	'test/**/*.{js,cjs,mjs}',
	'gulpfile.js',
	'jest.config.js',
	'eslint.config.mjs',
];

const { recommended } = n8nCommunityNodesPlugin.configs;

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

// Type-agnostic basics. Core `no-unused-vars` is for JS only: on TypeScript it misreports
// parameters of function types, interfaces and overloads, enum members and parameter properties
// (`@typescript-eslint/no-unused-vars` would need @typescript-eslint/eslint-plugin).
const basics = {
	'no-debugger': 'error',
	'no-dupe-keys': 'error',
	'no-duplicate-case': 'error',
	'no-unreachable': 'error',
	'no-self-assign': 'error',
};

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.cache/**', '**/*.d.ts'] },

	// --- Package sources: what n8n scans -------------------------------------------------------
	{
		files: PACKAGE_SOURCES,
		languageOptions: { parser: tsParser },
		// Like the scanner (allowInlineConfig: false): `eslint-disable` comments silence nothing here,
		// and ESLint warns about each one, which fails lint under --max-warnings 0.
		linterOptions: { noInlineConfig: true },
		plugins: { ...recommended.plugins, 'n8n-nodes-base': n8nNodesBase },
		rules: { ...recommended.rules, 'no-console': 'error' },
	},
	{
		files: ['package.json'],
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: CREDENTIAL_SOURCES,
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Off in the scanner and in `n8n-node lint`: not valid for community nodes.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			// Off there too: @n8n/community-nodes/credential-password-field is more accurate.
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: NODE_SOURCES,
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// Off in the scanner and in `n8n-node lint`: inputs/outputs may use NodeConnectionTypes.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			// Off there too: an API may have a real maximum.
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},

	// --- Tests, scripts, tool configs: light ruleset, no n8n rules ---------------------------
	{
		files: TEST_TS,
		languageOptions: { parser: tsParser, sourceType: 'module' },
		linterOptions: { reportUnusedDisableDirectives: "error" },
		rules: basics,
	},
	{
		files: TOOL_JS,
		languageOptions: { ecmaVersion: 2022, sourceType: 'commonjs', globals: nodeGlobals },
		linterOptions: { reportUnusedDisableDirectives: "error" },
		rules: {
			...basics,
			'no-undef': 'error',
			'no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
			],
		},
	},
	{
		files: ['**/*.mjs'],
		languageOptions: { sourceType: 'module' },
	},
];
