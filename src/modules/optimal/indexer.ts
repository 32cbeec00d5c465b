/**
 * One pass of the incremental indexer: for every source, pull the items changed since its cursor
 * (in batches), replace the chunks of each changed (source, ref) or delete them for a tombstone,
 * and advance the cursor in the same transaction. Then embed the chunks that have no vector yet,
 * when vectors and an embedding model are both there. A failing source is recorded on its cursor
 * row and does not stop the others.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import type { Logger } from '../../platform/logger.js';
import { messageOf } from '../../platform/message-of.js';
import { chunkText } from './chunking.js';
import type { EmbedderResolution } from './embedder.js';
import { optimalChunks, optimalIndexState } from './schema.js';
import type { KnowledgeCursor, KnowledgeItem, KnowledgeSource } from './types.js';
import type { VectorStore } from './vectors.js';

/**
 * Items per transaction. Small, because on the embedded store a transaction holds the one
 * connection: every request waits for the batch in hand (200 held the board for a second).
 */
const INDEX_BATCH = 50;
/** Batches per source per pass (5,000 items): a large backlog is worked off over several passes. */
const MAX_BATCHES_PER_PASS = 100;
const EMBED_BATCH = 64;
const MAX_EMBED_BATCHES_PER_PASS = 20;

export interface IndexerDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  sources: readonly KnowledgeSource[];
  vectors: VectorStore;
  embedder: () => Promise<EmbedderResolution>;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

async function cursorOf(db: Db, source: string): Promise<KnowledgeCursor | null> {
  const [row] = await db.select().from(optimalIndexState).where(eq(optimalIndexState.source, source));
  return row?.cursorAt && row.cursorRef !== null ? { at: row.cursorAt, ref: row.cursorRef } : null;
}

/** Rows per chunk insert: far below PostgreSQL's 65,535 parameters (eight a row). */
const INSERT_ROWS = 1000;

/**
 * Replaces the chunks of every item of a batch (an item's later version wins), in one delete and
 * one insert per INSERT_ROWS chunks rather than two statements per item: a batch then holds the
 * connection (the embedded store's only one) a moment, not a hundred round trips.
 */
async function replaceItems(tx: Tx, kind: string, items: readonly KnowledgeItem[]): Promise<void> {
  const latest = new Map(items.map((item) => [item.ref, item]));
  await tx
    .delete(optimalChunks)
    .where(and(eq(optimalChunks.source, kind), inArray(optimalChunks.ref, [...latest.keys()])));
  const rows = [...latest.values()]
    .filter((item) => !item.deleted)
    .flatMap((item) => {
      const texts = chunkText(item.body);
      return (texts.length ? texts : [item.title]).map((text, chunkNo) => ({
        source: kind,
        ref: item.ref,
        projectId: item.project_id,
        title: item.title,
        url: item.url ?? null,
        chunkNo,
        text,
        updatedAt: item.updated_at,
      }));
    });
  for (let start = 0; start < rows.length; start += INSERT_ROWS) {
    await tx.insert(optimalChunks).values(rows.slice(start, start + INSERT_ROWS));
  }
}

async function saveState(
  db: Db | Tx,
  source: string,
  values: Partial<typeof optimalIndexState.$inferInsert>,
) {
  await db
    .insert(optimalIndexState)
    .values({ source, ...values })
    .onConflictDoUpdate({ target: optimalIndexState.source, set: values });
}

export async function indexSource(
  deps: IndexerDeps,
  source: KnowledgeSource,
  signal: AbortSignal,
): Promise<void> {
  let cursor = await cursorOf(deps.db, source.kind);
  try {
    for (let batch = 0; batch < MAX_BATCHES_PER_PASS && !signal.aborted; batch++) {
      const items = await source.changedSince(cursor, INDEX_BATCH);
      if (items.length === 0) break;
      const last = items[items.length - 1]!;
      const next = { at: last.updated_at, ref: last.ref };
      await deps.db.transaction(async (tx) => {
        await replaceItems(tx, source.kind, items);
        await tx
          .insert(optimalIndexState)
          .values({ source: source.kind, cursorAt: next.at, cursorRef: next.ref, itemsIndexed: items.length })
          .onConflictDoUpdate({
            target: optimalIndexState.source,
            set: {
              cursorAt: next.at,
              cursorRef: next.ref,
              itemsIndexed: sql`${optimalIndexState.itemsIndexed} + ${items.length}`,
            },
          });
      });
      cursor = next;
      if (items.length < INDEX_BATCH) break;
    }
    await saveState(deps.db, source.kind, { lastPassAt: deps.clock.now(), lastError: null });
  } catch (error) {
    deps.log.warn({ err: error, source: source.kind }, 'optimal: indexing a source failed');
    await saveState(deps.db, source.kind, { lastPassAt: deps.clock.now(), lastError: messageOf(error, 500) });
  }
}

/** Embeds chunks that have no vector yet; the first answer fixes the vectors' length. */
export async function embedMissing(deps: IndexerDeps, signal: AbortSignal): Promise<void> {
  if (!(await deps.vectors.availability()).available) return;
  const embedder = await deps.embedder();
  if (!embedder.configured) return;
  let state = await deps.vectors.state();
  if (state && state.model !== embedder.model) {
    await deps.vectors.reset();
    state = null;
  }
  for (let batch = 0; batch < MAX_EMBED_BATCHES_PER_PASS && !signal.aborted; batch++) {
    const chunks = await deps.vectors.missing(EMBED_BATCH, !state);
    if (chunks.length === 0) return;
    const { vectors } = await embedder.client.embed(
      chunks.map((c) => `${c.title}\n\n${c.text}`),
      { signal },
    );
    if (!state) {
      const dimensions = vectors[0]?.length ?? 0;
      if (dimensions === 0) return;
      await deps.vectors.prepare(embedder.model, dimensions, deps.clock.now());
      state = { model: embedder.model, dimensions };
    }
    await deps.vectors.store(chunks.map((c, i) => ({ id: c.id, vector: vectors[i]! })));
  }
}

export async function indexPass(deps: IndexerDeps, signal: AbortSignal): Promise<void> {
  for (const source of deps.sources) {
    if (signal.aborted) return;
    await indexSource(deps, source, signal);
  }
  try {
    await embedMissing(deps, signal);
  } catch (error) {
    deps.log.warn({ err: error }, 'optimal: embedding chunks failed; search stays full-text for them');
  }
}

/** Chunk counts per source. */
export async function chunkCounts(db: Db, sources?: string[]): Promise<Record<string, number>> {
  const rows = await db
    .select({ source: optimalChunks.source, n: sql<number>`count(*)::int` })
    .from(optimalChunks)
    .where(sources?.length ? inArray(optimalChunks.source, sources) : undefined)
    .groupBy(optimalChunks.source);
  return Object.fromEntries(rows.map((row) => [row.source, Number(row.n)]));
}
