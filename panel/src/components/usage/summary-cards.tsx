/** The period's totals at a glance: tokens in and out, cache reads, cost with its trend, and calls. */
import { TrendingDown, TrendingUp } from 'lucide-react';
import { formatTokens, formatUsd } from '../../lib/format';
import type { Summary } from './use-usage';

function Trend({ pct }: { pct: number }) {
  if (pct === 0) return <span className="text-xs text-muted">no change vs the previous period</span>;
  const Icon = pct > 0 ? TrendingUp : TrendingDown;
  // Spending more is the thing to notice: up is amber, down is green.
  const tone = pct > 0 ? 'text-warn-text' : 'text-ok';
  return (
    <span className={`inline-flex items-center gap-1 text-xs ${tone}`} data-testid="usage-trend">
      <Icon size={14} aria-hidden />
      {pct > 0 ? '+' : ''}
      {pct}% vs the previous period
    </span>
  );
}

export function SummaryCards({ summary }: { summary: Summary }) {
  const figures = [
    { label: 'Tokens in', value: formatTokens(summary.input_tokens), title: summary.input_tokens },
    { label: 'Tokens out', value: formatTokens(summary.output_tokens), title: summary.output_tokens },
    {
      label: 'Cache reads',
      value: formatTokens(summary.cache_read_tokens),
      title: summary.cache_read_tokens,
    },
    { label: 'Model calls', value: String(summary.calls), title: summary.calls },
  ];
  return (
    <dl
      className="grid grid-cols-2 gap-3 lg:grid-cols-5"
      aria-label="Usage totals"
      data-testid="usage-summary"
    >
      <div className="col-span-2 rounded-lg border border-border bg-surface px-4 py-3 lg:col-span-1">
        <dt className="text-xs text-muted">Cost</dt>
        <dd className="text-[22px] font-semibold tabular-nums" data-testid="usage-cost">
          {formatUsd(summary.cost_usd)}
        </dd>
        <dd>
          <Trend pct={summary.trend_pct} />
        </dd>
      </div>
      {figures.map(({ label, value, title }) => (
        <div key={label} className="rounded-lg border border-border bg-surface px-4 py-3">
          <dt className="text-xs text-muted">{label}</dt>
          <dd className="text-[22px] font-semibold tabular-nums" title={String(title)}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
