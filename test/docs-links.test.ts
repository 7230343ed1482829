/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, run by jest and never loaded by n8n: it may use process and timers, Node modules (docs/architecture.md, Toolchain). */
/** The documentation links the node creator shows (the codex files) land on a README section. */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The anchors GitHub gives the README: heading slugs and explicit `<a id>`s. */
function readmeAnchors(): Set<string> {
	const slugs = [...README.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) =>
		heading.trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-'),
	);
	const ids = [...README.matchAll(/<a (?:id|name)="([^"]+)"/g)].map(([, id]) => id);
	return new Set(['readme', ...slugs, ...ids]);
}

function codexLinks(): string[] {
	const nodesDir = path.join(ROOT, 'nodes');
	return readdirSync(nodesDir).flatMap((dir) =>
		readdirSync(path.join(nodesDir, dir))
			.filter((file) => file.endsWith('.node.json'))
			.flatMap((file) => [...readFileSync(path.join(nodesDir, dir, file), 'utf8').matchAll(/"url": "([^"]+)"/g)].map(([, url]) => url)),
	);
}

it('every README anchor a node links to exists', () => {
	const anchors = readmeAnchors();
	const links = codexLinks().filter((url) => url.includes('#'));
	expect(links.length).toBeGreaterThanOrEqual(4);
	expect(links.filter((url) => !anchors.has(url.split('#')[1]))).toEqual([]);
});
