/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * The results of e2e/workflows/write-operations.json (Product Update Many and Discount Schedule,
 * each with one entry the service rejects), checked against the sandbox's state. Used by
 * e2e/suite.ts (`n8n execute`) and e2e/queue/suite.ts (the same workflow on a worker).
 */
import assert from 'node:assert/strict';

import { check, nodeOutput, type ExecutionWithRunData } from './checks';

/** A product id the sandbox does not have (its ids start at 100001). */
export const UNKNOWN_PRODUCT_ID = 999_999;

/** What the checks read from the sandbox (in process or over HTTP). */
export interface WriteSandbox {
	stockLevel(productId: number): Promise<number | undefined>;
	/** items per product/bulk request since the workflow started */
	bulkItemCounts(): Promise<Array<number | undefined>>;
	discounts(): Promise<Array<{ discountId: unknown; merchantInventoryId: number; discountPrice: number }>>;
}

/** `where` names the place the workflow ran, e.g. " on a worker"; empty for one process. */
export async function checkWriteResults(execution: ExecutionWithRunData, sandbox: WriteSandbox, where = ''): Promise<void> {
	await check(`Product > Update Many${where}: one item per product, the bad one with success false and its error`, async () => {
		const updates = nodeOutput(execution, 'Update Stock');
		assert.deepEqual(
			updates.map((update) => [Number(update.id), update.success]),
			[
				[100010, true],
				[UNKNOWN_PRODUCT_ID, false],
				[100011, true],
			],
		);
		assert.match(String(updates[1].error), /does not exist/);
		assert.equal(await sandbox.stockLevel(100010), 77);
		assert.equal(await sandbox.stockLevel(100011), 0);
		assert.deepEqual(await sandbox.bulkItemCounts(), [3]);
		return 'stock 77 and 0 stored, 999999 rejected, one bulk request';
	});

	await check(`Discount > Schedule${where}: the good discount is stored, the bad one comes out with success false`, async () => {
		const scheduled = nodeOutput(execution, 'Schedule Discounts');
		assert.equal(scheduled.length, 2);
		const [good, bad] = scheduled;
		assert.equal(good.success, true, `first discount: ${String(good.error)}`);
		const discounts = await sandbox.discounts();
		const stored = discounts.find((discount) => discount.discountId === good.id);
		assert.ok(stored, `discount ${String(good.id)} is not in the sandbox`);
		assert.equal(stored.merchantInventoryId, 100020);
		assert.equal(stored.discountPrice, 1);
		assert.equal(bad.success, false);
		assert.ok(typeof bad.error === 'string' && bad.error.length > 0, 'the rejected discount carries no error');
		assert.equal(discounts.filter((discount) => discount.merchantInventoryId === UNKNOWN_PRODUCT_ID).length, 0);
		return `discount ${String(stored.discountId)} stored`;
	});
}
