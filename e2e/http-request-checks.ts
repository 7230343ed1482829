/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * Issue 31: a write a merchant sends with n8n's own HTTP Request node and this package's credential
 * (Authentication: Predefined Credential Type). That node's helper, n8n-core's
 * `requestWithAuthentication`, asks the credential for a new token after ANY failure and resends
 * the request when it gets one (measured on n8n 2.41.1: a pack answered 503 after it was applied
 * went out twice). The credential gives a new token only when the service rejects the one in use
 * (shared/credential.ts `tokenFor`), so:
 * - a pack answered 503 after it was applied goes out once and the execution fails with the 503;
 * - a pack answered 401 (every token dropped) gets a new token and goes out again, once.
 * Each `n8n execute` is a new process that has not seen the stored token: the credential probes it.
 */
import assert from 'node:assert/strict';

import type { RequestLogEntry, Sandbox } from '../sandbox';
import { check } from './checks';
import { executeWorkflow, type N8nInstallation } from './n8n';

export const HTTP_REQUEST_WORKFLOW_IDS = { applied503: 'e2eHttpReqPack01', renewed401: 'e2eHttpReqPack02' };

const PACK_PATH = (suborderId: string) => `/order/api/v1/merchant-integration/outbound-orders/${suborderId}/pack`;

/** A new order confirmed in full from the default warehouse: its shipment, ready to pack, and the pack body for it. */
function shipmentToPack(sandbox: Sandbox): { suborderId: string; body: string } {
	const [order] = sandbox.addOrders(1);
	const shipment = sandbox.advanceShipment(`${order.id}-DS-1`);
	const products = shipment.lines.map((line) => ({ id: line.merchantInventoryId, quantity: line.confirmedQuantity }));
	return { suborderId: shipment.suborderId, body: JSON.stringify({ numberOfBoxes: 1, products }) };
}

/** The workflow files' placeholders: a shipment to pack for each check, its URL and body (as JSON text inside JSON). */
export function httpRequestPlaceholders(sandbox: Sandbox): Record<string, string> {
	const placeholders: Record<string, string> = {};
	for (const marker of ['503', '401']) {
		const { suborderId, body } = shipmentToPack(sandbox);
		placeholders[`__PACK_${marker}_SUBORDER_ID__`] = suborderId;
		placeholders[`__PACK_${marker}_URL__`] = `${sandbox.url}${PACK_PATH(suborderId)}`;
		placeholders[`__PACK_${marker}_BODY__`] = JSON.stringify(body).slice(1, -1);
	}
	return placeholders;
}

const packsOf = (sandbox: Sandbox, suborderId: string): RequestLogEntry[] =>
	sandbox.log.filter((entry) => entry.route === 'shipmentPack' && entry.path === PACK_PATH(suborderId));

const applied = (entry: RequestLogEntry) => (entry.appliedStatus ?? entry.status) === 204;

export async function checkHttpRequestWrites(installation: N8nInstallation, userFolder: string, sandbox: Sandbox, placeholders: Record<string, string>): Promise<void> {
	await check('issue 31: HTTP Request node with the credential: a pack answered 503 after it was applied goes out once (no resend after refresh)', async () => {
		const suborderId = placeholders.__PACK_503_SUBORDER_ID__;
		sandbox.injectFault({ route: 'shipmentPack', count: 1, applyThen: true });
		const execution = await executeWorkflow(installation, userFolder, HTTP_REQUEST_WORKFLOW_IDS.applied503);

		assert.equal(execution.status, 'error', 'the execution did not fail with the 503');
		const packs = packsOf(sandbox, suborderId);
		assert.equal(packs.filter(applied).length, 1, `packs: ${packs.map((entry) => entry.status).join(', ')}`);
		// A stored token the service dropped meanwhile may cost a 401 and one renewal before; nothing goes out after the 503.
		assert.equal(packs[packs.length - 1].status, 503, `packs: ${packs.map((entry) => entry.status).join(', ')}`);
		assert.ok(sandbox.state.shipment(suborderId)?.packedDate, 'the shipment was not packed');
		return `packs ${packs.map((entry) => `${entry.status}${entry.appliedStatus ? ` (applied ${entry.appliedStatus})` : ''}`).join(', ')}; n8n: ${execution.data.resultData.error?.message ?? ''}`;
	});

	await check('issue 31: HTTP Request node with the credential: a pack answered 401 gets a new token and goes out once more', async () => {
		const suborderId = placeholders.__PACK_401_SUBORDER_ID__;
		sandbox.expireAllTokens();
		const since = sandbox.log.length;
		const execution = await executeWorkflow(installation, userFolder, HTTP_REQUEST_WORKFLOW_IDS.renewed401);

		const error = execution.data.resultData.error;
		assert.equal(execution.status, 'success', `execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`);
		assert.deepEqual(packsOf(sandbox, suborderId).map((entry) => entry.status), [401, 204]);
		const requests = sandbox.log.slice(since).map((entry) => `${entry.route} ${entry.status}`);
		assert.ok(requests.includes('token 200'), `no new token: ${requests.join(', ')}`);
		return requests.join(', ');
	});
}
