/** /api/optimal: search and retrieval-augmented answers over the company's knowledge, and index health. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireIdentity } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import { HealthResponse, RagBody, RagResponse, SearchBody, SearchResponse, TAGS } from './api-schemas.js';
import type { OptimalService } from './service.js';

const invalid = errorResponse('The request is invalid; `details` names the fields.');

export function registerOptimalRoutes(app: FastifyInstance, service: OptimalService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/api/optimal/kb/search',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: "Search the company's knowledge",
        description:
          'Full-text search (PostgreSQL websearch syntax: words, "phrases", -exclusions, or) over the indexed ' +
          'docs, journals, tasks and findings, fused with vector similarity when an embedding model and ' +
          'pgvector are there (`mode` says which). One result per item, its best passage as the snippet.',
        body: SearchBody,
        response: { 200: SearchResponse, ...authErrorResponses, 422: invalid },
      },
    },
    async (request) => service.search(request.identity!, request.body),
  );

  api.post(
    '/api/optimal/rag/query',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: "Answer a question from the company's knowledge",
        description:
          "Retrieves the best passages, hands them to the caller's routed model as numbered context and " +
          'answers with the items it cites. 409 `no_model_provider` when no model is routed for the caller; ' +
          '504 `rag_timeout` when the model does not answer in time (GAFFER_OPTIMAL_RAG_TIMEOUT_SECONDS).',
        body: RagBody,
        response: {
          200: RagResponse,
          ...authErrorResponses,
          409: errorResponse('No model provider is routed for the caller (`remediate` says how to add one).'),
          422: invalid,
          502: errorResponse('The model provider failed.'),
          504: errorResponse('The model did not answer in time.'),
        },
      },
    },
    async (request) => service.rag(request.identity!, request.body),
  );

  api.get(
    '/api/optimal/health',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'State of the retrieval index',
        description:
          'Full text is always there; vectors need pgvector (and say why not) and an embedding model ' +
          '(the `embedding_model` setting, served by the provider routed for the system role). Chunks ' +
          'per source and where the indexer is in each source.',
        response: { 200: HealthResponse, ...authErrorResponses },
      },
    },
    async () => service.health(),
  );
}
