/**
 * The SQL of A2A: conversation and message rows, participants' roster facts, paging, counts,
 * read marks. Every function takes the handle to use, so it works inside a transaction too.
 */
import {
  and,
  count,
  desc,
  eq,
  gt,
  inArray,
  lt,
  max,
  ne,
  or,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Tx } from '../../platform/bus/index.js';
import type { Db } from '../../platform/db/client.js';
import type { ConversationStatus } from './rules.js';
import { a2aConversations, a2aMessages, a2aReadMarks } from './schema.js';

export type Handle = Db | Tx;
export type ConversationRow = typeof a2aConversations.$inferSelect;
export type MessageRow = typeof a2aMessages.$inferSelect;

/** The roster facts A2A shows and decides on (the agents module's named reads). */
export { type AgentRef, agentRefs, findAgentRef as findAgent } from '../agents/index.js';

export async function loadConversation(
  db: Handle,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ConversationRow | null> {
  const query = db.select().from(a2aConversations).where(eq(a2aConversations.id, id)).limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

/** The conversations with these ids, most recently active first. */
export async function conversationsByIds(db: Handle, ids: readonly string[]): Promise<ConversationRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(a2aConversations)
    .where(inArray(a2aConversations.id, [...ids]))
    .orderBy(desc(a2aConversations.updatedAt), desc(a2aConversations.id));
}

export async function loadMessage(db: Handle, id: string): Promise<MessageRow | null> {
  const [row] = await db.select().from(a2aMessages).where(eq(a2aMessages.id, id)).limit(1);
  return row ?? null;
}

export interface ConversationFilter {
  /** Only conversations this agent takes part in (absent: all, for the CEO's view). */
  participantId?: string | undefined;
  withAgentId?: string | undefined;
  status?: ConversationStatus | undefined;
  taskId?: string | undefined;
  limit: number;
}

/** An agent id, or a placeholder for one in a prepared statement. */
export type AgentKey = string | Placeholder;

const involves = (agentId: AgentKey): SQL =>
  or(eq(a2aConversations.participantA, agentId), eq(a2aConversations.participantB, agentId))!;

/** Conversations, most recently active first. */
export async function listConversations(db: Handle, filter: ConversationFilter): Promise<ConversationRow[]> {
  const conditions: SQL[] = [];
  if (filter.participantId) conditions.push(involves(filter.participantId));
  if (filter.withAgentId) conditions.push(involves(filter.withAgentId));
  if (filter.status) conditions.push(eq(a2aConversations.status, filter.status));
  if (filter.taskId) conditions.push(eq(a2aConversations.taskId, filter.taskId));
  return db
    .select()
    .from(a2aConversations)
    .where(and(...conditions))
    .orderBy(desc(a2aConversations.updatedAt), desc(a2aConversations.id))
    .limit(filter.limit);
}

/** Messages per conversation. */
export async function messageCounts(
  db: Handle,
  conversationIds: readonly string[],
): Promise<Map<string, number>> {
  if (conversationIds.length === 0) return new Map();
  const rows = await db
    .select({ id: a2aMessages.conversationId, n: count() })
    .from(a2aMessages)
    .where(inArray(a2aMessages.conversationId, [...conversationIds]))
    .groupBy(a2aMessages.conversationId);
  return new Map(rows.map((r) => [r.id, r.n]));
}

/**
 * The query of the messages `agentId` has not read, counted per conversation (`id`, `n`; only the
 * other participant's messages count), in the given conversations when named: run by
 * `unreadCounts`, embedded by the unread summary.
 */
export function unreadByConversationQuery(
  db: Handle,
  agentId: AgentKey,
  conversationIds?: readonly string[],
) {
  return db
    .select({ id: a2aMessages.conversationId, n: count().as('n') })
    .from(a2aMessages)
    .innerJoin(a2aConversations, eq(a2aConversations.id, a2aMessages.conversationId))
    .leftJoin(
      a2aReadMarks,
      and(eq(a2aReadMarks.conversationId, a2aMessages.conversationId), eq(a2aReadMarks.agentId, agentId)),
    )
    .where(
      and(
        involves(agentId),
        ne(a2aMessages.senderId, agentId),
        sql`${a2aMessages.seq} > coalesce(${a2aReadMarks.lastReadSeq}, 0)`,
        conversationIds ? inArray(a2aMessages.conversationId, [...conversationIds]) : undefined,
      ),
    )
    .groupBy(a2aMessages.conversationId);
}

/** Messages `agentId` has not read, per conversation (only the other participant's messages count). */
export async function unreadCounts(
  db: Handle,
  agentId: string,
  conversationIds?: readonly string[],
): Promise<Map<string, number>> {
  if (conversationIds?.length === 0) return new Map();
  const rows = await unreadByConversationQuery(db, agentId, conversationIds);
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** The query counting the requests written to `agentId` that it has not answered yet (`n`). */
export function unansweredRequestsQuery(db: Handle, agentId: AgentKey) {
  return db
    .select({ n: count().as('n') })
    .from(a2aMessages)
    .innerJoin(a2aConversations, eq(a2aConversations.id, a2aMessages.conversationId))
    .where(
      and(
        involves(agentId),
        ne(a2aMessages.senderId, agentId),
        eq(a2aMessages.requiresResponse, true),
        sql`not exists (select 1 from ${a2aMessages} as answer
              where answer.response_to_id = ${a2aMessages.id} and answer.sender_id = ${agentId})`,
      ),
    );
}

/** Requests written to `agentId` that it has not answered yet. */
export async function unansweredRequests(db: Handle, agentId: string): Promise<number> {
  const [row] = await unansweredRequestsQuery(db, agentId);
  return row?.n ?? 0;
}

/** The last read seq of `agentId` in a conversation (0 when it has read nothing). */
export async function lastReadSeq(db: Handle, conversationId: string, agentId: string): Promise<number> {
  const [row] = await db
    .select({ seq: a2aReadMarks.lastReadSeq })
    .from(a2aReadMarks)
    .where(and(eq(a2aReadMarks.conversationId, conversationId), eq(a2aReadMarks.agentId, agentId)));
  return row?.seq ?? 0;
}

/** `senderId`'s messages with this body that the reader has not read yet (duplicate candidates). */
export async function unreadWithBody(
  db: Handle,
  conversationId: string,
  senderId: string,
  body: string,
  afterSeq: number,
): Promise<MessageRow[]> {
  return db
    .select()
    .from(a2aMessages)
    .where(
      and(
        eq(a2aMessages.conversationId, conversationId),
        eq(a2aMessages.senderId, senderId),
        eq(a2aMessages.body, body),
        gt(a2aMessages.seq, afterSeq),
      ),
    )
    .limit(10);
}

/** How many messages each agent has written in a conversation. */
export async function countsBySender(db: Handle, conversationId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: a2aMessages.senderId, n: count() })
    .from(a2aMessages)
    .where(eq(a2aMessages.conversationId, conversationId))
    .groupBy(a2aMessages.senderId);
  return new Map(rows.map((r) => [r.id, r.n]));
}

/**
 * A page of a conversation: the latest `limit` messages before the `beforeSeq` cursor (all when
 * absent), returned oldest first, and whether older ones exist.
 */
export async function messagePage(
  db: Handle,
  conversationId: string,
  page: { limit: number; beforeSeq?: number | undefined },
): Promise<{ messages: MessageRow[]; hasMore: boolean }> {
  const rows = await db
    .select()
    .from(a2aMessages)
    .where(
      and(
        eq(a2aMessages.conversationId, conversationId),
        page.beforeSeq === undefined ? undefined : lt(a2aMessages.seq, page.beforeSeq),
      ),
    )
    .orderBy(desc(a2aMessages.seq))
    .limit(page.limit + 1);
  const hasMore = rows.length > page.limit;
  return { messages: rows.slice(0, page.limit).reverse(), hasMore };
}

/** Marks every message of the conversation up to now as read by `agentId` (never moves backwards). */
export async function markRead(
  db: Handle,
  conversationId: string,
  agentId: string,
  now: Date,
): Promise<void> {
  const [latest] = await db
    .select({ seq: max(a2aMessages.seq) })
    .from(a2aMessages)
    .where(eq(a2aMessages.conversationId, conversationId));
  const seq = Number(latest?.seq ?? 0);
  await db
    .insert(a2aReadMarks)
    .values({ conversationId, agentId, lastReadSeq: seq, readAt: now })
    .onConflictDoUpdate({
      target: [a2aReadMarks.conversationId, a2aReadMarks.agentId],
      set: { lastReadSeq: sql`greatest(${a2aReadMarks.lastReadSeq}, ${seq})`, readAt: now },
    });
}
