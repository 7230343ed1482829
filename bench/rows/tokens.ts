/**
 * 1,000 items started at once (RoutingNode sends every item's request together) by a
 * credential that holds no token yet: how many token requests reach the service.
 */
import { credentialsFor, runMerchant } from '../merchant-node';
import { RemoteSandbox } from '../remote-sandbox';
import type { Row } from '../report';
import { listOf, median } from '../stats';

const ITEMS = 1_000;
const TARGET = 1;

export async function measureTokenRequests(runs: number): Promise<Row[]> {
	const sandbox = await RemoteSandbox.start({ rateLimits: false, clients: runs });
	try {
		const tokenRequests: number[] = [];
		const hookRuns: number[] = [];
		for (let run = 0; run < runs; run++) {
			// A client of its own: no token cached in this process, none saved in the credential.
			const credentialsHelper = credentialsFor(sandbox, sandbox.freshClient());
			await sandbox.clearLog();
			const inputItems = Array.from({ length: ITEMS }, (_, index) => ({ index }));
			const { result } = await runMerchant(credentialsHelper, { resource: 'warehouse', operation: 'getMany' }, inputItems, {
				continueOnFail: true,
			});
			const failed = result.output('Node').filter((item) => item.error).length;
			if (result.error || failed > 0) throw new Error(`warehouse Get Many: ${failed} items failed (${result.error?.message ?? ''})`);
			tokenRequests.push((await sandbox.log('token')).length);
			hookRuns.push(credentialsHelper.calls.preAuthenticationRuns);
		}
		const figure = median(tokenRequests);
		return [
			{
				measure: `Token requests made for ${ITEMS.toLocaleString('en-US')} concurrent items that start with no token`,
				figure: String(figure),
				target: String(TARGET),
				met: Math.max(...tokenRequests) <= TARGET,
				runs: String(runs),
				details:
					`warehouse Get Many × ${ITEMS.toLocaleString('en-US')} items, limits off; token requests per run ${listOf(tokenRequests, String)}; ` +
					`the credential's preAuthentication ran ${listOf(hookRuns, String)} times (once per request in flight while the token was empty; the calls share one token request)`,
			},
		];
	} finally {
		await sandbox.close();
	}
}
