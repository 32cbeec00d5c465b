/** TypeBox schemas of /api/git: they validate, serialise and document (/docs) the same shapes. */
import { Type } from 'typebox';
import { QueryInteger, StringEnum } from '../../platform/http/schema-types.js';
import { CLEANUP_LIMIT, CLEANUP_SKIP_REASONS } from './cleanup-rules.js';
import { FILE_WINDOW } from './file-window.js';

export const TAGS = ['git'];

const LineNumber = (description: string) => Type.Optional(QueryInteger({ minimum: 1, description }));

export const FileQuery = Type.Object(
  {
    project: Type.String({ minLength: 1, maxLength: 200, description: 'The project’s UUID or slug.' }),
    branch: Type.String({ maxLength: 1000, description: 'The branch whose tip is read, e.g. `main`.' }),
    path: Type.String({
      maxLength: 10000,
      description:
        'Repository-relative file path. Absolute paths, `..`, backslashes and control characters: 422.',
    }),
    line: LineNumber('Answer the lines around this one (1-based).'),
    context: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: FILE_WINDOW.maxContext,
        description: `Lines either side of \`line\` (0–${FILE_WINDOW.maxContext}, default ${FILE_WINDOW.defaultContext}).`,
      }),
    ),
    start: LineNumber('First line of an explicit range (default 1). Not with `line`.'),
    end: LineNumber('Last line of an explicit range (default: the end of the file; clamped to it).'),
  },
  { additionalProperties: false },
);

export const FileSliceView = Type.Object(
  {
    project: Type.String({ description: 'The project’s slug.' }),
    project_id: Type.String({ format: 'uuid' }),
    branch: Type.String(),
    path: Type.String({ description: 'The path as read (`./` and doubled slashes dropped).' }),
    commit: Type.String({ description: 'The branch tip (commit SHA) the file was read at.' }),
    start_line: Type.Integer({ description: 'First line answered (1-based).' }),
    end_line: Type.Integer({ description: 'Last line answered; start_line − 1 for an empty file.' }),
    total_lines: Type.Integer({ description: 'Lines in the whole file.' }),
    truncated: Type.Boolean({
      description: `The ${FILE_WINDOW.maxLines}-line cap left out lines of the range asked for; ask again from end_line + 1.`,
    }),
    lines: Type.Array(Type.String(), { description: 'The lines start_line..end_line, without their `\\n`.' }),
  },
  { additionalProperties: false },
);

export const CleanupBody = Type.Object(
  {
    project: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Only this project (UUID or slug); default all.',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: CLEANUP_LIMIT.max,
        description: `Tasks examined in this call (1–${CLEANUP_LIMIT.max}, default ${CLEANUP_LIMIT.default}).`,
      }),
    ),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'The `next_cursor` of the previous answer.' }),
    ),
    dry_run: Type.Optional(
      Type.Boolean({
        description: 'Answer what would be deleted; delete nothing (`deleted` lists the would-be).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CleanupView = Type.Object(
  {
    dry_run: Type.Boolean(),
    deleted: Type.Array(
      Type.Object(
        {
          task_id: Type.String({ format: 'uuid' }),
          branch: Type.String(),
          worktrees_removed: Type.Integer({
            description: 'Agent worktrees of the task removed (0 on a dry run).',
          }),
          local_error: Type.Optional(
            Type.String({ description: 'The remote branch is gone but removing local worktrees failed.' }),
          ),
        },
        { additionalProperties: false },
      ),
      { description: 'Branches deleted on the remote (or already gone), with local worktrees and branches.' },
    ),
    skipped: Type.Array(
      Type.Object(
        {
          task_id: Type.String({ format: 'uuid' }),
          branch: Type.String(),
          reason: StringEnum([...CLEANUP_SKIP_REASONS], {
            description:
              '`protected_branch`: the default branch, a ladder rung or a protected branch; `branch_in_use`: an open ' +
              'task records it; `open_child_task`: an open child builds on it; `no_project`: the task has no ' +
              'project; `delete_failed`: git refused (see detail).',
          }),
          detail: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `cursor` to go on; null when this call reached the end.',
    }),
  },
  { additionalProperties: false },
);
