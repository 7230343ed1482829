/**
 * Output (shared/fields.ts `outputFields`, read by values/values.ts `readOutput`): from node
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

	describe('Selected Fields: the Fields list, and paths typed in Other Fields', () => {
		it('returns the fields picked from the list, then a path the answer schema does not know typed by hand, with their values', async () => {
			const result = await orders(
				{ operation: 'getMany', statusGroup: 'all', limit: 3, output: 'selected', fields: ['id', 'totalPrice', 'currency'], fieldsToReturn: 'billingAddress.city' },
				[{}],
				V4,
			);
			expect(result.error).toBeUndefined();
			const listed = result.json('Node');
			expect(listed).toHaveLength(3);
			for (const order of listed) {
				expect(Object.keys(order)).toEqual(['id', 'totalPrice', 'currency', 'billingAddress']);
				const record = sandbox.state.order(String(order.id));
				expect(record).toBeDefined();
				expect(order.billingAddress).toEqual({ city: record?.billingAddress?.city ?? null });
			}
			expect(listed.some((order) => typeof (order.billingAddress as { city: unknown }).city === 'string')).toBe(true);
		});

		it('takes the list alone, a field picked and typed once, and the list given by an expression (an array or text)', async () => {
			const picked = await products({ operation: 'getMany', limit: 2, output: 'selected', fields: ['id', 'name', 'stockLevel'] }, [{}], V4);
			expect(picked.error).toBeUndefined();
			expect(picked.json('Node').map(Object.keys)).toEqual([['id', 'name', 'stockLevel'], ['id', 'name', 'stockLevel']]);
			const twice = await products({ operation: 'getMany', limit: 2, output: 'selected', fields: ['id', 'name'], fieldsToReturn: 'name, stockLevel' }, [{}], V4);
			expect(twice.json('Node')).toEqual(picked.json('Node'));
			const asArray = await products({ operation: 'getMany', limit: 2, output: 'selected', fields: "={{ ['id', 'name', 'stockLevel'] }}" }, [{}], V4);
			expect(asArray.json('Node')).toEqual(picked.json('Node'));
			const asText = await products({ operation: 'getMany', limit: 2, output: 'selected', fields: '={{ "id, name, stockLevel" }}' }, [{}], V4);
			expect(asText.json('Node')).toEqual(picked.json('Node'));
		});

		it('runs a node saved with Fields typed as text (before the list) as before: the same items as the list gives', async () => {
			const typed = await products({ operation: 'getMany', limit: 2, output: 'selected', fieldsToReturn: 'id, name, stockLevel' }, [{}], V4);
			const picked = await products({ operation: 'getMany', limit: 2, output: 'selected', fields: ['id', 'name', 'stockLevel'] }, [{}], V4);
			expect(typed.error).toBeUndefined();
			expect(typed.json('Node')).toEqual(picked.json('Node'));
		});

		it('refuses nothing picked and nothing typed before sending, naming Fields and Other Fields', async () => {
			sandbox.clearLog();
			const result = await products({ operation: 'getMany', limit: 3, output: 'selected', fields: [], fieldsToReturn: '' }, [{}], V4);
			expect(result.error?.message).toMatch(/^Fields: is missing/);
			expect(result.error?.description).toMatch(/from the list, or type their paths in Other Fields/);
			expect(sandbox.log.filter((entry) => entry.route === 'products')).toHaveLength(0);
		});

		it('refuses an entry of the list that is not text (an expression giving objects), naming it', async () => {
			sandbox.clearLog();
			const result = await products({ operation: 'getMany', limit: 3, output: 'selected', fields: '={{ [{ name: "id" }] }}' }, [{}], V4);
			expect(result.error?.message).toMatch(/^Fields › entry 1: .* is not text/);
			expect(sandbox.log.filter((entry) => entry.route === 'products')).toHaveLength(0);
		});

		it("offers each operation's fields from its answer schema, alphabetical, objects by their paths", async () => {
			const { TestNodeTypes, packageNodeTypeName } = await import('../harness');
			const properties = new TestNodeTypes().getByNameAndVersion(packageNodeTypeName('marketplaceMerchant'), 4).description.properties;
			const offered = (resource: string, operation: string) => {
				const list = properties.find(
					(property) => property.name === 'fields' && property.displayOptions?.show?.resource?.includes(resource) && property.displayOptions?.show?.operation?.includes(operation),
				);
				expect(list?.type).toBe('multiOptions');
				expect(list?.displayOptions?.show).toMatchObject({ '@version': [4], output: ['selected'] });
				return (list?.options ?? []).map((option) => ('value' in option ? String(option.value) : ''));
			};
			const sorted = (names: string[]) => [...names].sort((a, b) => a.localeCompare(b, 'en'));
			const productFields = offered('product', 'getMany');
			expect(productFields).toEqual(sorted(productFields));
			expect(productFields).toEqual(expect.arrayContaining(['id', 'ean', 'name', 'stockLevel', 'basePrice', 'status']));
			// The order's lines are one field (a list); billingAddress is not in the documentation's schema: typed by hand.
			expect(offered('order', 'getMany')).toEqual(expect.arrayContaining(['id', 'items', 'totalPrice', 'currency']));
			expect(offered('order', 'getMany')).not.toContain('billingAddress');
			expect(offered('order', 'get')).toEqual(offered('order', 'getMany'));
			expect(offered('shipment', 'getMany')).toEqual(expect.arrayContaining(['suborderId', 'status', 'items']));
			expect(offered('order', 'getStatusGroups')).toEqual(['group', 'subGroups']);
			expect(offered('discount', 'getMany')).toEqual(expect.arrayContaining(['discountId', 'discountPrice', 'merchantInventoryId']));
			expect(offered('invoice', 'getMany')).toEqual(
				expect.arrayContaining(['invoiceHeader', 'invoiceHeader.fiscalDetails', 'invoiceHeader.fiscalDetails.invoiceNumber', 'invoiceHeader.orderDetails.suborderId']),
			);
			expect(offered('invoiceCorrection', 'getMany')).toContain('invoiceHeader.invoiceCorrectionReason');
			const other = properties.find((property) => property.name === 'fieldsToReturn' && property.displayOptions?.show?.resource?.includes('product'));
			expect(other).toMatchObject({ displayName: 'Other Fields', type: 'string', default: '' });
		});
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
