import type { ResourceModule } from '../contract';
import { operation as checkEans } from './checkEans.operation';
import { operation as getMany } from './getMany.operation';
import { operation as getManyBasic } from './getManyBasic.operation';
import { operation as getTypes } from './getTypes.operation';
import { operation as importProduct } from './import.operation';
import { operation as publish } from './publish.operation';
import { operation as syncStockAndPrices } from './syncStockAndPrices.operation';
import { operation as unpublish } from './unpublish.operation';
import { operation as update } from './update.operation';
import { operation as updateMany } from './updateMany.operation';

export const resource: ResourceModule = {
	name: 'Product',
	value: 'product',
	defaultOperation: 'getMany',
	operations: [checkEans, getMany, getManyBasic, getTypes, importProduct, publish, syncStockAndPrices, unpublish, update, updateMany],
};
