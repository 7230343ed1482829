/** Product › Unpublish: hide products from customers (publication.ts sends every item's IDs in one request). */
import { publicationOperation } from './publication';

export const operation = publicationOperation('unpublish', {
	name: 'Unpublish',
	action: 'Unpublish products',
	description:
		'Hide products from customers: the product IDs of all input items go out in one request, which the marketplace applies in the background. One item per input item with its productIds, the progressId of the request and what happens next. A request that may have been applied (an error from the service, no answer) is never sent again: check the products\' status.',
});
