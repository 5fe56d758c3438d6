/**
 * The trigger node files share one base (nodes/shared/trigger/triggerNode.ts) as the action nodes
 * share actionNode.ts, and the credential's name is written once (requests/runContext.ts).
 */
import { readdirSync, readFileSync } from 'fs';
import { join, resolve } from 'path';

import { LoanCrmOAuth2Api } from '../../credentials/LoanCrmOAuth2Api.credentials';
import { LoanCrmContactsTrigger } from '../../nodes/LoanCrmContactsTrigger/LoanCrmContactsTrigger.node';
import { LoanCrmDealsTrigger } from '../../nodes/LoanCrmDealsTrigger/LoanCrmDealsTrigger.node';
import { LoanCrmTrigger } from '../../nodes/LoanCrmTrigger/LoanCrmTrigger.node';
import { CREDENTIAL_TYPE } from '../../nodes/shared/requests/runContext';

const ROOT = resolve(__dirname, '..', '..');

function tsFilesUnder(folder: string): string[] {
	return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
		.map((entry) => join(entry.parentPath, entry.name));
}

describe('trigger node base and the credential name', () => {
	it('names the credential in nodes/ only through CREDENTIAL_TYPE, which is the credential class name', () => {
		expect(CREDENTIAL_TYPE).toBe(new LoanCrmOAuth2Api().name);
		const spelledOut = tsFilesUnder('nodes')
			.filter((file) => /['"`]loanCrmOAuth2Api['"`]/.test(readFileSync(file, 'utf8')))
			.map((file) => file.slice(ROOT.length + 1));
		expect(spelledOut).toEqual(['nodes/shared/requests/runContext.ts']);
	});

	it.each([
		['Loan CRM Deals Trigger', 'loanCrmDealsTrigger', new LoanCrmDealsTrigger()],
		['Loan CRM Contacts Trigger', 'loanCrmContactsTrigger', new LoanCrmContactsTrigger()],
		['Loan CRM Trigger', 'loanCrmTrigger', new LoanCrmTrigger()],
	])('%s: names, credential and polling from the base; a poll function n8n can call', (displayName, name, node) => {
		expect(node.description).toEqual(
			expect.objectContaining({ displayName, name, defaults: { name: displayName }, polling: true, group: ['trigger'], credentials: [{ name: CREDENTIAL_TYPE, required: true }] }),
		);
		expect(typeof node.poll).toBe('function');
	});

	it('each trigger node file is a few lines over the base: no description field written out twice', () => {
		for (const folder of ['LoanCrmDealsTrigger', 'LoanCrmContactsTrigger', 'LoanCrmTrigger']) {
			const text = readFileSync(join(ROOT, 'nodes', folder, `${folder}.node.ts`), 'utf8');
			for (const repeated of ['polling:', 'credentials:', 'group:', 'inputs:', 'outputs:', 'documentationUrl:', 'properties:']) expect(text).not.toContain(repeated);
		}
	});
});
