/**
 * The claim as one SQL statement: the guarded UPDATE — `WHERE id = $1 AND status = $observed AND
 * status IN ($claimable) AND active_claimant_id IS NULL AND NOT held AND (unassigned or assigned to
 * the claimer)` — with the `claim` audit row and the claimer's roster state (active on this task)
 * written by the same statement: all or nothing, the row lock held for this one statement only, so
 * of any number of concurrent claimers exactly one gets the row back. The claimable statuses and
 * the status written come from the lifecycle claim rules.
 *
 * For a claimer held to one task at a time, the same statement checks it holds no other (see
 * `singleActive`), and answers the ones it holds (`busy_tasks`) when it does.
 *
 * It answers one row: the claimed task's columns (null when the guard matched nothing) and, when it
 * matched nothing, the claim holder as of the statement's start (`claimant_id`, `claimant_slug`,
 * `claimant_role`, `claimant_status`: the task's status then) — so a loser to a claim committed
 * before its statement began is answered without another read. A loser that waited on the
 * winner's row lock sees no holder (the statement's snapshot predates the winner's commit) and
 * reads again.
 *
 * Measured and rejected alternatives (bench/claims.ts): answering every loser from the same
 * statement needs a FOR SHARE read of the latest version, and row locks are written to the heap,
 * which costs more than the loser's one extra read; claiming first without reading (SQL stand-ins
 * for the rules) saves the winner a read but costs every loser a blocked UPDATE, a wash at best
 * (measured again with the statement prepared, for plainly claimable pending tasks only: no gain
 * in the pool scenario, a loss in the lockstep one).
 */
import { type SQL, sql } from 'drizzle-orm';
import { agentTakesTask, claimantJoin } from '../agents/index.js';
import {
  claimableStatuses,
  claimTarget,
  isReviewClaim,
  SINGLE_ACTIVE_BUSY_STATES,
  type TaskStatus,
  TERMINAL_STATES,
} from '../lifecycle/index.js';
import { taskEvents, tasks } from './schema.js';
import type { Actor } from './types.js';

export interface ClaimGuard {
  /** The status the claim rules were checked against. */
  readonly from: TaskStatus;
  /** The claimer may take over a task pre-assigned to someone else. */
  readonly takeover: boolean;
  /** The row version the rules were checked against, when they were checked on a row read earlier. */
  readonly version?: string | undefined;
  /**
   * The claimer may hold one task at a time: the claim matches only if it holds no other (no other
   * owned task in a busy state, no other claim held), and the statement answers those it holds.
   * Run after the claimer's advisory lock, in its transaction, so that no claim of its own races it.
   */
  readonly singleActive?: boolean;
}

const claimant = claimantJoin(sql`holder.claimant_id`);

export function claimStatement(id: string, actor: Actor, now: Date, guard: ClaimGuard): SQL {
  const at = now.toISOString();
  const { from, takeover, version, singleActive } = guard;
  const to = claimTarget(from);
  const data = JSON.stringify(isReviewClaim(from) ? { review_claim: true } : {});
  const list = (values: readonly string[]) =>
    sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    );
  const busy = sql`busy as (
      select id, title, status from ${tasks}
      where id <> ${id} and (
        (assigned_to = ${actor.id} and status in (${list(SINGLE_ACTIVE_BUSY_STATES)}))
        or (active_claimant_id = ${actor.id} and status not in (${list(TERMINAL_STATES)})))
      limit 5
    ), `;
  // The roster CTE is agents' own piece of SQL (its columns named there), kept in this one statement.
  return sql`
    with ${singleActive ? busy : sql``}claimed as (
      update ${tasks} set
        status = ${to}, assigned_to = ${actor.id}, claimed_by = ${actor.id}, active_claimant_id = ${actor.id},
        claimed_at = ${at}::timestamptz, last_heartbeat_at = ${at}::timestamptz, updated_at = ${at}::timestamptz
      where id = ${id} and status = ${from} and status in (${list(claimableStatuses(actor.role))})
        and active_claimant_id is null and held = false
        ${takeover ? sql`` : sql`and (assigned_to is null or assigned_to = ${actor.id})`}
        ${version ? sql`and xmin = ${version}::xid` : sql``}
        ${singleActive ? sql`and not exists (select 1 from busy)` : sql``}
      returning *, xmin::text as version
    ), audit as (
      insert into ${taskEvents} (task_id, actor_id, actor_role, action, from_status, to_status, data, created_at)
      select id, ${actor.id}, ${actor.role}, 'claim', ${from}, status, ${data}::jsonb, ${at}::timestamptz from claimed
    ), roster as (
      ${agentTakesTask(actor.id, id, now, sql`exists (select 1 from claimed)`)}
    ), holder as (
      select ${tasks.activeClaimantId} as claimant_id, ${tasks.status} as claimant_status
      from ${tasks} where ${tasks.id} = ${id} and not exists (select 1 from claimed)
    )
    select claimed.*, holder.claimant_id, holder.claimant_status,
      ${claimant.columns.slug} as claimant_slug, ${claimant.columns.role} as claimant_role,
      ${singleActive ? sql`(select json_agg(busy) from busy)` : sql`null`} as busy_tasks
    from (select 1) as one
      left join claimed on true
      left join holder on true
      left join ${claimant.table} on ${claimant.on}`;
}
