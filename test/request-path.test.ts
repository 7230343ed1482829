/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, run by jest and never loaded by n8n: it may use process and timers, Node modules (docs/architecture.md, Toolchain). */
/**
 * The project files whose code runs for one request (docs/architecture.md, "Three traces"),
 * measured rather than claimed: V8's own call counts (node:inspector, precise coverage) over the
 * second of two runs through n8n-core's real engine against the sandbox. The first run loads the
 * modules, builds the description and gets the token (saved with the credential, as n8n saves
 * it); the counters are reset after it, so a file counts only when one of its functions ran for
 * the run itself. transport/endpoints.ts has no code to count: it is the table the gate reads.
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

import type { INodeParameters, INodePropertyOptions } from 'n8n-workflow';

import { MarketplaceMerchant } from '../nodes/MarketplaceMerchant/MarketplaceMerchant.node';
import { CREDENTIAL_TYPE } from '../nodes/MarketplaceMerchant/transport/send';
import { NODE, sandbox, sandboxPerTest } from './actions/helpers';
import { TestCredentialsHelper, runNode, runPoll, sandboxCredential } from './harness';

const ROOT = path.resolve(__dirname, '..');
const N = 'nodes/MarketplaceMerchant/';
const start = sandboxPerTest(() => ({ products: 5 }));

type ScriptCoverage = { url: string; functions: Array<{ functionName: string; ranges: Array<{ count: number }> }> };
type ScriptsCoverage = { result: Array<ScriptCoverage & { scriptId: string }> };

const session = new Session();
/** Copies of the project's modules that earlier test files of this jest worker loaded: not ours to count. */
const earlierCopies = new Set<string>();

async function takeCoverage(): Promise<ScriptsCoverage['result']> {
	const { result } = (await session.post('Profiler.takePreciseCoverage')) as ScriptsCoverage;
	return result.filter(({ scriptId }) => !earlierCopies.has(scriptId));
}

beforeAll(async () => {
	session.connect();
	await session.post('Profiler.enable');
	await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
	for (const { scriptId } of await takeCoverage()) earlierCopies.add(scriptId);
});

afterAll(async () => {
	await session.post('Profiler.stopPreciseCoverage');
	await session.post('Profiler.disable');
	session.disconnect();
});

/** Project files (nodes/, credentials/) with a function called since the last call. */
async function filesThatRan(): Promise<string[]> {
	return (await takeCoverage())
		.map(({ url, functions }) => ({ file: path.relative(ROOT, url.replace(/^file:\/\//, '')), functions }))
		.filter(({ file }) => /^(nodes|credentials)\//.test(file))
		.filter(({ functions }) => functions.some((fn) => fn.functionName !== '' && fn.ranges[0].count > 0))
		.map(({ file }) => file)
		.sort();
}

function storedCredential(): TestCredentialsHelper {
	const helper = new TestCredentialsHelper();
	helper.add(CREDENTIAL_TYPE, sandboxCredential(sandbox));
	return helper;
}

/** Runs `go` twice and gives the files that ran the second time; `go` checks its own outcome. */
async function filesOfSecondRun(go: (credentialsHelper: TestCredentialsHelper) => Promise<void>, credentialsHelper = storedCredential()) {
	await go(credentialsHelper);
	await filesThatRan();
	await go(credentialsHelper);
	return await filesThatRan();
}

/** Every request: send.ts and what it stands on (errors, gate, policy, body, host), the reader, the values it reads. */
const TRANSPORT = ['errors', 'gate', 'policy', 'body', 'hosts', 'send'].map((file) => `${N}transport/${file}.ts`);
const SENDING = [...TRANSPORT, `${N}answers/read.ts`, `${N}values/labels.ts`, `${N}values/values.ts`];
/** Every operation's run adds the skeleton (actions/run.ts): n8n's custom operation for all of the run's items. */
const RUN = `${N}actions/run.ts`;
/** The product pieces Update and Update Many share: the writers' rules, the locator, the update entry; and the number readers. */
const PRODUCTS = [`${N}actions/catalogue/fields.ts`, `${N}actions/catalogue/locator.ts`, `${N}actions/catalogue/update.ts`, `${N}values/numbers.ts`];
const PRODUCT_UPDATE = [`${N}actions/product/update.operation.ts`, ...PRODUCTS, `${N}answers/bulkResults.ts`, RUN, ...SENDING].sort();

async function productUpdate(credentialsHelper: TestCredentialsHelper): Promise<void> {
	const parameters = { resource: 'product', operation: 'update', productId: String(sandbox.state.products[0].id), updateFields: { basePrice: '1299.50' } };
	const result = await runNode(NODE, parameters, [{}], { credentialsHelper });
	expect(result.error).toBeUndefined();
}

/** The paragraph of docs/architecture.md's "Three traces" that starts with `**title**`: it states the counts measured here. */
function tracePage(title: string): string {
	const page = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8').replace(/\s+/g, ' ');
	const start = page.indexOf(`**${title}**`);
	expect(start).toBeGreaterThan(-1);
	return page.slice(start, page.indexOf(' **', start + title.length + 4) === -1 ? undefined : page.indexOf(' **', start + title.length + 4));
}

describe('One skeleton for every operation', () => {
	const node = new MarketplaceMerchant();
	const operationsOf = (resource: string) =>
		node.description.properties
			.filter((property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource))
			.flatMap((property) => (property.options ?? []) as INodePropertyOptions[]);
	const resources = ((node.description.properties.find((property) => property.name === 'resource')?.options ?? []) as INodePropertyOptions[]).map(
		({ value }) => String(value),
	);

	it('has every resource and operation to check', () => {
		expect(resources).toHaveLength(8);
		expect(resources.flatMap(operationsOf)).toHaveLength(28);
	});

	it.each(['discount', 'invoice', 'invoiceCorrection', 'order', 'price', 'product', 'shipment', 'warehouse'])(
		'%s: every operation is a customOperation of actions/run.ts, none a routing of RoutingNode, and the node has no execute',
		(resource) => {
			const operations = operationsOf(resource);
			expect(operations.length).toBeGreaterThan(0);
			for (const option of operations) {
				expect(option.routing).toBeUndefined();
				expect(typeof node.customOperations?.[resource]?.[String(option.value)]).toBe('function');
			}
			// What the node runs is exactly what run.ts builds from the resources: one operation each, no other.
			expect(Object.keys(node.customOperations?.[resource] ?? {}).sort()).toEqual(operations.map(({ value }) => String(value)).sort());
			expect((node as { execute?: unknown }).execute).toBeUndefined();
		},
	);

	it('runs a single-item operation and a bulk operation through the same skeleton file (measured: actions/run.ts ran for both)', async () => {
		await start();
		const single = await filesOfSecondRun(productUpdate);
		const products = sandbox.state.products.slice(0, 2).map((product) => ({ id: product.id, stockLevel: 3 }));
		const bulk = await filesOfSecondRun(async (credentialsHelper) => {
			const result = await runNode(NODE, { resource: 'product', operation: 'updateMany', inputMode: 'json', productsJson: '={{ $json.products }}' }, [{ products }], { credentialsHelper });
			expect(result.error).toBeUndefined();
		});
		expect(single).toContain(RUN);
		expect(bulk).toContain(RUN);
	});
});

describe('The project files one request runs', () => {
	it('Product › Update: 16 files of code, and the table of endpoints', async () => {
		await start();
		expect(await filesOfSecondRun(productUpdate)).toEqual(PRODUCT_UPDATE);
		expect(sandbox.log.filter((entry) => entry.route === 'productUpdate')).toHaveLength(2);
		expect(tracePage('One request, Product › Update')).toContain(`(${PRODUCT_UPDATE.length + 1} files: ${PRODUCT_UPDATE.length} of code and the table;`);
	});

	it("a credential without a saved token (its first request) adds the credential's two files", async () => {
		await start();
		await productUpdate(storedCredential());
		const files = await filesOfSecondRun(async () => await productUpdate(storedCredential()));
		expect(files).toEqual([`credentials/MarketplaceMerchantApi.credentials.ts`, `${N}shared/credential.ts`, ...PRODUCT_UPDATE].sort());
		expect(tracePage('One request, Product › Update')).toContain(`(and one more hand-off, preAuthentication): ${files.length + 1} files (${files.length} of code).`);
	});

	it('a rejected value, Update Fields › Base Price "1,299": 9 files of code, nothing sent', async () => {
		await start();
		const parameters = { resource: 'product', operation: 'update', productId: String(sandbox.state.products[0].id), updateFields: { basePrice: '1,299' } };
		const files = await filesOfSecondRun(async (credentialsHelper) => {
			const result = await runNode(NODE, parameters, [{}], { credentialsHelper });
			expect(result.error?.message).toBe('Update Fields › Base Price: "1,299" is not a price (item 0)');
		});
		expect(files).toEqual(
			[
				`${N}actions/product/update.operation.ts`,
				`${N}actions/catalogue/locator.ts`,
				`${N}actions/catalogue/update.ts`,
				RUN,
				// The skeleton's: `settle` (the item's outcome) and `asNodeError` (the item's error, secrets removed).
				`${N}transport/errors.ts`,
				`${N}transport/policy.ts`,
				`${N}values/labels.ts`,
				`${N}values/numbers.ts`,
				`${N}values/values.ts`,
			].sort(),
		);
		expect(sandbox.log.filter((entry) => entry.route === 'productUpdate')).toEqual([]);
		expect(tracePage('One user value')).toContain(`(${files.length} files, nothing sent;`);
	});

	it('Product › Update Many (a bulk operation: all items in one batch): 21 files of code, and the table of endpoints', async () => {
		await start();
		const products = sandbox.state.products.slice(0, 3).map((product) => ({ id: product.id, stockLevel: 4 }));
		const parameters: INodeParameters = { resource: 'product', operation: 'updateMany', inputMode: 'json', productsJson: '={{ $json.products }}' };
		const files = await filesOfSecondRun(async (credentialsHelper) => {
			const result = await runNode(NODE, parameters, [{ products }], { credentialsHelper });
			expect(result.error).toBeUndefined();
		});
		expect(files).toEqual(
			[
				`${N}actions/bulk/entries.ts`,
				`${N}actions/bulk/fields.ts`,
				`${N}actions/bulk/run.ts`,
				`${N}actions/bulk/write.ts`,
				`${N}actions/product/updateMany.operation.ts`,
				...PRODUCTS,
				RUN,
				`${N}answers/bulkResults.ts`,
				...SENDING,
				`${N}transport/batches.ts`,
			].sort(),
		);
		expect(tracePage('A bulk operation, Product › Update Many')).toContain(`(${files.length + 1} files: ${files.length} of code and the table;`);
	});

	it('a New Invoice poll that emits one invoice: 16 files of code', async () => {
		await start();
		let staticData = {};
		let polls = 0;
		const files = await filesOfSecondRun(async (credentialsHelper) => {
			// The first poll sets the cursor; the second finds the invoice added after it.
			const invoicedDate = new Date(Date.now() - 5_000 + polls++ * 1_000).toISOString().slice(0, 19);
			sandbox.addInvoice({ invoiceHeader: { orderDetails: { invoicedDate } } });
			const result = await runPoll('marketplaceMerchantTrigger', { event: 'invoice' }, { credentialsHelper, staticData });
			expect(result.error).toBeUndefined();
			expect(result.emitted?.[0] ?? []).toHaveLength(polls === 1 ? 0 : 1);
			staticData = result.staticData;
		});
		expect(files).toEqual(
			[
				`${N}shared/documents/documents.ts`,
				`${N}shared/documents/fields.ts`,
				`${N}shared/read.ts`,
				`${N}values/dates.ts`,
				'nodes/MarketplaceMerchantTrigger/MarketplaceMerchantTrigger.node.ts',
				'nodes/MarketplaceMerchantTrigger/cursor.ts',
				'nodes/MarketplaceMerchantTrigger/poll.ts',
				...SENDING,
			].sort(),
		);
		expect(tracePage('One trigger poll')).toContain(`(${files.length + 1} files: ${files.length} of code and the table;`);
	});
});
