/** HTTP shapes of /api/journals. */
import { Type } from 'typebox';
import { QueryInteger, StringEnum } from '../../platform/http/schema-types.js';
import { ENTRY_TYPES, MAX_CONTENT } from './rules.js';

export const TAGS = ['journals'];

const EntryTypeSchema = StringEnum(ENTRY_TYPES, {
  description:
    'task_reflection (≥50 chars), decision_log (≥80), learning (≥50), struggle (≥50), general (≥30).',
});

export const JournalEntrySchema = Type.Object({
  id: Type.String(),
  author_id: Type.String({ description: 'The author’s agent UUID.' }),
  author_slug: Type.String(),
  entry_type: Type.String(),
  content: Type.String(),
  task_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const NewEntrySchema = Type.Object(
  {
    entry_type: EntryTypeSchema,
    content: Type.String({ minLength: 1, maxLength: MAX_CONTENT }),
    task_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'The task it reflects on.' }),
    ),
  },
  { additionalProperties: false },
);

const Page = {
  entry_type: Type.Optional(EntryTypeSchema),
  limit: QueryInteger({ minimum: 1, maximum: 200, default: 50 }),
  cursor: Type.Optional(Type.String({ maxLength: 500, description: '`next_cursor` of the previous page.' })),
};

export const OwnListQuery = Type.Object(Page, { additionalProperties: false });
export const ListQuery = Type.Object(
  {
    author: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Agent UUID or slug.' })),
    ...Page,
  },
  { additionalProperties: false },
);

export const EntryList = Type.Object({
  entries: Type.Array(JournalEntrySchema),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

export const EntryParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const AgentParams = Type.Object({ agent: Type.String({ minLength: 1, maxLength: 100 }) });
