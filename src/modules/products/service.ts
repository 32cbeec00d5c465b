/** Products: several repositories routed by delivery cell. */
import type { Platform } from '../../platform/context.js';

export class ProductsService {
  constructor(readonly platform: Platform) {}
}
