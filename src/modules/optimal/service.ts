/** The retrieval service behind /api/optimal: search, retrieval-augmented answers, index health. */
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import type { ModelClient } from '../../platform/llm/index.js';
import type { Logger } from '../../platform/logger.js';
import type { EmbedderResolution } from './embedder.js';
import { chunkCounts } from './indexer.js';
import { answerWith, type RagAnswer } from './rag.js';
import { optimalIndexState } from './schema.js';
import { type SearchInput, searchChunks, snippetOf } from './search.js';
import type { Reader, VisibilityFilter } from './types.js';
import type { VectorStore } from './vectors.js';

export interface SearchResult {
  source: string;
  ref: string;
  title: string;
  url: string | null;
  project_id: string | null;
  snippet: string;
  score: number;
}

export interface RagInput {
  question: string;
  project_id?: string | undefined;
  limit?: number | undefined;
}

export interface CursorView {
  source: string;
  cursor_at: string | null;
  cursor_ref: string | null;
  items_indexed: number;
  last_pass_at: string | null;
  last_error: string | null;
  /** Seconds since the source was last pulled (null before the first pass). */
  lag_seconds: number | null;
}

export interface OptimalServiceDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  vectors: VectorStore;
  embedder: () => Promise<EmbedderResolution>;
  /** The caller's routed model (the providers' 409 `no_model_provider` when none). */
  modelFor: (reader: Reader, timeoutMs: number) => Promise<ModelClient>;
  ragTimeoutMs: () => number;
  /** Per source kind: which of its items a reader may see (sources not named: everyone). */
  visibility: Readonly<Record<string, VisibilityFilter>>;
  /** The source kinds wired in, so health lists them before their first pass. */
  sourceKinds: readonly string[];
}

export const RAG_DEFAULT_LIMIT = 6;

/**
 * A question as a full-text query matching any of its words (`a or b or c`): a question rarely has
 * all its words in one passage, and the ranking still puts passages with more of them first.
 */
export function anyWordOf(question: string): string {
  const words = question.split(/[^\p{L}\p{N}_]+/u).filter((word) => word.length > 1);
  return words.length ? words.join(' or ') : question;
}

export class OptimalService {
  constructor(private readonly deps: OptimalServiceDeps) {}

  async search(
    reader: Reader,
    input: SearchInput,
  ): Promise<{ results: SearchResult[]; mode: 'hybrid' | 'fulltext' }> {
    const { hits, mode } = await searchChunks(this.deps, reader, input);
    return {
      mode,
      results: hits.map((hit) => ({
        source: hit.source,
        ref: hit.ref,
        title: hit.title,
        url: hit.url,
        project_id: hit.project_id,
        snippet: snippetOf(hit.text, input.query),
        score: hit.score,
      })),
    };
  }

  async rag(reader: Reader, input: RagInput): Promise<RagAnswer> {
    const timeoutMs = this.deps.ragTimeoutMs();
    // The model first: without one the answer is the 409, whatever the index holds.
    const client = await this.deps.modelFor(reader, timeoutMs);
    const { hits } = await searchChunks(this.deps, reader, {
      query: anyWordOf(input.question),
      limit: input.limit ?? RAG_DEFAULT_LIMIT,
      project_id: input.project_id,
    });
    return answerWith(client, input.question, hits, timeoutMs);
  }

  async health() {
    const { db, vectors, clock } = this.deps;
    const availability = await vectors.availability();
    const state = availability.available ? await vectors.state() : null;
    const embedder = await this.deps.embedder();
    const bySource = await chunkCounts(db);
    const cursorRows = await db.select().from(optimalIndexState);
    const known = new Map(cursorRows.map((row) => [row.source, row]));
    const kinds = [...new Set([...this.deps.sourceKinds, ...known.keys()])].sort();
    const now = clock.now().getTime();
    const cursors: CursorView[] = kinds.map((source) => {
      const row = known.get(source);
      return {
        source,
        cursor_at: row?.cursorAt?.toISOString() ?? null,
        cursor_ref: row?.cursorRef ?? null,
        items_indexed: row?.itemsIndexed ?? 0,
        last_pass_at: row?.lastPassAt?.toISOString() ?? null,
        last_error: row?.lastError ?? null,
        lag_seconds: row?.lastPassAt
          ? Math.max(0, Math.round((now - row.lastPassAt.getTime()) / 1000))
          : null,
      };
    });
    const vectorCount = state ? await vectors.count() : 0;
    return {
      fulltext: true as const,
      vector: {
        available: availability.available,
        reason: availability.available
          ? state
            ? null
            : 'no vectors yet (no embedding model configured, or nothing embedded so far)'
          : availability.reason,
        dimensions: state?.dimensions ?? null,
        model: state?.model ?? null,
        vectors: vectorCount,
      },
      embeddings: embedder.configured
        ? { configured: true, model: embedder.model, provider: embedder.provider, reason: null }
        : { configured: false, model: embedder.model, provider: null, reason: embedder.reason },
      indexed: {
        chunks: Object.values(bySource).reduce((sum, n) => sum + n, 0),
        by_source: bySource,
      },
      cursors,
    };
  }
}
