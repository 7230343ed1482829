/**
 * Every read operation, and the trigger's documents, give the same output whatever shape the
 * service answers in (platform facts, "Shapes seen in real responses"): each answer-shape switch
 * of the sandbox is turned on alone and the output compared with the output without it. XML and
 * JSON answers of the same documents give identical items, in every XML list style and with
 * nulls as empty elements. Through n8n's real engine against the sandbox.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { BOOLEAN, NUMBER, STRING, listOf, objectOf } from '../../nodes/MarketplaceMerchant/answers/schemas';
import { decodeJson, decodeText } from '../../nodes/MarketplaceMerchant/answers/read';
import { startSandbox, type Sandbox, type SandboxVariants } from '../../sandbox';
import { runNode, sandboxCredential, type RunNodeOptions } from '../harness';
import { DAY, TriggerUnderTest, emittedItems, useSharedClock } from '../trigger/helpers';

const NODE = 'marketplaceMerchant';
const START = '2025-06-15T10:00:00.000Z';
/** Two months of documents: enough of every shape (one-element lists, nulls of non-fiscal documents). */
const DOCUMENTS_FROM = '2025-03-01T00:00:00';
const DOCUMENTS_TO = '2025-04-30T23:59:59';
/** A product whose EAN starts with a zero: the service may answer its key without it. */
const ZERO_EAN = '0012345678905';
const UNKNOWN_EAN = '4006381333931';

let sandbox: Sandbox;
let options: RunNodeOptions;
const reads: Array<[string, () => Promise<IDataObject[]>]> = [];

async function node(parameters: INodeParameters): Promise<IDataObject[]> {
	const result = await runNode(NODE, parameters, [{}], options);
	if (result.error) throw result.error;
	return result.json('Node');
}

function documents(resource: string, format: 'json' | 'xml', simplify: boolean): () => Promise<IDataObject[]> {
	return async () =>
		await node({
			resource,
			operation: 'getMany',
			dateFrom: DOCUMENTS_FROM,
			dateTo: DOCUMENTS_TO,
			returnAll: true,
			simplify,
			options: { responseFormat: format },
		});
}

/** What the trigger emits on its first poll with a Start From: the documents since then. */
async function triggerDocuments(simplify: boolean): Promise<IDataObject[]> {
	const trigger = new TriggerUnderTest(sandbox, { event: 'any', simplify, options: { startFrom: new Date(Date.now() - 45 * DAY).toISOString() } });
	return emittedItems(await trigger.poll()).map(({ json }) => json);
}

beforeAll(async () => {
	useSharedClock(START);
	sandbox = await startSandbox({ rateLimits: false, seed: 21 });
	options = { credentials: { marketplaceMerchantApi: sandboxCredential(sandbox) } };
	for (let day = 1; day <= 40; day += 3) {
		sandbox.addInvoice({ invoiceHeader: { orderDetails: { invoicedDate: new Date(Date.now() - day * DAY).toISOString().slice(0, 19) } } });
		sandbox.addInvoiceCorrection({ invoiceHeader: { orderDetails: { invoicedDate: new Date(Date.now() - day * DAY - 3_600_000).toISOString().slice(0, 19) } } });
	}
	await node({
		resource: 'product',
		operation: 'import',
		name: 'Leading zero',
		ean: ZERO_EAN,
		basePrice: 1299,
		vat: 20,
		description: 'A product whose EAN starts with 0',
		coverImage: 'https://example.com/zero.jpg',
	});
	const [seeded] = await node({ resource: 'product', operation: 'getMany', limit: 1 });
	const ids = (await node({ resource: 'product', operation: 'getManyBasic', limit: 150 })).map(({ id }) => String(id));
	const discountFrom = new Date(Date.now() - 60 * DAY).toISOString();
	const discountTo = new Date(Date.now() + 60 * DAY).toISOString();

	reads.push(
		['Product › Get Many', async () => await node({ resource: 'product', operation: 'getMany', limit: 30 })],
		['Product › Get Many, Simplify', async () => await node({ resource: 'product', operation: 'getMany', limit: 30, simplify: true })],
		['Product › Get Many Basic', async () => await node({ resource: 'product', operation: 'getManyBasic', limit: 30 })],
		['Product › Get Types', async () => await node({ resource: 'product', operation: 'getTypes' })],
		[
			'Product › Check EANs',
			async () => await node({ resource: 'product', operation: 'checkEans', eans: [ZERO_EAN, String(seeded.ean), UNKNOWN_EAN].join(', ') }),
		],
		['Warehouse › Get Many', async () => await node({ resource: 'warehouse', operation: 'getMany' })],
		['Invoice › Get Many, JSON', documents('invoice', 'json', false)],
		['Invoice › Get Many, XML', documents('invoice', 'xml', false)],
		['Invoice › Get Many, JSON, Simplify', documents('invoice', 'json', true)],
		['Invoice › Get Many, XML, Simplify', documents('invoice', 'xml', true)],
		['Invoice Correction › Get Many, JSON', documents('invoiceCorrection', 'json', false)],
		['Invoice Correction › Get Many, XML', documents('invoiceCorrection', 'xml', false)],
		['Invoice Correction › Get Many, JSON, Simplify', documents('invoiceCorrection', 'json', true)],
		['Invoice Correction › Get Many, XML, Simplify', documents('invoiceCorrection', 'xml', true)],
		['Discount › Get Many', async () => await node({ resource: 'discount', operation: 'getMany', dateFrom: discountFrom, dateTo: discountTo, returnAll: true })],
		['Price › Get Many', async () => await node({ resource: 'price', operation: 'getMany', merchantInventoryIds: ids.join(',') })],
		['Trigger › documents', async () => await triggerDocuments(false)],
		['Trigger › documents, Simplify', async () => await triggerDocuments(true)],
	);
});

afterAll(async () => {
	await sandbox.close();
	jest.useRealTimers();
});

afterEach(() => sandbox.resetVariants());

describe('without variants', () => {
	it('every read gives items in the spec shape', async () => {
		const byName = new Map<string, IDataObject[]>();
		for (const [name, read] of reads) byName.set(name, await read());
		for (const [name, items] of byName) expect([name, items.length > 0]).toEqual([name, true]);

		expect(byName.get('Product › Check EANs')!.map(({ exists }) => exists)).toEqual([true, true, false]);
		expect(byName.get('Warehouse › Get Many')!.filter(({ defaultAddress }) => defaultAddress === true)).toHaveLength(1);
		const invoices = byName.get('Invoice › Get Many, JSON')!;
		expect(invoices.some((document) => (document.invoiceHeader as IDataObject).invoiceType === 'NON_FISCAL')).toBe(true);
		const simplified = byName.get('Invoice Correction › Get Many, JSON, Simplify')!;
		expect(simplified.every(({ paymentMethods }) => Array.isArray(paymentMethods) && paymentMethods.length > 0)).toBe(true);
		expect(byName.get('Price › Get Many')!.length).toBeGreaterThan(100);
		expect(byName.get('Invoice › Get Many, XML')).toEqual(invoices);
	});
});

const SWITCHES: Array<[string, Partial<SandboxVariants>]> = [
	['keySpellings', { keySpellings: true }],
	['eanKeysWithoutLeadingZeros', { eanKeysWithoutLeadingZeros: true }],
	['eanAnswerInArray', { eanAnswerInArray: true }],
	['stringifiedLists', { stringifiedLists: true }],
	['xmlListStyle item', { xmlListStyle: 'item' }],
	['xmlListStyle unwrapped', { xmlListStyle: 'unwrapped' }],
	['xmlNullsAsEmptyElements', { xmlNullsAsEmptyElements: true }],
	['numbersAsStrings', { numbersAsStrings: true }],
	['all of them at once', { keySpellings: true, eanKeysWithoutLeadingZeros: true, eanAnswerInArray: true, stringifiedLists: true, xmlListStyle: 'unwrapped', xmlNullsAsEmptyElements: true, numbersAsStrings: true }],
];

/**
 * An `ean/exists` answer whose keys lost their leading zeros cannot say by which form the catalogue
 * knows a code (every form is one key): Check EANs' `matchedEan` is then the key answered or null,
 * never another form; everything else is the same.
 */
const FORMS_UNTOLD = 'Product › Check EANs';
const withoutForm = (items: IDataObject[]) =>
	items.map((item) => Object.fromEntries(Object.entries(item).filter(([key]) => key !== 'matchedEan')));

describe.each(SWITCHES)('with %s', (_name, variants) => {
	it('every read gives the same output as without it', async () => {
		for (const [name, read] of reads) {
			const plain = await read();
			sandbox.setVariants(variants);
			const varied = await read();
			sandbox.resetVariants();
			if (name === FORMS_UNTOLD && variants.eanKeysWithoutLeadingZeros) {
				expect([name, withoutForm(varied)]).toEqual([name, withoutForm(plain)]);
				varied.forEach(({ matchedEan }, index) => expect([null, plain[index].matchedEan, String(plain[index].matchedEan).replace(/^0+/, '')]).toContain(matchedEan));
			} else expect([name, varied]).toEqual([name, plain]);
		}
	});
});

describe('XML and JSON answers of the same documents', () => {
	it.each([
		['wrapped', false],
		['item', false],
		['unwrapped', false],
		['wrapped', true],
		['item', true],
		['unwrapped', true],
	] as const)('give identical items with lists %s, nulls as empty elements: %s', async (xmlListStyle, xmlNullsAsEmptyElements) => {
		for (const resource of ['invoice', 'invoiceCorrection']) {
			const fromJson = await documents(resource, 'json', false)();
			sandbox.setVariants({ xmlListStyle, xmlNullsAsEmptyElements });
			const fromXml = await documents(resource, 'xml', false)();
			sandbox.resetVariants();
			expect(fromXml.length).toBeGreaterThan(5);
			expect(fromXml).toEqual(fromJson);
		}
	});
});

describe('the reader on shapes the sandbox does not produce', () => {
	const WAREHOUSES = { body: objectOf({ content: listOf(objectOf({ id: NUMBER, ean: STRING, defaultAddress: BOOLEAN, paymentMethods: listOf(STRING) })) }), itemsAt: 'content' };
	const read = (body: unknown) => (decodeText(JSON.stringify(body), 'application/json', WAREHOUSES) as { content: IDataObject[] }).content;

	it.each([
		['the spec spelling wins over another one', { ID: 7, id: 8 }, { id: 8 }],
		['another spelling fills a null of the spec spelling', { id: null, ' Id ': 9 }, { id: 9 }],
		['unknown fields pass through untouched, key and value', { 'extra ': ' 0042 ', nested: { Deep: '1' } }, { 'extra ': ' 0042 ', nested: { Deep: '1' } }],
		['a string id keeps its leading zeros; a number there becomes text', { ean: '0012345678905' }, { ean: '0012345678905' }],
		['a number in a string field becomes text', { ean: 12345678905 }, { ean: '12345678905' }],
		['text that is not a number is left as it came, never guessed', { id: '1,299' }, { id: '1,299' }],
		['numbers in exponent form, as Java prints large doubles', { id: '1.0E7' }, { id: 10_000_000 }],
		['a JSON list in a string', { paymentMethods: '["COD","PBC"]' }, { paymentMethods: ['COD', 'PBC'] }],
		['an empty bracketed list', { paymentMethods: '[]' }, { paymentMethods: [] }],
		['a single value as a list of one', { paymentMethods: 'PBC' }, { paymentMethods: ['PBC'] }],
		['booleans from text in any case', { defaultAddress: ' TRUE ' }, { defaultAddress: true }],
		['a boolean field that holds something else stays as it came', { defaultAddress: 'yes' }, { defaultAddress: 'yes' }],
	])('%s', (_name, warehouse, expected) => {
		expect(read({ content: [warehouse] })[0]).toMatchObject(expected);
	});

	it('reads the JSON it parsed in place into what reading a copy gives, keys in the same order', () => {
		const bodies = [
			{ content: [{ extra: 1, id: '5', paymentMethods: 'PBC', nested: { Deep: '1' } }, { ean: 8, ID: 3, 'extra ': null }, { defaultAddress: ' TRUE ', id: 2, paymentMethods: '[]' }] },
			{ content: [{ ' Id ': 9, id: null }, {}] },
			[{ id: '1' }],
		];
		for (const body of bodies) {
			const text = JSON.stringify(body);
			const inPlace = decodeText(text, 'application/json', WAREHOUSES);
			const copied = decodeJson(JSON.parse(text), WAREHOUSES);
			expect(inPlace).toStrictEqual(copied);
			expect(JSON.stringify(inPlace)).toBe(JSON.stringify(copied));
		}
	});

	it('reads a bare list where the object holding it is expected', () => {
		expect(decodeText('[{"id":"1"}]', 'application/json', WAREHOUSES)).toEqual({ content: [{ id: 1, ean: null, defaultAddress: null, paymentMethods: [] }] });
	});
});
