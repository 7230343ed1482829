/**
 * Product › Publish and Unpublish (orders-and-shipments.md "Publish / unpublish"): every input
 * item names products (one ID, a list, or an array), and the run sends all of them at once, as the
 * service takes them: one request for the batch (more only above its size), answered by a
 * progress id, applied later. Routing runs each item on its own, so this is a custom operation
 * (`run`), as the bulk operations are. The request is not idempotent as far as the package can
 * tell (each one starts a job and a report): it is never resent after a failure that may have
 * been applied (a 5xx, a timeout, a cut connection); the items say to check the products' status.
 */
import {
	NodeApiError,
	NodeOperationError,
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { decodeAnswer } from '../../answers/read';
import { LIMITS, PATHS } from '../../transport/endpoints';
import { asNodeError, firstOf, joinSentences } from '../../transport/errors';
import { isRefusal, outcomeUnknownText, refusalError, uncertainOutcome } from '../../transport/outcomes';
import { sendAuthenticated, sendSettingsOf, type Route } from '../../transport/send';
import { pickedProductsField, readListedAndPicked, resolveProductIds } from '../products/locator';
import { booleanField } from '../../families/fields';
import { invalidInput } from '../../values/labels';
import { readFlag } from '../../values/values';
import { readBasicProducts } from '../products/catalogue';
import { ItemContext } from '../bulk/entries';
import { itemFailure } from '../common';
import type { OperationModule } from '../contract';

type Action = 'publish' | 'unpublish';

/** The product group's limits (not stated for these endpoints: the stricter reading); `idempotent: false`: never resent after it may have acted. */
const PUBLICATION_ROUTE: Route = { group: 'catalogue', idempotent: false };

export const PRODUCT_IDS_LABEL = 'Product IDs';

const WORDS: Record<Action, { verb: string; path: string; next: string }> = {
	publish: {
		verb: 'Publish',
		path: PATHS.productPublish,
		next: "The marketplace publishes the products in the background and e-mails the merchant account a report naming any ID it could not publish. A product is visible to customers once its status is PUBLISHED: Product › Get Many shows it (Filters › Status).",
	},
	unpublish: {
		verb: 'Unpublish',
		path: PATHS.productUnpublish,
		next: 'The marketplace unpublishes the products in the background and e-mails the merchant account a report naming any ID it could not unpublish. A product is hidden from customers once its status is UNPUBLISHED (UNPUBLISHED_OOS while out of stock): Product › Get Many shows it (Filters › Status).',
	},
};

/** One item's products: the Product IDs (one ID, a comma- or line-separated list, or an array from an expression), then the picked ones; EANs looked up. */
async function readProducts(exec: IExecuteFunctions, ctx: ItemContext): Promise<Array<{ productId: number; name: string | null }>> {
	const refs = readListedAndPicked(ctx, {
		label: PRODUCT_IDS_LABEL,
		value: ctx.getNodeParameter('productIds', ''),
		empty: { problem: 'no product IDs given', hint: 'Give one product ID, a list such as 100001, 100002, or an expression returning an array of IDs, or pick products under Products' },
	});
	const ids = await resolveProductIds(exec, refs, ctx);
	return ids.map((productId, index) => ({ productId, name: refs[index].name ?? null }));
}

const CHECK_PRODUCTS = 'Check Products First';

/**
 * Check Products First (read from the first item: one catalogue read for the run): the catalogue's
 * basic products are read before anything is sent, and an item naming an ID the account does not
 * have fails, instead of the service reporting it later by e-mail. Its IDs are not sent.
 */
async function checkAgainstCatalogue(
	exec: IExecuteFunctions,
	idsOfItem: Array<number[] | undefined>,
	failed: Map<number, NodeApiError | NodeOperationError>,
	continueOnFail: boolean,
): Promise<void> {
	const first = new ItemContext(exec, 0);
	if (idsOfItem.every((ids) => ids === undefined) || !readFlag(first, 'checkProducts', CHECK_PRODUCTS, false)) return;
	const known = new Set((await readBasicProducts(exec, sendSettingsOf(first))).map((product) => Number(product.id)));
	idsOfItem.forEach((ids, itemIndex) => {
		const unknown = (ids ?? []).filter((id) => !known.has(id));
		if (unknown.length === 0) return;
		const problem = invalidInput(
			new ItemContext(exec, itemIndex),
			PRODUCT_IDS_LABEL,
			`the catalogue has no product with ID ${unknown.join(', ')}`,
			'Check the IDs (Product › Get Many lists them), or pick the products from the list under Products',
		);
		if (!continueOnFail) throw problem;
		failed.set(itemIndex, problem);
		idsOfItem[itemIndex] = undefined;
	});
}

/** A request's outcome, for the items whose IDs it carried. */
type Outcome = { ok: true; progressId: string | null } | { ok: false; error: NodeApiError | NodeOperationError };

/** A failure after the request went out: the IDs' status is the only way to know what happened (transport/outcomes.ts). */
function failureOf(exec: IExecuteFunctions, action: Action, ids: number[], error: unknown): NodeApiError | NodeOperationError {
	const failure = uncertainOutcome(error);
	const products = `product${ids.length === 1 ? '' : 's'} ${firstOf(ids.map(String), 10)}`;
	if (failure === undefined && isRefusal(error)) {
		return refusalError(exec.getNode(), error, {
			subject: `The ${action} request of ${products}`,
			notDone: 'accepted',
			next: 'Check the product IDs (Product › Get Many) and their status.',
		});
	}
	const nodeError = asNodeError(exec.getNode(), error);
	if (failure === undefined) return nodeError;
	const seen = `The service applies ${action === 'publish' ? 'publishing' : 'unpublishing'} later, so its outcome shows only in the products' status.`;
	const words = outcomeUnknownText(`the ${action} request`, failure, seen, `Check the status of ${products} (Product › Get Many, Filters › Status) before running it again.`);
	nodeError.message = words.message;
	nodeError.description = joinSentences(words.description, typeof nodeError.description === 'string' ? nodeError.description : '');
	return nodeError;
}

/** Sends the distinct IDs of the run, in requests of at most the size limit, one after the other: each request's outcome. */
async function sendAll(exec: IExecuteFunctions, action: Action, ids: number[]): Promise<Array<{ ids: Set<number>; outcome: Outcome }>> {
	const settings = sendSettingsOf(new ItemContext(exec, 0));
	const sent: Array<{ ids: Set<number>; outcome: Outcome }> = [];
	for (let start = 0; start < ids.length; start += LIMITS.idsPerPublicationRequest) {
		const chunk = ids.slice(start, start + LIMITS.idsPerPublicationRequest);
		let outcome: Outcome;
		try {
			const answer = await sendAuthenticated(exec, PUBLICATION_ROUTE, { method: 'POST', url: WORDS[action].path, body: chunk, json: true }, settings);
			const body = decodeAnswer(exec, answer, ANSWERS.progress) as IDataObject | undefined;
			const id = body?.id;
			outcome = { ok: true, progressId: id === undefined || id === null ? null : String(id) };
		} catch (error) {
			outcome = { ok: false, error: failureOf(exec, action, chunk, error) };
		}
		sent.push({ ids: new Set(chunk), outcome });
	}
	return sent;
}

/**
 * Every item's IDs read before anything is sent (On Error = Stop: one invalid item sends nothing),
 * the run's distinct IDs sent together, then one output item per input item: its IDs, the
 * progress id of the request that carried them and what happens next; or its error.
 */
async function runPublication(exec: IExecuteFunctions, action: Action): Promise<INodeExecutionData[][]> {
	const itemCount = exec.getInputData().length;
	const continueOnFail = exec.continueOnFail();
	const idsOfItem: Array<number[] | undefined> = [];
	const productsOfItem: Array<Array<{ productId: number; name: string | null }>> = [];
	const failed = new Map<number, NodeApiError | NodeOperationError>();
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			productsOfItem[itemIndex] = await readProducts(exec, new ItemContext(exec, itemIndex));
			idsOfItem[itemIndex] = productsOfItem[itemIndex].map(({ productId }) => productId);
		} catch (error) {
			const problem = itemFailure(exec.getNode(), error, itemIndex);
			if (!continueOnFail) throw problem;
			failed.set(itemIndex, problem);
		}
	}
	await checkAgainstCatalogue(exec, idsOfItem, failed, continueOnFail);
	const distinct = [...new Set(idsOfItem.flatMap((ids) => ids ?? []))];
	const requests = distinct.length === 0 ? [] : await sendAll(exec, action, distinct);

	const outputs: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		const ids = idsOfItem[itemIndex];
		const carried = ids === undefined ? [] : requests.filter((request) => ids.some((id) => request.ids.has(id)));
		const error = failed.get(itemIndex) ?? carried.map(({ outcome }) => (outcome.ok ? undefined : outcome.error)).find(Boolean);
		if (error) {
			error.context.itemIndex ??= itemIndex;
			// Under the default On Error the run fails here, after every request of the run went out.
			if (!continueOnFail) throw error;
			outputs.push({ json: {}, error, pairedItem: { item: itemIndex } });
			continue;
		}
		const progressIds = carried.map(({ outcome }) => (outcome as Extract<Outcome, { ok: true }>).progressId);
		outputs.push({
			json: { action, productIds: ids ?? [], products: productsOfItem[itemIndex] ?? [], progressId: progressIds[0] ?? null, progressIds, next: WORDS[action].next },
			pairedItem: { item: itemIndex },
		});
	}
	return [outputs];
}

/** Publish or Unpublish: its option, its one field and its run. */
export function publicationOperation(action: Action, option: Omit<INodePropertyOptions, 'value'>): OperationModule {
	return {
		option: { ...option, value: action },
		fields: updateDisplayOptions({ show: { resource: ['product'], operation: [action] } }, [
			{
				displayName: PRODUCT_IDS_LABEL,
				name: 'productIds',
				type: 'string',
				default: '',
				placeholder: 'e.g. 100001, 100002',
				description: `The products to ${action} (the API calls their IDs merchantInventoryId): one ID, IDs separated by commas or new lines, or an expression returning an array; or leave it empty and pick them under Products. The products of all input items go out in one request.`,
			},
			pickedProductsField(`Products to ${action} picked one by one (from the list, searched by name, SKU or EAN; by ID; or by EAN), added to the Product IDs above; their names come out with the result`),
			booleanField(
				CHECK_PRODUCTS,
				'checkProducts',
				`Whether to read the catalogue first (one request per 2,500 products) and fail an item naming a product ID the account does not have before anything is sent, instead of the service reporting it later by e-mail`,
			),
		]),
		run: async function (this: IExecuteFunctions) {
			return await runPublication(this, action);
		},
	};
}
