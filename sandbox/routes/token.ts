import { HttpError, badRequest, requireBody } from '../http';
import type { RouteDefinition } from '../route';
import { isRecord, toText } from '../values';

const GRANT_TYPE = 'CLIENT_CREDENTIALS';
const SCOPE = 'public_api/full_access';

/** Honours the variant `onlyNewestTokenValid`. */
export const tokenRoute: RouteDefinition = {
	key: 'token',
	method: 'POST',
	pattern: /^\/iam\/api\/v1\/auth\/token$/,
	authenticated: false,
	handle({ core, body, headers }) {
		const request = requireBody(body);
		if (!isRecord(request)) throw badRequest('Token request must be an object');
		if (request.grantType !== GRANT_TYPE) throw badRequest(`grantType must be ${GRANT_TYPE}`);
		if (request.scope !== SCOPE) throw badRequest(`scope must be ${SCOPE}`);
		const clientId = toText(request.clientId);
		const clientSecret = toText(request.clientSecret);
		if (!clientId || !clientSecret) throw badRequest('clientId and clientSecret are required');
		const client = core.clients.find((candidate) => candidate.clientId === clientId && candidate.clientSecret === clientSecret);
		if (!client) throw new HttpError(401, 'Invalid client credentials');
		if (client.apiKey !== undefined && headers['x-api-key'] !== client.apiKey) throw new HttpError(401, 'Invalid API key');
		return {
			json: {
				id_token: null,
				access_token: core.tokens.issue(client.clientId, core.variants.current.onlyNewestTokenValid),
				refresh_token: null,
				expires_in: core.tokens.lifetime,
				token_type: 'Bearer',
			},
		};
	},
};
