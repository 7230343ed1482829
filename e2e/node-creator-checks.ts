/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error, no-console -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use Node modules, plain errors, console output (docs/architecture.md, Toolchain). */
/**
 * Found by a merchant's words: in n8n's real editor (headless chromium), the node creator's search
 * for "invoice", "stock", "discount" and "EAN" lists this package's node.
 *
 * The node creator searches each node's display name and its codex `alias` list (n8n's
 * sublimeSearch over `properties.displayName` and `properties.codex.alias`), fuzzily: "stock" or
 * "discount" can only come from the aliases in nodes/*\/*.node.json, which the build copies next
 * to the node files. ("ean" also matches "MarkEtplAce merchaNt" letter by letter; it is checked
 * all the same, as a merchant types it.)
 */
import assert from 'node:assert/strict';

import { ensureChromium, find, openBrowser, signIn, sleep, waitUntil, type DevToolsPage } from './browser';
import { check, seconds } from './checks';
import type { N8nOwner } from './n8n';
import type { N8nOwnerSession } from './n8n-api';

const SEARCH_WORDS = ['invoice', 'stock', 'discount', 'EAN', 'new order', 'print label', 'packing slip'];
const VIEWPORT = { width: 1280, height: 900 };

/** A workflow with a trigger, so that the node creator opens on all nodes (not on triggers only). */
const WORKFLOW = {
	name: 'E2E: node creator search (temporary)',
	// n8n 1.x stores no default for it (NOT NULL).
	active: false,
	nodes: [{ id: 'e2e-node-creator-0', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }],
	connections: {},
	settings: { executionOrder: 'v1' },
};

const RESULT_NAMES = `[...document.querySelectorAll('[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]')].filter((element) => element.getClientRects().length > 0).map((element) => element.textContent.trim())`;

const SEARCH_BAR = find.testId('node-creator-search-bar');

/**
 * Empties the search (the node creator goes back to its categories, where the node is not listed),
 * types `word` and returns the names listed once the list has stayed the same for a second and a
 * half: results follow the typing after a debounce, and a list read too early would be the
 * previous word's.
 */
async function searchFor(page: DevToolsPage, word: string, displayName: string): Promise<string[]> {
	await page.evaluate(`(() => { const input = ${SEARCH_BAR}; input.focus(); input.select(); })()`);
	await page.pressBackspace();
	await waitUntil(
		'the search to empty',
		async () => {
			const [value, listed] = await page.evaluate<[string, string[]]>(`[${SEARCH_BAR}.value, ${RESULT_NAMES}]`);
			return (value === '' && !listed.includes(displayName)) || undefined;
		},
		10_000,
	);
	await page.type(word);
	let previous = '';
	let stableSince = Date.now();
	return await waitUntil(
		`the results for "${word}" to settle`,
		async () => {
			const [value, listed] = await page.evaluate<[string, string[]]>(`[${SEARCH_BAR}.value, ${RESULT_NAMES}]`);
			const key = JSON.stringify([value, listed]);
			if (key !== previous) [previous, stableSince] = [key, Date.now()];
			return value === word && Date.now() - stableSince >= 1_500 ? listed : undefined;
		},
		20_000,
	);
}

/**
 * Clicks the node creator button until the creator's search shows (at most 3 clicks): on a busy
 * machine the first click can come before n8n 1.123's freshly loaded editor handles it (seen once
 * in CI: no search bar 20 s after the click). A click is repeated only when the search is not
 * there, since the button also closes an open creator.
 */
async function openNodeCreator(page: DevToolsPage): Promise<void> {
	for (let attempt = 1; ; attempt++) {
		await page.click('the node creator button', find.testId('node-creator-plus-button'), { timeoutMs: 30_000 });
		try {
			await page.locate('the node creator search', SEARCH_BAR, 15_000);
			return;
		} catch (error) {
			if (attempt >= 3) throw error;
		}
	}
}

export async function checkNodeCreatorSearch(session: N8nOwnerSession, baseUrl: string, owner: N8nOwner, displayName: string): Promise<void> {
	await check(`editor: the node creator finds "${displayName}" for ${SEARCH_WORDS.map((word) => `"${word}"`).join(', ')} (headless chromium)`, async () => {
		const installMs = await ensureChromium((line) => console.log(`     ${line}`));
		const { id: workflowId } = await session.request<{ id: string }>('POST', '/workflows', WORKFLOW);
		const browser = await openBrowser(VIEWPORT);
		const { page } = browser;
		try {
			await signIn(page, baseUrl, owner);
			await page.navigate(`${baseUrl}/workflow/${workflowId}`);
			await page.locate('the workflow on the canvas', `document.querySelector('[data-test-id="canvas-node"]')`, 60_000);
			await openNodeCreator(page);
			// The search bar takes the focus itself once the panel has slid in; a click while it
			// slides in may land outside and close it.
			await sleep(1_000);
			const found: string[] = [];
			for (const word of SEARCH_WORDS) {
				const names = await searchFor(page, word, displayName);
				const position = names.indexOf(displayName);
				assert.ok(position >= 0, `"${word}" lists ${names.length} nodes without ${displayName}: ${names.slice(0, 15).join(', ')}`);
				found.push(`"${word}": ${names.slice(0, 5).join(', ')}${names.length > 5 ? ` … (${names.length})` : ''}`);
			}
			return `${found.join('; ')}${installMs === undefined ? '' : `; chromium installed in ${seconds(installMs)}`}`;
		} finally {
			await browser.close();
			// n8n deletes only archived workflows (older lines delete directly).
			await session
				.request('POST', `/workflows/${workflowId}/archive`)
				.catch(() => undefined)
				.then(() => session.request('DELETE', `/workflows/${workflowId}`))
				.catch(() => undefined);
		}
	});
}
