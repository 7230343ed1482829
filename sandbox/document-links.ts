/**
 * Pre-signed, time-limited links to document PDFs, as the live service hands out (they expire
 * about 10 minutes after issue), and the small PDFs they serve.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const LINK_LIFETIME_MS = 10 * 60_000;
export const DOCUMENT_PATH_PREFIX = '/__documents/';

export type LinkCheck = { ok: true } | { ok: false; reason: string };

export class DocumentLinkSigner {
	private readonly key = randomBytes(32);

	link(baseUrl: string, documentId: string, issuedAtMs: number): string {
		return this.signedUrl(baseUrl, DOCUMENT_PATH_PREFIX, documentId, 'pdf', documentId, issuedAtMs);
	}

	/** A link to `<prefix><id>.<extension>`, signed for `signedId` (labels sign their own kind of id). */
	signedUrl(baseUrl: string, prefix: string, id: string, extension: string, signedId: string, issuedAtMs: number): string {
		const expires = Math.floor((issuedAtMs + LINK_LIFETIME_MS) / 1000);
		const signature = this.sign(signedId, String(expires));
		return `${baseUrl}${prefix}${encodeURIComponent(id)}.${extension}?expires=${expires}&signature=${signature}`;
	}

	check(documentId: string, expires: string | null, signature: string | null, nowMs: number): LinkCheck {
		if (!expires || !signature || !/^\d+$/.test(expires)) return { ok: false, reason: 'Missing or invalid link signature' };
		const expected = Buffer.from(this.sign(documentId, expires));
		const given = Buffer.from(signature);
		if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
			return { ok: false, reason: 'Missing or invalid link signature' };
		}
		if (Number(expires) * 1000 < nowMs) return { ok: false, reason: 'Link expired' };
		return { ok: true };
	}

	private sign(documentId: string, expires: string): string {
		return createHmac('sha256', this.key).update(`${documentId}\n${expires}`).digest('hex');
	}
}

/** PDF string literals take ASCII only (Đ has no decomposition); parentheses and backslashes are escaped. */
function pdfText(text: string): string {
	return text
		.replace(/Đ/g, 'Dj')
		.replace(/đ/g, 'dj')
		.normalize('NFD')
		.replace(/[^\x20-\x7e]/g, '')
		.replace(/[\\()]/g, (char) => `\\${char}`);
}

/** A one-page PDF 1.4 with the given lines, with a correct cross-reference table. */
export function renderPdf(lines: string[]): Buffer {
	const content = [
		'BT',
		'/F1 14 Tf',
		'16 TL',
		'56 780 Td',
		...lines.map((text) => `(${pdfText(text)}) Tj T*`),
		'ET',
	].join('\n');
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
		`<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`,
	];
	let pdf = '%PDF-1.4\n';
	const offsets: number[] = [];
	objects.forEach((body, index) => {
		offsets.push(Buffer.byteLength(pdf));
		pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
	});
	const xrefOffset = Buffer.byteLength(pdf);
	pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
	pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
	return Buffer.from(pdf, 'latin1');
}
