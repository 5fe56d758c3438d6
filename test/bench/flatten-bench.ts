/**
 * Flattening alone: the package's `flatten` and jsona's `deserialize` on the same parsed
 * documents (real sandbox pages, concatenated to the size wanted, `included` merged without
 * duplicates), with and without `included`.
 *
 * Each sample runs one flattener over one document as many times as fit in `sampleMs` (at least
 * once) after a full GC, and gives microseconds per primary resource; the two flatteners' samples
 * alternate. Warm-up: 500 ms of each first. What the two produce differs in one way that costs: `flatten` deep-copies every
 * attribute and resolves each related resource afresh for each item (n8n items must not share
 * objects), jsona hands out the document's own attribute objects and one shared model per
 * included resource.
 */
import Jsona from 'jsona';

import type { Document, Resource } from '../../nodes/shared/service/jsonapi';
import { flatten } from '../../nodes/shared/service/jsonapi';
import { PAGE_SIZE, fetchToken } from './floor';
import { collectGarbage, machineBusyMs, now } from './measure';
import type { SandboxInfo } from './sandbox-process';

export interface FlattenCase {
	implementation: 'flatten' | 'jsona';
	resources: number;
	withIncluded: boolean;
	includedResources: number;
	documentBytes: number;
	/** Microseconds per primary resource, one per sample. */
	usPerResource: number[];
	/** Passes over the document per sample. */
	passes: number[];
	/** Per sample: CPU the rest of the machine used, as a share of the sample's wall time. */
	otherShare: number[];
}

async function fetchPages(sandbox: SandboxInfo, token: string, count: number, include: string | undefined): Promise<Document[]> {
	const headers = { accept: 'application/vnd.api+json', userid: sandbox.userId, authorization: `Bearer ${token}` };
	const pages: Document[] = [];
	let lastId: string | undefined;
	let fetched = 0;
	while (fetched < count) {
		const parts: string[] = [];
		if (lastId !== undefined) parts.push(`filter=${encodeURIComponent(`greaterThan(id,'${lastId}')`)}`);
		if (include) parts.push(`include=${encodeURIComponent(include)}`);
		parts.push(`page%5Bsize%5D=${PAGE_SIZE}`);
		const response = await fetch(`${sandbox.baseUrl}/jsonapi/deals?${parts.join('&')}`, { headers });
		const text = await response.text();
		if (response.status !== 200) throw new Error(`flatten bench: ${response.status}: ${text.slice(0, 200)}`);
		const page = JSON.parse(text) as Document;
		const data = (page.data ?? []) as Resource[];
		if (data.length === 0) break;
		pages.push(page);
		fetched += data.length;
		lastId = String(data[data.length - 1].id);
	}
	if (fetched < count) throw new Error(`flatten bench: the sandbox has only ${fetched} deals, ${count} wanted`);
	return pages;
}

/** One document with the first `size` resources of the pages and the included resources they need. */
function buildDocument(pages: Document[], size: number, withIncluded: boolean): Document {
	const data: Resource[] = [];
	const included = new Map<string, Resource>();
	for (const page of pages) {
		if (data.length >= size) break;
		for (const resource of page.data as Resource[]) {
			if (data.length >= size) break;
			data.push(resource);
		}
		if (withIncluded) for (const resource of page.included ?? []) included.set(`${resource.type}:${resource.id}`, resource);
	}
	const document: Document = { data, links: pages[0].links };
	if (withIncluded) document.included = [...included.values()];
	// A fresh parse, so no two documents share objects and the layout is what JSON.parse makes.
	return JSON.parse(JSON.stringify(document)) as Document;
}

let sink: unknown;

function timePasses(fn: () => unknown, minMs: number): { ms: number; passes: number } {
	const t0 = now();
	let passes = 0;
	let elapsed = 0;
	do {
		sink = fn();
		passes++;
		elapsed = now() - t0;
	} while (elapsed < minMs);
	return { ms: elapsed, passes };
}

/** A share of a core used by other processes above which a sample is taken again (twice at most). */
const DISTURBED_SHARE = 0.25;

function takeSample(fn: () => unknown, size: number, sampleMs: number): { us: number; passes: number; otherShare: number | undefined } {
	collectGarbage();
	const busy0 = machineBusyMs();
	const self0 = process.cpuUsage();
	const timed = timePasses(fn, sampleMs);
	const self = process.cpuUsage(self0);
	const busy1 = machineBusyMs();
	const otherShare =
		busy0 !== undefined && busy1 !== undefined ? Math.max(0, busy1 - busy0 - (self.user + self.system) / 1000) / timed.ms : undefined;
	return { us: (timed.ms * 1000) / (timed.passes * size), passes: timed.passes, otherShare };
}

/**
 * Both flatteners on documents of each size, with and without included. Run it with one size per
 * process: the 10,000-resource documents (about 100–200 MB parsed) would otherwise sit in the heap
 * while the small ones are measured and make every collection slower.
 */
export async function flattenBench(
	sandbox: SandboxInfo,
	sizes: number[],
	include: string,
	samples: number,
	sampleMs: number,
): Promise<FlattenCase[]> {
	const token = await fetchToken(sandbox);
	const jsona = new Jsona();
	const implementations = {
		flatten: (document: Document) => flatten(document),
		jsona: (document: Document) => jsona.deserialize(document as never),
	};
	const cases: FlattenCase[] = [];
	for (const size of sizes) {
		for (const withIncluded of [false, true]) {
			// Only this document is in the heap while it is measured (the pages go once it is built).
			const doc = buildDocument(await fetchPages(sandbox, token, size, withIncluded ? include : undefined), size, withIncluded);
			const documentBytes = Buffer.byteLength(JSON.stringify(doc));
			const byImplementation = {} as Record<'flatten' | 'jsona', FlattenCase>;
			for (const implementation of ['flatten', 'jsona'] as const) {
				const check = implementations[implementation](doc) as unknown[];
				if (!Array.isArray(check) || check.length !== size) throw new Error(`${implementation} gave ${String((check as unknown[])?.length)} items for ${size}`);
				timePasses(() => implementations[implementation](doc), 500);
				byImplementation[implementation] = {
					implementation,
					resources: size,
					withIncluded,
					includedResources: doc.included?.length ?? 0,
					documentBytes,
					usPerResource: [],
					passes: [],
					otherShare: [],
				};
			}
			// Interleaved, so a burst of other load touches both alike; a disturbed sample is retaken.
			for (let i = 0; i < samples; i++) {
				const order = i % 2 === 0 ? (['flatten', 'jsona'] as const) : (['jsona', 'flatten'] as const);
				for (const implementation of order) {
					const fn = () => implementations[implementation](doc);
					let sample = takeSample(fn, size, sampleMs);
					for (let retry = 0; retry < 2 && (sample.otherShare ?? 0) > DISTURBED_SHARE; retry++) {
						const again = takeSample(fn, size, sampleMs);
						if ((again.otherShare ?? 0) < (sample.otherShare ?? 0)) sample = again;
					}
					const target = byImplementation[implementation];
					target.usPerResource.push(sample.us);
					target.passes.push(sample.passes);
					if (sample.otherShare !== undefined) target.otherShare.push(sample.otherShare);
				}
			}
			cases.push(byImplementation.flatten, byImplementation.jsona);
			sink = undefined;
		}
	}
	return cases;
}

export function lastSink(): unknown {
	return sink;
}
