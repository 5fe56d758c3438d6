/** The agent helpers on their own: compact records, filter syntax answers, tool descriptions per shape. */
import type { INode } from 'n8n-workflow';

import { OPERATIONS as CONTACT_OPERATIONS } from '../../nodes/LoanCrmContacts/operations';
import { OPERATIONS as DEAL_OPERATIONS } from '../../nodes/LoanCrmDeals/operations';
import { AGENT_DEFAULT_LIMIT, agentProperties, toolDescriptionOf, withAgentLimit } from '../../nodes/shared/description/toolDescription';
import { compactRecord } from '../../nodes/shared/execution/toolOutput';
import { checkFilterSyntax } from '../../nodes/shared/input/filterSyntax';
import { RESOURCE_TYPES } from '../../nodes/shared/service/schema';

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
	it('one Tool Description per operation, shown only on the tool, defaulting to its text; Output only on the tool', () => {
		const properties = agentProperties(DEAL_OPERATIONS);
		const descriptions = properties.filter((property) => property.name === 'toolDescription');
		expect(descriptions).toHaveLength(DEAL_OPERATIONS.length);
		for (const [index, spec] of DEAL_OPERATIONS.entries()) {
			expect(descriptions[index].default).toBe(toolDescriptionOf(spec));
			expect(descriptions[index].displayOptions).toEqual({ show: { '@tool': [true], resource: [spec.resource], operation: [spec.operation] } });
		}
		const output = properties.find((property) => property.name === 'agentOutput');
		expect([output?.default, output?.displayOptions]).toEqual(['compact', { show: { '@tool': [true] } }]);
	});

	it("the tool's Limit is the node's with default 10, the node's own stays 50", () => {
		const limit = { displayName: 'Limit', name: 'limit', type: 'number' as const, default: 50, displayOptions: { show: { resource: ['deal'], '@tool': [false] } } };
		expect(withAgentLimit([limit])).toEqual([limit, { ...limit, default: AGENT_DEFAULT_LIMIT, displayOptions: { show: { resource: ['deal'], '@tool': [true] } } }]);
		expect(AGENT_DEFAULT_LIMIT).toBe(10);
	});

	it('a create that can look first says what If Already Exists does, in the parameter and value names; others do not mention it', () => {
		const contactCreate = CONTACT_OPERATIONS.find((spec) => spec.resource === 'contact' && spec.operation === 'create');
		expect(contactCreate && toolDescriptionOf(contactCreate)).toContain(
			'When a contact with the same email already exists (case does not matter), ifAlreadyExists decides: createAnother (default) creates one more; returnExisting creates only if none exists, else returns the existing contact unchanged (the oldest, with matchCount); stopWithError creates only if none exists, else fails naming its ID. Except with createAnother, the result has outcome: created or found.',
		);
		const referenceCreate = DEAL_OPERATIONS.find((spec) => spec.resource === 'dealExternalReference' && spec.operation === 'create');
		expect(referenceCreate && toolDescriptionOf(referenceCreate)).toContain('When a deal external reference with the same deal, integration and external reference already exists');
		const others = [...DEAL_OPERATIONS, ...CONTACT_OPERATIONS].filter((spec) => spec !== contactCreate && spec !== referenceCreate);
		expect(others.length).toBeGreaterThan(10);
		for (const spec of others) expect(toolDescriptionOf(spec)).not.toContain('ifAlreadyExists');
	});

	it('a create says what is required; a delete warns', () => {
		const create = CONTACT_OPERATIONS.find((spec) => spec.shape === 'create');
		expect(create && toolDescriptionOf(create)).toMatch(/Optional fields: .*gender \(one of Male, Female, Undisclosed\)/);
		const remove = DEAL_OPERATIONS.find((spec) => spec.shape === 'delete');
		expect(remove && toolDescriptionOf(remove)).toBe(
			'Delete a deal note in Loan CRM: delete a note from a deal permanently. Needs dealNoteId (ID of the deal note to delete, a whole number). Permanent: only call it when the user asked to delete this record.',
		);
	});
});
