/**
 * The vector side of the index, only where pgvector exists (PGlite here always; PostgreSQL when the
 * extension is installed). The extension and the embeddings table (`optimal_chunk_vectors`, chunk
 * id → vector(N), HNSW cosine index) are created at runtime, not by a migration, because N is the
 * embedding model's length, learned from its first answer, and because the migrations must run on
 * a PostgreSQL without the extension. Which model and length the vectors have is in
 * `optimal_vector_state`; another model drops them all and they are made again.
 */
import { eq, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../platform/db/client.js';
import { messageOf } from '../../platform/message-of.js';
import { optimalVectorState } from './schema.js';

const STATE_ID = 'vectors';

export interface VectorAvailability {
  available: boolean;
  /** Why not, when not. */
  reason: string | null;
}

export interface VectorState {
  model: string;
  dimensions: number;
}

export interface ChunkToEmbed {
  id: number;
  title: string;
  text: string;
}

/** `[0.1,0.2,…]`, pgvector's text form. */
const literal = (vector: number[]) => `[${vector.map((v) => (Number.isFinite(v) ? v : 0)).join(',')}]`;

/** How long a read of the vector state is reused by searches (another replica may change it). */
const STATE_TTL_MS = 10_000;

export class VectorStore {
  #availability: Promise<VectorAvailability> | undefined;
  #cached: { state: VectorState | null; until: number } | undefined;

  constructor(private readonly db: Db) {}

  /** Creates the extension once per process; its failure (no pgvector) is the reason. */
  availability(): Promise<VectorAvailability> {
    this.#availability ??= this.db.execute(sql`create extension if not exists vector`).then(
      () => ({ available: true, reason: null }),
      (error: unknown) => ({ available: false, reason: `pgvector is not available: ${messageOf(error)}` }),
    );
    return this.#availability;
  }

  async state(): Promise<VectorState | null> {
    const [row] = await this.db.select().from(optimalVectorState).where(eq(optimalVectorState.id, STATE_ID));
    const state = row ? { model: row.model, dimensions: row.dimensions } : null;
    this.#cached = { state, until: Date.now() + STATE_TTL_MS };
    return state;
  }

  /** The state as last read, when read within the last few seconds (for searches). */
  async recentState(): Promise<VectorState | null> {
    if (this.#cached && this.#cached.until > Date.now()) return this.#cached.state;
    return this.state();
  }

  /** Drops every vector (another model, another length). */
  async reset(): Promise<void> {
    this.#cached = undefined;
    await this.db.execute(sql`drop table if exists optimal_chunk_vectors`);
    await this.db.delete(optimalVectorState).where(eq(optimalVectorState.id, STATE_ID));
  }

  /** Makes the table for vectors of this model and length. */
  async prepare(model: string, dimensions: number, now: Date): Promise<void> {
    await this.reset();
    await this.db.execute(
      sql.raw(`create table optimal_chunk_vectors (
        chunk_id bigint primary key references optimal_chunks(id) on delete cascade,
        embedding vector(${Math.trunc(dimensions)}) not null)`),
    );
    await this.db.execute(
      sql`create index optimal_chunk_vectors_hnsw_idx on optimal_chunk_vectors using hnsw (embedding vector_cosine_ops)`,
    );
    await this.db.insert(optimalVectorState).values({ id: STATE_ID, model, dimensions, updatedAt: now });
    this.#cached = undefined;
  }

  /** Chunks without a vector yet (every chunk when `all`, before the table exists). */
  async missing(limit: number, all = false): Promise<ChunkToEmbed[]> {
    return all
      ? queryRows<ChunkToEmbed>(
          this.db,
          sql`select id::int as id, title, text from optimal_chunks order by id limit ${limit}`,
        )
      : queryRows<ChunkToEmbed>(
          this.db,
          sql`select c.id::int as id, c.title, c.text from optimal_chunks c
              where not exists (select 1 from optimal_chunk_vectors v where v.chunk_id = c.id)
              order by c.id limit ${limit}`,
        );
  }

  async store(rows: { id: number; vector: number[] }[]): Promise<void> {
    for (const row of rows) {
      // A chunk replaced meanwhile is gone: the insert then selects nothing.
      await this.db.execute(sql`insert into optimal_chunk_vectors (chunk_id, embedding)
        select id, ${literal(row.vector)}::vector from optimal_chunks where id = ${row.id}
        on conflict (chunk_id) do update set embedding = excluded.embedding`);
    }
  }

  async count(): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      this.db,
      sql`select count(*)::int as n from optimal_chunk_vectors`,
    );
    return row?.n ?? 0;
  }

  /** Chunk ids nearest to `vector` by cosine distance, best first, among chunks matching `where`. */
  async nearest(vector: number[], limit: number, where: SQL): Promise<number[]> {
    const rows = await queryRows<{ id: number }>(
      this.db,
      sql`select c.id::int as id from optimal_chunk_vectors v join optimal_chunks c on c.id = v.chunk_id
          where ${where}
          order by v.embedding <=> ${literal(vector)}::vector limit ${limit}`,
    );
    return rows.map((row) => row.id);
  }
}
