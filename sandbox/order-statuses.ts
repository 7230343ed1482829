/**
 * The order and shipment status names and their groups (orders-and-shipments.md, "Statuses"), as
 * the current pages list them: the statuses endpoint's 52 names, the status-groups endpoint's
 * group → subgroup → statuses, and the two other sets of group names the orders and shipments
 * endpoints take (variants.ts `statusGroupNames`).
 */

/** The statuses endpoint's answer, in the pages' order (52 names). */
export const ORDER_STATUSES = [
	'CREATED', 'PENDING', 'NOT_READY', 'CANCELLED', 'MISSING_ITEMS', 'CANCELLED_BY_JOB', 'CANCELLED_BY_CUSTOMER',
	'CANCELLED_BY_MERCHANT', 'CANCELLED_BY_EMPLOYEE', 'PARTIALLY_CONFIRMED', 'CONFIRMED', 'PACKING_INITIATED',
	'PARTIALLY_PACKED', 'PACKED', 'READY_FOR_COLLECTION', 'TERMINATED', 'COLLECTED', 'ON_DELIVERY', 'ATTEMPTED_DELIVERY',
	'REJECTED_DELIVERY', 'CUSTOMER_ADDRESS_INVALID', 'RETURN_TO_SELLER', 'RETURN_TO_SELLER_UNVERIFIED',
	'RETURN_TO_SELLER_CANCELLED', 'RETURNED_TO_SELLER', 'REDIRECTED_DELIVERY', 'DELAYED_DELIVERY', 'DAMAGED',
	'DAMAGED_UNVERIFIED', 'DAMAGED_CANCELLED', 'LOST', 'LOST_UNVERIFIED', 'LOST_CANCELLED', 'DELIVERED', 'COLLECTED_PUDO',
	'ON_DELIVERY_PUDO', 'DELIVERED_BY_CARRIER_PUDO', 'DELIVERED_PUDO', 'ATTEMPTED_DELIVERY_PUDO', 'REJECTED_DELIVERY_PUDO',
	'ADDRESS_INVALID_PUDO', 'DAMAGED_AT_PUDO', 'DAMAGED_AT_PUDO_UNVERIFIED', 'DAMAGED_AT_PUDO_CANCELLED', 'LOST_AT_PUDO',
	'LOST_AT_PUDO_UNVERIFIED', 'LOST_AT_PUDO_CANCELLED', 'COMPLETED_PUDO', 'COLLECTED_LOCKER', 'ON_DELIVERY_LOCKER',
	'DELIVERED_LOCKER', 'COMPLETED_LOCKER',
] as const;

/**
 * Statuses only the shipments' `statuses` filter names (merchants whose goods cross a border): a
 * packed shipment on its way or at customs. Their subgroups are the packed ones.
 */
export const SHIPMENT_ONLY_STATUSES = ['PARTIALLY_PACKED_IN_TRANSIT', 'PARTIALLY_PACKED_ON_THE_BORDER', 'PACKED_IN_TRANSIT', 'PACKED_ON_THE_BORDER'] as const;

export type ShipmentStatus = (typeof ORDER_STATUSES)[number] | (typeof SHIPMENT_ONLY_STATUSES)[number];

export type StatusGroupName = 'SG_ON_HOLD' | 'SG_PROCESSING' | 'SG_ON_DELIVERY' | 'SG_COMPLETED';

export interface StatusGroup {
	group: StatusGroupName;
	subGroups: Array<{ subGroup: string; statuses: string[] }>;
}

/** The status-groups endpoint's answer (its example; NOT_READY is in no group there either). */
export const STATUS_GROUPS: StatusGroup[] = [
	{ group: 'SG_ON_HOLD', subGroups: [{ subGroup: 'SSG_CREATED', statuses: ['CREATED'] }] },
	{
		group: 'SG_PROCESSING',
		subGroups: [
			{ subGroup: 'SSG_PARTIALLY_CONFIRMED', statuses: ['PARTIALLY_CONFIRMED', 'PENDING'] },
			{ subGroup: 'SSG_CONFIRMED', statuses: ['CONFIRMED', 'PACKING_INITIATED'] },
			{ subGroup: 'SSG_PARTIALLY_PACKED', statuses: ['PARTIALLY_PACKED'] },
			{ subGroup: 'SSG_PACKED', statuses: ['PACKED'] },
			{ subGroup: 'SSG_TRANSPORT_INITIATED', statuses: ['READY_FOR_COLLECTION'] },
		],
	},
	{
		group: 'SG_ON_DELIVERY',
		subGroups: [
			{
				subGroup: 'SSG_ON_DELIVERY',
				statuses: [
					'COLLECTED', 'ON_DELIVERY', 'ATTEMPTED_DELIVERY', 'REDIRECTED_DELIVERY', 'DELAYED_DELIVERY', 'COLLECTED_PUDO',
					'ON_DELIVERY_PUDO', 'DELIVERED_PUDO', 'DELIVERED_BY_CARRIER_PUDO', 'COLLECTED_LOCKER', 'ON_DELIVERY_LOCKER',
					'DELIVERED_LOCKER',
				],
			},
		],
	},
	{
		group: 'SG_COMPLETED',
		subGroups: [
			{ subGroup: 'SSG_DELIVERED', statuses: ['DELIVERED', 'COMPLETED_PUDO', 'COMPLETED_LOCKER'] },
			{
				subGroup: 'SSG_CANCELLED',
				statuses: ['CANCELLED', 'CANCELLED_BY_JOB', 'CANCELLED_BY_CUSTOMER', 'CANCELLED_BY_MERCHANT', 'CANCELLED_BY_EMPLOYEE', 'TERMINATED', 'MISSING_ITEMS'],
			},
			{
				subGroup: 'SSG_NOT_DELIVERED',
				statuses: [
					'REJECTED_DELIVERY', 'CUSTOMER_ADDRESS_INVALID', 'RETURN_TO_SELLER', 'RETURN_TO_SELLER_CANCELLED',
					'RETURN_TO_SELLER_UNVERIFIED', 'RETURNED_TO_SELLER', 'DAMAGED', 'DAMAGED_CANCELLED', 'DAMAGED_UNVERIFIED', 'LOST',
					'LOST_CANCELLED', 'LOST_UNVERIFIED', 'ATTEMPTED_DELIVERY_PUDO', 'REJECTED_DELIVERY_PUDO', 'ADDRESS_INVALID_PUDO',
					'DAMAGED_AT_PUDO', 'DAMAGED_AT_PUDO_CANCELLED', 'DAMAGED_AT_PUDO_UNVERIFIED', 'LOST_AT_PUDO',
					'LOST_AT_PUDO_CANCELLED', 'LOST_AT_PUDO_UNVERIFIED',
				],
			},
		],
	},
];

const SUBGROUP_OF = new Map<string, { group: StatusGroupName; subGroup: string }>();
for (const { group, subGroups } of STATUS_GROUPS) {
	for (const { subGroup, statuses } of subGroups) for (const status of statuses) SUBGROUP_OF.set(status, { group, subGroup });
}
SUBGROUP_OF.set('PARTIALLY_PACKED_IN_TRANSIT', { group: 'SG_PROCESSING', subGroup: 'SSG_PARTIALLY_PACKED' });
SUBGROUP_OF.set('PARTIALLY_PACKED_ON_THE_BORDER', { group: 'SG_PROCESSING', subGroup: 'SSG_PARTIALLY_PACKED' });
SUBGROUP_OF.set('PACKED_IN_TRANSIT', { group: 'SG_PROCESSING', subGroup: 'SSG_PACKED' });
SUBGROUP_OF.set('PACKED_ON_THE_BORDER', { group: 'SG_PROCESSING', subGroup: 'SSG_PACKED' });

export function isShipmentStatus(value: string): value is ShipmentStatus {
	return SUBGROUP_OF.has(value) || (ORDER_STATUSES as readonly string[]).includes(value);
}

/** The subgroup and group of a status; NOT_READY (in no group) counts as on hold. */
export function groupOf(status: string): { group: StatusGroupName; subGroup: string } {
	return SUBGROUP_OF.get(status) ?? { group: 'SG_ON_HOLD', subGroup: 'SSG_CREATED' };
}

/**
 * The shipments endpoint's groups as the pages expand them into subgroups. A packed shipment is
 * "on delivery" there, though the status-groups endpoint files it under SG_PROCESSING.
 */
export const SHIPMENT_GROUPS: Record<string, string[]> = {
	SG_FOR_PACKAGING: ['SSG_PARTIALLY_CONFIRMED', 'SSG_PENDING', 'SSG_CONFIRMED'],
	SG_SHIPMENT_ON_DELIVERY: ['SSG_PARTIALLY_PACKED', 'SSG_TRANSPORT_INITIATED', 'SSG_PACKED', 'SSG_ON_DELIVERY'],
	SG_COMPLETED: ['SSG_DELIVERED', 'SSG_CANCELLED', 'SSG_NOT_DELIVERED'],
};

/** The orders endpoint's groups: waiting for the merchant's confirmation, or not. */
export const ORDER_GROUPS = ['SG_FOR_CONFIRMATION', 'SG_PROCESSED'] as const;

/** Statuses from which a suborder can be packed (the SG_FOR_PACKAGING subgroups). */
export const PACKABLE_STATUSES: ReadonlySet<string> = new Set(['PARTIALLY_CONFIRMED', 'PENDING', 'CONFIRMED', 'PACKING_INITIATED']);

/** Statuses from which a label exists: the carrier is allocated (READY_FOR_COLLECTION) or the parcel has left. */
export function labelAvailable(status: string): boolean {
	const { group, subGroup } = groupOf(status);
	if (status === 'READY_FOR_COLLECTION') return true;
	return group === 'SG_ON_DELIVERY' || subGroup === 'SSG_DELIVERED' || subGroup === 'SSG_NOT_DELIVERED';
}
