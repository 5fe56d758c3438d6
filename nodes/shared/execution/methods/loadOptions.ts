/**
 * The names a fact find's links are picked from (Fact Find → Create, manual mapping): the entries of
 * a list named in the same node, read from the node's current parameters as the editor sends them
 * (n8n's LoadOptionsContext `getCurrentNodeParameter`: the parameters being edited, expressions
 * resolved where the editor can). No request is sent. A link to one entry also offers "none".
 *
 * The editor loads them when the field appears and again when an entry is added to or removed from
 * the list they name (`loadOptionsDependsOn`, description/factFind.ts); a name changed later shows
 * as not supported until chosen again, and the run checks every link anyway (input/factFind.ts).
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import type { FactFindList } from '../../service/factFind';
import { factFindList, linkedLists, namesMethod } from '../../service/factFind';

/** Mirrors the editor's parameters: `entryName` of each entry under the list's fixed collection. */
const ENTRY_NAME = 'entryName';

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' && !value.startsWith('=') ? value.trim() : undefined;
}

/** The named entries of `list` in the node being edited, each with what tells it apart ("Applicant 1 — Jane Citizen"). */
function namedEntries(context: ILoadOptionsFunctions, list: FactFindList): INodePropertyOptions[] {
	const collection = context.getCurrentNodeParameter(list.parameter) as Record<string, unknown> | null | undefined;
	const entries = collection?.[list.entryKey];
	if (!Array.isArray(entries)) return [];
	const seen = new Set<string>();
	const options: INodePropertyOptions[] = [];
	for (const entry of entries as Array<Record<string, unknown> | null>) {
		const name = text(entry?.[ENTRY_NAME]);
		if (name === undefined || seen.has(name)) continue;
		seen.add(name);
		const person = list.name === 'contacts' ? [text(entry?.firstName), text(entry?.lastName)].filter(Boolean).join(' ') : '';
		options.push({ name: person === '' ? name : `${name} — ${person}`, value: name });
	}
	return options;
}

function namesOf(name: string, many: boolean) {
	const list = factFindList(name) as FactFindList;
	return async function (this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const names = namedEntries(this, list);
		return many ? names : [{ name: '(None)', value: '', description: `No ${list.singular}` }, ...names];
	};
}

/**
 * `methods.loadOptions` of the node with Fact Find → Create: per list other entries link to, the
 * names for a link to several (`factFindPeople`) and to one (`factFindAsset`).
 */
export const factFindNames: Record<string, (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>> = Object.fromEntries(
	linkedLists().flatMap((list) => [
		[namesMethod(list, true), namesOf(list.name, true)],
		[namesMethod(list, false), namesOf(list.name, false)],
	]),
);
