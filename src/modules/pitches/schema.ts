/**
 * Product pitches of the board: what is proposed (title, slug, problem, proposal, the delivery
 * cells it needs) and the CEO's decision (status, notes, who and when), with what approval
 * provisioned: the projects (one per cell), the product (several cells) and the main PM's task.
 */
import { boolean, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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

/**
 * The provisioning forge (one row, id `default`): where approval creates new repositories —
 * provider, REST base URL, owner (organisation or the token's user), whether they are private —
 * and its token, sealed with the secret box (purpose `pitches.forge_token`, bound to the row id).
 */
export const pitchForge = pgTable('pitch_forge', {
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  apiUrl: text('api_url').notNull(),
  owner: text('owner').notNull(),
  private: boolean('private').notNull(),
  tokenSealed: text('token_sealed').notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
