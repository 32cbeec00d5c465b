import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per scheduler loop, shared by every replica: when its last pass started (the
 * once-per-interval tick claim), succeeded and failed, and how often it ran. `/api/orchestrator/state`
 * and the `gaffer_scheduler_last_success_timestamp_seconds` metric read it.
 */
export const schedulerLoops = pgTable('scheduler_loops', {
  name: text('name').primaryKey(),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }),
  lastError: text('last_error'),
  passes: integer('passes').notNull().default(0),
  failures: integer('failures').notNull().default(0),
});
