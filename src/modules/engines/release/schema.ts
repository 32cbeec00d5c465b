import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tasks } from '../../tasks/schema.js';

/**
 * What the executor last did for a release proposal (one row per proposal task, written from the
 * first approve or reject on): its status and detail as the GET shows them, the step it reached,
 * the release commit and the published release, and — while it runs — the heartbeat expiry that
 * tells every replica an approve is in flight. A `running` row whose expiry has passed was left by
 * a stopped process: it reads as `failed_interrupted` until the next approve.
 */
export const releaseExecutions = pgTable('release_executions', {
  taskId: uuid('task_id')
    .primaryKey()
    .references(() => tasks.id, { onDelete: 'cascade' }),
  version: text('version').notNull(),
  /** See EXECUTE_STATUSES. */
  status: text('status').notNull(),
  /** The step reached (`promote`, `bump`, `head_ci`, `commit`, `push`, `release_ci`, `publish`). */
  step: text('step'),
  detail: text('detail'),
  commitSha: text('commit_sha'),
  releaseUrl: text('release_url'),
  attempts: integer('attempts').notNull().default(0),
  approvedBy: text('approved_by'),
  requiredChanges: text('required_changes'),
  /** While running: until when the holder's heartbeat vouches for it (database clock). */
  heartbeatUntil: timestamp('heartbeat_until', { withTimezone: true }),
  startedAt: timestamp('started_at', { withTimezone: true }),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
