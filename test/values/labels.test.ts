/**
 * values/labels.ts: why a value is missing, when an expression that reads a field of the input
 * item gave nothing.
 */
import type { IDataObject, NodeOperationError } from 'n8n-workflow';

import { missingBecauseOfExpression, readingParameter, type ParameterContext } from '../../nodes/MarketplaceMerchant/values/labels';
import { readId, readPrice } from '../../nodes/MarketplaceMerchant/values/numbers';
import { readDate, readEan, readText } from '../../nodes/MarketplaceMerchant/values/values';
import { ctx, rejection, type Reader } from './helpers';

describe('why a value is missing', () => {
	/** The context n8n gives a preSend, reduced to what the check reads: the raw parameters and the input item. */
	function parameterContext(parameters: Record<string, unknown>, item: IDataObject): ParameterContext {
		return {
			...ctx,
			getNodeParameter: (name) => {
				if (!(name in parameters)) throw new Error(`Could not get parameter "${name}"`);
				return parameters[name];
			},
			getInputData: () => ({ json: item }),
		};
	}

	it.each([
		['an absent field, listing the fields the item has', '={{ $json.productid }}', { productId: 1, qty: 2 }, "`{{ $json.productid }}` gave no value: the input item has no field 'productid' (it has: productId, qty)"],
		['a field in brackets', '={{ $json["unit price"] }}', { price: 1 }, '`{{ $json["unit price"] }}` gave no value: the input item has no field \'unit price\' (it has: price)'],
		['a nested field', '={{ $json.product.id }}', { product: { ean: '1' } }, "`{{ $json.product.id }}` gave no value: the input item has no field 'product.id' ('product' has: ean)"],
		['an item without fields', '={{ $json.price }}', {}, "`{{ $json.price }}` gave no value: the input item has no field 'price' (it has no fields)"],
		['an empty field', '={{ $json.price }}', { price: '' }, "`{{ $json.price }}` gave no value: the input item's field 'price' is empty"],
		['a null field', '={{$json.price}}', { price: null }, "`{{$json.price}}` gave no value: the input item's field 'price' is null"],
	])('names %s', (_case, expression, item, why) => {
		expect(missingBecauseOfExpression(parameterContext({ price: expression }, item), 'price')).toBe(why);
	});

	it('lists at most 10 of the fields, then …', () => {
		const item = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`f${index + 1}`, index]));
		expect(missingBecauseOfExpression(parameterContext({ price: '={{ $json.price }}' }, item), 'price')).toBe(
			"`{{ $json.price }}` gave no value: the input item has no field 'price' (it has: f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, …)",
		);
	});

	it('looks into a resource locator value', () => {
		const locator = { __rl: true, mode: 'id', value: '={{ $json.productid }}' };
		expect(missingBecauseOfExpression(parameterContext({ productId: locator }, { id: 1 }), 'productId')).toBe(
			"`{{ $json.productid }}` gave no value: the input item has no field 'productid' (it has: id)",
		);
	});

	it.each([
		['a value typed in', ''],
		['an expression that computes', '={{ $json.price * 2 }}'],
		['a field that has a value', '={{ $json.price }}'],
		['an absent parameter', undefined],
	])('says nothing of %s', (_case, raw) => {
		const parameters = raw === undefined ? {} : { price: raw };
		expect(missingBecauseOfExpression(parameterContext(parameters, { price: 5 }), 'price')).toBeUndefined();
	});

	it('replaces "is missing" and its format hint in every reader read through the parameter', () => {
		const reading = readingParameter(parameterContext({ id: '={{ $json.productid }}' }, { productId: 1 }), 'id');
		for (const read of [readId, readPrice, readDate, readText, readEan] as Reader[]) {
			let error: NodeOperationError | undefined;
			try {
				read(reading, 'Product ID', undefined);
			} catch (thrown) {
				error = thrown as NodeOperationError;
			}
			expect(error?.message).toBe("Product ID: `{{ $json.productid }}` gave no value: the input item has no field 'productid' (it has: productId) (item 3)");
			expect(error?.description).toBeFalsy();
		}
		// Without an expression to blame, the value is missing as before, with its hint.
		expect(rejection(readId, '')).toBe('Some Field: is missing (item 3)');
	});
});
