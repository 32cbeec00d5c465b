/** Rows and runner state as the /api/board-programs routes show them. */
import type { Static } from 'typebox';
import type { CycleView, ProgramView } from './api-schemas.js';
import type { CycleRow } from './cycle-store.js';
import type { ProgramStatus } from './runner.js';

export function cycleView(row: CycleRow): Static<typeof CycleView> {
  return {
    id: row.id,
    program_key: row.programKey,
    trigger: row.trigger,
    opened_at: row.openedAt.toISOString(),
    closed_at: row.closedAt?.toISOString() ?? null,
    items_examined: row.itemsExamined,
    tasks_opened: row.tasksOpened,
    opened_task_ids: row.openedTaskIds,
    skipped_by_cap: row.skippedByCap,
    errors: row.errors,
    error_messages: row.errorMessages,
    outcome: row.outcome,
    outcome_detail: row.outcomeDetail,
  };
}

export function programView(status: ProgramStatus): Static<typeof ProgramView> {
  const { program } = status;
  return {
    key: program.key,
    title: program.title,
    description: program.description,
    role: program.role,
    trigger: program.trigger,
    interval_seconds: program.intervalSeconds,
    scope: program.scope,
    enabled: status.enabled,
    last_cycle: status.lastCycle ? cycleView(status.lastCycle) : null,
    held_by_pause: status.heldBy,
  };
}
