/** HTTP shapes of /api/pitches. */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';
import { PITCH_CELLS, PITCH_STATUSES } from './rules.js';

export const TAGS = ['pitches'];

export const PitchSchema = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  title: Type.String(),
  problem: Type.String(),
  proposal: Type.String(),
  target_cells: Type.Array(Type.String()),
  status: Type.String({ description: 'proposed | provisioning | provisioned | rejected' }),
  proposed_by: Type.String(),
  decided_by: Type.Union([Type.String(), Type.Null()]),
  decision_notes: Type.Union([Type.String(), Type.Null()]),
  decided_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  project_ids: Type.Array(Type.String(), { description: 'Projects approval made or reused, one per cell.' }),
  product_id: Type.Union([Type.String(), Type.Null()], { description: 'The product, when several cells.' }),
  task_id: Type.Union([Type.String(), Type.Null()], { description: 'The main PM’s planning task.' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const NewPitchBody = Type.Object(
  {
    title: Type.String({ minLength: 3, maxLength: 150 }),
    slug: Type.String({
      pattern: '^[a-z0-9][a-z0-9-]{1,49}$',
      description: 'Names the projects: `<slug>` for one cell, `<slug>-<cell>` for several.',
    }),
    problem: Type.String({ minLength: 20, maxLength: 5000 }),
    proposal: Type.String({ minLength: 20, maxLength: 10000 }),
    target_cells: Type.Array(StringEnum(PITCH_CELLS), { minItems: 1, maxItems: 3, uniqueItems: true }),
  },
  { additionalProperties: false },
);

export const PitchListQuery = Type.Object(
  { status: Type.Optional(StringEnum(PITCH_STATUSES)) },
  { additionalProperties: false },
);
export const PitchList = Type.Object({ pitches: Type.Array(PitchSchema) });
export const PitchParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const ApproveBody = Type.Object(
  { notes: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
);
export const RejectBody = Type.Object(
  { notes: Type.String({ minLength: 5, maxLength: 2000, description: 'Why; required.' }) },
  { additionalProperties: false },
);

export const ForgeConfigBody = Type.Object(
  {
    provider: StringEnum(['github', 'gitea'] as const),
    api_url: Type.String({
      pattern: '^https?://[^\\s]+$',
      maxLength: 500,
      description:
        'REST base URL: https://api.github.com, https://<host>/api/v3, or https://<host>/api/v1 (Gitea).',
    }),
    owner: Type.String({
      pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$',
      description: 'The organisation new repositories go to, or the token’s own user.',
    }),
    private: Type.Optional(Type.Boolean({ description: 'New repositories are private (default true).' })),
    token: Type.Optional(
      Type.Union([Type.String({ maxLength: 500 }), Type.Null()], {
        description: 'Write-only, stored encrypted, never returned. Null or absent keeps the stored one.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ForgeConfigSchema = Type.Object({
  provider: Type.String(),
  api_url: Type.String(),
  owner: Type.String(),
  private: Type.Boolean(),
  has_token: Type.Boolean(),
  updated_by: Type.String(),
  updated_at: Type.String({ format: 'date-time' }),
});
export const ForgeConfigAnswer = Type.Object({
  forge: Type.Union([ForgeConfigSchema, Type.Null()], {
    description: 'Null: approval makes local bare repositories under <dataDir>/repos.',
  }),
});
