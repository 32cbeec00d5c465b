/** HTTP shapes of /api/research. */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';
import { SEARCH_PROVIDERS } from './search-providers.js';

export const TAGS = ['research'];

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const SearchBody = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 400 }),
    max_results: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 10,
        description: 'Fewer than the research_max_results setting, never more.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SearchResultView = Type.Object({
  title: Type.String(),
  url: Type.String(),
  snippet: Type.String({ description: 'At most 500 characters of the page as the provider quotes it.' }),
  score: Type.Union([Type.Number(), Type.Null()], {
    description: 'Relevance 0–1; null when the provider gives none.',
  }),
});

export const SearchView = Type.Object({
  query: Type.String(),
  provider: Type.Union([StringEnum([...SEARCH_PROVIDERS]), Type.Null()], {
    description: 'Who answered; null when no provider is configured (the results are then empty).',
  }),
  answer: Nullable(Type.String({ description: 'A summary answer, when the provider writes one (Tavily).' })),
  results: Type.Array(SearchResultView),
});

export const FetchBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2000, description: 'An http(s) URL on a public address.' }),
    max_chars: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_000_000 })),
  },
  { additionalProperties: false },
);

export const FetchView = Type.Object({
  url: Type.String({ description: 'The URL finally read (after redirects).' }),
  content_type: Type.String(),
  content: Type.String({ description: 'The text of the page (HTML reduced to text).' }),
  truncated: Type.Boolean({ description: 'The page was longer than research_fetch_max_bytes or max_chars.' }),
  bytes: Type.Integer({ description: 'Bytes read.' }),
});

export const ProviderBody = Type.Object(
  {
    provider: Type.Union([StringEnum([...SEARCH_PROVIDERS]), Type.Null()], {
      description: 'null clears the configuration (searches then answer empty results).',
    }),
    api_key: Type.Optional(
      Type.String({ minLength: 1, maxLength: 500, description: 'Write-only; stored encrypted.' }),
    ),
    base_url: Type.Optional(
      Nullable(
        Type.String({ pattern: '^https?://', maxLength: 500, description: 'Default: the provider’s API.' }),
      ),
    ),
  },
  { additionalProperties: false },
);

export const ProviderView = Type.Object({
  provider: Type.Union([StringEnum([...SEARCH_PROVIDERS]), Type.Null()]),
  base_url: Nullable(Type.String()),
  has_api_key: Type.Boolean(),
  updated_by: Nullable(Type.String()),
  updated_at: Nullable(Type.String({ format: 'date-time' })),
});

export const QueriesQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
  agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

export const QueriesView = Type.Object({
  queries: Type.Array(
    Type.Object({
      id: Type.Integer(),
      agent_id: Type.String(),
      role: Type.String(),
      kind: StringEnum(['search', 'fetch']),
      provider: Nullable(Type.String()),
      subject: Type.String({ description: 'The query, or the URL fetched.' }),
      result_count: Type.Integer(),
      at: Type.String({ format: 'date-time' }),
    }),
  ),
});
