/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox code (the service twin tests and the bench run) and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * Answers too large to hold: generated while they are sent, so the sandbox itself never holds more
 * than one chunk, and stopped as soon as the client hangs up.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';

const GZIP_BOMB_DEFAULT_BYTES = 1024 ** 3;
const HUGE_JSON_DEFAULT_BYTES = 300 * 1000 * 1000;

/** One gzip member inflating to 16 MiB of `0,`; gzip members may be concatenated into one stream. */
const BOMB_MEMBER_BYTES = 16 * 1024 * 1024;
let bombMember: Buffer | undefined;

/**
 * A JSON-looking list (`[0,0,0,…`) of `sizeBytes` when inflated, as concatenated gzip members:
 * about 1/1000 of that on the wire.
 */
export async function* gzipBomb(sizeBytes = GZIP_BOMB_DEFAULT_BYTES): AsyncGenerator<Buffer> {
	bombMember ??= gzipSync(Buffer.from('0,'.repeat(BOMB_MEMBER_BYTES / 2)), { level: 9 });
	yield gzipSync('[');
	for (let sent = 1; sent < sizeBytes; sent += BOMB_MEMBER_BYTES) yield bombMember;
}

/** A valid-looking JSON list of product-like objects, `sizeBytes` long, in 1 MiB chunks. */
export async function* hugeJsonList(sizeBytes = HUGE_JSON_DEFAULT_BYTES): AsyncGenerator<Buffer> {
	const element = JSON.stringify({ id: 1, name: 'x'.repeat(200), ean: '0000000000000', basePrice: 1 });
	const chunk = Buffer.from(`${element},`.repeat(Math.ceil((1024 * 1024) / (element.length + 1))));
	yield Buffer.from('[');
	let sent = 1;
	for (; sent + chunk.length < sizeBytes; sent += chunk.length) yield chunk;
	yield Buffer.from(`${element}]`);
}

/** Pause between the bytes of a trickling answer: short enough that no idle timeout fires. */
const TRICKLE_INTERVAL_MS = 250;

/** A JSON list `[   …]` whose `sizeBytes` spaces (default 400, about 100 s) come one every 250 ms. */
export async function* trickle(sizeBytes = 400): AsyncGenerator<Buffer> {
	yield Buffer.from('[');
	for (let sent = 0; sent < sizeBytes; sent++) {
		await sleep(TRICKLE_INTERVAL_MS);
		yield Buffer.from(' ');
	}
	yield Buffer.from(']');
}
