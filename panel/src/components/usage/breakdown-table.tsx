/**
 * Who or what the period's usage went to — by agent (linked to the agent), team or model — cost
 * first, with its share of the period's cost.
 */
import { Link } from 'react-router';
import { formatTokens, formatUsd } from '../../lib/format';
import { EmptyState } from '../ui/page';
import { TableScroll } from '../ui/table-scroll';
import type { Breakdown } from './use-usage';

export function BreakdownTable({
  breakdown,
  what,
  agents = false,
}: {
  breakdown: Breakdown;
  what: string;
  /** Rows are agents, keyed by id: link each to its page. */
  agents?: boolean;
}) {
  if (breakdown.rows.length === 0) return <EmptyState>No usage recorded in this period.</EmptyState>;
  return (
    <TableScroll label="Usage breakdown">
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
                {agents && row.key !== 'none' ? (
                  <Link to={`/agents/${row.key}`} className="font-medium text-accent underline">
                    {row.label}
                  </Link>
                ) : (
                  <span className="font-medium">{row.label}</span>
                )}
              </td>
              <td className="px-3 py-2 text-right">{formatTokens(row.input_tokens)}</td>
              <td className="px-3 py-2 text-right">{formatTokens(row.output_tokens)}</td>
              <td className="px-3 py-2 text-right">{formatTokens(row.cache_read_tokens)}</td>
              <td className="px-3 py-2 text-right font-medium">{formatUsd(row.cost_usd)}</td>
              <td className="px-3 py-2">
                <span className="flex items-center gap-2">
                  <span className="h-1.5 flex-1 overflow-hidden rounded-full bg-surface-2" aria-hidden>
                    <span
                      className="block h-full bg-accent"
                      style={{ width: `${Math.min(100, row.pct_of_total)}%` }}
                    />
                  </span>
                  <span className="w-12 text-right text-xs text-muted">{row.pct_of_total.toFixed(1)}%</span>
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
