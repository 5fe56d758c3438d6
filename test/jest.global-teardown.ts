import { rmSync } from 'fs';

export default function globalTeardown(): void {
	const folder = process.env.N8N_USER_FOLDER;
	if (folder && /loan-crm-n8n-/.test(folder)) rmSync(folder, { recursive: true, force: true });
}
