/**
 * `POST /api/optimal/kb/search` over 50,000 indexed chunks (about 1,000 characters each), its p99
 * next to the p99 of the same full-text query (`fullTextQuery`, the statement the route runs) as
 * raw SQL on the same database in the same run. Target: route ≤ 1.5 × SQL. No embedding model is
 * configured, so the route answers in `fulltext` mode, like the SQL. PGlite by default; PostgreSQL
 * (a scratch database) when GAFFER_BENCH_DATABASE_URL is set.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { configWith } from '../src/config.js';
import { fullTextQuery } from '../src/modules/optimal/index.js';
import { type Db, queryRows } from '../src/platform/db/client.js';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import { startServer } from '../src/server.js';
import { onScratchDatabase, ratio, report, routeAgainstBaseline } from './support.js';

const CHUNKS = Number(process.env.BENCH_SEARCH_CHUNKS ?? 50_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60);
const LIMIT = 10;
const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';

const COMMON = (
  'service deploy release branch merge review test failure retry queue worker broker cluster node ' +
  'database index query cache latency budget cost agent task finding criteria note journal document ' +
  'runbook incident outage alert metric dashboard panel route token secret config setting schedule ' +
  'loop lease lock replica backup restore migration schema table column version build pipeline ' +
  'commit pull request owner team project product customer order payment invoice checkout cart ' +
  'search ranking vector embedding chunk model provider prompt answer question context citation'
).split(' ');
const TOPICS = Array.from(
  { length: 50 },
  (_, i) => `topic${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}`,
);
/** The timed query: a topic word (in 2 % of chunks) and a common one (in about half of those). */
const QUERY = `${TOPICS[7]} latency`;

/** The chunks: 50 sources × items of 4 chunks, each chunk ~150 words over the vocabulary. */
async function seed(db: Db): Promise<number> {
  const started = performance.now();
  await db.execute(sql`
    insert into optimal_chunks (source, ref, project_id, title, url, chunk_no, text, updated_at)
    select (array['doc', 'journal', 'task', 'finding'])[1 + i % 4], 'item-' || (i / 4), null,
      'Item ' || (i / 4) || ' about ' || t.topics[1 + i % 50], null, i % 4,
      t.topics[1 + i % 50] || ' ' || (
        select string_agg(t.words[1 + ((i * 7919 + j * 104729) % array_length(t.words, 1))], ' ')
        from generate_series(1, 150) as j),
      now()
    from generate_series(0, ${CHUNKS - 1}) as i,
      (select string_to_array(${COMMON.join(' ')}, ' ') as words, string_to_array(${TOPICS.join(' ')}, ' ') as topics) as t`);
  await db.execute(sql`analyze optimal_chunks`);
  return Math.round(performance.now() - started);
}

const rawSql = (db: Db) => queryRows(db, fullTextQuery(QUERY, LIMIT * 3, sql`true`)); // the route's candidates for limit 10

async function onDatabase(databaseUrl: string | undefined) {
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-bench-search-'));
  const server = await startServer(
    configWith({ dataDir, databaseUrl, port: 0, logLevel: 'warn', authSecret: SECRET }),
  );
  try {
    const db = server.platform.database.db;
    const seedMs = await seed(db);
    const url = `http://127.0.0.1:${server.port}/api/optimal/kb/search`;
    const headers = {
      'x-agent-token': staticToken(SECRET, CEO_IDENTITY),
      'content-type': 'application/json',
    };
    const body = JSON.stringify({ query: QUERY, limit: LIMIT });
    const route = async () => {
      const response = await fetch(url, { method: 'POST', headers, body });
      if (response.status !== 200)
        throw new Error(`kb/search answered ${response.status}: ${await response.text()}`);
      return response.json() as Promise<{ results: unknown[]; mode: string }>;
    };
    const first = await route();
    const matching = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from optimal_chunks where tsv @@ websearch_to_tsquery('english', ${QUERY})`,
    );
    const timed = await routeAgainstBaseline(SAMPLES, route, () => rawSql(db));
    return {
      seed_ms: seedMs,
      query: QUERY,
      matching_chunks: matching[0]?.n ?? 0,
      results: first.results.length,
      mode: first.mode,
      route: timed.route,
      raw_sql: timed.baseline,
      ratio_p99: timed.ratio_p99,
    };
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const onPostgres = Boolean(process.env.GAFFER_BENCH_DATABASE_URL);
const result = onPostgres ? await onScratchDatabase((url) => onDatabase(url)) : await onDatabase(undefined);
console.log(
  `kb/search p99 ${result.route.p99_ms} ms, raw SQL p99 ${result.raw_sql.p99_ms} ms, ratio ${result.ratio_p99}`,
);
report(
  'search',
  { chunks: CHUNKS, samples: SAMPLES, database: onPostgres ? 'postgresql' : 'pglite', ...result },
  {
    description: 'kb/search p99 ≤ 1.5 × the same full-text query as raw SQL',
    met: true,
    ratios: [
      ratio(
        'kb/search p99 / raw SQL p99',
        result.ratio_p99,
        'the same full-text query run directly',
        '<=',
        1.5,
      ),
    ],
  },
);
