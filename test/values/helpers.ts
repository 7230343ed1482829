/**
 * What the tests of values/ share: a minimal context (the node and the item index, all the
 * readers need) and the message a reader rejects a value with.
 */
import type { INode } from 'n8n-workflow';

import { describeValue, type ValueContext } from '../../nodes/MarketplaceMerchant/values/labels';

/** A reader's context outside the engine: the workflow's time zone is UTC (zones: test/values/calendar.test.ts, through the engine). */
export const ctx: ValueContext = { getNode: () => ({ name: 'Node' }) as INode, getItemIndex: () => 3, getTimezone: () => 'UTC' };
export const FIELD = 'Some Field';

export type Reader = (ctx: ValueContext, field: string, value: unknown) => unknown;

export function rejection(read: Reader, value: unknown): string {
	try {
		read(ctx, FIELD, value);
	} catch (error) {
		return (error as Error).message;
	}
	throw new Error(`${describeValue(value)} was accepted`);
}
