/**
 * The agent helpers on their own: compact records, filter syntax answers, tool descriptions and
 * arguments per shape, parameters per version, record summaries.
 */
import type { INode, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { OPERATIONS as CONTACT_SPECS } from '../../nodes/LoanCrmContacts/operations';
import { OPERATIONS as DEAL_SPECS } from '../../nodes/LoanCrmDeals/operations';
import { OPERATIONS as TASK_SPECS } from '../../nodes/LoanCrmLeadsAndTasks/operations';
import { OPERATIONS as ASSET_SPECS } from '../../nodes/LoanCrmOrganisationsAndAssets/operations';
import { AGENT_DEFAULT_LIMIT, fromAIExpression, toolArgumentKey, toolArguments } from '../../nodes/shared/description/toolArguments';
import { agentProperties, toolDescriptionOf, toolDescriptionV1 } from '../../nodes/shared/description/toolDescription';
import { typeWords } from '../../nodes/shared/description/typeWords';
import { forVersions } from '../../nodes/shared/description/versions';
import { compactRecord } from '../../nodes/shared/execution/toolOutput';
import { checkFilterSyntax } from '../../nodes/shared/input/filterSyntax';
import type { Operation } from '../../nodes/shared/operation/operation';
import { operationAt, resolveOperations } from '../../nodes/shared/operation/operation';
import { NODE_VERSIONS } from '../../nodes/shared/service/versions';
import { RESOURCE_TYPES } from '../../nodes/shared/service/schema';
import { summarize } from '../../nodes/shared/service/summary';
import { DEAL_SUMMARY_COLUMNS } from '../../harness/operation-examples';

const CONTACT_OPERATIONS = resolveOperations(CONTACT_SPECS);
const DEAL_OPERATIONS = resolveOperations(DEAL_SPECS);
const TASK_OPERATIONS = resolveOperations(TASK_SPECS);
const ASSET_OPERATIONS = resolveOperations(ASSET_SPECS);

const ALL_OPERATIONS: readonly Operation[] = [...DEAL_OPERATIONS, ...CONTACT_OPERATIONS, ...TASK_OPERATIONS, ...ASSET_OPERATIONS];
const opName = (spec: Operation) => `${spec.resource}.${spec.operation}`;

const node = { name: 'Loan CRM Deals', type: 'n8n-nodes-loan-crm.loanCrmDeals' } as INode;
const deals = RESOURCE_TYPES.deals;

describe('compactRecord', () => {
	it('leaves out null members, empty objects and empty lists at every depth; keeps 0, false and empty text', () => {
		expect(
			compactRecord({
				id: '1',
				lenderName: null,
				dates: { settled: null, lodged: '2026-01-02', approved: null },
				opportunity: { notes: null },
				splits: [],
				contacts: [{ id: '7', middle: null }, null, {}],
				amount: 0,
				isPrimary: false,
				title: '',
			}),
		).toEqual({ id: '1', dates: { lodged: '2026-01-02' }, contacts: [{ id: '7' }], amount: 0, isPrimary: false, title: '' });
	});
});

describe('checkFilterSyntax', () => {
	const check = (expression: string) => () => checkFilterSyntax(node, 'Options → Filter', 'deals', deals, expression);

	it.each([
		"equals(dealStatus,'Settled')",
		"equals(name,'a=b<c>d')",
		"equals(lastName,'O''Connor')",
		"and(greaterOrEqual(updated,'2026-11-01'),not(equals(lenderName,null)))",
		"has(ownership,any(contact.id,'1001','1002'))",
	])('lets %s through', (expression) => {
		expect(check(expression)).not.toThrow();
	});

	it.each([
		["dealStatus='Settled'", "write equals(dealStatus,'Settled') instead of dealStatus='Settled'"],
		['dealStatus=="Settled"', "write equals(dealStatus,'Settled') instead of"],
		["dealStatus!='Lodged'", "uses the operator !=; the service only understands functions: write not(equals(dealStatus,'Lodged'))"],
		['totalLoanAmount>=500000', "write greaterOrEqual(totalLoanAmount,'500000')"],
		["updated<'2026-01-01'", "write lessThan(updated,'2026-01-01')"],
		["(equals(dealStatus,'Settled'))", "must start with a function such as equals(field,'value'); got (equals(dealStatus,'Settled'))"],
	])('answers %s with the function to write', (expression, expected) => {
		expect(check(expression)).toThrow(expected);
		expect(check(expression)).toThrow(/Fields of deals: id, created, updated, name, dealStatus, dealType, totalLoanAmount, lenderName, customStatusName; through relationships: adviser\.id\.$/);
	});
});

describe('tool properties and descriptions', () => {
	it('one Tool Description per operation and run of versions with the same text, shown only on the tool, defaulting to its text; Output only on a version 1 tool', () => {
		const properties = agentProperties(DEAL_OPERATIONS);
		const descriptions = properties.filter((property) => property.name === 'toolDescription');
		// Version 1's, and one from 1.1 on; a third where 1.2 says more (a create names the records it required).
		expect(descriptions).toHaveLength(2 * DEAL_OPERATIONS.length + 2);
		for (const spec of DEAL_OPERATIONS) {
			const mine = descriptions.filter((property) => property.displayOptions?.show?.resource?.[0] === spec.resource && property.displayOptions?.show?.operation?.[0] === spec.operation);
			for (const version of NODE_VERSIONS) {
				const shown = mine.filter((property) => NodeHelpers.checkConditions(property.displayOptions?.show?.['@version'] as Parameters<typeof NodeHelpers.checkConditions>[0], [version]));
				expect({ op: opName(spec), version, copies: shown.length }).toEqual({ op: opName(spec), version, copies: 1 });
				const form = operationAt(spec, version);
				expect(shown[0].default).toBe(version === 1 ? toolDescriptionV1(form) : toolDescriptionOf(form));
				expect(shown[0].displayOptions?.show?.['@tool']).toEqual([true]);
			}
			expect(mine[0].displayOptions).toEqual({ show: { '@tool': [true], '@version': [1], resource: [spec.resource], operation: [spec.operation] } });
		}
		const output = properties.find((property) => property.name === 'agentOutput');
		expect([output?.default, output?.displayOptions]).toEqual(['compact', { show: { '@tool': [true], '@version': [1] } }]);
	});

	it('version 1: a create that can look first says what If Already Exists does, in the parameter and value names; others do not mention it', () => {
		const contactCreate = CONTACT_OPERATIONS.find((spec) => spec.resource === 'contact' && spec.operation === 'create');
		expect(contactCreate && toolDescriptionV1(contactCreate)).toContain(
			'When a contact with the same email already exists (case does not matter), ifAlreadyExists decides: createAnother (default) creates one more; returnExisting creates only if none exists, else returns the existing contact unchanged (the oldest, with matchCount); stopWithError creates only if none exists, else fails naming its ID. Except with createAnother, the result has outcome: created or found.',
		);
		const referenceCreate = DEAL_OPERATIONS.find((spec) => spec.resource === 'dealExternalReference' && spec.operation === 'create');
		expect(referenceCreate && toolDescriptionV1(referenceCreate)).toContain('When a deal external reference with the same deal, integration and external reference already exists');
		const others = [...DEAL_OPERATIONS, ...CONTACT_OPERATIONS].filter((spec) => spec !== contactCreate && spec !== referenceCreate);
		expect(others.length).toBeGreaterThan(10);
		for (const spec of others) expect(toolDescriptionV1(spec)).not.toContain('ifAlreadyExists');
	});

	it('version 1.1: a create that can look first takes If_Already_Exists as an optional argument (default createAnother) and says what it does', () => {
		const contactCreate = CONTACT_OPERATIONS.find((spec) => spec.resource === 'contact' && spec.operation === 'create');
		expect(contactCreate).toBeDefined();
		const argument = toolArguments(contactCreate as Operation).find((entry) => entry.key === 'If_Already_Exists');
		expect(argument).toMatchObject({ path: ['ifAlreadyExists'], type: 'string', default: 'createAnother' });
		expect(toolDescriptionOf(contactCreate as Operation)).toContain('When a contact with the same email already exists (case does not matter), If_Already_Exists decides: createAnother (default)');
		const others = [...DEAL_OPERATIONS, ...CONTACT_OPERATIONS].filter((spec) => spec.matchExistingBy === undefined);
		expect(others.length).toBeGreaterThan(10);
		for (const spec of others) expect(toolArguments(spec).some((entry) => entry.key === 'If_Already_Exists')).toBe(false);
	});

	it('version 1 texts: a create says what is required; a delete warns', () => {
		const create = CONTACT_OPERATIONS.find((spec) => spec.shape === 'create');
		expect(create && toolDescriptionV1(create)).toMatch(/Optional fields: .*gender \(one of Male, Female, Undisclosed\).*contactGroupId \(ID of the contact group .*, a whole number\)\./);
		const remove = DEAL_OPERATIONS.find((spec) => spec.shape === 'delete');
		expect(remove && toolDescriptionV1(remove)).toBe(
			'Delete a deal note in Loan CRM: delete a note from a deal permanently. Needs dealNoteId (ID of the deal note to delete, a whole number). Permanent: only call it when the user asked to delete this record.',
		);
	});

	it('version 1.1 texts name every argument the tool has, by its key, and no other', () => {
		expect(ALL_OPERATIONS.length).toBe(28);
		for (const spec of ALL_OPERATIONS) {
			const text = toolDescriptionOf(spec);
			const keys = toolArguments(spec).map((entry) => entry.key);
			const sentences = [...text.matchAll(/(?:Required|Optional) arguments[^:]*: (.*?)\)\.(?= |$)/g)].map((match) => `${match[1]})`);
			const named = sentences.flatMap((sentence) => sentence.split('; ').map((part) => part.split(' (')[0]));
			expect({ op: opName(spec), named }).toEqual({ op: opName(spec), named: keys });
		}
		const remove = DEAL_OPERATIONS.find((spec) => spec.shape === 'delete');
		expect(remove && toolDescriptionOf(remove)).toBe(
			'Delete a deal note in Loan CRM: delete a note from a deal permanently. Required arguments: Deal_Note_ID (its ID, a whole number). Permanent: only call it when the user asked to delete this record.',
		);
		const create = CONTACT_OPERATIONS.find((spec) => spec.shape === 'create') as Operation;
		// Version 1.1 names the fields in the table's order; 1.2 its key fields first, as the editor shows them.
		expect(toolDescriptionOf(operationAt(create, 1.1))).toContain('Optional arguments (numbers and true/false as text): Title (text); First_Name (text);');
		expect(toolDescriptionOf(create)).toContain('Optional arguments (numbers and true/false as text): Email (text); First_Name (text); Last_Name (text); Title (text);');
		expect(toolDescriptionOf(create)).toContain('Gender (one of Male, Female, Undisclosed);');
	});

	it('type words: lists are lists, objects name their members, rates are fractions, written date-times carry a zone', () => {
		const deals = RESOURCE_TYPES.deals.attributes;
		expect(typeWords(deals.splits, 'read')).toMatch(/^list of objects, each with loanTermYears \(number\), .*interestRate \(number, a decimal fraction: 0\.055 means 5\.5%\), .*repaymentHolidayEndDate \(date YYYY-MM-DD\)$/);
		expect(typeWords(deals.dates, 'read')).toBe(
			'object with settled, lodged, financeClause, notProceeding, approved, preApproved, conditionallyApproved, preApprovedExpiry, estimatedSettled (date YYYY-MM-DD, each)',
		);
		expect(typeWords(deals.opportunity, 'read')).toBe('object with proposedLoanAmount (number), securityAmount (number), summaryNotes (text), loanPurpose (text)');
		expect(typeWords(RESOURCE_TYPES['deal-structures'].attributes.interestRate, 'write')).toBe('number, a decimal fraction: 0.055 means 5.5%');
		expect(typeWords(RESOURCE_TYPES.tasks.attributes.dueDate, 'write')).toBe('date-time, ISO 8601 with its offset or Z, e.g. 2026-11-21T09:30:00+10:00');
		expect(typeWords(deals.updated, 'read')).toBe('date-time, ISO 8601 UTC');
	});
});

describe('tool arguments (version 1.1)', () => {
	it("use the editor's key for each parameter: its display name with _ for other characters", () => {
		expect(['Limit', 'Task ID', 'Due Date', 'Capitalise LMI', 'Deal', 'Contact Group IDs'].map(toolArgumentKey)).toEqual([
			'Limit',
			'Task_ID',
			'Due_Date',
			'Capitalise_LMI',
			'Deal',
			'Contact_Group_IDs',
		]);
		for (const spec of ALL_OPERATIONS) {
			const keys = toolArguments(spec).map((entry) => entry.key);
			// n8n-core rejects two $fromAI calls with one key but different descriptions.
			expect({ op: opName(spec), duplicates: keys.filter((key, index) => keys.indexOf(key) !== index) }).toEqual({ op: opName(spec), duplicates: [] });
			for (const entry of toolArguments(spec)) expect(entry.key).toBe(toolArgumentKey(entry.displayName));
		}
	});

	it("IDs and required fields are required; everything optional has a default ('' sends nothing)", () => {
		const byOp = Object.fromEntries(ALL_OPERATIONS.map((spec) => [opName(spec), toolArguments(spec)]));
		const summary = (op: string) => byOp[op].map((entry) => `${entry.key}:${entry.type}${entry.default === undefined ? '!' : `=${JSON.stringify(entry.default)}`}`);
		expect(summary('deal.getMany')).toEqual(['Filter:string=""', 'Sort:string=""', `Limit:number=${AGENT_DEFAULT_LIMIT}`, 'Fields:string=""']);
		expect(summary('deal.get')).toEqual(['Deal:number!', 'Fields:string=""']);
		expect(summary('dealNote.getMany')).toEqual(['Deal:number!']);
		expect(summary('dealNote.delete')).toEqual(['Deal_Note_ID:number!']);
		expect(summary('dealExternalReference.create')).toEqual(['External_Reference:string!', 'Integration_ID:number!', 'Deal:number!', 'If_Already_Exists:string="createAnother"']);
		expect(summary('contactCategory.update')).toEqual(['Contact_Category_ID:number!', 'Name:string!']);
		expect(summary('task.update')).toEqual([
			'Task_ID:number!',
			...['Title', 'Detail', 'Progress', 'Priority', 'Due_Date', 'Assignee_ID', 'Residential_Deal', 'Contact_Group_IDs', 'Asset_Finance_Diversified_Deal', 'Commercial_Finance_Diversified_Deal'].map((key) => `${key}:string=""`),
		]);
		expect(byOp['task.update'].map((entry) => entry.path.join('.'))).toEqual([
			'taskId',
			...['title', 'detail', 'progress', 'priority', 'dueDate', 'assigneeId', 'residentialDealId', 'contactGroupIds', 'assetFinanceDiversifiedDealId', 'commercialFinanceDiversifiedDealId'].map((name) => `updateFields.${name}`),
		]);
	});

	it("are written in n8n's override format, with a quote the description does not contain", () => {
		const [filter, , limit] = toolArguments(DEAL_OPERATIONS[0]);
		expect(fromAIExpression(limit)).toBe(
			"={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('Limit', `How many records to return at most (default 10); ask for more only when needed.`, 'number', 10) }}",
		);
		expect(fromAIExpression(filter)).toMatch(/^=\{\{ \/\*n8n-auto-generated-fromAI-override\*\/ \$fromAI\('Filter', `Filter in the service's function syntax .*`, 'string', ''\) \}\}$/);
		expect(fromAIExpression({ ...filter, description: 'Has `ticks` and "quotes"' })).toContain(`$fromAI('Filter', 'Has \`ticks\` and "quotes"', 'string', '')`.replace('\\`', '`'));
		expect(fromAIExpression({ ...filter, description: 'Has `ticks`' })).toContain(`$fromAI('Filter', "Has \`ticks\`", 'string', '')`.replace(/\\`/g, '`'));
		for (const spec of ALL_OPERATIONS) {
			for (const entry of toolArguments(spec)) expect({ key: entry.key, description: entry.description }).toEqual({ key: entry.key, description: expect.not.stringMatching(/[`\\]/) });
		}
	});
});

describe('parameters per version (forVersions)', () => {
	const limit: INodeProperties = { displayName: 'Limit', name: 'limit', type: 'number', default: 50, displayOptions: { show: { resource: ['deal'] } } };
	const show = (property: INodeProperties) => property.displayOptions?.show;

	it('nothing differs: one parameter for every version and variant', () => {
		expect(forVersions(limit, {})).toEqual([limit]);
	});

	it("the Limit: the plain node's (50) in every version, 10 on a version 1 tool, the model's on a version 1.1 tool", () => {
		const copies = forVersions(limit, { v1Tool: { default: 10 }, v1_1Tool: { default: '={{ $fromAI(...) }}' } });
		expect(copies.map((copy) => [copy.default, show(copy)])).toEqual([
			[50, { resource: ['deal'], '@tool': [false] }],
			[10, { resource: ['deal'], '@version': [1], '@tool': [true] }],
			['={{ $fromAI(...) }}', { resource: ['deal'], '@version': [{ _cnd: { gte: 1.1 } }], '@tool': [true] }],
		]);
	});

	it('a new text for version 1.1, or none: one copy per version', () => {
		expect(forVersions(limit, { v1_1: { description: 'new' } }).map((copy) => [copy.description, show(copy)])).toEqual([
			[undefined, { resource: ['deal'], '@version': [1] }],
			['new', { resource: ['deal'], '@version': [{ _cnd: { gte: 1.1 } }] }],
		]);
		expect(forVersions(limit, { v1_1: null }).map(show)).toEqual([{ resource: ['deal'], '@version': [1] }]);
	});

	it('a change from version 1.2: versions 1 and 1.1 keep theirs, listed; the new one is "from 1.2 on", so a later version keeps it', () => {
		expect(forVersions(limit, { v1_2: { displayName: 'Most Results' } }).map((copy) => [copy.displayName, show(copy)])).toEqual([
			['Limit', { resource: ['deal'], '@version': [1, 1.1] }],
			['Most Results', { resource: ['deal'], '@version': [{ _cnd: { gte: 1.2 } }] }],
		]);
		// Changes add up: 1.1's text stays in 1.2 unless 1.2 changes it too.
		expect(forVersions(limit, { v1_1: { description: 'new' }, v1_2: { displayName: 'Most Results' } }).map((copy) => [copy.displayName, copy.description, show(copy)])).toEqual([
			['Limit', undefined, { resource: ['deal'], '@version': [1] }],
			['Limit', 'new', { resource: ['deal'], '@version': [1.1] }],
			['Most Results', 'new', { resource: ['deal'], '@version': [{ _cnd: { gte: 1.2 } }] }],
		]);
		// A parameter new in 1.2.
		expect(forVersions(limit, { v1: null, v1_1: null, v1_2: {} }).map(show)).toEqual([{ resource: ['deal'], '@version': [{ _cnd: { gte: 1.2 } }] }]);
		// A tool's change from 1.1 holds in 1.2.
		expect(forVersions(limit, { v1_1Tool: { default: 10 }, v1_2: { description: 'new' } }).map((copy) => [copy.default, copy.description, show(copy)])).toEqual([
			[50, undefined, { resource: ['deal'], '@version': [1, 1.1], '@tool': [false] }],
			[50, undefined, { resource: ['deal'], '@version': [1], '@tool': [true] }],
			[10, undefined, { resource: ['deal'], '@version': [1.1], '@tool': [true] }],
			[50, 'new', { resource: ['deal'], '@version': [{ _cnd: { gte: 1.2 } }], '@tool': [false] }],
			[10, 'new', { resource: ['deal'], '@version': [{ _cnd: { gte: 1.2 } }], '@tool': [true] }],
		]);
	});

	it("each version's variants are covered exactly once by the copies' conditions (n8n's own check)", () => {
		const copies = forVersions(limit, { v1Tool: { default: 10 }, v1_1: { description: 'new' }, v1_2Tool: { default: 20 } });
		for (const version of NODE_VERSIONS) {
			for (const tool of [false, true]) {
				const shown = copies.filter((copy) => {
					const conditions = copy.displayOptions?.show ?? {};
					const versionOk = conditions['@version'] === undefined || NodeHelpers.checkConditions(conditions['@version'] as Parameters<typeof NodeHelpers.checkConditions>[0], [version]);
					const toolOk = conditions['@tool'] === undefined || (conditions['@tool'] as boolean[]).includes(tool);
					return versionOk && toolOk;
				});
				expect({ version, tool, copies: shown.length }).toEqual({ version, tool, copies: 1 });
			}
		}
	});
});

describe('summaries (Simplify in version 1.1)', () => {
	const deal = {
		id: '1',
		type: 'deals',
		name: 'Smith',
		dealStatus: 'Settled',
		totalLoanAmount: 500000,
		dealType: 'Residential',
		lenderName: 'ANZ',
		customStatusName: null,
		created: '2026-01-01T00:00:00Z',
		updated: '2026-02-01T00:00:00Z',
		dates: { settled: '2026-02-01', lodged: '2026-01-10', approved: null, notProceeding: null },
		opportunity: { proposedLoanAmount: 510000, securityAmount: 800000, summaryNotes: 'long text', loanPurpose: 'Refinance' },
		splits: [{ amount: 500000 }],
		contacts: [{ id: '7', type: 'contacts' }],
	};

	it("a deal: id, then its type's summary fields in order, nested members lifted and named plainly, missing ones null; included records after", () => {
		const summary = summarize(deal);
		expect(Object.keys(summary)).toEqual([...DEAL_SUMMARY_COLUMNS, 'contacts']);
		expect(summary).toMatchObject({ proposedLoanAmount: 510000, loanPurpose: 'Refinance', lodgedDate: '2026-01-10', settledDate: '2026-02-01', financeClauseDate: null, contacts: deal.contacts });
		expect(summarize({ ...deal, dates: null, opportunity: undefined })).toMatchObject({ lodgedDate: null, proposedLoanAmount: null });
	});

	it('a record of a type without a summary is given whole', () => {
		const note = { id: '2', type: 'deal-notes', title: 'T', detail: 'D', writtenBy: 'W' };
		expect(summarize(note)).toBe(note);
	});
});
