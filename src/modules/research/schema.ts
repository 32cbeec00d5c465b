/**
 * The research module's tables: the one configured search provider (its API key sealed with the
 * secret box, bound to the row) and every search or fetch made, which is both the audit list and
 * the count the per-agent daily quota is taken from.
 */
import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** At most one row (`id = 'search'`); clearing the provider deletes it. */
export const researchProvider = pgTable('research_provider', {
  id: text('id').primaryKey(),
  /** `tavily`, `brave` or `exa`. */
  provider: text('provider').notNull(),
  apiKeySealed: text('api_key_sealed').notNull(),
  /** Null: the provider's public endpoint. */
  baseUrl: text('base_url'),
  updatedBy: text('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** One search or fetch. Append-only. */
export const researchQueries = pgTable(
  'research_queries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    agentId: text('agent_id').notNull(),
    role: text('role').notNull(),
    /** `search` or `fetch`. */
    kind: text('kind').notNull(),
    /** The provider that answered; null when none was configured (or for a direct fetch). */
    provider: text('provider'),
    /** The query text, or the URL fetched. */
    subject: text('subject').notNull(),
    resultCount: integer('result_count').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('research_queries_agent_at_idx').on(t.agentId, t.at)],
);
