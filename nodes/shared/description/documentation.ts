/**
 * Where the README documents each node. Every node description carries its own
 * `documentationUrl`, which the editor's Docs link opens verbatim. The codex's primaryDocumentation
 * (the `.node.json` files) is only the fallback and has no anchor: n8n appends its tracking
 * parameters to that URL as text, after any `#anchor`, which breaks the anchor (seen in n8n 1.123,
 * 2.30 and 2.41).
 */
export const README_URL = 'https://github.com/loan-crm/n8n-nodes-loan-crm';

/** The README section a node's Docs link opens: a heading's GitHub anchor (test/description checks it exists). */
export function readmeSection(anchor: string): string {
	return `${README_URL}#${anchor}`;
}

/** The section of the four action nodes: their resources and operations. */
export const ACTION_NODES_DOCUMENTATION = readmeSection('nodes-resources-and-operations');
