/**
 * Agent-to-agent conversations: open one (the access matrix decides), write in it (reply-then-wait
 * with the CEO, duplicate suppression, `A2A_MESSAGE_SENT` after commit), read it, mark it read,
 * close it, and the inbox. Participant-scoped methods take the caller as an `AgentRef`; the CEO's
 * live view (`allConversations`, `adminMessages`) sees every conversation in full.
 */
import { eq } from 'drizzle-orm';
import { inTransaction, type PendingEvents, type Tx } from '../../platform/bus/index.js';
import type { Platform } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import type { Identity } from '../../platform/http/auth/identity.js';
import { AppError, notFound, unprocessable } from '../../platform/http/errors.js';
import { isUuid } from '../../platform/ids.js';
import { mayMessage } from './access-matrix.js';
import { A2A_LIMITS, type ConversationStatus, isParticipant } from './rules.js';
import { a2aConversations } from './schema.js';
import {
  conversationNotFound,
  type MessageDraft,
  notAParticipant,
  type SentMessage,
  sendInTransaction,
} from './send-message.js';
import {
  type AgentRef,
  agentRefs,
  type ConversationRow,
  conversationsByIds,
  findAgent,
  listConversations,
  loadConversation,
  loadMessage,
  markRead,
  messageCounts,
  messagePage,
  unansweredRequests,
  unreadCounts,
} from './store.js';
import {
  type ConversationJson,
  conversationJson,
  type MessageJson,
  type MessagePageJson,
  messageJson,
} from './views.js';

/** What A2A needs of the other modules (the agents and tasks services satisfy it). */
export interface A2aServiceDeps {
  agents: { resolve(idOrSlug: string): Promise<(AgentRef & { retiredAt: Date | null }) | null> };
  tasks: { find(id: string): Promise<unknown | null> };
}

export interface OpenConversation {
  /** The agent to write to: UUID or slug. */
  targetAgent: string;
  topic?: string | null | undefined;
  taskId?: string | null | undefined;
  initialMessage: string;
  requiresResponse?: boolean | undefined;
}

export interface SendInput extends MessageDraft {
  conversationId: string;
  /** The writer: a roster agent as UUID or slug, or already resolved. */
  sender: string | AgentRef;
}

/** An open transaction to join: the message is then published when that transaction commits. */
export interface JoinTransaction {
  tx: Tx;
  events: PendingEvents;
}

export interface ConversationQuery {
  status?: ConversationStatus | undefined;
  /** UUID or slug of the other participant. */
  withAgent?: string | undefined;
  taskId?: string | undefined;
  limit?: number | undefined;
}

export interface PageQuery {
  limit?: number | undefined;
  /** A message id: only messages older than it. */
  before?: string | undefined;
}

export interface Inbox {
  total_unread: number;
  conversations_with_unread: number;
  unanswered_requests: number;
  conversations: ConversationJson[];
}

export class A2aService {
  constructor(
    readonly platform: Platform,
    private readonly deps: A2aServiceDeps,
  ) {}

  private get db(): Db {
    return this.platform.database.db;
  }

  /** The roster agent behind a caller; 403 `not_an_agent` when the identity names none. */
  async agentFor(identity: Pick<Identity, 'id'>): Promise<AgentRef> {
    const agent = await this.deps.agents.resolve(identity.id);
    if (!agent) throw new AppError(403, 'not_an_agent', 'only agents of the roster take part in A2A');
    return pick(agent);
  }

  /**
   * Opens a conversation from `initiator` to the target with its first message. 404 unknown target
   * or task, 409 `agent_retired`, 422 `cannot_message_self`, 403 `a2a_access_denied` (with
   * `route_hint`) when the access matrix refuses.
   */
  async openConversation(initiator: AgentRef, input: OpenConversation): Promise<ConversationJson> {
    const target = await this.deps.agents.resolve(input.targetAgent);
    if (!target) throw notFound(`there is no agent "${input.targetAgent}"`);
    if (target.retiredAt) throw new AppError(409, 'agent_retired', `agent ${target.slug} is retired`);
    if (target.id === initiator.id) {
      throw new AppError(422, 'cannot_message_self', 'a conversation needs another agent');
    }
    const decision = mayMessage(initiator, target);
    if (!decision.allowed) {
      throw new AppError(403, 'a2a_access_denied', decision.reason, {
        route_hint: decision.route_hint,
        sender_role: initiator.role,
        recipient_role: target.role,
      });
    }
    if (input.taskId && !(await this.deps.tasks.find(input.taskId))) {
      throw notFound(`there is no task ${input.taskId}`);
    }
    const now = this.platform.clock.now();
    const requires = input.requiresResponse === true;
    const sent = await inTransaction(this.db, this.platform.bus, async (tx, events) => {
      const [row] = await tx
        .insert(a2aConversations)
        .values({
          participantA: initiator.id,
          participantB: target.id,
          topic: input.topic ?? null,
          taskId: input.taskId ?? null,
          createdBy: initiator.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return sendInTransaction(tx, events, {
        conversationId: row!.id,
        sender: initiator,
        draft: {
          body: input.initialMessage,
          kind: requires ? 'request' : 'message',
          requiresResponse: requires,
        },
        now,
      });
    });
    return this.conversationJson(sent.conversation, { messageCount: 1, unread: 0 });
  }

  /**
   * Writes a message into a conversation — the entry point for other modules (the gateway's `dm`
   * tool). With `join`, it runs inside the caller's transaction and publishes when that commits.
   */
  async send(input: SendInput, join?: JoinTransaction): Promise<SentMessage> {
    const now = this.platform.clock.now();
    // Resolved on the transaction's own handle: with one connection (PGlite) the pool would wait on it.
    const work = async (tx: Tx, events: PendingEvents) => {
      const sender = typeof input.sender === 'string' ? await findAgent(tx, input.sender) : input.sender;
      if (!sender) throw notFound(`there is no agent "${String(input.sender)}"`);
      return sendInTransaction(tx, events, {
        conversationId: input.conversationId,
        sender,
        draft: input,
        now,
      });
    };
    return join ? work(join.tx, join.events) : inTransaction(this.db, this.platform.bus, work);
  }

  /** `send` answered as JSON, for the routes. */
  async sendJson(input: SendInput): Promise<{ message: MessageJson; duplicate: boolean }> {
    const sent = await this.send(input);
    const refs = await agentRefs(this.db, [sent.message.senderId]);
    return { message: messageJson(sent.message, refs), duplicate: sent.duplicate };
  }

  /** One conversation, for a participant (404, then 403 `not_a_participant`). */
  async conversation(caller: AgentRef, id: string): Promise<ConversationJson> {
    const row = await this.participantConversation(caller, id);
    const [counts, unread] = await Promise.all([
      messageCounts(this.db, [row.id]),
      unreadCounts(this.db, caller.id, [row.id]),
    ]);
    return this.conversationJson(row, {
      messageCount: counts.get(row.id) ?? 0,
      unread: unread.get(row.id) ?? 0,
    });
  }

  /** The caller's conversations, most recently active first. */
  async conversations(caller: AgentRef, query: ConversationQuery = {}): Promise<ConversationJson[]> {
    const withAgent = query.withAgent ? await this.resolveAgent(query.withAgent) : undefined;
    const rows = await listConversations(this.db, {
      participantId: caller.id,
      withAgentId: withAgent?.id,
      status: query.status,
      taskId: query.taskId,
      limit: query.limit ?? A2A_LIMITS.conversationsDefault,
    });
    const ids = rows.map((r) => r.id);
    const [counts, unread] = await Promise.all([
      messageCounts(this.db, ids),
      unreadCounts(this.db, caller.id, ids),
    ]);
    return this.conversationsJson(rows, (r) => ({
      messageCount: counts.get(r.id) ?? 0,
      unread: unread.get(r.id) ?? 0,
    }));
  }

  /** A page of a conversation's messages, for a participant. */
  async messages(caller: AgentRef, id: string, page: PageQuery = {}): Promise<MessagePageJson> {
    const row = await this.participantConversation(caller, id);
    return this.page(row, page);
  }

  /** Marks the conversation read up to its latest message, for the caller. */
  async markRead(caller: AgentRef, id: string): Promise<void> {
    const row = await this.participantConversation(caller, id);
    await markRead(this.db, row.id, caller.id, this.platform.clock.now());
  }

  /** Closes a conversation (a participant); 409 `conversation_closed` when it already is. */
  async close(caller: AgentRef, id: string, resolution?: string | null): Promise<ConversationJson> {
    await this.participantConversation(caller, id);
    const now = this.platform.clock.now();
    const row = await this.db.transaction(async (tx) => {
      const current = await loadConversation(tx, id, { forUpdate: true });
      if (!current) throw conversationNotFound(id);
      if (current.status === 'closed') {
        throw new AppError(409, 'conversation_closed', `conversation ${id} is already closed`);
      }
      const [closed] = await tx
        .update(a2aConversations)
        .set({ status: 'closed', resolution: resolution ?? null, closedAt: now, updatedAt: now })
        .where(eq(a2aConversations.id, id))
        .returning();
      return closed!;
    });
    return this.conversation(caller, row.id);
  }

  /** Unread counts over the caller's conversations and the requests it has not answered. */
  async inbox(caller: AgentRef): Promise<Inbox> {
    const unread = await unreadCounts(this.db, caller.id);
    const withUnread = await conversationsByIds(this.db, [...unread.keys()]);
    const conversations = await this.conversationsJson(withUnread, (r) => ({
      unread: unread.get(r.id) ?? 0,
    }));
    return {
      total_unread: [...unread.values()].reduce((sum, n) => sum + n, 0),
      conversations_with_unread: withUnread.length,
      unanswered_requests: await unansweredRequests(this.db, caller.id),
      conversations,
    };
  }

  /** The CEO's live view: every conversation, most recently active first, with message counts. */
  async allConversations(query: Omit<ConversationQuery, 'withAgent'> & { agent?: string } = {}) {
    const agent = query.agent ? await this.resolveAgent(query.agent) : undefined;
    const rows = await listConversations(this.db, {
      participantId: agent?.id,
      status: query.status,
      taskId: query.taskId,
      limit: query.limit ?? A2A_LIMITS.conversationsDefault,
    });
    const counts = await messageCounts(
      this.db,
      rows.map((r) => r.id),
    );
    return this.conversationsJson(rows, (r) => ({ messageCount: counts.get(r.id) ?? 0 }));
  }

  /** The CEO's full-text fetch of any conversation's messages. */
  async adminMessages(id: string, page: PageQuery = {}): Promise<MessagePageJson> {
    const row = isUuid(id) ? await loadConversation(this.db, id) : null;
    if (!row) throw conversationNotFound(id);
    return this.page(row, page);
  }

  private async page(row: ConversationRow, page: PageQuery): Promise<MessagePageJson> {
    let beforeSeq: number | undefined;
    if (page.before !== undefined) {
      const cursor = isUuid(page.before) ? await loadMessage(this.db, page.before) : null;
      if (!cursor || cursor.conversationId !== row.id) {
        throw unprocessable('the cursor is not a message of this conversation', [
          { field: 'query.before', message: 'a message id of this conversation' },
        ]);
      }
      beforeSeq = cursor.seq;
    }
    const { messages, hasMore } = await messagePage(this.db, row.id, {
      limit: page.limit ?? A2A_LIMITS.messagesDefault,
      beforeSeq,
    });
    const refs = await agentRefs(this.db, [row.participantA, row.participantB]);
    return {
      messages: messages.map((m) => messageJson(m, refs)),
      has_more: hasMore,
      next_before: hasMore && messages.length > 0 ? messages[0]!.id : null,
    };
  }

  private async participantConversation(caller: AgentRef, id: string): Promise<ConversationRow> {
    const row = isUuid(id) ? await loadConversation(this.db, id) : null;
    if (!row) throw conversationNotFound(id);
    if (!isParticipant(row, caller.id)) throw notAParticipant(row.id);
    return row;
  }

  private async resolveAgent(idOrSlug: string): Promise<AgentRef> {
    const agent = await this.deps.agents.resolve(idOrSlug);
    if (!agent) throw notFound(`there is no agent "${idOrSlug}"`);
    return pick(agent);
  }

  private async conversationJson(
    row: ConversationRow,
    extra: { messageCount?: number; unread?: number },
  ): Promise<ConversationJson> {
    const refs = await agentRefs(this.db, [row.participantA, row.participantB]);
    return conversationJson(row, refs, extra);
  }

  private async conversationsJson(
    rows: ConversationRow[],
    extra: (row: ConversationRow) => { messageCount?: number; unread?: number },
  ): Promise<ConversationJson[]> {
    const refs = await agentRefs(
      this.db,
      rows.flatMap((r) => [r.participantA, r.participantB]),
    );
    return rows.map((r) => conversationJson(r, refs, extra(r)));
  }
}

const pick = (agent: AgentRef): AgentRef => ({
  id: agent.id,
  slug: agent.slug,
  role: agent.role,
  team: agent.team,
});
