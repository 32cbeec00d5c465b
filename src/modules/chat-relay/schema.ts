import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The chat relay's credentials: at most one row (`id = 'telegram'`), both values sealed with the
 * secret box (AES-256-GCM, bound to the row by associated data). Cleared credentials delete the row.
 */
export const chatRelayCredentials = pgTable('chat_relay_credentials', {
  id: text('id').primaryKey(),
  botTokenSealed: text('bot_token_sealed').notNull(),
  chatIdSealed: text('chat_id_sealed').notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
