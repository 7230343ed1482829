/**
 * One state per n8n process. n8n loads the node, the trigger and the credential from three bundles
 * (gulpfile.js), each with its own copy of every module, so module-level state would be three
 * states: three pacers each sending at the merchant's whole limits, three token caches. What the
 * limits and the tokens need (the gates, the answer cap's count, tokens, what was learned of a
 * service) is taken from here instead: one registry per process on `globalThis`, keyed by the
 * package and its version. Bundles of one version share it and run the same code, so an object one
 * bundle made works in the others (a class whose instances cross bundles, for `instanceof`, is
 * itself kept here); another version loaded into the same process keeps its own. Between the
 * processes of queue mode nothing is shared, as before.
 */

/** package.json's version (test/transport/state.test.ts holds them equal). */
export const PACKAGE_VERSION = '0.1.0';

export const STATE_KEY = Symbol.for(`n8n-nodes-marketplace-merchant/state@${PACKAGE_VERSION}`);

type Registry = Map<string, unknown>;

function registry(): Registry {
	const holder = globalThis as typeof globalThis & { [STATE_KEY]?: Registry };
	holder[STATE_KEY] ??= new Map<string, unknown>();
	return holder[STATE_KEY];
}

/** The process's one value under `name`, made by `create` when the first bundle asks for it. */
export function processWide<T>(name: string, create: () => T): T {
	const shared = registry();
	if (!shared.has(name)) shared.set(name, create());
	return shared.get(name) as T;
}
