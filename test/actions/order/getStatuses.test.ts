/** Order › Get Statuses through the real engine against the sandbox. */
import { ORDER_STATUSES } from '../../../sandbox/order-statuses';
import { NOW, outputRunner, sandboxPerFile, sent } from '../helpers';

sandboxPerFile({ now: NOW, seed: 33, orders: 0 });

const run = outputRunner('order');

describe('Order › Get Statuses', () => {
	it('returns one item per status name the service lists, as status, in one request', async () => {
		const { result, json } = await run({ operation: 'getStatuses' });
		expect(result.error).toBeUndefined();
		expect(json).toEqual(ORDER_STATUSES.map((status) => ({ status })));
		expect(json).toHaveLength(52);
		expect(sent('orderStatuses')).toHaveLength(1);
	});
});
