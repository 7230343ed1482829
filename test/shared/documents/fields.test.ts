/**
 * The documents family's fields (shared/documents/fields.ts, and the operations' range fields of
 * actions/documents/fields.ts) as the editor shows them, in the node and the trigger; the range reader.
 */
import {
	NodeHelpers,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { readDocumentRange } from '../../../nodes/MarketplaceMerchant/shared/documents/fields';
import { TestNodeTypes, packageNodeTypeName } from '../../harness';

const NODE = 'marketplaceMerchant';

describe('documents fields as the editor shows them', () => {
	const nodeTypes = new TestNodeTypes();
	const descriptionOf = (type: string) => nodeTypes.getByNameAndVersion(packageNodeTypeName(type), 1).description;
	const node = descriptionOf(NODE);
	const trigger = descriptionOf('marketplaceMerchantTrigger');

	/** The properties n8n shows for these parameters (n8n's own displayOptions check, as the panel does). */
	function shown(description: INodeTypeDescription, parameters: INodeParameters): INodeProperties[] {
		return description.properties.filter((property) => NodeHelpers.displayParameter(parameters, property, { typeVersion: 1 }, description));
	}

	function shownNamed(description: INodeTypeDescription, parameters: INodeParameters, name: string): INodeProperties {
		const matches = shown(description, parameters).filter((property) => property.name === name);
		expect(matches).toHaveLength(1);
		return matches[0];
	}

	/** The options of a collection n8n offers under "Add Option", given the values already set in it. */
	function offeredOptions(collection: INodeProperties, values: IDataObject): string[] {
		return (collection.options as INodeProperties[])
			.filter((option) => NodeHelpers.displayParameterPath({ options: values } as INodeParameters, option, 'options', { typeVersion: 1 }, node))
			.map((option) => option.name);
	}

	it.each(['invoice', 'invoiceCorrection'])('%s Get Many: range, type, Return All / Limit and Simplify (on) at the top level', (resource) => {
		const parameters = { resource, operation: 'getMany', returnAll: false };
		expect(shown(node, parameters).map((property) => property.name)).toEqual([
			'resource',
			'operation',
			'dateFrom',
			'dateTo',
			'invoiceType',
			'returnAll',
			'limit',
			'simplify',
			'options',
			'requestOptions',
		]);
		expect(shownNamed(node, parameters, 'simplify').default).toBe(true);
		expect(shownNamed(node, parameters, 'returnAll').default).toBe(false);
		expect(shown(node, { ...parameters, returnAll: true }).map((property) => property.name)).not.toContain('limit');
		expect(shownNamed(node, parameters, 'dateFrom').default).toBe('={{ $now.minus({ days: 7 }).startOf("day").toISO() }}');
		expect(shownNamed(node, parameters, 'dateTo').default).toBe('={{ $now.toISO() }}');
	});

	it('offers "Put Output File in Field" only with Attach Raw XML (Get Many) or Download PDFs (Get Document Links)', () => {
		const getManyOptions = shownNamed(node, { resource: 'invoice', operation: 'getMany' }, 'options');
		expect(offeredOptions(getManyOptions, {})).toEqual(['attachRawXml', 'downloadPdfs', 'responseFormat']);
		expect(offeredOptions(getManyOptions, { attachRawXml: false })).toEqual(['attachRawXml', 'downloadPdfs', 'responseFormat']);
		expect(offeredOptions(getManyOptions, { attachRawXml: true })).toEqual(['attachRawXml', 'binaryPropertyName', 'downloadPdfs', 'responseFormat']);
		expect(offeredOptions(getManyOptions, { downloadPdfs: true })).toEqual(['attachRawXml', 'downloadPdfs', 'pdfBinaryPropertyName', 'responseFormat']);

		const linkOptions = shownNamed(node, { resource: 'invoiceCorrection', operation: 'getDocumentLinks' }, 'options');
		expect(offeredOptions(linkOptions, {})).toEqual(['downloadPdfs']);
		expect(offeredOptions(linkOptions, { downloadPdfs: true })).toEqual(['downloadPdfs', 'binaryPropertyName']);
	});

	it('has one Invoice Type field, with one value for all, in the node and the trigger', () => {
		const typeFields = [
			shownNamed(node, { resource: 'invoice', operation: 'getMany' }, 'invoiceType'),
			shownNamed(node, { resource: 'invoiceCorrection', operation: 'getDocumentLinks' }, 'invoiceType'),
			shownNamed(trigger, { event: 'any' }, 'invoiceType'),
		];
		for (const field of typeFields) {
			expect(field.displayName).toBe('Invoice Type');
			expect(field.default).toBe('all');
			expect(field.options).toEqual(typeFields[0].options);
		}
	});

	it.each(['invoice', 'invoiceCorrection', 'any', 'productChanged'])('trigger on %s: Simplify at the top level, on by default', (event) => {
		expect(shownNamed(trigger, { event }, 'simplify').default).toBe(true);
	});
});

describe('the range reader', () => {
	it('reads a bare To day as the whole day', () => {
		const ctx = { getNode: () => ({ name: 'Node' }) as INode, getTimezone: () => 'UTC' };
		expect(readDocumentRange(ctx, '01/03/2025', '31/03/2025')).toEqual({
			from: new Date('2025-03-01T00:00:00.000Z'),
			to: new Date('2025-03-31T23:59:59.999Z'),
		});
	});
});
