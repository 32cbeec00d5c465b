/** The TypeBox schemas of /api/usage (they validate the queries and appear in /docs). */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';
import { PERIODS } from './periods.js';

export const TAGS = ['usage'];

const Period = StringEnum([...PERIODS], {
  default: '24h',
  description: 'The window ending now: 24h, 7d or 30d (default 24h).',
});

export const PeriodQuery = Type.Object({ period: Type.Optional(Period) }, { additionalProperties: false });

export const SeriesQuery = Type.Object(
  {
    period: Type.Optional(Period),
    agent: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Only this agent (slug or UUID).' }),
    ),
  },
  { additionalProperties: false },
);

const Tokens = (description: string) => Type.Integer({ minimum: 0, description });
const Usd = (description: string) => Type.Number({ description: `${description} (USD, 6 decimals).` });

const TotalsFields = {
  input_tokens: Tokens('Prompt tokens at the full input price.'),
  output_tokens: Tokens('Generated tokens.'),
  cache_read_tokens: Tokens('Prompt tokens read from a prompt cache.'),
  cache_write_tokens: Tokens('Prompt tokens written to a prompt cache.'),
  total_tokens: Tokens('Input + output + cache read + cache write.'),
  cost_usd: Usd('What they cost'),
};

export const SummaryView = Type.Object({
  period: Period,
  ...TotalsFields,
  calls: Type.Integer({ minimum: 0, description: 'Usage records (model calls or reported turns).' }),
  trend_pct: Type.Number({
    description: '% change of cost_usd against the equal window before (1 decimal; 100 when that was 0).',
  }),
  previous: Type.Object({ total_tokens: Tokens('The window before.'), cost_usd: Usd('The window before') }),
});

export const SeriesView = Type.Object({
  period: Period,
  bucket: StringEnum(['hour', 'day'], { description: 'Hours for 24h, UTC days otherwise.' }),
  points: Type.Array(
    Type.Object({
      at: Type.String({ format: 'date-time', description: 'Start of the bucket.' }),
      input_tokens: TotalsFields.input_tokens,
      output_tokens: TotalsFields.output_tokens,
      total_tokens: TotalsFields.total_tokens,
      cost_usd: TotalsFields.cost_usd,
    }),
    { description: 'Every bucket of the period, zero-filled, oldest first.' },
  ),
});

export const BreakdownView = Type.Object({
  period: Period,
  rows: Type.Array(
    Type.Object({
      key: Type.String({
        description: 'What the row groups by (agent id, team, model, role); `none` when unknown.',
      }),
      label: Type.String(),
      ...TotalsFields,
      pct_of_total: Type.Number({
        description: "The row's share of the period's cost (of tokens when nothing cost anything), in %.",
      }),
    }),
    { description: 'Costliest first.' },
  ),
});

export const ProjectionView = Type.Object({
  basis_days: Type.Literal(7),
  cost_7d_usd: Usd('Spent in the last 7 days'),
  avg_daily_cost_usd: Usd('Their daily average'),
  projected_month_usd: Usd('Month to date plus the daily average for the rest of the (UTC) month'),
  month_to_date_usd: Usd('Spent this (UTC) month'),
  monthly_cap_usd: Type.Union([Type.Number(), Type.Null()], {
    description: 'The company monthly budget (setting company_monthly_budget_usd); null when none.',
  }),
  over_budget: Type.Boolean({ description: 'This month reached the cap.' }),
});
