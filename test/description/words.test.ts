/**
 * What a person reads in the editor is plain text: n8n shows a parameter's hint, description and
 * placeholder, an option's description and the activation message as they are written (no
 * markdown), so a backtick or `**` would be shown literally ("Include `adviser`").
 */
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
