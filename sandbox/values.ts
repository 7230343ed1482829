/** Lenient readers of request values: JSON numbers or numeric strings (as XML bodies carry them). */

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A finite number from a number or a numeric string; undefined otherwise. */
export function toNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
	return undefined;
}

/** Text from a string or number; undefined for anything else. */
export function toText(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

/** Absent, null and empty strings all mean "not given". */
export function isBlank(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}
