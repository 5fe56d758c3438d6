/**
 * The example workflows' sticky notes show their whole text. n8n draws a note's markdown in a box
 * of the note's width and height and cuts off what does not fit, so each box must hold its text as
 * n8n 2.x draws it: 14 px text on 21 px lines (about 7.4 px a character), `##` headings at 24 px on
 * 31 px lines, 14 px between paragraphs, 16 px padding, list items indented 24 px. An estimate (no
 * browser here), made from those sizes; the old 420 × 340 note of the Slack example, which showed
 * cut off in the n8n 2.30 editor, fails it.
 */
import { readdirSync, readFileSync } from 'fs';
import { join, resolve } from 'path';

const EXAMPLES = resolve(__dirname, '..', '..', 'examples');

interface Note {
	content: string;
	width: number;
	height: number;
}

/** The height n8n needs to show `content` in a note `width` wide (see the file header). */
function neededHeight({ content, width }: Note): number {
	let height = 2 * 16;
	for (const line of content.split('\n')) {
		const text = line.replace(/[*`]/g, '');
		if (text.trim() === '') height += 14;
		else if (line.startsWith('## ')) height += Math.ceil(text.length / ((width - 32) / 11)) * 31 + 16;
		else height += Math.ceil(text.length / ((width - 32 - (/^(\d+\.|-) /.test(line) ? 24 : 0)) / 7.4)) * 21;
	}
	return height;
}

const notes = readdirSync(EXAMPLES)
	.filter((file) => file.endsWith('.json'))
	.flatMap((file) =>
		(JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as { nodes: Array<{ type: string; parameters: Note }> }).nodes
			.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
			.map((node) => [file, node.parameters] as const),
	);

describe('example sticky notes fit their text', () => {
	it('there are notes to check', () => {
		expect(notes.length).toBeGreaterThanOrEqual(2);
	});

	it.each(notes)('%s', (_file, note) => {
		expect(neededHeight(note)).toBeLessThanOrEqual(note.height);
	});

	it('the estimate finds the note that was cut off', () => {
		const [, slack] = notes.find(([file]) => file === 'deal-settled-to-slack.json') ?? [];
		expect(slack).toBeDefined();
		if (slack !== undefined) expect(neededHeight({ ...slack, width: 420, height: 340 })).toBeGreaterThan(340);
	});
});
