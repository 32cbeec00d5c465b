/**
 * A task write as one SQL statement: the UPDATE of the task (optionally guarded by the status and
 * the row version it was decided on), its audit rows inserted from the updated row, and — when the
 * claim changes hands — the roster's runtime view of the claimants (the previous one goes idle if
 * this was its current task, the next one is active on it). All of it or nothing, in one round
 * trip and without an explicit transaction: the row lock is held for this one statement only.
 * Answers the updated row with its new version, or null when the task is missing or the guard
 * matched nothing.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { type Db, queryRows } from '../../platform/db/client.js';
import { agentLeavesTask, agentTakesTask } from '../agents/index.js';
import { taskEvents, tasks } from './schema.js';
import { taskRowFromRaw, type VersionedRow } from './task-store.js';

/** An audit row of the write; a status left undefined is the task's status after the write. */
export interface AuditEvent {
  readonly actorId: string;
  readonly actorRole: string;
  readonly action: string;
  readonly fromStatus?: string | null;
  readonly toStatus?: string | null;
  readonly reason?: string | null;
  readonly data?: Record<string, unknown>;
}

/** The agent that held the task's claim before the write and the one that holds it after (they differ). */
export interface ClaimantChange {
  readonly previous: string | null;
  readonly next: string | null;
}

export interface AuditedUpdate {
  readonly id: string;
  readonly set: PgUpdateSetSource<typeof tasks>;
  /** Write only if the task is still in this status / still at this row version. */
  readonly guard?: { readonly status?: string; readonly version?: string };
  readonly events: readonly AuditEvent[];
  readonly claimant?: ClaimantChange;
  readonly now: Date;
}

export async function auditedUpdate(db: Db, write: AuditedUpdate): Promise<VersionedRow | null> {
  const { id, guard = {}, now } = write;
  const at = sql`${now.toISOString()}::timestamptz`;
  const update = db
    .update(tasks)
    .set(write.set)
    .where(
      and(
        eq(tasks.id, id),
        guard.status === undefined ? undefined : eq(tasks.status, guard.status),
        guard.version === undefined ? undefined : sql`${tasks}.xmin = ${guard.version}::xid`,
      ),
    );
  const parts: SQL[] = [sql`updated as (${update.getSQL()} returning *, xmin::text as version)`];
  if (write.events.length > 0) parts.push(sql`audit as (${auditInsert(write.events, at)})`);
  const { previous, next } = write.claimant ?? { previous: null, next: null };
  // The roster CTEs are agents' own pieces of SQL (its columns named there), kept in this one statement.
  const written = sql`exists (select 1 from updated)`;
  if (previous) parts.push(sql`released as (${agentLeavesTask(previous, id, now, written)})`);
  if (next) parts.push(sql`taken as (${agentTakesTask(next, id, now, written)})`);
  const [raw] = await queryRows<Record<string, unknown>>(
    db,
    sql`with ${sql.join(parts, sql`, `)} select * from updated`,
  );
  return raw ? taskRowFromRaw(raw) : null;
}

/** The INSERT of `events` for the task row of the CTE named `from` (its id and status). */
export function auditInsert(events: readonly AuditEvent[], at: SQL, from = 'updated'): SQL {
  const status = (value: string | null | undefined) => (value === undefined ? sql`status` : sql`${value}`);
  const rows = events.map(
    (event) => sql`select id, ${event.actorId}, ${event.actorRole}, ${event.action},
      ${status(event.fromStatus)}, ${status(event.toStatus)}, ${event.reason ?? null},
      ${JSON.stringify(event.data ?? {})}::jsonb, ${at} from ${sql.identifier(from)}`,
  );
  return sql`insert into ${taskEvents} (task_id, actor_id, actor_role, action, from_status, to_status, reason, data, created_at)
    ${sql.join(rows, sql` union all `)}`;
}
