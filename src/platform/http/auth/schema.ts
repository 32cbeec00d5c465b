import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Panel sessions. The cookie holds a random id; only its SHA-256 is stored, so a leaked table grants nothing. */
export const authSessions = pgTable('auth_sessions', {
  idHash: text('id_hash').primaryKey(),
  agentId: text('agent_id').notNull(),
  role: text('role').notNull(),
  team: text('team').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
