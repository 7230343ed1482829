/**
 * Runs the package's nodes through the real engine (test/harness) against a bench sandbox, the
 * way a user's workflow runs them: one credential per client, items in, items out.
 */
import type { ICredentialDataDecryptedObject, INodeCredentialsDetails, INodeParameters } from 'n8n-workflow';

import { TestCredentialsHelper, runNode, type WorkflowRunResult } from '../test/harness';
import type { BenchClient, RemoteSandbox } from './remote-sandbox';

export const MERCHANT_NODE = 'marketplaceMerchant';
export const MERCHANT_TRIGGER = 'marketplaceMerchantTrigger';
export const CREDENTIAL_TYPE = 'marketplaceMerchantApi';

/**
 * n8n's credentials helper (the harness's) that also remembers every access token the engine
 * saved, so that error texts can be checked against all of them.
 */
export class TokenRecordingCredentialsHelper extends TestCredentialsHelper {
	readonly savedTokens = new Set<string>();

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		if (typeof data.accessToken === 'string' && data.accessToken !== '') this.savedTokens.add(data.accessToken);
		await super.updateCredentials(nodeCredentials, type, data);
	}
}

/** A credentials store holding the one credential of `client`, as n8n's database would. */
export function credentialsFor(sandbox: RemoteSandbox, client: BenchClient): TokenRecordingCredentialsHelper {
	const helper = new TokenRecordingCredentialsHelper();
	helper.add(CREDENTIAL_TYPE, sandbox.credentials(client));
	return helper;
}

export interface TimedRun {
	result: WorkflowRunResult;
	ms: number;
}

/**
 * Runs Marketplace Merchant once over `inputItems`; with `continueOnFail` every item's outcome is
 * in the output; `typeVersion` 2 is the node as the node creator adds it today.
 */
export async function runMerchant(
	credentialsHelper: TestCredentialsHelper,
	parameters: INodeParameters,
	inputItems: unknown[] = [{}],
	options: { continueOnFail?: boolean; typeVersion?: number } = {},
): Promise<TimedRun> {
	const startedAt = performance.now();
	const node = { ...(options.continueOnFail ? { continueOnFail: true } : {}), ...(options.typeVersion ? { typeVersion: options.typeVersion } : {}) };
	const result = await runNode(MERCHANT_NODE, parameters, inputItems, {
		credentialsHelper,
		node: Object.keys(node).length > 0 ? node : undefined,
	});
	return { result, ms: performance.now() - startedAt };
}
