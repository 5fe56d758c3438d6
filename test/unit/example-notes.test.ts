/**
 * The example workflows' sticky notes show their whole text, as users import them and as `npm run
 * dev` imports them (with its paragraph on the nodes it disables, scripts/dev-examples.ts). n8n draws
 * a note's markdown in a box of the note's width and height and cuts off what does not fit, so each
 * box must hold its text as n8n 2.30 draws it, measured in its editor (`scripts/screenshots.ts
 * --check sticky-notes` measures the real thing): a 1 px border; 8 px padding at the top, 12 px at the
 * sides, none at the bottom; `##` headings 18 px on 23.4 px lines with 32 px above; paragraphs 16 px
 * on 24 px lines (about 8.2 px a character), a blank line inside a paragraph a line of its own; list
 * items 14 px on 18.2 px lines (about 7.2 px a character), indented 32 px, 12 px apart; 16 px between
 * blocks and after the last one. An estimate (no browser here) from those sizes, with 8 px for
 * rounding; the notes the editor showed cut off (380, 420 and 520 px high, and the old 420 × 340 note
 * of the Slack example) fail it.
 */
import { readdirSync, readFileSync } from 'fs';
import { join, resolve } from 'path';

import { n8nNodesBaseDir } from '../../harness';
import { DEV_CREDENTIAL, prepareExamples } from '../../scripts/dev-examples';

const EXAMPLES = resolve(__dirname, '..', '..', 'examples');

interface Note {
	content: string;
	width: number;
	height: number;
}

const LIST_ITEM = /^(\d+\.|-) /;

/** The height n8n 2.30 needs to show `content` in a note `width` wide (see the file header). */
function neededHeight({ content, width }: Note): number {
	const inner = width - 2 - 2 * 12;
	const lines = (text: string, pixelsPerCharacter: number, room: number) => Math.max(1, Math.ceil((text.length * pixelsPerCharacter) / room));
	let height = 2 + 8;
	let previous: 'heading' | 'paragraph' | 'item' | undefined;
	let blankInParagraph = false;
	for (const line of content.split('\n')) {
		const text = line.replace(/[*`]/g, '');
		if (line.startsWith('## ')) {
			height += 32 + lines(text.slice(3), 10, inner) * 23.4;
			previous = 'heading';
		} else if (LIST_ITEM.test(line)) {
			height += (previous === 'item' ? 12 : 16) + lines(text.replace(LIST_ITEM, ''), 7.2, inner - 32) * 18.2;
			previous = 'item';
		} else if (text.trim() === '') {
			blankInParagraph = previous === 'paragraph';
		} else {
			height += (previous === 'paragraph' ? (blankInParagraph ? 24 : 0) : 16) + lines(text, 8.2, inner) * 24;
			previous = 'paragraph';
			blankInParagraph = false;
		}
	}
	return height + 16 + 8;
}

function notesOf(workflows: Array<{ nodes: Array<{ type: string; parameters: unknown }> }>, names: string[]): Array<readonly [string, Note]> {
	return workflows.flatMap((workflow, index) =>
		workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote').map((node) => [names[index], node.parameters as Note] as const),
	);
}

const files = readdirSync(EXAMPLES)
	.filter((file) => file.endsWith('.json'))
	.sort();
const notes = notesOf(
	files.map((file) => JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8'))),
	files,
);

describe('example sticky notes fit their text', () => {
	it('there are notes to check', () => {
		expect(notes.length).toBeGreaterThanOrEqual(3);
	});

	it.each(notes)('%s', (_file, note) => {
		expect(neededHeight(note)).toBeLessThanOrEqual(note.height);
	});

	// Prepared once: npm run dev reads the example files in the same (sorted) order as `files`.
	const devNotes = notesOf(prepareExamples(EXAMPLES, n8nNodesBaseDir(), DEV_CREDENTIAL).workflows, files);

	it.each(notes)('%s as npm run dev imports it', (file) => {
		const [[, note]] = devNotes.filter(([name]) => name === file);
		expect(neededHeight(note)).toBeLessThanOrEqual(note.height);
	});

	it('the estimate finds the notes the n8n 2.30 editor showed cut off', () => {
		const sized = (file: string, width: number, height: number) => ({ ...(notes.find(([name]) => name === file)?.[1] as Note), width, height });
		for (const note of [sized('deal-settled-to-slack.json', 420, 340), sized('web-form-to-contact.json', 520, 420), sized('web-form-to-lead.json', 480, 520)]) {
			expect(neededHeight(note)).toBeGreaterThan(note.height);
		}
	});
});
