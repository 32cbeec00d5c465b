/** Maps a stored task row (plus its per-cell project map) to the public view the API and other modules see. */
import type { TaskView } from './api-schemas.js';
import type { TaskRow } from './types.js';

export type { TaskView };

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

export function toTaskView(row: TaskRow, cellProjects: Record<string, string> = {}): TaskView {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    acceptance_criteria: row.acceptanceCriteria,
    status: row.status as TaskView['status'],
    priority: row.priority,
    sequence: row.sequence,
    task_type: row.taskType as TaskView['task_type'],
    nature: row.nature as TaskView['nature'],
    complexity: row.complexity as TaskView['complexity'],
    team: row.team as TaskView['team'],
    project_id: row.projectId,
    product_id: row.productId,
    cell_projects: cellProjects,
    batch_id: row.batchId,
    parent_task_id: row.parentTaskId,
    depth: row.depth,
    dependency_ids: row.dependencyIds,
    completed_dependency_ids: row.completedDependencyIds,
    intends_to_touch: row.intendsToTouch,
    adds_migration: row.addsMigration,
    touches_shared: row.touchesShared,
    branch_name: row.branchName,
    pr_number: row.prNumber,
    pr_url: row.prUrl,
    pr_created: row.prCreated,
    docs_complete: row.docsComplete,
    created_by: row.createdBy,
    assigned_to: row.assignedTo,
    claimed_by: row.claimedBy,
    active_claimant_id: row.activeClaimantId,
    claimed_at: iso(row.claimedAt),
    started_at: iso(row.startedAt),
    completed_at: iso(row.completedAt),
    last_heartbeat_at: iso(row.lastHeartbeatAt),
    revision_count: row.revisionCount,
    source: row.source,
    budget_usd: row.budgetUsd,
    plan: (row.plan as Record<string, unknown> | null) ?? null,
    notes: row.notes,
    markers: row.markers,
    held: row.held,
    confirmed_by_human: row.confirmedByHuman,
    stalled_reason: row.stalledReason,
    stalled_since: iso(row.stalledSince),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
