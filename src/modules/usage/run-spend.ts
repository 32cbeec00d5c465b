/**
 * A named read of the usage ledger: what each agent run cost — the usage recorded for the run's
 * agent on the run's task between the run's start and end (both included).
 */
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../platform/db/client.js';
import { usageRecords } from './schema.js';

export interface RunWindow {
  id: string;
  agentId: string;
  taskId: string;
  startedAt: Date;
  endedAt: Date;
}

/** Runs per query (five parameters each, well under PostgreSQL's limit). */
const CHUNK = 1000;

/** USD per run id (runs with nothing recorded are absent). */
export async function runSpend(db: Db, runs: readonly RunWindow[]): Promise<Map<string, number>> {
  const spent = new Map<string, number>();
  for (let i = 0; i < runs.length; i += CHUNK) {
    for (const [id, usd] of await chunkSpend(db, runs.slice(i, i + CHUNK))) spent.set(id, usd);
  }
  return spent;
}

async function chunkSpend(db: Db, runs: readonly RunWindow[]): Promise<Map<string, number>> {
  const windows = sql.join(
    runs.map(
      (run) =>
        sql`(${run.id}::uuid, ${run.agentId}::uuid, ${run.taskId}::uuid, ${run.startedAt.toISOString()}::timestamptz, ${run.endedAt.toISOString()}::timestamptz)`,
    ),
    sql`, `,
  );
  const rows = await queryRows<{ run_id: string; spent: string | number | null }>(
    db,
    sql`select w.run_id, sum(u.cost_usd) as spent
      from (values ${windows}) as w(run_id, agent_id, task_id, started_at, ended_at)
      join ${usageRecords} u
        on u.agent_id = w.agent_id and u.task_id = w.task_id
        and u.at >= w.started_at and u.at <= w.ended_at
      group by w.run_id`,
  );
  return new Map(rows.map((row) => [row.run_id, Number(row.spent ?? 0)]));
}
