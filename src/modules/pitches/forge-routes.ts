/**
 * /api/pitches/forge (CEO, behind the `provisioning` flag like every pitches route): read, set
 * or remove the provisioning forge approval creates repositories on. The token is write-only.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import { ForgeConfigAnswer, ForgeConfigBody, TAGS } from './api-schemas.js';
import type { ForgeConfigStore } from './forge-config.js';

export function registerForgeRoutes(
  app: FastifyInstance,
  store: ForgeConfigStore,
  guard: { preValidation: preValidationAsyncHookHandler[] },
  actorSlug: (request: Parameters<preValidationAsyncHookHandler>[0]) => Promise<string>,
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const disabled = errorResponse('`provisioning_disabled`: the flag is off.');
  api.get(
    '/api/pitches/forge',
    {
      ...guard,
      schema: {
        tags: TAGS,
        summary: 'Read the provisioning forge (CEO)',
        response: { 200: ForgeConfigAnswer, ...authErrorResponses, 409: disabled },
      },
    },
    async () => ({ forge: await store.get() }),
  );
  api.put(
    '/api/pitches/forge',
    {
      ...guard,
      schema: {
        tags: TAGS,
        summary: 'Set the provisioning forge (CEO)',
        description:
          'Where approval creates each cell project’s repository (GitHub or Gitea, under `owner`). The token ' +
          'is sealed at rest and also given to the projects approval creates, so their workspaces can clone.',
        body: ForgeConfigBody,
        response: {
          200: ForgeConfigAnswer,
          ...authErrorResponses,
          409: disabled,
          422: errorResponse('Invalid body, or no token while none is stored.'),
        },
      },
    },
    async (request) => ({ forge: await store.put(request.body, await actorSlug(request)) }),
  );
  api.delete(
    '/api/pitches/forge',
    {
      ...guard,
      schema: {
        tags: TAGS,
        summary: 'Remove the provisioning forge (CEO): approval makes local repositories again',
        response: { 200: ForgeConfigAnswer, ...authErrorResponses, 409: disabled },
      },
    },
    async () => {
      await store.clear();
      return { forge: null };
    },
  );
}
