/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end suite code, run by tsx against a real n8n and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * Issue 37's days in a real n8n whose time zone is Europe/Belgrade: `n8n execute` of
 * e2e/workflows/calendar-belgrade.json runs with GENERIC_TIMEZONE=Europe/Belgrade (the instance's
 * zone; the workflow has none of its own, so `$today` is Belgrade's midnight), against the sandbox
 * reading days in Belgrade too (`serviceTimeZone`). `execute` is a CLI process of its own, so the
 * zone costs no second n8n start. Discount › Schedule from `$today.plus({ days: 20 })` must store
 * that Belgrade day (before issue 37: the UTC day of Belgrade's midnight, the day before), and a
 * SEASONAL_SALE from next year's 1 July must be accepted (before: "cannot start on 30/06").
 */
import assert from 'node:assert/strict';

import { DateTime } from 'luxon';

import type { Sandbox } from '../sandbox';
import { check, nodeOutput } from './checks';
import { executeWorkflow, type CliExecutionResult, type N8nInstallation } from './n8n';

export const CALENDAR_WORKFLOW_ID = 'e2eCalendarBgd01';
const ZONE = 'Europe/Belgrade';
/** Products no other e2e workflow touches, none with a seeded discount. */
const SALE_PRODUCT = 100120;
const SEASONAL_PRODUCT = 100121;

export async function checkCalendarBelgrade(installation: N8nInstallation, userFolder: string, sandbox: Sandbox): Promise<void> {
	sandbox.clearLog();
	sandbox.setVariants({ serviceTimeZone: ZONE });
	let execution: CliExecutionResult | undefined;
	const ran = await check(`execute: calendar workflow runs with GENERIC_TIMEZONE=${ZONE}`, async () => {
		try {
			execution = await executeWorkflow(installation, userFolder, CALENDAR_WORKFLOW_ID, { env: { GENERIC_TIMEZONE: ZONE } });
		} finally {
			sandbox.setVariants({ serviceTimeZone: 'UTC' });
		}
		const error = execution.data.resultData.error;
		assert.equal(execution.status, 'success', `execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`);
	});
	if (!ran || !execution) return;
	const run = execution;

	await check(`Discount > Schedule in ${ZONE}: $today + 20 days stores that Belgrade day; a SEASONAL_SALE from 1 July is accepted`, async () => {
		const today = DateTime.now().setZone(ZONE);
		const day = (date: DateTime) => date.toFormat('dd/MM/yyyy');
		const [sale] = nodeOutput(run, 'Sale In 20 Days');
		assert.equal(sale?.success, true, JSON.stringify(sale));
		const storedSale = sandbox.state.discounts.find((discount) => discount.discountId === sale.id);
		assert.deepEqual([storedSale?.merchantInventoryId, storedSale?.dateFrom, storedSale?.dateTo], [SALE_PRODUCT, day(today.plus({ days: 20 })), day(today.plus({ days: 25 }))]);

		const [seasonal] = nodeOutput(run, 'Seasonal Sale From 1 July');
		assert.equal(seasonal?.success, true, JSON.stringify(seasonal));
		const firstOfJuly = today.plus({ years: 1 }).set({ month: 7, day: 1 });
		const storedSeasonal = sandbox.state.discounts.find((discount) => discount.discountId === seasonal.id);
		assert.deepEqual([storedSeasonal?.merchantInventoryId, storedSeasonal?.dateFrom, storedSeasonal?.discountType], [SEASONAL_PRODUCT, day(firstOfJuly), 'SEASONAL_SALE']);
		return `${storedSale?.dateFrom}–${storedSale?.dateTo}, seasonal from ${storedSeasonal?.dateFrom}`;
	});
}
