/**
 * Writing one message into a conversation, inside a transaction: the conversation row is locked,
 * then the rules run in order — participant, open, duplicate (an identical unread message is
 * returned, not stored), reply-then-wait with the CEO, response target — and the message is stored
 * with `A2A_MESSAGE_SENT` queued for after the commit.
 */
import { eq } from 'drizzle-orm';
import type { PendingEvents, Tx } from '../../platform/bus/index.js';
import { AppError, notFound, unprocessable } from '../../platform/http/errors.js';
import { isUuid } from '../../platform/ids.js';
import {
  findDuplicate,
  isParticipant,
  type MessageKind,
  otherParticipant,
  requiresResponse,
  responseProblems,
  withinCeoReplyBudget,
} from './rules.js';
import { a2aConversations, a2aMessages } from './schema.js';
import {
  type AgentRef,
  agentRefs,
  type ConversationRow,
  countsBySender,
  lastReadSeq,
  loadConversation,
  loadMessage,
  type MessageRow,
  unreadWithBody,
} from './store.js';

export interface MessageDraft {
  body: string;
  kind?: MessageKind | undefined;
  responseToId?: string | null | undefined;
  requiresResponse?: boolean | undefined;
}

export interface SentMessage {
  message: MessageRow;
  conversation: ConversationRow;
  /** True when an identical unread message was found and returned instead of storing a new one. */
  duplicate: boolean;
}

export const conversationNotFound = (id: string) => notFound(`there is no conversation ${id}`);
export const notAParticipant = (id: string) =>
  new AppError(403, 'not_a_participant', `only the two participants may use conversation ${id}`);

/** Stores `draft` from `sender` in the conversation (see the file comment for the rules). */
export async function sendInTransaction(
  tx: Tx,
  events: PendingEvents,
  input: { conversationId: string; sender: AgentRef; draft: MessageDraft; now: Date },
): Promise<SentMessage> {
  const { sender, draft, now } = input;
  const conversation = isUuid(input.conversationId)
    ? await loadConversation(tx, input.conversationId, { forUpdate: true })
    : null;
  if (!conversation) throw conversationNotFound(input.conversationId);
  if (!isParticipant(conversation, sender.id)) throw notAParticipant(conversation.id);
  if (conversation.status === 'closed') {
    throw new AppError(409, 'conversation_closed', `conversation ${conversation.id} is closed`);
  }
  const recipientId = otherParticipant(conversation, sender.id);
  const kind = draft.kind ?? 'message';

  const readUpTo = await lastReadSeq(tx, conversation.id, recipientId);
  const candidates = await unreadWithBody(tx, conversation.id, sender.id, draft.body, readUpTo);
  const duplicate = findDuplicate({ senderId: sender.id, kind, body: draft.body }, candidates);
  if (duplicate) return { message: duplicate, conversation, duplicate: true };

  const refs = await agentRefs(tx, [sender.id, recipientId]);
  const recipient = refs.get(recipientId);
  if (!recipient) throw notFound(`the other participant of conversation ${conversation.id} is gone`);
  if (recipient.role === 'ceo' && sender.role !== 'ceo') {
    const counts = await countsBySender(tx, conversation.id);
    const budget = { sender: counts.get(sender.id) ?? 0, ceo: counts.get(recipientId) ?? 0 };
    if (!withinCeoReplyBudget(budget)) {
      throw new AppError(
        409,
        'awaiting_ceo',
        'reply-then-wait: wait for the CEO to write before writing again',
        {
          your_messages: budget.sender,
          ceo_messages: budget.ceo,
        },
      );
    }
  }

  const responseToId = draft.responseToId ?? null;
  const answered = responseToId && isUuid(responseToId) ? await loadMessage(tx, responseToId) : null;
  const problems = responseProblems(
    { kind, responseToId, senderId: sender.id, conversationId: conversation.id },
    answered,
  );
  if (problems.length > 0) throw unprocessable('the message does not fit the conversation', problems);

  const [message] = await tx
    .insert(a2aMessages)
    .values({
      conversationId: conversation.id,
      senderId: sender.id,
      body: draft.body,
      kind,
      responseToId,
      requiresResponse: requiresResponse(kind, draft.requiresResponse),
      createdAt: now,
    })
    .returning();
  const [touched] = await tx
    .update(a2aConversations)
    .set({ updatedAt: now })
    .where(eq(a2aConversations.id, conversation.id))
    .returning();
  events.add('A2A_MESSAGE_SENT', {
    conversation_id: conversation.id,
    message_id: message!.id,
    task_id: conversation.taskId,
    sender_slug: sender.slug,
    recipient_slug: recipient.slug,
    body: message!.body,
  });
  return { message: message!, conversation: touched ?? conversation, duplicate: false };
}
