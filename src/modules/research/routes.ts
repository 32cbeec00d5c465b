/**
 * /api/research: search and fetch for the product owner, the head of marketing, the PMs and the
 * CEO (behind the `research` flag); the provider configuration (write-only key) and the audit list
 * for the CEO.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import { AppError, unprocessable } from '../../platform/http/errors.js';
import {
  FetchBody,
  FetchView,
  ProviderBody,
  ProviderView,
  QueriesQuery,
  QueriesView,
  SearchBody,
  SearchView,
  TAGS,
} from './api-schemas.js';
import type { ResearchService } from './service.js';

const invalid = errorResponse('The request is invalid; `details` names the fields.');
const disabled = errorResponse('The `research` feature flag is off (`feature_disabled`).');
const quota = errorResponse(
  'The caller’s daily research quota is used up (`research_quota_exhausted`, Retry-After).',
);

export function registerResearchRoutes(
  app: FastifyInstance,
  service: ResearchService,
  enabled: () => boolean,
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const researchers = requireRole('ceo', 'product_owner', 'head_marketing', 'main_pm', 'cell_pm');
  const ceoOnly = requireRole('ceo');
  const flagOn: preValidationAsyncHookHandler = async () => {
    if (!enabled()) {
      throw new AppError(
        404,
        'feature_disabled',
        'web research is off',
        undefined,
        'The CEO turns on the `research` feature flag (Settings → Feature flags); it applies on the next restart.',
      );
    }
  };

  api.post(
    '/api/research/search',
    {
      preValidation: [researchers, flagOn],
      schema: {
        tags: TAGS,
        summary: 'Search the web through the configured provider',
        description:
          'At most research_max_results results (≤ 10), normalized from Tavily, Brave or Exa. No provider ' +
          'configured: empty results and `provider: null`. Counts against the caller’s daily quota.',
        body: SearchBody,
        response: {
          200: SearchView,
          ...authErrorResponses,
          404: disabled,
          422: invalid,
          429: quota,
          502: errorResponse('The search provider failed (`research_provider_failed`).'),
        },
      },
    },
    async (request) => service.search(request.identity!, request.body.query, request.body.max_results),
  );

  api.post(
    '/api/research/fetch',
    {
      preValidation: [researchers, flagOn],
      schema: {
        tags: TAGS,
        summary: 'Fetch one web page as text',
        description:
          'http(s) only; private, loopback and reserved addresses are refused (422 `research_url_refused`), ' +
          'redirects are checked too. At most research_fetch_max_bytes are read (`truncated` says when the page ' +
          'was longer). Counts against the caller’s daily quota.',
        body: FetchBody,
        response: {
          200: FetchView,
          ...authErrorResponses,
          404: disabled,
          422: invalid,
          429: quota,
          502: errorResponse('The page could not be fetched (`research_fetch_failed`).'),
        },
      },
    },
    async (request) => service.fetch(request.identity!, request.body.url, request.body.max_chars),
  );

  api.get(
    '/api/research/queries',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Every research call, newest first (CEO)',
        description: 'Who searched or fetched what, through which provider, and how many results came back.',
        querystring: QueriesQuery,
        response: { 200: QueriesView, ...authErrorResponses, 422: invalid },
      },
    },
    async (request) => ({ queries: await service.history(request.query.limit, request.query.agent_id) }),
  );

  api.get(
    '/api/research/provider',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'The configured search provider (never its key)',
        response: { 200: ProviderView, ...authErrorResponses },
      },
    },
    async () => service.providers.status(),
  );

  api.put(
    '/api/research/provider',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Configure the search provider (CEO)',
        description:
          'Tavily, Brave or Exa with its API key (stored encrypted, never shown again) and an optional base URL; ' +
          '`provider: null` clears it.',
        body: ProviderBody,
        response: { 200: ProviderView, ...authErrorResponses, 422: invalid },
      },
    },
    async (request) => {
      const { provider, api_key: apiKey, base_url: baseUrl } = request.body;
      if (provider === null) await service.providers.clear();
      else if (!apiKey) throw unprocessable('api_key is required with a provider', { field: 'api_key' });
      else await service.providers.set(provider, apiKey, baseUrl ?? null, request.identity!.id);
      return service.providers.status();
    },
  );
}
