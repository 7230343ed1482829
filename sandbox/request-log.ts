/**
 * The request log, capped so that long benchmarks stay bounded in memory. A request is logged when
 * it is answered, with the time it arrived: one that arrived before the last clear() (a held-back
 * answer of an earlier test) is not logged, so the log holds the requests since clear().
 */
import type { LoggedRouteKey, RequestLogEntry } from './types';

export class RequestLog {
	readonly entries: RequestLogEntry[] = [];

	private clearedAt = 0;

	constructor(private readonly limit: number) {}

	add(entry: RequestLogEntry): void {
		if (entry.at < this.clearedAt) return;
		this.entries.push(entry);
		// Trimming in batches keeps appends cheap.
		if (this.entries.length > this.limit + Math.ceil(this.limit / 10)) {
			this.entries.splice(0, this.entries.length - this.limit);
		}
	}

	count(route: LoggedRouteKey): number {
		let count = 0;
		for (const entry of this.entries) if (entry.route === route) count++;
		return count;
	}

	clear(): void {
		this.entries.length = 0;
		this.clearedAt = Date.now();
	}
}
