/**
 * "Results belong to their inputs" (issue 10, section 3; issue 38, point 1) through n8n's real
 * engine against the sandbox: bulk results paired with their entries by the id each result names
 * (answers/bulkResults.ts), whatever order the answer lists them in; entries without a result,
 * and none of it depending on how entries fall into requests. The sandbox
 * produces each live variant with a switch (sandbox/variants.ts). Document links whose answer does
 * not name the suborder: test/actions/documents/getDocumentLinks.test.ts and test/trigger/pdfs.test.ts.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { NO_RESULT_ERROR, pairDiscountResults, pairProductResults, unnamedResultsError } from '../../nodes/MarketplaceMerchant/answers/bulkResults';
import { startSandbox, type ProductRecord, type Sandbox } from '../../sandbox';
import { NODE_UNDER_TEST_NAME, runNode, sandboxCredential, type RunNodeOptions } from '../harness';
import { saleDays } from '../actions/helpers';

const NODE = 'marketplaceMerchant';
/** Far more results than any request holds: the answer's list is empty. */
const ALL = Number.MAX_SAFE_INTEGER;

describe('node', () => {
	let sandbox: Sandbox;

	// 1,400 products leave room for two runs of 501 discounts on products without one.
	beforeAll(async () => {
		sandbox = await startSandbox({ rateLimits: false, now: '2025-06-15T10:00:00Z', seed: 3, products: 1_400 });
	});
	afterAll(async () => await sandbox.close());
	beforeEach(() => {
		sandbox.resetVariants();
		sandbox.clearLog();
	});

	/**
	 * With On Error = Continue: these tests read the items of rejected entries, which a run gives
	 * there (under the default On Error it fails naming them: test/actions/bulk/run.test.ts).
	 */
	async function run(parameters: INodeParameters, inputItems: unknown[] = [{}], options: RunNodeOptions = {}) {
		return await runNode(NODE, parameters, inputItems, {
			credentials: { marketplaceMerchantApi: sandboxCredential(sandbox) },
			node: { onError: 'continueRegularOutput' },
			...options,
		});
	}

	/** An entry without a result, as Simplify (the default) gives it: the id the entry names (a product's, an updated discount's). */
	const noResult = (input: IDataObject) => ({ id: input.id ?? input.discountId ?? null, success: false, error: NO_RESULT_ERROR, input });
	const updated = (id: unknown, input: IDataObject) => ({ id, success: true, ...(input.merchantInventoryId === undefined ? {} : { productId: input.merchantInventoryId }), input });

	describe('Product › Update Many', () => {
		const updateMany = (products: IDataObject[], options: INodeParameters = {}) =>
			run({ resource: 'product', operation: 'updateMany', inputMode: 'json', productsJson: '={{ $json.products }}', options }, [{ products }]);

		it('keeps each entry of a repeated product id with its own input, in order', async () => {
			const [product, other] = sandbox.state.products.slice(0, 2);

			const result = await updateMany([
				{ id: product.id, stockLevel: 31 },
				{ id: other.id, stockLevel: 5 },
				{ id: product.id, stockLevel: 32 },
			]);

			expect(result.error).toBeUndefined();
			expect(result.json(NODE_UNDER_TEST_NAME)).toEqual([
				updated(product.id, { id: product.id, stockLevel: 31 }),
				updated(other.id, { id: other.id, stockLevel: 5 }),
				updated(product.id, { id: product.id, stockLevel: 32 }),
			]);
			expect(sandbox.state.product(product.id)?.stockLevel).toBe(32);
		});

		it('outputs an entry the service returned no result for as failed, never fewer items than entries', async () => {
			const [first, second, third] = sandbox.state.products.slice(2, 5);
			const products = [
				{ id: first.id, stockLevel: 1 },
				{ id: second.id, stockLevel: 2 },
				{ id: third.id, stockLevel: 3 },
			];

			sandbox.setVariants({ bulkResultsDropped: 1 });
			const fewer = await updateMany(products);
			sandbox.setVariants({ bulkResultsDropped: ALL });
			const none = await updateMany(products);

			expect(fewer.error).toBeUndefined();
			expect(fewer.json(NODE_UNDER_TEST_NAME)).toEqual([updated(first.id, products[0]), updated(second.id, products[1]), noResult(products[2])]);
			expect(none.error).toBeUndefined();
			expect(none.json(NODE_UNDER_TEST_NAME)).toEqual(products.map(noResult));
		});

		it('with Simplify off, gives the service\'s own result fields with the input; an entry without a result keeps the simplified shape', async () => {
			const [product, other] = sandbox.state.products.slice(7, 9);
			const entries = [
				{ id: product.id, stockLevel: 6 },
				{ id: 999_999, stockLevel: 1 },
				{ id: other.id, stockLevel: 7 },
			];
			const raw = () =>
				run({ resource: 'product', operation: 'updateMany', inputMode: 'json', productsJson: '={{ $json.products }}', simplify: false }, [{ products: entries }]);

			const all = await raw();
			sandbox.setVariants({ bulkResultsDropped: 1 });
			const fewer = await raw();

			expect(all.error).toBeUndefined();
			expect(all.json(NODE_UNDER_TEST_NAME)).toEqual([
				{ status: 'SUCCESS', errors: [], myProductId: product.id, input: entries[0] },
				{ status: 'FAIL', errors: [expect.stringMatching(/does not exist/)], myProductId: 999_999, input: entries[1] },
				{ status: 'SUCCESS', errors: [], myProductId: other.id, input: entries[2] },
			]);
			expect(fewer.json(NODE_UNDER_TEST_NAME)[2]).toEqual(noResult(entries[2]));
		});

		it('marks rejected entries unmistakably: success false and the reason in error, null on success, in the order of the entries', async () => {
			const [product] = sandbox.state.products.slice(9, 10);
			const entries = [
				{ id: 999_998, stockLevel: 1 },
				{ id: product.id, stockLevel: 2 },
			];

			const result = await updateMany(entries);

			expect(result.json(NODE_UNDER_TEST_NAME)).toEqual([
				{ id: 999_998, success: false, error: expect.stringMatching(/does not exist/), input: entries[0] },
				updated(product.id, entries[1]),
			]);
		});

		it('with Fail on Item Errors, an entry without a result fails the item', async () => {
			const [product] = sandbox.state.products.slice(5, 6);
			sandbox.setVariants({ bulkResultsDropped: ALL });

			const result = await updateMany([{ id: product.id, stockLevel: 4 }], { failOnItemErrors: true });

			// Under On Error = Continue (using regular output), where Fail on Item Errors still matters: the item fails.
			const [failed] = result.nodes[NODE_UNDER_TEST_NAME].itemErrors;
			expect(failed.error.message).toBe('1 of 1 entries failed: 0 rejected by the service, 1 without a result');
			expect(failed.error.description).toContain(NO_RESULT_ERROR);
		});
	});

	describe('Product › Update', () => {
		it('outputs a failed item when the service answers no result', async () => {
			const [product] = sandbox.state.products.slice(6, 7);
			sandbox.setVariants({ bulkResultsDropped: 1 });

			const result = await run({ resource: 'product', operation: 'update', productId: String(product.id), updateFields: { stockLevel: 9 } });

			expect(result.error).toBeUndefined();
			expect(result.json(NODE_UNDER_TEST_NAME)).toEqual([noResult({ id: product.id, stockLevel: 9 })]);
			expect(sandbox.log.filter((entry) => entry.route === 'productUpdate').map((entry) => entry.status)).toEqual([200]);
		});
	});

	describe('product results listed in another order than the entries (sandbox bulkResultsReversed)', () => {
		const updateManyJson = { resource: 'product', operation: 'updateMany', inputMode: 'json', productsJson: '={{ $json.products }}' };

		it('Update Many: each result goes to the entry it names; the rejected one stays with its own product', async () => {
			const [a, b] = sandbox.state.products.slice(20, 22);
			const entries = [
				{ id: a.id, stockLevel: 11 },
				{ id: 999_997, stockLevel: 1 },
				{ id: b.id, stockLevel: 12 },
			];
			sandbox.setVariants({ bulkResultsReversed: true, documentedUpdateResults: true });

			const result = await run(updateManyJson, [{ products: entries }]);

			expect(result.json(NODE_UNDER_TEST_NAME).map((item) => [item.id, item.success, item.productName ?? null, item.input])).toEqual([
				[a.id, true, a.name, entries[0]],
				[999_997, false, null, entries[1]],
				[b.id, true, b.name, entries[2]],
			]);
			expect([sandbox.state.product(a.id)?.stockLevel, sandbox.state.product(b.id)?.stockLevel]).toEqual([11, 12]);
		});

		it('Update Many: two updates of one product go in two requests, in order, each with its own result', async () => {
			const [product, other] = sandbox.state.products.slice(22, 24);
			const entries = [
				{ id: product.id, stockLevel: 31 },
				{ id: other.id, stockLevel: 5 },
				{ id: product.id, stockLevel: 32 },
			];
			sandbox.setVariants({ bulkResultsReversed: true });

			const result = await run(updateManyJson, [{ products: entries }]);

			expect(result.json(NODE_UNDER_TEST_NAME)).toEqual(entries.map((entry) => updated(entry.id, entry)));
			expect(sandbox.log.filter((entry) => entry.route === 'productBulk').map((entry) => entry.itemCount)).toEqual([2, 1]);
			expect(sandbox.state.product(product.id)?.stockLevel).toBe(32);
		});

		it("Sync: each entry gets the result naming its product; one whose result is missing is failed, not given a neighbour's", async () => {
			const products = sandbox.state.products.slice(24, 27);
			const entries = products.map((product) => ({ id: product.id, stockLevel: product.stockLevel + 1 }));
			sandbox.setVariants({ bulkResultsReversed: true, documentedUpdateResults: true });
			const sync = () => run({ resource: 'product', operation: 'syncStockAndPrices', matchBy: 'id', inputMode: 'json', productsJson: '={{ $json.products }}' }, [{ products: entries }]);

			const all = await sync();
			sandbox.setVariants({ bulkResultsDropped: 1 });
			entries.forEach((entry) => (entry.stockLevel += 1));
			const fewer = await sync();

			expect(all.json(NODE_UNDER_TEST_NAME).map((item) => [item.id, item.status, item.productName])).toEqual(products.map((product) => [product.id, 'updated', product.name]));
			// The answer lost the last entry's result, then was reversed: the first two keep their own.
			expect(fewer.json(NODE_UNDER_TEST_NAME).map((item) => [item.id, item.status, item.productName ?? null])).toEqual([
				[products[0].id, 'updated', products[0].name],
				[products[1].id, 'updated', products[1].name],
				[products[2].id, 'failed', null],
			]);
		});
	});

	describe('Discount › Schedule and Update', () => {
		/** Products without any discount yet, so that a new one neither overlaps nor inherits a price. */
		function freshProducts(count: number): ProductRecord[] {
			const discounted = new Set(sandbox.state.discounts.map((discount) => discount.merchantInventoryId));
			const products = sandbox.state.products.filter((product) => !discounted.has(product.id)).slice(0, count);
			expect(products).toHaveLength(count);
			return products;
		}

		// Within the year ahead Discount › Update reads the discounts of, and a SALE by its dates.
		const [dateFrom, dateTo] = saleDays();
		const sale = (product: ProductRecord): IDataObject => ({
			merchantInventoryId: product.id,
			discountPrice: Math.floor(product.basePrice * 0.9),
			discountPriceCurrency: 'RSD',
			dateFrom,
			dateTo,
			discountType: 'SALE',
		});
		/** What Update sends a pending discount: every field, the unchanged ones as scheduled. */
		const fullUpdate = (discountId: string, changes: IDataObject): IDataObject => {
			const discount = sandbox.state.discounts.find((candidate) => candidate.discountId === discountId)!;
			return {
				discountId,
				merchantInventoryId: discount.merchantInventoryId,
				newDateFrom: discount.dateFrom,
				newDateTo: discount.dateTo,
				newDiscountPrice: String(discount.discountPrice),
				newDiscountPriceCurrency: 'RSD',
				newDiscountType: 'SALE',
				...changes,
			};
		};

		const discounts = (operation: 'schedule' | 'update', entries: IDataObject[], options: INodeParameters = {}) =>
			run({ resource: 'discount', operation, options }, [{ discounts: entries }]);

		async function scheduled(count: number): Promise<string[]> {
			const result = await discounts('schedule', freshProducts(count).map(sale));
			const ids = result.json(NODE_UNDER_TEST_NAME).map((item) => item.id as string);
			expect(ids.every(Boolean)).toBe(true);
			return ids;
		}

		it('Schedule: an empty scheduleResult gives one failed item per entry, not a green run without items', async () => {
			const entries = freshProducts(3).map(sale);
			sandbox.setVariants({ bulkResultsDropped: ALL });

			const result = await discounts('schedule', entries);
			const failing = await discounts('schedule', freshProducts(3).map(sale), { failOnItemErrors: true });

			expect(result.error).toBeUndefined();
			expect(result.json(NODE_UNDER_TEST_NAME)).toEqual(entries.map(noResult));
			expect(failing.nodes[NODE_UNDER_TEST_NAME].itemErrors.map(({ error }) => error.message)).toEqual(['3 of 3 entries failed: 0 rejected by the service, 3 without a result']);
		});

		it('Schedule: fewer results than entries leave the last entries failed and the others paired', async () => {
			const products = freshProducts(3);
			sandbox.setVariants({ bulkResultsDropped: 2 });

			const result = await discounts('schedule', products.map(sale));

			expect(result.json(NODE_UNDER_TEST_NAME)).toEqual([
				updated(expect.any(String), sale(products[0])),
				noResult(sale(products[1])),
				noResult(sale(products[2])),
			]);
		});

		it('Update: fewer or no results give failed items for the entries without one', async () => {
			const [first, second] = await scheduled(2);
			const newDateTo = saleDays(30, 9)[1];
			const entries = [
				{ discountId: first, newDateTo },
				{ discountId: second, newDateTo },
			];
			const sent = entries.map(({ discountId }) => fullUpdate(discountId, { newDateTo }));

			sandbox.setVariants({ bulkResultsDropped: 1 });
			const fewer = await discounts('update', entries);
			sandbox.setVariants({ bulkResultsDropped: ALL });
			const none = await discounts('update', entries);

			expect(fewer.json(NODE_UNDER_TEST_NAME)).toEqual([updated(first, sent[0]), noResult(sent[1])]);
			expect(none.json(NODE_UNDER_TEST_NAME)).toEqual(sent.map(noResult));
		});

		it('does not depend on how entries fall into requests of 500: a repeated discount across requests, results missing per request', async () => {
			const ids = await scheduled(501);
			// Entries 499 and 500 change the same discount and go out in different requests.
			const entries = ids.map((discountId, index) => ({ discountId, newDiscountPrice: index === 500 ? 7 : 8 }));
			entries[500].discountId = ids[499];
			const summary = (item: IDataObject) => {
				const input = item.input as IDataObject;
				return [item.success, item.id, input.discountId, Number(input.newDiscountPrice), item.error];
			};

			const all = await discounts('update', entries);
			sandbox.setVariants({ bulkResultsDropped: 1 });
			const fewer = await discounts('update', entries);

			const updateRequests = sandbox.log.filter((entry) => entry.route === 'discountUpdate').map((entry) => entry.itemCount);
			expect(updateRequests).toEqual([500, 1, 500, 1]);
			const allItems = all.json(NODE_UNDER_TEST_NAME);
			expect(allItems).toHaveLength(501);
			expect(allItems.slice(498).map(summary)).toEqual([
				[true, ids[498], ids[498], 8, undefined],
				[true, ids[499], ids[499], 8, undefined],
				[true, ids[499], ids[499], 7, undefined],
			]);
			const fewerItems = fewer.json(NODE_UNDER_TEST_NAME);
			expect(fewerItems).toHaveLength(501);
			expect(fewerItems.slice(0, 499).every((item, index) => item.success === true && item.id === ids[index])).toBe(true);
			expect(fewerItems.slice(499).map(summary)).toEqual([
				[false, ids[499], ids[499], 8, NO_RESULT_ERROR],
				[false, ids[499], ids[499], 7, NO_RESULT_ERROR],
			]);
		});
		describe('results listed in another order than the entries (sandbox bulkResultsReversed)', () => {
			const productOf = (discountId: unknown) => sandbox.state.discounts.find((discount) => discount.discountId === discountId);

			it('Schedule: each new discount ID goes to the entry for its product, a rejection to its own product', async () => {
				const products = freshProducts(3);
				const entries = products.map(sale);
				// Not 5 % below the regular price: refused by the service.
				entries[1].discountPrice = products[1].basePrice;
				sandbox.setVariants({ bulkResultsReversed: true });

				const result = await discounts('schedule', entries);

				const items = result.json(NODE_UNDER_TEST_NAME);
				expect(items.map((item) => [item.productId, item.success, item.input])).toEqual(products.map((product, index) => [product.id, index !== 1, entries[index]]));
				expect([productOf(items[0].id)?.merchantInventoryId, productOf(items[2].id)?.merchantInventoryId]).toEqual([products[0].id, products[2].id]);
				expect(items[1].error).toEqual(expect.any(String));
			});

			it('Schedule: two discounts for one product go in two requests, each given the discount ID the service made for it', async () => {
				const [product, other] = freshProducts(2);
				const [laterFrom, laterTo] = saleDays(60, 5);
				const entries = [sale(product), sale(other), { ...sale(product), dateFrom: laterFrom, dateTo: laterTo }];
				sandbox.setVariants({ bulkResultsReversed: true });

				const result = await discounts('schedule', entries);

				const items = result.json(NODE_UNDER_TEST_NAME);
				expect(sandbox.log.filter((entry) => entry.route === 'discountSchedule').map((entry) => entry.itemCount)).toEqual([2, 1]);
				expect(items.map((item) => [item.success, productOf(item.id)?.merchantInventoryId, productOf(item.id)?.dateFrom])).toEqual(
					entries.map((entry) => [true, entry.merchantInventoryId, entry.dateFrom]),
				);
			});

			it('Update: each changed discount is reported with its own ID and input', async () => {
				const ids = await scheduled(3);
				const newDateTo = saleDays(30, 9)[1];
				sandbox.setVariants({ bulkResultsReversed: true });

				const result = await discounts('update', ids.map((discountId) => ({ discountId, newDateTo })));

				expect(result.json(NODE_UNDER_TEST_NAME).map((item) => [item.id, item.success, (item.input as IDataObject).discountId])).toEqual(ids.map((id) => [id, true, id]));
			});
		});
	});
});

describe('pairing when results are missing other than at the end (no sandbox switch drops them there)', () => {
	const result = (myProductId: number, status = 'SUCCESS') => ({ json: { status, errors: [], myProductId } });
	const entry = (id: number) => ({ id, stockLevel: id % 10 });

	it('finds a result missing in the middle by the ids, in order', () => {
		const items = pairProductResults([result(1), result(3)], [entry(1), entry(2), entry(3)]).map(({ json }) => json);

		expect(items.map((item) => [item.success, item.error, item.input])).toEqual([
			[true, undefined, entry(1)],
			[false, NO_RESULT_ERROR, entry(2)],
			[true, undefined, entry(3)],
		]);
	});

	it('pairs no entry with a result that names none of them, and still outputs every entry', () => {
		const items = pairProductResults([result(9, 'FAIL')], [entry(1), entry(2)]).map(({ json }) => json);

		expect(items.map((item) => [item.success, item.id, item.input])).toEqual([
			[false, 1, entry(1)],
			[false, 2, entry(2)],
			[false, 9, {}],
		]);
	});

	it('pairs results that name no entry by position only when there is one per entry; otherwise no entry gets one', () => {
		const unnamed = (status: string) => ({ json: { status, errors: [] } });
		const entries = [entry(1), entry(2), entry(3)];

		const one = pairProductResults([unnamed('SUCCESS'), unnamed('FAIL'), unnamed('SUCCESS')], entries).map(({ json }) => [json.success, json.input]);
		const fewer = pairProductResults([unnamed('SUCCESS'), unnamed('SUCCESS')], entries).map(({ json }) => [json.success, json.error, json.input]);

		expect(one).toEqual([
			[true, entry(1)],
			[false, entry(2)],
			[true, entry(3)],
		]);
		expect(fewer.slice(0, 3)).toEqual(entries.map((input) => [false, unnamedResultsError(2, 3), input]));
	});

	it('gives a result whose id two entries of the request share to neither, unless the answer is in order', () => {
		const discount = (merchantInventoryId: number, discountId: string) => ({ json: { success: true, data: { merchantInventoryId, discountId } } });
		const schedule = (merchantInventoryId: number, dateFrom: string) => ({ merchantInventoryId, dateFrom });
		const entries = [schedule(7, '01/08/2025'), schedule(7, '20/08/2025'), schedule(8, '01/08/2025')];

		const inOrder = pairDiscountResults([discount(7, 'a'), discount(7, 'b'), discount(8, 'c')], entries).map(({ json }) => json.id);
		const moved = pairDiscountResults([discount(8, 'c'), discount(7, 'b'), discount(7, 'a')], entries).map(({ json }) => [json.id, json.success, json.error]);

		expect(inOrder).toEqual(['a', 'b', 'c']);
		expect(moved.slice(0, 3)).toEqual([
			[null, false, NO_RESULT_ERROR],
			[null, false, NO_RESULT_ERROR],
			['c', true, undefined],
		]);
	});
});
