/**
 * `GET /api/usage/summary?period=30d` over 1,000,000 usage-ledger rows (spread over 60 days, so the
 * period and the window before it cover them all), its p99 next to the p99 of the same aggregate
 * as one hand-written SQL query on the same database in the same run. Target: route ≤ 1.5 × SQL.
 * PGlite by default; PostgreSQL (a scratch database) when GAFFER_BENCH_DATABASE_URL is set.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { configWith } from '../src/config.js';
import { type Db, queryRows } from '../src/platform/db/client.js';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import { startServer } from '../src/server.js';
import { onScratchDatabase, ratio, report, routeAgainstBaseline } from './support.js';

const ROWS = Number(process.env.BENCH_USAGE_ROWS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);
const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
const DAY_MS = 86_400_000;

/** The ledger rows: 60 days of calls by the roster's agents over four models, newest first. */
async function seed(db: Db): Promise<number> {
  const started = performance.now();
  await db.transaction(async (tx) => {
    // Seeding only: skip the per-row foreign-key checks (the agent ids are taken from the roster).
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
    insert into usage_records (agent_id, agent_role, agent_team, source, provider, model, input_tokens,
      output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, at)
    select a.ids[1 + i % array_length(a.ids, 1)], 'developer', 'backend', 'process', 'claude',
      (array['claude-sonnet-4-5', 'gpt-5', 'claude-haiku-4-5', 'llama3.1'])[1 + i % 4],
      500 + i % 1000, 50 + i % 300, (i % 7) * 100, (i % 5) * 50, (i % 1000) / 10000.0,
      now() - (i::double precision * ${(60 * DAY_MS) / ROWS}) * interval '1 millisecond'
    from generate_series(1, ${ROWS}) as i,
      (select array_agg(id) as ids from agents where role not in ('ceo', 'system')) as a`);
  });
  await db.execute(sql`analyze usage_records`);
  return Math.round(performance.now() - started);
}

/** The same aggregate the route answers, written by hand: this window's figures and the window before's. */
async function handWritten(db: Db): Promise<unknown> {
  const now = new Date();
  const start = new Date(now.getTime() - 30 * DAY_MS).toISOString();
  const previousStart = new Date(now.getTime() - 60 * DAY_MS).toISOString();
  const [row] = await queryRows(
    db,
    sql`select
      coalesce(sum(input_tokens) filter (where at >= ${start}::timestamptz), 0) as input_tokens,
      coalesce(sum(output_tokens) filter (where at >= ${start}::timestamptz), 0) as output_tokens,
      coalesce(sum(cache_read_tokens) filter (where at >= ${start}::timestamptz), 0) as cache_read_tokens,
      coalesce(sum(cache_write_tokens) filter (where at >= ${start}::timestamptz), 0) as cache_write_tokens,
      coalesce(sum(cost_usd) filter (where at >= ${start}::timestamptz), 0) as cost_usd,
      count(*) filter (where at >= ${start}::timestamptz) as calls,
      coalesce(sum(input_tokens + output_tokens + cache_read_tokens + cache_write_tokens)
        filter (where at < ${start}::timestamptz), 0) as previous_tokens,
      coalesce(sum(cost_usd) filter (where at < ${start}::timestamptz), 0) as previous_cost
    from usage_records
    where at >= ${previousStart}::timestamptz and at <= ${now.toISOString()}::timestamptz`,
  );
  return row;
}

async function onDatabase(databaseUrl: string | undefined) {
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-bench-usage-'));
  const server = await startServer(
    configWith({ dataDir, databaseUrl, port: 0, logLevel: 'warn', authSecret: SECRET }),
  );
  try {
    const db = server.platform.database.db;
    const seedMs = await seed(db);
    const url = `http://127.0.0.1:${server.port}/api/usage/summary?period=30d`;
    const headers = { 'x-agent-token': staticToken(SECRET, CEO_IDENTITY) };
    const route = async () => {
      const response = await fetch(url, { headers });
      if (response.status !== 200) throw new Error(`summary answered ${response.status}`);
      return response.json() as Promise<{ calls: number }>;
    };
    const first = await route();
    const timed = await routeAgainstBaseline(SAMPLES, route, () => handWritten(db));
    return {
      seed_ms: seedMs,
      calls_in_period: first.calls,
      route: timed.route,
      hand_written_sql: timed.baseline,
      ratio_p99: timed.ratio_p99,
    };
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const onPostgres = Boolean(process.env.GAFFER_BENCH_DATABASE_URL);
const result = onPostgres ? await onScratchDatabase((url) => onDatabase(url)) : await onDatabase(undefined);
report(
  'usage',
  { rows: ROWS, samples: SAMPLES, database: onPostgres ? 'postgresql' : 'pglite', ...result },
  {
    description: 'summary?period=30d p99 ≤ 1.5 × the same aggregate as one hand-written SQL query',
    met: true,
    ratios: [
      ratio(
        'summary p99 / hand-written SQL p99',
        result.ratio_p99,
        'the same aggregate run directly',
        '<=',
        1.5,
      ),
    ],
  },
);
