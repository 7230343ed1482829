/**
 * Reference tables of the seeded data and the seeding of warehouses and product types.
 * Products are generated lazily (products.ts); invoices in invoice-factory.ts; discounts in
 * discounts.ts.
 */
import { Rng } from './random';
import type { MerchantDetails, ProductTypeRecord, WarehouseRecord, WeightUnit } from './types';

export interface Brand {
	id: number;
	name: string;
}

export interface ProductTypeTemplate extends ProductTypeRecord {
	code: string;
	vat: number;
	categories: string[];
	nouns: string[];
	brands: Brand[];
	/** Price range with VAT, RSD. */
	price: [number, number];
	weightUnit: WeightUnit;
	weight: [number, number];
}

const BRANDS = {
	nike: { id: 29785, name: 'Nike' },
	adidas: { id: 29786, name: 'Adidas' },
	puma: { id: 30112, name: 'Puma' },
	samsung: { id: 11204, name: 'Samsung' },
	apple: { id: 11020, name: 'Apple' },
	xiaomi: { id: 11877, name: 'Xiaomi' },
	lenovo: { id: 12450, name: 'Lenovo' },
	hp: { id: 12451, name: 'HP' },
	sony: { id: 13001, name: 'Sony' },
	lg: { id: 13002, name: 'LG' },
	philips: { id: 14310, name: 'Philips' },
	tefal: { id: 14311, name: 'Tefal' },
	gorenje: { id: 14390, name: 'Gorenje' },
	bosch: { id: 14402, name: 'Bosch' },
	lego: { id: 21500, name: 'LEGO' },
	hasbro: { id: 21530, name: 'Hasbro' },
	laguna: { id: 40011, name: 'Laguna' },
	vulkan: { id: 40012, name: 'Vulkan izdavaštvo' },
	nivea: { id: 35001, name: 'Nivea' },
	loreal: { id: 35002, name: "L'Oréal" },
	royalCanin: { id: 36100, name: 'Royal Canin' },
	capriolo: { id: 37010, name: 'Capriolo' },
	makita: { id: 38001, name: 'Makita' },
	ikea: { id: 39001, name: 'IKEA' },
	casio: { id: 39500, name: 'Casio' },
	marketplace: { id: 10001, name: 'Marketplace' },
} satisfies Record<string, Brand>;

export const PRODUCT_TYPES: ProductTypeTemplate[] = [
	{ code: 'SHO', en: 'Shoes', local: 'Obuća', vat: 20, categories: ['Moda', 'Obuća'], nouns: ['patike za trčanje', 'patike', 'planinarske cipele'], brands: [BRANDS.nike, BRANDS.adidas, BRANDS.puma], price: [3990, 16990], weightUnit: 'KG', weight: [0.6, 1.6] },
	{ code: 'TSH', en: 'T-shirts', local: 'Majice', vat: 20, categories: ['Moda', 'Odeća'], nouns: ['pamučna majica', 'sportska majica', 'polo majica'], brands: [BRANDS.nike, BRANDS.adidas, BRANDS.puma], price: [1290, 4990], weightUnit: 'G', weight: [150, 350] },
	{ code: 'PHN', en: 'Smartphones', local: 'Mobilni telefoni', vat: 20, categories: ['Elektronika', 'Telefoni'], nouns: ['mobilni telefon', 'pametni telefon'], brands: [BRANDS.samsung, BRANDS.apple, BRANDS.xiaomi], price: [14990, 159990], weightUnit: 'G', weight: [300, 600] },
	{ code: 'LAP', en: 'Laptops', local: 'Laptop računari', vat: 20, categories: ['Elektronika', 'Računari'], nouns: ['laptop', 'ultrabook'], brands: [BRANDS.lenovo, BRANDS.hp, BRANDS.apple], price: [49990, 249990], weightUnit: 'KG', weight: [1.4, 3.2] },
	{ code: 'TV', en: 'Televisions', local: 'Televizori', vat: 20, categories: ['Elektronika', 'TV i video'], nouns: ['Smart TV', 'OLED televizor', 'LED televizor'], brands: [BRANDS.samsung, BRANDS.lg, BRANDS.sony, BRANDS.philips], price: [29990, 299990], weightUnit: 'KG', weight: [6, 28] },
	{ code: 'HPH', en: 'Headphones', local: 'Slušalice', vat: 20, categories: ['Elektronika', 'Audio'], nouns: ['bežične slušalice', 'bubice', 'gejmerske slušalice'], brands: [BRANDS.sony, BRANDS.apple, BRANDS.xiaomi], price: [1990, 49990], weightUnit: 'G', weight: [90, 450] },
	{ code: 'KIT', en: 'Small kitchen appliances', local: 'Mali kućni aparati', vat: 20, categories: ['Kuća', 'Kuhinja'], nouns: ['blender', 'aparat za kafu', 'toster', 'mikser'], brands: [BRANDS.philips, BRANDS.tefal, BRANDS.gorenje, BRANDS.bosch], price: [2490, 39990], weightUnit: 'KG', weight: [0.8, 6] },
	{ code: 'CKW', en: 'Cookware', local: 'Posuđe', vat: 20, categories: ['Kuća', 'Kuhinja'], nouns: ['tiganj', 'set šerpi', 'lonac'], brands: [BRANDS.tefal, BRANDS.gorenje], price: [1490, 19990], weightUnit: 'KG', weight: [0.5, 5] },
	{ code: 'BOK', en: 'Books', local: 'Knjige', vat: 10, categories: ['Knjige', 'Beletristika'], nouns: ['roman', 'zbirka priča', 'kuvar', 'biografija'], brands: [BRANDS.laguna, BRANDS.vulkan], price: [799, 2999], weightUnit: 'G', weight: [200, 900] },
	{ code: 'TOY', en: 'Toys', local: 'Igračke', vat: 20, categories: ['Deca', 'Igračke'], nouns: ['kocke za slaganje', 'set figurica', 'autić na daljinski'], brands: [BRANDS.lego, BRANDS.hasbro], price: [990, 24990], weightUnit: 'G', weight: [200, 2500] },
	{ code: 'BGM', en: 'Board games', local: 'Društvene igre', vat: 20, categories: ['Deca', 'Igre'], nouns: ['društvena igra', 'kartaška igra'], brands: [BRANDS.hasbro], price: [1490, 7990], weightUnit: 'G', weight: [400, 1800] },
	{ code: 'COS', en: 'Cosmetics', local: 'Kozmetika', vat: 20, categories: ['Lepota', 'Nega'], nouns: ['krema za lice', 'losion za telo', 'šampon'], brands: [BRANDS.nivea, BRANDS.loreal], price: [399, 3990], weightUnit: 'G', weight: [100, 600] },
	{ code: 'PET', en: 'Pet food', local: 'Hrana za kućne ljubimce', vat: 10, categories: ['Kućni ljubimci', 'Hrana'], nouns: ['suva hrana za pse', 'hrana za mačke'], brands: [BRANDS.royalCanin], price: [690, 12990], weightUnit: 'KG', weight: [0.4, 15] },
	{ code: 'BIC', en: 'Bicycles', local: 'Bicikli', vat: 20, categories: ['Sport', 'Bicikli'], nouns: ['brdski bicikl', 'gradski bicikl', 'dečiji bicikl'], brands: [BRANDS.capriolo], price: [14990, 129990], weightUnit: 'KG', weight: [9, 18] },
	{ code: 'TOL', en: 'Power tools', local: 'Električni alati', vat: 20, categories: ['Alati', 'Električni alati'], nouns: ['aku bušilica', 'ugaona brusilica', 'ubodna testera'], brands: [BRANDS.bosch, BRANDS.makita], price: [4990, 39990], weightUnit: 'KG', weight: [1.2, 4.5] },
	{ code: 'FUR', en: 'Furniture', local: 'Nameštaj', vat: 20, categories: ['Kuća', 'Nameštaj'], nouns: ['radni sto', 'kancelarijska stolica', 'polica za knjige'], brands: [BRANDS.ikea], price: [4990, 59990], weightUnit: 'KG', weight: [5, 40] },
	{ code: 'WAT', en: 'Watches', local: 'Satovi', vat: 20, categories: ['Moda', 'Satovi'], nouns: ['ručni sat', 'pametni sat'], brands: [BRANDS.casio, BRANDS.samsung, BRANDS.xiaomi], price: [2990, 59990], weightUnit: 'G', weight: [80, 300] },
	{ code: 'GFT', en: 'Gift cards', local: 'Poklon kartice', vat: 0, categories: ['Poklon kartice'], nouns: ['poklon kartica'], brands: [BRANDS.marketplace], price: [1000, 10000], weightUnit: 'G', weight: [10, 20] },
];

export const PRODUCT_TYPE_NAMES: ProductTypeRecord[] = PRODUCT_TYPES.map(({ en, local }) => ({ en, local }));

export const PRODUCT_FEATURES = [
	'Pouzdan izbor za svakodnevnu upotrebu',
	'Novi model sa produženom garancijom',
	'Odličan odnos cene i kvaliteta',
	'Najprodavaniji proizvod u kategoriji',
	'Lagan i izdržljiv',
];

export const FIRST_NAMES = ['Marko', 'Jelena', 'Nikola', 'Ana', 'Stefan', 'Milica', 'Luka', 'Jovana', 'Nemanja', 'Ivana', 'Miloš', 'Teodora', 'Aleksandar', 'Katarina', 'Đorđe', 'Sanja'];
export const LAST_NAMES = ['Petrović', 'Jovanović', 'Nikolić', 'Marković', 'Đorđević', 'Stojanović', 'Ilić', 'Stanković', 'Pavlović', 'Milošević', 'Popović', 'Kostić', 'Savić', 'Živković'];
export const CITIES: Array<{ city: string; postcode: string; streets: string[] }> = [
	{ city: 'Beograd', postcode: '11000', streets: ['Knez Mihailova', 'Bulevar kralja Aleksandra', 'Nemanjina', 'Cara Dušana', 'Resavska'] },
	{ city: 'Novi Sad', postcode: '21000', streets: ['Bulevar oslobođenja', 'Zmaj Jovina', 'Futoška', 'Dunavska'] },
	{ city: 'Niš', postcode: '18000', streets: ['Obrenovićeva', 'Vožda Karađorđa', 'Bulevar Nemanjića'] },
	{ city: 'Kragujevac', postcode: '34000', streets: ['Kralja Petra I', 'Save Kovačevića'] },
	{ city: 'Subotica', postcode: '24000', streets: ['Korzo', 'Matije Korvina'] },
	{ city: 'Čačak', postcode: '32000', streets: ['Gospodar Jovanova', 'Pivarska'] },
	{ city: 'Zrenjanin', postcode: '23000', streets: ['Kralja Aleksandra I Karađorđevića', 'Cara Lazara'] },
];

export const CORRECTION_REASONS = [
	'Povraćaj robe',
	'Reklamacija',
	'Ispravka cene',
	'Otkazana stavka porudžbine',
];

/** The platform's fulfilment centre: the warehouse of FBA orders. */
export const PLATFORM_FULFILMENT_CENTRE = { warehouseId: 1, street: 'Autoput za Zagreb 35', city: 'Šimanovci' };

export const MERCHANT_DETAILS: MerchantDetails = {
	name: 'Sandbox Trgovina d.o.o.',
	businessSpaceCode: 'PJ-0042',
	taxIdentificationNumber: '109876543',
	identificationNumber: '21345678',
	taxAdministrationId: '1142/2.3.4',
	cashier: 'Web prodavnica',
	contactDetails: { phone: '+381 11 4567 890', email: 'prodaja@sandbox-trgovina.example' },
	address: { street: 'Bulevar Mihajla Pupina 10', city: 'Beograd' },
};

const WAREHOUSE_CHOICES: Array<Omit<WarehouseRecord, 'id' | 'defaultAddress'>> = [
	{ warehouseName: 'Centralni magacin Beograd', street: 'Bulevar Mihajla Pupina 10', city: 'Beograd' },
	{ warehouseName: 'Magacin Novi Sad', street: 'Futoški put 22', city: 'Novi Sad' },
	{ warehouseName: 'Magacin Niš', street: 'Bulevar 12. februara 84', city: 'Niš' },
];

/** Two or three warehouses, exactly one of them the default address. */
export function seedWarehouses(seed: number): WarehouseRecord[] {
	const rng = new Rng(seed ^ 0x5eed);
	const count = rng.chance(0.5) ? 2 : 3;
	const defaultIndex = rng.int(0, count - 1);
	return WAREHOUSE_CHOICES.slice(0, count).map((choice, index) => ({
		id: 4101 + index,
		warehouseName: choice.warehouseName,
		defaultAddress: index === defaultIndex,
		street: choice.street,
		city: choice.city,
	}));
}
