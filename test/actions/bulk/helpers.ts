/**
 * What the tests of the bulk operations (actions/bulk/) share: the sandbox per test, a runner,
 * node settings by On Error, a sheet's rows, and what a run sent and hinted.
 */
import type { IDataObject, INodeExecutionData, INodeParameters, NodeExecutionHint } from 'n8n-workflow';

import type { ProductRecord } from '../../../sandbox';
import type { WorkflowRunResult } from '../../harness';
import { NOW, YEAR, apiRequests, runner, sandbox, sandboxPerTest, sent } from '../helpers';

export const start = sandboxPerTest((products: number = 300) => ({ now: NOW, products }));
export const discountStart = sandboxPerTest(() => ({ now: `${YEAR}-06-15T10:00:00Z`, seed: 5, products: 1_400 }));
export const run = runner();
export const NEW_NODE = { node: { typeVersion: 2 } };
/** On Error = Continue (using regular output): rejected entries come out as items with success false. */
export const CONTINUE = { node: { typeVersion: 2, onError: 'continueRegularOutput' as const } };
/** On Error = Continue (using error output): rejected entries leave through output 1. */
export const ERROR_OUTPUT = { node: { typeVersion: 2, onError: 'continueErrorOutput' as const } };

/** Update Many over three rows, the middle one an unknown product (999999) the service rejects; the other two set stock 7 and 8. */
export async function updateManyWithUnknownProduct(settings: typeof NEW_NODE | typeof CONTINUE) {
	const [a, b] = settledProducts(2);
	const result = await run(
		{ resource: 'product', operation: 'updateMany', itemId: '={{ $json.id }}', itemUpdateFields: { stockLevel: '={{ $json.stock }}' } },
		[
			{ id: a.id, stock: 7 },
			{ id: 999_999, stock: 1 },
			{ id: b.id, stock: 8 },
		],
		settings,
	);
	return { a, b, result };
}

/** A sheet's rows as Read CSV gives them: its own column names, every value text. */
export function sheetRows(products: ProductRecord[], change: (product: ProductRecord, index: number) => IDataObject = () => ({})): IDataObject[] {
	return products.map((product, index) => ({ EAN: product.ean, Qty: String(product.stockLevel + 1), Price: String(product.basePrice), ...change(product, index) }));
}

export const SYNC_MAPPED: INodeParameters = {
	resource: 'product',
	operation: 'syncStockAndPrices',
	itemMatch: '={{ $json.EAN }}',
	itemStockLevel: '={{ $json.Qty }}',
	itemBasePrice: '={{ $json.Price }}',
};

export function settledProducts(count: number): ProductRecord[] {
	return sandbox.state.products.filter((product) => product.newBasePrice === product.basePrice && product.stockLevel > 0).slice(0, count);
}

export function hintsOf(result: WorkflowRunResult): NodeExecutionHint[] {
	return result.run.data.resultData.runData.Node?.[0]?.hints ?? [];
}

export function pairedItems(items: INodeExecutionData[]): unknown[] {
	return items.map((item) => item.pairedItem);
}

/** The catalogue pages a run read that hold products (3,000 products: pages 0 and 1 of 2,500), as often as each was read. */
export function neededPages(): string[] {
	return sent('basicProducts')
		.map((entry) => String(entry.query.page))
		.filter((page) => page === '0' || page === '1')
		.sort();
}

/** The requests of a run by route, for comparing two runs. */
export function requestCounts(): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const { route } of apiRequests()) counts[route] = (counts[route] ?? 0) + 1;
	return counts;
}
