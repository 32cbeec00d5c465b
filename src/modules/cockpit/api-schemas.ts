/** HTTP shape of /api/cockpit/summary. */
import { type TSchema, Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';
import { ObjectiveSchema } from '../company-goals/index.js';

export const TAGS = ['cockpit'];

const Nullable = <T extends TSchema>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

export const CockpitSummary = Type.Object({
  north_star: Type.String({ description: 'From the company charter (empty until the CEO writes it).' }),
  objectives: Type.Array(ObjectiveSchema),
  delivery: Type.Object({
    in_flight: Type.Integer({ description: 'Open tasks neither in backlog, blocked nor awaiting the CEO.' }),
    blocked: Type.Integer(),
    awaiting_ceo: Type.Integer({ description: 'Tasks in awaiting_ceo_approval.' }),
    completed_30d: Type.Integer(),
    median_lead_time_hours: Nullable(Type.Number(), 'Creation to completion, over the last 30 days.'),
    first_pass_yield: Nullable(
      Type.Number({ minimum: 0, maximum: 1 }),
      'Share of the tasks completed in the last 30 days never sent back to needs_revision (by QA, a PR reviewer or a PM review); null when none completed.',
    ),
  }),
  spend: Type.Object({
    spend_30d_usd: Type.Number(),
    month_to_date_usd: Type.Number({ description: 'This UTC calendar month so far.' }),
    projected_month_usd: Type.Number({
      description: "Month to date + the last 7 days' average daily spend × the days left in the month.",
    }),
    monthly_cap_usd: Nullable(Type.Number(), 'The `company_monthly_budget_usd` setting; null = no cap.'),
    over_budget: Type.Boolean({ description: 'Month to date has reached the cap.' }),
  }),
  signals: Type.Array(
    Type.Object({
      kind: StringEnum([
        'over_budget',
        'projected_over_budget',
        'stalled_tasks',
        'awaiting_ceo',
        'blocked_rising',
      ]),
      summary: Type.String(),
      detail: Type.String(),
    }),
    { description: 'Derived facts worth the CEO’s attention, most urgent first.' },
  ),
});
