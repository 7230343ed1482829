/** The documents family's links (shared/documents/links.ts): reading `/urls` answers. */
import { flattenDocumentLinks } from '../../../nodes/MarketplaceMerchant/shared/documents/links';

describe('document links: reading variant answers', () => {
	it('flattens link answers keyed by suborder, also with extra fields, single objects and the spec placeholder key', () => {
		expect(
			flattenDocumentLinks({
				'1-1': [{ documentCorrelationId: 'd1', link: 'https://x/1', expiresIn: 600 }, { documentCorrelationId: 'd2', link: 'https://x/2' }],
				'2-1': { documentCorrelationId: 'd3', link: 'https://x/3' },
				'3-1': [],
			}),
		).toEqual([
			{ suborderId: '1-1', documentCorrelationId: 'd1', link: 'https://x/1', expiresIn: 600 },
			{ suborderId: '1-1', documentCorrelationId: 'd2', link: 'https://x/2' },
			{ suborderId: '2-1', documentCorrelationId: 'd3', link: 'https://x/3' },
		]);
		expect(flattenDocumentLinks({ suborderIdNumberValue: [{ documentCorrelationId: 'd4', link: 'https://x/4' }] }, ['9-2'])).toEqual([
			{ suborderId: '9-2', documentCorrelationId: 'd4', link: 'https://x/4' },
		]);
		expect(flattenDocumentLinks(undefined)).toEqual([]);
	});
});
