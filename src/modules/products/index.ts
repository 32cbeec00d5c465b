/** Products: several repositories routed by delivery cell. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { ProductsDeps } from '../registry.js';
import { ProductsService } from './service.js';

export { ProductsService };

export interface ProductsModule {
  service: ProductsService;
  registerRoutes(app: FastifyInstance): void;
}

export function createProductsModule(platform: Platform, _deps: ProductsDeps): ProductsModule {
  return { service: new ProductsService(platform), registerRoutes() {} };
}
