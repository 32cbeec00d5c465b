import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The settings store: feature flags, pause state and other durable key/value settings. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedBy: text('updated_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
