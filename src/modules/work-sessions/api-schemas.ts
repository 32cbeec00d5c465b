/** TypeBox schemas of the /api/work-sessions routes: they validate, serialise and document (/docs). */
import { Type } from 'typebox';
import { Offset, StringEnum } from '../../platform/http/schema-types.js';
import { END_STATUSES, LIMITS, SESSION_STATUSES } from './rules.js';

export const TAGS = ['work-sessions'];

export const SessionIdParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The work session’s UUID.' }),
});

export const SessionListQuery = Type.Object({
  task_id: Type.Optional(Type.String({ format: 'uuid', description: 'Only sessions of this task.' })),
  agent_id: Type.Optional(Type.String({ format: 'uuid', description: 'Only sessions of this agent.' })),
  status: Type.Optional(StringEnum(SESSION_STATUSES)),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  offset: Offset(),
});

export const StartSessionBody = Type.Object(
  {
    task_id: Type.String({ format: 'uuid', description: 'The full 36-character task UUID.' }),
    branch: Type.String({ minLength: 1, maxLength: LIMITS.branch, description: 'A valid git branch name.' }),
    base_branch: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: LIMITS.branch }), Type.Null()], {
        description: 'The branch it was cut from.',
      }),
    ),
    agent_id: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          'Whose session it is. Defaults to the caller when it owns the task, else the task’s active claimant ' +
          'or assignee. Only the CEO, a PM or the system may name someone else.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CommitBody = Type.Object(
  {
    hash: Type.String({ pattern: '^[0-9a-fA-F]{7,40}$', description: '7 to 40 hexadecimal characters.' }),
    message: Type.String({ minLength: 1, maxLength: LIMITS.message }),
    files: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: LIMITS.file }), {
        maxItems: LIMITS.filesPerCommit,
        description: 'Repo-relative paths the commit touched; added to files_changed once each.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PrBody = Type.Object(
  {
    pr_number: Type.Integer({ minimum: 1 }),
    pr_url: Type.String({ format: 'uri', maxLength: LIMITS.prUrl, description: 'An http(s) URL.' }),
  },
  { additionalProperties: false },
);

export const EndBody = Type.Object({ status: StringEnum(END_STATUSES) }, { additionalProperties: false });

export const WorkSessionView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    task_id: Type.String({ format: 'uuid' }),
    agent_id: Type.String({ format: 'uuid' }),
    branch: Type.String(),
    base_branch: Type.Union([Type.String(), Type.Null()]),
    status: StringEnum(SESSION_STATUSES),
    commits: Type.Array(
      Type.Object({
        hash: Type.String(),
        message: Type.String(),
        at: Type.String({ format: 'date-time', description: 'When it was recorded.' }),
      }),
      { description: 'In the order they were recorded; a hash appears once.' },
    ),
    files_changed: Type.Array(Type.String(), { description: 'Every file the commits touched, once each.' }),
    pr_number: Type.Union([Type.Integer(), Type.Null()]),
    pr_url: Type.Union([Type.String(), Type.Null()]),
    started_at: Type.String({ format: 'date-time' }),
    ended_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { description: 'An agent’s git session on a task. At most one per task is active.' },
);

export const SessionPageView = Type.Object({
  sessions: Type.Array(WorkSessionView, { description: 'Most recently started first.' }),
  total: Type.Integer({ minimum: 0, description: 'Sessions matching the filters.' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
