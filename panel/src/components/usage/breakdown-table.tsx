/** Who or what the period's usage went to — by agent, team or model — cost first, with its share. */
import { formatTokens, formatUsd } from '../../lib/format';
import { EmptyState } from '../ui/page';
import type { Breakdown } from './use-usage';

export function BreakdownTable({ breakdown, what }: { breakdown: Breakdown; what: string }) {
  if (breakdown.rows.length === 0) return <EmptyState>No usage recorded in this period.</EmptyState>;
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-surface">
      <table className="w-full text-left" data-testid="usage-breakdown">
        <thead className="border-b border-border text-xs text-muted">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              {what}
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Tokens in
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Tokens out
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Cache reads
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Cost
            </th>
            <th scope="col" className="w-40 px-3 py-2 font-medium">
              Share
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border tabular-nums">
          {breakdown.rows.map((row) => (
            <tr key={row.key} data-testid={`usage-row-${row.key}`}>
              <td className="px-3 py-2">
                <span className="font-medium">{row.label}</span>
                {row.label !== row.key && <span className="ml-1.5 font-mono text-xs text-muted">{row.key}</span>}
              </td>
              <td className="px-3 py-2 text-right">{formatTokens(row.input_tokens)}</td>
              <td className="px-3 py-2 text-right">{formatTokens(row.output_tokens)}</td>
              <td className="px-3 py-2 text-right">{formatTokens(row.cache_read_tokens)}</td>
              <td className="px-3 py-2 text-right font-medium">{formatUsd(row.cost_usd)}</td>
              <td className="px-3 py-2">
                <span className="flex items-center gap-2">
                  <span className="h-1.5 flex-1 overflow-hidden rounded-full bg-surface-2" aria-hidden>
                    <span className="block h-full bg-accent" style={{ width: `${Math.min(100, row.pct_of_total)}%` }} />
                  </span>
                  <span className="w-12 text-right text-xs text-muted">{row.pct_of_total.toFixed(1)}%</span>
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
