/** The JSON shapes A2A answers with (snake_case, ISO times), built from rows and the participants' roster facts. */
import type { ConversationStatus, MessageKind } from './rules.js';
import type { AgentRef, ConversationRow, MessageRow } from './store.js';

export interface AgentRefJson {
  id: string;
  slug: string;
  role: string;
  team: string | null;
}

export interface ConversationJson {
  id: string;
  participant_a: AgentRefJson;
  participant_b: AgentRefJson;
  topic: string | null;
  task_id: string | null;
  status: ConversationStatus;
  resolution: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  message_count?: number;
  unread?: number;
}

export interface MessageJson {
  id: string;
  conversation_id: string;
  sender_id: string;
  sender_slug: string;
  body: string;
  kind: MessageKind;
  response_to_id: string | null;
  requires_response: boolean;
  created_at: string;
}

export interface MessagePageJson {
  messages: MessageJson[];
  has_more: boolean;
  /** The `before` cursor of the next (older) page; null when there is none. */
  next_before: string | null;
}

/** A participant that is not in the roster any more (never happens with restrict FKs, but stays total). */
const unknownAgent = (id: string): AgentRefJson => ({ id, slug: id, role: 'unknown', team: null });

export const agentRefJson = (ref: AgentRef): AgentRefJson => ({
  id: ref.id,
  slug: ref.slug,
  role: ref.role,
  team: ref.team,
});

export function conversationJson(
  row: ConversationRow,
  refs: Map<string, AgentRef>,
  extra: { messageCount?: number | undefined; unread?: number | undefined } = {},
): ConversationJson {
  const ref = (id: string) => {
    const found = refs.get(id);
    return found ? agentRefJson(found) : unknownAgent(id);
  };
  return {
    id: row.id,
    participant_a: ref(row.participantA),
    participant_b: ref(row.participantB),
    topic: row.topic,
    task_id: row.taskId,
    status: row.status as ConversationStatus,
    resolution: row.resolution,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    closed_at: row.closedAt?.toISOString() ?? null,
    ...(extra.messageCount === undefined ? {} : { message_count: extra.messageCount }),
    ...(extra.unread === undefined ? {} : { unread: extra.unread }),
  };
}

export function messageJson(row: MessageRow, refs: Map<string, AgentRef>): MessageJson {
  return {
    id: row.id,
    conversation_id: row.conversationId,
    sender_id: row.senderId,
    sender_slug: refs.get(row.senderId)?.slug ?? row.senderId,
    body: row.body,
    kind: row.kind as MessageKind,
    response_to_id: row.responseToId,
    requires_response: row.requiresResponse,
    created_at: row.createdAt.toISOString(),
  };
}
