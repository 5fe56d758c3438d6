import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

/** One n8n user folder for the whole run (n8n-core writes its config there), removed afterwards. */
export default function globalSetup(): void {
	process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'loan-crm-n8n-'));
	process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
}
