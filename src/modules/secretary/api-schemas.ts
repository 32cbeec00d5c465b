/** HTTP shapes of /api/secretary. */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';
import { DIRECTIVE_KINDS, DIRECTIVE_STATUSES } from './directive-kinds.js';

export const TAGS = ['secretary'];

export const StartBody = Type.Object(
  { initial_message: Type.Optional(Type.String({ minLength: 1, maxLength: 20_000 })) },
  { additionalProperties: false },
);

export const Directive = Type.Object({
  id: Type.String(),
  kind: StringEnum([...DIRECTIVE_KINDS]),
  payload: Type.Record(Type.String(), Type.Unknown()),
  rationale: Type.String(),
  session_id: Type.Union([Type.String(), Type.Null()]),
  status: StringEnum([...DIRECTIVE_STATUSES]),
  result: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()], { description: 'Why carrying it out failed.' }),
  reject_reason: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  decided_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  decided_by: Type.Union([Type.String(), Type.Null()]),
});

export const DirectiveList = Type.Object({ directives: Type.Array(Directive) });

export const DirectiveQuery = Type.Object(
  { status: Type.Optional(StringEnum([...DIRECTIVE_STATUSES])) },
  { additionalProperties: false },
);

export const DirectiveParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const RejectBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
);
