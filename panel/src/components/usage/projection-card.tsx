/** This month's spend: so far, projected from the last 7 days, against the company cap. */
import { formatUsd } from '../../lib/format';
import type { Projection } from './use-usage';

export function ProjectionCard({ projection }: { projection: Projection }) {
  const cap = projection.monthly_cap_usd;
  const used = cap ? Math.min(100, (projection.month_to_date_usd / cap) * 100) : null;
  return (
    <div data-testid="usage-projection" className="space-y-3">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Figure label="Month to date" value={formatUsd(projection.month_to_date_usd)} />
        <Figure label="Projected this month" value={formatUsd(projection.projected_month_usd)} />
        <Figure
          label={`Daily average (${projection.basis_days} days)`}
          value={formatUsd(projection.avg_daily_cost_usd)}
        />
        <Figure label="Monthly cap" value={cap === null ? 'No cap' : formatUsd(cap)} />
      </dl>
      {used !== null && (
        <div>
          <div className="h-2 overflow-hidden rounded-full bg-surface-2" aria-hidden>
            <div
              className={`h-full ${projection.over_budget ? 'bg-danger' : 'bg-accent'}`}
              style={{ width: `${used}%` }}
            />
          </div>
          <p
            className={`mt-1 text-xs ${projection.over_budget ? 'font-semibold text-danger-text' : 'text-muted'}`}
          >
            {projection.over_budget
              ? 'Over the company budget: the dispatcher starts no new work until the month turns or the cap is raised.'
              : `${used.toFixed(0)}% of the monthly cap used.`}
          </p>
        </div>
      )}
      {cap === null && (
        <p className="text-xs text-muted">
          Set a company-wide cap with the <span className="font-mono">company_monthly_budget_usd</span>{' '}
          setting; per-project caps are in each project's Budget &amp; Ops card.
        </p>
      )}
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="text-[17px] font-semibold tabular-nums">{value}</dd>
    </div>
  );
}
