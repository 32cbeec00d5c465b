import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The parked model providers: one row per provider while it is rate limited or overloaded (the
 * episode), deleted when it is lifted. Shared by every replica and kept across restarts.
 */
export const providerRateLimits = pgTable('provider_rate_limits', {
  /** The routed provider's name, or the agent CLI's kind (`claude`, `codex`) when none is routed. */
  provider: text('provider').primaryKey(),
  /** rate_limited | overloaded */
  kind: text('kind').notNull(),
  /** When the episode began (kept by later hits). */
  hitAt: timestamp('hit_at', { withTimezone: true }).notNull(),
  /** When the provider is tried again (the end of its window, or the next probe after a failure). */
  resumeAt: timestamp('resume_at', { withTimezone: true }).notNull(),
  /** The provider's own Retry-After, when it gave one. */
  retryAfterSeconds: integer('retry_after_seconds'),
  /** Slugs of the agents parked on it. */
  affectedAgents: text('affected_agents').array().notNull().default([]),
  probeFailures: integer('probe_failures').notNull().default(0),
  /** The CEO was told about this episode (once). */
  ceoNotified: boolean('ceo_notified').notNull().default(false),
});
