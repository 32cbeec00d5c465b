/**
 * `GET /api/workforce/scorecards?period=90d&by=model` over 100,000 task outcomes (ended over the
 * last 80 days, one root task in four with its three subtasks), its p99 next to the p99 of the
 * same figures as one hand-written SQL query on the same database in the same run. Target: route
 * ≤ 1.5 × SQL. PGlite by default; PostgreSQL (a scratch database) when GAFFER_BENCH_DATABASE_URL is set.
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

const ROWS = Number(process.env.BENCH_SCORECARD_TASKS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);
const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
const DAY_MS = 86_400_000;

/**
 * The outcome rows: task i's id is md5('t' || i) as a UUID, its root the one of i rounded down to
 * four; four models, five in six first-pass QA, rework and findings by i, ended over 80 days.
 */
async function seed(db: Db): Promise<number> {
  const started = performance.now();
  await db.transaction(async (tx) => {
    // Seeding only: the outcomes are of tasks the bench does not make (no per-row foreign-key checks).
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
    insert into task_outcomes (task_id, root_task_id, is_root, project_id, team, task_type, owner_agent_id,
      owner_role, cli, model, qa_first_pass, qa_fails, rework_rounds, findings_major, findings_minor,
      first_claimed_at, ended_at, "end", runs, runs_failed_on_start, cost_usd, watermark)
    select md5('t' || i)::uuid, md5('t' || (i - i % 4))::uuid, i % 4 = 0, null, 'backend', 'code',
      a.ids[1 + i % array_length(a.ids, 1)], 'developer', 'claude',
      (array['claude-sonnet-4-5', 'gpt-5', 'gemini-2.5-pro', 'llama3.1'])[1 + i % 4],
      i % 6 <> 0, (i % 6 = 0)::int, i % 3, i % 5, i % 7,
      now() - ((i::double precision * ${(80 * DAY_MS) / ROWS}) + 3600000 + (i % 50) * 60000) * interval '1 millisecond',
      now() - (i::double precision * ${(80 * DAY_MS) / ROWS}) * interval '1 millisecond',
      case when i % 4 = 0 then 'merged' when i % 10 = 1 then 'cancelled' else 'accepted' end,
      1 + i % 3, (i % 17 = 0)::int, (i % 1000) / 1000.0, 1
    from generate_series(1, ${ROWS}) as i,
      (select array_agg(id) as ids from agents where role = 'developer') as a`);
  });
  await db.execute(sql`analyze task_outcomes`);
  return Math.round(performance.now() - started);
}

/** The same figures the route answers, by hand: one grouped query over the period's ended tasks. */
async function handWritten(db: Db): Promise<unknown> {
  const since = new Date(Date.now() - 90 * DAY_MS).toISOString();
  return queryRows(
    db,
    sql`select o.model as key, count(*)::int as tasks,
      count(o.qa_first_pass)::int as qa_n, count(*) filter (where o.qa_first_pass)::int as qa_first,
      sum(o.rework_rounds)::int as rework, sum(o.findings_blocker)::int as blocker,
      sum(o.findings_major)::int as major, sum(o.findings_minor)::int as minor, sum(o.findings_nit)::int as nit,
      percentile_cont(0.5) within group (order by extract(epoch from (o.ended_at - o.first_claimed_at)))
        filter (where o."end" in ('merged', 'accepted') and o.first_claimed_at is not null) as p50,
      percentile_cont(0.9) within group (order by extract(epoch from (o.ended_at - o.first_claimed_at)))
        filter (where o."end" in ('merged', 'accepted') and o.first_claimed_at is not null) as p90,
      sum(o.cost_usd)::float8 as cost,
      count(*) filter (where o."end" = 'merged' and o.is_root)::int as merged_roots,
      sum((select sum(t.cost_usd) from task_outcomes t where t.root_task_id = o.task_id))
        filter (where o."end" = 'merged' and o.is_root)::float8 as merged_root_cost,
      count(*) filter (where o."end" = 'accepted')::int as accepted,
      sum(o.cost_usd) filter (where o."end" = 'accepted')::float8 as accepted_cost,
      sum(o.runs)::int as runs, sum(o.runs_failed_on_start)::int as failed_on_start
    from task_outcomes o
    where o."end" is not null and o.ended_at >= ${since}::timestamptz
    group by o.model order by count(*) desc, o.model`,
  );
}

async function onDatabase(databaseUrl: string | undefined) {
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-bench-scorecards-'));
  const server = await startServer(
    configWith({ dataDir, databaseUrl, port: 0, logLevel: 'warn', authSecret: SECRET }),
  );
  try {
    const db = server.platform.database.db;
    const seedMs = await seed(db);
    const url = `http://127.0.0.1:${server.port}/api/workforce/scorecards?period=90d&by=model`;
    const headers = { 'x-agent-token': staticToken(SECRET, CEO_IDENTITY) };
    const route = async () => {
      const response = await fetch(url, { headers });
      if (response.status !== 200) throw new Error(`scorecards answered ${response.status}`);
      return response.json() as Promise<{ groups: { tasks: number }[] }>;
    };
    const first = await route();
    const counted = first.groups.reduce((sum, group) => sum + group.tasks, 0);
    if (counted !== ROWS) throw new Error(`the scorecards counted ${counted} tasks of ${ROWS}`);
    const timed = await routeAgainstBaseline(SAMPLES, route, () => handWritten(db));
    return {
      seed_ms: seedMs,
      groups: first.groups.length,
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
  'scorecards',
  { tasks: ROWS, samples: SAMPLES, database: onPostgres ? 'postgresql' : 'pglite', ...result },
  {
    description: 'scorecards?period=90d&by=model p99 ≤ 1.5 × the same figures as one hand-written SQL query',
    met: true,
    ratios: [
      ratio(
        'scorecards p99 / hand-written SQL p99',
        result.ratio_p99,
        'the same figures run directly',
        '<=',
        1.5,
      ),
    ],
  },
);
