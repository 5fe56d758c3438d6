/**
 * What a person reads in the editor is plain text: n8n shows a parameter's hint, description and
 * placeholder, an option's description and the activation message as they are written (no
 * markdown), so a backtick or `**` would be shown literally ("Include `adviser`"). The nodes
 * panel's trigger entries, the events they open (with their presets) and the publish message agree.
 * And what a new node shows names things in words, not API keys.
 */
import type { INode, INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { loadPackageSource } from '../../harness';
import { CUSTOM_REQUEST } from '../../nodes/shared/service/catalogue';
import { NEWEST_VERSION } from '../../nodes/shared/service/versions';
import { CATALOGUES } from './resolved';

const source = loadPackageSource();
const SHOWN_AS_TEXT = new Set(['hint', 'description', 'placeholder', 'action', 'activationMessage', 'displayName', 'errorMessage', 'subtitle']);

/** Every text of a description that the editor shows as it is, with where it is. */
function shownTexts(value: unknown, path = ''): Array<{ path: string; text: string }> {
	if (Array.isArray(value)) return value.flatMap((entry, index) => shownTexts(entry, `${path}[${index}]`));
	if (value === null || typeof value !== 'object') return [];
	return Object.entries(value as Record<string, unknown>).flatMap(([key, member]) =>
		typeof member === 'string' && SHOWN_AS_TEXT.has(key) ? [{ path: `${path}.${key}`, text: member }] : shownTexts(member, `${path}.${key}`),
	);
}

describe('no literal markdown in what the editor shows', () => {
	it.each(source.nodes.map((node) => [node.name, node] as const))('%s', (_name, node) => {
		const texts = shownTexts(node.type.description);
		expect(texts.length).toBeGreaterThan(20);
		expect(texts.filter(({ text }) => /`|\*\*/.test(text))).toEqual([]);
	});
});

describe('the nodes panel, the node and the publish message agree', () => {
	const trigger = (name: string) => source.nodes.find((node) => node.name === name)?.type.description as INodeTypeDescription;

	it.each(['loanCrmDealsTrigger', 'loanCrmContactsTrigger', 'loanCrmTrigger'])('%s: each panel entry is "On" and the name of the event it opens', (name) => {
		const event = trigger(name).properties.find((property) => property.name === 'event');
		const entries = (event?.options ?? []) as Array<{ name: string; action?: string }>;
		expect(entries.length).toBeGreaterThan(1);
		for (const entry of entries) expect([entry.name, entry.action]).toEqual([entry.name, expect.stringMatching(new RegExp(`^On ${entry.name.toLowerCase()}( \\(.+\\))?$`))]);
	});

	it('"On deal status changed (e.g. settled)" opens a new Deals Trigger with To Status = Settled; version 1 keeps it empty', () => {
		const description = trigger('loanCrmDealsTrigger');
		const entry = (description.properties.find((property) => property.name === 'event')?.options ?? []).find((option) => 'value' in option && option.value === 'dealStatusChanged') as { action?: string };
		expect(entry.action).toBe('On deal status changed (e.g. settled)');
		// What the editor does with the panel entry's values ({ event }) for a node of each version.
		const resolved = (typeVersion: number) =>
			NodeHelpers.getNodeParameters(description.properties, { event: 'dealStatusChanged' }, true, false, { typeVersion } as INode, description);
		expect(resolved(1.1)).toEqual(expect.objectContaining({ event: 'dealStatusChanged', toStatuses: ['Settled'], fromStatuses: [], simplify: true }));
		expect(resolved(1)).toEqual(expect.objectContaining({ event: 'dealStatusChanged', toStatuses: [], fromStatuses: [] }));
		expect(resolved(1)).not.toHaveProperty('simplify');
	});

	it('the publish message says one run per poll that finds changes, one item per change', () => {
		for (const name of ['loanCrmDealsTrigger', 'loanCrmContactsTrigger']) {
			expect(trigger(name).activationMessage).toMatch(/run once for each poll that finds any, with one item per change/);
		}
	});
});

/**
 * What a new node (the newest version) shows names things in words, never by an API key: every
 * label (parameters, collection entries, fixed collection groups and their values), every option's
 * name in a dropdown, and the canvas subtitle of every operation. A key is a camelCase or PascalCase
 * word: a lower-case letter followed by a capital ("dealNote", "EmailDateOfBirth", "DeFacto").
 * Descriptions and tooltips may quote keys (a filter's syntax, an output field) and are not read here.
 */
describe('plain words in what a new node shows (no camelCase key)', () => {
	const KEY = /[a-z][A-Z]/;

	/** Whether a parameter is shown at the newest version (its `@version` condition, n8n's own check). */
	function atNewest(property: { displayOptions?: { show?: Record<string, unknown> } }): boolean {
		const condition = property.displayOptions?.show?.['@version'] as Parameters<typeof NodeHelpers.checkConditions>[0] | undefined;
		return condition === undefined || NodeHelpers.checkConditions(condition, [NEWEST_VERSION]);
	}

	/** Every label and option name of the parameters a node of the newest version can show, with where it is. */
	function labels(properties: readonly unknown[], path = ''): Array<{ where: string; text: string }> {
		const found: Array<{ where: string; text: string }> = [];
		for (const entry of properties as Array<Record<string, unknown>>) {
			if (!atNewest(entry as { displayOptions?: { show?: Record<string, unknown> } })) continue;
			const where = `${path}${String(entry.name)}`;
			// A notice's text is a sentence, read like a description.
			if (typeof entry.displayName === 'string' && entry.type !== 'notice') found.push({ where, text: entry.displayName });
			const options = Array.isArray(entry.options) ? (entry.options as Array<Record<string, unknown>>) : [];
			if (entry.type === 'options' || entry.type === 'multiOptions') {
				for (const option of options) found.push({ where: `${where} option ${String(option.value)}`, text: String(option.name) });
			} else if (options.length > 0) found.push(...labels(options, `${where}.`));
			if (Array.isArray(entry.values)) found.push(...labels(entry.values as unknown[], `${where}.`));
			if (Array.isArray(entry.modes)) for (const mode of entry.modes as Array<Record<string, unknown>>) found.push({ where: `${where} mode ${String(mode.name)}`, text: String(mode.displayName) });
		}
		return found;
	}

	it.each(source.nodes.filter((node) => !(node.type.description as INodeTypeDescription).hidden).map((node) => [node.name, node] as const))('%s: labels and option names', (_name, node) => {
		const found = labels((node.type.description as INodeTypeDescription).properties);
		expect(found.length).toBeGreaterThan(15);
		expect(found.filter(({ text }) => KEY.test(text))).toEqual([]);
	});

	it('the labels that read like keys before version 1.2 still do in saved nodes (version 1.1), and not in new ones', () => {
		const leads = (source.nodes.find((node) => node.name === 'loanCrmLeadsAndTasks')?.type.description as INodeTypeDescription).properties;
		const at = (version: number) => (property: INodeProperties) => {
			const condition = property.displayOptions?.show?.['@version'] as Parameters<typeof NodeHelpers.checkConditions>[0] | undefined;
			return condition === undefined || NodeHelpers.checkConditions(condition, [version]);
		};
		const match = (version: number) => leads.filter(at(version)).find((property) => property.name === 'contactMatchExisting') as INodeProperties;
		const names = (property: INodeProperties) => (property.options as INodePropertyOptions[]).map((option) => option.name);
		expect(names(match(1.1))).toEqual(['Email', 'Email Mobile', 'Email Name', 'Email Mobile Name', 'Email Date Of Birth', 'Email Date Of Birth Name']);
		expect(names(match(NEWEST_VERSION))).toEqual(['E-mail', 'E-mail and mobile', 'E-mail and name', 'E-mail, mobile and name', 'E-mail and date of birth', 'E-mail, date of birth and name']);
		const allowCreate = (version: number) =>
			((leads.filter(at(version)).find((property) => property.name === 'additionalFields' && property.displayOptions?.show?.operation?.[0] === 'create')?.options ?? []) as INodeProperties[]).find(
				(option) => option.name === 'externalIntegrationAllowCreate',
			)?.displayName;
		expect([allowCreate(1.1), allowCreate(NEWEST_VERSION)]).toEqual(['External Integration Allow Create', 'Create Integration If Missing']);
		// The label list the check above reads reaches into collections.
		expect(labels(leads).map(({ text }) => text)).toEqual(expect.arrayContaining(['Create Integration If Missing', 'E-mail and date of birth', 'Rate Limit Wait (Minutes)']));
		const requestOptions = (version: number) => (leads.filter(at(version)).find((property) => property.name === 'requestOptions')?.options as INodeProperties[]).map((option) => option.displayName);
		expect(requestOptions(1.1)).toContain('When Rate Limited, Wait Up To (Minutes)');
		expect(requestOptions(NEWEST_VERSION)).toContain('Rate Limit Wait (Minutes)');
	});

	it("every action node's canvas subtitle is the operation in words from version 1.2 (\"Create deal note\"), as before in saved nodes, worked out by n8n's expression engine", () => {
		let checked = 0;
		for (const [name, operations] of Object.entries(CATALOGUES)) {
			const { subtitle } = source.nodes.find((node) => node.name === name)?.type.description as INodeTypeDescription;
			for (const entry of [...operations, CUSTOM_REQUEST]) {
				const shown = (typeVersion: number) => {
					const workflow = new Workflow({
						nodes: [{ id: '1', name: 'Node', type: `n8n-nodes-loan-crm.${name}`, typeVersion, position: [0, 0], parameters: { resource: entry.resource, operation: entry.operation } }],
						connections: {},
						active: false,
						nodeTypes: { getByName: () => undefined, getByNameAndVersion: () => undefined, getKnownTypes: () => ({}) } as never,
					});
					return workflow.expression.getSimpleParameterValue(workflow.getNode('Node')!, subtitle as string, 'internal', {});
				};
				const context = { name, op: `${entry.resource}.${entry.operation}` };
				expect({ ...context, shown: shown(NEWEST_VERSION) }).toEqual({ ...context, shown: entry.action.replace(/\b(?:a|an|the) /g, '') });
				expect(KEY.test(String(shown(NEWEST_VERSION)))).toBe(false);
				expect({ ...context, shown: shown(1.1) }).toEqual({ ...context, shown: `${entry.operation}: ${entry.resource}` });
				// The check would see a key: "create: dealNote", "getMany: deal".
				if (/[A-Z]/.test(entry.resource + entry.operation)) expect(KEY.test(String(shown(1.1)))).toBe(true);
				checked += 1;
			}
		}
		// 28 operations (Fact Find → Create, issue 43, among them) and Custom Request in each of the four nodes.
		expect(checked).toBe(32);
		const deals = source.nodes.find((node) => node.name === 'loanCrmDeals')?.type.description as INodeTypeDescription;
		expect(deals.subtitle).toContain('"dealNote.create":"Create deal note"');
	});
});
