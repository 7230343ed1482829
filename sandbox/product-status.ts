/**
 * A product's status as the current pages name them (READY_FOR_PUBLISH, PUBLISHED, SOLD_OUT,
 * UNPUBLISHED, UNPUBLISHED_OOS; only PUBLISHED is visible to customers): the one publish or
 * unpublish stored, shown as SOLD_OUT / UNPUBLISHED_OOS while out of stock; a product never
 * published or unpublished keeps the status the seed gives it.
 */
import type { ProductStatus } from './order-types';
import type { ProductRecord } from './types';

const SEEDED_STATUSES: ProductStatus[] = ['READY_FOR_PUBLISH', 'PUBLISHED', 'UNPUBLISHED'];

export function productStatus(record: Pick<ProductRecord, 'id' | 'stockLevel' | 'status'>): ProductStatus {
	const stored = record.status;
	if (stored === undefined) return record.stockLevel === 0 ? 'SOLD_OUT' : SEEDED_STATUSES[record.id % SEEDED_STATUSES.length];
	if (record.stockLevel > 0) return stored;
	if (stored === 'PUBLISHED') return 'SOLD_OUT';
	return stored === 'UNPUBLISHED' ? 'UNPUBLISHED_OOS' : stored;
}
