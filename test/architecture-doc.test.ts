/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, run by jest and never loaded by n8n: it may use process and timers, Node modules (docs/architecture.md, Toolchain). */
/**
 * The sentences of docs/architecture.md that a test can check: every file and folder of the
 * repository it names exists (at the path written, or under nodes/, the node's folder, its
 * actions/ or the trigger's folder, as its prose abbreviates them). Paths of n8n's own source
 * (packages/…) are n8n's, not ours; dist/ is the build's, not there before `npm run build`.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');
const DOC = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
const ABBREVIATED_FROM = ['', 'nodes/', 'nodes/MarketplaceMerchant/', 'nodes/MarketplaceMerchant/actions/', 'nodes/MarketplaceMerchantTrigger/', 'docs/', 'test/'];
const NOT_OURS_OR_BUILT = /^(?:packages|dist)\//;

/** Every relative path the document writes: a file with an extension, or a folder ending in a slash. */
function namedPaths(): string[] {
	const pattern = /(?<![\w./-])((?:[\w.-]+\/)+[\w.-]*\.(?:ts|mjs|js|json|md|yml|sh)|(?:[\w-]+\/)+)(?![\w/])/g;
	return [...new Set([...DOC.matchAll(pattern)].map(([, named]) => named))].filter((named) => !NOT_OURS_OR_BUILT.test(named));
}

describe('docs/architecture.md', () => {
	it('names paths to check', () => {
		expect(namedPaths().length).toBeGreaterThan(50);
	});

	it('names only files and folders that exist', () => {
		const missing = namedPaths().filter((named) => !ABBREVIATED_FROM.some((base) => existsSync(path.join(ROOT, base, named))));
		expect(missing).toEqual([]);
	});
});
