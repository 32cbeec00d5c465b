/**
 * The company charter (one row, id `company`) and its audit trail: every change with who made it,
 * when, which fields and their values before and after.
 */
import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export interface Objective {
  title: string;
  detail?: string;
  metric?: string;
  target?: string;
}

export const companyGoals = pgTable('company_goals', {
  /** Always `company`: there is one charter. */
  id: text('id').primaryKey(),
  companyName: text('company_name').notNull().default(''),
  northStar: text('north_star').notNull().default(''),
  objectives: jsonb('objectives').$type<Objective[]>().notNull().default([]),
  constraints: jsonb('constraints').$type<string[]>().notNull().default([]),
  operatingPolicy: jsonb('operating_policy').$type<Record<string, string>>().notNull().default({}),
  brandVoice: text('brand_voice').notNull().default(''),
  updatedAt: timestamp('updated_at', { withTimezone: true }),
  updatedBy: text('updated_by'),
});

/** One change of the charter. Append-only. */
export const companyGoalChanges = pgTable(
  'company_goal_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    changedBy: text('changed_by').notNull(),
    fields: text('fields').array().notNull(),
    before: jsonb('before').$type<Record<string, unknown>>().notNull(),
    after: jsonb('after').$type<Record<string, unknown>>().notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('company_goal_changes_at_idx').on(t.at)],
);
