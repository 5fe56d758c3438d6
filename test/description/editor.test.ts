/**
 * What the editor shows, checked on the descriptions with n8n's own display logic
 * (NodeHelpers.displayParameter / getNodeParameters from n8n-workflow): the one Conditions builder
 * and its value dropdowns, explicit defaults, option order, codex aliases and documentation links.
 *
 * The display checks run with every n8n-workflow copy at hand: the devDependency (n8n 2.41), the e2e
 * cache's n8n installs (n8n 2.30, and 1.123 once installed there), and any folder listed in
 * N8N_WORKFLOW_COPIES (colon-separated), e.g. an unpacked n8n-workflow 1.120 (n8n 1.123).
 */
import { existsSync, readFileSync, readdirSync } from 'fs';
import { homedir } from 'os';
import { join, resolve } from 'path';

import type { INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import * as installedWorkflow from 'n8n-workflow';

import { DEFAULTS as CONTACT_DEFAULTS, OPERATIONS as CONTACT_OPERATIONS } from '../../nodes/LoanCrmContacts/operations';
import { DEFAULTS as DEAL_DEFAULTS, OPERATIONS as DEAL_OPERATIONS } from '../../nodes/LoanCrmDeals/operations';
import { DEFAULTS as TASK_DEFAULTS, OPERATIONS as TASK_OPERATIONS } from '../../nodes/LoanCrmLeadsAndTasks/operations';
import { DEFAULTS as ASSET_DEFAULTS, OPERATIONS as ASSET_OPERATIONS } from '../../nodes/LoanCrmOrganisationsAndAssets/operations';
import { knownFieldValues } from '../../nodes/shared/description/conditions';
import { RESOURCE_TYPES } from '../../nodes/shared/service/schema';
import { REPO_ROOT, loadPackageSource } from '../../harness';
import { SYSTEM_STATUS } from '../../sandbox';

type NodeHelpersLike = Pick<typeof installedWorkflow.NodeHelpers, 'displayParameter' | 'getNodeParameters'>;

function workflowCopies(): Array<{ label: string; helpers: NodeHelpersLike }> {
	const copies: Array<{ label: string; helpers: NodeHelpersLike }> = [
		{ label: `n8n-workflow ${String((require('n8n-workflow/package.json') as { version: string }).version)} (devDependency)`, helpers: installedWorkflow.NodeHelpers },
	];
	const cache = process.env.LOAN_CRM_E2E_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'n8n-nodes-loan-crm-e2e');
	const folders = existsSync(cache)
		? readdirSync(cache)
				.filter((name) => /^n8n-\d+\.\d+\.\d+$/.test(name))
				.map((name) => join(cache, name, 'node_modules', 'n8n-workflow'))
		: [];
	folders.push(...(process.env.N8N_WORKFLOW_COPIES ?? '').split(':').filter((folder) => folder !== ''));
	for (const folder of folders) {
		if (!existsSync(join(folder, 'package.json'))) continue;
		const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string };
		let module: typeof installedWorkflow;
		try {
			module = require(folder) as typeof installedWorkflow;
		} catch {
			// An install still under way in the shared cache; the devDependency is always checked.
			continue;
		}
		copies.push({ label: `n8n-workflow ${version} (${folder})`, helpers: module.NodeHelpers });
	}
	return copies;
}

const source = loadPackageSource();
const descriptions = Object.fromEntries(source.nodes.map((node) => [node.name, node.type.description as INodeTypeDescription]));

/** Every Conditions parameter: node, where it is, the resource type its fields belong to. */
function conditionsParameters(): Array<{ where: string; property: INodeProperties; type: keyof typeof RESOURCE_TYPES }> {
	const found: Array<{ where: string; property: INodeProperties; type: keyof typeof RESOURCE_TYPES }> = [];
	const catalogues = { loanCrmDeals: DEAL_OPERATIONS, loanCrmContacts: CONTACT_OPERATIONS };
	for (const [nodeName, operations] of Object.entries(catalogues)) {
		for (const spec of operations.filter((entry) => entry.shape === 'getMany')) {
			const options = descriptions[nodeName].properties.find(
				(property) => property.name === 'options' && property.displayOptions?.show?.resource?.[0] === spec.resource && property.displayOptions?.show?.operation?.[0] === spec.operation,
			);
			const conditions = (options?.options as INodeProperties[] | undefined)?.find((option) => option.name === 'conditions');
			if (!conditions) throw new Error(`${nodeName} ${spec.resource}.${spec.operation} has no Conditions`);
			found.push({ where: `${nodeName} ${spec.resource}.${spec.operation}`, property: conditions, type: spec.type });
		}
	}
	const triggerOptions = descriptions.loanCrmTrigger.properties.find((property) => property.name === 'options');
	for (const [name, type] of [['dealConditions', 'deals'], ['contactConditions', 'contacts']] as const) {
		const property = (triggerOptions?.options as INodeProperties[]).find((option) => option.name === name);
		if (!property) throw new Error(`trigger has no ${name}`);
		found.push({ where: `loanCrmTrigger ${name}`, property, type });
	}
	return found;
}

function conditionValues(property: INodeProperties): INodeProperties[] {
	return ((property.options as INodePropertyCollection[])[0]).values;
}

const OPERATORS = ['contains', 'endsWith', 'equals', 'greaterThan', 'greaterOrEqual', 'isNull', 'isNotNull', 'any', 'lessThan', 'lessOrEqual', 'notEquals', 'startsWith'];

describe('one Conditions builder for Get Many and the trigger', () => {
	const all = conditionsParameters();

	it('is the same parameter wherever records of a type are searched, dotted paths included', () => {
		expect(all.map(({ where }) => where)).toEqual([
			'loanCrmDeals deal.getMany',
			'loanCrmDeals dealSecurity.getMany',
			'loanCrmDeals dealExternalReference.getMany',
			'loanCrmDeals income.getMany',
			'loanCrmContacts contact.getMany',
			'loanCrmTrigger dealConditions',
			'loanCrmTrigger contactConditions',
		]);
		const byType = (type: string) => all.filter((entry) => entry.type === type).map((entry) => conditionValues(entry.property));
		const [dealsGetMany, dealsTrigger] = byType('deals');
		expect(dealsTrigger).toEqual(dealsGetMany);
		const [contactsGetMany, contactsTrigger] = byType('contacts');
		expect(contactsTrigger).toEqual(contactsGetMany);
		const fieldValues = (values: INodeProperties[]) => (values[0].options as INodePropertyOptions[]).map((option) => option.value);
		expect(fieldValues(dealsTrigger)).toEqual(expect.arrayContaining(['adviser.id', 'customStatusName', 'dealStatus', 'id']));
		expect(fieldValues(contactsTrigger)).toContain('contactGroup.id');
		const references = all.find((entry) => entry.where === 'loanCrmDeals dealExternalReference.getMany');
		expect(fieldValues(conditionValues(references!.property))).toEqual(['deal.id', 'externalReference', 'id', 'integration.name']);
	});

	it('lists each field once, by a distinct label ("Custom Status Name" once)', () => {
		for (const { where, property } of all) {
			const labels = (conditionValues(property)[0].options as INodePropertyOptions[]).map((option) => option.name);
			expect({ where, duplicates: labels.filter((label, index) => labels.indexOf(label) !== index) }).toEqual({ where, duplicates: [] });
			expect({ where, sorted: labels }).toEqual({ where, sorted: [...labels].sort((a, b) => a.localeCompare(b)) });
		}
		const deals = all.find((entry) => entry.where === 'loanCrmDeals deal.getMany');
		const labels = (conditionValues(deals!.property)[0].options as INodePropertyOptions[]).map((option) => option.name);
		expect(labels.filter((label) => label === 'Custom Status Name')).toHaveLength(1);
	});

	describe.each(workflowCopies().map((copy) => [copy.label, copy.helpers] as const))('with %s', (_label, helpers) => {
		it('shows exactly one Value for every field and operator: a dropdown of its known values, else a text box', () => {
			for (const { where, property, type } of all) {
				const values = conditionValues(property);
				const fields = (values[0].options as INodePropertyOptions[]).map((option) => String(option.value));
				for (const field of [...fields, '={{ "integration.name" }}']) {
					for (const operator of [...OPERATORS, '={{ "equals" }}']) {
						const entry = { field, operator };
						const shown = values.filter((value) => value.name === 'value' && helpers.displayParameter(entry, value, null, null));
						const context = { where, field, operator };
						if (operator === 'isNull' || operator === 'isNotNull') {
							expect({ ...context, shown: shown.length }).toEqual({ ...context, shown: 0 });
							continue;
						}
						expect({ ...context, shown: shown.length }).toEqual({ ...context, shown: 1 });
						const known = field.startsWith('=') ? undefined : knownFieldValues(RESOURCE_TYPES[type], field);
						const expectedType = known === undefined ? 'string' : operator === 'any' ? 'multiOptions' : 'options';
						expect({ ...context, type: shown[0].type }).toEqual({ ...context, type: expectedType });
						if (known !== undefined) expect({ ...context, options: shown[0].options }).toEqual({ ...context, options: known });
					}
				}
			}
		});

		it('keeps what conditions saved before the dropdowns store, and what the dropdowns store', () => {
			const deals = all.find((entry) => entry.where === 'loanCrmDeals deal.getMany')!.property;
			const saved = {
				conditions: {
					condition: [
						{ field: 'dealStatus', value: 'Settled' },
						{ field: 'dealStatus', operator: 'any', value: 'Lodged,PreApproved' },
						{ field: 'dealStatus', operator: 'any', value: ['Lodged', 'PreApproved'] },
						{ field: 'lenderName', operator: 'startsWith', value: 'ANZ' },
						{ field: '={{ "customStatus.name" }}', value: 'Waiting' },
						{ field: 'customStatus.name', value: 'Waiting' },
						{ field: 'dealType', operator: 'isNull', value: 'Residential' },
						{},
					],
				},
			};
			const resolved = helpers.getNodeParameters([deals], saved, true, false, null, null);
			expect(resolved).toEqual({
				conditions: {
					condition: [
						{ field: 'dealStatus', operator: 'equals', value: 'Settled' },
						{ field: 'dealStatus', operator: 'any', value: 'Lodged,PreApproved' },
						{ field: 'dealStatus', operator: 'any', value: ['Lodged', 'PreApproved'] },
						{ field: 'lenderName', operator: 'startsWith', value: 'ANZ' },
						{ field: '={{ "customStatus.name" }}', operator: 'equals', value: 'Waiting' },
						// No longer in the list (it duplicated Custom Status Name) but still sent as saved.
						{ field: 'customStatus.name', operator: 'equals', value: 'Waiting' },
						{ field: 'dealType', operator: 'isNull' },
						{ field: 'id', operator: 'equals', value: '' },
					],
				},
			});
		});
	});
});

describe('defaults are explicit and send nothing nobody chose', () => {
	const catalogues = [
		{ node: 'loanCrmDeals', operations: DEAL_OPERATIONS, defaults: DEAL_DEFAULTS },
		{ node: 'loanCrmContacts', operations: CONTACT_OPERATIONS, defaults: CONTACT_DEFAULTS },
		{ node: 'loanCrmLeadsAndTasks', operations: TASK_OPERATIONS, defaults: TASK_DEFAULTS },
		{ node: 'loanCrmOrganisationsAndAssets', operations: ASSET_OPERATIONS, defaults: ASSET_DEFAULTS },
	];

	it('resource and operation defaults are the stated ones, which are what saved workflows already run', () => {
		expect(catalogues.map(({ defaults }) => defaults)).toEqual([
			{
				resource: 'deal',
				operations: {
					customStatus: 'get',
					deal: 'getMany',
					dealExternalReference: 'getMany',
					dealNote: 'getMany',
					dealSecurity: 'getMany',
					dealStructure: 'getDeal',
					income: 'getMany',
				},
			},
			{ resource: 'contact', operations: { contact: 'getMany', contactCategory: 'update', contactExternalReference: 'getContact' } },
			{ resource: 'lead', operations: { lead: 'get', task: 'update' } },
			{ resource: 'organisation', operations: { asset: 'getAddresses', organisation: 'getAddresses' } },
		]);
		for (const { node, operations, defaults } of catalogues) {
			const properties = descriptions[node].properties;
			expect(properties.find((property) => property.name === 'resource')?.default).toBe(defaults.resource);
			for (const resource of new Set(operations.map((spec) => spec.resource))) {
				const selector = properties.find((property) => property.name === 'operation' && property.displayOptions?.show?.resource?.[0] === resource);
				expect({ resource, default: selector?.default }).toEqual({ resource, default: defaults.operations[resource] });
			}
		}
	});

	it('no dropdown among create and update fields starts on a value', () => {
		const enumFields: string[] = [];
		for (const { node } of catalogues) {
			for (const property of descriptions[node].properties.filter((entry) => entry.name === 'updateFields' || entry.name === 'additionalFields')) {
				for (const field of property.options as INodeProperties[]) {
					if (field.type !== 'options') continue;
					enumFields.push(`${node} ${field.name}`);
					expect({ node, field: field.name, default: field.default }).toEqual({ node, field: field.name, default: '' });
				}
			}
		}
		expect(enumFields.sort()).toEqual([
			'loanCrmContacts gender',
			'loanCrmContacts maritalStatus',
			'loanCrmContacts role',
			'loanCrmDeals loanStructureType',
			'loanCrmDeals repaymentFrequency',
			'loanCrmLeadsAndTasks priority',
			'loanCrmLeadsAndTasks progress',
		]);
	});

	it('orders values by meaning where there is one (urgency, progress, period), else alphabetically', () => {
		const field = (node: string, name: string) =>
			(
				descriptions[node].properties
					.filter((entry) => entry.name === 'updateFields' || entry.name === 'additionalFields')
					.flatMap((entry) => entry.options as INodeProperties[])
					.find((entry) => entry.name === name)?.options as INodePropertyOptions[]
			).map((option) => option.value);
		expect(field('loanCrmLeadsAndTasks', 'priority')).toEqual(['Critical', 'High', 'Medium', 'Normal']);
		expect(field('loanCrmLeadsAndTasks', 'progress')).toEqual(['NotStarted', 'InProgress', 'OnHold', 'Completed', 'NotRequired']);
		expect(field('loanCrmDeals', 'repaymentFrequency')).toEqual(['Weekly', 'Fortnightly', 'HalfMonthly', 'Monthly', 'Quarterly', 'HalfYearly', 'Yearly']);
		expect(field('loanCrmDeals', 'loanStructureType')).toEqual(['InterestOnly', 'Offset', 'PrincipalInterest', 'RevolvingCredit']);
		expect(field('loanCrmContacts', 'maritalStatus')).toEqual(['DeFacto', 'Divorced', 'Married', 'Separated', 'Single', 'Widowed']);
		expect(knownFieldValues(RESOURCE_TYPES.deals, 'dealStatus')?.map((option) => option.value)).toEqual([...RESOURCE_TYPES.deals.attributes.dealStatus.values]);
	});

	it('lists deal statuses in one order, the lending pipeline, in the package and in the sandbox', () => {
		const pipeline = ['NewLeads', 'Researching', 'InProgress', 'PreApproved', 'Lodged', 'ConditionallyApproved', 'UnconditionallyApproved', 'PendingSettlement', 'Settled', 'Varied', 'Repaid', 'Withdrawn', 'Cancelled'];
		expect([...RESOURCE_TYPES.deals.attributes.dealStatus.values]).toEqual(pipeline);
		expect([...RESOURCE_TYPES.leads.attributes.dealStatus.values]).toEqual(pipeline);
		// The sandbox is written from the contract, not from nodes/; its table must still agree.
		expect([...SYSTEM_STATUS]).toEqual(pipeline);
	});
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function githubSlug(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

describe('nodes panel and documentation', () => {
	const codex = (name: string) => {
		const node = source.nodes.find((entry) => entry.name === name)!;
		return JSON.parse(readFileSync(node.sourcePath.replace(/\.ts$/, '.json'), 'utf8')) as {
			alias: string[];
			resources: Record<string, Array<{ url: string }>>;
		};
	};

	it('the nodes panel finds each resource by the words users type', () => {
		const expected: Record<string, string[]> = {
			loanCrmDeals: ['deal', 'deal note', 'income'],
			loanCrmContacts: ['contact'],
			loanCrmLeadsAndTasks: ['lead', 'task'],
			loanCrmOrganisationsAndAssets: ['organisation', 'asset', 'address'],
			loanCrmTrigger: ['deal', 'contact'],
		};
		for (const [name, words] of Object.entries(expected)) {
			expect({ name, alias: codex(name).alias }).toEqual({ name, alias: expect.arrayContaining(words) });
		}
	});

	it('every documentation link points at a heading that exists in the README', () => {
		const readme = readFileSync(resolve(REPO_ROOT, 'README.md'), 'utf8');
		const anchors = new Set([...readme.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => githubSlug(match[1])));
		const links = source.nodes.flatMap((node) => Object.values(codex(node.name).resources).flat().map((link) => ({ node: node.name, url: link.url })));
		expect(links).toHaveLength(10);
		for (const { node, url } of links) {
			const anchor = url.split('#')[1];
			expect({ node, url, resolves: anchors.has(anchor) }).toEqual({ node, url, resolves: true });
		}
	});

	it("the trigger's name in the nodes panel (n8n drops \" Trigger\") still says what it is", () => {
		const { displayName, defaults } = descriptions.loanCrmTrigger;
		// What n8n's node creator shows for a trigger with events (NodeCreator: displayName.replace(' Trigger', '')).
		expect(displayName.replace(' Trigger', '')).toBe('Loan CRM Deals & Contacts');
		// Workflows keep the node name they had.
		expect(defaults.name).toBe('Loan CRM Trigger');
	});
});
