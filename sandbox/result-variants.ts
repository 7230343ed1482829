/**
 * The variants about how many results an answer holds and whether an accepted request takes
 * effect (variants.ts: `bulkResultsDropped`, `bulkResultsRepeated`, `bulkResultsReversed`, `importFailsAsynchronously`), in one place for the
 * routes that honour them.
 */
import type { VariantSwitches } from './variants';
import { toText } from './values';

/**
 * A bulk answer's results with `bulkResultsDropped` of them left off its end (all of them for a
 * number at least as large as the list), then its last result repeated `bulkResultsRepeated`
 * times, then, with `bulkResultsReversed`, the whole list in reverse order. The entries were
 * applied all the same: only their results are missing (or doubled, or moved), which is what
 * makes the live variants dangerous.
 */
export function reportedResults<T>(variants: VariantSwitches, results: T[]): T[] {
	const { bulkResultsDropped: dropped, bulkResultsRepeated: repeated, bulkResultsReversed: reversed } = variants.current;
	const kept = dropped > 0 ? results.slice(0, Math.max(0, results.length - dropped)) : results;
	const last = kept[kept.length - 1];
	const reported = repeated > 0 && last !== undefined ? [...kept, ...Array.from({ length: repeated }, () => last)] : kept;
	return reversed ? [...reported].reverse() : reported;
}

/**
 * With `importFailsAsynchronously`, an import row the live service would fail after answering:
 * one without a description or a cover image. It gets its progress id but changes nothing.
 */
export function importFailsLater(variants: VariantSwitches, row: Record<string, unknown>): boolean {
	const missing = (value: unknown) => !toText(value)?.trim();
	return variants.current.importFailsAsynchronously && (missing(row.description) || missing(row.coverImage));
}
