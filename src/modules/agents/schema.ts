import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The roster. The default company is seeded with fixed UUIDs on first start; retired agents stay for history. */
export const agents = pgTable(
  'agents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull().unique(),
    name: text('name').notNull(),
    role: text('role').notNull(),
    /** A delivery cell or org team; null for org-wide agents bound to no team. */
    team: text('team'),
    /** Runtime state as last reported: active (holds a task), idle, offline. */
    status: text('status').notNull().default('offline'),
    currentTaskId: uuid('current_task_id'),
    model: text('model'),
    description: text('description').notNull().default(''),
    capabilities: text('capabilities').array().notNull().default(sql`'{}'::text[]`),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agents_role_team_idx').on(t.role, t.team)],
);
