/**
 * Products: several repositories, routed by delivery cell (at most one project per cell). Reads
 * for everyone; changes for PM-or-above (enforced by the routes). `projectForCell` is how task
 * delegation finds the repository a cell works in for a product.
 */

import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { type Clock, systemClock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db/errors.js';
import { AppError, conflict, notFound, unprocessable } from '../../platform/http/errors.js';
import { isUuid } from '../../platform/ids.js';
import { type ProjectBrief, type ProjectRow, type ProjectsService, slugProblem } from '../projects/index.js';
import { type CellRoute, duplicateTeams } from './rules.js';
import { productCells, products } from './schema.js';

export type ProductRow = typeof products.$inferSelect;

/** A product with its cell routes, each naming its project. */
export interface Product extends ProductRow {
  cells: (CellRoute & { project: ProjectBrief | null })[];
}

export interface NewProduct {
  slug: string;
  name: string;
  description?: string | undefined;
  cells?: CellRoute[] | undefined;
}

/** Fields an edit may change; `cells`, when present, replaces the whole routing. */
export interface ProductChanges {
  slug?: string | undefined;
  name?: string | undefined;
  description?: string | undefined;
  cells?: CellRoute[] | undefined;
}

const byKey = (key: string) => (isUuid(key) ? eq(products.id, key.toLowerCase()) : eq(products.slug, key));

export class ProductsService {
  constructor(
    private readonly db: Db,
    private readonly projects: ProjectsService,
    /** How many tasks reference a product (the tasks module's named read, wired by the registry). */
    private readonly taskCountOf: (productId: string) => Promise<number>,
    private readonly clock: Clock = systemClock,
  ) {}

  async find(idOrSlug: string): Promise<Product | null> {
    const [row] = await this.db.select().from(products).where(byKey(idOrSlug.trim())).limit(1);
    return row ? (await this.withCells([row]))[0]! : null;
  }

  async get(idOrSlug: string): Promise<Product> {
    const product = await this.find(idOrSlug);
    if (!product) throw notFound(`there is no product "${idOrSlug}"`);
    return product;
  }

  async list(
    page: { limit?: number; offset?: number } = {},
  ): Promise<{ products: Product[]; total: number }> {
    const rows = await this.db
      .select()
      .from(products)
      .orderBy(asc(products.slug))
      .limit(page.limit ?? 100)
      .offset(page.offset ?? 0);
    const [counted] = await this.db.select({ total: count() }).from(products);
    return { products: await this.withCells(rows), total: counted?.total ?? 0 };
  }

  /**
   * The project that `team` works in for this product (UUID or slug); null when the product routes
   * no project to that cell (the caller then falls back to the parent task's project).
   */
  async projectForCell(productId: string, team: string): Promise<ProjectRow | null> {
    const id = isUuid(productId) ? productId.toLowerCase() : (await this.find(productId))?.id;
    if (!id) return null;
    const [route] = await this.db
      .select({ projectId: productCells.projectId })
      .from(productCells)
      .where(and(eq(productCells.productId, id), eq(productCells.team, team)))
      .limit(1);
    return route ? this.projects.find(route.projectId) : null;
  }

  /** 422 on a bad slug or unknown project, 409 `slug_taken` or `duplicate_cell`. */
  async create(createdBy: string, input: NewProduct): Promise<Product> {
    const slug = input.slug.trim();
    const cells = input.cells ?? [];
    await this.check(slug, cells);
    if (await this.find(slug)) throw slugTaken(slug);
    const now = this.clock.now();
    const id = await this.write(slug, cells, async (tx) => {
      const [row] = await tx
        .insert(products)
        .values({
          slug,
          name: input.name.trim(),
          description: input.description ?? '',
          createdBy,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: products.id });
      return row!.id;
    });
    return this.get(id);
  }

  async update(idOrSlug: string, changes: ProductChanges): Promise<Product> {
    const current = await this.get(idOrSlug);
    const slug = changes.slug?.trim() ?? current.slug;
    await this.check(slug, changes.cells ?? []);
    if (slug !== current.slug && (await this.find(slug))) throw slugTaken(slug);
    await this.write(slug, changes.cells, async (tx) => {
      await tx
        .update(products)
        .set({
          slug,
          ...(changes.name !== undefined ? { name: changes.name.trim() } : {}),
          ...(changes.description !== undefined ? { description: changes.description } : {}),
          updatedAt: this.clock.now(),
        })
        .where(eq(products.id, current.id));
      return current.id;
    });
    return this.get(current.id);
  }

  /** Deletes a product and its routing; 409 `product_in_use` while tasks reference it. */
  async delete(idOrSlug: string): Promise<void> {
    const product = await this.get(idOrSlug);
    const referencing = await this.taskCountOf(product.id);
    if (referencing > 0) {
      throw inUse(product.slug, `${referencing} task(s) reference it`, { task_count: referencing });
    }
    try {
      await this.db.delete(products).where(eq(products.id, product.id));
    } catch (error) {
      if (isForeignKeyViolation(error)) throw inUse(product.slug, 'tasks reference it');
      throw error;
    }
  }

  /** Slug shape, one project per cell, and every routed project existing. */
  private async check(slug: string, cells: CellRoute[]): Promise<void> {
    const problem = slugProblem(slug);
    if (problem) throw unprocessable('the product is invalid', [{ field: 'body.slug', message: problem }]);
    const duplicates = duplicateTeams(cells);
    if (duplicates.length > 0) {
      throw conflict(
        'duplicate_cell',
        `a product routes at most one project per cell: ${duplicates.join(', ')}`,
        {
          teams: duplicates,
        },
      );
    }
    const known = await this.projects.briefs(cells.map((cell) => cell.project_id));
    const unknown = cells.flatMap((cell, index) =>
      known.has(cell.project_id.toLowerCase())
        ? []
        : [{ field: `body.cells.${index}.project_id`, message: `there is no project ${cell.project_id}` }],
    );
    if (unknown.length > 0)
      throw new AppError(422, 'unknown_project', 'a routed project does not exist', unknown);
  }

  /** Runs `change` and, when `cells` is given, replaces the routing, in one transaction. */
  private async write(slug: string, cells: CellRoute[] | undefined, change: (tx: Db) => Promise<string>) {
    try {
      return await this.db.transaction(async (tx) => {
        const id = await change(tx as unknown as Db);
        if (cells !== undefined) {
          await tx.delete(productCells).where(eq(productCells.productId, id));
          if (cells.length > 0) {
            await tx
              .insert(productCells)
              .values(cells.map((cell) => ({ productId: id, team: cell.team, projectId: cell.project_id })));
          }
        }
        return id;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw slugTaken(slug);
      if (isForeignKeyViolation(error))
        throw new AppError(422, 'unknown_project', 'a routed project does not exist');
      throw error;
    }
  }

  private async withCells(rows: ProductRow[]): Promise<Product[]> {
    if (rows.length === 0) return [];
    const routes = await this.db
      .select()
      .from(productCells)
      .where(
        inArray(
          productCells.productId,
          rows.map((row) => row.id),
        ),
      )
      .orderBy(asc(productCells.team));
    const briefs = await this.projects.briefs(routes.map((route) => route.projectId));
    return rows.map((row) => ({
      ...row,
      cells: routes
        .filter((route) => route.productId === row.id)
        .map((route) => ({
          team: route.team,
          project_id: route.projectId,
          project: briefs.get(route.projectId) ?? null,
        })),
    }));
  }
}

const slugTaken = (slug: string) => conflict('slug_taken', `a product with slug "${slug}" already exists`);
const inUse = (slug: string, why: string, details?: unknown) =>
  new AppError(409, 'product_in_use', `product ${slug} cannot be deleted: ${why}`, details);
