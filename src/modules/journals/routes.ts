/**
 * /api/journals: an agent writes and lists its own entries (/me/entries); lists what its tier lets
 * it read (GET /api/journals, or one agent's journal: 403 when out of reach); reads one entry (404
 * when absent or out of reach, so existence never leaks); deletes its own.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Identity } from '../../platform/http/auth/index.js';
import { requireIdentity } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import {
  AgentParams,
  EntryList,
  EntryParams,
  JournalEntrySchema,
  ListQuery,
  NewEntrySchema,
  OwnListQuery,
  TAGS,
} from './api-schemas.js';
import type { JournalActor, JournalsService } from './service.js';

const invalid = errorResponse('The request is invalid; `details` names the fields.');
const missing = errorResponse('No such entry, or not one the caller may read.');

export function registerJournalsRoutes(
  app: FastifyInstance,
  service: JournalsService,
  actorOf: (identity: Identity) => Promise<JournalActor>,
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const base = { preValidation: requireIdentity };

  api.post(
    '/api/journals/me/entries',
    {
      ...base,
      schema: {
        tags: TAGS,
        summary: 'Write an entry in one’s own journal',
        description:
          'The author is the caller. Each type has a least length (`content_too_short` 422 names it).',
        body: NewEntrySchema,
        response: { 201: JournalEntrySchema, ...authErrorResponses, 422: invalid },
      },
    },
    async (request, reply) => {
      const entry = await service.write(await actorOf(request.identity!), request.body);
      return reply.code(201).send(entry);
    },
  );

  api.get(
    '/api/journals/me/entries',
    {
      ...base,
      schema: {
        tags: TAGS,
        summary: 'One’s own journal entries, newest first',
        querystring: OwnListQuery,
        response: { 200: EntryList, ...authErrorResponses, 422: invalid },
      },
    },
    async (request) => {
      const actor = await actorOf(request.identity!);
      return service.list(actor, { ...request.query, author: actor.id });
    },
  );

  api.get(
    '/api/journals',
    {
      ...base,
      schema: {
        tags: TAGS,
        summary: 'Journal entries the caller may read, newest first',
        description:
          'Tiers: one’s own always; the CEO and the auditor read every journal, and only they read ' +
          'theirs; a PM reads the journals of their team; anyone else only their own. `author` ' +
          'narrows to one agent (403 when out of reach, 404 when no such agent).',
        querystring: ListQuery,
        response: { 200: EntryList, ...authErrorResponses, 404: missing, 422: invalid },
      },
    },
    async (request) => service.list(await actorOf(request.identity!), request.query),
  );

  api.get(
    '/api/journals/:agent/entries',
    {
      ...base,
      schema: {
        tags: TAGS,
        summary: 'One agent’s journal',
        description: '403 when the caller’s tier does not reach it; 404 when there is no such agent.',
        params: AgentParams,
        querystring: OwnListQuery,
        response: { 200: EntryList, ...authErrorResponses, 404: missing, 422: invalid },
      },
    },
    async (request) =>
      service.list(await actorOf(request.identity!), { ...request.query, author: request.params.agent }),
  );

  // One entry lives at /api/journal-entries/{id}; /api/journals/entries/{id}, where it first lived,
  // read as an agent named `entries` beside /api/journals/{agent}/entries: it stays as an alias,
  // out of the document.
  for (const [url, hide] of [
    ['/api/journal-entries/:id', false],
    ['/api/journals/entries/:id', true],
  ] as const) {
    api.get(
      url,
      {
        ...base,
        schema: {
          hide,
          tags: TAGS,
          summary: 'One journal entry',
          description: '404 when absent, deleted, or not the caller’s to read.',
          params: EntryParams,
          response: { 200: JournalEntrySchema, ...authErrorResponses, 404: missing },
        },
      },
      async (request) => service.get(await actorOf(request.identity!), request.params.id),
    );

    api.delete(
      url,
      {
        ...base,
        schema: {
          hide,
          tags: TAGS,
          summary: 'Delete one of one’s own entries',
          description:
            '403 when it is another’s entry the caller can read; 404 when the caller cannot see it.',
          params: EntryParams,
          response: { 204: Type.Null(), ...authErrorResponses, 404: missing },
        },
      },
      async (request, reply) => {
        await service.delete(await actorOf(request.identity!), request.params.id);
        return reply.code(204).send(null);
      },
    );
  }
}
