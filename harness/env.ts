/*
 * Imported first by the harness, before anything loads n8n-core:
 * - n8n-core's InstanceSettings writes <N8N_USER_FOLDER>/.n8n/config (with a generated encryption
 *   key) and defaults the folder to $HOME; without a folder of our own it would write into $HOME.
 *   Jest sets one for the whole run (test/jest.global-setup.ts); scripts get a temp folder that is
 *   removed when they exit.
 * - n8n's ErrorReporter logs every node error through n8n's logger, which only adds noise to test
 *   output. Set N8N_LOG_LEVEL yourself to see it.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

if (!process.env.N8N_USER_FOLDER) {
	const folder = mkdtempSync(join(tmpdir(), 'loan-crm-n8n-'));
	process.env.N8N_USER_FOLDER = folder;
	process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
}
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
process.env.N8N_LOG_LEVEL ??= 'silent';

export {};
