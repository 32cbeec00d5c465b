/** /api/products: any authenticated caller reads; PM-or-above creates, changes and deletes. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireIdentity, requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import {
  CreateProductBody,
  ListProductsQuery,
  ProductParams,
  ProductsList,
  ProductView,
  TAGS,
  UpdateProductBody,
} from './api-schemas.js';
import { PRODUCT_MANAGER_ROLES } from './rules.js';
import type { ProductsService } from './service.js';
import { productView } from './view.js';

const notFound = errorResponse('There is no product with that UUID or slug.');
const invalid = errorResponse(
  'The request is invalid (`validation_failed`, with field details) or names a project that does not exist ' +
    '(`unknown_project`).',
);
const conflicting = errorResponse('`slug_taken`, or `duplicate_cell`: two projects for one cell.');

export function registerProductsRoutes(app: FastifyInstance, service: ProductsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const managers = requireRole(...PRODUCT_MANAGER_ROLES);

  api.get(
    '/api/products',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'List products with their cell routing',
        querystring: ListProductsQuery,
        response: { 200: ProductsList, 401: authErrorResponses[401], 422: invalid },
      },
    },
    async (request) => {
      const { limit = 100, offset = 0 } = request.query;
      const page = await service.list({ limit, offset });
      return { products: page.products.map(productView), total: page.total, limit, offset };
    },
  );

  api.get(
    '/api/products/:id',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Read one product by UUID or slug',
        params: ProductParams,
        response: { 200: ProductView, 401: authErrorResponses[401], 404: notFound },
      },
    },
    async (request) => productView(await service.get(request.params.id)),
  );

  api.post(
    '/api/products',
    {
      preValidation: managers,
      schema: {
        tags: TAGS,
        summary: 'Create a product (PM or above)',
        body: CreateProductBody,
        response: { 201: ProductView, ...authErrorResponses, 409: conflicting, 422: invalid },
      },
    },
    async (request, reply) => {
      const product = await service.create(request.identity!.id, request.body);
      return reply.status(201).send(productView(product));
    },
  );

  api.patch(
    '/api/products/:id',
    {
      preValidation: managers,
      schema: {
        tags: TAGS,
        summary: 'Change a product (PM or above)',
        description: 'Only the fields present change; `cells` replaces the whole routing.',
        params: ProductParams,
        body: UpdateProductBody,
        response: { 200: ProductView, ...authErrorResponses, 404: notFound, 409: conflicting, 422: invalid },
      },
    },
    async (request) => productView(await service.update(request.params.id, request.body)),
  );

  api.delete(
    '/api/products/:id',
    {
      preValidation: managers,
      schema: {
        tags: TAGS,
        summary: 'Delete a product (PM or above)',
        description: '409 `product_in_use` while tasks reference it.',
        params: ProductParams,
        response: {
          204: Type.Null({ description: 'Deleted.' }),
          ...authErrorResponses,
          404: notFound,
          409: errorResponse('Tasks still reference the product.'),
        },
      },
    },
    async (request, reply) => {
      await service.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );
}
