/**
 * The account's currency (issue 37): the currency of a discount's price. The service takes the
 * account's own price currency alone and never converts an amount (platform facts, "What a second
 * merchant's production client relies on": a BAM account's discounts in RSD were refused). The
 * account's currency is known from the credential's Account Currency (set once, no request), else
 * from what the service says of the account: of its answers only orders carry a currency
 * (`currency`, orders-and-shipments.md), so its newest order is asked for, once per run and only
 * when the credential does not say. Where neither says (no order yet, orders not readable), an
 * entry that leaves its currency to the account goes out in RSD, the interface reference's
 * currency, and the service is the judge (its refusal is that entry's error).
 */
import type { IExecuteFunctions, ILoadOptionsFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import { decodedList } from '../../answers/read';
import { PATHS } from '../../transport/endpoints';
import { onceInRun } from '../run';
import { CREDENTIAL_TYPE, sendAuthenticated, sendSettingsOf, type AuthenticatedContext, type SendSettings } from '../../transport/send';
import { invalidInput, type ValueContext } from '../../values/labels';
import { CURRENCY_FORMS, readCurrency } from '../../values/values';
import type { BulkEntry } from '../bulk/entries';
import { ORDER_READS } from '../orderReads';

/** What goes out where the account's currency is unknown: the interface reference's, in every example. */
export const REFERENCE_CURRENCY = 'RSD';

/** The panel's value for "the account's currency": a row saved with it (or without a currency) follows the account. */
export const ACCOUNT_CURRENCY = '';

/** The currencies offered besides the account's; any other code can be given by an expression or in JSON. */
const OFFERED = [
	{ code: 'BAM', name: 'BAM (Convertible Mark, KM)' },
	{ code: 'EUR', name: 'EUR (Euro)' },
	{ code: 'MKD', name: 'MKD (Macedonian Denar)' },
	{ code: 'RSD', name: 'RSD (Serbian Dinar)' },
];

/** On the node's `methods.loadOptions`. */
export const CURRENCIES_METHOD = 'getCurrencies';

/** The credential's field, as its panel shows it. */
const CREDENTIAL_FIELD = 'Credential › Account Currency';

export interface AccountCurrency {
	code: string;
	/** Where the node learned it, as messages say it. */
	source: string;
}

/** Reads the credential's Account Currency as a currency reader does, its errors naming the credential's field. */
async function credentialCurrency(ctx: AuthenticatedContext): Promise<string | undefined> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	return readCurrency({ getNode: () => ctx.getNode(), getTimezone: () => ctx.getTimezone() }, CREDENTIAL_FIELD, credentials.currency);
}

/**
 * The account's currency: the credential's Account Currency, else the currency of the account's
 * newest order (one request), else undefined. A failed or empty order read leaves it unknown: the
 * service then judges the currency sent.
 */
export async function accountCurrency(ctx: AuthenticatedContext, settings?: SendSettings): Promise<AccountCurrency | undefined> {
	// One look-up per run, whichever items of the run ask (actions/run.ts `onceInRun`).
	return await onceInRun(ctx, 'accountCurrency', async () => await lookUpAccountCurrency(ctx, settings)).result;
}

async function lookUpAccountCurrency(ctx: AuthenticatedContext, settings?: SendSettings): Promise<AccountCurrency | undefined> {
	const set = await credentialCurrency(ctx);
	if (set) return { code: set, source: "the credential's Account Currency" };
	let said: unknown;
	try {
		const answer = await sendAuthenticated(ctx, ORDER_READS, { method: 'GET', url: PATHS.orders, qs: { page: 0, size: 1 } }, settings);
		said = decodedList(ctx, answer, ANSWERS.orders)[0]?.currency;
	} catch {
		// Orders not readable (not enabled for this client, the service unavailable): unknown, not a failed run.
		return undefined;
	}
	const code = typeof said === 'string' && /^[A-Za-z]{3}$/.test(said.trim()) ? said.trim().toUpperCase() : undefined;
	return code ? { code, source: "the currency of the account's orders" } : undefined;
}

/** A currency field of a discount row: the account's by default, the account's named where the panel can learn it. */
export function currencyField(name: string, displayName: string, description: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'options',
		typeOptions: { loadOptionsMethod: CURRENCIES_METHOD },
		default: ACCOUNT_CURRENCY,
		description: `${description}. The Account's Currency: the credential's Account Currency, else the currency of the account's orders (one request per run), else RSD. Another currency than the account's is refused before sending; amounts are never converted. In JSON and expressions: ${CURRENCY_FORMS}.`,
	};
}

/** The Currency list of the panel: the account's currency first, named where it is known, then the usual ones. */
export async function getCurrencies(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const known = await accountCurrency(this).catch(() => undefined);
	const account: INodePropertyOptions = {
		name: known ? `The Account's Currency (${known.code})` : "The Account's Currency",
		value: ACCOUNT_CURRENCY,
		description: known ? `${known.code}: ${known.source}` : 'Not known yet: the account has no order to tell it and the credential sets none; RSD is sent, and the service refuses it if the account prices in another',
	};
	return [account, ...OFFERED.map(({ code, name }) => ({ name, value: code }))];
}

/** A currency as an entry gives it: its code, or undefined for the account's. */
export function currencyOf(ctx: ValueContext, field: string, value: unknown): string | undefined {
	return readCurrency(ctx, field, value);
}

/** Where an entry gives its currency, and what it gives (undefined: the account's). */
export interface CurrencyAsk {
	given: string | undefined;
	key: string;
}

/**
 * The currency each entry of the run goes out in, after one look-up of the account's (no request
 * when the credential says it): the account's where the entry leaves it, or RSD when the account's
 * is unknown; the entry's own where it is the account's or the account's is unknown. Another one is
 * refused (the entry becomes invalid), naming the account's: never replaced.
 */
export async function settleCurrencies<Checked>(
	exec: IExecuteFunctions,
	entries: Array<BulkEntry<Checked>>,
	ask: (value: Checked) => CurrencyAsk,
	use: (value: Checked, currency: string) => void,
): Promise<void> {
	const open = entries.filter((entry) => entry.problem === undefined && entry.value !== undefined);
	if (open.length === 0) return;
	const account = await accountCurrency(exec, sendSettingsOf(open[0].ctx));
	for (const entry of open) {
		const value = entry.value as Checked;
		const { given, key } = ask(value);
		if (account && given !== undefined && given !== account.code) {
			entry.problem = invalidInput(
				entry.reader(key),
				entry.label(key),
				`${given} is not the account's currency, ${account.code} (${account.source})`,
				`Give the price in ${account.code}, or leave the currency to the account: the service takes the account's own currency alone, and the node never converts an amount`,
			);
			continue;
		}
		use(value, given ?? account?.code ?? REFERENCE_CURRENCY);
	}
}
