/** The work-sessions table: an agent's git session on a task, one active per task. */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { agents } from '../agents/schema.js';
import { tasks } from '../tasks/schema.js';

export interface SessionCommit {
  hash: string;
  message: string;
  at: string;
}

/** An agent's git session on a task: branch, commits, files, PR. At most one active per task. */
export const workSessions = pgTable(
  'work_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'restrict' }),
    branch: text('branch').notNull(),
    baseBranch: text('base_branch'),
    /** active | completed | abandoned */
    status: text('status').notNull().default('active'),
    commits: jsonb('commits').$type<SessionCommit[]>().notNull().default([]),
    filesChanged: text('files_changed').array().notNull().default(sql`'{}'::text[]`),
    prNumber: integer('pr_number'),
    prUrl: text('pr_url'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('work_sessions_one_active_per_task').on(t.taskId).where(sql`${t.status} = 'active'`),
    index('work_sessions_agent_idx').on(t.agentId, t.status),
  ],
);
