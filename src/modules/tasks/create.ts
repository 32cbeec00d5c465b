/**
 * Creating a task: the actor's right to create for the team, the declaration's and the target's
 * checks (parent, project or product, dependencies, assignee) answered together as one 422, then
 * the task, its cells' projects and its `create` audit row written by one statement.
 */
import { type SQL, sql } from 'drizzle-orm';
import { queryRows } from '../../platform/db/client.js';
import type { FieldProblem } from '../../platform/http/errors.js';
import { unprocessable } from '../../platform/http/errors.js';
import type { Role } from '../lifecycle/index.js';
import { existingProductIds } from '../products/index.js';
import { existingProjectIds } from '../projects/index.js';
import { auditInsert } from './audited-update.js';
import type { TaskContext } from './context.js';
import {
  childDepth,
  createRefusal,
  declarationProblems,
  pmCodeProblems,
  resolveTarget,
  withCriterionIds,
} from './create-rules.js';
import { notAuthorized } from './errors.js';
import { taskCellProjects, tasks } from './schema.js';
import { loadCellProjects, loadTask, taskBriefs, taskRowFromRaw } from './task-store.js';
import { type Actor, type CreateTaskInput, TASK_LIMITS, type TaskRow } from './types.js';

export async function createTask(
  ctx: TaskContext,
  input: CreateTaskInput,
  actor: Actor,
): Promise<{ row: TaskRow; cellProjects: Record<string, string> }> {
  const refusal = createRefusal(actor.role, actor.team, input.team);
  if (refusal) throw notAuthorized(refusal);
  const problems: FieldProblem[] = declarationProblems(input);
  const problem = (field: string, message: string) => problems.push({ field: `body.${field}`, message });

  const parent = input.parent_task_id ? await loadTask(ctx.db, input.parent_task_id) : null;
  if (input.parent_task_id && !parent) problem('parent_task_id', 'there is no such task');
  const depth = childDepth(parent ? parent.depth : null);
  if ('problem' in depth) problems.push(depth.problem);

  const parentCells = parent ? ((await loadCellProjects(ctx.db, [parent.id])).get(parent.id) ?? {}) : {};
  const resolved = resolveTarget(
    input,
    input.team,
    parent ? { projectId: parent.projectId, productId: parent.productId, cellProjects: parentCells } : null,
  );
  if ('problems' in resolved) problems.push(...resolved.problems);
  const target = 'target' in resolved ? resolved.target : null;

  const projectIds = [
    ...(target?.kind === 'project' ? [target.projectId] : []),
    ...(target?.kind === 'cell_projects' ? Object.values(target.cellProjects) : []),
  ];
  const [knownProjects, knownProducts, dependencies] = await Promise.all([
    projectIds.length ? existingProjectIds(ctx.db, projectIds) : [],
    target?.kind === 'product' ? existingProductIds(ctx.db, [target.productId]) : [],
    taskBriefs(ctx.db, input.dependency_ids ?? []),
  ]);
  const known = new Set(knownProjects.map((p) => p.id));
  if (target?.kind === 'project' && !known.has(target.projectId)) {
    problem(input.project_id ? 'project_id' : 'parent_task_id', `there is no project ${target.projectId}`);
  }
  if (target?.kind === 'cell_projects') {
    for (const [team, projectId] of Object.entries(target.cellProjects)) {
      if (!known.has(projectId)) problem(`cell_projects.${team}`, `there is no project ${projectId}`);
    }
  }
  if (target?.kind === 'product' && knownProducts.length === 0) {
    problem(input.product_id ? 'product_id' : 'parent_task_id', `there is no product ${target.productId}`);
  }
  const missingDeps = (input.dependency_ids ?? []).filter((id) => !dependencies.some((d) => d.id === id));
  if (missingDeps.length > 0) problem('dependency_ids', `no such tasks: ${missingDeps.join(', ')}`);

  let assigneeId: string | null = null;
  let assigneeRole: Role | null = null;
  if (input.assigned_to) {
    const agent = await ctx.agents.resolve(input.assigned_to);
    if (!agent || agent.retiredAt) problem('assigned_to', `there is no active agent "${input.assigned_to}"`);
    else {
      assigneeId = agent.id;
      assigneeRole = agent.role;
    }
  }
  problems.push(...pmCodeProblems(input.task_type, input.team, assigneeRole));
  if (problems.length > 0 || !target || 'problem' in depth)
    throw unprocessable('the task is invalid', problems);

  const now = ctx.clock.now();
  const status = input.status ?? 'pending';
  const source = input.source ?? 'manual';
  const cellProjects = target.kind === 'cell_projects' ? target.cellProjects : {};
  const insert = ctx.db.insert(tasks).values({
    title: input.title.trim(),
    description: input.description,
    acceptanceCriteria: withCriterionIds(input.acceptance_criteria),
    status,
    priority: input.priority ?? TASK_LIMITS.priorityDefault,
    sequence: input.sequence ?? 0,
    taskType: input.task_type,
    nature: input.nature,
    complexity: input.complexity,
    team: input.team,
    projectId: target.kind === 'project' ? target.projectId : null,
    productId: target.kind === 'product' ? target.productId : null,
    batchId: input.batch_id ?? null,
    parentTaskId: parent?.id ?? null,
    depth: depth.depth,
    dependencyIds: input.dependency_ids ?? [],
    intendsToTouch: input.intends_to_touch ?? [],
    addsMigration: input.adds_migration ?? false,
    touchesShared: input.touches_shared ?? false,
    createdBy: actor.id,
    assignedTo: assigneeId,
    source,
    budgetUsd: input.budget_usd ?? null,
    held: input.held ?? false,
    confirmedByHuman: input.confirmed ?? false,
    markers: input.markers ?? {},
    createdAt: now,
    updatedAt: now,
  });
  // One statement, all of it or nothing: the task, its cells' projects and its `create` audit row.
  const parts: SQL[] = [
    sql`created as (${insert.getSQL()} returning *)`,
    sql`audit as (${auditInsert(
      [
        {
          actorId: actor.id,
          actorRole: actor.role,
          action: 'create',
          fromStatus: null,
          data: { source, ...(assigneeId ? { assigned_to: assigneeId } : {}) },
        },
      ],
      sql`${now.toISOString()}::timestamptz`,
      'created',
    )})`,
  ];
  const cells = Object.entries(cellProjects);
  if (cells.length > 0) {
    const values = sql.join(
      cells.map(([team, projectId]) => sql`(${team}, ${projectId}::uuid)`),
      sql`, `,
    );
    parts.push(
      sql`cells as (insert into ${taskCellProjects} (task_id, team, project_id)
        select created.id, cell.team, cell.project_id from created, (values ${values}) as cell (team, project_id))`,
    );
  }
  const [raw] = await queryRows<Record<string, unknown>>(
    ctx.db,
    sql`with ${sql.join(parts, sql`, `)} select * from created`,
  );
  const row = taskRowFromRaw(raw!);
  return { row, cellProjects };
}
