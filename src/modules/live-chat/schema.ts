/**
 * Live chats (the intake interviewer's and the secretary's): one row per session (its kind, the
 * CEO who owns it, its scope, the proposal on the table, whether it is still live) and every turn
 * of it in order (user and assistant text, tool uses and results, drafts, directives, errors), so a
 * reloaded page replays the chat and the model hears the whole conversation on each turn.
 */
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const liveChatSessions = pgTable(
  'live_chat_sessions',
  {
    /** Random hex. */
    id: text('id').primaryKey(),
    /** `prompter` or `secretary`. */
    kind: text('kind').notNull(),
    /** Identity id of the CEO who started it. */
    ownerId: text('owner_id').notNull(),
    scope: jsonb('scope').$type<Record<string, unknown>>().notNull().default({}),
    /** `active` or `ended`. */
    status: text('status').notNull().default('active'),
    /** The proposal the CEO may confirm (intake: a task draft or a batch). */
    draft: jsonb('draft').$type<Record<string, unknown> | null>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** `stopped`, `idle`. */
    endedReason: text('ended_reason'),
  },
  (t) => [index('live_chat_sessions_kind_status_idx').on(t.kind, t.status)],
);

export const liveChatTurns = pgTable(
  'live_chat_turns',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => liveChatSessions.id, { onDelete: 'cascade' }),
    /** Position in the session, from 1. */
    seq: integer('seq').notNull(),
    /** user, text (an assistant message), tool_use, tool_result, draft, batch, directive, created, error. */
    kind: text('kind').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('live_chat_turns_session_seq_idx').on(t.sessionId, t.seq)],
);
