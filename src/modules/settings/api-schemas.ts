/** TypeBox schemas of the /api/settings routes: they validate, serialise and document (/docs) the same shapes. */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';
import { RESTART_NOTE } from './feature-flags.js';

export const TAGS = ['settings'];

export const KeyParams = Type.Object({
  key: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'The setting key, e.g. `ci_watch` or `ceo_name`.',
  }),
});

export const PutSettingBody = Type.Object(
  {
    value: Type.Unknown({
      description: 'The new value; it must match the setting’s schema (a boolean for a flag).',
    }),
  },
  { additionalProperties: false },
);

export const SettingView = Type.Object(
  {
    key: Type.String(),
    kind: StringEnum(['flag', 'value'], {
      description: '`flag`: a feature flag, effective from the next restart. `value`: applies at once.',
    }),
    label: Type.String(),
    description: Type.String(),
    value: Type.Unknown({ description: 'The persisted value, or the default when none is stored.' }),
    default: Type.Unknown(),
    writable: Type.Boolean({ description: 'False for internal state that only the service changes.' }),
    updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'Null when never set.',
    }),
    updated_by: Type.Union([Type.String(), Type.Null()], { description: 'Identity id of the last writer.' }),
    effective: Type.Optional(
      Type.Boolean({ description: 'Flags only: the value this process booted with.' }),
    ),
    restart_required: Type.Optional(
      Type.Boolean({ description: 'Flags only: the persisted value differs from the effective one.' }),
    ),
  },
  { description: 'One setting: its catalogue entry, current value and last change.' },
);

export const SettingsList = Type.Object(
  { settings: Type.Array(SettingView) },
  { description: 'Every setting with an exact key, then the stored members of internal key families.' },
);

export const FlagView = Type.Object({
  key: Type.String(),
  label: Type.String(),
  description: Type.String(),
  persisted: Type.Boolean({ description: 'The stored value (default false): what the next boot uses.' }),
  effective: Type.Boolean({ description: 'The value this process booted with: what is in force now.' }),
  restart_required: Type.Boolean({ description: 'persisted !== effective.' }),
});

export const FlagsList = Type.Object(
  { flags: Type.Array(FlagView), note: Type.Literal(RESTART_NOTE) },
  { description: 'The feature flags, persisted against effective value.' },
);
