/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox code (the service twin tests and the bench run) and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/** The shipping label files behind the label links: a PDF, a ZPL print job, or (v1) a ZIP holding the PDF. */
import { crc32 } from 'node:zlib';
import { renderPdf } from './document-links';
import type { ShipmentRecord } from './order-types';

export type LabelFormat = 'pdf' | 'zpl' | 'zip';

function labelLines(shipment: ShipmentRecord): string[] {
	return [
		`${shipment.carrierName ?? 'Carrier'} shipping label`,
		`Reference: ${shipment.suborderId}`,
		`Order: ${shipment.orderId}`,
		`Boxes: ${shipment.numberOfBoxes ?? 1}`,
		'Marketplace sandbox label',
	];
}

/** A ZPL II label, as thermal printers take it. */
function zpl(shipment: ShipmentRecord): Buffer {
	const fields = labelLines(shipment).map((text, index) => `^FO50,${50 + index * 60}^A0N,40,40^FD${text.replace(/[\^~]/g, ' ')}^FS`);
	return Buffer.from(['^XA', ...fields, `^FO50,400^BCN,120,Y,N,N^FD${shipment.suborderId}^FS`, '^XZ', ''].join('\n'), 'latin1');
}

/** A ZIP archive (stored, not compressed) of one file. */
function zipOf(name: string, content: Buffer): Buffer {
	const fileName = Buffer.from(name, 'utf8');
	const checksum = crc32(content);
	const local = Buffer.alloc(30);
	local.writeUInt32LE(0x04034b50, 0);
	local.writeUInt16LE(20, 4);
	local.writeUInt32LE(checksum, 14);
	local.writeUInt32LE(content.length, 18);
	local.writeUInt32LE(content.length, 22);
	local.writeUInt16LE(fileName.length, 26);
	const central = Buffer.alloc(46);
	central.writeUInt32LE(0x02014b50, 0);
	central.writeUInt16LE(20, 4);
	central.writeUInt16LE(20, 6);
	central.writeUInt32LE(checksum, 16);
	central.writeUInt32LE(content.length, 20);
	central.writeUInt32LE(content.length, 24);
	central.writeUInt16LE(fileName.length, 28);
	const centralOffset = local.length + fileName.length + content.length;
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(1, 8);
	end.writeUInt16LE(1, 10);
	end.writeUInt32LE(central.length + fileName.length, 12);
	end.writeUInt32LE(centralOffset, 16);
	return Buffer.concat([local, fileName, content, central, fileName, end]);
}

export function labelFile(shipment: ShipmentRecord, format: LabelFormat): { body: Buffer; contentType: string } {
	switch (format) {
		case 'zpl':
			return { body: zpl(shipment), contentType: 'application/zpl' };
		case 'zip':
			return { body: zipOf(`${shipment.suborderId}.pdf`, renderPdf(labelLines(shipment))), contentType: 'application/zip' };
		default:
			return { body: renderPdf(labelLines(shipment)), contentType: 'application/pdf' };
	}
}
