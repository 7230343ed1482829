/**
 * Product › Check EANs: one item per EAN, from text or a list, through n8n's real engine (RoutingNode) against the sandbox.
 */
import { NOW, YEAR, apiRequests, newEan, runner, sandbox, sandboxPerTest } from '../helpers';

const start = sandboxPerTest((products: number) => ({ now: NOW, products }));
const run = runner('product');

describe('Product: Check EANs', () => {
	it('outputs one item per EAN with whether it exists, from text or a list', async () => {
		await start(10);
		const [first, second] = sandbox.state.products;
		const unknown = newEan('77');

		const fromText = await run({ operation: 'checkEans', eans: `${first.ean},\n${unknown}; ${second.ean}` });
		const fromList = await run({ operation: 'checkEans', eans: '={{ $json.codes }}' }, [{ codes: [unknown, first.ean] }]);

		expect(fromText.json('Node')).toEqual([
			{ ean: first.ean, exists: true, matchedEan: first.ean },
			{ ean: unknown, exists: false, matchedEan: null },
			{ ean: second.ean, exists: true, matchedEan: second.ean },
		]);
		expect(fromList.json('Node')).toEqual([
			{ ean: unknown, exists: false, matchedEan: null },
			{ ean: first.ean, exists: true, matchedEan: first.ean },
		]);
		// Each EAN-13 with its GTIN-14 form (0-prefixed): one request per run.
		expect(sandbox.log.filter((entry) => entry.route === 'eanExists').map((entry) => entry.itemCount)).toEqual([6, 4]);
	});

	it.each([
		['keys as sent', false, '0740617304350'],
		// A service that reads EANs as numbers answers one key for every form: the key it answers.
		['keys without their leading zeros', true, '740617304350'],
	])('finds a 12-digit UPC the catalogue knows as its EAN-13 (answer %s), in the same request, saying which form matched', async (_case, stripped, matchedEan) => {
		await start(10);
		sandbox.addCatalogueEans(['0740617304350']);
		sandbox.setVariants({ eanKeysWithoutLeadingZeros: stripped });
		const [first] = sandbox.state.products;

		const result = await run({ operation: 'checkEans', eans: `740617304350, ${first.ean}, 0${first.ean}` });

		expect(result.error).toBeUndefined();
		expect(result.json('Node')).toEqual([
			{ ean: '740617304350', exists: true, matchedEan },
			{ ean: first.ean, exists: true, matchedEan: first.ean },
			{ ean: `0${first.ean}`, exists: true, matchedEan: first.ean },
		]);
		// 3 forms of the UPC, 2 of the EAN-13 (its GTIN-14 is the third code): one request.
		expect(sandbox.log.filter((entry) => entry.route === 'eanExists').map((entry) => entry.itemCount)).toEqual([5]);
	});

	it.each([
		['a code too short to be an EAN', `${newEan('5')}, 12345`, /^EANs › entry 2: "12345" is not an EAN \(item 0\)/],
		['an empty list', ' ,\n ', /EANs: the list is empty \(item 0\)/],
	])('rejects %s and sends nothing', async (_case, eans, message) => {
		await start(10);

		const result = await run({ operation: 'checkEans', eans });

		expect(result.error?.message).toMatch(message);
		expect(apiRequests()).toHaveLength(0);
	});
});

describe('Check EANs leaves the check digit to the service', () => {
	const startDated = sandboxPerTest(() => ({ now: `${YEAR}-06-15T10:00:00Z`, seed: 3, products: 20 }));
	beforeEach(async () => await startDated());

	it('checks codes whose check digit is not valid, and finds the one that exists', async () => {
		// 4006381333932: EAN-13 length, wrong check digit; such codes exist in real catalogues.
		const imported = await run({
			resource: 'product',
			operation: 'import',
			name: 'Pan',
			ean: '4006381333932',
			description: 'A pan',
			coverImage: 'https://example.com/pan.jpg',
			basePrice: 100,
			vat: 20,
			stockLevel: 1,
		});
		expect(imported.error).toBeUndefined();

		const result = await run({ resource: 'product', operation: 'checkEans', eans: '4006381333932, 12345670, 00012345678906' });

		expect(result.error).toBeUndefined();
		expect(result.json('Node')).toEqual([
			{ ean: '4006381333932', exists: true, matchedEan: '4006381333932' },
			{ ean: '12345670', exists: false, matchedEan: null },
			{ ean: '00012345678906', exists: false, matchedEan: null },
		]);
		// Every form of each code: 2 + 4 (8, 12, 13, 14 digits) + 3 (14 as given, 12, 13).
		expect(sandbox.log.filter((entry) => entry.route === 'eanExists').map((entry) => entry.itemCount)).toEqual([9]);
	});

	it('uses an EAN filter with an invalid check digit as given', async () => {
		const result = await run({ resource: 'product', operation: 'getMany', returnAll: true, filters: { ean: '4006381333932' } });

		expect(result.error).toBeUndefined();
		expect(sandbox.log.find((entry) => entry.route === 'products')?.query.ean).toBe('4006381333932');
	});
});
