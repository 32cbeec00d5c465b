/**
 * Product pitches of the board: what is proposed (title, slug, problem, proposal, the delivery
 * cells it needs) and the CEO's decision (status, notes, who and when), with what approval
 * provisioned: the projects (one per cell), the product (several cells) and the main PM's task.
 */
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const pitches = pgTable('pitches', {
  id: text('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  title: text('title').notNull(),
  problem: text('problem').notNull(),
  proposal: text('proposal').notNull(),
  targetCells: text('target_cells').array().notNull(),
  /** proposed → provisioning (while approval runs) → provisioned | rejected. */
  status: text('status').notNull(),
  proposedBy: text('proposed_by').notNull(),
  decidedBy: text('decided_by'),
  decisionNotes: text('decision_notes'),
  decidedAt: timestamp('decided_at', { withTimezone: true }),
  projectIds: text('project_ids').array().notNull().default([]),
  productId: text('product_id'),
  taskId: text('task_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
