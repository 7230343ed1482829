/** Order › Get through the real engine against the sandbox: one order by its id, an unknown id an error per item. */
import type { IDataObject } from 'n8n-workflow';

import { NOW, outputRunner, sandbox, sandboxPerFile, sent } from '../helpers';

sandboxPerFile({ now: NOW, seed: 32, orders: 12 });

const run = outputRunner('order');

describe('Order › Get', () => {
	it('returns the order of each input item, simplified, in one request each', async () => {
		const [first, second] = sandbox.state.orders;
		const { result, json } = await run({ operation: 'get', orderId: '={{ $json.id }}' }, [{ id: first.id }, { id: ` ${second.id} ` }]);

		expect(result.error).toBeUndefined();
		expect(json.map((order) => order.orderId)).toEqual([first.id, second.id]);
		expect((json[0].lines as IDataObject[]).map((line) => line.merchantInventoryId)).toEqual(first.lines.map((line) => line.merchantInventoryId));
		expect(sent('orders').map((entry) => entry.query.orderId)).toEqual([first.id, second.id]);
	});

	it('returns the full order without Simplify', async () => {
		const order = sandbox.state.orders[3];
		const { json } = await run({ operation: 'get', orderId: order.id, simplify: false });
		expect(json).toHaveLength(1);
		expect(json[0]).toMatchObject({ id: order.id, createdDate: order.createdDate, currency: 'RSD' });
		expect(json[0]).toHaveProperty('billingAddress');
	});

	it('an unknown order id is an error naming it; with Continue On Fail the other items still come out', async () => {
		const known = sandbox.state.orders[0];
		const failed = await run({ operation: 'get', orderId: 'NOPE-00000' });
		expect(failed.result.error?.message).toMatch(/No order with ID NOPE-00000/);

		const { json } = await run({ operation: 'get', orderId: '={{ $json.id }}' }, [{ id: 'NOPE-00000' }, { id: known.id }], { node: { onError: 'continueRegularOutput' } });
		expect(json).toHaveLength(2);
		expect(String(json[0].error)).toMatch(/No order with ID NOPE-00000/);
		expect(json[1].orderId).toBe(known.id);
	});

	it('refuses an empty Order ID, naming the field, before sending anything', async () => {
		const { result } = await run({ operation: 'get', orderId: '  ' });
		expect(result.error?.message).toMatch(/Order ID/);
		expect(sent('orders')).toHaveLength(0);
	});
});
