/**
 * The node paces to the live service's limits: the one table RATE_LIMITS (transport/endpoints.ts),
 * read by transport/gate.ts (its gates) for every request. A sandbox applies those limits N times faster, or
 * not at all (its `rateLimits` option), so that tests and the bench do not wait out live windows;
 * while it runs, the node in this process must pace to the limits the sandbox applies, not the live
 * ones. That is arranged here, on the test side, so that the product code has no hook for it: each
 * group's `windows` in RATE_LIMITS becomes a getter giving the live windows scaled as the newest
 * running sandbox scales them (none when its limits are off, the live ones when none runs).
 */
import { RATE_LIMITS, type RateWindow } from '../nodes/MarketplaceMerchant/transport/endpoints';

/** A running sandbox's scale, read when the node paces (a sandbox's limits can be changed while it runs). */
type ScaleOf = () => number | false;

/** The running sandboxes' scales, oldest first: the newest decides. */
const running: ScaleOf[] = [];

let installed = false;

function install(): void {
	if (installed) return;
	installed = true;
	for (const limits of Object.values(RATE_LIMITS)) {
		const live: RateWindow[] = limits.windows;
		Object.defineProperty(limits, 'windows', {
			enumerable: true,
			get: (): RateWindow[] => {
				const scale = running.at(-1)?.() ?? 1;
				return scale === false ? [] : live.map((window) => ({ ...window, lengthMs: window.lengthMs / scale }));
			},
		});
	}
}

/**
 * Makes the node in this process pace as a sandbox whose limits are the live ones scaled by
 * `scaleOf()` (false: none), until the returned function is called (when the sandbox closes).
 */
export function paceNodeAs(scaleOf: ScaleOf): () => void {
	install();
	running.push(scaleOf);
	return () => {
		const index = running.lastIndexOf(scaleOf);
		if (index >= 0) running.splice(index, 1);
	};
}
