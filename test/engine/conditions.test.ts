/**
 * Pick, don't guess: the one Conditions builder (Get Many and the trigger) with value dropdowns,
 * conditions saved before the dropdowns existed, and defaults that send nothing nobody chose — all
 * run in n8n-core's engine (which fills defaults and drops hidden parameters the way n8n does)
 * against the sandbox.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runPoll } from '../../harness';
import { decodedQuery, jsonOf, useSandbox } from './helpers';

const env = useSandbox({ sizes: { deals: 300 } });
const ids = () => env.sandbox.data.ids;

afterEach(() => env.sandbox.data.reset());

const dealsWhere = (condition: INodeParameters[], extra: INodeParameters = {}): INodeParameters => ({
	resource: 'deal',
	operation: 'getMany',
	returnAll: true,
	options: { conditions: { condition } },
	...extra,
});

function storedDealStatuses(): Map<string, string> {
	return new Map(env.sandbox.data.list('deals').map((deal) => [String(deal.id), String(deal.attributes.dealStatus)]));
}

describe('Conditions: values picked from a list', () => {
	it('a status picked from the dropdown filters on the server and only those deals come back', async () => {
		const result = await env.run('loanCrmDeals', dealsWhere([{ field: 'dealStatus', operator: 'equals', value: 'Settled' }]));
		expect(result.error).toBeUndefined();
		const [request] = env.sandbox.apiRequests();
		expect(request.query.filter).toBe("equals(dealStatus,'Settled')");
		const items = jsonOf(result);
		const expected = [...storedDealStatuses()].filter(([, status]) => status === 'Settled').map(([id]) => id);
		expect(expected.length).toBeGreaterThan(0);
		expect(items.map((item) => item.id)).toEqual(expected);
	});

	it('"Is One Of" takes the dropdown\'s list and, as saved before the dropdown, comma-separated text', async () => {
		const picked = await env.run('loanCrmDeals', dealsWhere([{ field: 'dealStatus', operator: 'any', value: ['Lodged', 'PreApproved'] }]));
		const saved = await env.run('loanCrmDeals', dealsWhere([{ field: 'dealStatus', operator: 'any', value: 'Lodged, PreApproved' }]));
		const requests = env.sandbox.apiRequests();
		expect(requests.map((request) => request.query.filter)).toEqual([
			"any(dealStatus,'Lodged','PreApproved')",
			"any(dealStatus,'Lodged','PreApproved')",
		]);
		const expected = [...storedDealStatuses()].filter(([, status]) => status === 'Lodged' || status === 'PreApproved').map(([id]) => id);
		expect(jsonOf(picked).map((item) => item.id)).toEqual(expected);
		expect(jsonOf(saved).map((item) => item.id)).toEqual(expected);
	});

	it('true/false fields get a dropdown whose value is sent as the service expects', async () => {
		const result = await env.run('loanCrmContacts', {
			resource: 'contact',
			operation: 'getMany',
			limit: 5,
			options: { conditions: { condition: [{ field: 'hasMarketingConsent', operator: 'equals', value: 'true' }] } },
		});
		expect(result.error).toBeUndefined();
		expect(env.sandbox.apiRequests()[0].query.filter).toBe("equals(hasMarketingConsent,'true')");
		expect(jsonOf(result).length).toBeGreaterThan(0);
		expect(jsonOf(result).every((item) => item.hasMarketingConsent === true)).toBe(true);
	});

	it('a dropdown left without a choice stops before any request, naming the parameter as the user sees it', async () => {
		const result = await env.run('loanCrmDeals', dealsWhere([{ field: 'dealStatus', operator: 'equals' }]));
		expect(result.error?.message).toBe(
			'Parameter "Options → Conditions → Condition 1 → Value" needs a value: choose one of NewLeads, Researching, InProgress, PreApproved, Lodged, ConditionallyApproved, UnconditionallyApproved, PendingSettlement, Settled, Varied, Repaid, Withdrawn, Cancelled',
		);
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});

	it('"Is One Of" with nothing chosen names the Values dropdown', async () => {
		const result = await env.run('loanCrmDeals', dealsWhere([{ field: 'lenderName', value: 'ANZ' }, { field: 'dealType', operator: 'any', value: [] }]));
		expect(result.error?.message).toBe(
			'Parameter "Options → Conditions → Condition 2 → Values" needs a value: choose one of AssetFinance, Commercial, DepositBond, PersonalLoan, Residential, SmallBusiness',
		);
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});

	it('a list kept after switching the operator away from "Is One Of" is refused, not sent', async () => {
		const result = await env.run('loanCrmDeals', dealsWhere([{ field: 'dealStatus', operator: 'notEquals', value: ['Lodged', 'Settled'] }]));
		expect(result.error?.message).toBe(
			'Parameter "Options → Conditions → Condition 1 → Value" has 2 values; choose one, or use the operator "Is One Of"',
		);
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});

	it('text fields, dotted paths and fields given as expressions keep the text box', async () => {
		const byPath = await env.run('loanCrmDeals', {
			resource: 'dealExternalReference',
			operation: 'getMany',
			returnAll: true,
			options: {
				conditions: {
					condition: [
						{ field: '={{ "integration" + ".name" }}', operator: 'equals', value: 'MyIntegrationSource' },
						{ field: 'externalReference', operator: 'startsWith', value: 'ABC' },
					],
				},
			},
		});
		expect(byPath.error).toBeUndefined();
		expect(env.sandbox.apiRequests()[0].query.filter).toBe("and(equals(integration.name,'MyIntegrationSource'),startsWith(externalReference,'ABC'))");
		expect(jsonOf(byPath).map((item) => item.id)).toContain(ids().dealExternalReference);
	});

	it('a condition saved on customStatus.name (now listed once, as Custom Status Name) still runs as saved', async () => {
		const [withStatus] = env.sandbox.data.list('deals').filter((deal) => typeof deal.attributes.customStatusName === 'string');
		const name = String(withStatus.attributes.customStatusName);
		const result = await env.run('loanCrmDeals', dealsWhere([{ field: 'customStatus.name', value: name }]));
		expect(result.error).toBeUndefined();
		expect(env.sandbox.apiRequests()[0].query.filter).toBe(`equals(customStatus.name,'${name.replace(/'/g, "''")}')`);
		expect(jsonOf(result).length).toBeGreaterThan(0);
		expect(jsonOf(result).every((item) => item.customStatusName === name)).toBe(true);
	});

	it('the trigger uses the same builder, dotted paths included', async () => {
		const [deal] = env.sandbox.data.list('deals');
		const adviser = (deal.relationships.adviser as { id: string }).id;
		const result = await runPoll({
			nodeType: 'loanCrmTrigger',
			parameters: {
				event: 'dealUpdated',
				options: {
					dealConditions: {
						condition: [
							{ field: 'adviser.id', operator: 'equals', value: adviser },
							{ field: 'dealStatus', operator: 'any', value: ['Settled', 'Lodged'] },
						],
					},
				},
			},
			credentials: env.store,
			staticData: {},
			mode: 'manual',
		});
		const [request] = env.sandbox.apiRequests();
		expect(decodedQuery(request.rawQuery)).toContain(`filter=and(equals(adviser.id,'${adviser}'),any(dealStatus,'Settled','Lodged'))`);
		const items = (result?.[0] ?? []).map((item) => item.json);
		// Fetch Test Event: the newest matching record.
		expect(items).toHaveLength(1);
		for (const item of items) expect(['Settled', 'Lodged']).toContain(item.dealStatus);
	});

	it("the trigger's own Filter is named as the user sees it: a top-level Filter", async () => {
		await expect(
			runPoll({ nodeType: 'loanCrmTrigger', parameters: { event: 'dealCreated', filter: "equals(name,'open" }, credentials: env.store, staticData: {}, mode: 'trigger' }),
		).rejects.toThrow(/^Parameter "Filter" has a quoted value that is not closed/);
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});
});

describe('defaults: explicit, and nothing sent that nobody chose', () => {
	it('a Deals node with nothing set runs its stated default, Deal → Get Many with Limit 50', async () => {
		const result = await env.run('loanCrmDeals', {});
		expect(result.error).toBeUndefined();
		const requests = env.sandbox.apiRequests();
		expect(requests.map((request) => [request.method, request.path, decodedQuery(request.rawQuery)])).toEqual([['GET', '/jsonapi/deals', 'page[size]=50']]);
		expect(jsonOf(result)).toHaveLength(50);
	});

	it('Update Fields → Priority added but not chosen sends no priority', async () => {
		const result = await env.run('loanCrmLeadsAndTasks', {
			resource: 'task',
			operation: 'update',
			taskId: ids().task,
			updateFields: { priority: '', title: 'Call the valuer' },
		});
		expect(result.error).toBeUndefined();
		const [request] = env.sandbox.apiRequests();
		expect(request.json).toEqual({ data: { type: 'tasks', id: ids().task, attributes: { title: 'Call the valuer' } } });
	});

	it('Update Fields with only an unchosen enum sends nothing and says so', async () => {
		const result = await env.run('loanCrmDeals', {
			resource: 'dealStructure',
			operation: 'update',
			dealStructureId: ids().dealStructure,
			updateFields: { loanStructureType: '' },
		});
		expect(result.error?.message).toBe('Add at least one field under "Update Fields"');
		expect(env.sandbox.apiRequests()).toHaveLength(0);
	});
});
