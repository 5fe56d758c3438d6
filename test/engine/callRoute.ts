/**
 * A run's route through the package's files, recorded while the run happens (issue 39: "followed
 * call by call, a write returns to a file it has left at most twice").
 *
 * How it counts, exactly:
 * - Every function a file of nodes/ or credentials/ exports is wrapped in its module (and in the
 *   exported tables that hold it, such as the actions' table), so each call from one package file
 *   into another is an event: the caller is the innermost package file on the stack (a callback a
 *   file handed to another runs in the file that wrote it), the callee the file that exports the
 *   function. Calls into n8n (getNodeParameter, getNode, …) and reads of constants are not events.
 * - The route lists the file control is in: for each event, the caller (when control was elsewhere:
 *   it came back there and goes on) and then the callee. Consecutive steps in one file are one
 *   visit. A file that only hands a result back up is passed through, not visited again.
 * - A call is followed once per place in the run: a loop's second and later rounds (the same call
 *   from the same line under the same callers) are not steps again. A second call of the same
 *   function from elsewhere (a second reading of an item, say) is.
 * - A return is a visit to a file the route has visited before: visits − files.
 * - A second count (`calls`) lists only the files entered by calls: a caller waiting for its callee
 *   has not left it, and a return is a call into a file whose earlier call has returned.
 * - Not followed: the request (once transport.ts has it, what it stands on: the run's slots, the
 *   rate budget, the token) and the building of an error (errors/); the route ends there.
 */
import { readdirSync } from 'fs';
import { basename, join, relative, sep } from 'path';

import { REPO_ROOT } from '../../harness';

export interface CallEvent {
	/** Repository path of the calling file. */
	caller: string;
	/** Repository path of the called function's file. */
	callee: string;
	/** The called function's export name. */
	name: string;
	/** For apiRequest: `METHOD path` of the request. */
	detail?: string;
	/** The package frames of the stack at the call, innermost first (the caller first). */
	frames: Frame[];
}

const PACKAGE_FOLDERS = ['nodes', 'credentials'];

function packageFiles(folder: string): string[] {
	return readdirSync(join(REPO_ROOT, folder), { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
		.map((entry) => relative(REPO_ROOT, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

const isClass = (value: unknown): boolean => typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value));

/** A package function running: its file and its name as the stack gives it. */
export interface Frame {
	file: string;
	fn: string;
	/** Where in the file it is (line:column of the call it is making). */
	at: string;
}

/** The package frames of a stack, innermost first. */
function packageFrames(stack: string): Frame[] {
	const frames: Frame[] = [];
	for (const line of stack.split('\n').slice(1)) {
		const match = /^\s*at (?:async )?(?:(.*?) \()?([^\s()]+\.ts):(\d+):(\d+)\)?\s*$/.exec(line);
		if (!match) continue;
		const file = relative(REPO_ROOT, match[2]).split(sep).join('/');
		// `ExecuteContext.route`, `Object.prepare [as create]`: the function's own name.
		const fn = (match[1] ?? '<anonymous>').replace(/\s*\[as [^\]]+\]$/, '').replace(/^.*\./, '');
		if (PACKAGE_FOLDERS.some((folder) => file.startsWith(`${folder}/`))) frames.push({ file, fn, at: `${match[3]}:${match[4]}` });
	}
	return frames;
}

export interface CallRecorder {
	/** Records the calls made until the returned function is called. */
	record(): () => CallEvent[];
}

let installed: CallRecorder | undefined;

/**
 * Wraps every exported function of the package, once per test file (jest's module registry is the
 * file's own, so the nodes the harness loads are these modules).
 */
export function callRecorder(): CallRecorder {
	if (installed !== undefined) return installed;
	let events: CallEvent[] | undefined;
	const modules = PACKAGE_FOLDERS.flatMap(packageFiles).map((file) => ({ file, exports: require(join(REPO_ROOT, file)) as Record<string, unknown> }));
	const wrappers = new Map<unknown, unknown>();
	for (const { file, exports } of modules) {
		for (const [name, original] of Object.entries(exports)) {
			if (typeof original !== 'function' || isClass(original) || wrappers.has(original)) continue;
			const descriptor = Object.getOwnPropertyDescriptor(exports, name);
			// A re-export is a getter reading the exporting module, whose own export is wrapped.
			if (descriptor === undefined || !('value' in descriptor) || descriptor.writable !== true) continue;
			const fn = original as (...args: unknown[]) => unknown;
			const wrapper = function (this: unknown, ...args: unknown[]): unknown {
				if (events !== undefined) {
					const previousLimit = Error.stackTraceLimit;
					Error.stackTraceLimit = Infinity;
					const frames = packageFrames(new Error().stack ?? '');
					Error.stackTraceLimit = previousLimit;
					const request = args[0] as { method?: unknown; path?: unknown } | undefined;
					events.push({
						caller: frames[0]?.file ?? '(outside)',
						callee: file,
						name,
						...(name === 'apiRequest' ? { detail: `${String(request?.method)} ${String(request?.path)}` } : {}),
						frames,
					});
				}
				return fn.apply(this, args);
			};
			wrappers.set(original, wrapper);
			exports[name] = wrapper;
		}
	}
	// Tables of functions built when a module loaded (the actions by shape) hold the originals.
	for (const { exports } of modules) {
		for (const value of Object.values(exports)) {
			if (value === null || typeof value !== 'object' || Object.isFrozen(value)) continue;
			for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
				if (wrappers.has(member)) (value as Record<string, unknown>)[key] = wrappers.get(member);
			}
		}
	}
	installed = {
		record() {
			events = [];
			return () => {
				const recorded = events ?? [];
				events = undefined;
				return recorded;
			};
		},
	};
	return installed;
}

export interface Route {
	/** The files in the order control is in them, each visit once; `↩` marks a return. */
	steps: string[];
	visits: number;
	files: number;
	returns: number;
}

/** A file's short name: its name without `.ts` (`node` for a node file), with its folder when two files share it. */
export function shortName(file: string): string {
	if (file.endsWith('.node.ts')) return 'node';
	const name = basename(file, '.ts');
	const same = PACKAGE_FOLDERS.flatMap(packageFiles).filter((other) => basename(other, '.ts') === name);
	return same.length > 1 ? `${file.split('/').slice(-2, -1)[0]}/${name}` : name;
}

/** What the request stands on (the run's slots and settings, the rate budget, the token): the request itself, not followed. */
const REQUEST_MACHINERY = [/^nodes\/shared\/requests\/(?!parallel\.ts)/, /^credentials\//];
const ERROR_LABELS = /^nodes\/shared\/errors\//;

/**
 * Whether the route follows an event: not inside the request (what transport.ts and the files it
 * stands on call, once `apiRequest` has it) nor inside the building of an error (errors/), except
 * the error itself, which is where the route ends.
 */
export function followed(event: CallEvent): boolean {
	if (ERROR_LABELS.test(event.callee)) return !ERROR_LABELS.test(event.caller);
	if (event.callee.endsWith('requests/transport.ts')) return !REQUEST_MACHINERY.some((pattern) => pattern.test(event.caller));
	return ![event.caller, event.callee].some((file) => REQUEST_MACHINERY.some((pattern) => pattern.test(file)) || ERROR_LABELS.test(file));
}

/**
 * How a route counts a visit:
 * - `steps`: every file control is in, in order: each call, and each return to a file that goes
 *   on to call elsewhere (the count: "write → common → values → write ↩ …").
 * - `calls`: the files entered by calls only; a caller waiting for its callee has not left, so
 *   coming back to it is no visit, and consecutive calls into one file are one visit. A return is a
 *   call into a file whose earlier call has returned: a file the route left and comes back to.
 */
export type RouteCount = 'steps' | 'calls';

/**
 * The route of `events` (see the header for how it counts), up to and including the event `until`
 * picks. Between two events control went up the stack to the innermost function both share (a
 * return) and down the new event's frames (calls, wrapped or not: a callback, a method of a
 * returned object) to the callee.
 */
export function routeOf(events: readonly CallEvent[], until: (event: CallEvent) => boolean = () => false, count: RouteCount = 'steps'): Route {
	const files: string[] = [];
	const seen = new Set<string>();
	const visit = (file: string): void => {
		if (files[files.length - 1] !== file) files.push(file);
	};
	let previous: string[] = [];
	for (const event of events) {
		if (!followed(event)) continue;
		const last = until(event);
		// Outermost first; a running function is its file and name, wherever in it control is. Inside a
		// request, what the transport stands on is the request (an error built there is the transport's).
		const stack: string[] = [];
		let inRequest = false;
		for (const frame of [...event.frames].reverse()) {
			if (inRequest && REQUEST_MACHINERY.concat(/^nodes\/shared\/requests\//).some((pattern) => pattern.test(frame.file))) continue;
			stack.push(`${frame.file}#${frame.fn}`);
			if (frame.file.endsWith('requests/transport.ts')) inRequest = true;
		}
		stack.push(`${event.callee}#${event.name}`);
		const place = [`${event.callee}#${event.name}`, ...event.frames.map((frame) => `${frame.file}#${frame.fn}:${frame.at}`)].join(' < ');
		if (seen.has(place) && !last) continue;
		seen.add(place);
		// The innermost caller still running from the previous event: control came back up to it (after
		// an await the stack holds only the functions awaiting, so it is matched by function, not by depth).
		let anchor = stack.length - 2;
		while (anchor >= 0 && !previous.includes(stack[anchor])) anchor -= 1;
		const fileOf = (frame: string) => frame.split('#')[0];
		if (count === 'steps') {
			if (anchor >= 0 && previous.lastIndexOf(stack[anchor]) < previous.length - 1) visit(fileOf(stack[anchor]));
			for (const frame of stack.slice(anchor + 1)) visit(fileOf(frame));
		} else {
			// A call into a file still running further up (a callback into the router) enters nothing new.
			stack.forEach((frame, depth) => {
				if (depth > anchor && !stack.slice(0, depth).some((outer) => fileOf(outer) === fileOf(frame))) visit(fileOf(frame));
			});
		}
		previous = stack;
		if (last) break;
	}
	const visited = new Set<string>();
	const steps = files.map((file) => {
		const again = visited.has(file);
		visited.add(file);
		return `${shortName(file)}${again ? ' ↩' : ''}`;
	});
	return { steps, visits: files.length, files: visited.size, returns: files.length - visited.size };
}

/** `node → router → write → … ↩ …`, with its counts. */
export function describeRoute(route: Route): string {
	return `${route.steps.join(' → ')}\n  ${route.visits} visits, ${route.files} files, ${route.returns} returns`;
}
