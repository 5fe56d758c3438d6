/**
 * What `npm test` runs against is fixed by the lockfile, the same on every machine: the n8n copies
 * the tests compare and n8n's own HTTP Request node are devDependencies, pinned to the n8n releases
 * the e2e suite proves, never looked up in a cache.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { REPO_ROOT } from '../../harness';
import { N8N_VERSIONS } from '../../scripts/e2e/install';
import { WORKFLOW_COPIES } from '../description/n8nCopies';

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };

describe('devDependencies the tests run against', () => {
	it('compare one n8n-workflow copy per n8n version of the e2e suite, each pinned exactly', () => {
		expect(WORKFLOW_COPIES.map((copy) => copy.n8n).sort()).toEqual([...N8N_VERSIONS].sort());
		for (const copy of WORKFLOW_COPIES) {
			const pinned = manifest.devDependencies[copy.packageName];
			expect({ copy: copy.packageName, pinned }).toEqual({ copy: copy.packageName, pinned: copy.packageName === 'n8n-workflow' ? copy.workflow : `npm:n8n-workflow@${copy.workflow}` });
		}
	});

	it("run n8n's HTTP Request node from n8n-nodes-base of the same release as n8n-core", () => {
		expect(manifest.devDependencies['n8n-nodes-base']).toBe(manifest.devDependencies['n8n-core']);
		expect((require('n8n-nodes-base/package.json') as { version: string }).version).toBe(manifest.devDependencies['n8n-nodes-base']);
	});
});
