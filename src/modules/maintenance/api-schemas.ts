/** TypeBox schemas of /api/maintenance-pause: they validate, serialise and document (/docs). */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';
import { MAX_PAUSE_HOURS, REASON_MAX_LENGTH } from './pause-rules.js';

export const TAGS = ['maintenance-pause'];

const Scope = (description: string) =>
  StringEnum(['dispatch', 'board_programs', 'engines'], {
    description,
  });
const Mode = (description: string) => StringEnum(['drain', 'kill'], { description });

const NullableTime = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const ScopeParams = Type.Object({
  scope: Scope('The subsystem: `dispatch`, `board_programs` or `engines`.'),
});

export const PauseBody = Type.Object(
  {
    mode: Mode(
      '`drain`: in-flight work finishes, nothing new starts. `kill`: in-flight work is interrupted now as well.',
    ),
    reason: Type.Optional(
      Type.String({ maxLength: REASON_MAX_LENGTH, description: 'Operator note shown in the banner.' }),
    ),
    expires_at: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          `When the pause ends on its own: ISO-8601 with an offset, in the future and at most ${MAX_PAUSE_HOURS} h ` +
          'ahead (never clamped; outside that range is a 422). Default: 4 hours from now.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PauseRowView = Type.Object(
  {
    scope: Scope('Which subsystem.'),
    paused: Type.Boolean({ description: 'True while the pause holds (also when its state cannot be read).' }),
    mode: Type.Union([Mode('Pause mode.'), Type.Null()]),
    paused_by: Type.Union([Type.String(), Type.Null()], {
      description: 'Identity id of who set it (the CEO).',
    }),
    reason: Type.Union([Type.String(), Type.Null()]),
    paused_at: NullableTime('When it was set.'),
    expires_at: NullableTime('When it ends on its own.'),
    read_degraded_since: NullableTime(
      'First failed read of the stored state since the last good one (this replica): the scope is then ' +
        'treated as paused (fail closed). Null while reads succeed.',
    ),
  },
  { additionalProperties: false },
);

export const PauseListView = Type.Object(
  {
    scopes: Type.Array(PauseRowView, {
      description: 'Always the three scopes: dispatch, board_programs, engines.',
    }),
  },
  { additionalProperties: false },
);
