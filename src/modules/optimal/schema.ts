/**
 * The retrieval index: one row per chunk of an indexed item (source, ref), with a generated
 * `tsvector` (title weighted above the body) under a GIN index; the per-source cursor of the
 * incremental indexer; and which embedding model the vectors were made with. The vectors
 * themselves live in `optimal_chunk_vectors`, created at runtime only where pgvector exists
 * (see vectors.ts), so these migrations run on every PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  customType,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const optimalChunks = pgTable(
  'optimal_chunks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The knowledge source: doc, journal, finding, task, code… */
    source: text('source').notNull(),
    /** Stable id of the item within its source. */
    ref: text('ref').notNull(),
    projectId: text('project_id'),
    title: text('title').notNull(),
    url: text('url'),
    /** 0-based position of the chunk within its item. */
    chunkNo: integer('chunk_no').notNull(),
    text: text('text').notNull(),
    tsv: tsvector('tsv')
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', text), 'B')`,
      ),
    /** The item's `updated_at` when it was indexed. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('optimal_chunks_item_idx').on(t.source, t.ref, t.chunkNo),
    index('optimal_chunks_tsv_idx').using('gin', t.tsv),
    index('optimal_chunks_project_idx').on(t.projectId),
  ],
);

/** Where the indexer is in each source: the (updated_at, ref) of the last item taken. */
export const optimalIndexState = pgTable('optimal_index_state', {
  source: text('source').primaryKey(),
  cursorAt: timestamp('cursor_at', { withTimezone: true }),
  cursorRef: text('cursor_ref'),
  itemsIndexed: bigint('items_indexed', { mode: 'number' }).notNull().default(0),
  lastPassAt: timestamp('last_pass_at', { withTimezone: true }),
  lastError: text('last_error'),
});

/** The embedding model the stored vectors come from and their length (one row, id `vectors`). */
export const optimalVectorState = pgTable('optimal_vector_state', {
  id: text('id').primaryKey(),
  model: text('model').notNull(),
  dimensions: integer('dimensions').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
