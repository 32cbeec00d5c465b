/**
 * The task domain's tables: tasks, their per-cell project maps, and the append-only audit trail
 * (task_events). Statuses are the lifecycle module's; they change only through its rules (or the
 * CEO's audited override).
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { agents } from '../agents/schema.js';
import { products } from '../products/schema.js';
import { projects } from '../projects/schema.js';

export interface AcceptanceCriterion {
  /** Stable id, kept across edits while the text is unchanged. */
  id: string;
  text: string;
}

/** A unit of work moving through the delivery pipeline. Its status changes only through the lifecycle rules. */
export const tasks = pgTable(
  'tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    acceptanceCriteria: jsonb('acceptance_criteria').$type<AcceptanceCriterion[]>().notNull(),
    status: text('status').notNull().default('pending'),
    /** 0 is the highest priority. */
    priority: integer('priority').notNull().default(2),
    /** Order among siblings: a higher sequence waits for lower ones it depends on. */
    sequence: integer('sequence').notNull().default(0),
    taskType: text('task_type').notNull(),
    nature: text('nature').notNull(),
    complexity: text('complexity').notNull(),
    team: text('team').notNull(),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'restrict' }),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'restrict' }),
    batchId: uuid('batch_id'),
    parentTaskId: uuid('parent_task_id').references((): AnyPgColumn => tasks.id, { onDelete: 'restrict' }),
    /** 0 for a root; children are parent depth + 1, at most 3 (four levels). */
    depth: integer('depth').notNull().default(0),
    dependencyIds: uuid('dependency_ids').array().notNull().default(sql`'{}'::uuid[]`),
    completedDependencyIds: uuid('completed_dependency_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /** Declared collision surface: path globs the work intends to touch. */
    intendsToTouch: text('intends_to_touch').array().notNull().default(sql`'{}'::text[]`),
    addsMigration: boolean('adds_migration').notNull().default(false),
    touchesShared: boolean('touches_shared').notNull().default(false),
    branchName: text('branch_name'),
    prNumber: integer('pr_number'),
    prUrl: text('pr_url'),
    prCreated: boolean('pr_created').notNull().default(false),
    docsComplete: boolean('docs_complete').notNull().default(false),
    createdBy: text('created_by').notNull(),
    assignedTo: uuid('assigned_to').references(() => agents.id, { onDelete: 'set null' }),
    claimedBy: uuid('claimed_by').references(() => agents.id, { onDelete: 'set null' }),
    /** The one agent currently working the task (single-claimant lock). */
    activeClaimantId: uuid('active_claimant_id').references(() => agents.id, { onDelete: 'set null' }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    lastHeartbeatAt: timestamp('last_heartbeat_at', { withTimezone: true }),
    revisionCount: integer('revision_count').notNull().default(0),
    /** Who or what opened the task: manual, ci_watch, dep_update, release_manager, … */
    source: text('source').notNull().default('manual'),
    budgetUsd: numeric('budget_usd', { precision: 12, scale: 2, mode: 'number' }),
    plan: jsonb('plan'),
    /** Typed notes per role (dev, qa, pm, …). */
    notes: jsonb('notes').$type<Record<string, unknown>>().notNull().default({}),
    /** Machine markers (original developer, escalation, pre-block snapshot, …). */
    markers: jsonb('markers').$type<Record<string, unknown>>().notNull().default({}),
    /** A held task is never dispatched or started by anyone (e.g. a release proposal). */
    held: boolean('held').notNull().default(false),
    confirmedByHuman: boolean('confirmed_by_human').notNull().default(false),
    stalledReason: text('stalled_reason'),
    stalledSince: timestamp('stalled_since', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('tasks_status_idx').on(t.status),
    index('tasks_team_status_idx').on(t.team, t.status),
    index('tasks_assigned_status_idx').on(t.assignedTo, t.status),
    index('tasks_project_status_idx').on(t.projectId, t.status),
    index('tasks_parent_idx').on(t.parentTaskId),
    index('tasks_source_status_idx').on(t.source, t.status),
    /** The single-active-task guard looks up the claims an agent holds. */
    index('tasks_active_claimant_idx').on(t.activeClaimantId).where(sql`${t.activeClaimantId} is not null`),
    /** Completion moves the id from its dependents' dependency_ids: find them without a scan. */
    index('tasks_dependency_ids_idx').using('gin', t.dependencyIds),
  ],
);

/** Per-cell project map of a coordination task that spans several repositories. */
export const taskCellProjects = pgTable(
  'task_cell_projects',
  {
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    team: text('team').notNull(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.team] })],
);

/** The audit trail: one row per transition or override (who, from, to, when, why). Append-only. */
export const taskEvents = pgTable(
  'task_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    actorId: text('actor_id').notNull(),
    actorRole: text('actor_role').notNull(),
    action: text('action').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    reason: text('reason'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('task_events_task_idx').on(t.taskId, t.id)],
);
