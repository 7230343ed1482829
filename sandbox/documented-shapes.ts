/**
 * Answers as the marketplace's current pages (2026) show them, where they add to the interface
 * reference (platform facts, "What the current documentation … add"), each behind its switch of
 * variants.ts: products with status, group, package dimensions, specifications and the platform
 * code under the marketplace's name (`documentedProductFields`); update results naming the product,
 * errors in Serbian (`documentedUpdateResults`); an invoice's id as `invoiceNumber`, a correction's
 * fiscalDetails with `invoiceNumber` (`invoiceIdAsInvoiceNumber`).
 */
import type {
  Invoice,
  InvoiceCorrection,
  Product,
  ProductRecord,
  ProductUpdateResult,
} from "./types";
import type { VariantSwitches } from "./variants";
import { productStatus } from "./product-status";

/** The key the pages name after the marketplace (its name is not ours to print): the reference's `platformCode`. */
export const MARKETPLACE_CODE_KEY = "marketplaceCode";

/** "Proizvod ne postoji": the product does not exist. */
export const UNKNOWN_PRODUCT_SERBIAN = "Proizvod ne postoji";

/** The package dimensions an update stored (answered once set). */
function storedDimensions(product: object): Record<string, unknown> {
  const keys = [
    "packageHeightValue",
    "packageWidthValue",
    "packageLengthValue",
  ];
  const given = product as Record<string, unknown>;
  return Object.fromEntries(
    keys
      .filter((key) => given[key] !== undefined)
      .map((key) => [key, given[key]]),
  );
}

/** A product of GET products as the pages show it; deterministic from the product. */
export function documentedProduct(
  variants: VariantSwitches,
  product: Omit<Product, "packageWeightUnit"> & { packageWeightUnit: string },
  record: ProductRecord,
): Product | Record<string, unknown> {
  if (!variants.current.documentedProductFields) {
    return variants.current.productStatusField ? { ...product, status: productStatus({ ...record, stockLevel: product.stockLevel }) } : product;
  }
  const { platformCode, ...rest } = product;
  // Publish / unpublish store it; the stock of the answered product decides SOLD_OUT / UNPUBLISHED_OOS.
  const status = productStatus({ ...record, stockLevel: product.stockLevel });
  return {
    ...rest,
    [MARKETPLACE_CODE_KEY]: platformCode,
    status,
    groupId: record.parentEan ?? `G${product.id}`,
    // Dimensions an update stored win over the made-up ones.
    packageHeightValue: 10 + (product.id % 30),
    packageWidthValue: 20 + (product.id % 20),
    packageLengthValue: 30 + (product.id % 10),
    packageDimensionUnit: "cm",
    ...storedDimensions(product),
    specifications: JSON.stringify({ color: ["crna", "bela"][product.id % 2] }),
  };
}

/** An update result as the pages show it: the product's EAN and name; `type: "edit"` in product/{id}'s; errors in Serbian. */
export function documentedUpdateResult(
  variants: VariantSwitches,
  result: ProductUpdateResult,
  product: ProductRecord | undefined,
  single: boolean,
): ProductUpdateResult | Record<string, unknown> {
  if (!variants.current.documentedUpdateResults) return result;
  const errors =
    product === undefined && result.status === "FAIL"
      ? [UNKNOWN_PRODUCT_SERBIAN]
      : result.errors;
  return {
    ...result,
    errors,
    ean: product?.ean ?? null,
    productName: product?.name ?? null,
    ...(single ? { type: "edit" } : {}),
  };
}

/** An invoice (its id under `invoiceNumber`) or a correction (fiscalDetails with its own number) as the pages' example shows it. */
export function documentedDocument<T>(
  variants: VariantSwitches,
  document: T,
): T {
  if (!variants.current.invoiceIdAsInvoiceNumber) return document;
  const header = (document as unknown as Invoice | InvoiceCorrection)
    .invoiceHeader;
  if ("invoiceId" in header.orderDetails) {
    const { invoiceId, ...orderDetails } = header.orderDetails;
    return {
      ...document,
      invoiceHeader: {
        ...header,
        orderDetails: { ...orderDetails, invoiceNumber: invoiceId },
      },
    };
  }
  const correction = header as InvoiceCorrection["invoiceHeader"];
  return {
    ...document,
    invoiceHeader: {
      ...correction,
      fiscalDetails: {
        ...correction.fiscalDetails,
        invoiceNumber: correction.orderDetails.invoiceNumber,
      },
    },
  };
}
