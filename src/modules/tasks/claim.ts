/**
 * The one claim path. The task is read (one narrow, prepared query) and every rule checked in code
 * — held, a claim already held, lifecycle claim rules, team, pre-assignment, self-review, the
 * dependency and sequence holds — for precise refusals; then the claim is one guarded statement
 * pinned to the status read (claim-statement.ts, prepared once per connection), so of any number of
 * concurrent claimers exactly one gets the row back, audited by that same statement. For the
 * single-active-task roles a transaction first takes a per-agent advisory lock, and the claim
 * statement then also checks that the agent holds nothing else, so that rule cannot be raced
 * either. A loser gets 409 `already_claimed` naming the owner: the one the claim statement saw
 * when the winner had committed before it, else from a fresh read. Given the row its caller just
 * read (with its version), an unclaimed task is decided on that row and the statement is pinned to
 * its version too, sparing the read; a refusal or a changed row falls back to the path above, so
 * every refusal is decided on fresh facts.
 */
import { eq, sql } from 'drizzle-orm';
import { type Db, perDatabase, queryPrepared } from '../../platform/db/client.js';
import { type AppError, conflict } from '../../platform/http/errors.js';
import { claimantJoin } from '../agents/index.js';
import {
  decideClaim,
  isReviewClaim,
  isSingleActiveRole,
  mayTakeOverClaim,
  type TaskStatus,
  teamMatches,
} from '../lifecycle/index.js';
import { claimStatement } from './claim-statement.js';
import type { TaskContext } from './context.js';
import { invalidState, notAuthorized, refusalError, taskHeld, taskNotFound } from './errors.js';
import { HELD_CLAIM_STATES, openDependencies, sequenceBlockers } from './holds.js';
import { tasks } from './schema.js';
import { loadTask, siblingFacts, taskBriefs, taskRowFromRaw, type VersionedRow } from './task-store.js';
import { authorOf } from './transition-effects.js';
import type { Actor, TaskRow } from './types.js';

interface Owner {
  id: string;
  slug: string | null;
  role: string | null;
}

/** What the claim rules look at: a narrow read, since every claimer (winner or not) makes it. */
const CLAIM_FACTS = {
  id: tasks.id,
  status: tasks.status,
  team: tasks.team,
  held: tasks.held,
  assignedTo: tasks.assignedTo,
  activeClaimantId: tasks.activeClaimantId,
  markers: tasks.markers,
  parentTaskId: tasks.parentTaskId,
  sequence: tasks.sequence,
  dependencyIds: tasks.dependencyIds,
  completedDependencyIds: tasks.completedDependencyIds,
};

type ClaimFacts = Pick<TaskRow, keyof typeof CLAIM_FACTS>;

/**
 * The claim facts with the agent holding the claim: one prepared statement per database handle.
 * The roster join is agents' own piece (its columns named there), kept in this one statement.
 */
const claimant = claimantJoin(tasks.activeClaimantId);
const factsStatement = perDatabase((db) =>
  db
    .select({ task: CLAIM_FACTS, owner: claimant.columns })
    .from(tasks)
    .leftJoin(claimant.table, claimant.on)
    .where(eq(tasks.id, sql.placeholder('id')))
    .limit(1)
    .prepare('tasks_claim_facts'),
);

async function loadWithOwner(db: Db, id: string): Promise<{ row: ClaimFacts; owner: Owner | null } | null> {
  const [found] = await factsStatement(db).execute({ id });
  if (!found) return null;
  const owner = found.task.activeClaimantId
    ? { id: found.task.activeClaimantId, slug: found.owner?.slug ?? null, role: found.owner?.role ?? null }
    : null;
  return { row: found.task, owner };
}

/** The whole row, for the rare answers that are not the claim statement's own result. */
async function fullRow(db: Db, id: string): Promise<TaskRow> {
  const row = await loadTask(db, id);
  if (!row) throw taskNotFound(id);
  return row;
}

const alreadyClaimed = (row: Pick<ClaimFacts, 'id' | 'status'>, owner: Owner): AppError =>
  conflict('already_claimed', `task ${row.id} is already claimed by ${owner.slug ?? owner.id}`, {
    task_id: row.id,
    status: row.status,
    owner,
  });

export async function claimTask(
  ctx: TaskContext,
  id: string,
  actor: Actor,
  observed?: VersionedRow,
): Promise<TaskRow> {
  if (observed?.version && observed.activeClaimantId === null) {
    // Decided on the row the caller just read, and guarded by its version: no read of our own.
    // Anything else (a refusal, a changed row) is decided again on a fresh read below.
    const won = await decideAndClaim(ctx, observed, actor, observed.version).catch(() => null);
    if (won?.row) return won.row;
  }
  const found = await loadWithOwner(ctx.db, id);
  if (!found) throw taskNotFound(id);
  const { row, owner } = found;
  if (owner?.id === actor.id) return fullRow(ctx.db, id); // already the claimer: idempotent
  if (row.held) throw taskHeld(id);
  if (owner && teamMatches(actor.role, actor.team, row.team)) throw alreadyClaimed(row, owner);
  const { row: claimed, holder } = await decideAndClaim(ctx, row, actor);
  if (claimed) return claimed;
  if (holder && holder.owner.id !== actor.id)
    throw alreadyClaimed({ id, status: holder.status }, holder.owner);
  return afterLostRace(ctx, id, actor);
}

/**
 * What the claim statement answered: the claimed row; or, when its guard matched nothing, the
 * agent holding the claim as the statement saw it (null when it saw none).
 */
interface ClaimAnswer {
  row: TaskRow | null;
  holder: { owner: Owner; status: string } | null;
}

function claimAnswer(raw: Record<string, unknown>, actor: Actor): ClaimAnswer {
  if (raw.busy_tasks) {
    // The single-active-task rule: no other owned task in a busy state, and no other claim held.
    throw conflict(
      'single_active_task',
      `${actor.slug} already has a task in hand; finish or release it first`,
      {
        tasks: raw.busy_tasks,
      },
    );
  }
  if (raw.id !== null && raw.id !== undefined) return { row: taskRowFromRaw(raw), holder: null };
  const holderId = raw.claimant_id as string | null;
  if (!holderId) return { row: null, holder: null };
  const owner = {
    id: holderId,
    slug: (raw.claimant_slug as string | null) ?? null,
    role: (raw.claimant_role as string | null) ?? null,
  };
  return { row: null, holder: { owner, status: raw.claimant_status as string } };
}

/**
 * The claim rules on an unclaimed task's facts, then the guarded claim statement (pinned to the
 * row version too, when given): the claimed row, or the claim holder it saw when it matched nothing.
 */
async function decideAndClaim(
  ctx: TaskContext,
  row: ClaimFacts,
  actor: Actor,
  version?: string,
): Promise<ClaimAnswer> {
  const id = row.id;
  const status = row.status as TaskStatus;
  if (row.held) throw taskHeld(id);
  const decision = decideClaim(actor.role, status);
  if (!decision.ok) throw refusalError(decision, { task_id: id, status });
  if (!teamMatches(actor.role, actor.team, row.team)) {
    throw notAuthorized(`a ${actor.role} of team ${actor.team ?? 'none'} may not claim a ${row.team} task`);
  }
  const takeover = mayTakeOverClaim(actor.role);
  if (row.assignedTo && row.assignedTo !== actor.id && !takeover) {
    throw conflict('assigned_elsewhere', `task ${id} is assigned to another agent`, {
      task_id: id,
      assigned_to: row.assignedTo,
    });
  }
  if (isReviewClaim(status) && authorOf(row) === actor.id) {
    throw notAuthorized('you may not review your own work (self-review blocked)');
  }
  await checkHolds(ctx.db, row, status);

  const singleActive = isSingleActiveRole(actor.role);
  const claim = claimStatement(id, actor, ctx.clock.now(), { from: status, takeover, version, singleActive });
  const claimed = (db: Db) => queryPrepared<Record<string, unknown>>(db, 'tasks_claim', claim);
  const [raw] = singleActive
    ? await ctx.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${actor.id}, 0))`);
        return claimed(tx);
      })
    : await claimed(ctx.db);
  return claimAnswer(raw!, actor);
}

/** The dependency hold (pending only) and the sibling-sequence bar (pending and revision claims). */
async function checkHolds(db: Db, row: ClaimFacts, status: TaskStatus): Promise<void> {
  if (status === 'pending' && row.dependencyIds.length > 0) {
    const open = openDependencies(await taskBriefs(db, row.dependencyIds));
    if (open.length > 0) {
      throw conflict('dependencies_open', `task ${row.id} waits for ${open.length} open dependencies`, {
        task_id: row.id,
        dependencies: open,
      });
    }
  }
  if (HELD_CLAIM_STATES.includes(status) && row.parentTaskId && row.sequence > 0) {
    const [siblings, parent] = await Promise.all([
      siblingFacts(db, row.parentTaskId),
      loadTask(db, row.parentTaskId),
    ]);
    const megaTaskWave = !!parent && parent.batchId !== null && parent.parentTaskId === null;
    const blockers = sequenceBlockers(row, siblings, megaTaskWave);
    if (blockers.length > 0) {
      const named = blockers.map((b) => `"${b.title}" (sequence ${b.sequence})`).join(', ');
      throw conflict('sequence_held', `task ${row.id} (sequence ${row.sequence}) waits for ${named}`, {
        task_id: row.id,
        blockers: blockers.map(({ id, title, status, sequence }) => ({ id, title, status, sequence })),
      });
    }
  }
}

/**
 * The guarded statement matched nothing: someone else won (409 `already_claimed` with the owner),
 * or the task moved meanwhile. A concurrent claim by the same agent that won is the claim it wanted.
 */
async function afterLostRace(ctx: TaskContext, id: string, actor: Actor): Promise<TaskRow> {
  const found = await loadWithOwner(ctx.db, id);
  if (!found) throw taskNotFound(id);
  const { row, owner } = found;
  if (owner?.id === actor.id) return fullRow(ctx.db, id);
  if (owner) throw alreadyClaimed(row, owner);
  if (row.held) throw taskHeld(id);
  if (row.assignedTo && row.assignedTo !== actor.id) {
    throw conflict('assigned_elsewhere', `task ${id} was assigned to another agent meanwhile`, {
      task_id: id,
      assigned_to: row.assignedTo,
    });
  }
  throw invalidState(`task ${id} moved to ${row.status} while it was being claimed`, {
    task_id: id,
    status: row.status,
  });
}
