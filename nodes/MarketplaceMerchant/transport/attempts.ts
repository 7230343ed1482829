/**
 * The attempts of one request: what each one met, how long they took together, and whether one
 * more still fits in the request's time budget. The final error says what was tried.
 */
import { errorCodeOf, isTimeout, statusOf } from './errors';

/** Default time one answer may take (the node option "Timeout (Seconds)" changes it). */
export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The retries of one request together may take this many times its timeout (3 minutes at the
 * default): an answer that never comes fails the item after a few minutes, not after
 * attempts × timeout.
 */
export const RETRY_BUDGET_TIMEOUTS = 3;

/** How long the retries of a request with this timeout may take together. */
export function retryBudgetMs(timeoutMs = DEFAULT_TIMEOUT_MS): number {
	return timeoutMs * RETRY_BUDGET_TIMEOUTS;
}

function outcomeOf(error: unknown, timeoutMs: number): string {
	if (isTimeout(error)) return `no answer within ${Math.round(timeoutMs / 1000)} s`;
	const status = statusOf(error);
	if (status !== undefined) return `HTTP ${status}`;
	const code = errorCodeOf(error);
	return code ? `connection failed (${code})` : 'failed';
}

export class AttemptLog {
	private readonly outcomes: string[] = [];

	/**
	 * Time spent sending and waiting to retry (after a 429 too: the wait the service asked for);
	 * time queued behind the pacing gate for other requests' turns does not count.
	 */
	private spentMs = 0;

	constructor(private readonly timeoutMs = DEFAULT_TIMEOUT_MS) {}

	get count(): number {
		return this.outcomes.length;
	}

	/**
	 * An attempt counts at most its timeout: what else it took (a token renewal, a busy event loop)
	 * is not the service being slow, and must not cost a retry.
	 */
	record(error: unknown, durationMs: number, attemptTimeoutMs: number): void {
		this.outcomes.push(outcomeOf(error, attemptTimeoutMs));
		this.spentMs += Math.min(durationMs, attemptTimeoutMs);
	}

	/**
	 * The timeout of one more attempt after waiting `waitMs`: what is left of the budget, at most
	 * the request's timeout; undefined when less than half a timeout is left (no retry then).
	 */
	nextAttemptTimeoutMs(waitMs: number): number | undefined {
		const left = retryBudgetMs(this.timeoutMs) - this.spentMs - waitMs;
		return left >= this.timeoutMs / 2 ? Math.min(Math.round(left), this.timeoutMs) : undefined;
	}

	waited(waitMs: number): void {
		this.spentMs += waitMs;
	}

	/** "The node gave up after 3 attempts in 125 s (HTTP 503; no answer within 60 s; …)." */
	summary(budgetSpent: boolean): string {
		const seconds = Math.round(this.spentMs / 1000);
		const budget = budgetSpent
			? ` — the retries of one request may take at most ${Math.round(retryBudgetMs(this.timeoutMs) / 1000)} s`
			: '';
		return `The node gave up after ${this.count} attempt${this.count === 1 ? '' : 's'} in ${seconds} s (${this.outcomes.join('; ')})${budget}.`;
	}
}
