/**
 * One state per n8n process. n8n loads the node, the trigger and the credential from three bundles
 * (bundles.js), each with its own copy of every module it imports, so module-level state would be
 * three states: three pacers each sending at the merchant's whole limits, three token caches. What
 * the limits and the tokens need (the gates, the answer cap's count, tokens, what was learned of a
 * service) is taken from this module instead, which the build leaves out of the bundles: it is one
 * file of its own in dist/ that all three require, and Node loads a file once per process. (Not on
 * `globalThis`: n8n's rules for community nodes forbid it.) The bundles of one package run the same
 * code, so an object one bundle made works in the others; a class whose instances cross bundles,
 * for `instanceof`, is itself kept here. Between the processes of queue mode nothing is shared.
 * This module imports nothing: it is the same single file for all.
 */
const registry = new Map<string, unknown>();

/** The process's one value under `name`, made by `create` when the first bundle asks for it. */
export function processWide<T>(name: string, create: () => T): T {
	if (!registry.has(name)) registry.set(name, create());
	return registry.get(name) as T;
}
