import { ANSWERS } from '../../answers/schemas';
import { PATHS } from '../../transport/endpoints';
import { pacedRouting } from '../common';
import type { OperationModule } from '../contract';
import { WAREHOUSES_READ } from '../orderReads';

export const operation: OperationModule = {
	steps: pacedRouting({
		...WAREHOUSES_READ,
		request: { method: 'GET', url: PATHS.warehouses },
		answer: ANSWERS.warehouses,
	}),
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many warehouses',
		description: "List the merchant's warehouses (pickup addresses): one item per warehouse with its address; exactly one is the default outbound address (defaultAddress true)",
	},
	fields: [],
};
