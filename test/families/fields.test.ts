/**
 * Output (families/fields.ts `outputFields`, read by values/values.ts `readOutput`): from node
 * version 4 every read operation with a simplified form offers Simplified, Raw and Selected Fields,
 * through n8n's real engine against the sandbox; versions 1 to 3 keep Simplify as saved.
 */
import { NOW, runner, sandbox, sandboxPerFile } from '../actions/helpers';

sandboxPerFile({ now: NOW, products: 30, orders: 12 });
const V4 = { node: { typeVersion: 4 } };

describe('Output (node version 4)', () => {
	const products = runner('product');
	const orders = runner('order');

	it('returns the simplified product by default, as Simplify did', async () => {
		const simplified = await products({ operation: 'getMany', limit: 3 }, [{}], V4);
		const before = await products({ operation: 'getMany', limit: 3, simplify: true }, [{}], { node: { typeVersion: 3 } });
		expect(simplified.error).toBeUndefined();
		expect(simplified.json('Node')).toEqual(before.json('Node'));
		expect(Object.keys(simplified.json('Node')[0])).toContain('stockLevel');
	});

	it('returns the whole answer with Raw', async () => {
		const raw = await products({ operation: 'getMany', limit: 3, output: 'raw' }, [{}], V4);
		const before = await products({ operation: 'getMany', limit: 3, simplify: false }, [{}], { node: { typeVersion: 3 } });
		expect(raw.json('Node')).toEqual(before.json('Node'));
	});

	it('returns only the fields named, nested as in the answer, a missing one as null', async () => {
		const result = await orders({ operation: 'getMany', statusGroup: 'all', limit: 2, output: 'selected', fieldsToReturn: 'id, billingAddress.city, noSuchField' }, [{}], V4);
		expect(result.error).toBeUndefined();
		const listed = result.json('Node');
		expect(listed).toHaveLength(2);
		for (const order of listed) {
			expect(Object.keys(order).sort()).toEqual(['billingAddress', 'id', 'noSuchField']);
			expect(order.noSuchField).toBeNull();
			const record = sandbox.state.order(String(order.id));
			expect(record).toBeDefined();
		}
	});

	it('refuses Selected Fields without fields before sending, naming the field', async () => {
		sandbox.clearLog();
		const result = await products({ operation: 'getMany', limit: 3, output: 'selected', fieldsToReturn: ' , ' }, [{}], V4);
		expect(result.error?.message).toMatch(/^Fields: is missing/);
		expect(sandbox.log.filter((entry) => entry.route === 'products')).toHaveLength(0);
	});

	it('shows Simplify up to version 3 and Output from version 4', async () => {
		const { TestNodeTypes, packageNodeTypeName } = await import('../harness');
		const nodeTypes = new TestNodeTypes();
		const names = (version: number) =>
			nodeTypes.getByNameAndVersion(packageNodeTypeName('marketplaceMerchant'), version).description.properties
				.filter((property) => property.displayOptions?.show?.resource?.includes('product') && property.displayOptions?.show?.operation?.includes('getMany'))
				.filter((property) => ['simplify', 'output'].includes(property.name))
				.map((property) => [property.name, property.displayOptions?.show?.['@version']]);
		expect(names(4)).toEqual([
			['simplify', [1, 2, 3]],
			['output', [4]],
		]);
	});
});
