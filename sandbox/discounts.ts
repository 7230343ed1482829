/* eslint-disable @n8n/community-nodes/require-node-api-error -- sandbox code (the service twin tests and the bench run) and never loaded by n8n: it may use plain errors (docs/architecture.md, Toolchain). */
/**
 * Discounts with the live service's business rules (platform-facts "Business rules"): per-item
 * results for schedule and update, cancellation, listing, and the prices they produce.
 */
import type { SandboxClock } from './clock';
import { DAY_MS, MINUTE_MS, dayIn, dayStartIn, formatDayMonthYear, formatUnzoned, parseDayMonthYear, startOfUtcDay } from './dates';
import type { ProductCatalog } from './products';
import { Rng } from './random';
import type { DiscountListItem, DiscountRecord, DiscountType, PriceData } from './types';
import { isBlank, isRecord, toNumber, toText } from './values';
import type { SandboxMarket } from './variants';

export const DISCOUNT_TYPES: DiscountType[] = ['SALE', 'SEASONAL_SALE', 'CLEARANCE_SALE'];
const MAX_DAYS: Partial<Record<DiscountType, number>> = { SALE: 31, SEASONAL_SALE: 60 };
const MIN_REDUCTION = 0.05;

export type ScheduleResult =
	| { success: true; data: { merchantInventoryId: number; discountId: string } }
	| { success: false; error: { merchantInventoryId: number | null; errorMessage: string } };

export type UpdateResult =
	| { success: true; data: { discountId: string } }
	| { success: false; error: { discountId: string | null; errorMessage: string } };

export type CancelOutcome = 'cancelled' | 'not-found' | 'already-cancelled' | 'ended';

/** What a discount is asked to be; the dates are dd/MM/yyyy days. */
interface DiscountTerms {
	merchantInventoryId: number;
	discountPrice: number;
	currency: string;
	discountType: DiscountType;
	dateFrom: string;
	dateTo: string | null;
}

class RuleViolation extends Error {}

function fail(message: string): never {
	throw new RuleViolation(message);
}

function parseDay(value: string, field: string): number {
	return parseDayMonthYear(value) ?? fail(`${field} must be a date in format dd/MM/yyyy`);
}

function parseType(value: unknown): DiscountType {
	const type = toText(value) as DiscountType;
	return DISCOUNT_TYPES.includes(type) ? type : fail(`discountType must be one of ${DISCOUNT_TYPES.join(', ')}`);
}

function parsePrice(value: unknown, field: string): number {
	const price = toNumber(value);
	return price !== undefined && price > 0 ? price : fail(`${field} must be a positive number`);
}

/** SEASONAL_SALE starts between 1 and 15 July or between 25 December and 10 January. */
function inSeasonalStartWindow(dayMs: number): boolean {
	const date = new Date(dayMs);
	const month = date.getUTCMonth() + 1;
	const day = date.getUTCDate();
	return (month === 7 && day <= 15) || (month === 12 && day >= 25) || (month === 1 && day <= 10);
}

/** Which fields a discount update must carry: the interface reference's (the changes) or the current pages' (variants.ts). */
export type DiscountUpdateRules = 'reference' | 'documented';

const NULL_WHEN_RUNNING = ['newDateFrom', 'newDateTo', 'newDiscountType'] as const;

/**
 * The current pages' rule: a running discount's update names its product and gives price and
 * currency, the other fields null; a pending one's gives every field (a CLEARANCE_SALE no end).
 */
function requireDocumentedFields(current: DiscountRecord, item: Record<string, unknown>, running: boolean): void {
	const state = running ? 'an active' : 'a pending';
	const required = ['merchantInventoryId', 'newDiscountPrice', 'newDiscountPriceCurrency'];
	if (!running) required.push('newDateFrom', 'newDiscountType', ...(item.newDiscountType === 'CLEARANCE_SALE' ? [] : ['newDateTo']));
	const missing = required.find((field) => isBlank(item[field]));
	if (missing) fail(`${missing} is mandatory when updating ${state} discount`);
	if (toNumber(item.merchantInventoryId) !== current.merchantInventoryId) {
		fail(`merchantInventoryId ${String(item.merchantInventoryId)} is not the product of discount ${current.discountId}`);
	}
	const notNull = running ? NULL_WHEN_RUNNING.find((field) => item[field] !== null && item[field] !== undefined) : undefined;
	if (notNull) fail(`${notNull} must be null when updating an active discount`);
}

export class DiscountBook {
	private readonly discounts: DiscountRecord[] = [];
	private readonly rng: Rng;

	constructor(
		seed: number,
		private readonly catalog: ProductCatalog,
		private readonly clock: SandboxClock,
		/** The account's market (variant `market`): its currency is the only one a discount takes. */
		private readonly market: () => SandboxMarket,
		/** The zone the service reads days in (the variant `serviceTimeZone`). */
		private readonly zone: () => string = () => 'UTC',
	) {
		this.rng = new Rng(seed ^ 0xd15c);
		this.seed();
	}

	all(): DiscountRecord[] {
		return this.discounts.map((discount) => ({ ...discount }));
	}

	schedule(items: unknown[]): ScheduleResult[] {
		return items.map((item) => {
			const merchantInventoryId = isRecord(item) ? (toNumber(item.merchantInventoryId) ?? null) : null;
			try {
				if (!isRecord(item)) fail('Each discount must be an object');
				const terms: DiscountTerms = {
					merchantInventoryId: merchantInventoryId ?? fail('merchantInventoryId is required'),
					discountType: parseType(item.discountType),
					discountPrice: parsePrice(item.discountPrice, 'discountPrice'),
					currency: isBlank(item.discountPriceCurrency) ? this.market().currency : String(item.discountPriceCurrency),
					dateFrom: toText(item.dateFrom) ?? fail('dateFrom must be a date in format dd/MM/yyyy'),
					dateTo: isBlank(item.dateTo) ? null : (toText(item.dateTo) ?? null),
				};
				const discount = { ...this.validate(terms), discountId: this.rng.uuid(), cancelled: false };
				this.discounts.push(discount);
				return { success: true, data: { merchantInventoryId: terms.merchantInventoryId, discountId: discount.discountId } };
			} catch (error) {
				if (!(error instanceof RuleViolation)) throw error;
				return { success: false, error: { merchantInventoryId, errorMessage: error.message } };
			}
		});
	}

	/** `rules`: the variant `discountUpdateRules` (variants.ts), which fields an update must carry. */
	update(items: unknown[], rules: DiscountUpdateRules = 'reference'): UpdateResult[] {
		return items.map((item) => {
			const discountId = isRecord(item) ? (toText(item.discountId) ?? null) : null;
			try {
				if (!isRecord(item)) fail('Each discount update must be an object');
				const current = this.discounts.find((discount) => discount.discountId === discountId);
				if (!discountId || !current) fail(`Discount ${discountId ?? '(missing discountId)'} does not exist`);
				if (current.cancelled) fail('Cancelled discounts cannot be updated');
				const nowMs = this.clock.nowMs();
				if (current.endsAtMs !== null && current.endsAtMs < nowMs) fail('Ended discounts cannot be updated');
				const running = current.startsAtMs <= nowMs;
				if (rules === 'documented') requireDocumentedFields(current, item, running);
				if (running) this.updateRunning(current, item);
				else Object.assign(current, this.validate(this.updatedTerms(current, item), current.discountId));
				return { success: true, data: { discountId } };
			} catch (error) {
				if (!(error instanceof RuleViolation)) throw error;
				return { success: false, error: { discountId, errorMessage: error.message } };
			}
		});
	}

	cancel(discountId: string): CancelOutcome {
		const discount = this.discounts.find((candidate) => candidate.discountId === discountId);
		if (!discount) return 'not-found';
		if (discount.cancelled) return 'already-cancelled';
		if (discount.endsAtMs !== null && discount.endsAtMs < this.clock.nowMs()) return 'ended';
		discount.cancelled = true;
		return 'cancelled';
	}

	/** Discounts in effect at some time between the two days (inclusive), by start. */
	list(fromDay: number, toDay: number): DiscountListItem[] {
		const fromDayMs = dayStartIn(fromDay, this.zone());
		const rangeEnd = dayStartIn(toDay + DAY_MS, this.zone()) - 1;
		return this.discounts
			.filter(
				(discount) =>
					!discount.cancelled &&
					discount.startsAtMs <= rangeEnd &&
					(discount.endsAtMs === null || discount.endsAtMs >= fromDayMs),
			)
			.sort((a, b) => a.startsAtMs - b.startsAtMs)
			.map((discount) => ({
				discountId: discount.discountId,
				merchantInventoryId: discount.merchantInventoryId,
				discountPrice: discount.discountPrice,
				dateFrom: formatUnzoned(discount.startsAtMs),
				dateTo: discount.endsAtMs === null ? null : formatUnzoned(discount.endsAtMs),
			}));
	}

	/** Prices on a day (today: now; later days: midday), for the ids that exist. */
	prices(ids: number[], dayMs: number): PriceData[] {
		const nowMs = this.clock.nowMs();
		const today = dayIn(nowMs, this.zone());
		const instant = dayMs === today ? nowMs : dayStartIn(dayMs, this.zone()) + DAY_MS / 2;
		const result: PriceData[] = [];
		for (const id of ids) {
			const product = this.catalog.getById(id);
			if (!product) continue;
			const basePrice = dayMs > today ? product.newBasePrice : product.basePrice;
			const discount = this.activeDiscount(id, instant);
			result.push({
				merchantInventoryId: id,
				basePrice,
				sellablePrice: discount ? discount.discountPrice : basePrice,
				discountId: discount ? discount.discountId : null,
			});
		}
		return result;
	}

	private activeDiscount(merchantInventoryId: number, instant: number): DiscountRecord | undefined {
		return this.discounts.find(
			(discount) =>
				discount.merchantInventoryId === merchantInventoryId &&
				!discount.cancelled &&
				discount.startsAtMs <= instant &&
				(discount.endsAtMs === null || instant <= discount.endsAtMs),
		);
	}

	/** A running discount may only get a lower price; its dates and type stay. */
	private updateRunning(current: DiscountRecord, item: Record<string, unknown>): void {
		const changes =
			(!isBlank(item.newDateFrom) && item.newDateFrom !== current.dateFrom) ||
			(!isBlank(item.newDateTo) && item.newDateTo !== current.dateTo) ||
			(!isBlank(item.newDiscountType) && item.newDiscountType !== current.discountType) ||
			(!isBlank(item.newDiscountPriceCurrency) && item.newDiscountPriceCurrency !== current.currency);
		if (changes) fail('The dates, type and currency of a running discount cannot be changed');
		if (isBlank(item.newDiscountPrice)) return;
		const price = parsePrice(item.newDiscountPrice, 'newDiscountPrice');
		if (price >= current.discountPrice) fail('A running discount can only get a lower price');
		current.discountPrice = price;
	}

	private updatedTerms(current: DiscountRecord, item: Record<string, unknown>): DiscountTerms {
		const discountType = isBlank(item.newDiscountType) ? current.discountType : parseType(item.newDiscountType);
		const endlessNow = discountType === 'CLEARANCE_SALE' && isBlank(item.newDateTo);
		return {
			merchantInventoryId: current.merchantInventoryId,
			discountType,
			discountPrice: isBlank(item.newDiscountPrice)
				? current.discountPrice
				: parsePrice(item.newDiscountPrice, 'newDiscountPrice'),
			currency: isBlank(item.newDiscountPriceCurrency) ? current.currency : String(item.newDiscountPriceCurrency),
			dateFrom: isBlank(item.newDateFrom) ? current.dateFrom : String(item.newDateFrom),
			dateTo: endlessNow ? null : isBlank(item.newDateTo) ? current.dateTo : String(item.newDateTo),
		};
	}

	/** Checks the rules and returns the discount's fields; throws RuleViolation on the first broken rule. */
	private validate(terms: DiscountTerms, ownId?: string): Omit<DiscountRecord, 'discountId' | 'cancelled'> {
		const product = this.catalog.getById(terms.merchantInventoryId);
		if (!product) fail(`Product with merchantInventoryId ${terms.merchantInventoryId} does not exist`);
		const { currency } = this.market();
		if (terms.currency !== currency) fail(`Currency ${terms.currency} is not supported; use ${currency}`);
		const fromDay = parseDay(terms.dateFrom, 'dateFrom');
		let toDay: number | null = null;
		if (terms.discountType === 'CLEARANCE_SALE') {
			if (terms.dateTo !== null) fail('CLEARANCE_SALE discount cannot have an end date');
		} else {
			toDay = parseDay(terms.dateTo ?? fail(`dateTo is required for ${terms.discountType}`), 'dateTo');
		}
		const nowMs = this.clock.nowMs();
		const today = dayIn(nowMs, this.zone());
		if (fromDay < today) fail('Start date cannot be in the past');
		if (toDay !== null && fromDay > toDay) fail('Start date cannot be after end date');
		const maxDays = MAX_DAYS[terms.discountType];
		if (maxDays !== undefined && toDay !== null && (toDay - fromDay) / DAY_MS + 1 > maxDays) {
			fail(`${terms.discountType} discount can last at most ${maxDays} days`);
		}
		if (terms.discountType === 'SEASONAL_SALE' && !inSeasonalStartWindow(fromDay)) {
			fail('SEASONAL_SALE discount must start between 1 and 15 July or between 25 December and 10 January');
		}
		if (terms.discountPrice > product.basePrice * (1 - MIN_REDUCTION) + 1e-9) {
			fail(`Discount price must be at least 5% below the regular price (${product.basePrice} ${currency})`);
		}
		const startsAtMs = fromDay === today ? nowMs : dayStartIn(fromDay, this.zone()) + MINUTE_MS;
		const endsAtMs = toDay === null ? null : dayStartIn(toDay + DAY_MS, this.zone()) - MINUTE_MS;
		const overlapping = this.discounts.find(
			(other) =>
				other.merchantInventoryId === terms.merchantInventoryId &&
				other.discountId !== ownId &&
				!other.cancelled &&
				other.startsAtMs <= (endsAtMs ?? Infinity) &&
				startsAtMs <= (other.endsAtMs ?? Infinity),
		);
		if (overlapping) fail(`Discount overlaps discount ${overlapping.discountId} of product ${terms.merchantInventoryId}`);
		return { ...terms, startsAtMs, endsAtMs };
	}

	/** A few ended, running and upcoming discounts on different products. */
	private seed(): void {
		const count = Math.min(9, this.catalog.seededCount);
		const today = startOfUtcDay(this.clock.nowMs());
		const plans = [
			{ from: -40, to: -10 },
			{ from: -3, to: 10 },
			{ from: 20, to: 26 },
		];
		for (let i = 0; i < count; i++) {
			const product = this.catalog.seededAt(Math.floor((i * this.catalog.seededCount) / count));
			const plan = plans[i % plans.length];
			const fromDay = today + plan.from * DAY_MS;
			const toDay = today + plan.to * DAY_MS;
			this.discounts.push({
				discountId: this.rng.uuid(),
				merchantInventoryId: product.id,
				discountPrice: Math.round(product.basePrice * 0.8),
				currency: this.market().currency,
				discountType: 'SALE',
				dateFrom: formatDayMonthYear(fromDay),
				dateTo: formatDayMonthYear(toDay),
				startsAtMs: fromDay + MINUTE_MS,
				endsAtMs: toDay + DAY_MS - MINUTE_MS,
				cancelled: false,
			});
		}
	}
}
