/** /api/providers: the CEO, PMs and the product owner read; only the CEO writes. Keys are write-only. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import type { ProviderKind } from '../../platform/llm/index.js';
import {
  CreateProviderBody,
  ProbeView,
  ProviderParams,
  ProvidersList,
  ProviderView,
  ResolveQuery,
  ResolveView,
  RoutingBody,
  RoutingView,
  TAGS,
  TestQuery,
  UpdateProviderBody,
} from './api-schemas.js';
import type { ProvidersService } from './service.js';
import { providerView, routingView } from './view.js';

/** PM-or-above: the PMs and the CEO. */
export const PROVIDER_READER_ROLES = ['ceo', 'main_pm', 'cell_pm'] as const;

const notFound = errorResponse('There is no provider with that name.');
const invalid = errorResponse('The request is invalid; `details` names the fields.');
const auth = {
  401: authErrorResponses[401],
  403: errorResponse('Reading needs a PM or the CEO; writing the CEO.'),
};

export function registerProvidersRoutes(app: FastifyInstance, service: ProvidersService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const readers = requireRole(...PROVIDER_READER_ROLES);
  const ceo = requireRole('ceo');

  api.get(
    '/api/providers',
    {
      preValidation: readers,
      schema: { tags: TAGS, summary: 'List model providers', response: { 200: ProvidersList, ...auth } },
    },
    async () => ({ providers: (await service.list()).map(providerView) }),
  );

  api.get(
    '/api/providers/routing',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        summary: 'The model routing (global, per role, per agent)',
        response: { 200: RoutingView, ...auth },
      },
    },
    async () => routingView(await service.routes()),
  );

  api.put(
    '/api/providers/routing',
    {
      preValidation: ceo,
      schema: {
        tags: TAGS,
        summary: 'Set model routes (CEO)',
        description: '422 naming the field for an unknown provider, role or agent; nothing is written then.',
        body: RoutingBody,
        response: { 200: RoutingView, ...auth, 422: invalid },
      },
    },
    async (request) => {
      await service.putRouting(request.body);
      return routingView(await service.routes());
    },
  );

  api.get(
    '/api/providers/resolve',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        summary: 'Which provider and model an agent runs, and why (agent → role → global)',
        querystring: ResolveQuery,
        response: { 200: ResolveView, ...auth, 422: invalid },
      },
    },
    async (request) => {
      const { agent, route } = await service.resolveAgent(request.query.agent);
      return {
        agent: { id: agent.id, slug: agent.slug, role: agent.role as never },
        source: route?.source ?? null,
        provider: route?.provider.name ?? null,
        kind: (route?.provider.kind as ProviderKind | undefined) ?? null,
        model: route?.model ?? null,
      };
    },
  );

  api.get(
    '/api/providers/:name',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        summary: 'Read one provider',
        params: ProviderParams,
        response: { 200: ProviderView, ...auth, 404: notFound },
      },
    },
    async (request) => providerView(await service.get(request.params.name)),
  );

  api.post(
    '/api/providers',
    {
      preValidation: ceo,
      schema: {
        tags: TAGS,
        summary: 'Create a provider (CEO)',
        body: CreateProviderBody,
        response: { 201: ProviderView, ...auth, 409: errorResponse('The name is taken.'), 422: invalid },
      },
    },
    async (request, reply) => reply.status(201).send(providerView(await service.create(request.body))),
  );

  api.patch(
    '/api/providers/:name',
    {
      preValidation: ceo,
      schema: {
        tags: TAGS,
        summary: 'Change a provider (CEO)',
        description:
          'Only the fields present change. `api_key`: a value sets it, null clears it, absent keeps it.',
        params: ProviderParams,
        body: UpdateProviderBody,
        response: { 200: ProviderView, ...auth, 404: notFound, 422: invalid },
      },
    },
    async (request) => providerView(await service.update(request.params.name, request.body)),
  );

  api.delete(
    '/api/providers/:name',
    {
      preValidation: ceo,
      schema: {
        tags: TAGS,
        summary: 'Delete a provider and its routes (CEO)',
        params: ProviderParams,
        response: { 204: Type.Null(), ...auth, 404: notFound },
      },
    },
    async (request, reply) => {
      await service.remove(request.params.name);
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/api/providers/:name/test',
    {
      preValidation: ceo,
      schema: {
        tags: TAGS,
        summary: 'Probe a provider (CEO)',
        description:
          'Lists its models (or asks one token with mode=completion). A failure — wrong key, 429, unreachable — is ' +
          'answered 200 with `ok: false` and the error kind.',
        params: ProviderParams,
        querystring: TestQuery,
        response: { 200: ProbeView, ...auth, 404: notFound, 422: invalid },
      },
    },
    async (request) => service.test(request.params.name, request.query.mode),
  );
}
