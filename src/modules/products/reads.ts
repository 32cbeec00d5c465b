/**
 * Named reads of products for other modules, on the handle they pass: which product ids exist (the
 * task create checks). Other modules call these instead of querying the products table.
 */
import { inArray } from 'drizzle-orm';
import type { Tx } from '../../platform/bus/index.js';
import type { Db } from '../../platform/db/client.js';
import { products } from './schema.js';

/** Which of `ids` name an existing product (ids only), on the caller's handle. */
export function existingProductIds(db: Db | Tx, ids: readonly string[]): Promise<{ id: string }[]> {
  return db
    .select({ id: products.id })
    .from(products)
    .where(inArray(products.id, [...ids]));
}
