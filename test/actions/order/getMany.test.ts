/** Order › Get Many through the real engine against the sandbox. */
import { NOW, outputRunner, pages, sandbox, sandboxPerFile } from '../helpers';

sandboxPerFile({ now: NOW, seed: 31 });

const run = outputRunner('order');

describe('Order › Get Many', () => {
	it('reads 250 orders For Confirmation with Return All in 3 requests of 100', async () => {
		sandbox.addOrders(250);
		sandbox.clearLog();
		const { result, json } = await run({ operation: 'getMany', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(json.length).toBeGreaterThanOrEqual(250);
		expect(pages('orders')).toEqual([{ page: '0', size: '100' }, { page: '1', size: '100' }, { page: '2', size: '100' }]);
	});
});
