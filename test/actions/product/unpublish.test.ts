/**
 * Product › Unpublish (actions/product/unpublish.operation.ts; what it shares with Publish is
 * tested in publish.test.ts): one request for the run, the products unpublished, never resent.
 */
import { NOW, outputRunner, sandbox, sandboxPerFile, sent } from '../helpers';

sandboxPerFile({ now: NOW, products: 10 });
const run = outputRunner('product');

describe('Product: Unpublish', () => {
	it('unpublishes the IDs of every input item in one request, one output item each', async () => {
		const [a, b] = sandbox.state.products.map((product) => product.id);

		const { result, json } = await run({ operation: 'unpublish', productIds: '={{ $json.id }}' }, [{ id: a }, { id: b }]);

		expect(result.error).toBeUndefined();
		expect(sent('productUnpublish')).toHaveLength(1);
		const [publication] = sandbox.state.publications;
		expect(publication).toEqual(expect.objectContaining({ action: 'unpublish' }));
		expect(json).toEqual([
			expect.objectContaining({ action: 'unpublish', productIds: [a], progressId: publication.id }),
			expect.objectContaining({ action: 'unpublish', productIds: [b], progressId: publication.id }),
		]);
		expect(json[0].next).toMatch(/hidden from customers once its status is UNPUBLISHED/);
		expect(sandbox.state.product(a)?.status).toBe('UNPUBLISHED');
	});

	it('a 503 after it was applied: applied once, the error says to check the status', async () => {
		const [a] = sandbox.state.products.map((product) => product.id);
		sandbox.injectFault({ route: 'productUnpublish', count: 1, applyThen: true });

		const { result } = await run({ operation: 'unpublish', productIds: String(a) });

		expect(sent('productUnpublish')).toHaveLength(1);
		expect(result.error?.message).toBe('The outcome of the unpublish request is unknown: the service answered HTTP 503');
		expect(String(result.error?.description)).toMatch(/Check the status of product \d+ /);
	});
});
