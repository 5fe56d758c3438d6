import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

// n8n-core writes <N8N_USER_FOLDER>/.n8n/config with a generated key; keep it out of $HOME.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'loan-crm-n8n-'));
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
