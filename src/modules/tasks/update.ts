/**
 * PATCH of a task: field edits within the caller's scope (update-rules.ts), and the CEO's god
 * mode — an audited override of the status that bypasses the transition table, but needs
 * `force: true` to move into a review or terminal state or out of a terminal one (409
 * `force_required`). Field edits and the override are applied under one row lock, with an
 * `update` and an `admin_override` audit row.
 */
import { eq } from 'drizzle-orm';
import { conflict, type FieldProblem, unprocessable } from '../../platform/http/errors.js';
import { holdsClaim, overrideNeedsForce, type Role, type TaskStatus } from '../lifecycle/index.js';
import { existingProjectIds } from '../projects/index.js';
import { syncClaimantState } from './agent-state.js';
import type { TaskContext } from './context.js';
import { declarationProblems, pmCodeProblems, withCriterionIds } from './create-rules.js';
import { notAuthorized, taskNotFound } from './errors.js';
import { tasks } from './schema.js';
import { insertEvents, loadTask, settleDependents, type TaskEventInput, taskBriefs } from './task-store.js';
import { overrideChanges, type TaskChanges } from './transition-effects.js';
import type { Actor, TaskRow, UpdateTaskInput } from './types.js';
import { type UpdateField, updateRefusal } from './update-rules.js';

export async function updateTask(
  ctx: TaskContext,
  id: string,
  input: UpdateTaskInput,
  actor: Actor,
): Promise<TaskRow> {
  const before = await loadTask(ctx.db, id);
  if (!before) throw taskNotFound(id);
  const fields = (Object.keys(input) as UpdateField[]).filter((field) => input[field] !== undefined);
  if (fields.length === 0)
    throw unprocessable('nothing to change', [{ field: 'body', message: 'give at least one field' }]);
  const refusal = updateRefusal(fields, {
    role: actor.role,
    isOwner: before.assignedTo === actor.id || before.createdBy === actor.id,
    sameTeam: actor.team !== null && actor.team === before.team,
  });
  if (refusal) throw notAuthorized(refusal, { fields });

  const assignee = await checkReferences(ctx, before, input);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const row = await loadTask(tx, id, { forUpdate: true });
    if (!row) throw taskNotFound(id);
    const from = row.status as TaskStatus;
    const to = input.status ?? from;
    if (overrideNeedsForce(from, to) && input.force !== true) {
      throw conflict('force_required', `overriding ${from} → ${to} needs "force": true`, { from, to });
    }
    // The override first, then the explicit edits on top: an owner named in the same PATCH wins.
    const override =
      to !== from ? overrideChanges(row, to, actor, { now, forced: input.force === true }) : {};
    const edits = fieldChanges({ ...row, ...override } as TaskRow, input, assignee);
    const [updated] = await tx
      .update(tasks)
      .set({ ...override, ...edits, updatedAt: now })
      .where(eq(tasks.id, id))
      .returning();
    const events: TaskEventInput[] = [];
    const editedFields = fields.filter((field) => !['status', 'force', 'reason'].includes(field));
    const base = {
      taskId: id,
      actorId: actor.id,
      actorRole: actor.role,
      reason: input.reason ?? null,
      createdAt: now,
    };
    if (editedFields.length > 0) {
      events.push({
        ...base,
        action: 'update',
        fromStatus: from,
        toStatus: from,
        data: { fields: editedFields },
      });
    }
    if (to !== from) {
      events.push({
        ...base,
        action: 'admin_override',
        fromStatus: from,
        toStatus: to,
        data: { forced: input.force === true, assigned_to: updated!.assignedTo },
      });
      if (to === 'completed') await settleDependents(tx, id, now);
    }
    await insertEvents(tx, events);
    await syncClaimantState(ctx, tx, id, row.activeClaimantId, updated!.activeClaimantId, now);
    return updated!;
  });
}

/** The column changes of the edited fields; a new owner holds the claim if the (new) status is a working one. */
function fieldChanges(
  row: TaskRow,
  input: UpdateTaskInput,
  assignee: { id: string | null } | undefined,
): TaskChanges {
  const changes: TaskChanges = {};
  if (input.title !== undefined) changes.title = input.title.trim();
  if (input.description !== undefined) changes.description = input.description;
  if (input.acceptance_criteria !== undefined) {
    changes.acceptanceCriteria = withCriterionIds(input.acceptance_criteria, row.acceptanceCriteria);
  }
  if (input.priority !== undefined) changes.priority = input.priority;
  if (input.sequence !== undefined) changes.sequence = input.sequence;
  if (input.intends_to_touch !== undefined) changes.intendsToTouch = input.intends_to_touch;
  if (input.adds_migration !== undefined) changes.addsMigration = input.adds_migration;
  if (input.touches_shared !== undefined) changes.touchesShared = input.touches_shared;
  if (input.team !== undefined) changes.team = input.team;
  if (input.project_id !== undefined) changes.projectId = input.project_id;
  if (input.dependency_ids !== undefined) changes.dependencyIds = input.dependency_ids;
  if (input.plan !== undefined) changes.plan = input.plan;
  if (input.budget_usd !== undefined) changes.budgetUsd = input.budget_usd;
  if (assignee && assignee.id !== row.assignedTo) {
    changes.assignedTo = assignee.id;
    changes.claimedBy = assignee.id === null ? null : row.claimedBy;
    changes.activeClaimantId = holdsClaim(row.status as TaskStatus) ? assignee.id : null;
  }
  return changes;
}

/** 422 unless everything the edit names exists and fits; returns the resolved assignee when one is given. */
async function checkReferences(
  ctx: TaskContext,
  row: TaskRow,
  input: UpdateTaskInput,
): Promise<{ id: string | null } | undefined> {
  const problems: FieldProblem[] = declarationProblems(input);
  const problem = (field: string, message: string) => problems.push({ field: `body.${field}`, message });
  let assignee: { id: string | null } | undefined;
  let assigneeRole: Role | null = null;
  if (input.assigned_to === null) assignee = { id: null };
  else if (input.assigned_to !== undefined) {
    const agent = await ctx.agents.resolve(input.assigned_to);
    if (!agent || agent.retiredAt) problem('assigned_to', `there is no active agent "${input.assigned_to}"`);
    else {
      assignee = { id: agent.id };
      assigneeRole = agent.role;
    }
  }
  if (input.project_id) {
    const [project] = await existingProjectIds(ctx.db, [input.project_id]);
    if (!project) problem('project_id', `there is no project ${input.project_id}`);
  }
  if (input.dependency_ids?.length) {
    if (input.dependency_ids.includes(row.id)) problem('dependency_ids', 'a task cannot depend on itself');
    const found = await taskBriefs(ctx.db, input.dependency_ids);
    const missing = input.dependency_ids.filter((id) => !found.some((task) => task.id === id));
    if (missing.length > 0) problem('dependency_ids', `no such tasks: ${missing.join(', ')}`);
  }
  const fresh = row.status === 'pending' || row.status === 'backlog';
  problems.push(
    ...pmCodeProblems(row.taskType, input.team ?? row.team, fresh ? assigneeRole : null).filter(
      (p) => p.field !== 'body.task_type' || input.team !== undefined,
    ),
  );
  if (problems.length > 0) throw unprocessable('the change is invalid', problems);
  return assignee;
}
