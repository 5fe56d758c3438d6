/* Plain-text tables for the demo's output. */

export type Row = Record<string, unknown>;

function cell(value: unknown): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'object') return JSON.stringify(value);
	return String(value);
}

/** Prints rows as a table with the given columns (header → value of a row). */
export function printTable(rows: Row[], columns: Record<string, (row: Row) => unknown>): void {
	const headers = Object.keys(columns);
	const cells = rows.map((row) => headers.map((header) => cell(columns[header](row)).replace(/\s+/g, ' ').slice(0, 60)));
	const widths = headers.map((header, i) => Math.max(header.length, ...cells.map((line) => line[i].length)));
	const line = (values: string[]) => `  │ ${values.map((value, i) => value.padEnd(widths[i])).join(' │ ')} │`;
	const rule = (left: string, mid: string, right: string) => `  ${left}${widths.map((w) => '─'.repeat(w + 2)).join(mid)}${right}`;
	console.log(rule('┌', '┬', '┐'));
	console.log(line(headers));
	console.log(rule('├', '┼', '┤'));
	for (const values of cells) console.log(line(values));
	console.log(rule('└', '┴', '┘'));
	if (rows.length === 0) console.log('  (no items)');
}

export function money(value: unknown): string {
	return typeof value === 'number' ? `$${value.toLocaleString('en-AU', { maximumFractionDigits: 0 })}` : '';
}

export function heading(title: string, subtitle: string): void {
	console.log(`\n${title}\n${'═'.repeat(title.length)}`);
	console.log(subtitle);
}
