/**
 * Set-up shared by the tests of the node's operations (test/actions/**): a sandbox started per
 * test or per file, and `run` for a resource through n8n-core's real engine (RoutingNode) with the
 * sandbox's credential. `sandbox` is a live binding: a test file imports it and sees the sandbox
 * its set-up started.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startSandbox, type Invoice, type InvoiceCorrection, type ProductRecord, type RequestLogEntry, type Sandbox, type SandboxOptions } from '../../sandbox';
import { eanCheckDigit } from '../../sandbox/products';
import { NODE_UNDER_TEST_NAME, runNode, sandboxCredential, type RunNodeOptions, type WorkflowRunResult } from '../harness';

export const NODE = 'marketplaceMerchant';
export const CREDENTIAL_TYPE = 'marketplaceMerchantApi';
/** The sandbox clock of tests that do not date anything ahead. */
export const NOW = '2025-06-15T10:00:00Z';
/** A year ahead: the node rejects discounts starting before today (real UTC), and the sandbox's clock is set in this year. */
export const YEAR = new Date().getUTCFullYear() + 1;

/** The sandbox the running test talks to. */
export let sandbox: Sandbox;

async function startWith(options: SandboxOptions): Promise<Sandbox> {
	sandbox = await startSandbox({ rateLimits: false, ...options });
	return sandbox;
}

/**
 * Tests that start their own sandbox: the function returned starts one (limits off unless the
 * options say otherwise) from the options `optionsOf` makes of its arguments; it is closed after the test.
 */
export function sandboxPerTest<A extends unknown[]>(optionsOf: (...args: A) => SandboxOptions): (...args: A) => Promise<Sandbox> {
	const started: Sandbox[] = [];
	afterEach(async () => {
		for (const each of started.splice(0)) await each.close();
	});
	return async (...args: A) => {
		started.push(await startWith(optionsOf(...args)));
		return sandbox;
	};
}

/** One sandbox for the file (or the describe this is called in), its request log cleared before each test. */
export function sandboxPerFile(options: SandboxOptions): void {
	let mine: Sandbox;
	beforeAll(async () => {
		mine = await startWith(options);
	});
	afterAll(async () => await mine.close());
	beforeEach(() => {
		sandbox = mine;
		sandbox.clearLog();
	});
}

export function credentials() {
	return { [CREDENTIAL_TYPE]: sandboxCredential(sandbox) };
}

/** Runs the node once on the input items, with the sandbox's credential; `resource`, when given, is set for every run. */
export function runner(resource?: string) {
	return async (parameters: INodeParameters, inputItems: unknown[] = [{}], options: RunNodeOptions = {}): Promise<WorkflowRunResult> =>
		await runNode(NODE, resource ? { resource, ...parameters } : parameters, inputItems, { credentials: credentials(), ...options });
}

/** `run` that also gives the node's output items and their JSON. */
export function outputRunner(resource?: string) {
	const run = runner(resource);
	return async (...args: Parameters<typeof run>) => {
		const result = await run(...args);
		return { result, items: result.output(NODE_UNDER_TEST_NAME), json: result.json(NODE_UNDER_TEST_NAME) };
	};
}

/** Requests the node made to the API (the token request is not one of them). */
export function apiRequests(): RequestLogEntry[] {
	return sandbox.log.filter((entry) => entry.route !== 'token');
}

export function sent(route: RequestLogEntry['route']): RequestLogEntry[] {
	return sandbox.log.filter((entry) => entry.route === route);
}

export function pages(route: RequestLogEntry['route']): Array<{ page: string; size: string }> {
	return sent(route).map(({ query }) => ({ page: query.page, size: query.size }));
}

/** A valid EAN-13 that no seeded product has (seeded EANs start with 860). */
export function newEan(body: string): string {
	const twelve = `400${body.padStart(9, '0')}`;
	return `${twelve}${eanCheckDigit(twelve)}`;
}

/** The Locator value n8n stores for a resource locator field. */
export function locator(mode: 'list' | 'id' | 'ean', value: string | number) {
	return { __rl: true, mode, value };
}

/**
 * One sandbox for a file of discount tests: each test schedules on products that have no discount
 * yet (freshProducts), so discounts of one test never overlap another's. 1,400 products leave room
 * for the 1,200-entry test.
 */
export const DISCOUNT_SANDBOX: SandboxOptions = { now: `${YEAR}-06-15T10:00:00Z`, seed: 5, products: 1_400 };

/** Discount › Schedule of these entries, all in one input item. */
export async function schedule(discounts: unknown[], parameters: INodeParameters = {}, options: RunNodeOptions = {}) {
	return await runner('discount')({ operation: 'schedule', ...parameters }, [{ discounts }], options);
}

export const discountRequests = () => sandbox.log.filter((entry) => entry.path.includes('/discounts'));

/** Products without any discount yet, so that a new one neither overlaps nor inherits a price. */
export function freshProducts(count: number): ProductRecord[] {
	const discounted = new Set(sandbox.state.discounts.map((discount) => discount.merchantInventoryId));
	const products = sandbox.state.products.filter((product) => !discounted.has(product.id)).slice(0, count);
	expect(products).toHaveLength(count);
	return products;
}

/** A price the service accepts: 10% below the regular price. */
export const goodPrice = (product: ProductRecord) => Math.floor(product.basePrice * 0.9);

export function sale(product: ProductRecord, dateFrom = `01/08/${YEAR}`, dateTo = `10/08/${YEAR}`): IDataObject {
	return { merchantInventoryId: product.id, discountPrice: goodPrice(product), dateFrom, dateTo, discountType: 'SALE' };
}

const DAY_MS = 86_400_000;
const ddMMyyyy = (ms: number) => new Date(ms).toISOString().slice(0, 10).split('-').reverse().join('/');
/** Real today, UTC, as the node counts days (the sandbox's clock may be set elsewhere). */
const todayMs = () => Math.floor(Date.now() / DAY_MS) * DAY_MS;

/** The day `days` after today (real UTC) as dd/MM/yyyy. */
export const dayAhead = (days: number) => ddMMyyyy(todayMs() + days * DAY_MS);

/** Whether a SEASONAL_SALE may start on this day (1–15 July, 25 December–10 January). */
function inSeasonalWindow(ms: number): boolean {
	const day = new Date(ms);
	const [month, date] = [day.getUTCMonth() + 1, day.getUTCDate()];
	return (month === 7 && date <= 15) || (month === 12 && date >= 25) || (month === 1 && date <= 10);
}

/**
 * The first and last day of a SALE of `length` days starting at least `days` after today and
 * outside the seasonal start windows, so that Discount › Update tells its type by its dates; well
 * within the year ahead Update reads the discounts of, whatever today is.
 */
export function saleDays(days = 30, length = 10): [string, string] {
	let start = todayMs() + days * DAY_MS;
	while (inSeasonalWindow(start)) start += DAY_MS;
	return [ddMMyyyy(start), ddMMyyyy(start + (length - 1) * DAY_MS)];
}

/** The documents family: a sandbox at NOW has documents for the half year before; seven months are three 3-month windows. */
export const FROM = '2024-12-01T00:00:00';
export const TO = '2025-06-30T23:59:59';
export const FROM_MS = Date.parse(`${FROM}Z`);
const TO_MS = Date.parse(`${TO}Z`);

export type Document = Invoice | InvoiceCorrection;

function invoicedMs(document: Document): number {
	return Date.parse(`${document.invoiceHeader.orderDetails.invoicedDate}Z`);
}

export function inRange(documents: Document[], fromMs = FROM_MS, toMs = TO_MS): Document[] {
	return documents.filter((document) => invoicedMs(document) >= fromMs && invoicedMs(document) <= toMs);
}
