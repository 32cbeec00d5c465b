/** The findings ledger table: one row per review finding raised on a task. */
import { bigserial, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tasks } from '../tasks/schema.js';

/** Review findings raised on a task (QA, PR gate, PM, CEO). Append-only: only status, commit and note change. */
export const taskFindings = pgTable(
  'task_findings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Insertion order: a strict total order among findings raised in the same instant (one batch). */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    /** qa | pr_gate | pm | ceo */
    origin: text('origin').notNull(),
    /** Revision round the finding belongs to (revision count + 1 when raised). */
    round: integer('round').notNull(),
    authorSlug: text('author_slug').notNull(),
    file: text('file'),
    line: integer('line'),
    /** blocker | major | minor | nit */
    severity: text('severity').notNull(),
    criterion: text('criterion'),
    expected: text('expected').notNull(),
    actual: text('actual').notNull(),
    fix: text('fix').notNull(),
    evidence: text('evidence'),
    /** open → addressed → verified, or waived */
    status: text('status').notNull().default('open'),
    addressedByCommit: text('addressed_by_commit'),
    resolutionNote: text('resolution_note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('task_findings_task_idx').on(t.taskId, t.round)],
);
