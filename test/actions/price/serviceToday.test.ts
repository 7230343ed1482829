/**
 * Price › Get Many's empty Date ("today") against a service whose today is ahead of the
 * workflow's (issue 37 follow-up, found by the e2e suite at 00:41 UTC): through n8n-core's real
 * engine against the sandbox counting its days in its own zone (`serviceTimeZone`) on its own
 * clock. The node reads today from the real clock, so each test reads the workflow's today once
 * and sets the sandbox's clock to a fixed moment relative to it: the same rule at every hour.
 */
import { DateTime } from 'luxon';

import { NODE_UNDER_TEST_NAME, runNode } from '../../harness';
import { NODE, credentials, sandbox, sandboxPerFile } from '../helpers';

sandboxPerFile({ seed: 3 });

const ids = () => sandbox.state.products.slice(0, 2).map((product) => product.id);
const asked = () => sandbox.log.filter((entry) => entry.route === 'prices').map(({ status, query }) => `${status} ${query.dateFrom}`);
const dmy = (day: DateTime) => day.toFormat('dd/MM/yyyy');

async function getPrices(timezone: string, parameters: Record<string, unknown> = {}, items: unknown[] = [{}]) {
	return await runNode(NODE, { resource: 'price', operation: 'getMany', merchantInventoryIds: ids().join(','), ...parameters }, items, {
		credentials: credentials(),
		timezone,
	});
}

/**
 * The workflow's today in `workflowZone` (read once), and the sandbox's clock at `serviceTime` on
 * the service's day `days` after it in `serviceZone`: with 1, a moment at which the workflow's
 * today is the service's yesterday (New York's evening is the next day's early hours in UTC,
 * UTC's late evening is the next day's first hour in Belgrade).
 */
function serviceDaysAhead(workflowZone: string, serviceZone: string, serviceTime: string, days = 1): { workflowToday: DateTime; serviceToday: DateTime } {
	const workflowToday = DateTime.now().setZone(workflowZone).startOf('day');
	const serviceToday = DateTime.fromISO(`${workflowToday.plus({ days }).toISODate()}T${serviceTime}`, { zone: serviceZone });
	sandbox.resetVariants();
	sandbox.setVariants({ serviceTimeZone: serviceZone });
	sandbox.clock.set(serviceToday.toMillis());
	sandbox.clearLog();
	return { workflowToday, serviceToday };
}

describe.each([
	['America/New_York', 'UTC', '01:30:00'],
	['UTC', 'Europe/Belgrade', '00:30:00'],
])("a workflow in %s, the service counting its days in %s and its today the workflow's tomorrow", (workflowZone, serviceZone, serviceTime) => {
	it('an empty Date gets the prices of the service\'s today: learned from its one refusal, said on every item', async () => {
		const { workflowToday, serviceToday } = serviceDaysAhead(workflowZone, serviceZone, serviceTime);

		const result = await getPrices(workflowZone);

		expect(result.error).toBeUndefined();
		const prices = result.json(NODE_UNDER_TEST_NAME);
		expect(prices.map((price) => price.merchantInventoryId)).toEqual(ids());
		expect(prices.every((price) => price.dateFrom === dmy(serviceToday))).toBe(true);
		expect(asked()).toEqual([`400 ${dmy(workflowToday)}`, `200 ${dmy(serviceToday)}`]);
	});

	it('at most one extra request per run: the run\'s other items ask for the learned day at once', async () => {
		const { workflowToday, serviceToday } = serviceDaysAhead(workflowZone, serviceZone, serviceTime);

		const result = await getPrices(workflowZone, {}, [{}, {}, {}]);

		expect(result.error).toBeUndefined();
		const prices = result.json(NODE_UNDER_TEST_NAME);
		expect(prices).toHaveLength(6);
		expect(prices.every((price) => price.dateFrom === dmy(serviceToday))).toBe(true);
		expect(asked()).toEqual([`400 ${dmy(workflowToday)}`, ...Array.from({ length: 3 }, () => `200 ${dmy(serviceToday)}`)]);
	});

	it('a named past day is still refused before sending', async () => {
		const { workflowToday } = serviceDaysAhead(workflowZone, serviceZone, serviceTime);
		const yesterday = workflowToday.minus({ days: 1 }).toISODate()!;

		const result = await getPrices(workflowZone, { date: yesterday });

		expect(result.error?.message).toBe(`Date: ${yesterday} is in the past (item 0)`);
		expect(asked()).toEqual([]);
	});

	it("a named today is sent as is, and the service's refusal shown, never moved to another day", async () => {
		const { workflowToday } = serviceDaysAhead(workflowZone, serviceZone, serviceTime);

		const result = await getPrices(workflowZone, { date: workflowToday.toISODate()! });

		expect(result.error?.description).toMatch(/dateFrom must be today or a future date/);
		expect(asked()).toEqual([`400 ${dmy(workflowToday)}`]);
	});

	it('a named tomorrow (the service\'s today) is sent as is and its items carry no added field', async () => {
		const { serviceToday } = serviceDaysAhead(workflowZone, serviceZone, serviceTime);

		const result = await getPrices(workflowZone, { date: serviceToday.toISODate()! });

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_UNDER_TEST_NAME).every((price) => !('dateFrom' in price))).toBe(true);
		expect(asked()).toEqual([`200 ${dmy(serviceToday)}`]);
	});
});

it("an empty Date where the service's today is the workflow's today: one request, the items as before", async () => {
	const { workflowToday } = serviceDaysAhead('America/New_York', 'America/New_York', '12:00:00', 0);

	const result = await getPrices('America/New_York');

	expect(result.error).toBeUndefined();
	expect(result.json(NODE_UNDER_TEST_NAME).every((price) => !('dateFrom' in price))).toBe(true);
	expect(asked()).toEqual([`200 ${dmy(workflowToday)}`]);
});

it('an empty Date the service refuses on the next day too: the one extra request, then its refusal naming both days', async () => {
	const { workflowToday } = serviceDaysAhead('UTC', 'UTC', '12:00:00', 2);

	const result = await getPrices('UTC', {}, [{}, {}]);

	const next = dmy(workflowToday.plus({ days: 1 }));
	expect(result.error?.description).toBe(
		`dateFrom must be today or a future date. Date was empty: asked for today in the workflow's time zone (${dmy(workflowToday)}, UTC), refused as past, then for the next day (${next})`,
	);
	expect(asked().slice(0, 2)).toEqual([`400 ${dmy(workflowToday)}`, `400 ${next}`]);
});
