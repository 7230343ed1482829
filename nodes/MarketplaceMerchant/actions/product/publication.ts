/**
 * Product › Publish and Unpublish (orders-and-shipments.md "Publish / unpublish"): every input
 * item names products (one ID, a list, or an array), and the run sends all of them at once, as the
 * service takes them: one request for the batch (more only above its size), answered by a
 * progress id, applied later: the skeleton's `actAll` (actions/run.ts), one request for the items
 * of the run. The request is not idempotent as far as the package can
 * tell (each one starts a job and a report): it is never resent after a failure that may have
 * been applied (a 5xx, a timeout, a cut connection); the items say to check the products' status.
 */
import {
	NodeApiError,
	NodeOperationError,
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { decodeAnswer } from '../../answers/read';
import { LIMITS, PATHS } from '../../transport/endpoints';
import { asNodeError, firstOf, joinSentences } from '../../transport/errors';
import { isRefusal, outcomeUnknownText, refusalError, uncertainOutcome } from '../../transport/outcomes';
import { sendAuthenticated, sendSettingsOf, type Route } from '../../transport/send';
import { lookUpNamedProducts, pickedProductsField, productsFound, readListedAndPicked, type NamedProductRef } from '../catalogue/locator';
import type { FoundProduct } from '../catalogue/eans';
import { booleanField } from '../../shared/fields';
import { invalidInput } from '../../values/labels';
import { readFlag } from '../../values/values';
import { readBasicProducts } from '../catalogue/catalogue';
import { ItemContext, steps, type ReadItem } from '../run';
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

/** One item's products: the Product IDs (one ID, a comma- or line-separated list, or an array from an expression), then the picked ones; only read. */
function readRefs(ctx: ItemContext): NamedProductRef[] {
	return readListedAndPicked(ctx, {
		label: PRODUCT_IDS_LABEL,
		value: ctx.getNodeParameter('productIds', ''),
		empty: { problem: 'no product IDs given', hint: 'Give one product ID, a list such as 100001, 100002, or an expression returning an array of IDs, or pick products under Products' },
	});
}

const CHECK_PRODUCTS = 'Check Products First';

/** An item's products as read, then found: their IDs and the names the picked ones carry. */
interface PublicationEntry {
	refs: NamedProductRef[];
	products?: Array<{ productId: number; name: string | null }>;
}

/** What the run looked up before anything is sent: the products of every EAN named, and with Check Products First the catalogue's IDs. */
interface PublicationPlan {
	found: Map<string, FoundProduct[]>;
	known?: Set<number>;
}

/**
 * The plan: the EANs of every item looked up together; then Check Products First (read from the
 * first item: one catalogue read for the run), when an item has products: the catalogue's basic
 * products are read before anything is sent, and an item naming an ID the account does not have
 * fails (`complete`), instead of the service reporting it later by e-mail. Its IDs are not sent.
 */
async function planPublication(exec: IExecuteFunctions, items: Array<ReadItem<PublicationEntry>>): Promise<PublicationPlan> {
	const found = await lookUpNamedProducts(exec, items.flatMap(({ entry }) => entry.refs));
	const first = new ItemContext(exec, 0);
	const anyProducts = items.some(({ ctx, entry }) => {
		try {
			productsFound(ctx, entry.refs, found);
			return true;
		} catch {
			return false;
		}
	});
	if (!anyProducts || !readFlag(first, 'checkProducts', CHECK_PRODUCTS, false)) return { found };
	return { found, known: new Set((await readBasicProducts(exec, sendSettingsOf(first))).map((product) => Number(product.id))) };
}

function completePublication(ctx: ItemContext, entry: PublicationEntry, { found, known }: PublicationPlan): PublicationEntry {
	const ids = productsFound(ctx, entry.refs, found).map(({ id }) => id);
	const unknown = known ? ids.filter((id) => !known.has(id)) : [];
	if (unknown.length > 0) {
		throw invalidInput(
			ctx,
			PRODUCT_IDS_LABEL,
			`the catalogue has no product with ID ${unknown.join(', ')}`,
			'Check the IDs (Product › Get Many lists them), or pick the products from the list under Products',
		);
	}
	return { ...entry, products: ids.map((productId, index) => ({ productId, name: entry.refs[index].name ?? null })) };
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
 * The steps (actions/run.ts): every item's products read before anything is sent (On Error = Stop:
 * one invalid item sends nothing), their EANs and the catalogue looked up in the plan, the run's
 * distinct IDs sent together (`actAll`), then one output item per input item: its IDs, the
 * progress id of the request that carried them and what happens next; or its error.
 */
function publicationSteps(action: Action) {
	return steps<PublicationEntry, PublicationPlan>({
		read: (ctx) => ({ refs: readRefs(ctx) }),
		plan: planPublication,
		complete: completePublication,
		async actAll(exec, items) {
			const idsOf = (entry: PublicationEntry) => (entry.products ?? []).map(({ productId }) => productId);
			const distinct = [...new Set(items.flatMap(({ entry }) => idsOf(entry)))];
			const requests = distinct.length === 0 ? [] : await sendAll(exec, action, distinct);
			return items.map(({ entry }) => {
				const ids = idsOf(entry);
				const carried = requests.filter((request) => ids.some((id) => request.ids.has(id)));
				const error = carried.map(({ outcome }) => (outcome.ok ? undefined : outcome.error)).find(Boolean);
				// Under the default On Error the run fails with it, after every request of the run went out.
				if (error) return { ok: false, error };
				const progressIds = carried.map(({ outcome }) => (outcome as Extract<Outcome, { ok: true }>).progressId);
				const json = { action, productIds: ids, products: entry.products ?? [], progressId: progressIds[0] ?? null, progressIds, next: WORDS[action].next };
				return { ok: true, value: [{ json }] };
			});
		},
	});
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
		steps: publicationSteps(action),
	};
}
