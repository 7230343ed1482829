/**
 * The one skeleton of a node run (docs/architecture.md "Where the package leaves plain declarative
 * routing"): every operation is n8n's `customOperations[resource][operation]`, built here, so that
 * it is handed all of the run's items at once by n8n instead of one at a time by RoutingNode. A
 * run reads and checks every item (`read`), gathers what must be looked up for all of them
 * (`plan`, `complete`), acts through send.ts (`act` per item, `actAll` where one request carries
 * several items), and pairs each output with its item by the node's On Error setting
 * (`runSteps`). Nothing waits a tick to learn what else is coming.
 */
import {
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type IExecuteFunctions,
	type IGetNodeParameterOptions,
	type INode,
	type INodeExecutionData,
	type INodePropertyOptions,
} from 'n8n-workflow';

import type { ItemFunctions } from '../transport/send';
import { asNodeError } from '../transport/errors';
import { settle, type Settled } from '../transport/policy';

/**
 * What the items of one run share, kept by the run itself (never keyed on n8n's objects): one
 * outcome per key (`once`), so that a Discount ID named by 9 items is cancelled once.
 */
export class RunScope {
	private readonly outcomes = new Map<string, Promise<unknown>>();

	/** The outcome of `key` for the run: the first item to ask acts (`first`), the later ones share its outcome; a later run asks again. */
	once<T>(key: string, act: () => Promise<T>): { first: boolean; result: Promise<T> } {
		const known = this.outcomes.get(key) as Promise<T> | undefined;
		if (known) return { first: false, result: known };
		const result = act();
		// Shared outcomes are awaited by their items; a rejection no item awaits yet is not unhandled.
		result.catch(() => undefined);
		this.outcomes.set(key, result);
		return { first: true, result };
	}
}

/**
 * One input item of the run as the operations' steps and the readers of user values see it. A
 * class, not closures: a bulk run of 50,000 rows holds one per row.
 */
export class ItemContext implements ItemFunctions {
	constructor(
		readonly exec: IExecuteFunctions,
		readonly itemIndex: number,
		/** What the run's items share (`RunScope`); none for an item read outside `runSteps` (a bulk run's rows: no allocation per row). */
		readonly run?: RunScope,
	) {}

	getNode(): INode {
		return this.exec.getNode();
	}

	getItemIndex(): number {
		return this.itemIndex;
	}

	getTimezone(): string {
		return this.exec.getTimezone();
	}

	getNodeParameter(name: string, fallback?: unknown, options?: IGetNodeParameterOptions): unknown {
		return this.exec.getNodeParameter(name, this.itemIndex, fallback, options);
	}

	getInputData(): INodeExecutionData {
		return this.exec.getInputData()[this.itemIndex];
	}

	async getCredentials<T extends object = ICredentialDataDecryptedObject>(type: string): Promise<T> {
		return await this.exec.getCredentials<T>(type, this.itemIndex);
	}

	/** n8n's helpers; called with this context as `this` (send.ts), they read its credentials, node and cancel signal. */
	get helpers(): IExecuteFunctions['helpers'] {
		return this.exec.helpers;
	}

	get logger(): IExecuteFunctions['logger'] {
		return this.exec.logger;
	}

	continueOnFail(): boolean {
		return this.exec.continueOnFail();
	}

	getExecutionCancelSignal(): AbortSignal | undefined {
		return this.exec.getExecutionCancelSignal();
	}
}

/**
 * The run's one outcome of `key` for an item (`RunScope.once`): items of one run naming the same
 * thing share what the first one's act did. Outside a run of steps (an editor list, a bulk run's
 * own code) it acts alone.
 */
export function onceInRun<T>(ctx: object, key: string, act: () => Promise<T>): { first: boolean; result: Promise<T> } {
	return ctx instanceof ItemContext && ctx.run ? ctx.run.once(key, act) : { first: true, result: act() };
}

/** One item read and checked: what its `act` needs. */
export interface ReadItem<Entry> {
	ctx: ItemContext;
	entry: Entry;
}

/**
 * An operation's steps over the run's items. `read` checks one item's values and sends nothing;
 * `plan` looks up, once for every valid item, what they need (EANs: one request per 100 of the
 * run's); `complete` gives an item what the plan found for it (an EAN no product has fails it
 * here). An error of `read` or `complete` fails its item before anything but the look-ups is sent,
 * and under On Error = Stop the run. `act` sends for one item and gives its outputs; the items act
 * together, the pacing (transport/gate.ts) spacing their requests per merchant. Where one request
 * carries several items (an order's lines, the run's products to publish), `actAll` acts for every
 * valid item at once and gives each item's outcome, in the items' order.
 */
export interface Steps<Entry = unknown, Plan = unknown> {
	read(ctx: ItemContext): Entry | Promise<Entry>;
	plan?(exec: IExecuteFunctions, items: Array<ReadItem<Entry>>): Promise<Plan>;
	complete?(ctx: ItemContext, entry: Entry, plan: Plan): Entry;
	act?(ctx: ItemContext, entry: Entry): Promise<INodeExecutionData[]>;
	actAll?(exec: IExecuteFunctions, items: Array<ReadItem<Entry>>): Promise<Array<Settled<INodeExecutionData[]>>>;
}

/** An operation's steps with their types kept inside (an operation module holds steps of any entry). */
export function steps<Entry, Plan>(defined: Steps<Entry, Plan>): Steps {
	return defined as unknown as Steps;
}

/** A node run over all items n8n hands the operation: n8n's custom operation. */
export type CustomOperationRun = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

/**
 * The node's error for one input item, as n8n shows it under Continue or stops the run with: the
 * node's own error kept as it is, anything else made one (secrets removed), the item's index on it.
 */
export function itemFailure(node: INode, error: unknown, itemIndex: number) {
	const failure = asNodeError(node, error);
	failure.context.itemIndex ??= itemIndex;
	return failure;
}

/** A failed item under On Error = Continue (either output): the error on an item paired with its input, as n8n routes it. */
function errorItem(node: INode, error: unknown, itemIndex: number): INodeExecutionData {
	return { json: {}, error: itemFailure(node, error, itemIndex), pairedItem: { item: itemIndex } };
}

/**
 * The skeleton: every item read (and completed by the plan) before anything is sent; under On
 * Error = Stop the first invalid item (in item order) fails the run unsent, else it becomes an
 * error item and the others run. Every output points at its item (pairedItem); a failed act fails
 * a stopping run once every item has settled (the first failed item in item order), or becomes its
 * item's error item under Continue (either output: n8n routes items carrying an error).
 */
export async function runSteps(exec: IExecuteFunctions, operation: Steps): Promise<INodeExecutionData[][]> {
	const node = exec.getNode();
	const continueOnFail = exec.continueOnFail();
	const run = new RunScope();
	const contexts = exec.getInputData().map((_, itemIndex) => new ItemContext(exec, itemIndex, run));
	/** Each item's outcome so far: its entry, then its outputs; or its error. */
	const outcomes: Array<Settled<unknown>> = [];
	const failedBeforeSending = (outcome: Settled<unknown>, ctx: ItemContext) => {
		if (!outcome.ok && !continueOnFail) throw itemFailure(node, outcome.error, ctx.itemIndex);
		return outcome;
	};
	for (const ctx of contexts) outcomes.push(failedBeforeSending(await settle((async () => await operation.read(ctx))()), ctx));
	const valid = () => contexts.flatMap((ctx) => (outcomes[ctx.itemIndex].ok ? [{ ctx, entry: (outcomes[ctx.itemIndex] as { value: unknown }).value }] : []));
	if (operation.plan && valid().length > 0) {
		const plan = await operation.plan(exec, valid());
		const { complete } = operation;
		if (complete) {
			for (const { ctx, entry } of valid()) {
				outcomes[ctx.itemIndex] = failedBeforeSending(await settle((async () => complete(ctx, entry, plan))()), ctx);
			}
		}
	}
	const acting = valid();
	if (operation.actAll && acting.length > 0) {
		const acted = await operation.actAll(exec, acting);
		acting.forEach(({ ctx }, index) => (outcomes[ctx.itemIndex] = acted[index]));
	} else if (operation.act) {
		const { act } = operation;
		// Every item's requests settle before the run ends, also when one failed: none is left running behind it.
		await Promise.all(acting.map(async ({ ctx, entry }) => (outcomes[ctx.itemIndex] = await settle(act(ctx, entry)))));
	}
	const outputs: INodeExecutionData[] = [];
	for (const ctx of contexts) {
		const outcome = outcomes[ctx.itemIndex];
		if (!outcome.ok) {
			if (!continueOnFail) throw itemFailure(node, outcome.error, ctx.itemIndex);
			outputs.push(errorItem(node, outcome.error, ctx.itemIndex));
			continue;
		}
		const pairedItem = { item: ctx.itemIndex };
		for (const item of outcome.value as INodeExecutionData[]) {
			item.pairedItem ??= pairedItem;
			outputs.push(item);
		}
	}
	return [outputs];
}

/** The custom operation of an operation's steps. */
function runOf(operation: Steps): CustomOperationRun {
	return async function (this: IExecuteFunctions) {
		return await runSteps(this, operation);
	};
}

/** An operation as the node's `customOperations` take it (actions/contract.ts `OperationModule`). */
interface RunnableOperation {
	option: INodePropertyOptions;
	steps: Steps;
	tool?: { keepOut?: string };
}

/**
 * The node's `customOperations`, every operation's: its steps run by `runSteps`, those kept out of
 * agents refusing to run as a tool. n8n calls an operation found here with all of the run's items
 * instead of RoutingNode (n8n-core WorkflowExecute `getCustomOperation`).
 */
export function customOperationsOf(resources: Array<{ value: string; operations: RunnableOperation[] }>): Record<string, Record<string, CustomOperationRun>> {
	const custom: Record<string, Record<string, CustomOperationRun>> = {};
	for (const resource of resources) {
		for (const { option, steps, tool } of resource.operations) {
			(custom[resource.value] ??= {})[String(option.value)] = guardedAgainstAgents(option, runOf(steps), tool?.keepOut);
		}
	}
	return custom;
}

/**
 * An operation kept out of agents (`keepOut`: the bulk writes) refuses to run as an AI agent's
 * tool: n8n runs a tool node under the type "<node>Tool", which a model cannot change, so no
 * argument and no wording gets past it. The tool's description says so beforehand.
 */
function guardedAgainstAgents(option: INodePropertyOptions, run: CustomOperationRun, keepOut: string | undefined): CustomOperationRun {
	if (keepOut === undefined) return run;
	return async function (this: IExecuteFunctions) {
		const node = this.getNode();
		if (node.type.endsWith('Tool')) {
			throw new NodeOperationError(node, `${String(option.action ?? option.name)} is not available to AI agents`, {
				description: `This tool refuses every call: ${keepOut}. Run it in a workflow (not as an agent's tool); for one product or discount give the agent the single-item operation.`,
			});
		}
		return await run.call(this);
	};
}
