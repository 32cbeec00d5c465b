/**
 * Search over the index: PostgreSQL full text (`websearch_to_tsquery`, ranked by `ts_rank_cd`)
 * fused with pgvector cosine similarity by reciprocal-rank fusion when vectors can answer
 * (pgvector present, an embedding model configured, the stored vectors made by it). One result
 * per item (source, ref): its best chunk.
 */
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../platform/db/client.js';
import type { Logger } from '../../platform/logger.js';
import type { EmbedderResolution } from './embedder.js';
import type { Reader, VisibilityFilter } from './types.js';
import type { VectorStore } from './vectors.js';

/** The usual RRF constant: damps the weight of the very first ranks. */
const RRF_K = 60;
/** Candidates taken from each ranking per wanted result (items have several chunks). */
const CANDIDATES_PER_RESULT = 3;

export interface SearchInput {
  query: string;
  limit: number;
  sources?: string[] | undefined;
  project_id?: string | undefined;
}

export interface ChunkHit {
  id: number;
  source: string;
  ref: string;
  project_id: string | null;
  title: string;
  url: string | null;
  text: string;
  score: number;
}

export interface SearchOutcome {
  hits: ChunkHit[];
  mode: 'hybrid' | 'fulltext';
}

interface ChunkRow {
  id: number;
  source: string;
  ref: string;
  project_id: string | null;
  title: string;
  url: string | null;
  text: string;
}

export function filtersOf(input: Pick<SearchInput, 'sources' | 'project_id'>): SQL {
  const parts: SQL[] = [sql`true`];
  if (input.sources?.length) parts.push(sql`c.source in ${input.sources}`);
  if (input.project_id) parts.push(sql`c.project_id = ${input.project_id}`);
  return sql.join(parts, sql` and `);
}

/** The full-text ranking: the same statement the bench times as raw SQL. */
export function fullTextQuery(query: string, limit: number, filters: SQL): SQL {
  return sql`select c.id::int as id, c.source, c.ref, c.project_id, c.title, c.url, c.text
    from optimal_chunks c, websearch_to_tsquery('english', ${query}) q
    where c.tsv @@ q and ${filters}
    order by ts_rank_cd(c.tsv, q) desc, c.id
    limit ${limit}`;
}

/** Reciprocal-rank fusion of rankings of chunk ids (pure): best first with its fused score. */
export function fuse(rankings: number[][]): { id: number; score: number }[] {
  const scores = new Map<number, number>();
  for (const ranking of rankings) {
    for (const [rank, id] of ranking.entries())
      scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + rank + 1));
  }
  return [...scores.entries()]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || a.id - b.id);
}

export interface SearchDeps {
  db: Db;
  log: Logger;
  vectors: VectorStore;
  embedder: () => Promise<EmbedderResolution>;
  /** Per source kind: which of its items a reader may see. */
  visibility: Readonly<Record<string, VisibilityFilter>>;
}

/** The query's vector when vectors can answer it, else null (and the search is full-text). */
async function queryVector(deps: SearchDeps, query: string): Promise<number[] | null> {
  if (!(await deps.vectors.availability()).available) return null;
  const state = await deps.vectors.recentState();
  if (!state) return null;
  const embedder = await deps.embedder();
  if (!embedder.configured || embedder.model !== state.model) return null;
  try {
    const { vectors } = await embedder.client.embed([query]);
    const vector = vectors[0];
    return vector?.length === state.dimensions ? vector : null;
  } catch (error) {
    deps.log.warn({ err: error }, 'optimal: embedding the query failed; searching full-text only');
    return null;
  }
}

/** The vector ranking; null when it fails (the vectors were just dropped for another model, say). */
async function nearestOrNull(
  deps: SearchDeps,
  vector: number[],
  limit: number,
  filters: SQL,
): Promise<number[] | null> {
  try {
    return await deps.vectors.nearest(vector, limit, filters);
  } catch (error) {
    deps.log.warn({ err: error }, 'optimal: the vector ranking failed; searching full-text only');
    return null;
  }
}

/** The items among `rows` the reader may not see, as `source\0ref` keys. */
async function hiddenFrom(deps: SearchDeps, reader: Reader, rows: ChunkRow[]): Promise<Set<string>> {
  const hidden = new Set<string>();
  const bySource = new Map<string, Set<string>>();
  for (const row of rows) {
    if (!deps.visibility[row.source]) continue;
    const refs = bySource.get(row.source) ?? new Set<string>();
    refs.add(row.ref);
    bySource.set(row.source, refs);
  }
  for (const [source, refs] of bySource) {
    const visible = await deps.visibility[source]!(reader, [...refs]);
    for (const ref of refs) if (!visible.has(ref)) hidden.add(`${source}\u0000${ref}`);
  }
  return hidden;
}

export async function searchChunks(
  deps: SearchDeps,
  reader: Reader,
  input: SearchInput,
): Promise<SearchOutcome> {
  const candidates = Math.min(input.limit * CANDIDATES_PER_RESULT, 150);
  const filters = filtersOf(input);
  const vector = await queryVector(deps, input.query);
  const textRows = await queryRows<ChunkRow>(deps.db, fullTextQuery(input.query, candidates, filters));
  const rankings = [textRows.map((row) => row.id)];
  const rows = new Map(textRows.map((row) => [row.id, row]));
  const nearest = vector ? await nearestOrNull(deps, vector, candidates, filters) : null;
  if (nearest) {
    rankings.push(nearest);
    const unseen = nearest.filter((id) => !rows.has(id));
    if (unseen.length) {
      const more = await queryRows<ChunkRow>(
        deps.db,
        sql`select c.id::int as id, c.source, c.ref, c.project_id, c.title, c.url, c.text
            from optimal_chunks c where c.id in ${unseen}`,
      );
      for (const row of more) rows.set(row.id, row);
    }
  }
  const hidden = await hiddenFrom(deps, reader, [...rows.values()]);
  const hits: ChunkHit[] = [];
  const seen = new Set<string>();
  for (const { id, score } of fuse(rankings)) {
    const row = rows.get(id);
    if (!row || hidden.has(`${row.source}\u0000${row.ref}`)) continue;
    const item = `${row.source}\u0000${row.ref}`;
    if (seen.has(item)) continue;
    seen.add(item);
    hits.push({ ...row, score });
    if (hits.length >= input.limit) break;
  }
  return { hits, mode: nearest ? 'hybrid' : 'fulltext' };
}

/** About `size` characters of `text` around the first word of the query found in it (pure). */
export function snippetOf(text: string, query: string, size = 240): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= size) return flat;
  const lower = flat.toLowerCase();
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 2);
  const found = words.map((w) => lower.indexOf(w)).filter((i) => i >= 0);
  const at = found.length ? Math.min(...found) : 0;
  const start = Math.max(0, Math.min(at - Math.floor(size / 3), flat.length - size));
  const cut = flat.slice(start, start + size);
  return `${start > 0 ? '…' : ''}${cut}${start + size < flat.length ? '…' : ''}`;
}
