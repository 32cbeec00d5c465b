/**
 * The evidence read model: one row per task, what its record says about how its work went
 * (outcome.ts folds it). Kept as the work happens and rebuildable from the record alone.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tasks } from '../tasks/schema.js';

export const taskOutcomes = pgTable(
  'task_outcomes',
  {
    taskId: uuid('task_id')
      .primaryKey()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    rootTaskId: uuid('root_task_id').notNull(),
    isRoot: boolean('is_root').notNull(),
    projectId: uuid('project_id'),
    team: text('team').notNull(),
    taskType: text('task_type').notNull(),
    /** Who did the task's own work, and the CLI and model of their last run on it. */
    ownerAgentId: uuid('owner_agent_id'),
    ownerRole: text('owner_role'),
    cli: text('cli'),
    model: text('model'),
    /** The reviewing stages' actors: `{qa, documentation, pr_review, pm_review, ceo}`. */
    reviewers: jsonb('reviewers').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    qaFirstPass: boolean('qa_first_pass'),
    qaFails: integer('qa_fails').notNull().default(0),
    prFails: integer('pr_fails').notNull().default(0),
    pmRejections: integer('pm_rejections').notNull().default(0),
    ceoRejections: integer('ceo_rejections').notNull().default(0),
    reworkRounds: integer('rework_rounds').notNull().default(0),
    findingsBlocker: integer('findings_blocker').notNull().default(0),
    findingsMajor: integer('findings_major').notNull().default(0),
    findingsMinor: integer('findings_minor').notNull().default(0),
    findingsNit: integer('findings_nit').notNull().default(0),
    findingsOpen: integer('findings_open').notNull().default(0),
    firstClaimedAt: timestamp('first_claimed_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** `merged`, `accepted`, `cancelled`; null while the task is open. */
    end: text('end'),
    /** Wall seconds in each stage it has left: `{waiting, development, qa, …}`. */
    stageSeconds: jsonb('stage_seconds').$type<Record<string, number>>().notNull().default(sql`'{}'::jsonb`),
    runs: integer('runs').notNull().default(0),
    runsFailedOnStart: integer('runs_failed_on_start').notNull().default(0),
    runsStoppedByLimit: integer('runs_stopped_by_limit').notNull().default(0),
    runSeconds: integer('run_seconds').notNull().default(0),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull().default(0),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull().default(0),
    costUsd: numeric('cost_usd', { precision: 14, scale: 6, mode: 'number' }).notNull().default(0),
    /** How much of the record this row has seen; a fold of less never overwrites it. */
    watermark: bigint('watermark', { mode: 'number' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('task_outcomes_root_idx').on(t.rootTaskId),
    index('task_outcomes_ended_idx').on(t.endedAt),
    index('task_outcomes_owner_idx').on(t.ownerAgentId),
  ],
);

/** What one arm of an experiment runs: the agent CLI, the provider (by name) and the model; null: as usual. */
export interface ArmRoute {
  cli: string | null;
  provider: string | null;
  model: string | null;
}

/**
 * An experiment: one role's work split between two routes. Each task the role's agents start on
 * while it runs goes to arm `b` for `share_b` % of tasks (by a hash of the experiment and the task),
 * else to arm `a`. At most one runs per role.
 */
export const experiments = pgTable(
  'experiments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    role: text('role').notNull(),
    armA: jsonb('arm_a').$type<ArmRoute>().notNull(),
    armB: jsonb('arm_b').$type<ArmRoute>().notNull(),
    shareB: integer('share_b').notNull(),
    maxTasks: integer('max_tasks').notNull(),
    costCapUsd: numeric('cost_cap_usd', { precision: 14, scale: 6, mode: 'number' }),
    /** An arm whose failure-on-start rate passes this (0–1) stops getting work at once. */
    startFailureBound: numeric('start_failure_bound', { precision: 4, scale: 3, mode: 'number' }).notNull(),
    /** `running` or `ended`. */
    status: text('status').notNull().default('running'),
    /** `task_count`, `cost_cap`, `start_failures`, `stopped`; null while running. */
    endedReason: text('ended_reason'),
    /** The arm the start failures stopped (`a` or `b`). */
    stoppedArm: text('stopped_arm'),
    /** The CEO's one-card summary once it ended (the verdict then). */
    verdict: text('verdict'),
    adoptedArm: text('adopted_arm'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    adoptedAt: timestamp('adopted_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('experiments_one_running_per_role').on(t.role).where(sql`status = 'running'`)],
);

/** Which arm each task of an experiment runs on, chosen once when the role's first run on it starts. */
export const experimentTasks = pgTable(
  'experiment_tasks',
  {
    experimentId: uuid('experiment_id')
      .notNull()
      .references(() => experiments.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    /** `a` or `b`. */
    arm: text('arm').notNull(),
    assignedAt: timestamp('assigned_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.experimentId, t.taskId] }),
    index('experiment_tasks_task_idx').on(t.taskId),
  ],
);

/**
 * The route advice told to the CEO: one row per role and pair of routes (the role's own and the
 * one the scorecards show as good and cheaper), so the same advice is told once a month at most,
 * by whichever replica stores it first.
 */
export const routeAdvice = pgTable(
  'route_advice',
  {
    role: text('role').notNull(),
    /** The role's route when it was told, as `cli / model`. */
    current: text('current').notNull(),
    /** The route advised, as `cli / model`. */
    candidate: text('candidate').notNull(),
    toldAt: timestamp('told_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.role, t.current, t.candidate] })],
);
