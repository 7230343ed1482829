import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestHelper,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../nodes/MarketplaceMerchant/transport/send';
import { tokenFor } from '../nodes/MarketplaceMerchant/shared/credential';

/** `preAuthentication` asks for the token (shared/credential.ts), the Test button is the nodes' `credentialTest`: docs/architecture.md says why. */
export class MarketplaceMerchantApi implements ICredentialType {
	name = CREDENTIAL_TYPE;

	displayName = 'Marketplace Merchant API';

	icon: Icon = { light: 'file:../icons/marketplace.svg', dark: 'file:../icons/marketplace.dark.svg' };

	documentationUrl = 'https://github.com/marketplace-merchant/n8n-nodes-marketplace-merchant#credential';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://api.example-marketplace.com',
			description:
				'Root address of the merchant API. Production and staging have different hosts, and client credentials work only on the host they were issued for.',
		},
		{
			displayName: 'Service Host URL',
			name: 'serviceUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://api.svc.example-marketplace.com',
			description:
				"Optional. The environment's second host, which serves the warehouses (and, where the Base URL does not, the prices): the Base URL's host name with a \"svc\" label, as the merchant portal or the marketplace's integration team gives it. Warehouses are asked there; prices at the Base URL first and there when the Base URL does not serve them. Tokens always come from the Base URL. Empty: everything goes to the Base URL.",
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			description: 'Client ID issued in the merchant portal',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Client secret issued in the merchant portal',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'Optional. Sent as the X-API-Key header of the token request when filled in.',
		},
		{
			displayName: 'Account Currency',
			name: 'currency',
			type: 'string',
			default: '',
			placeholder: 'e.g. BAM',
			description:
				"Optional. The currency your account prices in (its market's: RSD, BAM or KM, EUR, MKD…), the only one the service takes for discounts. Set once, discounts go out in it and another is refused before sending. Empty: the node learns it from the currency of the account's orders (one request per run that schedules or updates discounts), and sends RSD where the account has no order yet. Amounts are never converted.",
		},
		{ displayName: 'Access Token', name: 'accessToken', type: 'hidden', typeOptions: { expirable: true, password: true }, default: '' },
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		// Its helper goes to send.ts, the one place requests go out. No token: the caller's still
		// works, and n8n must not resend what failed (shared/credential.ts `tokenFor` says why).
		const accessToken = await tokenFor(this, credentials);
		return accessToken === undefined ? {} : { accessToken };
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.accessToken}}' } },
	};
}
