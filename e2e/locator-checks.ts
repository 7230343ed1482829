/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * "Pick, don't type" (issue 13) in a real n8n: a workflow whose Product Update names its product
 * By EAN (e2e/workflows/locators.json, through `n8n execute`), and the editor's own calls for
 * the pickers (`POST /rest/dynamic-node-parameters/resource-locator-results` and `/options`, as
 * the panel sends them) answered from the sandbox.
 */
import assert from 'node:assert/strict';

import type { Sandbox } from '../sandbox';
import { PRODUCT_TYPES } from '../sandbox/data';
import { check, nodeOutput } from './checks';
import { executeWorkflow, type N8nInstallation } from './n8n';
import type { N8nOwnerSession } from './n8n-api';

const LOCATORS_WORKFLOW_ID = 'e2eLocators00001';
/** The product the workflow updates: the 45th of Get Many's first page (no other workflow touches it). */
const PRODUCT_BY_EAN = 100045;

/** The node type and the credential, as the editor names them in its requests. */
export interface EditorTarget {
	nodeType: string;
	credential: { type: string; id: string; name: string };
}

/** `n8n execute` of the locator workflow: the product given By EAN is the one updated. */
export async function checkLocatorWorkflow(installation: N8nInstallation, userFolder: string, sandbox: Sandbox): Promise<void> {
	await check('Product > Update with the product By EAN: looked up first, then that product updated', async () => {
		const product = sandbox.state.products.find(({ id }) => id === PRODUCT_BY_EAN);
		assert.ok(product, `the sandbox has no product ${PRODUCT_BY_EAN}`);
		sandbox.clearLog();
		const execution = await executeWorkflow(installation, userFolder, LOCATORS_WORKFLOW_ID);
		const error = execution.data.resultData.error;
		assert.equal(execution.status, 'success', `execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`);
		const [result] = nodeOutput(execution, 'Update By EAN');
		assert.equal(result?.success, true, `update result: ${JSON.stringify(result)}`);
		assert.equal(Number(result.id), PRODUCT_BY_EAN);
		const lookups = sandbox.log.filter((entry) => entry.route === 'products' && entry.query.ean !== undefined);
		assert.deepEqual(lookups.map((entry) => entry.query.ean), [product.ean]);
		const updates = sandbox.log.filter((entry) => entry.route === 'productUpdate');
		assert.deepEqual(updates.map((entry) => entry.path.split('/').pop()), [String(PRODUCT_BY_EAN)]);
		assert.equal(sandbox.state.products.find(({ id }) => id === PRODUCT_BY_EAN)?.stockLevel, 4321);
		return `EAN ${product.ean} → product ${PRODUCT_BY_EAN}, stock 4321`;
	});
}

const EAN_BATCHES_WORKFLOW_ID = 'e2eEanBatches001';
/** Products 301-330 of the sandbox: no other workflow touches them. */
const BATCH_IDS = Array.from({ length: 30 }, (_, index) => 100_301 + index);

/**
 * Issue 28, point 7, in a real n8n: Product Update over 30 input items given By EAN, against a
 * sandbox whose GET products takes a repeated `ean`: the items' look-ups go out as one request.
 */
export async function checkEanBatchWorkflow(installation: N8nInstallation, userFolder: string, sandbox: Sandbox): Promise<void> {
	await check('Product > Update over 30 items By EAN: the 30 look-ups in one request (service takes a repeated ean)', async () => {
		sandbox.setVariants({ productsEanRepeats: true });
		sandbox.clearLog();
		try {
			const execution = await executeWorkflow(installation, userFolder, EAN_BATCHES_WORKFLOW_ID);
			const error = execution.data.resultData.error;
			assert.equal(execution.status, 'success', `execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`);
			const results = nodeOutput(execution, 'Update By EAN');
			assert.deepEqual(
				results.map((result) => [Number(result.id), result.success]),
				BATCH_IDS.map((id) => [id, true]),
			);
			// The catalogue's 60 a minute are shared with the checks just before (Import's 101 requests,
			// the locator's): a request answered 429 is waited out and sent again, so only the
			// answered ones are counted, and the retried ones are reported.
			const answered = sandbox.log.filter((entry) => entry.status !== 429);
			const lookups = answered.filter((entry) => entry.route === 'products' && entry.query.ean !== undefined);
			assert.deepEqual(
				// Each EAN-13 goes with its GTIN-14 form (issue 38: the forms of one code are one EAN): 60 codes, one request.
				lookups.map((entry) => entry.query.ean.split(',').length),
				[60],
			);
			assert.deepEqual(
				answered.filter((entry) => entry.route === 'productUpdate').map((entry) => Number(entry.path.split('/').pop())).sort((a, b) => a - b),
				BATCH_IDS,
				'one update answered for each product',
			);
			assert.deepEqual(
				BATCH_IDS.map((id) => sandbox.state.product(id)?.stockLevel),
				BATCH_IDS.map(() => 555),
			);
			const retried = sandbox.log.length - answered.length;
			return `30 EANs in 1 look-up, 30 updates, stock 555 each${retried > 0 ? ` (${retried} answered 429 and sent again)` : ''}`;
		} finally {
			sandbox.resetVariants();
		}
	});
}

interface ListSearchAnswer {
	results: Array<{ name: string; value: string | number }>;
	paginationToken?: string;
}

/** The body the editor posts for a field of the node's panel. */
function editorRequest(target: EditorTarget, path: string, currentNodeParameters: Record<string, unknown>) {
	return {
		nodeTypeAndVersion: { name: target.nodeType, version: 1 },
		path,
		currentNodeParameters,
		credentials: { [target.credential.type]: { id: target.credential.id, name: target.credential.name } },
	};
}

/** The pickers through n8n's REST API, as the editor calls it, with the owner's session. */
export async function checkLocatorLists(session: N8nOwnerSession, target: EditorTarget, sandbox: Sandbox): Promise<void> {
	const products = sandbox.state.products;
	const updateParameters = { resource: 'product', operation: 'update', productId: { __rl: true, mode: 'list', value: '' } };
	const search = async (filter?: string, paginationToken?: string) =>
		await session.request<ListSearchAnswer>('POST', '/dynamic-node-parameters/resource-locator-results', {
			...editorRequest(target, 'parameters.productId', updateParameters),
			methodName: 'searchProducts',
			...(filter === undefined ? {} : { filter }),
			...(paginationToken === undefined ? {} : { paginationToken }),
		});

	await check('editor: Product ID From List shows the sandbox\'s products, pages on, and searches by SKU and EAN', async () => {
		const first = await search();
		assert.deepEqual(
			first.results.map((entry) => String(entry.value)),
			products.slice(0, 50).map((product) => String(product.id)),
		);
		// The entry tells similar products apart: name, price, stock, then the codes merchants search by.
		const shown = String(first.results[0].name);
		const parts = shown.split(' · ');
		assert.equal(parts[0], products[0].name, shown);
		assert.match(parts[1] ?? '', /^\d{1,3}(\u00a0\d{3})*(\.\d{2})?\u00a0RSD$/, shown);
		assert.deepEqual(parts.slice(2), [`stock ${products[0].stockLevel}`, `SKU ${products[0].sku}`, `EAN ${products[0].ean}`], shown);
		assert.equal(first.paginationToken, '1');
		const second = await search(undefined, first.paginationToken);
		assert.equal(String(second.results[0]?.value), String(products[50].id));
		const wanted = products[70];
		const bySku = await search(wanted.sku);
		assert.ok(bySku.results.some((entry) => String(entry.value) === String(wanted.id)), `SKU ${wanted.sku} not found`);
		const byEan = await search(wanted.ean);
		assert.deepEqual(byEan.results.map((entry) => String(entry.value)), [String(wanted.id)]);
		return `${first.results.length} on page 1, SKU and EAN of ${wanted.id} found`;
	});

	await check('editor: Discount ID From List shows current and upcoming discounts only', async () => {
		const answer = await session.request<ListSearchAnswer>('POST', '/dynamic-node-parameters/resource-locator-results', {
			...editorRequest(target, 'parameters.discountId', { resource: 'discount', operation: 'cancel' }),
			methodName: 'searchDiscounts',
		});
		const now = Date.now();
		const expected = sandbox.state.discounts.filter((discount) => !discount.cancelled && (discount.endsAtMs === null || discount.endsAtMs >= now));
		assert.ok(expected.length > 0, 'the sandbox has no current or upcoming discount');
		assert.deepEqual(
			answer.results.map((entry) => String(entry.value)).sort(),
			expected.map((discount) => discount.discountId).sort(),
		);
		return `${answer.results.length} discounts`;
	});

	await check('editor: Import > Product Type lists the types of Get Types, in English when asked', async () => {
		const options = await session.request<Array<{ name: string; value: string }>>('POST', '/dynamic-node-parameters/options', {
			...editorRequest(target, 'parameters.productType', { resource: 'product', operation: 'import', language: 'en' }),
			methodName: 'getProductTypes',
		});
		const english = PRODUCT_TYPES.map((type) => type.en).sort((a, b) => a.localeCompare(b));
		assert.deepEqual(options.map((option) => option.value), english);
		return `${options.length} types`;
	});
}
