import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** How a cycle was started: by its interval, or by the CEO's run-now. */
export type CycleTrigger = 'interval' | 'run_now';

/** `running` until the cycle closes; a cycle left running by a stopped process is closed `failed` later. */
export type CycleOutcome = 'running' | 'completed' | 'failed' | 'aborted';

/**
 * One row per board-program cycle (one sweep of an engine): when it opened and closed, what it
 * examined, the tasks it opened, what its caps held back, its errors and how it ended.
 */
export const boardProgramCycles = pgTable(
  'board_program_cycles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Insertion order, the tie-break between cycles opened at the same instant. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    programKey: text('program_key').notNull(),
    trigger: text('trigger').$type<CycleTrigger>().notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    itemsExamined: integer('items_examined').notNull().default(0),
    tasksOpened: integer('tasks_opened').notNull().default(0),
    /** The ids of the tasks opened (the first ones, bounded). */
    openedTaskIds: jsonb('opened_task_ids').$type<string[]>().notNull().default([]),
    skippedByCap: integer('skipped_by_cap').notNull().default(0),
    /** How many errors the cycle met (items it could not handle, or the error that ended it). */
    errors: integer('errors').notNull().default(0),
    /** Their messages (the first ones, each cut short). */
    errorMessages: jsonb('error_messages').$type<string[]>().notNull().default([]),
    outcome: text('outcome').$type<CycleOutcome>().notNull().default('running'),
    /** Why it was aborted or failed (the pause that killed it, the error it threw). */
    outcomeDetail: text('outcome_detail'),
  },
  (t) => [index('board_program_cycles_program_idx').on(t.programKey, t.openedAt)],
);
