/**
 * The product catalogue. Seeded products are not stored: product N is generated from (seed, N) on
 * demand, so 50,000 products cost nothing until read. Changed and imported products are kept in a
 * map. Seeded EANs are numbered, so an EAN maps back to its product without an index.
 */
import { PRODUCT_FEATURES, PRODUCT_TYPES } from './data';
import { DAY_MS, startOfUtcDay } from './dates';
import { Rng, mixSeed } from './random';
import type { BasicProduct, Product, ProductRecord } from './types';

// Module-level aliases: products are generated on every read, and under jest's vm context each
// lookup of a global (Math, Date, JSON) is several times slower than a local.
const { floor, max, min, round } = Math;
const NativeDate = Date;
const { stringify } = JSON;

const FIRST_PRODUCT_ID = 100_001;
const EAN_PREFIX = '860';
const SEEDED_EAN_SPACE = 100_000_000;

export function eanCheckDigit(firstTwelveDigits: string): number {
	let sum = 0;
	for (let i = 0; i < 12; i++) sum += (firstTwelveDigits.charCodeAt(i) - 48) * (i % 2 === 0 ? 1 : 3);
	return (10 - (sum % 10)) % 10;
}

export function isValidEan13(ean: string): boolean {
	return /^\d{13}$/.test(ean) && eanCheckDigit(ean) === ean.charCodeAt(12) - 48;
}

export function serializeBrand(id: number, name: string): string {
	return stringify({ id, name });
}

export interface ProductFilter {
	/** Case-insensitive substring of name, SKU or EAN. */
	search?: string;
	/** Products whose EAN is one of these (exactly as sent). */
	eans?: ReadonlySet<string>;
	/** ISO timestamp; only products modified at or after it. */
	modifiedSince?: string;
}

/** Whole RSD amounts ending in 9, as shops price. */
function shelfPrice(value: number): number {
	return max(9, round(value / 10) * 10 - 1);
}

function capitalize(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

export function toProduct(record: ProductRecord): Product {
	return {
		id: record.id,
		externalId: record.externalId,
		ean: record.ean,
		platformCode: record.platformCode,
		name: record.name,
		description: record.description,
		brand: record.brand,
		sku: record.sku,
		productType: record.productType,
		categories: record.categories,
		newBasePrice: record.newBasePrice,
		basePrice: record.basePrice,
		vat: record.vat,
		stockLevel: record.stockLevel,
		packageWeightValue: record.packageWeightValue,
		packageWeightUnit: record.packageWeightUnit,
		...serviceFieldsOf(record),
	};
}

/** What updates set beyond the reference's fields, answered only once set; dimensions in centimetres, as the live answers write them. */
function serviceFieldsOf(record: ProductRecord): Partial<Product> & { packageDimensionUnit?: string } {
	const fields: Partial<Product> & { packageDimensionUnit?: string } = {};
	if (record.serviceable !== undefined) fields.serviceable = record.serviceable;
	for (const name of ['packageHeightValue', 'packageWidthValue', 'packageLengthValue'] as const) {
		if (record[name] === undefined) continue;
		fields[name] = record[name];
		fields.packageDimensionUnit = 'cm';
	}
	return fields;
}

export function toBasicProduct(record: ProductRecord): BasicProduct {
	return {
		id: record.id,
		ean: record.ean,
		sku: record.sku,
		newBasePrice: record.newBasePrice,
		basePrice: record.basePrice,
		stockLevel: record.stockLevel,
		warehouse: record.warehouse,
	};
}

export class ProductCatalog {
	private readonly eanBase: number;
	private readonly changed = new Map<number, ProductRecord>();
	private readonly importedIdByEan = new Map<string, number>();
	/** The EAN of each saved product (one the platform may have changed), to its id. */
	private readonly changedIdByEan = new Map<string, number>();
	private importedCount = 0;

	constructor(
		private readonly seed: number,
		readonly seededCount: number,
		/** Clock start: seeded modification dates lie in the year before it. */
		private readonly referenceMs: number,
		/** Sandbox now, for the next-day base price switch. */
		private readonly nowMs: () => number,
	) {
		this.eanBase = mixSeed(seed, 0xea) % SEEDED_EAN_SPACE;
	}

	get size(): number {
		return this.seededCount + this.importedCount;
	}

	getById(id: number): ProductRecord | undefined {
		const position = id - FIRST_PRODUCT_ID;
		if (!Number.isInteger(position) || position < 0 || position >= this.size) return undefined;
		return this.settle(this.recordAt(position), this.today());
	}

	getByEan(ean: string): ProductRecord | undefined {
		const importedId = this.importedIdByEan.get(ean);
		if (importedId !== undefined) return this.getById(importedId);
		// A product whose EAN the platform changed (`/__sandbox/product-eans`) is found by its new EAN, not its seeded one.
		const changedId = this.changedIdByEan.get(ean);
		const changed = changedId === undefined ? undefined : this.getById(changedId);
		if (changed?.ean === ean) return changed;
		if (!isValidEan13(ean) || !ean.startsWith(EAN_PREFIX)) return undefined;
		const position = Number(ean.slice(3, 12)) - this.eanBase;
		const seeded = position >= 0 && position < this.seededCount ? this.getById(FIRST_PRODUCT_ID + position) : undefined;
		return seeded?.ean === ean ? seeded : undefined;
	}

	/** One page of the products matching the filter, in id order. */
	page(filter: ProductFilter, page: number, size: number): ProductRecord[] {
		const first = page * size;
		const today = this.today();
		if (!filter.search && !filter.eans && !filter.modifiedSince) {
			const result: ProductRecord[] = [];
			for (let position = first; position < min(first + size, this.size); position++) {
				result.push(this.settle(this.recordAt(position), today));
			}
			return result;
		}
		const matches = this.matcher(filter);
		const result: ProductRecord[] = [];
		let skipped = 0;
		for (let position = 0; position < this.size && result.length < size; position++) {
			const record = this.recordAt(position);
			if (!matches(record)) continue;
			if (skipped < first) skipped++;
			else result.push(this.settle(record, today));
		}
		return result;
	}

	all(): ProductRecord[] {
		return this.page({}, 0, this.size);
	}

	/** Stores a changed version of an existing product. */
	save(record: ProductRecord): void {
		this.changed.set(record.id, record);
		this.changedIdByEan.set(record.ean, record.id);
	}

	/** Adds a new product; its id is assigned here. */
	create(fields: Omit<ProductRecord, 'id'>): ProductRecord {
		const record: ProductRecord = { ...fields, id: FIRST_PRODUCT_ID + this.size };
		this.changed.set(record.id, record);
		this.importedIdByEan.set(record.ean, record.id);
		this.importedCount++;
		return record;
	}

	/** The seeded product at a position, even past the seeded count (invoices of an empty catalogue). */
	seededAt(position: number): ProductRecord {
		return this.settle(this.changed.get(FIRST_PRODUCT_ID + position) ?? this.generate(position), this.today());
	}

	private recordAt(position: number): ProductRecord {
		return this.changed.get(FIRST_PRODUCT_ID + position) ?? this.generate(position);
	}

	private matcher(filter: ProductFilter): (record: ProductRecord) => boolean {
		const search = filter.search?.toLowerCase();
		return (record) =>
			(filter.eans === undefined || filter.eans.has(record.ean)) &&
			(filter.modifiedSince === undefined || record.dateModified >= filter.modifiedSince) &&
			(search === undefined ||
				record.name.toLowerCase().includes(search) ||
				record.sku.toLowerCase().includes(search) ||
				record.ean.includes(search));
	}

	private today(): number {
		return startOfUtcDay(this.nowMs());
	}

	/** A new base price applies from the day after it was set. */
	private settle(record: ProductRecord, today: number): ProductRecord {
		if (record.priceChangeDay === null || today <= record.priceChangeDay) return record;
		return { ...record, basePrice: record.newBasePrice, priceChangeDay: null };
	}

	private generate(position: number): ProductRecord {
		const rng = new Rng(mixSeed(this.seed, position));
		const type = rng.pick(PRODUCT_TYPES);
		const brand = rng.pick(type.brands);
		const noun = rng.pick(type.nouns);
		const model = `${rng.letters(1)}${rng.int(10, 990)}`;
		const basePrice = shelfPrice(type.price[0] + rng.next() * (type.price[1] - type.price[0]));
		const hasPendingPrice = rng.chance(0.05);
		const [lightest, heaviest] = type.weight;
		const weight = lightest + rng.next() * (heaviest - lightest);
		const eanDigits = `${EAN_PREFIX}${`${this.eanBase + position}`.padStart(9, '0')}`;
		const number = `${position + 1}`.padStart(6, '0');
		return {
			id: FIRST_PRODUCT_ID + position,
			externalId: `EXT-${number}`,
			ean: `${eanDigits}${eanCheckDigit(eanDigits)}`,
			platformCode: `PC${(this.eanBase + position).toString(36).toUpperCase().padStart(6, '0')}`,
			name: `${brand.name} ${noun} ${model}`,
			description: `${capitalize(noun)} ${brand.name} ${model}. ${rng.pick(PRODUCT_FEATURES)}.`,
			brand: serializeBrand(brand.id, brand.name),
			sku: `${type.code}-${number}`,
			productType: type.local,
			categories: [...type.categories],
			newBasePrice: hasPendingPrice ? shelfPrice(basePrice * 0.9) : basePrice,
			basePrice,
			vat: type.vat,
			stockLevel: rng.chance(0.1) ? 0 : rng.int(1, 250),
			packageWeightValue: type.weightUnit === 'KG' ? round(weight * 100) / 100 : round(weight),
			packageWeightUnit: type.weightUnit,
			warehouse: rng.chance(0.4) ? 'PLATFORM_WAREHOUSE' : 'MERCHANT_WAREHOUSE',
			dateModified: new NativeDate(this.referenceMs - floor(rng.next() * 365 * DAY_MS)).toISOString(),
			priceChangeDay: hasPendingPrice ? startOfUtcDay(this.referenceMs) : null,
		};
	}
}
