/**
 * The house rules of the source tree, read from the import statements of every .ts file:
 *
 * - nodes/shared/ is built in layers, lowest first: service → errors → input → requests → paging →
 *   operation → description → execution → trigger; a file imports only from its own layer or lower
 *   ones, and the node folders (nodes/LoanCrm…/) sit on top, each importing only nodes/shared/ and itself.
 * - The editor's parameters (description/) and the run (execution/) stand side by side on the
 *   resolved operations (operation/): execution/ imports nothing from description/.
 * - The actions (execution/actions/) are reached through their one entry, actions/index.ts: the
 *   router imports nothing of an action's own file.
 * - credentials/ imports nothing from nodes/ (nodes/ may use what the credential owns: the network
 *   words, the Base URL rule).
 * - No import cycle in nodes/, credentials/ or the tool folders.
 * - Every NodeApiError and NodeOperationError is built in nodes/shared/errors/factory.ts.
 * - Requests in Parallel is read in execution/requestOptions.ts and kept by the transport alone.
 * - The package imports only n8n-workflow and Node's crypto.
 * - The tools (scripts/, sandbox/, harness/) import nothing from test/, harness/ nothing from scripts/,
 *   and the sandbox nothing from nodes/ or credentials/ (it emulates the service from its contract, never from our code).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve } from 'path';

const ROOT = resolve(__dirname, '..', '..');

/** nodes/shared/ sub-folders, lowest first. */
const LAYERS = ['service', 'errors', 'input', 'requests', 'paging', 'operation', 'description', 'execution', 'trigger'] as const;

function filesUnder(folder: string): string[] {
	const absolute = join(ROOT, folder);
	if (!existsSync(absolute)) return [];
	const found: string[] = [];
	for (const name of readdirSync(absolute)) {
		const path = join(absolute, name);
		if (name === 'node_modules') continue;
		if (statSync(path).isDirectory()) found.push(...filesUnder(relative(ROOT, path)));
		else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) found.push(relative(ROOT, path));
	}
	return found.sort();
}

interface Import {
	from: string;
	/** As written. */
	specifier: string;
	/** Repository path of the file it resolves to; undefined for a package or built-in. */
	target?: string;
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;(])import\s*\(\s*['"]([^'"]+)['"]\s*\)|\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

function importsOf(file: string): Import[] {
	const text = readFileSync(join(ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
	const found: Import[] = [];
	for (const match of text.matchAll(IMPORT)) {
		const specifier = match[1] ?? match[2] ?? match[3] ?? match[4];
		if (!specifier.startsWith('.')) {
			found.push({ from: file, specifier });
			continue;
		}
		const base = join(dirname(file), specifier);
		const target = [`${base}.ts`, join(base, 'index.ts'), base].find((candidate) => existsSync(join(ROOT, candidate)) && statSync(join(ROOT, candidate)).isFile());
		found.push({ from: file, specifier, target: target ?? `${base} (missing)` });
	}
	return found;
}

/** Every cycle's files, as `a → b → a`. */
function cycles(files: string[]): string[] {
	const graph = new Map(files.map((file) => [file, importsOf(file).flatMap((entry) => (entry.target !== undefined && files.includes(entry.target) ? [entry.target] : []))]));
	const state = new Map<string, 'open' | 'done'>();
	const stack: string[] = [];
	const found: string[] = [];
	const visit = (file: string): void => {
		state.set(file, 'open');
		stack.push(file);
		for (const next of graph.get(file) ?? []) {
			if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next].join(' → '));
			else if (state.get(next) === undefined) visit(next);
		}
		stack.pop();
		state.set(file, 'done');
	};
	for (const file of files) if (state.get(file) === undefined) visit(file);
	return found;
}

/** The layer of a file in nodes/: its index in LAYERS, LAYERS.length for a node folder, -1 for credentials/. */
function layerOf(file: string): { rank: number; name: string } | undefined {
	if (file.startsWith('credentials/')) return { rank: -1, name: 'credentials' };
	const shared = /^nodes\/shared\/([^/]+)\//.exec(file);
	if (shared) {
		const rank = (LAYERS as readonly string[]).indexOf(shared[1]);
		return rank < 0 ? undefined : { rank, name: shared[1] };
	}
	const node = /^nodes\/([^/]+)\//.exec(file);
	return node ? { rank: LAYERS.length, name: node[1] } : undefined;
}

const packageFiles = [...filesUnder('nodes'), ...filesUnder('credentials')];
const toolFolders = ['scripts', 'sandbox', 'harness'];

describe('the house rules', () => {
	it('finds the package sources and the file behind every relative import', () => {
		expect(packageFiles.length).toBeGreaterThan(40);
		const imports = [...packageFiles, ...toolFolders.flatMap((folder) => filesUnder(folder))].flatMap(importsOf);
		expect(imports.length).toBeGreaterThan(300);
		expect(imports.filter((entry) => entry.target?.endsWith('(missing)')).map((entry) => `${entry.from} imports ${entry.specifier}`)).toEqual([]);
	});

	it('every file of nodes/shared sits in one of the layer folders', () => {
		const shared = packageFiles.filter((file) => file.startsWith('nodes/shared/'));
		expect(shared.length).toBeGreaterThan(25);
		expect(shared.filter((file) => layerOf(file) === undefined)).toEqual([]);
		expect(LAYERS.filter((layer) => !shared.some((file) => file.startsWith(`nodes/shared/${layer}/`)))).toEqual([]);
	});

	it('imports flow down the layers, never up, and node folders import no other node folder', () => {
		const wrong: string[] = [];
		let checked = 0;
		for (const entry of packageFiles.flatMap(importsOf)) {
			if (entry.target === undefined) continue;
			checked += 1;
			const from = layerOf(entry.from);
			const to = layerOf(entry.target);
			if (from === undefined || to === undefined) {
				wrong.push(`${entry.from} imports ${entry.specifier}, outside nodes/ and credentials/`);
			} else if (to.rank > from.rank) {
				wrong.push(`${entry.from} (${from.name}) imports ${entry.target} (${to.name}), a higher layer`);
			} else if (from.rank === LAYERS.length && to.rank === LAYERS.length && from.name !== to.name) {
				wrong.push(`${entry.from} imports ${entry.target}, another node's folder`);
			}
		}
		expect(checked).toBeGreaterThan(150);
		expect(wrong).toEqual([]);
	});

	it('execution/ imports nothing from description/: both read the resolved operations', () => {
		const imports = filesUnder('nodes/shared/execution').flatMap(importsOf);
		expect(imports.length).toBeGreaterThan(50);
		expect(imports.filter((entry) => entry.target?.startsWith('nodes/shared/description/')).map((entry) => `${entry.from} imports ${entry.target}`)).toEqual([]);
	});

	it('the actions have one public entry, actions/index.ts: nothing outside execution/actions/ imports another of its files', () => {
		const actions = 'nodes/shared/execution/actions/';
		const outside = packageFiles.filter((file) => !file.startsWith(actions)).flatMap(importsOf);
		const intoActions = outside.filter((entry) => entry.target?.startsWith(actions));
		// The router dispatches every item through it (prepareItem).
		expect(intoActions.map((entry) => `${entry.from} → ${entry.target}`)).toContain(`nodes/shared/execution/router.ts → ${actions}index.ts`);
		expect(intoActions.filter((entry) => entry.target !== `${actions}index.ts`).map((entry) => `${entry.from} imports ${entry.target}`)).toEqual([]);
	});

	it('credentials/ imports nothing from nodes/', () => {
		const imports = filesUnder('credentials').flatMap(importsOf);
		expect(imports.length).toBeGreaterThan(3);
		expect(imports.filter((entry) => entry.target?.startsWith('nodes/')).map((entry) => `${entry.from} imports ${entry.target}`)).toEqual([]);
	});

	it('has no import cycle in the package or the tools', () => {
		expect(cycles(packageFiles)).toEqual([]);
		for (const folder of toolFolders) {
			const files = filesUnder(folder);
			expect(files.length).toBeGreaterThan(5);
			expect({ folder, cycles: cycles(files) }).toEqual({ folder, cycles: [] });
		}
	});

	it('builds every NodeApiError and NodeOperationError in nodes/shared/errors/factory.ts', () => {
		const builders = packageFiles.filter((file) => /new\s+Node(Api|Operation)Error\s*\(/.test(readFileSync(join(ROOT, file), 'utf8')));
		expect(builders).toEqual(['nodes/shared/errors/factory.ts']);
	});

	it('reads Requests in Parallel in execution/requestOptions.ts only, and only the transport takes its slots', () => {
		const using = (pattern: RegExp) => packageFiles.filter((file) => pattern.test(readFileSync(join(ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '')));
		// The parameter, read once per run and applied to the run context.
		expect(using(/\brequestsInParallel\s*\(/)).toEqual(['nodes/shared/execution/requestOptions.ts']);
		// The bound of requests in flight, kept in one place: each request holds a slot.
		expect(using(/\.inRequestSlot\s*\(/)).toEqual(['nodes/shared/requests/transport.ts']);
		expect(using(/\bnew\s+Slots\s*\(/)).toEqual(['nodes/shared/requests/runContext.ts']);
	});

	it('imports only n8n-workflow and crypto from outside the package', () => {
		const packages = new Set(packageFiles.flatMap(importsOf).filter((entry) => entry.target === undefined).map((entry) => entry.specifier));
		expect([...packages].sort()).toEqual(['crypto', 'n8n-workflow']);
	});

	it('the tools import nothing from test/, and the sandbox nothing from the package', () => {
		const toolImports = toolFolders.flatMap((folder) => filesUnder(folder)).flatMap(importsOf);
		expect(toolImports.length).toBeGreaterThan(100);
		expect(toolImports.filter((entry) => entry.target?.startsWith('test/')).map((entry) => `${entry.from} imports ${entry.target}`)).toEqual([]);
		const sandboxImports = filesUnder('sandbox').flatMap(importsOf);
		expect(
			sandboxImports.filter((entry) => entry.target?.startsWith('nodes/') || entry.target?.startsWith('credentials/')).map((entry) => `${entry.from} imports ${entry.target}`),
		).toEqual([]);
		// The tools point one way: scripts/ may use harness/ (and the sandbox), never the reverse.
		const harnessImports = filesUnder('harness').flatMap(importsOf);
		expect(harnessImports.filter((entry) => entry.target?.startsWith('scripts/')).map((entry) => `${entry.from} imports ${entry.target}`)).toEqual([]);
		// Tests stay under test/; the tool folders hold none.
		expect(toolFolders.flatMap((folder) => filesUnder(folder)).filter((file) => file.endsWith('.test.ts'))).toEqual([]);
	});
});
