import type { INodeProperties } from 'n8n-workflow';

import { operationProperty } from '../common';
import { checkEans, checkEansFields } from './checkEans.operation';
import { getManyProducts, getManyProductsFields } from './getMany.operation';
import { getManyBasicProducts, getManyBasicProductsFields } from './getManyBasic.operation';
import { getProductTypes, getProductTypesFields } from './getTypes.operation';
import { importProduct, importProductFields } from './import.operation';
import { syncStockAndPricesFields, syncStockAndPricesOperation } from './syncStockAndPrices.operation';
import { updateProduct, updateProductFields } from './update.operation';
import { updateManyProducts, updateManyProductsFields } from './updateMany.operation';

export const productOperations = operationProperty(
	'product',
	[checkEans, getManyProducts, getManyBasicProducts, getProductTypes, importProduct, syncStockAndPricesOperation, updateProduct, updateManyProducts],
	'getMany',
);

export const productFields: INodeProperties[] = [
	...checkEansFields,
	...getManyProductsFields,
	...getManyBasicProductsFields,
	...getProductTypesFields,
	...importProductFields,
	...syncStockAndPricesFields,
	...updateProductFields,
	...updateManyProductsFields,
];
