/** HTTP shapes of /api/company-goals. */
import { Type } from 'typebox';

export const TAGS = ['company-goals'];

const Text = (maxLength: number, description?: string) =>
  Type.String({ maxLength, ...(description ? { description } : {}) });

export const ObjectiveSchema = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200 }),
    detail: Type.Optional(Text(2000)),
    metric: Type.Optional(Text(200, 'How progress is measured.')),
    target: Type.Optional(Text(200, 'The value aimed for.')),
  },
  { additionalProperties: false },
);

export const CompanyGoalsView = Type.Object({
  company_name: Type.String(),
  north_star: Type.String({ description: 'The one outcome everything serves.' }),
  objectives: Type.Array(ObjectiveSchema),
  constraints: Type.Array(Type.String()),
  operating_policy: Type.Record(Type.String(), Type.String(), {
    description: 'Named rules of how the company operates (e.g. `release_cadence`: `weekly`).',
  }),
  brand_voice: Type.String(),
  updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  updated_by: Type.Union([Type.String(), Type.Null()], { description: 'Slug of who last changed it.' }),
});

/** A partial update: only the fields given change. */
export const CompanyGoalsUpdate = Type.Object(
  {
    company_name: Type.Optional(Text(200)),
    north_star: Type.Optional(Text(1000)),
    objectives: Type.Optional(Type.Array(ObjectiveSchema, { maxItems: 20 })),
    constraints: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { maxItems: 50 })),
    operating_policy: Type.Optional(
      Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Type.String({ maxLength: 1000 }), {
        maxProperties: 50,
      }),
    ),
    brand_voice: Type.Optional(Text(2000)),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const CompanyGoalChange = Type.Object({
  id: Type.Integer(),
  changed_by: Type.String(),
  fields: Type.Array(Type.String()),
  before: Type.Record(Type.String(), Type.Unknown()),
  after: Type.Record(Type.String(), Type.Unknown()),
  at: Type.String({ format: 'date-time' }),
});

export const HistoryQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
});

export const CompanyGoalHistory = Type.Object({ changes: Type.Array(CompanyGoalChange) });
