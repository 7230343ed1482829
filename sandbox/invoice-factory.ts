/**
 * Builds invoices and invoice corrections with the spec's full nested structure and consistent
 * amounts (items, totals, tax rate groups). Numbers and ids come from counters, so every document
 * is unique; the random choices come from a seeded source, so the seed decides the data.
 */
import {
	CITIES,
	CORRECTION_REASONS,
	FIRST_NAMES,
	LAST_NAMES,
	MERCHANT_DETAILS,
	PLATFORM_FULFILMENT_CENTRE,
} from './data';
import { DAY_MS, formatUnzoned } from './dates';
import type { ProductCatalog } from './products';
import { Rng, roundMoney } from './random';
import type {
	CustomerDetails,
	Invoice,
	InvoiceCorrection,
	InvoiceItem,
	InvoiceType,
	PriceDetails,
	ProductSpecification,
	TaxRateSpecification,
	WarehouseAddress,
	WarehouseRecord,
} from './types';

const HOUR_MS = 3_600_000;
const FREE_SHIPPING_FROM = 5000;
const SHIPPING_PRICE = 390;
const SHIPPING_VAT = 20;

/** Serbian fiscal labels of the VAT rates. */
const TAX_LABELS: Record<number, { label: string; name: string }> = {
	20: { label: 'Ђ', name: 'Opšta stopa PDV 20%' },
	10: { label: 'Е', name: 'Posebna stopa PDV 10%' },
	0: { label: 'Г', name: 'Oslobođeno PDV-a' },
};

interface Line {
	item: InvoiceItem;
	vat: number;
}

/**
 * Price object of one invoice line; `factor` is the quantity (1 for the unit price) times the
 * sign (-1 in corrections).
 */
function priceDetails(unitPrice: number, discountPercent: number, vat: number, factor: number): PriceDetails {
	const withoutVat = (amount: number) => amount / (1 + vat / 100);
	const discounted = unitPrice * (1 - discountPercent / 100);
	const basePrice = roundMoney(discounted * factor);
	const basePriceWithoutVat = roundMoney(withoutVat(discounted) * factor);
	return {
		unitPrice: roundMoney(unitPrice * factor),
		unitPriceWithoutVat: roundMoney(withoutVat(unitPrice) * factor),
		basePrice,
		basePriceWithoutVat,
		discountVat: discountPercent,
		discountAmount: roundMoney((unitPrice - discounted) * factor),
		vat,
		vatAmount: roundMoney(basePrice - basePriceWithoutVat),
	};
}

function summarize(
	lines: Line[],
	shippingPrice: number,
): { productSpecification: ProductSpecification; taxRateSpecification: TaxRateSpecification } {
	const groups = new Map<number, { basePrice: number; basePriceWithoutVat: number }>();
	const addToGroup = (vat: number, basePrice: number, basePriceWithoutVat: number) => {
		const group = groups.get(vat) ?? { basePrice: 0, basePriceWithoutVat: 0 };
		group.basePrice += basePrice;
		group.basePriceWithoutVat += basePriceWithoutVat;
		groups.set(vat, group);
	};
	for (const { item, vat } of lines) {
		addToGroup(vat, item.grandTotalPrice.basePrice, item.grandTotalPrice.basePriceWithoutVat);
	}
	if (shippingPrice !== 0) {
		addToGroup(SHIPPING_VAT, shippingPrice, roundMoney(shippingPrice / (1 + SHIPPING_VAT / 100)));
	}
	const taxGroups = [...groups.entries()]
		.sort(([a], [b]) => b - a)
		.map(([vat, group]) => {
			const basePriceWithoutVat = roundMoney(group.basePriceWithoutVat);
			return {
				label: TAX_LABELS[vat]?.label ?? 'A',
				name: TAX_LABELS[vat]?.name ?? `PDV ${vat}%`,
				basePriceWithoutVat,
				vat,
				vatAmount: roundMoney(group.basePrice - basePriceWithoutVat),
			};
		});
	const basePrice = roundMoney([...groups.values()].reduce((sum, group) => sum + group.basePrice, 0));
	const basePriceWithoutVat = roundMoney(taxGroups.reduce((sum, group) => sum + group.basePriceWithoutVat, 0));
	return {
		productSpecification: {
			items: lines.map((line) => line.item),
			totalDetails: {
				basePrice,
				basePriceWithoutVat,
				vatAmount: roundMoney(basePrice - basePriceWithoutVat),
				chargedPrice: basePrice,
			},
		},
		taxRateSpecification: { taxRateSpecification: taxGroups, grandTotal: basePrice },
	};
}

function line(
	productDetails: InvoiceItem['productDetails'],
	unitPrice: number,
	discountPercent: number,
	vat: number,
	quantity: number,
	sign: 1 | -1,
): Line {
	return {
		vat,
		item: {
			productDetails,
			quantity,
			itemPrice: priceDetails(unitPrice, discountPercent, vat, sign),
			grandTotalPrice: priceDetails(unitPrice, discountPercent, vat, quantity * sign),
		},
	};
}

export class InvoiceFactory {
	private readonly rng: Rng;
	private readonly fiscalPrefix: string;
	private lastOrderNumber: number;
	private fiscalCounter: number;
	private platformInvoiceCounter = 0;

	constructor(
		seed: number,
		private readonly catalog: ProductCatalog,
		private readonly warehouses: WarehouseRecord[],
	) {
		this.rng = new Rng(seed ^ 0x1a7015e);
		this.fiscalPrefix = `${this.rng.letters(4)}${this.rng.digits(4)}`;
		this.lastOrderNumber = 5_100_000 + this.rng.int(0, 99_999);
		this.fiscalCounter = this.rng.int(1000, 9000);
	}

	invoice(invoicedMs: number, type?: InvoiceType): Invoice {
		const rng = this.rng;
		const invoiceType = type ?? (rng.chance(0.75) ? 'FISCAL' : 'NON_FISCAL');
		this.lastOrderNumber += rng.int(1, 37);
		const orderid = String(this.lastOrderNumber);
		const fba = rng.chance(0.35);
		const lines: Line[] = [];
		for (let i = rng.int(1, 4); i > 0; i--) {
			const product = this.catalog.seededAt(rng.int(0, Math.max(1, this.catalog.seededCount) - 1));
			const discountPercent = rng.chance(0.2) ? rng.pick([5, 10, 15, 20]) : 0;
			const productDetails = {
				name: product.name,
				apId: String(product.id),
				sku: product.sku,
				ean: product.ean,
				acode: product.platformCode,
			};
			lines.push(line(productDetails, product.basePrice, discountPercent, product.vat, rng.int(1, 3), 1));
		}
		const subtotal = lines.reduce((sum, { item }) => sum + item.grandTotalPrice.basePrice, 0);
		const amounts = summarize(lines, subtotal < FREE_SHIPPING_FROM ? SHIPPING_PRICE : 0);
		const fiscal = invoiceType === 'FISCAL';
		return {
			invoiceHeader: {
				invoiceType,
				merchantDetails: structuredClone(MERCHANT_DETAILS),
				customerDetails: this.customer(),
				fiscalDetails: {
					invoiceCounter: fiscal ? `${this.fiscalCounter}/${this.fiscalCounter + 1}ПП` : null,
					verificationUrl: fiscal ? this.verificationUrl() : null,
					fiscalInvoiceDate: fiscal ? new Date(invoicedMs + rng.int(1_000, 20_000)).toISOString() : null,
					invoiceNumber: fiscal ? this.nextFiscalNumber() : this.nextPlatformNumber(invoicedMs),
				},
				orderDetails: {
					invoiceId: rng.uuid(),
					invoicedDate: formatUnzoned(invoicedMs),
					orderid,
					suborderId: `${orderid}-${rng.int(1, 3)}`,
					fba,
					paymentMethods: [rng.pick(['COD', 'PBC', 'PBC', 'POS'])],
					warehouseAddress: this.warehouseAddress(fba),
					orderDate: formatUnzoned(invoicedMs - rng.int(HOUR_MS, 3 * DAY_MS)),
				},
			},
			...amounts,
		};
	}

	/** A correction of `original`, or of a new order when none is given. Amounts are negative. */
	correction(invoicedMs: number, original?: Invoice, type?: InvoiceType): InvoiceCorrection {
		const rng = this.rng;
		const corrected = original ?? this.invoice(invoicedMs - rng.int(1, 10) * DAY_MS, type);
		const header = corrected.invoiceHeader;
		const fiscal = header.invoiceType === 'FISCAL';
		const returned = corrected.productSpecification.items.slice(0, rng.int(1, corrected.productSpecification.items.length));
		const lines = returned.map((item) =>
			line(
				item.productDetails,
				item.itemPrice.unitPrice,
				item.itemPrice.discountVat,
				item.itemPrice.vat,
				rng.int(1, item.quantity),
				-1,
			),
		);
		const paymentMethods = rng.chance(0.15)
			? [...header.orderDetails.paymentMethods, 'VOUCHER']
			: [...header.orderDetails.paymentMethods];
		return {
			invoiceHeader: {
				invoiceType: header.invoiceType,
				invoiceCorrectionReason: rng.pick(CORRECTION_REASONS),
				merchantDetails: structuredClone(header.merchantDetails),
				customerDetails: structuredClone(header.customerDetails),
				fiscalDetails: {
					invoiceCounter: fiscal ? `${this.fiscalCounter}/${this.fiscalCounter + 1}ПР` : null,
					verificationUrl: fiscal ? this.verificationUrl() : null,
					fiscalInvoiceDate: fiscal ? new Date(invoicedMs + rng.int(1_000, 20_000)).toISOString() : null,
					referentDocumentNumber: header.fiscalDetails.invoiceNumber,
				},
				orderDetails: {
					invoiceNumber: fiscal ? this.nextFiscalNumber() : this.nextPlatformNumber(invoicedMs),
					invoicedDate: formatUnzoned(invoicedMs),
					orderid: header.orderDetails.orderid,
					suborderId: header.orderDetails.suborderId,
					fba: String(header.orderDetails.fba),
					paymentMethods,
					warehouseAddress: structuredClone(header.orderDetails.warehouseAddress),
					orderDate: header.orderDetails.orderDate,
				},
			},
			...summarize(lines, 0),
		};
	}

	private customer(): CustomerDetails {
		const rng = this.rng;
		const place = rng.pick(CITIES);
		return {
			firstName: rng.pick(FIRST_NAMES),
			lastName: rng.pick(LAST_NAMES),
			address: { street: `${rng.pick(place.streets)} ${rng.int(1, 120)}`, city: place.city, postcode: place.postcode },
		};
	}

	private warehouseAddress(fba: boolean): WarehouseAddress {
		if (fba || this.warehouses.length === 0) return { ...PLATFORM_FULFILMENT_CENTRE };
		const warehouse = this.rng.pick(this.warehouses);
		return { warehouseId: warehouse.id, street: warehouse.street, city: warehouse.city };
	}

	private verificationUrl(): string {
		return `https://verify.sandbox.invalid/v/?vl=${this.rng.letters(6)}${this.rng.hex(24)}`;
	}

	/** Tax administration numbers: requester-signer-counter, e.g. `RXFB1234-RXFB1234-5123`. */
	private nextFiscalNumber(): string {
		this.fiscalCounter += 1;
		return `${this.fiscalPrefix}-${this.fiscalPrefix}-${this.fiscalCounter}`;
	}

	private nextPlatformNumber(invoicedMs: number): string {
		this.platformInvoiceCounter += 1;
		return `NF-${new Date(invoicedMs).getUTCFullYear()}-${String(this.platformInvoiceCounter).padStart(6, '0')}`;
	}
}

/** Three invoices a day on average over the half year before `untilMs`, ~8% of them corrected. */
export function seedDocuments(
	factory: InvoiceFactory,
	seed: number,
	untilMs: number,
): { invoices: Invoice[]; corrections: InvoiceCorrection[] } {
	const rng = new Rng(seed ^ 0xd0c5);
	const invoices: Invoice[] = [];
	const corrections: Array<{ invoicedMs: number; original: Invoice }> = [];
	const historyDays = 180;
	const firstDay = Math.floor(untilMs / DAY_MS) - historyDays;
	for (let day = firstDay; day <= firstDay + historyDays; day++) {
		const times: number[] = [];
		for (let i = rng.int(0, 6); i > 0; i--) times.push(day * DAY_MS + rng.int(7 * HOUR_MS, 23 * HOUR_MS));
		for (const invoicedMs of times.sort((a, b) => a - b)) {
			if (invoicedMs >= untilMs) continue;
			const invoice = factory.invoice(invoicedMs);
			invoices.push(invoice);
			const correctedMs = invoicedMs + rng.int(1, 10) * DAY_MS + rng.int(0, 8 * HOUR_MS);
			if (rng.chance(0.08) && correctedMs < untilMs) corrections.push({ invoicedMs: correctedMs, original: invoice });
		}
	}
	return {
		invoices,
		corrections: corrections.map(({ invoicedMs, original }) => factory.correction(invoicedMs, original)),
	};
}
