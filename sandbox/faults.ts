/** Injected faults: the next requests (optionally of one route) get a chosen bad answer or a delay. */
import type { FaultBody, FaultSpec, RouteKey } from './types';

const VALID_BODIES = new Set<FaultBody>(['html', 'malformed-json', 'xml-bomb', 'reset', 'echo-credentials', 'gzip-bomb', 'huge-json', 'trickle']);

export function validateFault(fault: FaultSpec): FaultSpec {
	if (!Number.isInteger(fault.count) || fault.count < 1) throw new Error('fault count must be a positive integer');
	if (fault.status !== undefined && (!Number.isInteger(fault.status) || fault.status < 100 || fault.status > 599)) {
		throw new Error('fault status must be an HTTP status code');
	}
	if (fault.body !== undefined && !VALID_BODIES.has(fault.body)) {
		throw new Error(`fault body must be one of ${[...VALID_BODIES].join(', ')}`);
	}
	if (fault.sizeBytes !== undefined && !(Number.isSafeInteger(fault.sizeBytes) && fault.sizeBytes > 0)) {
		throw new Error('fault sizeBytes must be a positive integer');
	}
	if (fault.delayMs !== undefined && !(fault.delayMs >= 0)) throw new Error('fault delayMs must be >= 0');
	if (fault.applyThen !== undefined && typeof fault.applyThen !== 'boolean') throw new Error('fault applyThen must be true or false');
	return fault;
}

export class FaultQueue {
	private readonly pending: Array<{ fault: FaultSpec; remaining: number }> = [];

	add(fault: FaultSpec): void {
		this.pending.push({ fault: validateFault(fault), remaining: fault.count });
	}

	clear(): void {
		this.pending.length = 0;
	}

	/**
	 * The fault for this request, if any; each use counts down its budget. `before` is asked as the
	 * request arrives, `after` once it passed the token and limit checks (`applyThen` faults).
	 */
	take(route: RouteKey, phase: 'before' | 'after' = 'before'): FaultSpec | undefined {
		const index = this.pending.findIndex(
			(entry) => (entry.fault.route === undefined || entry.fault.route === route) && (entry.fault.applyThen === true) === (phase === 'after'),
		);
		if (index < 0) return undefined;
		const entry = this.pending[index];
		entry.remaining -= 1;
		if (entry.remaining === 0) this.pending.splice(index, 1);
		return entry.fault;
	}

	/** Whether the fault replaces the answer (rather than only delaying it). */
	static answers(fault: FaultSpec): boolean {
		return fault.status !== undefined || fault.body !== undefined || fault.delayMs === undefined;
	}
}
