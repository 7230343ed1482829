/**
 * The writers' rules of actions/catalogue/fields.ts that need no request: every weight in kilograms
 * (`packageWeightInKg`, exact for grams with up to 3 decimals) and a stock below 0
 * (`stockLevelToSend`, by Options › Negative Stock). The engine tests of Update, Update Many and
 * Sync run the same functions through n8n's engine against the sandbox.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { packageWeightInKg, stockLevelToSend } from '../../../nodes/MarketplaceMerchant/actions/catalogue/fields';
import type { SettingsContext } from '../../../nodes/MarketplaceMerchant/values/labels';

function settings(options: IDataObject = {}): SettingsContext {
	return {
		getNode: () => ({ name: 'Node' }) as INode,
		getItemIndex: () => 2,
		getTimezone: () => 'UTC',
		getNodeParameter: (name: string, fallback?: unknown) => (name.startsWith('options.') ? (options[name.slice('options.'.length)] ?? fallback) : fallback),
	};
}

describe('packageWeightInKg', () => {
	it.each([
		[500, 0.5],
		[300, 0.3],
		[0.001, 0.000001],
		[1234.567, 1.234567],
		[100.1, 0.1001],
		[999999.999, 999.999999],
		[1, 0.001],
	])('%p G goes out as %p KG, exactly', (grams, kilograms) => {
		const fields: IDataObject = { packageWeightValue: grams, packageWeightUnit: 'G' };
		expect(packageWeightInKg(fields)).toBe(`Package Weight ${grams} G sent as ${kilograms} KG, as the service stores kilograms`);
		expect(fields).toEqual({ packageWeightValue: kilograms, packageWeightUnit: 'KG' });
		expect(String(fields.packageWeightValue)).toBe(String(kilograms));
	});

	it('every gram value with up to 3 decimals comes out as the decimal shift of its digits, without float noise', () => {
		for (let milligrams = 1; milligrams <= 200_000; milligrams += 7) {
			const grams = Number((milligrams / 1000).toFixed(3));
			const fields: IDataObject = { packageWeightValue: grams, packageWeightUnit: 'G' };
			packageWeightInKg(fields);
			expect(fields.packageWeightValue).toBe(Number((milligrams / 1_000_000).toFixed(6)));
		}
	});

	it('sends kilograms as given with the unit KG, and drops a unit given without a value, saying so', () => {
		const kilograms: IDataObject = { packageWeightValue: 1.25 };
		expect(packageWeightInKg(kilograms)).toBeUndefined();
		expect(kilograms).toEqual({ packageWeightValue: 1.25, packageWeightUnit: 'KG' });
		const unitOnly: IDataObject = { packageWeightUnit: 'G', stockLevel: 3 };
		expect(packageWeightInKg(unitOnly)).toBe('Package Weight Unit G not sent: no Package Weight Value was given');
		expect(unitOnly).toEqual({ stockLevel: 3 });
		const nothing: IDataObject = { stockLevel: 3 };
		expect(packageWeightInKg(nothing)).toBeUndefined();
		expect(nothing).toEqual({ stockLevel: 3 });
	});
});

describe('stockLevelToSend', () => {
	it('sends 0 and above as given, without reading the option', () => {
		const ctx = settings({ negativeStock: 'not read' });
		expect(stockLevelToSend(ctx, ctx, 'Stock Level', 7)).toEqual({ stockLevel: 7 });
		expect(stockLevelToSend(ctx, ctx, 'Stock Level', -0)).toEqual({ stockLevel: 0 });
		expect(Object.is(stockLevelToSend(ctx, ctx, 'Stock Level', -0).stockLevel, 0)).toBe(true);
	});

	it('sends a stock below 0 as 0 with a note by default, or refuses it under Treat as Invalid', () => {
		expect(stockLevelToSend(settings(), settings(), 'Stock Level', -3)).toEqual({ stockLevel: 0, note: 'Stock Level -3 sent as 0, as the service stores it' });
		expect(stockLevelToSend(settings({ negativeStock: 'zero' }), settings(), 'Stock Level', -3, 'taken').note).toBe('Stock Level -3 taken as 0, as the service stores it');
		expect(() => stockLevelToSend(settings({ negativeStock: 'invalid' }), settings(), 'Row 1 › Stock Level', -3)).toThrow('Row 1 › Stock Level: must be at least 0, got -3 (item 2)');
		expect(() => stockLevelToSend(settings({ negativeStock: 'maybe' }), settings(), 'Stock Level', -3)).toThrow('Options › Negative Stock: "maybe" is not one of zero, invalid (item 2)');
	});
});
