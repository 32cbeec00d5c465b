/** Products: several repositories routed by delivery cell. */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { ProjectsModule } from '../projects/index.js';
import { registerProductsRoutes } from './routes.js';
import { ProductsService } from './service.js';

export { existingProductIds } from './reads.js';
export { type CellRoute, PRODUCT_MANAGER_ROLES } from './rules.js';

export type { NewProduct, Product, ProductChanges, ProductRow } from './service.js';
export { ProductsService };

export interface ProductsModule extends ModuleFace {
  service: ProductsService;
}

/** What this module is handed: the outside faces of the modules it uses. */
export interface ProductsDeps {
  projects: ProjectsModule;
  /** How many tasks reference a product: its delete guard (the tasks module's `taskCountOfProduct`). */
  taskCountOf(productId: string): Promise<number>;
}

export function createProductsModule({ platform, deps }: ModuleInput<ProductsDeps>): ProductsModule {
  const service = new ProductsService(
    platform.database.db,
    deps.projects.service,
    deps.taskCountOf,
    platform.clock,
  );
  return { service, registerRoutes: (app) => registerProductsRoutes(app, service) };
}
