/**
 * Answers cut off mid-way (sandbox variant `cutAnswers`: a proxy or a dropped connection leaves
 * the first half of a 200, ending right after a complete tag or element): an error naming the
 * cause and the request, never a shorter list. Through n8n's real engine against the sandbox, for
 * every reader of XML (invoices, corrections) and JSON, and for the trigger.
 */
import type { INodeParameters } from 'n8n-workflow';

import { ANSWERS } from '../../nodes/MarketplaceMerchant/answers/schemas';
import { decodeText } from '../../nodes/MarketplaceMerchant/answers/read';
import { startSandbox, type RouteKey, type Sandbox } from '../../sandbox';
import { runNode, sandboxCredential } from '../harness';
import { TriggerUnderTest, useTriggerSandbox } from '../trigger/helpers';

const NODE = 'marketplaceMerchant';
const RANGE = { dateFrom: '2025-01-01T00:00:00', dateTo: '2025-02-28T23:59:59', returnAll: true };

describe('Answers cut off mid-way, through the node', () => {
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startSandbox({ rateLimits: false, now: '2025-06-15T10:00:00Z', seed: 11 });
	});
	afterAll(async () => await sandbox.close());
	afterEach(() => sandbox.resetVariants());

	async function run(parameters: INodeParameters) {
		return await runNode(NODE, parameters, [{}], { credentials: { marketplaceMerchantApi: sandboxCredential(sandbox) } });
	}

	it.each([
		['invoice', 'invoices'],
		['invoiceCorrection', 'invoiceCorrections'],
	] as const)('%s Get Many in XML: a cut answer is an error naming the cause and the request, not a shorter list', async (resource, route) => {
		const whole = await run({ resource, operation: 'getMany', ...RANGE, options: { responseFormat: 'xml' } });
		expect(whole.error).toBeUndefined();
		expect(whole.json('Node').length).toBeGreaterThan(5);

		sandbox.setVariants({ cutAnswers: [route] });
		const cut = await run({ resource, operation: 'getMany', ...RANGE, options: { responseFormat: 'xml' } });

		expect(cut.error?.message).toBe("The service's answer is not a complete XML document: it was cut off or is broken");
		expect(cut.error?.description).toMatch(/ends before its <List> element is closed/);
		expect(cut.error?.description).toMatch(new RegExp(`Request: GET /[^ ]*${route === 'invoices' ? 'invoices' : 'invoice-corrections'}\\?dateFrom=`));
		expect(cut.output('Node')).toEqual([]);
	});

	it('a cut JSON answer is an error saying it was cut off, naming the request', async () => {
		sandbox.setVariants({ cutAnswers: ['invoices'] });

		const cut = await run({ resource: 'invoice', operation: 'getMany', ...RANGE });

		expect(cut.error?.message).toBe('The service answered with a body that is not valid JSON: it ends before the document does (cut off)');
		expect(cut.error?.description).toMatch(/^HTTP 200, \d+ bytes; the answer starts with: \[/);
		expect(cut.error?.description).toMatch(/Request: GET \/\S*invoices\?dateFrom=/);
	});

	it.each<[string, RouteKey, INodeParameters]>([
		['Warehouse Get Many', 'warehouses', { resource: 'warehouse', operation: 'getMany' }],
		['Product Get Many', 'products', { resource: 'product', operation: 'getMany', returnAll: false, limit: 20 }],
	])('%s: a cut JSON answer fails the run instead of giving fewer items', async (_, route, parameters) => {
		sandbox.setVariants({ cutAnswers: [route] });

		const cut = await run(parameters);

		expect(cut.error?.message).toMatch(/not valid JSON: it ends before the document does/);
	});
});

describe('XML that is not one complete document, read directly', () => {
	it.each([
		['cut after a complete tag', '<List><item><id>1</id></item><item><id>2</id></item>', /ends before its <List> element is closed/],
		['cut inside an element', '<List><item><id>1</id></item><item><id>2</id>', /ends before its <List> element is closed \(2 elements left open, the innermost <item>\)/],
		['closing tags out of order', '<List><item><id>1</item></id></List>', /closes <\/item> where <id> is open/],
		['a second root', '<List><item/></List><List><item/></List>', /second root element/],
		['a closing tag never opened', '<List></List></item>', /never opened/],
	])('refuses %s', (_, xml, reason) => {
		expect(() => decodeText(xml, 'application/xml', ANSWERS.invoices)).toThrow(reason);
	});

	it('reads a complete document with comments, CDATA, processing instructions and quoted ">" in attributes', () => {
		const xml = '<?xml version="1.0"?><!-- list --><List><item note="a>b"><invoiceHeader><![CDATA[x<y]]></invoiceHeader></item><item/></List>';
		expect(decodeText(xml, 'application/xml', ANSWERS.invoices)).toHaveLength(2);
	});
});

describe('Answers cut off mid-way, through the trigger', () => {
	const { sandbox } = useTriggerSandbox({ start: '2025-06-15T10:00:00.000Z', seed: 3, per: 'test' });

	it('a poll whose answer was cut fails naming the cause and the request, and emits nothing', async () => {
		const trigger = new TriggerUnderTest(sandbox, { event: 'invoice', options: { startFrom: '2025-05-15T10:00:00' } });
		sandbox.setVariants({ cutAnswers: ['invoices'] });

		const result = await trigger.poll();

		expect(result.emitted).toBeNull();
		expect(result.error?.message).toMatch(/not valid JSON: it ends before the document does/);
		expect((result.error as { description?: string }).description).toMatch(/Request: GET \/\S*invoices\?dateFrom=/);

		// The same period is asked for again, in full, once the answers are whole.
		sandbox.resetVariants();
		const next = await trigger.poll();
		expect(next.error).toBeUndefined();
		expect(next.emitted?.[0].length).toBeGreaterThan(5);
	});
});
