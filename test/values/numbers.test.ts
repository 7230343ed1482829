/**
 * The number readers of values/numbers.ts fed the values of issue 10 (as they come out of sheets
 * and ERPs) and more: what is accepted is read exactly, what is not unambiguous is rejected with a
 * message naming the field and the item and showing the value as given; Options › Number Format
 * stated, never guessed; prices shown so that no reader misreads them.
 */
import { describeValue } from '../../nodes/MarketplaceMerchant/values/labels';
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
import { FIELD, ctx, rejection, type Reader } from './helpers';

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
		// An ERP's oversold item: the sign is read, what goes out for it is the writer's rule (actions/catalogue/fields.ts).
		[
			'readSignedStockLevel',
			readSignedStockLevel,
			[[0, 0], ['1000', 1000], [-3, -3], ['-3', -3], [' -12 ', -12]],
			['1,000', '1.000', '-1.5', -2.5, '2.5', '--3', '- 3', '−3', ...NOT_NUMBERS.filter((value) => value !== '-5')],
		],
		['readPercent', readPercent, [[0, 0], ['20', 20], [12.5, 12.5], ['100', 100]], [-1, '101', '20%', ...NOT_NUMBERS]],
		// Any rate 0 to 100 (the market's: 17 in Bosnia and Herzegovina, 18 and 5 in North Macedonia): the service judges it.
		['readVat', readVat, [[0, 0], [10, 10], ['20', 20], [' 10 ', 10], [17, 17], ['18', 18], [5, 5], ['7.7', 7.7]], [-1, '101', 100.5, '20%', '1.234', ...NOT_NUMBERS]],
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

