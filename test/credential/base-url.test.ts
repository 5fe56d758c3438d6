/*
 * One Base URL rule (credentials/baseUrl.ts) for the nodes' requests and for the credential's Test
 * button, whose base URL n8n evaluates as an expression: for every way a user writes the address,
 * both reach the sandbox's /jsonapi/deals, through n8n-core's credential tester and engine.
 */
import { serviceBaseUrl } from '../../credentials/baseUrl';
import { runNode, sandboxCredential, testCredential } from '../../harness';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ sizes: { deals: 5, contacts: 5 } });
});
afterAll(() => sandbox.close());

const spellings = (base: string): string[] => [
	base,
	`${base}/`,
	`${base}//`,
	`  ${base}/  `,
	`${base}/jsonapi`,
	`${base}/jsonapi/`,
	`${base}/JSONAPI`,
];

describe('the Base URL as entered', () => {
	it('is normalised to the service address by the one rule', () => {
		const entered = spellings(sandbox.baseUrl);
		expect(entered).toHaveLength(7);
		for (const baseUrl of entered) expect(serviceBaseUrl(baseUrl)).toBe(sandbox.baseUrl);
	});

	it('leads the Test button and a node to the same /jsonapi/deals', async () => {
		const entered = spellings(sandbox.baseUrl);
		expect(entered).toHaveLength(7);
		for (const baseUrl of entered) {
			sandbox.clearLog();
			const tested = await testCredential(sandboxCredential(sandbox, { baseUrl }));
			expect({ baseUrl, status: tested.status }).toEqual({ baseUrl, status: 'OK' });
			const run = await runNode({
				nodeType: 'loanCrmDeals',
				parameters: { resource: 'deal', operation: 'getMany', limit: 1 },
				credentials: sandboxCredential(sandbox, { baseUrl }),
			});
			expect(run.error).toBeUndefined();
			const paths = sandbox.apiRequests().map((request) => request.path);
			// The Test button's request, then the node's.
			expect({ baseUrl, paths }).toEqual({ baseUrl, paths: ['/jsonapi/deals', '/jsonapi/deals'] });
		}
	});
});
