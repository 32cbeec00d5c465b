/**
 * The company at a glance (GET /api/cockpit/summary, CEO only): the north star, signals worth the
 * CEO's attention, delivery over the last 30 days and this month's spend against the cap. Live:
 * task moves and usage snapshots make it stale (live/invalidation.ts); polled while the socket is down.
 */
import { TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { $api } from '../../api/client';
import { formatUsd } from '../../lib/format';
import { usePollInterval } from '../../live/live';
import { Section } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';

const hours = (value: number | null) =>
  value === null
    ? '—'
    : value < 1
      ? `${Math.round(value * 60)} min`
      : value < 48
        ? `${value.toFixed(1)} h`
        : `${(value / 24).toFixed(1)} d`;
const percent = (value: number | null) => (value === null ? '—' : `${Math.round(value * 100)}%`);

export function CompanyGlance() {
  const summary = $api.useQuery('get', '/api/cockpit/summary', undefined, {
    refetchInterval: usePollInterval(60_000),
  });
  if (summary.error) return <ProblemNote error={summary.error} prefix="Could not load the company summary" />;
  if (!summary.data) return null;
  const { north_star, delivery, spend, signals } = summary.data;
  const figures = [
    { label: 'In flight', value: String(delivery.in_flight) },
    { label: 'Completed (30 d)', value: String(delivery.completed_30d) },
    { label: 'Median lead time', value: hours(delivery.median_lead_time_hours) },
    { label: 'First-pass yield', value: percent(delivery.first_pass_yield) },
    { label: 'Spend this month', value: formatUsd(spend.month_to_date_usd) },
    {
      label:
        spend.monthly_cap_usd === null
          ? 'Projected (no cap)'
          : `Projected (cap ${formatUsd(spend.monthly_cap_usd)})`,
      value: formatUsd(spend.projected_month_usd),
    },
  ];
  return (
    <Section
      title="The company at a glance"
      description={
        north_star
          ? `North star: ${north_star}`
          : 'No north star yet: the company goals (PUT /api/company-goals) name it.'
      }
    >
      <div className="space-y-3" data-testid="company-glance">
        {signals.length > 0 && (
          <ul className="space-y-1">
            {signals.map((signal) => (
              <li
                key={signal.kind}
                data-testid={`signal-${signal.kind}`}
                className="flex items-start gap-2 rounded-md border border-warn/40 bg-warn-bg px-3 py-1.5 text-warn-text"
              >
                <TriangleAlert size={15} aria-hidden className="mt-0.5 shrink-0" />
                <span>
                  <span className="font-semibold">{signal.summary}</span> {signal.detail}
                </span>
              </li>
            ))}
          </ul>
        )}
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
          {figures.map(({ label, value }) => (
            <div key={label}>
              <dt className="text-xs text-muted">{label}</dt>
              <dd className="text-[17px] font-semibold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
        <p className="text-xs text-muted">
          Where the money goes:{' '}
          <Link to="/usage" className="text-accent underline">
            Usage
          </Link>
          .
        </p>
      </div>
    </Section>
  );
}
