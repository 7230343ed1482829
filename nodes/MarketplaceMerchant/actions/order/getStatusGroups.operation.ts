/** Order › Get Status Groups: group → subgroups → statuses. */
import { updateDisplayOptions, type IDataObject } from 'n8n-workflow';

import { ANSWERS } from '../../answers/schemas';
import type { Shaping } from '../../answers/read';
import { PATHS } from '../../transport/endpoints';
import { pacedRouting, outputFields } from '../common';
import type { OperationModule } from '../contract';
import { ORDER_READS } from '../orderReads';
import { readOutput, shapeOutput } from '../../values/values';

/** Simplify: one item per status with its group and subgroup, to look a status up or join on it. */
const onePerStatusIfAsked: Shaping = async function (items) {
	const output = readOutput(this);
	if (output.mode !== 'simplified') return items.map(({ json }) => ({ json: shapeOutput(output, json, (raw) => raw) }));
	return items.flatMap(({ json }) =>
		((json.subGroups ?? []) as IDataObject[]).flatMap((subGroup) =>
			((subGroup.statuses ?? []) as unknown[]).map((status) => ({ json: { status: status as string, subGroup: subGroup.subGroup ?? null, group: json.group ?? null } })),
		),
	);
};

export const operation: OperationModule = {
	steps: pacedRouting({
		...ORDER_READS,
		request: { method: 'GET', url: PATHS.orderStatusGroups },
		answer: ANSWERS.orderStatusGroups,
		shape: [onePerStatusIfAsked],
	}),
	option: {
		name: 'Get Status Groups',
		value: 'getStatusGroups',
		action: 'Get order status groups',
		description: 'List the status groups (e.g. SG_PROCESSING), their subgroups and the statuses in each',
	},
	fields: updateDisplayOptions({ show: { resource: ['order'], operation: ['getStatusGroups'] } }, [
		...outputFields('Whether to return one item per status with its group and subgroup instead of one item per group with its subgroups', ANSWERS.orderStatusGroups),
	]),
};
