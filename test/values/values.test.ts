/**
 * Every reader of values/values.ts fed the values of issue 10 (as they come out of sheets and
 * ERPs) and more: what is accepted is read exactly, what is not unambiguous is rejected with a
 * message naming the field and the item and showing the value as given. The readers need only
 * the node and the item index, so a minimal context stands in for n8n's here; the engine tests
 * (product, discount, price, invoice, stop-before-send) run the same readers through RoutingNode.
 */
import { DateTime } from 'luxon';
import type { IDataObject, INode, NodeOperationError } from 'n8n-workflow';

import {
	describeValue,
	missingBecauseOfExpression,
	readingParameter,
	type ParameterContext,
	type ValueContext,
} from '../../nodes/MarketplaceMerchant/values/labels';
import {
	readId,
	readLimit,
	readNumber,
	readNumberFormat,
	readPercent,
	readPrice,
	readSignedStockLevel,
	readStockLevel,
	readVat,
	readWholeNumber,
	shownPrice,
	type NumberFormat,
} from '../../nodes/MarketplaceMerchant/values/numbers';
import {
	readBoolean,
	readChoice,
	readDate,
	readDay,
	readEan,
	readJson,
	readList,
	readText,
	readUrl,
} from '../../nodes/MarketplaceMerchant/values/values';

const ctx: ValueContext = { getNode: () => ({ name: 'Node' }) as INode, getItemIndex: () => 3 };
const FIELD = 'Some Field';

type Reader = (ctx: ValueContext, field: string, value: unknown) => unknown;

function rejection(read: Reader, value: unknown): string {
	try {
		read(ctx, FIELD, value);
	} catch (error) {
		return (error as Error).message;
	}
	throw new Error(`${describeValue(value)} was accepted`);
}

/** Values no number reader may accept: each is a guess waiting to happen. */
const NOT_NUMBERS: unknown[] = [
	'1,299',
	'1.299,00',
	'1,299.50',
	'1 299',
	'1e3',
	'1E3',
	'0x10',
	'Infinity',
	'-Infinity',
	'NaN',
	'',
	'   ',
	'.5',
	'5.',
	'1..2',
	'1.2.3',
	'+5',
	'-5',
	'12abc',
	'١٢',
	Infinity,
	NaN,
	true,
	{},
	[],
	[5],
	null,
	undefined,
];

describe('numbers', () => {
	it.each<[unknown, number]>([
		[1299, 1299],
		['1299', 1299],
		['  1299  ', 1299],
		['1299.5', 1299.5],
		['0.75', 0.75],
		['007', 7],
		[0, 0],
		[-5, -5],
	])('readNumber reads %p as %p', (value, expected) => {
		expect(readNumber(ctx, FIELD, value)).toBe(expected);
	});

	it.each(NOT_NUMBERS.map((value) => [value]))('readNumber rejects %p, naming field and item and showing the value', (value) => {
		const message = rejection(readNumber, value);
		expect(message.startsWith(`${FIELD}: `)).toBe(true);
		expect(message.endsWith('(item 3)')).toBe(true);
		const blank = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
		expect(message).toContain(blank ? 'is missing' : describeValue(value));
	});

	it('hints at the accepted form', () => {
		try {
			readPrice(ctx, 'Base Price', '1,299');
		} catch (error) {
			expect((error as Error).message).toBe('Base Price: "1,299" is not a price (item 3)');
			expect((error as { description?: string }).description).toContain('Use 1299 or 1299.00; thousands separators and decimal commas are not accepted');
			return;
		}
		throw new Error('accepted');
	});

	it.each<[string, Reader, unknown[], unknown[]]>([
		['readWholeNumber', readWholeNumber, [[0, 0], ['1000', 1000], [12, 12]], ['1.000', '1.0', 2.5, '2.5', '1,000', ...NOT_NUMBERS]],
		['readId', readId, [[1, 1], ['100001', 100001], [' 42 ', 42]], [0, '0', -1, '1e3', '1.5', 1.5, '1,000', 'A-17', Number.MAX_SAFE_INTEGER + 2, ...NOT_NUMBERS]],
		['readPrice', readPrice, [[1299, 1299], ['1299', 1299], ['1299.00', 1299], ['1299.5', 1299.5], [12.99, 12.99], ['0.01', 0.01]], ['1.299', 1.299, '1299.999', 0, '0', '0.00', -1, ...NOT_NUMBERS]],
		['readStockLevel', readStockLevel, [[0, 0], ['1000', 1000], [31, 31]], ['1,000', '1.000', -1, 2.5, '2.5', ...NOT_NUMBERS]],
		// An ERP's oversold item: the sign is read, what goes out for it is the writer's rule (products.ts).
		[
			'readSignedStockLevel',
			readSignedStockLevel,
			[[0, 0], ['1000', 1000], [-3, -3], ['-3', -3], [' -12 ', -12]],
			['1,000', '1.000', '-1.5', -2.5, '2.5', '--3', '- 3', '−3', ...NOT_NUMBERS.filter((value) => value !== '-5')],
		],
		['readPercent', readPercent, [[0, 0], ['20', 20], [12.5, 12.5], ['100', 100]], [-1, '101', '20%', ...NOT_NUMBERS]],
		['readVat', readVat, [[0, 0], [10, 10], ['20', 20], [' 10 ', 10]], [15, '15', '20%', '0.2', ...NOT_NUMBERS]],
		['readLimit', readLimit, [[1, 1], ['50', 50]], [0, '0', -3, 2.5, '1e3', ...NOT_NUMBERS]],
	])('%s', (_name, read, accepted, rejected) => {
		for (const [value, expected] of accepted as Array<[unknown, number]>) expect(read(ctx, FIELD, value)).toBe(expected);
		for (const value of rejected) expect(rejection(read, value)).toMatch(/^Some Field: .+ \(item 3\)$/);
	});

	it('rejects 1.299 as a price as ambiguous, rather than storing 1.30', () => {
		expect(rejection(readPrice, '1.299')).toBe('Some Field: "1.299" has more than 2 decimal places (item 3)');
		expect(rejection(readPrice, 1.299)).toBe('Some Field: 1.299 has more than 2 decimal places (item 3)');
	});

	it('rounds away the float noise of a computed price, and only that', () => {
		expect(readPrice(ctx, FIELD, 899.9 * 1.1)).toBe(989.89);
		expect(readPrice(ctx, FIELD, 0.1 + 0.2)).toBe(0.3);
		expect(rejection(readPrice, 1558.805)).toBe('Some Field: 1558.805 has more than 2 decimal places (item 3)');
		expect(rejection(readPrice, 0.001)).toBe('Some Field: 0.001 has more than 2 decimal places (item 3)');
	});

	it('rejects a decimal point in a whole number (1.000 is one thousand in sr-RS)', () => {
		expect(rejection(readStockLevel, '1.000')).toBe('Some Field: "1.000" is not a stock level (a whole number) (item 3)');
	});

	it('rejects an id written in exponent form instead of reading product 1000', () => {
		expect(rejection(readId, '1e3')).toBe('Some Field: "1e3" is not a product ID (a whole number) (item 3)');
	});
});

describe('Number Format (Options › Number Format): stated, never guessed', () => {
	const read = (reader: typeof readPrice, value: unknown, format: NumberFormat) => reader(ctx, FIELD, value, format);
	const refusal = (reader: typeof readPrice, value: unknown, format: NumberFormat): { message: string; description?: string } => {
		try {
			reader(ctx, FIELD, value, format);
		} catch (error) {
			return error as { message: string; description?: string };
		}
		throw new Error(`${String(value)} accepted in ${format}`);
	};

	it.each<[unknown, number]>([
		['2.729,00', 2729],
		['1.299', 1299],
		['1,5', 1.5],
		['1.299,50', 1299.5],
		['1299,50', 1299.5],
		['1299', 1299],
		['31.129', 31129],
		['1.234.567,89', 1234567.89],
		[1299.5, 1299.5],
	])('Serbian reads the price %p as %p', (value, expected) => {
		expect(read(readPrice, value, 'serbian')).toBe(expected);
	});

	it.each<[unknown, number]>([
		['1,299.50', 1299.5],
		['1,299', 1299],
		['1299.50', 1299.5],
		['1,234,567.89', 1234567.89],
		[31129, 31129],
	])('English reads the price %p as %p', (value, expected) => {
		expect(read(readPrice, value, 'english')).toBe(expected);
	});

	it.each<[NumberFormat, string]>([
		['serbian', '1299.50'],
		['serbian', '1,299.50'],
		['serbian', '12.34'],
		['serbian', '1.29,50'],
		['serbian', '1.299,505'],
		['english', '1.299,50'],
		['english', '1,5'],
		['english', '12,34'],
		['plain', '1,299'],
		['plain', '2.729,00'],
		['plain', '1,299.50'],
	])('%s refuses the price %p, naming the format and giving an example', (format, value) => {
		const error = refusal(readPrice, value, format);
		expect(error.message).toMatch(/^Some Field: ".+" (is not a price|has more than 2 decimal places)/);
		if (format === 'plain') expect(error.description).toContain('Number Format is Plain; if the sheet writes 1.299,50 (Serbian) or 1,299.50 (English), set Options › Number Format');
		if (format === 'serbian') expect(error.description).toContain('Number Format is Serbian: a dot groups thousands and a comma marks decimals');
		if (format === 'serbian') expect(error.description).toContain('e.g. 1.299,50');
		if (format === 'english') expect(error.description).toContain('Number Format is English: a comma groups thousands and a point marks decimals');
		if (format === 'english') expect(error.description).toContain('e.g. 1,299.50');
	});

	it('names the format in the message of a text that does not fit it', () => {
		expect(refusal(readPrice, '1299.50', 'serbian').message).toBe('Some Field: "1299.50" is not a price in Number Format Serbian (item 3)');
	});

	it('reads stock levels as whole numbers in the format: 1.000 is one thousand in Serbian, 1,000 in English', () => {
		expect(readStockLevel(ctx, FIELD, '1.000', 'serbian')).toBe(1000);
		expect(readSignedStockLevel(ctx, FIELD, '-1.000', 'serbian')).toBe(-1000);
		expect(readStockLevel(ctx, FIELD, '1,000', 'english')).toBe(1000);
		expect(refusal(readStockLevel, '5,0', 'serbian').message).toMatch(/is not a stock level \(a whole number\) in Number Format Serbian/);
		expect(refusal(readStockLevel, '-1', 'serbian').message).toMatch(/is not a stock level/);
		expect(refusal(readStockLevel, '1.000', 'plain').message).toBe('Some Field: "1.000" is not a stock level (a whole number) (item 3)');
	});

	it('is read from Options › Number Format once per context, plain when not set, and refuses anything else', () => {
		let reads = 0;
		const settings = (value: unknown) => ({ ...ctx, getNodeParameter: (name: string, fallback?: unknown) => (reads++, name === 'options.numberFormat' ? (value ?? fallback) : fallback) });
		expect(readNumberFormat(settings(undefined))).toBe('plain');
		const serbian = settings('serbian');
		expect([readNumberFormat(serbian), readNumberFormat(serbian)]).toEqual(['serbian', 'serbian']);
		expect(reads).toBe(2);
		expect(() => readNumberFormat(settings('german'))).toThrow('Options › Number Format: "german" is not one of plain, serbian, english (item 3)');
	});

	it('a value that is not from the data (a product ID) does not point at Number Format', () => {
		try {
			readId(ctx, FIELD, '1,000');
		} catch (error) {
			expect((error as { description?: string }).description ?? '').not.toContain('Number Format');
			return;
		}
		throw new Error('accepted');
	});
});

describe('shownPrice: a price that neither a Serbian nor an English reader misreads', () => {
	it.each<[number, string]>([
		[31129, '31\u00a0129\u00a0RSD'],
		[1299.5, '1\u00a0299.50\u00a0RSD'],
		[999, '999\u00a0RSD'],
		[1234567.891, '1\u00a0234\u00a0567.89\u00a0RSD'],
		[0.5, '0.50\u00a0RSD'],
	])('%p as %p', (price, shown) => {
		expect(shownPrice(price)).toBe(shown);
		expect(shownPrice(price)).not.toMatch(/\d,\d/);
	});
});

describe('dates', () => {
	it.each<[unknown, string]>([
		['2027-02-28', '2027-02-28T00:00:00.000Z'],
		['28/02/2027', '2027-02-28T00:00:00.000Z'],
		['29/02/2028', '2028-02-29T00:00:00.000Z'],
		[' 01/07/2027 ', '2027-07-01T00:00:00.000Z'],
		['2027-02-28T10:30:00', '2027-02-28T10:30:00.000Z'],
		['2027-02-28 10:30:00', '2027-02-28T10:30:00.000Z'],
		['2027-02-28T10:30:00.123Z', '2027-02-28T10:30:00.123Z'],
		['2027-02-28T10:30:00+02:00', '2027-02-28T08:30:00.000Z'],
		[new Date('2027-02-28T10:30:00Z'), '2027-02-28T10:30:00.000Z'],
		[DateTime.fromISO('2027-02-28T10:30:00', { zone: 'Europe/Belgrade' }), '2027-02-28T09:30:00.000Z'],
	])('readDate reads %p', (value, expected) => {
		expect(readDate(ctx, FIELD, value).toISOString()).toBe(expected);
	});

	it.each<[unknown]>([
		['31/02/2027'],
		['29/02/2027'],
		['2027-02-30'],
		['2027-13-01'],
		['32/01/2027'],
		['12'],
		['2027'],
		['2027-06'],
		['20270228'],
		['1/7/2027'],
		['07/01/27'],
		['2027-02-28T25:00:00'],
		['soon'],
		[1_800_000_000_000],
		[new Date('nope')],
		[DateTime.fromISO('2027-02-30')],
		[{}],
		[true],
	])('readDate rejects %p', (value) => {
		const message = rejection(readDate, value);
		expect(message).toBe(`Some Field: ${describeValue(value)} is not a date (item 3)`);
	});

	it('says which forms are accepted', () => {
		try {
			readDate(ctx, FIELD, '31/02/2027');
		} catch (error) {
			expect((error as { description?: string }).description).toMatch(/ISO 8601.*dd\/MM\/yyyy.*UTC/);
			return;
		}
		throw new Error('accepted');
	});

	it('readDay gives the UTC day of the instant', () => {
		expect(readDay(ctx, FIELD, '2027-03-01T00:30:00+01:00').toISOString()).toBe('2027-02-28T00:00:00.000Z');
		expect(readDay(ctx, FIELD, '2027-02-28T23:59:59Z').toISOString()).toBe('2027-02-28T00:00:00.000Z');
	});

	it('a blank date is missing', () => {
		expect(rejection(readDate, '')).toBe('Some Field: is missing (item 3)');
	});
});

describe('text, choices, lists, EANs, URLs and JSON', () => {
	it('readEan takes 8 to 14 digits and leaves the check digit to the service', () => {
		for (const ean of ['40063813', '4006381333931', '4006381333932', '0740617304350', '00012345678905', ' 4006381333931 ']) {
			expect(readEan(ctx, FIELD, ean)).toBe(ean.trim());
		}
		expect(readEan(ctx, FIELD, 4006381333931)).toBe('4006381333931');
		for (const value of ['4006381', '400638133393112', '400638133393X', '4006-3813', '4006381 333931', 4.5, '', null]) {
			expect(rejection(readEan, value)).toMatch(/^Some Field: .+ \(item 3\)$/);
		}
	});

	it('readList splits text, keeps array entries as given and names each entry', () => {
		const rules = { empty: { problem: 'the list is empty', hint: 'Give one' } };
		expect(readList(ctx, FIELD, '1, 2;3\n4', rules)).toEqual(['1', '2', '3', '4']);
		expect(readList(ctx, FIELD, ['a', ' ', 'b'], rules)).toEqual(['a', 'b']);
		expect(() => readList(ctx, FIELD, ' , ', rules)).toThrow('Some Field: the list is empty (item 3)');
		expect(() => readList(ctx, FIELD, ['1', '2', '1,5'], { ...rules, readEntry: (entry, field) => readId(ctx, field, entry) })).toThrow(
			'Some Field › entry 3: "1,5" is not a product ID (a whole number) (item 3)',
		);
		expect(() => readList(ctx, FIELD, [1, { id: 2 }], { ...rules, readEntry: (entry, field) => readId(ctx, field, entry) })).toThrow(
			'Some Field › entry 2: {"id":2} is not a product ID (a whole number) (item 3)',
		);
	});

	it('readText, readChoice, readUrl and readJson', () => {
		expect(readText(ctx, FIELD, '  Pan  ')).toBe('Pan');
		expect(readText(ctx, FIELD, 123)).toBe('123');
		expect(rejection(readText, ' ')).toBe('Some Field: is missing (item 3)');
		expect(rejection(readText, { a: 1 })).toBe('Some Field: {"a":1} is not text (item 3)');
		expect(readChoice(ctx, FIELD, ' sale ', ['SALE', 'CLEARANCE_SALE'])).toBe('SALE');
		expect(() => readChoice(ctx, FIELD, 'FLASH', ['SALE'])).toThrow('Some Field: "FLASH" is not one of SALE (item 3)');
		expect(readUrl(ctx, FIELD, 'https://example.com/a.jpg')).toBe('https://example.com/a.jpg');
		for (const value of ['cover.jpg', 'ftp://example.com/a.jpg', 'javascript:alert(1)']) expect(rejection(readUrl, value)).toContain(describeValue(value));
		expect(readJson(ctx, FIELD, '[{"id": 1}]', 'hint')).toEqual([{ id: 1 }]);
		expect(readJson(ctx, FIELD, [{ id: 1 }], 'hint')).toEqual([{ id: 1 }]);
		expect(() => readJson(ctx, FIELD, '[{id: 1}]', 'hint')).toThrow(/^Some Field: is not valid JSON/);
	});

	it('readBoolean takes true and false, also as text; nothing else', () => {
		expect([true, false, 'true', ' FALSE ', 'True'].map((value) => readBoolean(ctx, FIELD, value))).toEqual([true, false, true, false, true]);
		for (const value of ['yes', '1', 1, 0, 'on', {}]) expect(rejection(readBoolean, value)).toBe(`Some Field: ${describeValue(value)} is not true or false (item 3)`);
		expect(rejection(readBoolean, '')).toBe('Some Field: is missing (item 3)');
	});

	it('readPercent goes up to 100 unless a wider maximum is given', () => {
		expect(rejection(readPercent, 150)).toBe('Some Field: must be at most 100, got 150 (item 3)');
		expect(readPercent(ctx, FIELD, '150', Infinity)).toBe(150);
	});

	it('an error outside an item (the trigger) names no item', () => {
		const triggerCtx: ValueContext = { getNode: () => ({ name: 'Trigger' }) as INode };
		expect(() => readWholeNumber(triggerCtx, 'Look-Back Window (Minutes)', '1e3', 0)).toThrow(
			/^Look-Back Window \(Minutes\): "1e3" is not a whole number$/,
		);
	});
});

describe('why a value is missing', () => {
	/** The context n8n gives a preSend, reduced to what the check reads: the raw parameters and the input item. */
	function parameterContext(parameters: Record<string, unknown>, item: IDataObject): ParameterContext {
		return {
			...ctx,
			getNodeParameter: (name) => {
				if (!(name in parameters)) throw new Error(`Could not get parameter "${name}"`);
				return parameters[name];
			},
			getInputData: () => ({ json: item }),
		};
	}

	it.each([
		['an absent field, listing the fields the item has', '={{ $json.productid }}', { productId: 1, qty: 2 }, "`{{ $json.productid }}` gave no value: the input item has no field 'productid' (it has: productId, qty)"],
		['a field in brackets', '={{ $json["unit price"] }}', { price: 1 }, '`{{ $json["unit price"] }}` gave no value: the input item has no field \'unit price\' (it has: price)'],
		['a nested field', '={{ $json.product.id }}', { product: { ean: '1' } }, "`{{ $json.product.id }}` gave no value: the input item has no field 'product.id' ('product' has: ean)"],
		['an item without fields', '={{ $json.price }}', {}, "`{{ $json.price }}` gave no value: the input item has no field 'price' (it has no fields)"],
		['an empty field', '={{ $json.price }}', { price: '' }, "`{{ $json.price }}` gave no value: the input item's field 'price' is empty"],
		['a null field', '={{$json.price}}', { price: null }, "`{{$json.price}}` gave no value: the input item's field 'price' is null"],
	])('names %s', (_case, expression, item, why) => {
		expect(missingBecauseOfExpression(parameterContext({ price: expression }, item), 'price')).toBe(why);
	});

	it('lists at most 10 of the fields, then …', () => {
		const item = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`f${index + 1}`, index]));
		expect(missingBecauseOfExpression(parameterContext({ price: '={{ $json.price }}' }, item), 'price')).toBe(
			"`{{ $json.price }}` gave no value: the input item has no field 'price' (it has: f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, …)",
		);
	});

	it('looks into a resource locator value', () => {
		const locator = { __rl: true, mode: 'id', value: '={{ $json.productid }}' };
		expect(missingBecauseOfExpression(parameterContext({ productId: locator }, { id: 1 }), 'productId')).toBe(
			"`{{ $json.productid }}` gave no value: the input item has no field 'productid' (it has: id)",
		);
	});

	it.each([
		['a value typed in', ''],
		['an expression that computes', '={{ $json.price * 2 }}'],
		['a field that has a value', '={{ $json.price }}'],
		['an absent parameter', undefined],
	])('says nothing of %s', (_case, raw) => {
		const parameters = raw === undefined ? {} : { price: raw };
		expect(missingBecauseOfExpression(parameterContext(parameters, { price: 5 }), 'price')).toBeUndefined();
	});

	it('replaces "is missing" and its format hint in every reader read through the parameter', () => {
		const reading = readingParameter(parameterContext({ id: '={{ $json.productid }}' }, { productId: 1 }), 'id');
		for (const read of [readId, readPrice, readDate, readText, readEan] as Reader[]) {
			let error: NodeOperationError | undefined;
			try {
				read(reading, 'Product ID', undefined);
			} catch (thrown) {
				error = thrown as NodeOperationError;
			}
			expect(error?.message).toBe("Product ID: `{{ $json.productid }}` gave no value: the input item has no field 'productid' (it has: productId) (item 3)");
			expect(error?.description).toBeFalsy();
		}
		// Without an expression to blame, the value is missing as before, with its hint.
		expect(rejection(readId, '')).toBe('Some Field: is missing (item 3)');
	});
});
