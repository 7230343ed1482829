/**
 * Builds orders from the catalogue's products: ids like the live ones (`HPGUJ-1SQQI`), buyers,
 * payment methods and the per-unit prices of each line. Each order comes from (seed, its
 * sequence number), so the seed decides the data and orders added later never shift earlier ones.
 */
import { CITIES, FIRST_NAMES, LAST_NAMES } from './data';
import type { ProductCatalog } from './products';
import { Rng, mixSeed, roundMoney } from './random';
import type { AddOrdersOptions, BillingAddress, OrderLine, OrderRecord, PaymentMethod } from './order-types';
import type { ProductRecord } from './types';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const SHIPPING_PRICE = 249;
const FREE_SHIPPING_FROM = 5000;
const TAKE_RATES = [8, 10, 12, 15];
const PAYMENT_CHOICES: PaymentMethod[][] = [['COD'], ['COD'], ['PBC'], ['PBC'], ['PBC', 'VOUCHER'], ['POS'], ['VOUCHER']];
const COMPANIES = ['Tehno Plus d.o.o.', 'Zeleni Kutak d.o.o.', 'Mikro Servis d.o.o.'];
const COLOURS = ['crna', 'bela', 'plava', 'siva', 'crvena'];

function alphanumeric(rng: Rng, length: number): string {
	let text = '';
	for (let i = 0; i < length; i++) text += ALPHANUMERIC[rng.int(0, ALPHANUMERIC.length - 1)];
	return text;
}

/** The product's attributes as the pages write them: a JSON string. */
export function specificationsOf(product: Pick<ProductRecord, 'id'>): string {
	const colour = COLOURS[product.id % COLOURS.length];
	return JSON.stringify({ attributes: [{ key: 'Color', type: 'ColorAttribute', trait: 'Boja', name: colour }] });
}

function billingAddress(rng: Rng): BillingAddress | null {
	// The pages mark it nullable: some orders come without one.
	if (rng.chance(0.1)) return null;
	const place = rng.pick(CITIES);
	const company = rng.chance(0.15);
	return {
		type: 'BILLING',
		firstName: rng.pick(FIRST_NAMES),
		lastName: rng.pick(LAST_NAMES),
		city: place.city,
		postcode: place.postcode,
		streetName: rng.pick(place.streets),
		streetNumber: String(rng.int(1, 180)),
		apartmentNumber: rng.chance(0.4) ? String(rng.int(1, 40)) : null,
		additionalInfo: rng.chance(0.2) ? 'Pozvati pre dostave' : null,
		buyerType: company ? 'TIN' : null,
		buyerId: company ? rng.digits(9) : null,
		buyerName: company ? rng.pick(COMPANIES) : null,
	};
}

function line(rng: Rng, product: ProductRecord, quantity: number, seed: number, orderedFrom: number | null = null): OrderLine {
	const discounted = rng.chance(0.2);
	const productRng = new Rng(mixSeed(seed, product.id, 0x9d));
	return {
		merchantInventoryId: product.id,
		quantity,
		orderedFrom,
		vat: product.vat,
		basePriceBeforeDeductions: product.basePrice,
		basePrice: discounted ? roundMoney(product.basePrice * 0.9) : product.basePrice,
		takeRate: rng.pick(TAKE_RATES),
		shippingCost: 0,
		productId: productRng.uuid(),
		productEan: product.ean,
		productSku: product.sku,
		productName: product.name,
		productACode: product.platformCode,
		productApid: `AP${product.id.toString(36).toUpperCase()}`,
		specifications: specificationsOf(product),
	};
}

/** A seeded product the merchant ships itself (orders of platform-warehouse products are the platform's to fulfil). */
function pickProduct(rng: Rng, catalog: ProductCatalog): ProductRecord {
	const count = Math.max(1, catalog.seededCount);
	let product = catalog.seededAt(rng.int(0, count - 1));
	for (let attempt = 0; attempt < 8 && product.warehouse !== 'MERCHANT_WAREHOUSE'; attempt++) {
		product = catalog.seededAt(rng.int(0, count - 1));
	}
	return product;
}

export class OrderFactory {
	constructor(
		private readonly seed: number,
		private readonly catalog: ProductCatalog,
	) {}

	/** Order number `sequence`, created at `createdMs`; explicit lines must name existing products. */
	order(sequence: number, createdMs: number, options: AddOrdersOptions = {}): OrderRecord {
		const rng = new Rng(mixSeed(this.seed, 0x0d3e, sequence));
		const id = `${rng.letters(5)}-${alphanumeric(rng, 5)}`;
		const lines: OrderLine[] = [];
		if (options.lines && options.lines.length > 0) {
			for (const wanted of options.lines) {
				const product = this.catalog.getById(wanted.merchantInventoryId);
				if (!product) throw new Error(`Product ${wanted.merchantInventoryId} does not exist`);
				const quantity = wanted.quantity ?? 1;
				if (!Number.isInteger(quantity) || quantity < 1) throw new Error('An order line needs a quantity of at least 1');
				lines.push(line(rng, product, quantity, this.seed, wanted.warehouseAddressId ?? null));
			}
		} else {
			const count = rng.int(1, 3);
			const used = new Set<number>();
			for (let i = 0; i < count; i++) {
				const product = pickProduct(rng, this.catalog);
				if (used.has(product.id)) continue;
				used.add(product.id);
				lines.push(line(rng, product, rng.chance(0.75) ? 1 : rng.int(2, 4), this.seed));
			}
		}
		const goods = lines.reduce((sum, entry) => sum + entry.basePrice * entry.quantity, 0);
		if (goods < FREE_SHIPPING_FROM) lines[0].shippingCost = SHIPPING_PRICE;
		return {
			id,
			createdDate: new Date(createdMs).toISOString(),
			paymentMethods: options.paymentMethods ? [...options.paymentMethods] : [...rng.pick(PAYMENT_CHOICES)],
			billingAddress: billingAddress(rng),
			lines,
			confirmations: null,
			confirmedDate: null,
			...(options.fulfilledByMarketplace ? { fulfilledBy: 'marketplace' as const } : {}),
		};
	}
}
