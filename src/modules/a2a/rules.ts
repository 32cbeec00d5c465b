/**
 * The pure rules of A2A messaging: limits, message kinds, the CEO reply budget (reply-then-wait),
 * duplicate suppression and what a response must point at. No I/O.
 */

export const MESSAGE_KINDS = ['message', 'request', 'response'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const CONVERSATION_STATUSES = ['open', 'closed'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

export const A2A_LIMITS = {
  body: 10_000,
  topic: 200,
  resolution: 2_000,
  conversationsPage: 100,
  conversationsDefault: 50,
  messagesPage: 500,
  messagesDefault: 100,
} as const;

/**
 * Reply-then-wait: inside a conversation with the CEO, another agent may write only while it has
 * sent fewer messages there than the CEO has. The CEO itself is never limited.
 */
export function withinCeoReplyBudget(counts: { sender: number; ceo: number }): boolean {
  return counts.sender < counts.ceo;
}

/** What makes two messages the same for duplicate suppression. */
export interface MessageKey {
  senderId: string;
  kind: string;
  body: string;
}

/**
 * An identical message (same sender, kind and body) that the recipient has not read yet is not
 * stored again. `unread` are the sender's messages in the conversation after the recipient's read mark.
 */
export function findDuplicate<M extends MessageKey>(candidate: MessageKey, unread: readonly M[]): M | null {
  return (
    unread.find(
      (m) => m.senderId === candidate.senderId && m.kind === candidate.kind && m.body === candidate.body,
    ) ?? null
  );
}

/** The message a response answers, as far as the rule needs it. */
export interface AnsweredMessage {
  conversationId: string;
  senderId: string;
}

/**
 * Problems with a message's kind and `response_to_id`: a response must answer a message of the
 * same conversation written by the other participant; only a response may carry `response_to_id`.
 */
export function responseProblems(
  message: { kind: MessageKind; responseToId: string | null; senderId: string; conversationId: string },
  answered: AnsweredMessage | null,
): { field: string; message: string }[] {
  if (message.kind !== 'response') {
    return message.responseToId
      ? [{ field: 'body.response_to_id', message: 'only a message of kind `response` answers another' }]
      : [];
  }
  if (!message.responseToId) {
    return [{ field: 'body.response_to_id', message: 'a response names the message it answers' }];
  }
  if (!answered || answered.conversationId !== message.conversationId) {
    return [{ field: 'body.response_to_id', message: 'there is no such message in this conversation' }];
  }
  if (answered.senderId === message.senderId) {
    return [{ field: 'body.response_to_id', message: 'a response answers the other participant’s message' }];
  }
  return [];
}

/** A request always requires a response; other kinds only when the sender asks for one. */
export const requiresResponse = (kind: MessageKind, asked: boolean | undefined): boolean =>
  kind === 'request' || asked === true;

/** The other participant of a conversation. */
export const otherParticipant = (c: { participantA: string; participantB: string }, agentId: string) =>
  c.participantA === agentId ? c.participantB : c.participantA;

export const isParticipant = (c: { participantA: string; participantB: string }, agentId: string) =>
  c.participantA === agentId || c.participantB === agentId;
