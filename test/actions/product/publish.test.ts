/**
 * Product › Publish (actions/product/publish.operation.ts, publication.ts): every input item's IDs
 * in one request, one output item per input item, and a request that may have been applied never
 * sent again; through n8n's real engine against the sandbox.
 */
import { LIMITS } from '../../../nodes/MarketplaceMerchant/transport/endpoints';
import { NOW, newEan, outputRunner, sandbox, sandboxPerFile, sent } from '../helpers';

sandboxPerFile({ now: NOW, products: 20 });
const run = outputRunner('product');
const CONTINUE = { node: { onError: 'continueRegularOutput' as const } };

const ids = () => sandbox.state.products.slice(0, 5).map((product) => product.id);
const publications = () => sandbox.state.publications;

describe('Product: Publish', () => {
	it('sends the IDs of every input item (one ID, a list, an array) in one request; one output item per input item', async () => {
		const [a, b, c, d] = ids();
		const before = publications().length;

		const { result, json } = await run({ operation: 'publish', productIds: '={{ $json.ids }}' }, [{ ids: a }, { ids: `${b}, ${c}` }, { ids: [c, d] }]);

		expect(result.error).toBeUndefined();
		expect(sent('productPublish')).toHaveLength(1);
		const publication = publications()[before];
		// c is named by two items and sent once.
		expect(publication.results.map((entry) => entry.merchantInventoryId)).toEqual([a, b, c, d]);
		expect(publication.action).toBe('publish');
		expect(json).toEqual([
			expect.objectContaining({ action: 'publish', productIds: [a], progressId: publication.id, progressIds: [publication.id] }),
			expect.objectContaining({ productIds: [b, c], progressId: publication.id }),
			expect.objectContaining({ productIds: [c, d], progressId: publication.id }),
		]);
		expect(json[0].next).toMatch(/visible to customers once its status is PUBLISHED/);
		for (const id of [a, b, c, d]) expect(sandbox.state.product(id)?.status).toBe('PUBLISHED');
	});

	it('takes products picked from the list (their names come out), by ID or by EAN beside the Product IDs; an unknown EAN is flagged before sending', async () => {
		const [a, b, c] = sandbox.state.products.slice(5, 8);
		const products = {
			product: [
				{ id: { __rl: true, mode: 'list', value: String(a.id), cachedResultName: a.name } },
				{ id: { __rl: true, mode: 'ean', value: b.ean } },
			],
		};
		const { result, json } = await run({ operation: 'publish', productIds: String(c.id), products });
		expect(result.error).toBeUndefined();
		expect(json[0]).toMatchObject({
			productIds: [c.id, a.id, b.id],
			products: [
				{ productId: c.id, name: null },
				{ productId: a.id, name: a.name },
				{ productId: b.id, name: null },
			],
		});
		expect(sent('productPublish')).toHaveLength(1);

		sandbox.clearLog();
		const unknown = await run({ operation: 'publish', products: { product: [{ id: { __rl: true, mode: 'ean', value: newEan('1') } }] } });
		expect(unknown.result.error?.message).toMatch(/Products › row 1 › Product ID: no product has the EAN/);
		expect(sent('productPublish')).toHaveLength(0);
	});

	it('Check Products First: an ID the catalogue does not have fails its item before anything is sent (one catalogue read); with On Error = Continue the others go out', async () => {
		const [a] = ids();
		const stopped = await run({ operation: 'publish', productIds: '={{ $json.ids }}', checkProducts: true }, [{ ids: a }, { ids: '999999' }]);
		expect(stopped.result.error?.message).toMatch(/Product IDs: the catalogue has no product with ID 999999 \(item 1\)/);
		expect(sent('productPublish')).toHaveLength(0);
		expect(sent('basicProducts')).toHaveLength(1);

		sandbox.clearLog();
		const { json } = await run({ operation: 'publish', productIds: '={{ $json.ids }}', checkProducts: true }, [{ ids: a }, { ids: '999999' }], CONTINUE);
		expect(json[0]).toMatchObject({ productIds: [a] });
		expect(String(json[1].error)).toMatch(/no product with ID 999999/);
		expect(sent('productPublish')).toHaveLength(1);
		expect(publications().at(-1)?.results.map((entry) => entry.merchantInventoryId)).toEqual([a]);
	});

	it('sends nothing when an item names no valid ID, under the default On Error', async () => {
		const [a] = ids();

		const { result } = await run({ operation: 'publish', productIds: '={{ $json.ids }}' }, [{ ids: a }, { ids: 'abc' }]);

		expect(result.error?.message).toMatch(/Product IDs › entry 1/);
		expect(sent('productPublish')).toHaveLength(0);
	});

	it('with On Error = Continue, an invalid item fails alone and the others go out', async () => {
		const [a] = ids();

		const { result, items } = await run({ operation: 'publish', productIds: '={{ $json.ids }}' }, [{ ids: a }, { ids: '' }], CONTINUE);

		expect(result.error).toBeUndefined();
		expect(sent('productPublish')).toHaveLength(1);
		expect(items[0].json).toEqual(expect.objectContaining({ productIds: [a] }));
		expect(JSON.stringify(items[1].json)).toMatch(/no product IDs given/);
	});

	it('is not sent again after a 503 that came once the publish was applied: applied once, reported as an unknown outcome naming what to check', async () => {
		const [a, b] = ids();
		const before = publications().length;
		sandbox.injectFault({ route: 'productPublish', count: 1, applyThen: true });

		const { result } = await run({ operation: 'publish', productIds: `${a}, ${b}` });

		expect(sent('productPublish')).toHaveLength(1);
		expect(sent('productPublish')[0]).toEqual(expect.objectContaining({ status: 503, appliedStatus: 200 }));
		expect(publications().length - before).toBe(1);
		expect(result.error?.message).toBe('The outcome of the publish request is unknown: the service answered HTTP 503');
		expect(String(result.error?.description)).toMatch(
			new RegExp(`^The service applies publishing later, .* It may have been applied all the same, so the node did not send it again\\. Check the status of products ${a}, ${b} \\(Product › Get Many, Filters › Status\\)`),
		);
	});

	it('is not sent again after a cut connection either; with On Error = Continue every item of the request carries the error', async () => {
		const [a, b] = ids();
		sandbox.injectFault({ route: 'productPublish', count: 1, applyThen: true, body: 'reset' });

		const { result, items } = await run({ operation: 'publish', productIds: '={{ $json.id }}' }, [{ id: a }, { id: b }], CONTINUE);

		expect(result.error).toBeUndefined();
		expect(sent('productPublish')).toHaveLength(1);
		expect(items).toHaveLength(2);
		for (const item of items) expect(JSON.stringify(item.json)).toMatch(/The outcome of the publish request is unknown: the connection was cut/);
	});

	it('a refusal (4xx) is no unknown outcome: the products named, the service\'s words with their English meaning, nothing applied', async () => {
		sandbox.injectFault({ route: 'productPublish', count: 1, status: 400, message: 'Proizvod ne postoji' });

		const { result } = await run({ operation: 'publish', productIds: String(ids()[0]) });

		expect(sent('productPublish')).toHaveLength(1);
		expect(result.error?.message).not.toMatch(/outcome .* is unknown/);
		expect(result.error?.message).toBe(`The publish request of product ${ids()[0]} was not accepted: product does not exist`);
		expect(result.error?.description).toMatch(/^The service refused it \(HTTP 400\) and said: Proizvod ne postoji \(product does not exist\)\. Nothing was applied\./);
	});

	it('after a 401 (a token the service no longer takes) renews the token and sends once more: nothing was applied', async () => {
		const [a] = ids();
		const before = publications().length;
		sandbox.expireAllTokens();

		const { result, json } = await run({ operation: 'publish', productIds: String(a) });

		expect(result.error).toBeUndefined();
		expect(sent('productPublish').map((entry) => entry.status)).toEqual([401, 200]);
		expect(publications().length - before).toBe(1);
		expect(json[0].progressId).toBe(publications()[before].id);
	});

	it('a token request that fails sent nothing: its own error, no unknown outcome', async () => {
		sandbox.expireAllTokens();
		sandbox.injectFault({ route: 'token', count: 1, status: 400 });

		const { result } = await run({ operation: 'publish', productIds: String(ids()[0]) });

		expect(sent('productPublish').map((entry) => entry.status)).toEqual([401]);
		expect(result.error?.message).not.toMatch(/outcome .* is unknown/);
		expect(JSON.stringify(result.error)).toMatch(/token endpoint answered HTTP 400/);
	});

	it(`splits the IDs over requests of at most ${LIMITS.idsPerPublicationRequest.toLocaleString('en-US')}`, async () => {
		const many = Array.from({ length: LIMITS.idsPerPublicationRequest + 1 }, (_, index) => 1_000_000 + index);

		const { result, json } = await run({ operation: 'publish', productIds: '={{ $json.ids }}' }, [{ ids: many }]);

		expect(result.error).toBeUndefined();
		expect(sent('productPublish').map((entry) => entry.itemCount)).toEqual([LIMITS.idsPerPublicationRequest, 1]);
		expect(json[0].progressIds).toHaveLength(2);
	});
});
