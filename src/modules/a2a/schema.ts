/**
 * The A2A tables: direct conversations between two agents, their messages (in a strict insertion
 * order, `seq`), and each participant's read mark (the last message seq it has read).
 */
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { agents } from '../agents/schema.js';
import { tasks } from '../tasks/schema.js';

/** A direct conversation between two agents, optionally about a task. */
export const a2aConversations = pgTable(
  'a2a_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The initiator. */
    participantA: uuid('participant_a')
      .notNull()
      .references(() => agents.id, { onDelete: 'restrict' }),
    /** The agent the initiator wrote to. */
    participantB: uuid('participant_b')
      .notNull()
      .references(() => agents.id, { onDelete: 'restrict' }),
    topic: text('topic'),
    taskId: uuid('task_id').references(() => tasks.id, { onDelete: 'set null' }),
    /** open | closed */
    status: text('status').notNull().default('open'),
    resolution: text('resolution'),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => agents.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Moves with every message and with the close. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    index('a2a_conversations_a_idx').on(t.participantA, t.updatedAt),
    index('a2a_conversations_b_idx').on(t.participantB, t.updatedAt),
    index('a2a_conversations_task_idx').on(t.taskId),
  ],
);

/** One message of a conversation. Append-only. */
export const a2aMessages = pgTable(
  'a2a_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Insertion order: the paging cursor and what read marks point at. */
    seq: bigserial('seq', { mode: 'number' }).notNull().unique(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => a2aConversations.id, { onDelete: 'cascade' }),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'restrict' }),
    body: text('body').notNull(),
    /** message | request | response */
    kind: text('kind').notNull().default('message'),
    responseToId: uuid('response_to_id').references((): AnyPgColumn => a2aMessages.id, {
      onDelete: 'set null',
    }),
    requiresResponse: boolean('requires_response').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('a2a_messages_conversation_idx').on(t.conversationId, t.seq)],
);

/** How far a participant has read a conversation: every message with seq ≤ lastReadSeq. */
export const a2aReadMarks = pgTable(
  'a2a_read_marks',
  {
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => a2aConversations.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    lastReadSeq: bigint('last_read_seq', { mode: 'number' }).notNull().default(0),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.agentId] })],
);
