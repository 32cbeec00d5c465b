/** TypeBox schemas of the /api/a2a routes: they validate, serialise and document (/docs) the same shapes. */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';
import { A2A_LIMITS, CONVERSATION_STATUSES, MESSAGE_KINDS } from './rules.js';

export const TAGS = ['a2a'];

const Body = Type.String({
  minLength: 1,
  maxLength: A2A_LIMITS.body,
  description: `The message text, 1 to ${A2A_LIMITS.body} characters.`,
});

export const ConversationIdParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The conversation’s UUID.' }),
});

export const OpenConversationBody = Type.Object(
  {
    target_agent: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'The agent to write to: UUID or slug.',
    }),
    topic: Type.Optional(Type.Union([Type.String({ maxLength: A2A_LIMITS.topic }), Type.Null()])),
    task_id: Type.Optional(
      Type.Union([
        Type.String({ format: 'uuid', description: 'The full 36-character task UUID.' }),
        Type.Null(),
      ]),
    ),
    initial_message: Body,
    requires_response: Type.Optional(
      Type.Boolean({ description: 'When true the first message is a `request` awaiting a response.' }),
    ),
  },
  { additionalProperties: false },
);

export const SendMessageBody = Type.Object(
  {
    body: Body,
    kind: Type.Optional(
      StringEnum(MESSAGE_KINDS, {
        description: '`message` (default), `request` (awaits a response), `response`.',
      }),
    ),
    response_to_id: Type.Optional(
      Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
        description: 'For a `response`: the other participant’s message it answers.',
      }),
    ),
    requires_response: Type.Optional(Type.Boolean({ description: 'Always true for a `request`.' })),
  },
  { additionalProperties: false },
);

export const CloseBody = Type.Object(
  {
    resolution: Type.Optional(
      Type.Union([Type.String({ maxLength: A2A_LIMITS.resolution }), Type.Null()], {
        description: 'How it ended, in a sentence.',
      }),
    ),
  },
  { additionalProperties: false },
);

const Limit = (max: number, fallback: number) =>
  Type.Integer({ minimum: 1, maximum: max, default: fallback });

export const ConversationListQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(CONVERSATION_STATUSES)),
    with_agent: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Only conversations with this agent (UUID or slug).',
      }),
    ),
    task_id: Type.Optional(
      Type.String({ format: 'uuid', description: 'Only conversations about this task.' }),
    ),
    limit: Limit(A2A_LIMITS.conversationsPage, A2A_LIMITS.conversationsDefault),
  },
  { additionalProperties: false },
);

export const AdminConversationListQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(CONVERSATION_STATUSES)),
    agent: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Only conversations this agent takes part in.',
      }),
    ),
    task_id: Type.Optional(
      Type.String({ format: 'uuid', description: 'Only conversations about this task.' }),
    ),
    limit: Limit(A2A_LIMITS.conversationsPage, A2A_LIMITS.conversationsDefault),
  },
  { additionalProperties: false },
);

export const MessagePageQuery = Type.Object(
  {
    limit: Limit(A2A_LIMITS.messagesPage, A2A_LIMITS.messagesDefault),
    before: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'A message id: only messages older than it (the `next_before` of the previous page).',
      }),
    ),
  },
  { additionalProperties: false },
);

const AgentRefView = Type.Object({
  id: Type.String({ format: 'uuid' }),
  slug: Type.String(),
  role: Type.String(),
  team: Type.Union([Type.String(), Type.Null()]),
});

export const ConversationView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    participant_a: AgentRefView,
    participant_b: AgentRefView,
    topic: Type.Union([Type.String(), Type.Null()]),
    task_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    status: StringEnum(CONVERSATION_STATUSES),
    resolution: Type.Union([Type.String(), Type.Null()]),
    created_by: Type.String({ format: 'uuid' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time', description: 'Moves with every message.' }),
    closed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    message_count: Type.Optional(Type.Integer({ minimum: 0 })),
    unread: Type.Optional(Type.Integer({ minimum: 0, description: 'Messages the caller has not read.' })),
  },
  { description: 'A direct conversation between two agents; participant_a opened it.' },
);

export const ConversationList = Type.Object({
  conversations: Type.Array(ConversationView, { description: 'Most recently active first.' }),
});

export const MessageView = Type.Object({
  id: Type.String({ format: 'uuid' }),
  conversation_id: Type.String({ format: 'uuid' }),
  sender_id: Type.String({ format: 'uuid' }),
  sender_slug: Type.String(),
  body: Type.String({ description: 'The full text.' }),
  kind: StringEnum(MESSAGE_KINDS),
  response_to_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  requires_response: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
});

export const SentMessageView = Type.Object({
  message: MessageView,
  duplicate: Type.Boolean({
    description:
      'True when an identical unread message already existed: it is returned and nothing new is stored.',
  }),
});

export const MessagePage = Type.Object({
  messages: Type.Array(MessageView, { description: 'The latest page before the cursor, oldest first.' }),
  has_more: Type.Boolean({ description: 'Older messages exist.' }),
  next_before: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
    description: 'The `before` cursor of the next, older page.',
  }),
});

export const InboxView = Type.Object({
  total_unread: Type.Integer({ minimum: 0 }),
  conversations_with_unread: Type.Integer({ minimum: 0 }),
  unanswered_requests: Type.Integer({
    minimum: 0,
    description: 'Messages to the caller that require a response it has not sent.',
  }),
  conversations: Type.Array(ConversationView, { description: 'The conversations with unread messages.' }),
});

export const NoContent = Type.Null({ description: 'Done; no body.' });
