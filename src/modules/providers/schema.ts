import { boolean, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** A model provider: where a model API answers and the key it takes (sealed, never returned). */
export const modelProviders = pgTable('model_providers', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  /** openai | anthropic */
  kind: text('kind').notNull(),
  baseUrl: text('base_url'),
  defaultModel: text('default_model').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  /** AES-256-GCM ciphertext (key derived from the auth secret, bound to the row id); never returned. */
  apiKeyCiphertext: text('api_key_ciphertext'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Which provider and model runs: scope `global` (subject ''), `role` (a role), `agent` (a roster UUID). */
export const modelRoutes = pgTable(
  'model_routes',
  {
    scope: text('scope').notNull(),
    subject: text('subject').notNull(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => modelProviders.id, { onDelete: 'cascade' }),
    /** null = the provider's default model. */
    model: text('model'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.scope, table.subject] })],
);
