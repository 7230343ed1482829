/**
 * Product › Get Types: the type names in the service language or in English, through n8n's real engine (RoutingNode) against the sandbox.
 */
import { NOW, runner, sandbox, sandboxPerTest } from '../helpers';

const start = sandboxPerTest((products: number) => ({ now: NOW, products }));
const run = runner('product');

describe('Product: Get Types', () => {
	it('lists the type names in the service language or in English', async () => {
		await start(1);

		const local = await run({ operation: 'getTypes' });
		const english = await run({ operation: 'getTypes', language: 'en' });

		expect(local.json('Node')).toEqual(sandbox.state.productTypes.map((type) => ({ name: type.local })));
		expect(english.json('Node')).toEqual(sandbox.state.productTypes.map((type) => ({ name: type.en })));
		expect(english.json('Node')).not.toEqual(local.json('Node'));
	});
});
