/** The request log, capped so that long benchmarks stay bounded in memory. */
import type { LoggedRouteKey, RequestLogEntry } from './types';

export class RequestLog {
	readonly entries: RequestLogEntry[] = [];

	constructor(private readonly limit: number) {}

	add(entry: RequestLogEntry): void {
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
	}
}
