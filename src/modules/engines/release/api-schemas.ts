/** TypeBox schemas of /api/release: they validate, serialise and document (/docs). */
import { type TSchema, Type } from 'typebox';
import { StringEnum } from '../../../platform/http/schema-types.js';
import { GAP_CATEGORIES } from './checks.js';
import { CHANGE_KINDS } from './classify.js';
import { EXECUTE_STATUSES } from './execution-state.js';

export const TAGS = ['release'];

const Nullable = <T extends TSchema>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

export const ReleaseReportSchema = Type.Object(
  {
    version: Type.String({ description: 'The proposed version, X.Y.Z.' }),
    tag: Type.String({ description: 'The tag it is published under, vX.Y.Z.' }),
    current_version: Type.String(),
    bump: StringEnum(['major', 'minor', 'patch'], { description: 'The semver bump.' }),
    bump_rule: Type.String({ description: 'Which rule chose the bump (the pre-1.0 rule included).' }),
    last_tag: Nullable(Type.String(), 'The newest tag before these changes.'),
    head_branch: Type.String(),
    head_sha: Nullable(Type.String(), 'The head rung’s tip the readiness pass read.'),
    prod_branch: Type.String(),
    commit_count: Type.Integer(),
    threshold: Type.String({ description: 'Why the change set cleared the threshold.' }),
    changes: Type.Array(
      Type.Object({
        kind: StringEnum(CHANGE_KINDS, { description: 'Conventional-commit kind.' }),
        count: Type.Integer(),
        items: Type.Array(Type.String(), { description: 'Summaries (the first 50).' }),
      }),
    ),
    breaking: Type.Array(Type.String()),
    changelog_source: StringEnum(['unreleased', 'generated'], {
      description: 'Curated [Unreleased] body, or generated.',
    }),
    changelog_entry: Type.String({ description: 'The drafted CHANGELOG entry.' }),
    release_notes: Type.String({ description: 'The entry’s body: the release’s notes.' }),
    canonical_files: Type.Array(Type.String(), { description: 'The files the version bump writes.' }),
    gaps: Type.Array(
      Type.Object({
        category: StringEnum(GAP_CATEGORIES, { description: 'What kind of gap.' }),
        detail: Type.String(),
      }),
    ),
    gate: Type.Object({
      state: StringEnum(['green', 'red', 'pending', 'unknown'], {
        description: 'The quality gate at proposal time.',
      }),
      conclusion: Type.String(),
      sha: Nullable(Type.String(), 'The commit judged.'),
      run_url: Nullable(Type.String(), 'The CI run.'),
    }),
  },
  { description: 'The readiness report the proposal carries.' },
);

export const ProposalView = Type.Object({
  task_id: Type.String({ format: 'uuid', description: 'The proposal task (held, owned by the Secretary).' }),
  title: Type.String(),
  status: Type.String({ description: 'The task’s status (pending while held).' }),
  held: Type.Literal(true),
  version: Type.String(),
  tag: Type.String(),
  bump: Type.String(),
  bump_rule: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  execute_status: Nullable(
    StringEnum(EXECUTE_STATUSES, { description: 'Executor result.' }),
    'Last known executor result (`running`, `published`, `already_published`, `failed_*`); null until the first approve.',
  ),
  execute_detail: Nullable(Type.String(), 'Its reason or progress, in a sentence.'),
  execute_in_flight: Type.Boolean({ description: 'An approve is running now (on any replica).' }),
  execute_step: Nullable(Type.String(), 'The step the executor reached.'),
  commit_sha: Nullable(Type.String(), 'The release commit, once made.'),
  release_url: Nullable(Type.String(), 'The published release.'),
  attempts: Type.Integer({ description: 'Approves so far.' }),
  report: ReleaseReportSchema,
});

export const Accepted = Type.Object({
  status: Type.Literal('accepted'),
  task_id: Type.String({ format: 'uuid' }),
  version: Type.String(),
  detail: Type.String(),
});

export const RejectBody = Type.Object(
  {
    required_changes: Type.String({
      minLength: 10,
      maxLength: 1_900,
      description: 'What must change before a release is proposed again (at least 10 characters).',
    }),
  },
  { additionalProperties: false },
);

export const Rejected = Type.Object({
  task_id: Type.String({ format: 'uuid' }),
  version: Type.String(),
  status: Type.String({ description: 'cancelled' }),
  required_changes: Type.String(),
});
