/**
 * One parameter as each version of the action nodes (operation/versions.ts) and each variant shows it.
 *
 * - Version 1 is what every workflow saved before 1.1 runs, exactly as before: Simplify on gives
 *   every field flattened, off the service's JSON:API; a tool's parameters are filled by the model
 *   only where the workflow's author wired `$fromAI`.
 * - Version 1.1 (new nodes): Simplify gives each record's summary (service/summary.ts), off every
 *   field; a tool's parameters are filled by the model out of the box (toolArguments.ts) and its
 *   answers leave out empty fields.
 *
 * n8n shows a parameter when every key of its `show` matches, so "version 1 or the plain node" needs
 * two copies. `forVersions` writes each parameter once with its per-version differences and emits
 * the fewest copies whose display conditions (`@version`, `@tool`) cover the four variants (plain
 * and tool, version 1 and 1.1), each exactly once. The conditions are in n8n-workflow since 1.x
 * (`_cnd` and `@tool` in n8n 1.123's, 2.30's and 2.41's).
 */
import type { DisplayCondition, INodeProperties } from 'n8n-workflow';

/** How a parameter differs from its version 1 definition (the base) in the other variants. */
export interface VersionChanges {
	/** Version 1 as a tool, where it differs from the plain node (the tool's Limit of 10). */
	v1Tool?: Partial<INodeProperties>;
	/** Version 1.1, plain and as a tool; null: version 1.1 has no such parameter. */
	v1_1?: Partial<INodeProperties> | null;
	/** Version 1.1 as a tool, on top of `v1_1` (a default the model fills). */
	v1_1Tool?: Partial<INodeProperties>;
}

type Variant = { version: 1 | 1.1; tool: boolean };

const VARIANTS: Variant[] = [
	{ version: 1, tool: false },
	{ version: 1, tool: true },
	{ version: 1.1, tool: false },
	{ version: 1.1, tool: true },
];

const VERSION_CONDITION: Record<Variant['version'], Array<number | DisplayCondition>> = {
	1: [1],
	1.1: [{ _cnd: { gte: 1.1 } }],
};

function definitionOf(base: INodeProperties, changes: VersionChanges, variant: Variant): INodeProperties | undefined {
	if (variant.version === 1) return variant.tool ? { ...base, ...changes.v1Tool } : base;
	if (changes.v1_1 === null) return undefined;
	return { ...base, ...changes.v1_1, ...(variant.tool ? changes.v1_1Tool : {}) };
}

/** The copies covering `variants` (all with one definition), each with the conditions it needs. */
function copiesFor(definition: INodeProperties, variants: Variant[]): INodeProperties[] {
	const versions = [...new Set(variants.map((variant) => variant.version))];
	const tools = [...new Set(variants.map((variant) => variant.tool))];
	// Expressible as one copy when the variants are every combination of their versions and tool-ness.
	if (versions.length * tools.length !== variants.length) {
		return [false, true].flatMap((tool) => {
			const part = variants.filter((variant) => variant.tool === tool);
			return part.length === 0 ? [] : copiesFor(definition, part);
		});
	}
	const extra: { '@version'?: Array<number | DisplayCondition>; '@tool'?: boolean[] } = {};
	if (versions.length === 1) extra['@version'] = VERSION_CONDITION[versions[0]];
	if (tools.length === 1) extra['@tool'] = [tools[0]];
	if (Object.keys(extra).length === 0) return [definition];
	return [{ ...definition, displayOptions: { ...definition.displayOptions, show: { ...definition.displayOptions?.show, ...extra } } }];
}

/**
 * A parameter as each version and variant shows it: `base` is version 1's plain definition (saved
 * workflows keep it), `changes` what differs elsewhere. Variants with the same definition share a
 * copy; the base alone when nothing differs. A group of variants no single condition describes
 * (version 1 plain and tool, and 1.1 plain) is split by plain and tool.
 */
export function forVersions(base: INodeProperties, changes: VersionChanges): INodeProperties[] {
	const groups: Array<{ definition: INodeProperties; key: string; variants: Variant[] }> = [];
	for (const variant of VARIANTS) {
		const definition = definitionOf(base, changes, variant);
		if (definition === undefined) continue;
		const key = JSON.stringify(definition);
		const group = groups.find((entry) => entry.key === key);
		if (group) group.variants.push(variant);
		else groups.push({ definition, key, variants: [variant] });
	}
	return groups.flatMap((group) => copiesFor(group.definition, group.variants));
}
