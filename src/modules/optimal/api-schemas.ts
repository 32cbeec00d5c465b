/** HTTP shapes of /api/optimal. */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';

export const TAGS = ['optimal'];

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const ProjectId = Type.String({ minLength: 1, maxLength: 100, description: 'Only items of this project.' });

export const SearchBody = Type.Object(
  {
    query: Type.String({
      minLength: 1,
      maxLength: 1000,
      pattern: '\\S',
      description: 'Words or phrases to find.',
    }),
    limit: Type.Integer({ minimum: 1, maximum: 50, default: 10 }),
    sources: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 40 }), {
        minItems: 1,
        maxItems: 20,
        description: 'Only these sources (doc, journal, finding, task, code…).',
      }),
    ),
    project_id: Type.Optional(ProjectId),
  },
  { additionalProperties: false },
);

export const SearchResultSchema = Type.Object({
  source: Type.String(),
  ref: Type.String({ description: 'The id of the item within its source.' }),
  title: Type.String(),
  url: Nullable(Type.String()),
  project_id: Nullable(Type.String()),
  snippet: Type.String({ description: 'The passage of the best-matching chunk around the query words.' }),
  score: Type.Number({ description: 'Reciprocal-rank-fusion score; higher is better.' }),
});

export const SearchResponse = Type.Object({
  results: Type.Array(SearchResultSchema),
  mode: StringEnum(['hybrid', 'fulltext'], {
    description: '`hybrid`: full text fused with vector similarity; `fulltext`: full text alone.',
  }),
});

export const RagBody = Type.Object(
  {
    question: Type.String({ minLength: 1, maxLength: 4000, pattern: '\\S' }),
    project_id: Type.Optional(ProjectId),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 20, description: 'Context items (default 6).' }),
    ),
  },
  { additionalProperties: false },
);

export const CitationSchema = Type.Object({
  source: Type.String(),
  ref: Type.String(),
  title: Type.String(),
  url: Nullable(Type.String()),
});

export const RagResponse = Type.Object({
  answer: Type.String({ description: 'The model’s answer, citing the context by number ([1], [2]…).' }),
  citations: Type.Array(CitationSchema, { description: 'The context items the answer cites, in order.' }),
  context_used: Type.Object({
    chunks: Type.Integer({ description: 'Context items handed to the model.' }),
    chars: Type.Integer({ description: 'Characters of context handed to the model.' }),
  }),
});

export const HealthResponse = Type.Object({
  fulltext: Type.Literal(true),
  vector: Type.Object({
    available: Type.Boolean({ description: 'pgvector is installed in the database.' }),
    reason: Nullable(Type.String()),
    dimensions: Nullable(Type.Integer()),
    model: Nullable(Type.String({ description: 'The embedding model the stored vectors come from.' })),
    vectors: Type.Integer({ description: 'Chunks with a vector.' }),
  }),
  embeddings: Type.Object({
    configured: Type.Boolean(),
    model: Nullable(Type.String()),
    provider: Nullable(Type.String()),
    reason: Nullable(Type.String()),
  }),
  indexed: Type.Object({
    chunks: Type.Integer(),
    by_source: Type.Record(Type.String(), Type.Integer()),
  }),
  cursors: Type.Array(
    Type.Object({
      source: Type.String(),
      cursor_at: Nullable(Type.String({ format: 'date-time' })),
      cursor_ref: Nullable(Type.String()),
      items_indexed: Type.Integer(),
      last_pass_at: Nullable(Type.String({ format: 'date-time' })),
      last_error: Nullable(Type.String()),
      lag_seconds: Nullable(Type.Integer({ description: 'Seconds since the source was last pulled.' })),
    }),
  ),
});
