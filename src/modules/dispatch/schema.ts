/**
 * The dispatcher's tables: the respawn breaker's tracker (per task: consecutive spawns without
 * progress, the progress marks seen at the last spawn, and whether the task was given up on as
 * stalled), and the budget breaches already acted on (so each breach is handled once, on one
 * replica).
 */
import { sql } from 'drizzle-orm';
import { bigint, integer, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { agents } from '../agents/schema.js';
import { tasks } from '../tasks/schema.js';

/** One row per task the dispatcher has spawned an agent for. */
export const dispatchTaskSpawns = pgTable('dispatch_task_spawns', {
  taskId: uuid('task_id')
    .primaryKey()
    .references(() => tasks.id, { onDelete: 'cascade' }),
  /** The agent of the last spawn. */
  agentId: uuid('agent_id').references(() => agents.id, { onDelete: 'set null' }),
  /** Spawns in a row that saw no progress on the task. */
  spawns: integer('spawns').notNull().default(0),
  /** Progress marks at the last spawn: the newest audit row not written by the system, and the heartbeat. */
  lastEventId: bigint('last_event_id', { mode: 'number' }),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
  lastSpawnAt: timestamp('last_spawn_at', { withTimezone: true }),
  /** Set when the breaker tripped: no more spawns until the task makes progress. */
  stalledAt: timestamp('stalled_at', { withTimezone: true }),
  stalledReason: text('stalled_reason'),
});

/** A budget breach that was acted on: a task over its budget, or a project over its month's budget. */
export const dispatchBudgetBreaches = pgTable(
  'dispatch_budget_breaches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** `task`, `project` or `company` (the company-wide monthly cap). */
    kind: text('kind').$type<'task' | 'project' | 'company'>().notNull(),
    /** The task or project id (the nil UUID for the company). */
    subjectId: uuid('subject_id').notNull(),
    /** `YYYY-MM` for a monthly budget (project, company); empty for a task budget. */
    period: text('period').notNull().default(''),
    capUsd: numeric('cap_usd', { precision: 12, scale: 2, mode: 'number' }).notNull(),
    spentUsd: numeric('spent_usd', { precision: 14, scale: 6, mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [uniqueIndex('dispatch_budget_breaches_once_idx').on(t.kind, t.subjectId, t.period, t.capUsd)],
);
