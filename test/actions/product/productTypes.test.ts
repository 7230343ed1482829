/** Import's Product Type list (actions/product/getTypes.operation.ts) through n8n-core's real LoadOptionsContext. */
import { PRODUCT_TYPES } from '../../../sandbox/data';
import { runLoadOptions } from '../../harness';
import { NODE, credentials, sandboxPerTest, sent } from '../helpers';

const start = sandboxPerTest(() => ({ products: 120 }));

describe('Import: Product Type list', () => {
	it('lists the types Get Types answers, in the chosen language', async () => {
		await start();
		const sorted = (names: string[]) => [...names].sort((a, b) => a.localeCompare(b));

		const local = await runLoadOptions(NODE, 'getProductTypes', {
			credentials: credentials(),
			parameters: { resource: 'product', operation: 'import', language: 'default' },
		});
		const english = await runLoadOptions(NODE, 'getProductTypes', {
			credentials: credentials(),
			parameters: { resource: 'product', operation: 'import', language: 'en' },
		});

		expect(local.result).toEqual(sorted(PRODUCT_TYPES.map((type) => type.local)).map((name) => ({ name, value: name })));
		expect(english.result.map((option) => option.value)).toEqual(sorted(PRODUCT_TYPES.map((type) => type.en)));
		expect(sent('productTypes').map(({ status }) => status)).toEqual([200, 200]);
	});
});
