/** Small numeric helpers shared by the measurements and the report. */

export function median(values: number[]): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function formatRatio(value: number): string {
	return Number.isFinite(value) ? value.toFixed(2) : 'n/a';
}

export function formatMs(ms: number): string {
	return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

export function formatBytes(bytes: number): string {
	if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
	if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
	return `${bytes} B`;
}

export function formatCount(value: number): string {
	return value.toLocaleString('en-US');
}

/** The list of per-run values as shown in the details column: `1.02, 1.10, 0.98`. */
export function listOf(values: number[], format: (value: number) => string): string {
	return values.map(format).join(', ');
}

/** Consecutive equal values folded: `500 ×2, 200`. */
export function runLengths(values: Array<string | number>): string {
	const parts: string[] = [];
	for (let start = 0; start < values.length; ) {
		let end = start + 1;
		while (end < values.length && values[end] === values[start]) end++;
		parts.push(end - start > 1 ? `${values[start]} ×${end - start}` : String(values[start]));
		start = end;
	}
	return parts.join(', ');
}
