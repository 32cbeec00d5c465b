/** HTTP shapes of /api/docs. */
import { Type } from 'typebox';
import { Offset, QueryInteger, StringEnum } from '../../platform/http/schema-types.js';
import { DOC_PATH_MAX, DOC_TYPES } from './rules.js';

export const TAGS = ['docs'];

const DocTypeSchema = StringEnum(DOC_TYPES);

const docFields = {
  id: Type.String(),
  project_id: Type.String(),
  task_id: Type.String(),
  path: Type.String({ description: 'Repository-relative path on the task’s branch.' }),
  doc_type: Type.String(),
  title: Type.String(),
  branch: Type.String({ description: 'The task branch the file is committed on.' }),
  commit_sha: Type.String({ description: 'The commit that last wrote (or removed) the file.' }),
  created_by: Type.String(),
  updated_by: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const DocSchema = Type.Object(docFields);
export const DocWithContent = Type.Object({ ...docFields, content: Type.String() });

export const WriteDocBody = Type.Object(
  {
    task_id: Type.String({ format: 'uuid' }),
    path: Type.String({
      minLength: 1,
      maxLength: DOC_PATH_MAX + 10,
      description:
        'Under docs/, plain relative path, text extension (.md, .markdown, .mdx, .txt, .rst, .adoc).',
    }),
    doc_type: DocTypeSchema,
    title: Type.String({ minLength: 1, maxLength: 200 }),
    content: Type.String({ maxLength: 600_000, description: 'At most 512 KiB of UTF-8.' }),
  },
  { additionalProperties: false },
);

export const WriteDocResult = Type.Object({
  status: StringEnum(['created', 'updated']),
  doc: DocSchema,
});

export const DocListQuery = Type.Object(
  {
    project_id: Type.Optional(Type.String({ format: 'uuid' })),
    task_id: Type.Optional(Type.String({ format: 'uuid' })),
    doc_type: Type.Optional(DocTypeSchema),
    limit: QueryInteger({ minimum: 1, maximum: 200, default: 50 }),
    offset: Offset(),
  },
  { additionalProperties: false },
);

export const DocList = Type.Object({ docs: Type.Array(DocSchema) });
export const DocParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
