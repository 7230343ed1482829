/**
 * A merchant's sheet of new products, as Product › Import reads it from input items (one row per
 * product, every field a new EAN needs): the bench (bench/rows/import.ts) and the end-to-end
 * checks (e2e/import-checks.ts) import the same rows.
 */

/** The EAN-13 check digit of the first twelve digits. */
export function ean13CheckDigit(twelve: string): string {
	let sum = 0;
	for (let index = 0; index < 12; index++) sum += Number(twelve[index]) * (index % 2 === 0 ? 1 : 3);
	return String((10 - (sum % 10)) % 10);
}

/** `count` rows whose EANs are `prefix` and the row number (twelve digits) with their check digit: a prefix no other run used gives new products. */
export function newProductRows(prefix: string, count: number): Array<Record<string, string | number>> {
	return Array.from({ length: count }, (_, index) => {
		const twelve = `${prefix}${String(index).padStart(12 - prefix.length, '0')}`;
		return {
			Name: `Proizvod ${index}`,
			EAN: `${twelve}${ean13CheckDigit(twelve)}`,
			Text: 'Opis proizvoda',
			Image: `https://img.example/${index}.jpg`,
			Brand: 'Marka',
			Gallery: `https://img.example/g${index}.jpg`,
			Price: `${100 + index}.90`,
			Vat: 20,
			Stock: index % 7,
			SKU: `SKU-${prefix}-${index}`,
			Weight: '0.5',
			Unit: 'KG',
		};
	});
}
