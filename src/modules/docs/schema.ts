/**
 * Project documentation files written for a task: where each lives (project, task, path on the
 * task's branch), its type and title, the commit that last wrote it, who wrote it, and its current
 * content (for reading and indexing without git). A deleted doc keeps its row (deleted_at, and the
 * removing commit) so retrieval sees the tombstone once; one live row per (task, path).
 */
import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const docs = pgTable(
  'docs',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull(),
    taskId: text('task_id').notNull(),
    path: text('path').notNull(),
    docType: text('doc_type').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    branch: text('branch').notNull(),
    commitSha: text('commit_sha').notNull(),
    createdBy: text('created_by').notNull(),
    updatedBy: text('updated_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('docs_live_path_idx').on(t.taskId, t.path).where(sql`${t.deletedAt} is null`),
    index('docs_project_idx').on(t.projectId, t.updatedAt),
    index('docs_changed_idx').on(t.updatedAt, t.id),
  ],
);
