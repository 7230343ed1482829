/**
 * Invoices or corrections sorted by invoiced date, each with a hidden time from which it becomes
 * visible (so tests can make a document with a past invoiced date appear late).
 */
import { parseTimestamp } from './dates';
import type { InvoiceType } from './types';

export interface DocumentKeys {
	type: InvoiceType;
	suborderId: string;
	/** The documentCorrelationId of the document's link. */
	correlationId: string;
	invoicedDate: string;
}

export interface DocumentQuery {
	fromMs?: number;
	toMs?: number;
	type?: InvoiceType;
	suborderIds?: ReadonlySet<string>;
	/** Sandbox now: documents not yet visible are left out. */
	nowMs: number;
}

interface Entry<T> {
	document: T;
	invoicedMs: number;
	visibleAtMs: number;
}

export class DocumentStore<T> {
	private readonly entries: Array<Entry<T>> = [];
	private readonly byCorrelationId = new Map<string, T>();

	constructor(readonly keysOf: (document: T) => DocumentKeys) {}

	/** Adds a document; it is visible from `visibleAtMs`, or from its invoiced date. */
	add(document: T, visibleAtMs?: number): void {
		const keys = this.keysOf(document);
		const invoicedMs = parseTimestamp(keys.invoicedDate);
		if (invoicedMs === undefined) throw new Error(`invoicedDate is not an ISO 8601 timestamp: ${keys.invoicedDate}`);
		const entry = { document, invoicedMs, visibleAtMs: visibleAtMs ?? invoicedMs };
		// After every entry with the same date, so equal dates keep their insertion order.
		this.entries.splice(this.firstAfter(invoicedMs), 0, entry);
		this.byCorrelationId.set(keys.correlationId, document);
	}

	query(query: DocumentQuery): T[] {
		const start = query.fromMs === undefined ? 0 : this.firstAfter(query.fromMs - 1);
		const result: T[] = [];
		for (let i = start; i < this.entries.length; i++) {
			const entry = this.entries[i];
			if (query.toMs !== undefined && entry.invoicedMs > query.toMs) break;
			if (entry.visibleAtMs > query.nowMs) continue;
			const keys = this.keysOf(entry.document);
			if (query.type && keys.type !== query.type) continue;
			if (query.suborderIds && !query.suborderIds.has(keys.suborderId)) continue;
			result.push(entry.document);
		}
		return result;
	}

	all(): T[] {
		return this.entries.map((entry) => entry.document);
	}

	find(correlationId: string): T | undefined {
		return this.byCorrelationId.get(correlationId);
	}

	/** Index of the first entry invoiced after `ms`. */
	private firstAfter(ms: number): number {
		let low = 0;
		let high = this.entries.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (this.entries[middle].invoicedMs <= ms) low = middle + 1;
			else high = middle;
		}
		return low;
	}
}
