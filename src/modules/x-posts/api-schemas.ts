/** HTTP shapes of /api/x. */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';
import { POST_KINDS, POST_STATUSES } from './service.js';

export const TAGS = ['x-posts'];

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const When = Nullable(Type.String({ format: 'date-time' }));

export const ImpactView = Type.Object(
  {
    score: Type.Integer({ minimum: 0, maximum: 100 }),
    max: Type.Integer(),
    failed: Type.Array(Type.Object({ rule: Type.String(), label: Type.String(), points: Type.Integer() })),
  },
  {
    description:
      'The impact bar: points of the rubric rules passed, and the rules failed (docs/api.md, "X posts").',
  },
);

export const XPostView = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: StringEnum([...POST_KINDS]),
  status: StringEnum([...POST_STATUSES]),
  body: Type.String({ description: 'The draft as the head of marketing wrote it.' }),
  approved_body: Nullable(
    Type.String({ description: 'The text approved for posting (the CEO may edit it).' }),
  ),
  length: Type.Integer({
    description:
      "The draft's length as X counts it (X allows 280): a link is 23, most CJK characters and emoji 2.",
  }),
  impact: ImpactView,
  task_id: Nullable(Type.String()),
  release_ref: Nullable(Type.String()),
  revision_of: Nullable(Type.String({ description: 'The rejected post this draft revises.' })),
  revised_by: Nullable(Type.String({ description: 'The draft that revises this (rejected) one.' })),
  drafted_by: Type.String(),
  decided_by: Nullable(Type.String()),
  decided_at: When,
  reject_reason: Nullable(Type.String()),
  failure_reason: Nullable(Type.String({ description: 'Why posting failed; approve again to retry.' })),
  tweet_id: Nullable(Type.String()),
  posted_at: When,
  created_at: Type.String({ format: 'date-time' }),
});

export const DraftBody = Type.Object(
  {
    kind: StringEnum([...POST_KINDS]),
    body: Type.String({
      minLength: 1,
      maxLength: 1000,
      description: 'At most 280 as X counts characters (a link is 23, most CJK characters and emoji 2).',
    }),
    task_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    release_ref: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'e.g. the version, 0.30.0.' }),
    ),
    revision_of: Type.Optional(
      Type.String({ format: 'uuid', description: 'The rejected post this revises.' }),
    ),
  },
  { additionalProperties: false },
);

export const ApproveBody = Type.Object(
  {
    body: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description: 'An edited text, at most 280 as X counts characters.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const RejectBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 2000, description: 'What the revision should change.' }) },
  { additionalProperties: false },
);

export const PostParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const ListQuery = Type.Object({
  status: Type.Optional(StringEnum([...POST_STATUSES])),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 100 }),
});

export const XPostList = Type.Object({ posts: Type.Array(XPostView) });

export const CredentialsBody = Type.Object(
  {
    bearer_token: Type.String({
      maxLength: 2000,
      description:
        'An OAuth 2.0 user access token with tweet.write. Empty clears the credentials. Write-only.',
    }),
    base_url: Type.Optional(Nullable(Type.String({ pattern: '^https?://', maxLength: 500 }))),
  },
  { additionalProperties: false },
);

export const CredentialsView = Type.Object({
  has_credentials: Type.Boolean(),
  base_url: Type.String({ description: 'Where posts go (default https://api.x.com).' }),
});
