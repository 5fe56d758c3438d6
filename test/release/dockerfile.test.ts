/*
 * The Docker recipe cannot be built here (no image registry), so its commands are checked against
 * the ones the real-n8n e2e runs (scripts/e2e/offline-install.ts runs offlineInstallScript) and the
 * README documents: same install line, same n8n version as the e2e, the tarball npm pack writes.
 */
import { readFileSync } from 'fs';
import { resolve } from 'path';

import { N8N_VERSION } from '../../scripts/e2e/install';
import { OFFLINE_INSTALL_COMMANDS, offlineInstallScript } from '../../scripts/release/offline-install';

const ROOT = resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(resolve(ROOT, file), 'utf8');
const IMAGE_TARBALL = '/tmp/n8n-nodes-loan-crm.tgz';

/** Dockerfile instructions: comments dropped, continuation lines joined. */
function instructions(): Array<{ keyword: string; args: string }> {
	return read('Dockerfile')
		.replace(/\\\n/g, ' ')
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line !== '' && !line.startsWith('#'))
		.map((line) => {
			const [keyword, ...rest] = line.split(/\s+/);
			return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
		});
}

describe('Dockerfile', () => {
	it('builds FROM n8nio/n8n at the version the e2e runs, copies the packed tarball and installs it as node', () => {
		expect(instructions()).toEqual([
			{ keyword: 'ARG', args: `N8N_VERSION=${N8N_VERSION}` },
			{ keyword: 'FROM', args: 'n8nio/n8n:${N8N_VERSION}' },
			{ keyword: 'COPY', args: `--chown=node:node n8n-nodes-loan-crm-*.tgz ${IMAGE_TARBALL}` },
			{ keyword: 'USER', args: 'node' },
			{ keyword: 'RUN', args: offlineInstallScript(IMAGE_TARBALL) },
		]);
	});

	it("RUN's commands are, one by one, the commands the e2e runs", () => {
		const run = instructions().find((instruction) => instruction.keyword === 'RUN');
		expect(run?.args.split(' && ')).toEqual(OFFLINE_INSTALL_COMMANDS.map((command) => command.replace('<tarball>', IMAGE_TARBALL)));
	});

	it('the build context is only the tarball', () => {
		expect(read('.dockerignore').split('\n').filter((line) => line !== '' && !line.startsWith('#'))).toEqual(['*', '!n8n-nodes-loan-crm-*.tgz']);
	});

	it('npm pack writes the file name the COPY picks up', () => {
		const { name, version } = JSON.parse(read('package.json')) as { name: string; version: string };
		expect(`${name}-${version}.tgz`).toMatch(/^n8n-nodes-loan-crm-.+\.tgz$/);
	});
});

describe('README install without the registry', () => {
	const readme = read('README.md');

	it('shows the same commands as the e2e, with the tarball npm pack writes', () => {
		const { version } = JSON.parse(read('package.json')) as { version: string };
		for (const command of OFFLINE_INSTALL_COMMANDS) {
			expect(readme).toContain(command.replace('<tarball>', `/path/to/n8n-nodes-loan-crm-${version}.tgz`));
		}
	});

	it('shows the Docker volume variant with the same install line', () => {
		expect(readme).toContain(`'${offlineInstallScript('/pkg/n8n-nodes-loan-crm.tgz')}'`);
		expect(readme).toContain(`n8nio/n8n:${N8N_VERSION}`);
	});
});
