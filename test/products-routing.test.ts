/** /api/products through the whole app: cell → project routing, duplicates, unknown projects, access, delete. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { tasks } from '../src/modules/tasks/schema.js';
import { json, startTestApp, type TestApp } from './support/app.js';

interface ProductBody {
  id: string;
  slug: string;
  name: string;
  description: string;
  cells: { team: string; project_id: string; project_slug: string; project_name: string }[];
  cell_count: number;
}
interface ErrorBody {
  error: { code: string; details?: { field: string }[] };
}

let t: TestApp;
let api: string;
let web: string;
let design: string;
beforeAll(async () => {
  t = await startTestApp();
  const project = async (slug: string, name: string) =>
    json<{ id: string }>(
      await t.app.inject({
        method: 'POST',
        url: '/api/projects',
        headers: t.ceoHeaders,
        payload: { slug, name, git_url: `https://github.com/acme/${slug}.git` },
      }),
    ).id;
  api = await project('shop-api', 'Shop API');
  web = await project('shop-web', 'Shop Web');
  design = await project('shop-design', 'Shop Design');
});
afterAll(() => t.close());

const as = (slug: string) => {
  const m = rosterMember(slug);
  return t.headersFor(m.id, m.role, m.team ?? '');
};
const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  headers = t.ceoHeaders,
) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const code = (response: Parameters<typeof json>[0]) => json<ErrorBody>(response).error.code;

describe('products', () => {
  let shopId: string;

  it('creates a product routing each cell to a project', async () => {
    const response = await call('POST', '/api/products', {
      slug: 'shop',
      name: 'Shop',
      description: 'The web shop',
      cells: [
        { team: 'frontend', project_id: web },
        { team: 'backend', project_id: api },
      ],
    });
    expect(response.statusCode).toBe(201);
    const product = json<ProductBody>(response);
    shopId = product.id;
    expect(product).toMatchObject({
      slug: 'shop',
      description: 'The web shop',
      cell_count: 2,
      cells: [
        { team: 'backend', project_id: api, project_slug: 'shop-api', project_name: 'Shop API' },
        { team: 'frontend', project_id: web, project_slug: 'shop-web', project_name: 'Shop Web' },
      ],
    });
  });

  it('lists products with cell counts and project names, and reads one by UUID or slug', async () => {
    await call('POST', '/api/products', { slug: 'blank', name: 'Blank' });
    const list = json<{ products: ProductBody[]; total: number }>(
      await call('GET', '/api/products', undefined, as('be-dev-1')),
    );
    expect(list.total).toBe(2);
    expect(list.products.map((p) => [p.slug, p.cell_count])).toEqual([
      ['blank', 0],
      ['shop', 2],
    ]);
    expect(list.products[1]!.cells.map((c) => c.project_name)).toEqual(['Shop API', 'Shop Web']);
    expect(json<ProductBody>(await call('GET', `/api/products/${shopId}`)).slug).toBe('shop');
    expect(json<ProductBody>(await call('GET', '/api/products/shop')).id).toBe(shopId);
    expect((await call('GET', '/api/products/nothing')).statusCode).toBe(404);
  });

  it('routes cells to projects for task delegation', async () => {
    const service = t.modules.products.service;
    expect((await service.projectForCell(shopId, 'backend'))?.slug).toBe('shop-api');
    expect((await service.projectForCell('shop', 'frontend'))?.slug).toBe('shop-web');
    expect(await service.projectForCell(shopId, 'ux_ui')).toBeNull();
    expect(await service.projectForCell('no-such-product', 'backend')).toBeNull();
  });

  it('refuses two projects for one cell (409), unknown projects and non-delivery teams (422), taken slugs (409)', async () => {
    const duplicate = await call('POST', '/api/products', {
      slug: 'dup',
      name: 'Dup',
      cells: [
        { team: 'backend', project_id: api },
        { team: 'backend', project_id: web },
      ],
    });
    expect(duplicate.statusCode).toBe(409);
    expect(code(duplicate)).toBe('duplicate_cell');

    const unknown = await call('POST', '/api/products', {
      slug: 'ghost',
      name: 'Ghost',
      cells: [{ team: 'ux_ui', project_id: '6f1c2d3e-4b5a-4c6d-8e7f-0123456789ab' }],
    });
    expect(unknown.statusCode).toBe(422);
    expect(code(unknown)).toBe('unknown_project');
    expect(json<ErrorBody>(unknown).error.details?.map((d) => d.field)).toEqual(['body.cells.0.project_id']);

    const board = await call('POST', '/api/products', {
      slug: 'boardy',
      name: 'Boardy',
      cells: [{ team: 'board', project_id: api }],
    });
    expect(board.statusCode).toBe(422);
    expect(json<ErrorBody>(board).error.details?.map((d) => d.field)).toEqual(['body.cells.0.team']);

    const taken = await call('POST', '/api/products', { slug: 'shop', name: 'Again' });
    expect(taken.statusCode).toBe(409);
    expect(code(taken)).toBe('slug_taken');
    expect((await call('POST', '/api/products', { slug: 'x', name: 'X', extra: 1 })).statusCode).toBe(422);
    expect((await call('GET', '/api/products/ghost')).statusCode).toBe(404);
  });

  it('updates only the fields present; cells replace the routing', async () => {
    const renamed = await call('PATCH', '/api/products/shop', { name: 'Shop 2' });
    expect(json<ProductBody>(renamed)).toMatchObject({ name: 'Shop 2', cell_count: 2 });
    const rerouted = await call('PATCH', `/api/products/${shopId}`, {
      cells: [
        { team: 'ux_ui', project_id: design },
        { team: 'backend', project_id: web },
      ],
    });
    expect(json<ProductBody>(rerouted).cells.map((c) => [c.team, c.project_slug])).toEqual([
      ['backend', 'shop-web'],
      ['ux_ui', 'shop-design'],
    ]);
    const dup = await call('PATCH', `/api/products/${shopId}`, {
      cells: [
        { team: 'ux_ui', project_id: design },
        { team: 'ux_ui', project_id: api },
      ],
    });
    expect(dup.statusCode).toBe(409);
    expect(json<ProductBody>(await call('GET', `/api/products/${shopId}`)).cell_count).toBe(2);
    expect((await call('PATCH', '/api/products/nothing', { name: 'x' })).statusCode).toBe(404);
  });

  it('lets PM-or-above change products; others get 403', async () => {
    for (const slug of ['be-pm', 'main-pm', 'product-owner', 'auditor']) {
      const response = await call('PATCH', '/api/products/blank', { description: `by ${slug}` }, as(slug));
      expect(response.statusCode, slug).toBe(200);
    }
    for (const slug of ['be-dev-1', 'fe-qa', 'head-marketing', 'ux-doc', 'pr-reviewer-1']) {
      expect((await call('PATCH', '/api/products/blank', { name: 'no' }, as(slug))).statusCode, slug).toBe(
        403,
      );
      expect(
        (await call('POST', '/api/products', { slug: 'no', name: 'no' }, as(slug))).statusCode,
        slug,
      ).toBe(403);
      expect((await call('DELETE', '/api/products/blank', undefined, as(slug))).statusCode, slug).toBe(403);
    }
  });

  it('keeps routed projects from being deleted, and refuses to delete a product tasks reference', async () => {
    const refused = await call('DELETE', `/api/projects/${design}`);
    expect(refused.statusCode).toBe(409);
    expect(code(refused)).toBe('project_in_use');

    const db = t.platform.database.db;
    const [task] = await db
      .insert(tasks)
      .values({
        title: 'feature',
        description: 'shop feature',
        acceptanceCriteria: [],
        taskType: 'code',
        nature: 'feature',
        complexity: 'simple',
        team: 'main_pm',
        createdBy: 'ceo',
        productId: shopId,
      })
      .returning({ id: tasks.id });
    const busy = await call('DELETE', '/api/products/shop');
    expect(busy.statusCode).toBe(409);
    expect(code(busy)).toBe('product_in_use');
    await db.delete(tasks).where(eq(tasks.id, task!.id));

    expect((await call('DELETE', '/api/products/shop')).statusCode).toBe(204);
    expect((await call('GET', `/api/products/${shopId}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/projects/${design}`)).statusCode).toBe(204);
  });
});
