/**
 * The orders family's rules (shared/orders/orders.ts) where the sandbox has no switch: a service that
 * leaves out the page fields or answers a plain list, a list that grows while it is read, and the
 * readers of the documentation's variants. The service here is a script of answers, read by the
 * real schema reader (answers/read.ts) as endpointReader reads them; the engine, the sandbox and
 * the variants it has are tested through the operations (test/actions/order/, test/actions/shipment/).
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { decodeText } from '../../../nodes/MarketplaceMerchant/answers/read';
import { ANSWERS } from '../../../nodes/MarketplaceMerchant/answers/schemas';
import type { ReadEndpoint } from '../../../nodes/MarketplaceMerchant/shared/read';
import { forgetGroupNaming, listOrders, readOrder, readShipment } from '../../../nodes/MarketplaceMerchant/shared/orders/orders';
import { paymentMethodCode, paymentMethodsOf, simplifyOrder, simplifyShipment } from '../../../nodes/MarketplaceMerchant/shared/orders/outputs';

const NODE = { name: 'Marketplace Merchant', type: 'marketplaceMerchant', typeVersion: 3, position: [0, 0], parameters: {} } as unknown as INode;

const order = (index: number) => ({ id: `ORDER-${index}`, createdDate: new Date(Date.UTC(2025, 5, 1) - index * 60_000).toISOString(), items: [] });

interface Script {
	/** The whole list, newest first, as it is when each request arrives. */
	list: () => IDataObject[];
	/** What the answer carries besides `content`. */
	shape: 'spring' | 'contentOnly' | 'plainList';
}

/** A service of one list, paged as Spring pages it, each answer read by its schema; the queries it got. */
function service(script: Script): { read: ReadEndpoint; queries: IDataObject[] } {
	const queries: IDataObject[] = [];
	const read: ReadEndpoint = async (_group, _path, qs, _what, answer) => {
		queries.push(qs);
		const all = script.list();
		const [page, size] = [Number(qs.page ?? 0), Number(qs.size ?? 10)];
		const content = all.slice(page * size, page * size + size);
		const body =
			script.shape === 'plainList'
				? content
				: script.shape === 'contentOnly'
					? { content }
					: { content, last: page >= Math.ceil(all.length / size) - 1, totalElements: all.length, totalPages: Math.ceil(all.length / size) };
		return decodeText(JSON.stringify(body), 'application/json', answer);
	};
	read.service = async () => 'https://service.test';
	return { read, queries };
}

beforeEach(() => forgetGroupNaming());

describe('listOrders over Spring pages', () => {
	it.each(['contentOnly', 'plainList'] as const)('reads a list answered without page fields (%s) page by page until a short page', async (shape) => {
		const all = Array.from({ length: 230 }, (_, index) => order(index));
		const { read, queries } = service({ list: () => all, shape });
		const orders = await listOrders(read, NODE, {}, Infinity);
		expect(orders.map((entry) => entry.id)).toEqual(all.map((entry) => entry.id));
		expect(queries.map((qs) => qs.page)).toEqual([0, 1, 2]);
	});

	it('reads on while the list grows during the read: every order once, none lost past the pages the first total called for', async () => {
		const all = Array.from({ length: 300 }, (_, index) => order(index + 10));
		let added = 0;
		const { read, queries } = service({
			list: () => {
				// Two new orders arrive once the first page has been answered: the rest moves two places back.
				if (queries.length === 2 && added === 0) {
					all.unshift(order(1), order(2));
					added = 2;
				}
				return all;
			},
			shape: 'spring',
		});
		const orders = await listOrders(read, NODE, {}, Infinity);
		const ids = orders.map((entry) => entry.id);
		expect(new Set(ids).size).toBe(ids.length);
		// The 300 orders there when the read began are all there; the new ones only as far as the pages read reached.
		for (let index = 10; index < 310; index++) expect(ids).toContain(`ORDER-${index}`);
		expect(queries.map((qs) => qs.page)).toEqual([0, 1, 2, 3]);
	});

	it('stops on `last` and asks for nothing past it', async () => {
		const all = Array.from({ length: 200 }, (_, index) => order(index));
		const { read, queries } = service({ list: () => all, shape: 'spring' });
		expect(await listOrders(read, NODE, { group: 'forConfirmation' }, Infinity)).toHaveLength(200);
		expect(queries.map(({ page, size, statusGroup }) => [page, size, statusGroup])).toEqual([
			[0, 100, 'SG_FOR_CONFIRMATION'],
			[1, 100, 'SG_FOR_CONFIRMATION'],
		]);
	});
});

describe('one order or shipment by its id', () => {
	it('finds the order with that id, and nothing for an id the answer does not carry', async () => {
		const { read, queries } = service({ list: () => [order(7)], shape: 'spring' });
		expect((await readOrder(read, NODE, 'ORDER-7'))?.id).toBe('ORDER-7');
		expect(await readOrder(read, NODE, 'ORDER-8')).toBeUndefined();
		expect(queries[0]).toMatchObject({ orderId: 'ORDER-7' });
	});

	it("finds the shipment with that suborder id among its order's", async () => {
		const shipments = [{ orderId: 'A', suborderId: 'A-DS-2' }, { orderId: 'A', suborderId: 'A-DS-1' }];
		const { read, queries } = service({ list: () => shipments, shape: 'spring' });
		expect(await readShipment(read, NODE, 'A-DS-1')).toMatchObject({ suborderId: 'A-DS-1', orderId: 'A' });
		expect(queries[0]).toMatchObject({ search: 'A-DS-1' });
	});
});

describe('reading the variants', () => {
	const readOrderAnswer = (raw: object) => (decodeText(JSON.stringify({ content: [raw] }), 'application/json', ANSWERS.orders) as { content: IDataObject[] }).content[0];

	it('reads the payment methods under either key, as a list, whatever form the list comes in', () => {
		expect(paymentMethodsOf(readOrderAnswer({ paymentMethods: ['COD', 'VOUCHER'] }))).toEqual(['COD', 'VOUCHER']);
		expect(paymentMethodsOf(readOrderAnswer({ paymentMethod: ['PBC'] }))).toEqual(['PBC']);
		expect(paymentMethodsOf(readOrderAnswer({ paymentMethod: 'POS' }))).toEqual(['POS']);
		expect(paymentMethodsOf(readOrderAnswer({ paymentMethods: '[COD, VOUCHER]' }))).toEqual(['COD', 'VOUCHER']);
		expect(paymentMethodsOf(readOrderAnswer({}))).toEqual([]);
	});

	it('simplifies an order from either spelling; an unknown field is kept in the full order', () => {
		const raw = {
			id: 'HPGUJ-1SQQI',
			createdDate: '2025-06-01T10:00:00Z',
			totalPrice: '1299.5',
			currency: 'RSD',
			paymentMethod: 'COD',
			numberOfItems: 1,
			billingAddress: { type: 'BILLING', firstName: 'Ana', lastName: 'Jović', buyerName: 'Firma d.o.o.', buyerType: 'TIN', buyerId: '101234567', city: 'Niš', postcode: '18000', streetName: 'Obrenovićeva', streetNumber: '12' },
			somethingNew: { kept: true },
			items: [{ id: '123', productId: 'u-1', productEan: '0860000000017', productSku: 7, productName: 'Kabl', quantity: 2, confirmedQuantity: null, basePrice: 649.75, grandTotal: 1299.5, suborderWarehouseAddressId: 5, specificationsTranslations: '{}' }],
		};
		const read = readOrderAnswer(raw);
		expect(read.somethingNew).toEqual({ kept: true });
		expect((read.items as IDataObject[])[0].specificationsTranslations).toBe('{}');
		expect(simplifyOrder(read)).toEqual({
			orderId: 'HPGUJ-1SQQI',
			createdDate: '2025-06-01T10:00:00Z',
			fulfilledBy: 'merchant',
			fromShipments: false,
			totalPrice: 1299.5,
			// The answer has no net prices, shipping or commission: nothing is made up.
			totalPriceWithoutVat: null,
			itemsTotal: 1299.5,
			itemsTotalWithoutVat: null,
			shippingCost: null,
			shippingCostWithoutVat: null,
			commission: null,
			currency: 'RSD',
			paymentMethods: ['COD'],
			paymentMethodNames: ['Cash on Delivery'],
			buyer: { name: 'Ana Jović', company: 'Firma d.o.o.', taxId: '101234567', city: 'Niš' },
			deliveryAddress: { type: 'BILLING', street: 'Obrenovićeva', number: '12', apartment: null, postcode: '18000', city: 'Niš', additionalInfo: null },
			numberOfItems: 1,
			lines: [
				{
					productId: 123,
					merchantInventoryId: 123,
					platformProductId: 'u-1',
					ean: '0860000000017',
					sku: '7',
					name: 'Kabl',
					quantity: 2,
					confirmedQuantity: null,
					packedQuantity: null,
					unitPrice: 649.75,
					unitPriceWithoutVat: null,
					vat: null,
					total: 1299.5,
					totalWithoutVat: null,
					shippingCost: null,
					commission: null,
					warehouseAddressId: 5,
				},
			],
		});
	});

	it('names the payment codes as the documentation means them, and reads a typed code or name', () => {
		expect(simplifyOrder(readOrderAnswer({ paymentMethods: ['PBC', 'POS', 'VOUCHER'] })).paymentMethodNames).toEqual(['Pay by Card', 'Pay on Site', 'Voucher']);
		expect(['cod', 'Pay by card', ' PAY ON SITE ', 'card', 'Card (POS)'].map(paymentMethodCode)).toEqual(['COD', 'PBC', 'POS', undefined, undefined]);
	});

	it('simplifies a shipment, its lines by merchant inventory id', () => {
		const read = (decodeText(JSON.stringify({ content: [{ suborderId: 'A-DS-1', orderId: 'A', status: 'ON_THE_BORDER', items: [{ merchantInventoryId: '9', orderedQuantity: 1 }] }] }), 'application/json', ANSWERS.shipments) as { content: IDataObject[] }).content[0];
		expect(simplifyShipment(read)).toMatchObject({ suborderId: 'A-DS-1', status: 'ON_THE_BORDER', carrierName: null, lines: [{ merchantInventoryId: 9, orderedQuantity: 1, packedQuantity: null }] });
	});
});
