/** TypeBox schemas of a task's change (`GET /api/tasks/{id}/changes`, `…/changes/file`, `…/changes/ci`). */
import { Type } from 'typebox';
import { CI_CONCLUSIONS } from '../../platform/forge/index.js';
import { StringEnum } from '../../platform/http/schema-types.js';

const LineNumber = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]);

const Hunk = Type.Object(
  {
    header: Type.String({ description: 'The hunk header as git printed it (`@@ -a,b +c,d @@ section`).' }),
    old_start: Type.Integer({ minimum: 0 }),
    old_lines: Type.Integer({ minimum: 0 }),
    new_start: Type.Integer({ minimum: 0 }),
    new_lines: Type.Integer({ minimum: 0 }),
    lines: Type.Array(
      Type.Object(
        {
          kind: StringEnum(['context', 'add', 'del']),
          text: Type.String({ description: 'The line without its `+`, `-` or space.' }),
          old_line: LineNumber,
          new_line: LineNumber,
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const ChangedFileView = Type.Object(
  {
    path: Type.String(),
    previous_path: Type.Union([Type.String(), Type.Null()], {
      description: 'The path before a rename or copy.',
    }),
    status: StringEnum(['added', 'modified', 'deleted', 'renamed', 'copied']),
    additions: Type.Integer({ minimum: 0 }),
    deletions: Type.Integer({ minimum: 0 }),
    binary: Type.Boolean(),
    truncated: Type.Boolean({
      description:
        'The caps left lines of this file out (its counts stay whole); `GET …/changes/file` answers it whole.',
    }),
    hunks: Type.Array(Hunk),
  },
  { additionalProperties: false },
);

const Tip = Type.Object({ branch: Type.String(), sha: Type.String() }, { additionalProperties: false });

export const TaskChangeView = Type.Object(
  {
    task_id: Type.String({ format: 'uuid' }),
    base: Tip,
    head: Tip,
    merge_base: Type.Union([Type.String(), Type.Null()], {
      description: 'Null when the two share no history.',
    }),
    mergeable: Type.Boolean({ description: 'A dry-run merge of head into base is clean.' }),
    conflicts: Type.Array(Type.String(), { description: 'The paths that conflict when it is not.' }),
    files: Type.Array(ChangedFileView),
    commits: Type.Array(
      Type.Object(
        {
          sha: Type.String(),
          subject: Type.String(),
          body: Type.String(),
          author: Type.Object({ name: Type.String(), email: Type.String() }, { additionalProperties: false }),
          time: Type.String({ description: 'ISO-8601 author time.' }),
        },
        { additionalProperties: false },
      ),
      { description: "The task's own commits (not the base's), newest first." },
    ),
    totals: Type.Object(
      {
        files: Type.Integer({ minimum: 0 }),
        additions: Type.Integer({ minimum: 0 }),
        deletions: Type.Integer({ minimum: 0 }),
        commits: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    truncated: Type.Boolean({ description: 'The caps left lines out somewhere (see each file).' }),
    limits: Type.Object(
      {
        file_lines: Type.Integer({ description: 'Diff lines one file shows at most.' }),
        total_lines: Type.Integer({ description: 'Diff lines the whole answer shows at most.' }),
      },
      { additionalProperties: false },
    ),
    computed_at: Type.String({
      format: 'date-time',
      description:
        'When the change was computed; an unchanged pair of tips answers from the cache with its time.',
    }),
  },
  { additionalProperties: false },
);

export const ChangeFileQuery = Type.Object(
  {
    path: Type.String({
      maxLength: 10000,
      description: 'A path the change touches (its new path, or the old one of a rename).',
    }),
  },
  { additionalProperties: false },
);

export const ChangeCiView = Type.Object(
  {
    forge: StringEnum(['local', 'github', 'gitea']),
    head_sha: Type.String({ description: "The task branch's head commit the checks are about." }),
    conclusion: Type.Union([StringEnum(CI_CONCLUSIONS), Type.Null()], {
      description:
        "The forge's CI conclusion of the head commit (`pending` while running, `unknown` when none ran); null: a local project has no CI.",
    }),
    run_url: Type.Union([Type.String(), Type.Null()]),
    run_name: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
