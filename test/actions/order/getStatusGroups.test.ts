/** Order › Get Status Groups through the real engine against the sandbox. */
import { STATUS_GROUPS } from '../../../sandbox/order-statuses';
import { NOW, outputRunner, sandboxPerFile, sent } from '../helpers';

sandboxPerFile({ now: NOW, seed: 34, orders: 0 });

const run = outputRunner('order');

describe('Order › Get Status Groups', () => {
	it('simplified: one item per status with its group and subgroup', async () => {
		const { result, json } = await run({ operation: 'getStatusGroups' });
		expect(result.error).toBeUndefined();
		const expected = STATUS_GROUPS.flatMap(({ group, subGroups }) =>
			subGroups.flatMap(({ subGroup, statuses }) => statuses.map((status) => ({ status, subGroup, group }))),
		);
		expect(json).toEqual(expected);
		expect(json.find((entry) => entry.status === 'READY_FOR_COLLECTION')).toEqual({ status: 'READY_FOR_COLLECTION', subGroup: 'SSG_TRANSPORT_INITIATED', group: 'SG_PROCESSING' });
		expect(sent('orderStatusGroups')).toHaveLength(1);
	});

	it('without Simplify: one item per group with its subgroups, as the service sends them', async () => {
		const { json } = await run({ operation: 'getStatusGroups', simplify: false });
		expect(json).toEqual(STATUS_GROUPS);
	});
});
