/** HTTP shapes the two live chats share (`/api/prompter/live/…`, `/api/secretary/live/…`). */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';

export const SessionParams = Type.Object({
  sid: Type.String({
    minLength: 1,
    maxLength: 64,
    pattern: '^[0-9a-f]+$',
    description: 'The session id (hex).',
  }),
});

export const SessionStarted = Type.Object({ session_id: Type.String() });

export const MessageBody = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: 20_000, pattern: '\\S', description: 'The CEO’s turn.' }) },
  { additionalProperties: false },
);

export const Accepted = Type.Object({
  accepted: Type.Boolean({ description: 'The turn is stored; the reply streams on the session’s stream.' }),
});

export const Stopped = Type.Object({ status: Type.Literal('ended') });

export const SessionStatus = Type.Object({
  session_id: Type.String(),
  status: StringEnum(['active', 'ended']),
  ended_reason: Type.Union([Type.String(), Type.Null()], { description: '`stopped`, `idle`.' }),
  turns: Type.Integer({ description: 'Persisted turns (user, assistant, tool uses, drafts…).' }),
  busy: Type.Boolean({ description: 'A reply is being generated now.' }),
  scope: Type.Record(Type.String(), Type.Unknown()),
  draft: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
    description: 'The proposal on the table (intake: a task draft or a batch).',
  }),
  last_activity_at: Type.String({ format: 'date-time' }),
});

export const EventStream = Type.String({
  description:
    'text/event-stream. The persisted turns first (events `user`, `text`, `tool_use`, `tool_result`, `draft`, ' +
    '`batch`, `directive`, `created`, `error`, each with the turn seq as id), then `ready` {status, busy, turns}, ' +
    'then live events: `text_delta` {text}, the same turn events, `turn_end` after each reply, `ended` {reason} ' +
    'when the session ends (the stream then closes).',
});

export const ActiveSession = Type.Object({
  active: Type.Boolean({ description: 'A session of this chat is live (on any device).' }),
  session_id: Type.Union([Type.String(), Type.Null()]),
});
