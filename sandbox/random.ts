// Module-level aliases: products are generated on every read, and under jest's vm context each
// lookup of a global (Math, String) is several times slower than a local.
const { imul, floor, round } = Math;
const { fromCharCode } = String;

/** Small deterministic random source (mulberry32), so that one seed always gives the same data. */
export class Rng {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0;
	}

	/** Uniform in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = imul(t ^ (t >>> 15), t | 1);
		t ^= t + imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/** Integer in [min, max], both inclusive. */
	int(min: number, max: number): number {
		return min + floor(this.next() * (max - min + 1));
	}

	chance(probability: number): boolean {
		return this.next() < probability;
	}

	pick<T>(list: readonly T[]): T {
		return list[floor(this.next() * list.length)];
	}

	digits(length: number): string {
		let text = '';
		for (let i = 0; i < length; i++) text += this.int(0, 9);
		return text;
	}

	letters(length: number): string {
		let text = '';
		for (let i = 0; i < length; i++) text += fromCharCode(65 + this.int(0, 25));
		return text;
	}

	hex(length: number): string {
		let text = '';
		for (let i = 0; i < length; i++) text += this.int(0, 15).toString(16);
		return text;
	}

	uuid(): string {
		const variant = (8 + this.int(0, 3)).toString(16);
		return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-${variant}${this.hex(3)}-${this.hex(12)}`;
	}
}

/** Mixes numbers into one 32-bit seed (murmur3 finalizer per part). */
export function mixSeed(...parts: number[]): number {
	let hash = 0x811c9dc5;
	for (const part of parts) {
		let value = imul((part | 0) ^ hash, 0x85ebca6b);
		value ^= value >>> 13;
		value = imul(value, 0xc2b2ae35);
		value ^= value >>> 16;
		hash = (hash ^ value) >>> 0;
		hash = imul(hash, 0x01000193) >>> 0;
	}
	return hash >>> 0;
}

export function roundMoney(value: number): number {
	return round(value * 100) / 100;
}
