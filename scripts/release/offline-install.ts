/**
 * Installing the package without registry access, written once: the README shows these commands,
 * the Dockerfile runs them, and the real-n8n e2e (scripts/e2e/offline-install.ts) runs them and
 * then uses the installed nodes; test/release/dockerfile.test.ts checks the three agree.
 *
 * `--legacy-peer-deps`: npm 7+ otherwise installs the peer dependency n8n-workflow, which needs the
 * registry; n8n provides n8n-workflow itself. `--offline`: fail rather than reach for the network.
 */
export const TARBALL = '<tarball>';

/** Shell commands, run in order in one shell; `~` is the home of the user n8n runs as. */
export const OFFLINE_INSTALL_COMMANDS = ['mkdir -p ~/.n8n/nodes', 'cd ~/.n8n/nodes', `npm install --offline --legacy-peer-deps ${TARBALL}`] as const;

/** The commands as one shell line, with the tarball's path filled in. */
export function offlineInstallScript(tarball: string): string {
	return OFFLINE_INSTALL_COMMANDS.map((command) => command.replace(TARBALL, tarball)).join(' && ');
}
