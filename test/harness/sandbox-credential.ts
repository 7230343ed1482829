import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';

/** The Marketplace Merchant API credential data that logs in to a running sandbox. */
export function sandboxCredential(
	sandbox: Pick<Sandbox, 'url' | 'client'>,
	overrides: IDataObject = {},
): ICredentialDataDecryptedObject {
	return {
		baseUrl: sandbox.url,
		clientId: sandbox.client.clientId,
		clientSecret: sandbox.client.clientSecret,
		apiKey: sandbox.client.apiKey ?? '',
		...(overrides as ICredentialDataDecryptedObject),
	};
}
