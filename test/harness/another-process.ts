import { STATE_KEY } from '../../nodes/MarketplaceMerchant/transport/state';

/**
 * Loads modules as another n8n process would: a fresh copy of each (jest.isolateModulesAsync) and
 * a process-wide state of their own (transport/state.ts keeps it on globalThis, which a fresh
 * module copy in the same jest context would otherwise find and share). The copies take their
 * state when they load, so the registry of this process is put back as soon as `load` returns.
 */
export async function loadAsAnotherProcess<T>(load: () => Promise<T>): Promise<T> {
	const holder = globalThis as Record<symbol, unknown>;
	const ours = holder[STATE_KEY];
	delete holder[STATE_KEY];
	let loaded: { value: T } | undefined;
	try {
		await jest.isolateModulesAsync(async () => {
			loaded = { value: await load() };
		});
	} finally {
		holder[STATE_KEY] = ours;
	}
	if (!loaded) throw new Error('modules of the other process not loaded');
	return loaded.value;
}
