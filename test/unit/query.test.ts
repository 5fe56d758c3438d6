import type { INode } from 'n8n-workflow';

import { buildConditionFilter, normalizeFilterExpression, queryFromOptions, quoteLiteral } from '../../nodes/shared/input/query';
import { RESOURCE_TYPES } from '../../nodes/shared/service/schema';
import { coerceAttribute, parseId, toCalendarDate, toUtcTimestamp } from '../../nodes/shared/input/values';

const node: INode = {
	id: 'n1',
	name: 'Loan CRM Contacts',
	type: 'n8n-nodes-loan-crm.loanCrmContacts',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const contacts = RESOURCE_TYPES.contacts;
const deals = RESOURCE_TYPES.deals;

describe('filter literals', () => {
	it.each([
		["O'Connor", "'O''Connor'"],
		["a','b", "'a'',''b'"],
		["x'),or(equals(id,'1'", "'x''),or(equals(id,''1'''"],
		["''", "''''''"],
		['comma, (paren)', "'comma, (paren)'"],
	])('quotes %s as %s so it cannot leave the literal', (value, quoted) => {
		expect(quoteLiteral(value)).toBe(quoted);
	});

	it('builds conditions with proper quoting, null and any', () => {
		const filter = buildConditionFilter(
			node,
			contacts,
			[
				{ field: 'lastName', operator: 'equals', value: "O'Connor" },
				{ field: 'email', operator: 'isNotNull' },
				{ field: 'maritalStatus', operator: 'any', value: 'Single, Married' },
				{ field: 'hasMarketingConsent', operator: 'equals', value: 'TRUE' },
				{ field: 'firstName', operator: 'contains', value: "x'),or(equals(id,'1'" },
				{ field: 'middleName', operator: 'isNull' },
				{ field: 'lastName', operator: 'notEquals', value: 'Smith' },
			],
			'UTC',
		);
		expect(filter).toBe(
			"and(equals(lastName,'O''Connor'),not(equals(email,null)),any(maritalStatus,'Single','Married'),equals(hasMarketingConsent,'true'),contains(firstName,'x''),or(equals(id,''1'''),equals(middleName,null),not(equals(lastName,'Smith')))",
		);
	});

	it('formats dates and timestamps for the field type', () => {
		expect(buildConditionFilter(node, contacts, [{ field: 'dateOfBirth', operator: 'lessThan', value: '1990-05-04T13:00:00' }], 'UTC')).toBe(
			"lessThan(dateOfBirth,'1990-05-04')",
		);
		expect(buildConditionFilter(node, deals, [{ field: 'updated', operator: 'greaterOrEqual', value: '2026-11-01' }], 'UTC')).toBe(
			"greaterOrEqual(updated,'2026-11-01')",
		);
		expect(buildConditionFilter(node, deals, [{ field: 'updated', operator: 'greaterOrEqual', value: '2026-11-01T10:00:00' }], 'Australia/Sydney')).toBe(
			"greaterOrEqual(updated,'2026-10-31T23:00:00.000Z')",
		);
	});

	it('rejects what would break the expression, naming the parameter', () => {
		expect(() => buildConditionFilter(node, contacts, [{ field: 'lastName),or(x', operator: 'equals', value: 'a' }], 'UTC')).toThrow(
			/Conditions → Condition 1 → Field/,
		);
		expect(() => buildConditionFilter(node, deals, [{ field: 'totalLoanAmount', operator: 'greaterThan', value: 'lots' }], 'UTC')).toThrow(
			/Condition 1 → Value" must be a number/,
		);
		expect(() => buildConditionFilter(node, deals, [{ field: 'totalLoanAmount', operator: 'contains', value: '1' }], 'UTC')).toThrow(/text fields only/);
	});

	it('strips whitespace outside quotes and checks balance of the raw filter', () => {
		expect(normalizeFilterExpression(node, 'Options → Filter', "and( equals(lastName, 'Van Dyke'),\n greaterThan(id,'3') )")).toBe(
			"and(equals(lastName,'Van Dyke'),greaterThan(id,'3'))",
		);
		expect(() => normalizeFilterExpression(node, 'Options → Filter', "equals(lastName,'O'Connor')")).toThrow(/Options → Filter.*not closed/);
		expect(() => normalizeFilterExpression(node, 'Options → Filter', "equals(a,'b'")).toThrow(/without a matching "\)"/);
	});

	it('combines the raw filter and the builder with and(), adds included relationships to the fieldset', () => {
		expect(
			queryFromOptions(
				node,
				'deals',
				deals,
				{
					filter: "equals(dealStatus,'Settled')",
					conditions: { condition: [{ field: 'lenderName', operator: 'startsWith', value: 'ANZ' }] },
					sort: ' -updated , id ',
					include: 'contacts.contactGroup, customStatus',
					fields: 'name,updated',
				},
				'UTC',
			),
		).toEqual({
			filter: "and(equals(dealStatus,'Settled'),startsWith(lenderName,'ANZ'))",
			sort: '-updated,id',
			include: 'contacts.contactGroup,customStatus',
			fields: { deals: 'name,updated,contacts,customStatus' },
		});
		expect(() => queryFromOptions(node, 'deals', deals, { sort: 'name desc' }, 'UTC')).toThrow(/Options → Sort/);
	});
});

describe('values', () => {
	it.each([['0'], ['-1'], ['2147483648'], ['1.5'], ['abc'], [''], [' '], ['1e3']])('rejects id %j', (value) => {
		expect(() => parseId(node, 'dealId', value)).toThrow(/Parameter "dealId" must be a whole number from 1 to 2147483647/);
	});

	it('accepts ids with surrounding spaces and numbers', () => {
		expect(parseId(node, 'dealId', ' 42 ')).toBe('42');
		expect(parseId(node, 'dealId', 2147483647)).toBe('2147483647');
		expect(() => parseId(node, 'dealId', { id: 1 })).toThrow(/got an object/);
	});

	it('converts dates and timestamps to the service formats', () => {
		expect(toCalendarDate('2026-02-03T00:00:00', 'UTC')).toBe('2026-02-03');
		expect(toCalendarDate('2026-02-03T23:30:00Z', 'Australia/Sydney')).toBe('2026-02-04');
		expect(toUtcTimestamp('2026-07-01T09:00:00', 'Australia/Sydney')).toBe('2026-06-30T23:00:00.000Z');
		expect(toUtcTimestamp('2026-07-01T09:00:00+02:00', 'UTC')).toBe('2026-07-01T07:00:00.000Z');
		expect(toUtcTimestamp('not a date', 'UTC')).toBeUndefined();
	});

	it('checks attribute types, naming the field', () => {
		const spec = RESOURCE_TYPES['deal-structures'].attributes;
		expect(coerceAttribute(node, 'Interest Rate', spec.interestRate, '0.055', 'UTC')).toBe(0.055);
		expect(() => coerceAttribute(node, 'Interest Rate', spec.interestRate, 'five', 'UTC')).toThrow('Parameter "Interest Rate" must be a number; got "five"');
		expect(() => coerceAttribute(node, 'Rate Term Years', spec.rateTermYears, 2.5, 'UTC')).toThrow(/whole number/);
		expect(coerceAttribute(node, 'Capitalise LMI', spec.capitaliseLmi, 'true', 'UTC')).toBe(true);
		expect(() => coerceAttribute(node, 'Capitalise LMI', spec.capitaliseLmi, 'yes', 'UTC')).toThrow(/true or false/);
		expect(coerceAttribute(node, 'Repayment Frequency', spec.repaymentFrequency, 'Daily', 'UTC')).toBe('Daily');
		expect(() => coerceAttribute(node, 'Repayment Frequency', spec.repaymentFrequency, 3, 'UTC')).toThrow(/one of Weekly, Fortnightly, HalfMonthly, Monthly, Quarterly, HalfYearly, Yearly;/);
		expect(coerceAttribute(node, 'Fixed Rate Expiry Date', spec.fixedRateExpiryDate, '2027-01-31T00:00:00', 'UTC')).toBe('2027-01-31');
		expect(() => coerceAttribute(node, 'Account Number', spec.accountNumber, { a: 1 }, 'UTC')).toThrow(/must be text/);
	});
});
