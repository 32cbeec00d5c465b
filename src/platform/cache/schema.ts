import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Postgres-backed leases: the `Locks` implementation used when Redis is not configured. */
export const leases = pgTable('leases', {
  name: text('name').primaryKey(),
  owner: text('owner').notNull(),
  fencingToken: bigint('fencing_token', { mode: 'number' }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
