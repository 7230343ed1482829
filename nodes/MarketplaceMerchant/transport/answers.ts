/**
 * postReceive helpers shared by the bulk operations: pairing bulk results with the entries they
 * belong to. Answers themselves are read in decode.ts.
 */
import {
	NodeOperationError,
	type IDataObject,
	type IExecutePaginationFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

/** The shape every bulk result takes in our output, whatever the endpoint's own shape. */
export interface BulkResult extends IDataObject {
	success: boolean;
	error?: string;
	input: IDataObject;
}

/** Pairs product update results (`status`, `errors`, `myProductId`) with the entries sent. */
export function pairProductResults(results: INodeExecutionData[], sent: IDataObject[]): INodeExecutionData[] {
	const byId = new Map(sent.map((entry) => [String(entry.id), entry]));
	return results.map(({ json }, index) => {
		const input = byId.get(String(json.myProductId)) ?? sent[index] ?? {};
		const errors = Array.isArray(json.errors) ? json.errors.map(String) : [];
		const success = String(json.status).toUpperCase() === 'SUCCESS';
		const result: BulkResult = { ...json, success, input };
		if (!success) result.error = errors.join('; ') || `Status ${String(json.status)}`;
		return { json: result };
	});
}

/** Pairs discount schedule/update results (`success`, `data`, `error`) with the entries sent, in order. */
export function pairDiscountResults(results: INodeExecutionData[], sent: IDataObject[]): INodeExecutionData[] {
	return results.map(({ json }, index) => {
		const data = (json.data ?? {}) as IDataObject;
		const failure = (json.error ?? {}) as IDataObject;
		const success = json.success === true || json.success === 'true';
		const result: BulkResult = { ...data, ...failure, success, input: sent[index] ?? {} };
		delete result.errorMessage;
		if (!success) result.error = String(failure.errorMessage ?? 'The service rejected this entry');
		return { json: result };
	});
}

/**
 * Bulk answers report failures per entry inside a 200 answer. By default they come out as items
 * with `success: false` and the reason; with the option "Fail on Item Errors" the node item fails.
 */
export function failOnItemErrorsIfAsked(this: IExecutePaginationFunctions, items: INodeExecutionData[]): INodeExecutionData[] {
	const failOnItemErrors = this.getNodeParameter('options.failOnItemErrors', false) as boolean;
	const failed = items.filter(({ json }) => json.success === false);
	if (failOnItemErrors && failed.length > 0) {
		const examples = failed
			.slice(0, 5)
			.map(({ json }) => `${JSON.stringify(json.input)}: ${String(json.error)}`)
			.join('\n');
		throw new NodeOperationError(this.getNode(), `${failed.length} of ${items.length} entries were rejected by the service`, {
			itemIndex: this.getItemIndex(),
			description: examples,
		});
	}
	return items;
}
