/** The API shape of a product, with the slug and name of each routed project. */
import type { Product } from './service.js';

export function productView(product: Product) {
  const cells = product.cells.map((cell) => ({
    team: cell.team,
    project_id: cell.project_id,
    project_slug: cell.project?.slug ?? '',
    project_name: cell.project?.name ?? '',
  }));
  return {
    id: product.id,
    slug: product.slug,
    name: product.name,
    description: product.description,
    cells,
    cell_count: cells.length,
    created_by: product.createdBy,
    created_at: product.createdAt.toISOString(),
    updated_at: product.updatedAt.toISOString(),
  };
}
