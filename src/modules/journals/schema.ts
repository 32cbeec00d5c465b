/**
 * Agents' journal entries: reflections on tasks, decisions, learnings, struggles and notes, each
 * written by its author. A deleted entry keeps its row (deleted_at set, updated_at moved to the
 * deletion) so retrieval sees the tombstone once.
 */
import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const journalEntries = pgTable(
  'journal_entries',
  {
    id: text('id').primaryKey(),
    /** The author's agent UUID. */
    authorId: text('author_id').notNull(),
    authorSlug: text('author_slug').notNull(),
    entryType: text('entry_type').notNull(),
    content: text('content').notNull(),
    taskId: text('task_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('journal_entries_author_idx').on(t.authorId, t.createdAt),
    index('journal_entries_changed_idx').on(t.updatedAt, t.id),
  ],
);
