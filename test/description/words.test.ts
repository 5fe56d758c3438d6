/**
 * What a person reads in the editor is plain text: n8n shows a parameter's hint, description and
 * placeholder, an option's description and the activation message as they are written (no
 * markdown), so a backtick or `**` would be shown literally ("Include `adviser`"). And the nodes
 * panel's trigger entries, the events they open (with their presets) and the publish message agree.
 */
import type { INode, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { loadPackageSource } from '../../harness';

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
