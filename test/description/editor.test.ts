/**
 * What the editor shows, checked on the descriptions with n8n's own display logic
 * (NodeHelpers.displayParameter / getNodeParameters from n8n-workflow): the one Conditions builder
 * and its value dropdowns, explicit defaults, option order, codex aliases and documentation links.
 *
 * The display checks run with every n8n-workflow copy at hand: the devDependency (n8n 2.41), the e2e
 * cache's n8n installs (n8n 2.30, and 1.123 once installed there), and any folder listed in
 * N8N_WORKFLOW_COPIES (colon-separated), e.g. an unpacked n8n-workflow 1.120 (n8n 1.123).
 */
import { readFileSync } from 'fs';
import { resolve } from 'path';

import { Workflow } from 'n8n-workflow';
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { DEFAULTS as CONTACT_DEFAULTS, OPERATIONS as CONTACT_OPERATIONS } from '../../nodes/LoanCrmContacts/operations';
import { DEFAULTS as DEAL_DEFAULTS, OPERATIONS as DEAL_OPERATIONS } from '../../nodes/LoanCrmDeals/operations';
import { DEFAULTS as TASK_DEFAULTS, OPERATIONS as TASK_OPERATIONS } from '../../nodes/LoanCrmLeadsAndTasks/operations';
import { DEFAULTS as ASSET_DEFAULTS, OPERATIONS as ASSET_OPERATIONS } from '../../nodes/LoanCrmOrganisationsAndAssets/operations';
import { knownFieldValues } from '../../nodes/shared/description/conditions';
import { RESOURCE_TYPES } from '../../nodes/shared/service/schema';
import { README_URL } from '../../nodes/shared/description/documentation';
import { REPO_ROOT, loadPackageSource } from '../../harness';
import { workflowCopies } from './n8nCopies';
import { SYSTEM_STATUS } from '../../sandbox';

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
			{ resource: 'lead', operations: { lead: 'get', structuredLead: 'create', task: 'update' } },
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
		// Each collection comes once per version and variant that differ (description/versions.ts).
		expect([...new Set(enumFields)].sort()).toEqual([
			'loanCrmContacts gender',
			'loanCrmContacts maritalStatus',
			'loanCrmContacts role',
			'loanCrmDeals loanStructureType',
			'loanCrmDeals repaymentFrequency',
			'loanCrmLeadsAndTasks addressType',
			'loanCrmLeadsAndTasks gender',
			'loanCrmLeadsAndTasks maritalStatus',
			'loanCrmLeadsAndTasks priority',
			'loanCrmLeadsAndTasks progress',
			'loanCrmLeadsAndTasks title',
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
			loanCrmDealsTrigger: ['deal', 'deal settled'],
			loanCrmContactsTrigger: ['contact'],
		};
		for (const [name, words] of Object.entries(expected)) {
			expect({ name, alias: codex(name).alias }).toEqual({ name, alias: expect.arrayContaining(words) });
		}
	});

	it("every node's Docs link opens a README heading that exists; the codex fallback has no anchor", () => {
		const readme = readFileSync(resolve(REPO_ROOT, 'README.md'), 'utf8');
		const anchors = new Set([...readme.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => githubSlug(match[1])));
		const opened = (url: string | undefined) => /^https:\/\/github\.com\/loan-crm\/n8n-nodes-loan-crm#(.+)$/.exec(url ?? '')?.[1];
		// Every node the package lists, also triggers added later.
		expect(source.nodes.length).toBeGreaterThanOrEqual(5);
		for (const node of source.nodes) {
			// n8n opens a node description's documentationUrl as it is (an http URL).
			const anchor = opened(descriptions[node.name].documentationUrl);
			expect({ node: node.name, anchor, resolves: anchor !== undefined && anchors.has(anchor) }).toEqual({ node: node.name, anchor, resolves: true });
			// n8n appends "?utm_…" to the codex URL as text: after an anchor it would break it.
			const { primaryDocumentation, credentialDocumentation } = codex(node.name).resources;
			expect(primaryDocumentation).toEqual([{ url: README_URL }]);
			const credentialAnchor = opened(credentialDocumentation[0].url);
			expect({ node: node.name, credentialAnchor, resolves: anchors.has(credentialAnchor ?? '') }).toEqual({ node: node.name, credentialAnchor, resolves: true });
		}
		const credentialAnchor = opened(source.credentials[0].type.documentationUrl);
		expect({ credentialAnchor, resolves: anchors.has(credentialAnchor ?? '') }).toEqual({ credentialAnchor, resolves: true });
	});

	/**
	 * The nodes panel's search (n8n 1.123, 2.30, 2.41: searchNodes → sublimeSearch over displayName and
	 * each codex alias) finds an entry only when the whole typed text, lower-cased and without a last
	 * word that starts "trigger", is a character subsequence of its displayName or of one alias. Action
	 * names are not searched at the root, hence every action in the aliases.
	 */
	const findable = (typed: string, target: string) => {
		const words = typed.split(' ');
		const query = (words.length > 1 && 'trigger'.startsWith(words[words.length - 1].toLowerCase()) ? words.slice(0, -1).join(' ') : typed).toLowerCase();
		const isSubsequence = (text: string) => {
			let next = 0;
			for (const char of text.toLowerCase()) if (char === query[next]) next += 1;
			return next === query.length;
		};
		return isSubsequence(target);
	};
	const panelEntries = (name: string) => [descriptions[name].displayName, ...codex(name).alias];
	const ACTION_CATALOGUES = { loanCrmDeals: DEAL_OPERATIONS, loanCrmContacts: CONTACT_OPERATIONS, loanCrmLeadsAndTasks: TASK_OPERATIONS, loanCrmOrganisationsAndAssets: ASSET_OPERATIONS };

	it('the nodes panel finds every action by its name ("get many deals", "update a task")', () => {
		let checked = 0;
		for (const [name, operations] of Object.entries(ACTION_CATALOGUES)) {
			for (const spec of operations) {
				checked += 1;
				expect({ name, action: spec.action, found: panelEntries(name).some((entry) => findable(spec.action, entry)) }).toEqual({ name, action: spec.action, found: true });
			}
		}
		expect(checked).toBe(28);
	});

	it('common phrasings find the right node, and only ours that fit', () => {
		const phrasings: Record<string, string[]> = {
			loanCrmDeals: ['get deals', 'list deals', 'search deals', 'find deal', 'get deal', 'delete note', 'deal settled', 'deal status changed', 'new deal'],
			loanCrmContacts: ['create contact', 'new contact', 'add contact', 'find contact', 'get many contacts'],
			loanCrmLeadsAndTasks: ['update task', 'complete task', 'get lead', 'create lead', 'lead capture'],
			loanCrmOrganisationsAndAssets: ['organisation address', 'organization address', 'asset address'],
		};
		for (const [name, typed] of Object.entries(phrasings)) {
			for (const text of typed) {
				const found = Object.keys(ACTION_CATALOGUES).filter((candidate) => panelEntries(candidate).some((entry) => findable(text, entry)));
				expect({ text, found }).toEqual({ text, found: [name] });
			}
		}
	});

	it("aliases stay short words, so other nodes' names do not find ours", () => {
		// Typed names of popular n8n nodes: none of them may be a subsequence of our aliases (a weak,
		// scattered match still lists a node, at the bottom). "set", "code", "html", "chat", "ssh",
		// "sort", "rss", "notion", "asana" and "merge" do, low in the list (checked with n8n's scoring on
		// 1.123 and 2.30: below the node of that name).
		const popular = ['slack', 'gmail', 'google sheets', 'http request', 'webhook', 'schedule', 'postgres', 'telegram', 'openai', 'agent', 'filter', 'if', 'wait', 'hubspot', 'salesforce', 'edit fields', 'send email', 'airtable', 'switch', 'split out', 'aggregate', 'discord', 'github', 'mysql'];
		for (const name of [...Object.keys(ACTION_CATALOGUES), 'loanCrmTrigger']) {
			const matched = popular.filter((typed) => panelEntries(name).some((entry) => findable(typed, entry)));
			expect({ name, matched }).toEqual({ name, matched: [] });
			for (const alias of codex(name).alias) expect({ name, alias, words: alias.split(' ').length <= 7 }).toEqual({ name, alias, words: true });
		}
	});

	it('one name per trigger wherever n8n shows it, found inside the action node it belongs to', () => {
		for (const [trigger, app, name] of [
			['loanCrmDealsTrigger', 'loanCrmDeals', 'Loan CRM Deals Trigger'],
			['loanCrmContactsTrigger', 'loanCrmContacts', 'Loan CRM Contacts Trigger'],
		] as const) {
			const description = descriptions[trigger];
			// The canvas (defaults.name), the node's details (displayName) and the type say the same.
			expect([description.displayName, description.defaults.name]).toEqual([name, name]);
			// n8n's nodes panel merges a trigger into the action node whose type name is its own minus
			// "Trigger" (generateMergedNodesAndActions): "Loan CRM Deals" lists its triggers.
			expect(trigger.replace('Trigger', '')).toBe(app);
			expect(descriptions[app].displayName).toBe(name.replace(' Trigger', ''));
			// Listed (not hidden), one test button (no trigger panel), the publish dialog's own words.
			expect(description.hidden).toBeUndefined();
			expect(description.triggerPanel).toBe(false);
			expect(description.activationMessage).toMatch(/^Your workflow will now check Loan CRM for (deal|contact) changes/);
			const events = description.properties.find((property) => property.name === 'event')?.options as INodePropertyOptions[];
			expect(events.length).toBeGreaterThan(1);
			for (const event of events) expect(event.action).toMatch(/^On (new|deal|contact) /);
		}
		// The first trigger type stays for saved workflows, out of the panel, named as its canvas node.
		const legacy = descriptions.loanCrmTrigger;
		expect(legacy.hidden).toBe(true);
		expect([legacy.displayName, legacy.defaults.name]).toEqual(['Loan CRM Trigger', 'Loan CRM Trigger']);
	});

	it("each trigger's canvas subtitle is the chosen event's name, worked out by n8n's expression engine", () => {
		for (const name of ['loanCrmTrigger', 'loanCrmDealsTrigger', 'loanCrmContactsTrigger']) {
			const { subtitle, properties } = descriptions[name];
			const events = properties.find((property) => property.name === 'event')?.options as INodePropertyOptions[];
			expect(events.length).toBeGreaterThan(1);
			for (const event of events) {
				const workflow = new Workflow({
					nodes: [{ id: '1', name: 'Trigger', type: `n8n-nodes-loan-crm.${name}`, typeVersion: 1, position: [0, 0], parameters: { event: event.value } }],
					connections: {},
					active: false,
					nodeTypes: { getByName: () => undefined, getByNameAndVersion: () => undefined, getKnownTypes: () => ({}) } as never,
				});
				const shown = workflow.expression.getSimpleParameterValue(workflow.getNode('Trigger')!, subtitle as string, 'internal', {});
				expect({ name, event: event.value, shown }).toEqual({ name, event: event.value, shown: event.name });
			}
		}
	});
});
