/**
 * One parameter as each version of the nodes (service/versions.ts) and each variant shows it.
 *
 * - Version 1 is what every workflow saved before 1.1 runs, exactly as before: Simplify on gives
 *   every field flattened, off the service's JSON:API; a tool's parameters are filled by the model
 *   only where the workflow's author wired `$fromAI`.
 * - Version 1.1: Simplify gives each record's summary (service/summary.ts), off every field; a
 *   tool's parameters are filled by the model out of the box (toolArguments.ts) and its answers
 *   leave out empty fields.
 * - Version 1.2 (new nodes): labels, option names and the ID rule in plain words; a contact's key
 *   fields on top; Lead → Create's one shape (service/versions.ts `SINCE` says what each brought).
 *
 * n8n shows a parameter when every key of its `show` matches, so "version 1 or the plain node" needs
 * two copies. `forVersions` writes each parameter once with its per-version differences and emits
 * the fewest copies whose display conditions (`@version`, `@tool`) cover every variant (plain and
 * tool, each version), each exactly once. A version's changes apply from that version on, so a new
 * version shows what the newest showed until it says otherwise: its copies' `@version` reads "from
 * 1.2 on" (`{ _cnd: { gte: 1.2 } }`), older ones list their versions. The conditions are in
 * n8n-workflow since 1.x (`_cnd` and `@tool` in n8n 1.123's, 2.30's and 2.41's).
 */
import type { DisplayCondition, INodeProperties } from 'n8n-workflow';

import type { NodeVersion, VersionKey } from '../service/versions';
import { NODE_VERSIONS, versionKey } from '../service/versions';

/**
 * How a parameter differs from its version 1 definition (the base) in the other versions and
 * variants, by version key: `v1_1` applies from version 1.1 on (null: no such parameter from then
 * on; `v1: null`, none in version 1), `v1_1Tool` from 1.1 on to the tool copy only, on top.
 * `v1Tool` is version 1's tool alone (its Limit of 10).
 */
export type VersionChanges = { [Key in VersionKey]?: Partial<INodeProperties> | null } & { [Key in `${VersionKey}Tool`]?: Partial<INodeProperties> };

export interface Variant {
	version: NodeVersion;
	tool: boolean;
}

const VARIANTS: readonly Variant[] = NODE_VERSIONS.flatMap((version) => [
	{ version, tool: false },
	{ version, tool: true },
]);

/** What a variant shows of the parameter: the changes of every version up to its own, in order. */
function definitionOf(base: INodeProperties, changes: VersionChanges, variant: Variant): INodeProperties | undefined {
	let plain: INodeProperties | undefined = changes.v1 === null ? undefined : base;
	// Version 1's tool changes are its own; from 1.1 on they add up like the plain ones.
	let tool: Partial<INodeProperties> = variant.version === NODE_VERSIONS[0] ? { ...changes.v1Tool } : {};
	for (const version of NODE_VERSIONS.slice(1)) {
		if (version > variant.version) break;
		const key = versionKey(version);
		const change = changes[key];
		if (change === null) plain = undefined;
		else if (change !== undefined) plain = { ...(plain ?? base), ...change };
		tool = { ...tool, ...changes[`${key}Tool`] };
	}
	if (plain === undefined) return undefined;
	return variant.tool ? { ...plain, ...tool } : plain;
}

/**
 * The `@version` condition of a copy shown in `versions`: none for every version; else the versions
 * before the newest run as they are, and that run as "from <its first> on".
 */
export function versionCondition(versions: readonly NodeVersion[]): Array<number | DisplayCondition> | undefined {
	if (NODE_VERSIONS.every((version) => versions.includes(version))) return undefined;
	let from = NODE_VERSIONS.length;
	while (from > 0 && versions.includes(NODE_VERSIONS[from - 1])) from -= 1;
	const exact = NODE_VERSIONS.slice(0, from).filter((version) => versions.includes(version));
	return from < NODE_VERSIONS.length ? [...exact, { _cnd: { gte: NODE_VERSIONS[from] } }] : exact;
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
	const condition = versionCondition(versions);
	if (condition !== undefined) extra['@version'] = condition;
	if (tools.length === 1) extra['@tool'] = [tools[0]];
	if (Object.keys(extra).length === 0) return [definition];
	return [{ ...definition, displayOptions: { ...definition.displayOptions, show: { ...definition.displayOptions?.show, ...extra } } }];
}

/**
 * A parameter as each variant shows it (undefined: not at all): variants with the same definition
 * share a copy, in the order their first variant comes (version 1 plain first).
 */
export function forVariants(definitionAt: (variant: Variant) => INodeProperties | undefined): INodeProperties[] {
	const groups: Array<{ definition: INodeProperties; key: string; variants: Variant[] }> = [];
	for (const variant of VARIANTS) {
		const definition = definitionAt(variant);
		if (definition === undefined) continue;
		const key = JSON.stringify(definition);
		const group = groups.find((entry) => entry.key === key);
		if (group) group.variants.push(variant);
		else groups.push({ definition, key, variants: [variant] });
	}
	return groups.flatMap((group) => copiesFor(group.definition, group.variants));
}

/**
 * A parameter as each version and variant shows it: `base` is version 1's plain definition (saved
 * workflows keep it), `changes` what differs elsewhere. Variants with the same definition share a
 * copy; the base alone when nothing differs. A group of variants no single condition describes
 * (version 1 plain and tool, and 1.1 plain) is split by plain and tool.
 */
export function forVersions(base: INodeProperties, changes: VersionChanges): INodeProperties[] {
	return forVariants((variant) => definitionOf(base, changes, variant));
}
